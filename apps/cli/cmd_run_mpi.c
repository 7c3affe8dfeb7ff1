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

/* All processes end alike. */
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
	/* every process sees the same arguments and scene, so each finds the same errors: only
	 * process 0 says them (the others' stderr goes nowhere) */
	if (rank != 0 && !freopen("/dev/null", "w", stderr)) return finish(EXIT_FAILED);
	FILE* out = rank == 0 ? stdout : NULL;
	const char* path = NULL;
	long long steps = -1, threads = -1, particles = 0;
	double seconds = -1;
	bool hash = false, ok = true;
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
		} else if (strcmp(a, "--hash") == 0) {
			hash = true;
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
	if (ok && (scene->emitter_count > 0 || scene->stroke_count > 0)) {
		fprintf(stderr, "puddle run: %s: emitters and strokes are not split over processes yet (docs/mpi.md)\n", path);
		ok = false;
	}
	if (ok && particles > 0) pdl_scene_scale_to_particles(scene, (double)particles);
	if (ok && threads >= 0) scene->world.threads = (int)threads;
	pdl_scene_error serr;
	pdl_world* world = ok ? pdl_scene_build_world(scene, &serr) : NULL;
	if (ok && !world) fprintf(stderr, "%s\n", serr.message), ok = false;
	pdl_error perr;
	pdl_mpi_world* split = ok ? pdl_mpi_world_create(world, MPI_COMM_WORLD, &perr) : NULL;
	if (ok && !split) fprintf(stderr, "puddle run: %s: %s\n", path, perr.message), ok = false;
	if (!ok) { /* the same inputs everywhere, so every process failed alike: exit 2 from all */
		pdl_world_destroy(world);
		pdl_scene_destroy(scene);
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
	return finish(after == total ? EXIT_OK : EXIT_FAILED);
}
