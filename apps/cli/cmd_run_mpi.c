/* puddle run under mpirun: one scene split over the processes (mpi/, docs/mpi.md).
 *
 *     mpirun -np 4 puddle run scenes/dam-break.json --steps 600 --hash --vtk --snapshot-every 100
 *
 * Used when the command line was built with Open MPI and started by mpirun (Open MPI's
 * OMPI_COMM_WORLD_SIZE is set). Every process loads the scene and builds the same world; the
 * layer keeps each process's slab. What one process prints is printed once, by process 0: the
 * progress, the summary, and every error (a bad scene or option is found alike by every process,
 * which all exit 2; what one process alone saw, a file it cannot write or particles its part
 * lost, reaches process 0 where the processes agree on the outcome (pdl_mpi_agree) and is said
 * there after "process R: ", and all exit 1). SIGINT and SIGTERM stop every process together
 * (interrupt.c): they agree on the flag at the same points of each frame, or each ends itself
 * within a second when it is in a long build, step or write. This version runs both solvers,
 * springs across the cuts, rigid bodies (every process holds them all), and strokes and
 * emitters each frame through the layer's frame function; it writes ParaView pieces, CSV, PLY
 * and snapshots (collectively, mpi/src/mpi_files.c; the bodies' files by process 0) and resumes
 * from any snapshot, whatever process count wrote it. */
#include "cli.h"

#include "puddle/export.h"
#include "puddle/mpi.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_mpi[] =
	"Usage: mpirun -np N puddle run SCENE [--steps N | --seconds T] [--threads T] [--particles N]\n"
	"                                     [--out DIR] [--vtk] [--ply] [--csv] [--export-every K]\n"
	"                                     [--snapshot-every K] [--resume SNAP] [--hash] [--quiet]\n"
	"                                     [--mpi-stats FILE]\n"
	"One world split over N processes (docs/mpi.md); the same bits as one process.\n"
	"  --vtk    DIR/vtk/frame_NNNNNN.pvtp with one piece per process (frame_NNNNNN_R.vtp) and\n"
	"           DIR/NAME.pvd\n"
	"  --ply, --csv, --snapshot-every, --resume: the same files as one process writes and reads\n"
	"  --mpi-stats FILE  a CSV row per frame and process: particles owned and imported, bytes and\n"
	"           messages exchanged, seconds in each part of the step (pdl_mpi_world_stats);\n"
	"           and their summary (imbalance, exchange and step time a frame) in the summary\n"
	"Started by mpirun (OMPI_COMM_WORLD_SIZE set), or by another launcher such as Slurm's srun\n"
	"with PUDDLE_UNDER_MPI=1 in the environment.\n";

/* The scene's strokes (pointers) and emitters for one frame, on each process's world: the
 * layer's frame function (pdl_mpi_frame_fn). */
typedef struct scene_frame {
	const pdl_scene* scene;
	long long frame;   /* the frame about to be stepped */
	long long emitted; /* particles the emitters added so far */
} scene_frame;

static bool apply_scene_frame(pdl_world* world, void* context, pdl_error* err)
{
	scene_frame* f = context;
	int added = pdl_scene_apply_frame(f->scene, world, f->frame, err);
	if (added < 0) return false;
	f->emitted += added;
	return true;
}

/* --mpi-stats: one row per frame and process, gathered to process 0 (the columns of
 * stats_header, from the change in pdl_mpi_world_stats over the frame). */
enum { STATS_VALUES = 14 };
static const char stats_header[] = "frame,rank,owned,halo,bytes_sent,bytes_received,messages_sent,messages_received,"
                                   "collectives,recut,balance_s,exchange_s,build_s,step_s,keep_s\n";

static void stats_values(const pdl_mpi_world_stats* now, const pdl_mpi_world_stats* before, double* v)
{
	v[0] = (double)(now->owned - before->owned), v[1] = (double)(now->halo - before->halo);
	v[2] = (double)(now->bytes_sent - before->bytes_sent), v[3] = (double)(now->bytes_received - before->bytes_received);
	v[4] = (double)(now->messages_sent - before->messages_sent);
	v[5] = (double)(now->messages_received - before->messages_received);
	v[6] = (double)(now->collectives - before->collectives), v[7] = (double)(now->recuts - before->recuts);
	v[8] = now->balance_seconds - before->balance_seconds, v[9] = now->exchange_seconds - before->exchange_seconds;
	v[10] = now->build_seconds - before->build_seconds, v[11] = now->step_seconds - before->step_seconds;
	v[12] = now->keep_seconds - before->keep_seconds, v[13] = 0;
}

