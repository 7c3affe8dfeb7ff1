/* puddle bench: solver speed per scene, particle count and thread count, as CSV rows. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <dirent.h>
#include <malloc.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PUDDLE_SCENES_DIR
#define PUDDLE_SCENES_DIR "scenes"
#endif

static const char usage[] =
	"Usage: puddle bench [SCENE...] [options]\n"
	"\n"
	"Times pdl_world_step() on each scene (default: every scenes/*.json, which takes minutes) for\n"
	"each particle count and thread count, and prints one CSV row per combination:\n"
	"  scene,particles,threads,steps,median_ms_per_step,steps_per_s,particle_steps_per_s,\n"
	"  mean_neighbours,bytes_per_particle,valid,backend,device_bytes_per_particle,stalled_ms\n"
	"bytes_per_particle is the memory the world holds from the allocator after running (heap\n"
	"growth from before it was built), divided by the particle count; valid is 1 when no particle was lost and none is NaN;\n"
	"backend is where the last step ran (cpu or cuda) and device_bytes_per_particle what the world\n"
	"holds in the GPU's memory (0 on the CPU). A CUDA row's threads are the CPU threads it would\n"
	"fall back to; its times include copying the particles to the GPU and back every step.\n"
	"stalled_ms is the mean ms per step the stepping thread slept waiting for a worker thread\n"
	"that had lost its core (pdl_profile.stalled): near 0 unless the solver is starved.\n"
	"Before the rows, a line on stderr says how many there will be and how many steps each takes.\n"
	"\n"
	"Options:\n"
	"  --particles N,...  rescale each scene (tank, fills, emitters, strokes; h kept) to about N\n"
	"                     particles (default: the scene as it is); a scene filled by emitters\n"
	"                     has only what they made by the row's last step, and says so\n"
	"  --threads N,...    thread counts (default: 1 and the core count)\n"
	"  --backend B,...    cpu, cuda: run each row on these (default: the scene's solver.backend)\n"
	"  --substeps N       solver steps per timed step (default: the scene's world.substeps)\n"
	"  --steps N          timed steps per row (default 100)\n"
	"  --warmup N         untimed steps before (default 20)\n"
	"  --csv FILE         also write the rows to FILE\n"
	"  --without-bodies   remove each scene's rigid bodies once the world is built, so the row times\n"
	"                     the same fluid particles without them (the scene is named\n"
	"                     NAME-without-bodies); with bodies and without, the rows give their cost\n"
	"  --stages           add the mean ms per step of each stage of the step (pdl_profile):\n"
	"                     forces_ms,predict_ms,springs_ms,density_ms,relax_ms,boundaries_ms,\n"
	"                     velocity_ms,bodies_ms,transfer_ms (CUDA: the GPU's own times, and the\n"
	"                     copying to the GPU and back)\n"
	"  -h, --help         this help\n"
	"\n"
	"Example:\n"
	"  puddle bench scenes/dam-break.json --particles 5000,20000 --threads 1,2 --csv out/bench.csv\n";

static const char header[] = "scene,particles,threads,steps,median_ms_per_step,steps_per_s,particle_steps_per_s,"
                             "mean_neighbours,bytes_per_particle,valid,backend,device_bytes_per_particle,stalled_ms\n";
static const char stage_header[] = ",forces_ms,predict_ms,springs_ms,density_ms,relax_ms,boundaries_ms,velocity_ms,bodies_ms,transfer_ms";


/* Bytes the process holds from the allocator (glibc: in-use heap plus mmapped blocks), so the
 * difference across building and running a world is what the world allocated, even when the
 * allocator reuses pages an earlier world gave back. Elsewhere: resident memory. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
static long held_bytes(void)
{
	struct mallinfo2 m = mallinfo2();
	return (long)(m.uordblks + m.hblkhd);
}
#else
static long held_bytes(void)
{
	FILE* f = fopen("/proc/self/statm", "r");
	long pages = 0, resident = 0;
	if (!f) return 0;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
	fclose(f);
	return resident * sysconf(_SC_PAGESIZE);
}
#endif

static int compare_double(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

typedef struct bench_row {
	int particles, threads;
	double scene_particles; /* what the whole (rescaled) scene makes, its emitters' to the end included */
	long long steps;
	double median_ms, mean_neighbours, bytes_per_particle, device_bytes_per_particle;
	bool valid;
	pdl_backend backend; /* where the last step ran */
	pdl_profile mean_stages; /* mean ms per step of each stage over the timed steps */
} bench_row;

