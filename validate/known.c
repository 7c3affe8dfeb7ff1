/* The failures each solver is known to have: (solver, case, check) and why. A row listed here
 * prints "known: FAIL" when it fails and does not fail the run; a listed row that passes prints
 * so, to be taken off the list. DFSPH has none: every DFSPH row must pass. The figures behind
 * each entry are in docs/validation.md. */
#include "validate.h"

#include <string.h>

typedef struct known_failure {
	const char *solver, *case_name, *check, *why;
} known_failure;

static const known_failure known[] = {
	{NULL, NULL, NULL, NULL},
};

const char* vknown_failure(const char* solver, const char* case_name, const char* check)
{
	for (size_t k = 0; k < sizeof known / sizeof known[0]; ++k) {
		const known_failure* f = &known[k];
		if (!f->solver) continue;
		if (!strcmp(f->solver, solver) && !strcmp(f->case_name, case_name) && !strcmp(f->check, check))
			return f->why;
	}
	return NULL;
}