/* All processes end alike. The outcome is decided: the signal watcher ends first, so that a
 * signal now (mpirun's SIGTERM when another process exited with an error and it ends the job)
 * ends the process at once with this status rather than say "interrupted". */
static int finish(int code)
{
	cli_interrupt_end(code);
	MPI_Finalize();
	return code;
}

/* Whether any process took SIGINT or SIGTERM: every process asks at the same points, and all
 * stop together when one did. Collective. */
static bool interrupted_anywhere(void)
{
	int mine = cli_interrupt_signal(), any = 0;
	MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any) cli_interrupt_stopping();
	return any != 0;
}

/* Tells the signal watcher the run's other processes on this machine, to hand each signal on
 * to, and process 0's PID, which names the collective files' temporaries. Collective. */
static void share_pids(int rank, int size)
{
	char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
	int len = 0, pid = (int)getpid();
	MPI_Get_processor_name(host, &len);
	char* hosts = calloc((size_t)size, sizeof host);
	int* pids = calloc((size_t)size, sizeof *pids);
	bool ok = hosts && pids;
	MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD);
	if (ok) {
		MPI_Allgather(host, (int)sizeof host, MPI_CHAR, hosts, (int)sizeof host, MPI_CHAR, MPI_COMM_WORLD);
		MPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
		for (int r = 0; r < size; ++r)
			if (strncmp(hosts + (size_t)r * sizeof host, host, sizeof host) != 0) pids[r] = 0;
		cli_interrupt_peers(pids, size, pids[0], rank);
	}
	free(hosts), free(pids);
}

/* Says, from process 0, a reason the processes agreed on, after "puddle run: " when `command`
 * or when process R > 0 alone had it (it then comes as "process R: ..."). */
static void say_agreed(int rank, const char* why, bool command)
{
	if (rank != 0 || !*why) return;
	fprintf(stderr, "%s%s\n", command || strncmp(why, "process ", 8) == 0 ? "puddle run: " : "", why);
}

/* Particles of this process's slab outside the scene's bounds or not finite (cli_lost_in);
 * -1 when out of memory. */
static long long lost_here(pdl_mpi_world* split, const pdl_scene* scene)
{
	pdl_particle_data p;
	return pdl_mpi_world_local_particles(split, &p) ? cli_lost_in(scene, &p) : -1;
}

typedef struct mpi_run {
	pdl_mpi_world* split;
	const pdl_world* world; /* this process's: its slab and halo, and every body */
	const pdl_scene* scene;
	bool vtk, ply, csv;
	long long export_every, snapshot_every, exports, snapshots;
	bool bodies; /* the world has rigid bodies: their files too, from process 0 (every process holds them all) */
	cli_pvd_list pvd, body_pvd;
	char dir[1024], pvd_path[1200];
	pdl_error err;
} mpi_run;

/* Process 0's part of a frame's files: the bodies' (every process holds every body, with the
 * same bits) and the .pvd; false on every process, with process 0's reason, when it failed.
 * Collective. */
static bool rank0_outputs(mpi_run* r, long long done, bool vtk, int rank)
{
	char path[1200];
	bool ok = true;
	if (rank == 0) {
		const pdl_world* w = r->world;
		if (vtk && r->bodies) {
			snprintf(path, sizeof path, "%s/vtk/bodies_%06lld.vtp", r->dir, done);
			ok = pdl_export_bodies_vtp(path, w, &r->err);
			if (ok && !(ok = cli_pvd_add(&r->body_pvd, done))) pdl_error_fill(&r->err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "%s: out of memory", r->pvd_path);
		}
		if (vtk && ok) {
			ok = cli_pvd_add(&r->pvd, done);
			if (!ok) pdl_error_fill(&r->err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "%s: out of memory", r->pvd_path);
			ok = ok && cli_pvd_write(&r->pvd, r->bodies ? &r->body_pvd : NULL, r->pvd_path, r->scene->world.dt, &r->err);
		}
		if (!vtk && r->bodies) {
			snprintf(path, sizeof path, "%s/csv/bodies_%06lld.csv", r->dir, done);
			ok = pdl_export_bodies_csv(path, w, done, &r->err);
		}
	}
	MPI_Bcast(&ok, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD);
	if (!ok) MPI_Bcast(&r->err, (int)sizeof r->err, MPI_BYTE, 0, MPI_COMM_WORLD);
	return ok;
}