/* Removes every body from a built world: the fluid the fill placed round them stays as it is, so a
 * run of the result times the same particles with no bodies (the bodies' cost). */
static void remove_bodies(pdl_world* w)
{
	pdl_body_id ids[64];
	int n;
	bool removed = true;
	while (removed && (n = pdl_world_bodies(w, ids, 64)) > 0)
		for (int k = 0; k < n && k < 64; ++k) removed = pdl_world_remove_body(w, ids[k], NULL) == PDL_OK && removed;
}

/* backend, substeps: -1 keeps the scene's */
/* EXIT_OK, EXIT_USAGE when the world is refused (a backend this machine lacks: bad input, as
 * puddle run says it), EXIT_FAILED otherwise. */
static int bench_one(const pdl_scene* base, double particles, int threads, int backend, int substeps,
                     long long steps, long long warmup, bool without_bodies, bench_row* row)
{
	pdl_scene* s = pdl_scene_clone(base);
	if (!s) return EXIT_FAILED;
	pdl_scene_override(s, particles, threads); /* as puddle run --particles --threads */
	if (backend >= 0) s->world.backend = (pdl_backend)backend;
	if (substeps > 0) s->world.substeps = substeps;
	long before = held_bytes();
	pdl_error err;
	pdl_world* w = pdl_scene_build_world(s, &err);
	if (!w) {
		fprintf(stderr, "%s\n", err.message);
		pdl_scene_destroy(s);
		return EXIT_USAGE;
	}
	if (without_bodies) remove_bodies(w);
	double* ms = malloc((size_t)steps * sizeof *ms);
	bool ok = ms != NULL;
	pdl_profile sum = {0};
	long long frame = 0;
	for (long long i = 0; ok && i < warmup + steps; ++i, ++frame) {
		if (pdl_scene_apply_frame(s, w, frame, &err) < 0) {
			fprintf(stderr, "%s\n", err.message);
			ok = false;
			break;
		}
		double t = cli_now();
		pdl_world_step(w);
		if (i < warmup) continue;
		ms[i - warmup] = 1000.0 * (cli_now() - t);
		pdl_profile p = pdl_world_profile(w);
		sum.forces += p.forces;
		sum.predict += p.predict;
		sum.springs += p.springs;
		sum.density += p.density;
		sum.relax += p.relax;
		sum.boundaries += p.boundaries;
		sum.velocity += p.velocity;
		sum.bodies += p.bodies;
		sum.transfer += p.transfer;
		sum.stalled += p.stalled;
	}
	if (ok) {
		qsort(ms, (size_t)steps, sizeof *ms, compare_double);
		pdl_stats st = pdl_world_stats(w);
		row->particles = st.particles;
		row->scene_particles = pdl_scene_estimate_particles(s);
		row->threads = pdl_world_thread_count(w);
		row->steps = steps;
		row->median_ms = steps % 2 ? ms[steps / 2] : 0.5 * (ms[steps / 2 - 1] + ms[steps / 2]);
		row->mean_neighbours = st.mean_neighbours;
		long grown = held_bytes() - before;
		row->bytes_per_particle = st.particles > 0 && grown > 0 ? (double)grown / st.particles : 0;
		row->valid = st.non_finite == 0 && cli_lost_particles(s, w) == 0;
		row->backend = pdl_world_profile(w).backend;
		row->device_bytes_per_particle = st.particles > 0 ? (double)st.device_bytes / st.particles : 0;
		float n = (float)steps;
		row->mean_stages = (pdl_profile){.forces = sum.forces / n, .predict = sum.predict / n,
		                                 .springs = sum.springs / n, .density = sum.density / n,
		                                 .relax = sum.relax / n, .boundaries = sum.boundaries / n,
		                                 .velocity = sum.velocity / n, .bodies = sum.bodies / n,
		                                 .transfer = sum.transfer / n, .stalled = sum.stalled / n};
	}
	free(ms);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
	return ok ? EXIT_OK : EXIT_FAILED;
}

/* "cpu,cuda" into pdl_backend values; false with a message naming the bad one. */
static bool parse_backends(const char* v, int* out, int* count)
{
	*count = 0;
	const char* at = v;
	while (*at) {
		size_t len = strcspn(at, ",");
		int found = -1;
		for (int b = 0; b < PDL_BACKEND_COUNT; ++b) {
			const char* name = pdl_scene_backend_name((pdl_backend)b);
			if (strlen(name) == len && strncmp(at, name, len) == 0) found = b;
		}
		if (found < 0 || *count >= PDL_BACKEND_COUNT) {
			fprintf(stderr, "puddle bench: --backend: %s: each must be cpu or cuda, once\n", v);
			return false;
		}
		out[(*count)++] = found;
		at += len;
		if (*at == ',') ++at;
	}
	if (*count == 0) fprintf(stderr, "puddle bench: --backend: give cpu, cuda or both\n");
	return *count > 0;
}

