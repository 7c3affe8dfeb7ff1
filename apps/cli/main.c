/* puddle: the command line. One executable with subcommands (run, info, validate, bench, soak), like git. */
#include "cli.h"

#include "puddle/suggest.h"

#include <string.h>

static const char usage[] =
	"Usage: puddle COMMAND [options]\n"
	"\n"
	"A 2D and 3D particle fluid (Clavet, Beaudoin & Poulin 2005, double density relaxation).\n"
	"\n"
	"Commands:\n"
	"  run SCENE      simulate a scene: pictures, video, ParaView/Blender/CSV exports, snapshots\n"
	"  info SCENE     check a scene file and print it with every default filled in\n"
	"  validate SCENE...  check scene files (2D or 3D): one line each, exit 2 if any is broken\n"
	"  bench [SCENE]  time the solver on scenes, particle counts and thread counts; CSV rows\n"
	"  soak [SCENE]   run scenes for long under random hard stirring, pours and erasing; check\n"
	"                 that nothing is lost or NaN\n"
	"\n"
	"Options:\n"
	"  -h, --help     this help ('puddle COMMAND --help' for a command's options)\n"
	"  --version      print the version\n"
	"\n"
	"Scenes are JSON files (scenes/*.json; the format is in docs/scenes.md).\n"
	"Example:\n"
	"  puddle run scenes/stratify.json --seconds 20 --video out/stratify.mp4\n";

int main(int argc, char** argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	const char* cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		if (argc > 2 && strcmp(cmd, "help") == 0) {
			char help[] = "--help";
			char* sub[] = {argv[2], help, NULL};
			if (strcmp(argv[2], "run") == 0) return cmd_run(2, sub);
			if (strcmp(argv[2], "info") == 0) return cmd_info(2, sub);
			if (strcmp(argv[2], "validate") == 0) return cmd_validate(2, sub);
			if (strcmp(argv[2], "bench") == 0) return cmd_bench(2, sub);
			if (strcmp(argv[2], "soak") == 0) return cmd_soak(2, sub);
		}
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("puddle %s (vector loops: %s)\n", pdl_version_string(), pdl_vector_loops());
#ifdef PUDDLE_HAVE_MPI
		printf("MPI: yes (mpirun -np N puddle run SCENE splits the world; docs/mpi.md)\n");
#else
		printf("MPI: no (built without Open MPI: mpirun and --mpi-stats are refused; docs/mpi.md)\n");
#endif
		return EXIT_OK;
	}
	if (strcmp(cmd, "run") == 0 && cli_under_mpi()) {
#ifdef PUDDLE_HAVE_MPI
		return cmd_run_mpi(argc - 1, argv + 1);
#else
		/* each process would run the whole scene and write the same files */
		fputs("puddle run: started under mpirun (OMPI_COMM_WORLD_SIZE or PUDDLE_UNDER_MPI=1 is set), but this "
		      "puddle was built without MPI; install Open MPI (scripts/install-deps.sh mpi) and build again "
		      "(docs/mpi.md), or run it without mpirun\n",
		      stderr);
		return EXIT_USAGE;
#endif
	}
	if (strcmp(cmd, "run") == 0) return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "info") == 0) return cmd_info(argc - 1, argv + 1);
	if (strcmp(cmd, "validate") == 0) return cmd_validate(argc - 1, argv + 1);
	if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 1, argv + 1);
	if (strcmp(cmd, "soak") == 0) return cmd_soak(argc - 1, argv + 1);
	static const char* const known[] = {"run", "info", "validate", "bench", "soak", "help", "--help", "--version"};
	const char* best = pdl_suggest(cmd, known, (int)(sizeof known / sizeof known[0]));
	fprintf(stderr, "puddle: unknown command '%s'%s%s%s\nTry 'puddle --help'.\n", cmd, best ? " (did you mean '" : "",
	        best ? best : "", best ? "'?)" : "");
	return EXIT_USAGE;
}