/* The files of the frame `done` frames into the run; collective, false on every process (with
 * the reason in r->err) when one could not write. */
static bool frame_outputs(mpi_run* r, long long done, int rank)
{
	char path[1200];
	pdl_mpi_world* s = r->split;
	if ((r->vtk || r->ply || r->csv) && done % r->export_every == 0) {
		if (r->vtk) {
			snprintf(path, sizeof path, "%s/vtk/frame_%06lld.pvtp", r->dir, done);
			if (!pdl_mpi_world_write_vtk(s, path, &r->err) || !rank0_outputs(r, done, true, rank))
				return false;
		}
		snprintf(path, sizeof path, "%s/ply/frame_%06lld.ply", r->dir, done);
		if (r->ply && !pdl_mpi_world_write_ply(s, path, &r->err)) return false;
		snprintf(path, sizeof path, "%s/csv/frame_%06lld.csv", r->dir, done);
		if (r->csv && (!pdl_mpi_world_write_csv(s, path, &r->err) || !rank0_outputs(r, done, false, rank)))
			return false;
		r->exports++;
	}
	if (r->snapshot_every && done % r->snapshot_every == 0 && done > 0) {
		snprintf(path, sizeof path, "%s/snapshots/snap_%06lld.pdls", r->dir, done);
		pdl_snapshot_info info = {done, pdl_scene_hash(r->scene), ""};
		snprintf(info.scene_name, sizeof info.scene_name, "%s", r->scene->name);
		if (!pdl_mpi_world_write_snapshot(s, path, &info, &r->err)) return false;
		r->snapshots++;
	}
	return true;
}

/* Process 0 makes the run's folders; false on every process when it could not. */
static bool make_dirs(mpi_run* r, bool snapshots, int rank)
{
	bool ok = true;
	if (rank == 0) {
		const char* subs[4] = {r->vtk ? "vtk" : NULL, r->ply ? "ply" : NULL, r->csv ? "csv" : NULL,
		                       snapshots ? "snapshots" : NULL};
		for (int k = 0; ok && k < 4; ++k) {
			if (!subs[k]) continue;
			char path[1100];
			snprintf(path, sizeof path, "%s/%s", r->dir, subs[k]);
			if (!cli_make_dirs(path)) {
				pdl_error_fill(&r->err, PDL_ERR_FILE_WRITE, NULL, NULL, "%s: cannot create folder: %s", path, strerror(errno));
				ok = false;
			}
		}
	}
	MPI_Bcast(&ok, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD);
	return ok;
}

