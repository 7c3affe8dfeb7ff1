/* The test environment's flags, read in one place by the harness (test.h) and the shared worlds
 * (worlds.c). */
#ifndef PUDDLE_TEST_ENV_H
#define PUDDLE_TEST_ENV_H

#include <stdlib.h>

/* Whether the environment variable `name` is set to something other than "" or "0". */
static inline int test_env_flag(const char* name)
{
	const char* v = getenv(name);
	return v && *v && *v != '0';
}

/* Quick mode (PUDDLE_TEST_QUICK set, as make test's sanitizer suites do; tests/worlds.h): long
 * runs are shortened there, since a memory error or a race shows in the first steps and the
 * release run asserts what the long run does. */
static inline int test_quick(void) { return test_env_flag("PUDDLE_TEST_QUICK"); }

/* ThreadSanitizer's run (PUDDLE_TEST_TSAN set, as make test-tsan does). */
static inline int test_tsan(void) { return test_env_flag("PUDDLE_TEST_TSAN"); }

#endif