int cmd_bench(int argc, char** argv)
{
	static const char* const known[] = {"--particles", "--threads", "--backend", "--substeps", "--steps", "--warmup", "--csv", "--stages", "--without-bodies", "--help"};
	bool stages = false, without_bodies = false;
	long long particles[32] = {0}, threads[32] = {0}, steps = 100, warmup = 20, substeps = -1;
	int particle_count = 0, thread_count = 0, scene_count = 0, backends[PDL_BACKEND_COUNT], backend_count = 0;
	const char* csv_path = NULL;
	char** scenes = calloc((size_t)argc + 1, sizeof *scenes);
	if (!scenes) return EXIT_FAILED;
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		const char* v;
		bool ok = true;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			free(scenes);
			return EXIT_OK;
		} else if (strcmp(a, "--particles") == 0) {
			ok = (v = cli_option_value("bench", argc, argv, &i)) &&
			     cli_parse_int_list("bench", a, v, 1, 67108864, particles, 32, &particle_count);
		} else if (strcmp(a, "--threads") == 0) {
			ok = (v = cli_option_value("bench", argc, argv, &i)) &&
			     cli_parse_int_list("bench", a, v, 0, 256, threads, 32, &thread_count);
		} else if (strcmp(a, "--backend") == 0) {
			ok = (v = cli_option_value("bench", argc, argv, &i)) && parse_backends(v, backends, &backend_count);
		} else if (strcmp(a, "--substeps") == 0) {
			ok = (v = cli_option_value("bench", argc, argv, &i)) && cli_parse_int("bench", a, v, 1, 64, &substeps);
		} else if (strcmp(a, "--steps") == 0) {
			ok = (v = cli_option_value("bench", argc, argv, &i)) && cli_parse_int("bench", a, v, 1, 1000000, &steps);
		} else if (strcmp(a, "--warmup") == 0) {
			ok = (v = cli_option_value("bench", argc, argv, &i)) && cli_parse_int("bench", a, v, 0, 1000000, &warmup);
		} else if (strcmp(a, "--stages") == 0) {
			stages = true;
		} else if (strcmp(a, "--without-bodies") == 0) {
			without_bodies = true;
		} else if (strcmp(a, "--csv") == 0) {
			ok = (csv_path = cli_option_value("bench", argc, argv, &i)) != NULL;
		} else if (a[0] == '-' && a[1]) {
			cli_unknown_option("bench", a, known, (int)(sizeof known / sizeof known[0]));
			ok = false;
		} else {
			scenes[scene_count++] = argv[i];
		}
		if (!ok) {
			free(scenes);
			return EXIT_USAGE;
		}
	}
	char** found = NULL;
	char** list = scenes;
	if (scene_count == 0) {
		scene_count = cli_default_scenes(&found);
		list = found;
		if (scene_count == 0) {
			fprintf(stderr, "puddle bench: no scenes given and no scenes/*.json found\n");
			free(scenes);
			return EXIT_USAGE;
		}
	}
	if (thread_count == 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		threads[thread_count++] = 1;
		if (cores > 1) threads[thread_count++] = cores;
	}
	if (particle_count == 0) particles[particle_count++] = 0; /* 0: the scene as it is */
	if (backend_count == 0) backends[backend_count++] = -1; /* the scene's */

	/* load every scene first: a typo in the last one should not cost the whole run */
	pdl_scene** loaded = calloc((size_t)scene_count, sizeof *loaded);
	int exit_code = loaded ? EXIT_OK : EXIT_FAILED;
	for (int i = 0; loaded && i < scene_count; ++i)
		if (!(loaded[i] = cli_load_scene(list[i]))) exit_code = EXIT_USAGE;
	FILE* csv = NULL;
	char temp[1100] = "";
	if (exit_code == EXIT_OK && csv_path) {
		snprintf(temp, sizeof temp, "%s.tmp.%ld", csv_path, (long)getpid());
		csv = fopen(temp, "w");
		if (!csv) {
			fprintf(stderr, "puddle bench: %s: cannot write: %s\n", csv_path, strerror(errno));
			exit_code = EXIT_FAILED;
		}
	}
	if (exit_code == EXIT_OK) {
		/* what will run, before it runs: `puddle bench` alone runs every scene, which takes
		 * minutes, and said nothing of it (on stderr: stdout is the CSV) */
		long long rows = (long long)scene_count * particle_count * backend_count * thread_count;
		fprintf(stderr, "puddle bench: %d scene%s (%s) x %d particle count%s x %d thread count%s%s = %lld row%s of %lld "
		        "untimed + %lld timed steps%s\n",
		        scene_count, scene_count == 1 ? "" : "s", found ? "every scenes/*.json: name scenes to run fewer" : "as given",
		        particle_count, particle_count == 1 ? "" : "s", thread_count, thread_count == 1 ? "" : "s",
		        backend_count > 1 ? " x 2 backends" : "", rows, rows == 1 ? "" : "s", warmup, steps,
		        particles[0] == 0 && particle_count == 1 ? " (each scene at its own size)" : "");
		char head[512];
		snprintf(head, sizeof head, "%.*s%s\n", (int)strlen(header) - 1, header, stages ? stage_header : "");
		fputs(head, stdout);
		if (csv) fputs(head, csv);
	}
	for (int i = 0; exit_code == EXIT_OK && i < scene_count; ++i)
		for (int p = 0; exit_code == EXIT_OK && p < particle_count; ++p)
			for (int b = 0; exit_code == EXIT_OK && b < backend_count; ++b)
			for (int t = 0; exit_code == EXIT_OK && t < thread_count; ++t) {
				bench_row row;
				exit_code = bench_one(loaded[i], (double)particles[p], (int)threads[t], backends[b], (int)substeps, steps,
				                      warmup, without_bodies, &row);
				if (exit_code != EXIT_OK) break;
				double sps = row.median_ms > 0 ? 1000.0 / row.median_ms : 0;
				char line[512];
				int len = snprintf(line, sizeof line, "%s%s,%d,%d,%lld,%.4f,%.2f,%.0f,%.2f,%.0f,%d,%s,%.0f,%.4f", loaded[i]->name,
				                   without_bodies ? "-without-bodies" : "", row.particles, row.threads, row.steps, row.median_ms, sps, sps * row.particles,
				                   row.mean_neighbours, row.bytes_per_particle, row.valid ? 1 : 0,
				                   pdl_scene_backend_name(row.backend), row.device_bytes_per_particle, row.mean_stages.stalled);
				const pdl_profile* m = &row.mean_stages;
				if (stages && len > 0 && len < (int)sizeof line)
					len += snprintf(line + len, sizeof line - (size_t)len, ",%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f",
					                m->forces, m->predict, m->springs, m->density, m->relax, m->boundaries,
					                m->velocity, m->bodies, m->transfer);
				if (len > 0 && len < (int)sizeof line - 1) strcat(line, "\n");
				fputs(line, stdout);
				fflush(stdout);
				if (csv) fputs(line, csv);
				/* a row whose count is not the one asked for says why: a scene whose fluid comes
				 * from emitters has only what they emitted by the row's last step */
				const double asked = (double)particles[p];
				if (asked > 0 && fabs(row.particles - asked) > 0.1 * asked) {
					if (loaded[i]->emitter_count > 0)
						fprintf(stderr, "puddle bench: %s: %d particles, not the %.0f asked for: its fluid comes from "
						        "emitters, which had made that many by the row's last step, frame %lld (over the whole "
						        "scene they make about %.0f; a longer --warmup lets them fill)\n",
						        loaded[i]->name, row.particles, asked, warmup + steps, row.scene_particles);
					else
						fprintf(stderr, "puddle bench: %s: %d particles, not the %.0f asked for (the rescaled scene's "
						        "fills make %.0f)\n", loaded[i]->name, row.particles, asked, row.scene_particles);
				}
			}
	if (csv) {
		bool ok = !ferror(csv);
		ok = fclose(csv) == 0 && ok;
		if (exit_code == EXIT_OK && ok && rename(temp, csv_path) != 0) ok = false;
		if (exit_code == EXIT_OK && !ok) {
			fprintf(stderr, "puddle bench: %s: write failed: %s\n", csv_path, strerror(errno));
			exit_code = EXIT_FAILED;
		}
		remove(temp);
	}
	for (int i = 0; loaded && i < scene_count; ++i) pdl_scene_destroy(loaded[i]);
	free(loaded);
	for (int i = 0; found && i < scene_count; ++i) free(found[i]);
	free(found);
	free(scenes);
	return exit_code;
}