int cmd_run_mpi(int argc, char** argv)
{
	/* before MPI_Init, so that its threads too block the signals for the watcher (which
	 * finish() ends) */
	cli_interrupt_start();
	/* the launcher's rank until MPI says it: a process other than 0 never says it ends, also
	 * when MPI_Init is slow and its stderr not yet sent nowhere */
	const char* launched = getenv("OMPI_COMM_WORLD_RANK");
	cli_interrupt_peers(NULL, 0, 0, launched ? atoi(launched) : 0);
	MPI_Init(&argc, &argv);
	int rank = 0, size = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	share_pids(rank, size);
	/* every process sees the same arguments and scene, so each finds the same errors: only
	 * process 0 says them (the others' stderr goes nowhere); what one process alone finds
	 * reaches process 0 through an agreement (say_agreed) */
	if (rank != 0 && !freopen("/dev/null", "w", stderr)) return finish(EXIT_FAILED);
	FILE* out = rank == 0 ? stdout : NULL;
	const char *path = NULL, *out_dir = NULL, *resume = NULL, *stats_path = NULL;
	long long steps = -1, threads = -1, particles = 0, export_every = 0, snapshot_every = 0;
	double seconds = -1;
	bool hash = false, quiet = false, vtk = false, ply = false, csv = false, ok = true;
	for (int i = 1; i < argc && ok; ++i) {
		const char* a = argv[i];
		const char* v;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			if (out) fputs(usage_mpi, out);
			return finish(EXIT_OK);
		} else if (strcmp(a, "--steps") == 0) {
			ok = (v = cli_option_value("run", argc, argv, &i)) && cli_parse_int("run", a, v, 1, 1LL << 40, &steps);
		} else if (strcmp(a, "--threads") == 0) {
			ok = (v = cli_option_value("run", argc, argv, &i)) && cli_parse_int("run", a, v, 0, 256, &threads);
		} else if (strcmp(a, "--particles") == 0) {
			ok = (v = cli_option_value("run", argc, argv, &i)) && cli_parse_int("run", a, v, 1, 100000000, &particles);
		} else if (strcmp(a, "--seconds") == 0) {
			ok = (v = cli_option_value("run", argc, argv, &i)) && cli_parse_float("run", a, v, 0, 86400, &seconds);
		} else if (strcmp(a, "--export-every") == 0 || strcmp(a, "--snapshot-every") == 0) {
			ok = (v = cli_option_value("run", argc, argv, &i)) &&
			     cli_parse_int("run", a, v, 1, 1LL << 40, a[2] == 'e' ? &export_every : &snapshot_every);
		} else if (strcmp(a, "--out") == 0 || strcmp(a, "--resume") == 0 || strcmp(a, "--mpi-stats") == 0) {
			ok = (v = cli_option_value("run", argc, argv, &i)) != NULL;
			if (ok && !*v) fprintf(stderr, "puddle run: %s: must not be empty\n", a), ok = false;
			if (ok) *(a[2] == 'o' ? &out_dir : a[2] == 'r' ? &resume : &stats_path) = v;
		} else if (strcmp(a, "--hash") == 0 || strcmp(a, "--quiet") == 0 || strcmp(a, "--vtk") == 0 ||
		           strcmp(a, "--ply") == 0 || strcmp(a, "--csv") == 0) {
			*(a[2] == 'h' ? &hash : a[2] == 'q' ? &quiet : a[2] == 'v' ? &vtk : a[2] == 'p' ? &ply : &csv) = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "puddle run: %s is not available under mpirun yet (docs/mpi.md lists what is)\n", a);
			ok = false;
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "puddle run: one scene only, got '%s' too\n", a);
			ok = false;
		}
	}
	if (ok && !path) fprintf(stderr, "puddle run: which scene?\n%s", usage_mpi), ok = false;
	if (ok && steps > 0 && seconds > 0) fprintf(stderr, "puddle run: --steps and --seconds both say how long; give one\n"), ok = false;
	pdl_scene* scene = ok ? cli_load_scene(path) : NULL;
	ok = ok && scene;
	/* as puddle run: rescaled (with room for the count) before the scene hash a snapshot is
	 * checked against */
	if (ok) pdl_scene_override(scene, (double)particles, (int)threads);
	/* a split run draws no pictures and exports no diffuse particles, and each process would make
	 * them from its ghosts too: they are left out (they never change the fluid or its hash) */
	if (ok) scene->diffuse.enabled = 0;
	/* the same inputs everywhere, so every process fails alike, but a build can also run out of
	 * memory in one process only: all agree before the first collective call. The reasons the
	 * option and scene checks printed are process 0's already; why is what is left to say. */
	pdl_error why = {0};
	pdl_error serr;
	pdl_world* world = ok ? pdl_scene_build_world(scene, &serr) : NULL;
	if (ok && !world) why = serr, ok = false;
	if (!ok && !why.message[0] && rank > 0)
		pdl_error_fill(&why, PDL_ERR_MPI_PROCESS, NULL, NULL, "%s or the options were refused there, not on process 0",
		               path ? path : "the scene");
	ok = pdl_mpi_agree(MPI_COMM_WORLD, ok, &why);
	const bool built = ok; /* the reasons from here on are the command's, said after "puddle run: " */
	/* the split's grid frame comes from the scene's starting state, also when resuming, so a
	 * resumed run sums in the same order as one that did not stop */
	pdl_error perr;
	pdl_mpi_world* split = ok ? pdl_mpi_world_create(world, MPI_COMM_WORLD, &perr) : NULL;
	if (ok && !split) pdl_error_fill(&why, perr.id, path, NULL, "%s", perr.message), ok = false;
	const long long total = ok ? (steps > 0 ? steps : pdl_scene_frames_for(scene, seconds > 0 ? seconds : scene->output.seconds)) : 0;
	long long start = 0;
	if (ok && resume) { /* every process reads the same file; all agree before reading it */
		pdl_snapshot_info info;
		pdl_error err;
		bool peeked = pdl_snapshot_peek(resume, &info, &err);
		if (!peeked) pdl_error_fill(&why, err.id, NULL, NULL, "--resume: %s", err.message);
		else if (info.scene_hash != pdl_scene_hash(scene))
			pdl_error_fill(&why, PDL_ERR_SNAPSHOT_WORLD, NULL, NULL,
			               "--resume: %s was made from scene '%s' with other settings than %s; resuming would not "
			               "continue the same run",
			               resume, info.scene_name, path);
		ok = pdl_mpi_agree(MPI_COMM_WORLD, peeked && info.scene_hash == pdl_scene_hash(scene), &why);
		if (ok && !pdl_mpi_world_read_snapshot(split, resume, &info, &err))
			pdl_error_fill(&why, err.id, NULL, NULL, "--resume: %s", err.message), ok = false;
		else if (ok && (start = info.frame) > total)
			pdl_error_fill(&why, PDL_ERR_SNAPSHOT_WORLD, NULL, NULL,
			               "--resume: the snapshot is at frame %lld, past the end of this run (frame %lld)", start, total),
				ok = false;
	}
	if (!ok) { /* every process failed alike, or agreed to: exit 2 from all */
		say_agreed(rank, why.message, built);
		pdl_mpi_world_destroy(split);
		pdl_world_destroy(world);
		pdl_scene_destroy(scene);
		return finish(EXIT_USAGE);
	}
	const double dt = scene->world.dt;
	mpi_run r = {.split = split, .world = world, .scene = scene, .vtk = vtk, .ply = ply, .csv = csv, .snapshot_every = snapshot_every};
	long long video_every = llround(1.0 / (scene->output.fps * dt));
	r.export_every = export_every ? export_every : video_every > 0 ? video_every : 1;
	char name[128];
	cli_run_name(path, name, sizeof name);
	if (out_dir) snprintf(r.dir, sizeof r.dir, "%s", out_dir);
	else snprintf(r.dir, sizeof r.dir, "out/%s", name);
	cli_interrupt_watch_dir(0, r.dir);
	snprintf(r.pvd_path, sizeof r.pvd_path, "%s/%s.pvd", r.dir, name);
	r.pvd = (cli_pvd_list){.sub = "vtk", .prefix = "frame", .ext = ".pvtp"};
	r.body_pvd = (cli_pvd_list){.sub = "vtk", .prefix = "bodies", .ext = ".vtp"};
	r.bodies = pdl_world_body_count(world) > 0;
	int code = EXIT_FAILED;
	FILE* stats_file = NULL; /* written to NAME.tmp.PID, renamed when whole, like every output */
	char stats_temp[1100] = "";
	double* stats_rows = NULL; /* process 0: STATS_VALUES per process, one frame */
	bool stats_ok = true, stopped = false;
	if ((stopped = interrupted_anywhere())) goto done;
	if (!make_dirs(&r, snapshot_every > 0, rank)) {
		fprintf(stderr, "puddle run: %s\n", r.err.message);
		goto done;
	}
	if (stats_path) {
		bool opened = true;
		if (rank == 0) {
			snprintf(stats_temp, sizeof stats_temp, "%s.tmp.%ld", stats_path, (long)getpid());
			cli_watch_parent(1, stats_path);
			stats_file = fopen(stats_temp, "w");
			stats_rows = malloc((size_t)size * STATS_VALUES * sizeof *stats_rows);
			if (!stats_file || !stats_rows) {
				pdl_error_fill(&r.err, PDL_ERR_EXPORT_DATA, NULL, NULL, "--mpi-stats: %s: %s", stats_path, stats_file ? "out of memory" : strerror(errno));
				opened = false;
			} else
				fputs(stats_header, stats_file);
		}
		MPI_Bcast(&opened, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD);
		if (!opened) {
			fprintf(stderr, "puddle run: %s\n", r.err.message);
			goto done;
		}
	}
	/* the earlier run wrote the frames up to the snapshot's, that one included */
	if (rank == 0 && vtk && start > 0) cli_pvd_scan(&r.pvd, r.dir, start), cli_pvd_scan(&r.body_pvd, r.dir, start);
	const long long particles_before = pdl_mpi_world_particle_count(split);
	const bool ghosts = pdl_mpi_world_uses_ghosts(split);
	if (out && !quiet && ghosts)
		fprintf(out, "%s: %lld particles over %d processes, frames %lld to %lld, ghosts exchanged each substep\n",
		        scene->name, particles_before, size, start, total);
	else if (out && !quiet)
		fprintf(out, "%s: %lld particles over %d processes, frames %lld to %lld, halo %.2f world units\n", scene->name,
		        particles_before, size, start, total, (double)pdl_mpi_world_halo(split));
	cli_progress progress;
	cli_progress_begin(&progress, scene->name, start, total, rank == 0 && !quiet);
	MPI_Barrier(MPI_COMM_WORLD);
	double started = cli_now(), stepping = 0;
	long long halo_sum = 0;
	double imbalance_sum = 0; /* process 0, --mpi-stats: over the frames, busiest owned / mean owned */
	pdl_mpi_world_reset_stats(split);
	pdl_mpi_world_stats before = pdl_mpi_world_get_stats(split);
	/* the starting state is a frame too (frame 0); a resumed run wrote it before */
	ok = start > 0 || (stopped = interrupted_anywhere()) || frame_outputs(&r, 0, rank);
	scene_frame frame_input = {.scene = scene};
	pdl_mpi_world_set_frame_fn(split, apply_scene_frame, &frame_input);
	/* a signal is agreed on before each step and before each frame's files: a write not begun */
	for (long long f = start; ok && !stopped && f < total; ++f) {
		if ((stopped = interrupted_anywhere())) break;
		double t = cli_now();
		frame_input.frame = f;
		if (!pdl_mpi_world_step(split, &r.err)) {
			ok = false; /* the same reason on every process; printed once below */
			break;
		}
		stepping += cli_now() - t;
		halo_sum += pdl_mpi_world_halo_count(split);
		if (stats_path) {
			pdl_mpi_world_stats now = pdl_mpi_world_get_stats(split);
			double v[STATS_VALUES];
			stats_values(&now, &before, v);
			before = now;
			MPI_Gather(v, STATS_VALUES, MPI_DOUBLE, stats_rows, STATS_VALUES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
			if (rank == 0) {
				double most = 0, sum = 0;
				for (int p = 0; p < size; ++p) {
					const double* w = stats_rows + (size_t)p * STATS_VALUES;
					most = w[0] > most ? w[0] : most, sum += w[0];
					fprintf(stats_file, "%lld,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.6f,%.6f,%.6f,%.6f,%.6f\n", f + 1, p,
					        w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12]);
				}
				imbalance_sum += sum > 0 ? most / (sum / size) : 1.0;
			}
		}
		if ((stopped = interrupted_anywhere())) break;
		ok = frame_outputs(&r, f + 1, rank);
		cli_progress_update(&progress, f + 1, pdl_world_time(world));
	}
	cli_progress_end(&progress);
	if (stopped) goto done;
	if (!ok) {
		fprintf(stderr, "puddle run: %s\n", r.err.message);
		goto done;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	double wall = cli_now() - started;
	const long long frames = total - start;
	long long after = pdl_mpi_world_particle_count(split), halo_all = 0;
	MPI_Reduce(&halo_sum, &halo_all, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	/* lost particles (outside world.bounds, or NaN: those go to the last process) are each
	 * process's own; process 0 says where */
	long long lost_mine = lost_here(split, scene), *lost = rank == 0 ? calloc((size_t)size, sizeof *lost) : NULL;
	bool gathered = rank != 0 || lost;
	MPI_Bcast(&gathered, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD);
	if (gathered) MPI_Gather(&lost_mine, 1, MPI_LONG_LONG, lost, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	long long lost_all = gathered ? 0 : -1;
	char lost_where[400] = "";
	for (int p = 0; lost && p < size; ++p) {
		size_t at = strlen(lost_where);
		if (lost[p] < 0) lost_all = -1; /* out of memory counting them */
		if (lost[p] > 0 && lost_all >= 0) lost_all += lost[p];
		if (lost[p] != 0 && at < sizeof lost_where)
			snprintf(lost_where + at, sizeof lost_where - at, "%s%lld on process %d", at ? ", " : "", lost[p], p);
	}
	free(lost);
	MPI_Bcast(&lost_all, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	uint64_t h = hash ? pdl_mpi_world_hash(split) : 0;
	if (out && !quiet) {
		fprintf(out, "  wall time          %.3f s (%.1f frames/s; stepping %.3f s on process 0)\n", wall,
		        wall > 0 ? (double)frames / wall : 0.0, stepping);
		fprintf(out, "  particles          %lld -> %lld\n", particles_before, after);
		fprintf(out, "  particles lost     %lld%s\n", lost_all,
		        lost_all ? "  (outside world.bounds or not finite)" : "");
		fprintf(out, ghosts ? "  ghost particles    %.0f a process a substep\n" : "  halo particles     %.0f a process a frame\n",
		        frames > 0 ? (double)halo_all / (double)(frames * size) : 0.0);
		/* (the same count in every process: each decision comes from one allreduce) */
		long long widened = pdl_mpi_world_get_stats(split).widened;
		if (widened > 0)
			fprintf(out, "  halo widened       %lld of %lld frames stepped again (the flow moved further than predicted)\n",
			        widened, frames);
		if (r.exports || r.snapshots)
			fprintf(out, "  wrote              %lld export frames, %lld snapshots (%s)\n", r.exports, r.snapshots, r.dir);
	}
	if (stats_path) { /* sums over the frames, then the mean, least and most over the processes */
		pdl_mpi_world_stats st = pdl_mpi_world_get_stats(split);
		double mine[6] = {st.exchange_seconds, st.step_seconds, st.build_seconds + st.keep_seconds, st.balance_seconds,
		                  (double)st.bytes_sent, (double)st.messages_sent};
		double lo[6], hi[6], sum[6];
		MPI_Reduce(mine, lo, 6, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
		MPI_Reduce(mine, hi, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		MPI_Reduce(mine, sum, 6, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		if (rank == 0) {
			stats_ok = !ferror(stats_file);
			int saved = errno;
			if (fclose(stats_file) != 0) stats_ok = false, saved = errno;
			stats_file = NULL;
			if (stats_ok && rename(stats_temp, stats_path) != 0) stats_ok = false, saved = errno;
			const double per = frames > 0 ? 1000.0 / (double)frames : 0.0; /* ms a frame */
			if (!stats_ok) fprintf(stderr, "puddle run: --mpi-stats: %s: write failed: %s\n", stats_path, strerror(saved));
			if (out && !quiet) {
				fprintf(out, "  imbalance          %.3f (busiest process's particles / the mean, mean over the frames)\n",
				        frames > 0 ? imbalance_sum / (double)frames : 1.0);
				const char* names[4] = {"exchange", "step", "build + keep", "balance"};
				for (int k = 0; k < 4; ++k)
					fprintf(out, "  %-18s %.3f ms a frame (mean over processes; least %.3f, most %.3f)\n", names[k],
					        sum[k] / size * per, lo[k] * per, hi[k] * per);
				fprintf(out, "  sent               %.0f bytes in %.2f messages a process a frame\n",
				        sum[4] / size * per / 1000.0, sum[5] / size * per / 1000.0);
				fprintf(out, "  stats              %s\n", stats_path);
			}
		}
		MPI_Bcast(&stats_ok, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD); /* every process exits alike */
	}
	if (out && hash) fprintf(out, "  state hash (ids)   %016llx\n", (unsigned long long)h);
	if (rank == 0 && lost_all > 0)
		fprintf(stderr,
		        "puddle run: %lld particles lost (left world.bounds or became NaN; %s): the scene is unstable\n",
		        lost_all, lost_where);
	else if (rank == 0 && lost_all < 0)
		fprintf(stderr, "puddle run: out of memory counting the lost particles (%s)\n", lost_where);
	if (rank == 0 && after != particles_before + frame_input.emitted)
		fprintf(stderr, "puddle run: %lld particles at the start and %lld added, but %lld at the end\n",
		        particles_before, frame_input.emitted, after);
	code = after == particles_before + frame_input.emitted && stats_ok && lost_all == 0 ? EXIT_OK : EXIT_FAILED;
done:
	if (stopped) {
		if (rank == 0) fprintf(stderr, "puddle run: interrupted; finished files are kept\n");
		code = EXIT_INTERRUPTED;
	}
	if (stats_file) fclose(stats_file);
	if (stats_temp[0]) remove(stats_temp); /* gone once renamed */
	free(stats_rows);
	free(r.pvd.frames), free(r.body_pvd.frames);
	pdl_mpi_world_destroy(split);
	pdl_world_destroy(world);
	pdl_scene_destroy(scene);
	return finish(code);
}
