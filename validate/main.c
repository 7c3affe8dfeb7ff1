/* puddle-validate: runs the validation cases (validate.h) for each solver and prints the table.
 *
 *     puddle-validate [--solver clavet|sph|dfsph|all] [--case NAME|all] [--quick] [--smoke]
 *                     [--threads N] [--out FILE.md] [--label TEXT] [--curves]
 *
 * --label adds TEXT (the commit, say) to the table's heading.
 *
 * Exits 1 on an unexpected failure (a row that fails and known.c does not expect to), 2 on
 * bad arguments. */
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const vcase cases[] = {
	{"pool2d", vcase_pool2d, "resting pool 15 h deep: volume, bulk density, clumping, hydrostatics"},
	{"pool3d", vcase_pool3d, "resting pool 9.5 h deep in 3D: the same"},
	{"dam_break", vcase_dam_break, "Martin & Moyce 1952 column collapse: front against experiment, convergence"},
	{"archimedes2d", vcase_archimedes2d, "discs at 0.3, 0.5, 0.8, 1.5 of the water's density"},
	{"archimedes3d", vcase_archimedes3d, "balls at 0.3, 0.5, 0.8, 1.5 of the water's density"},
	{"slosh", vcase_slosh, "closed box sloshing without viscosity: energy never rises"},
	{"overturn", vcase_overturn, "heavy fluid over a light one turns over"},
};
static const int case_count = (int)(sizeof cases / sizeof cases[0]);

static void usage(FILE* f)
{
	fprintf(f, "usage: puddle-validate [--solver NAME|all] [--case NAME|all] [--quick] [--smoke] [--threads N] "
	           "[--out FILE.md] [--label TEXT] [--curves]\nsolvers:");
	for (int k = 0; k < validate_solver_count; ++k) fprintf(f, " %s", validate_solvers[k].name);
	fprintf(f, "\ncases:\n");
	for (int k = 0; k < case_count; ++k) fprintf(f, "  %-13s %s\n", cases[k].name, cases[k].what);
}

int main(int argc, char** argv)
{
	const char *solver_name = "all", *case_name = "all", *out = NULL, *label = NULL;
	voptions opt = {VSCALE_FULL, 0, false};
	const char* quick_env = getenv("PUDDLE_TEST_QUICK");
	opt.test_quick = quick_env && *quick_env && *quick_env != '0';
	for (int k = 1; k < argc; ++k) {
		const char* a = argv[k];
		bool more = k + 1 < argc;
		if (!strcmp(a, "--solver") && more) solver_name = argv[++k];
		else if (!strcmp(a, "--case") && more) case_name = argv[++k];
		else if (!strcmp(a, "--out") && more) out = argv[++k];
		else if (!strcmp(a, "--label") && more) label = argv[++k];
		else if (!strcmp(a, "--threads") && more) opt.threads = atoi(argv[++k]);
		else if (!strcmp(a, "--quick")) opt.scale = VSCALE_QUICK;
		else if (!strcmp(a, "--curves")) opt.curves = true;
		else if (!strcmp(a, "--smoke")) opt.scale = VSCALE_SMOKE;
		else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 0;
		else return usage(stderr), 2;
	}
	bool solver_known = !strcmp(solver_name, "all"), case_known = !strcmp(case_name, "all");
	for (int k = 0; k < validate_solver_count; ++k) solver_known |= !strcmp(solver_name, validate_solvers[k].name);
	for (int k = 0; k < case_count; ++k) case_known |= !strcmp(case_name, cases[k].name);
	if (!solver_known || !case_known) {
		fprintf(stderr, "puddle-validate: unknown %s '%s'\n", solver_known ? "case" : "solver",
		        solver_known ? case_name : solver_name);
		return usage(stderr), 2;
	}
	int failures = 0;
	if (opt.scale == VSCALE_SMOKE) {
		vreport_smoke(true);
		failures += vsmoke_measures();
	}
	printf("| solver | case | check | measured | expected | tolerance | result |\n|---|---|---|---|---|---|---|\n");
	for (int c = 0; c < case_count; ++c) {
		if (strcmp(case_name, "all") && strcmp(case_name, cases[c].name)) continue;
		for (int s = 0; s < validate_solver_count; ++s) {
			if (strcmp(solver_name, "all") && strcmp(solver_name, validate_solvers[s].name)) continue;
			clock_t start = clock();
			cases[c].run(&validate_solvers[s], &opt);
			fprintf(stderr, "  (%s %s: %.1f s of processor time)\n", validate_solvers[s].name, cases[c].name,
			        (double)(clock() - start) / CLOCKS_PER_SEC);
		}
	}
	const char* scale = opt.scale == VSCALE_FULL ? "full" : opt.scale == VSCALE_QUICK ? "quick" : "smoke";
	char header[256], date[32];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	snprintf(header, sizeof header, "puddle-validate, %s size, %s%s%s", scale, date, label ? ", " : "", label ? label : "");
	failures += vreport_finish(out, header);
	return failures > 0 ? 1 : 0;
}
