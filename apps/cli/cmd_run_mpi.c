/* puddle run under mpirun: one scene split over the processes (mpi/, docs/mpi.md).
 *
 *     mpirun -np 4 puddle run scenes/dam-break.json --steps 600 --hash
 *
 * Used when the command line was built with Open MPI and started by mpirun (Open MPI's
 * OMPI_COMM_WORLD_SIZE is set). Every process loads the scene and builds the same world; the
 * layer keeps each process's slab. What one process prints is printed once, by process 0; a bad
 * scene or option is reported once and every process exits 2. This first version runs the Clavet
 * solver on scenes without emitters, strokes, springs or bodies, and writes no files: --steps or
 * --seconds, --threads (per process), --particles, --hash. */
#include "cli.h"

#include "puddle/mpi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage_mpi[] =
	"Usage: mpirun -np N puddle run SCENE [--steps N | --seconds T] [--threads T] [--particles N]\n"
	"                                     [--hash]\n"
	"One world split over N processes (docs/mpi.md); the same bits as one process.\n";

bool cli_under_mpi(void)
{
	const char* size = getenv("OMPI_COMM_WORLD_SIZE");
	return size && *size;
}

/* Process 0 prints; all return the same code. */
static int finish(int code)
{
	MPI_Finalize();
	return code;
}

int cmd_run_mpi(int argc, char** argv)
{
	MPI_Init(&argc, &argv);
	int rank = 0, size = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char* cmd = "puddle run";
	FILE* out = rank == 0 ? stdout : NULL;
	FILE* errors = rank == 0 ? stderr : fopen("/dev/null", "w");
	if (!errors) errors = stderr;
	const char* path = NULL;
	long long steps = -1, threads = -1, particles = 0;
	double seconds = -1;
	bool hash = false, ok = true;
	for (int i = 1; i < argc && ok; ++i) {
		const char* a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			if (out) fputs(usage_mpi, out);
			if (errors != stderr) fclose(errors);
			return finish(EXIT_OK);
		} else if (strcmp(a, "--steps") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--particles") == 0) {
			const char* v = i + 1 < argc ? argv[++i] : NULL;
			long long* target = a[2] == 's' ? &steps : a[2] == 't' ? &threads : &particles;
			char* end = NULL;
			long long n = v ? strtoll(v, &end, 10) : -1;
			ok = v && end && *end == '\0' && n >= (a[2] == 't' ? 0 : 1) && n <= 100000000;
			if (!ok) fprintf(errors, "%s: %s: must be a whole number %s, got '%s'\n", cmd, a,
			                 a[2] == 't' ? "in [0, 256]" : ">= 1", v ? v : "");
			*target = n;
		} else if (strcmp(a, "--seconds") == 0) {
			const char* v = i + 1 < argc ? argv[++i] : NULL;
			char* end = NULL;
			seconds = v ? strtod(v, &end) : -1;
			ok = v && end && *end == '\0' && isfinite(seconds) && seconds > 0;
			if (!ok) fprintf(errors, "%s: --seconds: must be a number > 0, got '%s'\n", cmd, v ? v : "");
		} else if (strcmp(a, "--hash") == 0) {
			hash = true;
		} else if (a[0] == '-') {
			fprintf(errors, "%s: %s is not available under mpirun yet (docs/mpi.md lists what is)\n", cmd, a);
			ok = false;
		} else if (!path) {
			path = a;
		} else {
			fprintf(errors, "%s: one scene only, got '%s' too\n", cmd, a);
			ok = false;
		}
	}
	if (ok && !path) fprintf(errors, "%s: which scene?\n%s", cmd, usage_mpi), ok = false;
	if (ok && steps > 0 && seconds > 0) fprintf(errors, "%s: --steps and --seconds both say how long; give one\n", cmd), ok = false;
	pdl_scene_error serr;
	pdl_scene* scene = ok ? pdl_scene_load(path, &serr) : NULL;
	if (ok && !scene) fprintf(errors, "%s\n", serr.message), ok = false;
	if (ok && (scene->emitter_count > 0 || scene->stroke_count > 0)) {
		fprintf(errors, "%s: %s: emitters and strokes are not split over processes yet (docs/mpi.md)\n", cmd, path);
		ok = false;
	}
	if (ok && particles > 0) pdl_scene_scale_to_particles(scene, (double)particles);
	if (ok && threads >= 0) scene->world.threads = (int)threads;
	pdl_world* world = ok ? pdl_scene_build_world(scene, &serr) : NULL;
	if (ok && !world) fprintf(errors, "%s\n", serr.message), ok = false;
	pdl_error perr;
	pdl_mpi_world* split = ok ? pdl_mpi_world_create(world, MPI_COMM_WORLD, &perr) : NULL;
	if (ok && !split) fprintf(errors, "%s: %s: %s\n", cmd, path, perr.message), ok = false;
	if (!ok) { /* the same inputs everywhere, so every process failed alike: exit 2 from all */
		pdl_world_destroy(world);
		pdl_scene_destroy(scene);
		if (errors != stderr) fclose(errors);
		return finish(EXIT_USAGE);
	}
	const double dt = scene->world.dt;
	long long frames = steps > 0 ? steps : seconds > 0 ? (long long)ceil(seconds / dt - 1e-9) : (long long)ceil(10.0 / dt);
	const long long total = pdl_mpi_world_particle_count(split);
	if (out)
		fprintf(out, "%s: %lld particles over %d processes, %lld frames, halo %.2f world units\n", scene->name, total, size,
		        frames, (double)pdl_mpi_world_halo(split));
	MPI_Barrier(MPI_COMM_WORLD);
	double started = cli_now();
	long long halo_sum = 0;
	for (long long f = 0; f < frames; ++f) {
		pdl_mpi_world_step(split);
		halo_sum += pdl_mpi_world_halo_count(split);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	double wall = cli_now() - started;
	long long after = pdl_mpi_world_particle_count(split), halo_all = 0;
	MPI_Reduce(&halo_sum, &halo_all, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	uint64_t h = hash ? pdl_mpi_world_hash(split) : 0;
	if (out) {
		fprintf(out, "  wall time          %.3f s (%.1f frames/s)\n", wall, wall > 0 ? (double)frames / wall : 0.0);
		fprintf(out, "  particles          %lld -> %lld\n", total, after);
		fprintf(out, "  halo particles     %.0f a process a frame\n", frames > 0 ? (double)halo_all / (double)(frames * size) : 0.0);
		if (hash) fprintf(out, "  state hash (ids)   %016llx\n", (unsigned long long)h);
	}
	pdl_mpi_world_destroy(split);
	pdl_world_destroy(world);
	pdl_scene_destroy(scene);
	if (errors != stderr) fclose(errors);
	return finish(after == total ? EXIT_OK : EXIT_FAILED);
}
