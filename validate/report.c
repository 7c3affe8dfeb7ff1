/* The results table: rows as they are measured, printed at once and again as one markdown
 * table at the end. */
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 512

static vrow rows[MAX_ROWS];
static int row_count, unexpected;
static bool smoke; /* checks are not judged: too small and short */

void vreport_smoke(bool on) { smoke = on; }

static const char* status_text(vstatus s)
{
	switch (s) {
	case VSTATUS_PASS: return "PASS";
	case VSTATUS_FAIL: return "**FAIL**";
	case VSTATUS_KNOWN_FAIL: return "known: FAIL";
	case VSTATUS_STATED: return "stated";
	case VSTATUS_XPASS: return "PASS (known.c expects FAIL)";
	}
	return "?";
}

static void print_row(FILE* f, const vrow* r)
{
	fprintf(f, "| %s | %s | %s | %s | %s | %s | %s%s%s |", r->solver, r->case_name, r->check, r->measured,
	        r->expected, r->tolerance, status_text(r->status), r->why ? ": " : "", r->why ? r->why : "");
	fprintf(f, "\n");
}

static vrow* add_row(const char* solver, const char* case_name, const char* check)
{
	if (row_count == MAX_ROWS) {
		fprintf(stderr, "puddle-validate: more than %d rows\n", MAX_ROWS);
		exit(2);
	}
	vrow* r = &rows[row_count++];
	memset(r, 0, sizeof *r);
	r->solver = solver, r->case_name = case_name;
	snprintf(r->check, sizeof r->check, "%s", check);
	return r;
}

void vreport_check(const char* solver, const char* case_name, const char* check, bool passed,
                   const char* measured, const char* expected, const char* tolerance)
{
	vrow* r = add_row(solver, case_name, check);
	snprintf(r->measured, sizeof r->measured, "%s", measured);
	snprintf(r->expected, sizeof r->expected, "%s", expected);
	snprintf(r->tolerance, sizeof r->tolerance, "%s", tolerance);
	const char* known = vknown_failure(solver, case_name, check);
	if (smoke) r->status = VSTATUS_STATED;
	else if (passed) r->status = known ? VSTATUS_XPASS : VSTATUS_PASS;
	else r->status = known ? VSTATUS_KNOWN_FAIL : VSTATUS_FAIL;
	if (r->status == VSTATUS_KNOWN_FAIL) r->why = known;
	if (r->status == VSTATUS_FAIL) unexpected++;
	print_row(stdout, r);
	fflush(stdout);
}

void vreport_statement(const char* solver, const char* case_name, const char* check, const char* measured,
                       const char* expected)
{
	vrow* r = add_row(solver, case_name, check);
	snprintf(r->measured, sizeof r->measured, "%s", measured);
	snprintf(r->expected, sizeof r->expected, "%s", expected);
	snprintf(r->tolerance, sizeof r->tolerance, "-");
	r->status = VSTATUS_STATED;
	print_row(stdout, r);
	fflush(stdout);
}

void vreport_error(const char* solver, const char* case_name, const char* what)
{
	vrow* r = add_row(solver, case_name, "ran intact");
	snprintf(r->measured, sizeof r->measured, "%s", what);
	snprintf(r->expected, sizeof r->expected, "all particles, finite");
	snprintf(r->tolerance, sizeof r->tolerance, "none");
	r->status = VSTATUS_FAIL;
	unexpected++;
	print_row(stdout, r);
	fflush(stdout);
}


int vreport_failures(void) { return unexpected; }

static void write_table(FILE* f, const char* header)
{
	if (header) fprintf(f, "%s\n\n", header);
	fprintf(f, "| solver | case | check | measured | expected | tolerance | result |\n");
	fprintf(f, "|---|---|---|---|---|---|---|\n");
	for (int k = 0; k < row_count; ++k) print_row(f, &rows[k]);
	fprintf(f, "\n%d rows, %d unexpected failures\n", row_count, unexpected);
}

int vreport_finish(const char* path, const char* header)
{
	printf("\n");
	write_table(stdout, header);
	if (path) {
		FILE* f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "puddle-validate: cannot write %s\n", path);
			return unexpected + 1;
		}
		write_table(f, header);
		fclose(f);
		printf("(written to %s)\n", path);
	}
	return unexpected;
}
