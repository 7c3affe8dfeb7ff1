/* A tiny test harness in the style of Box2D's: ENSURE checks a condition, prints where it
 * failed and fails the test case; RUN_TEST runs one case and counts it. Each test program ends
 * with TEST_SUMMARY(), which prints "N passed, M failed" and returns non-zero on failure.
 * PUDDLE_TEST_ONLY=name runs only the cases whose function name contains `name` (while working
 * on one; ctest sets nothing and runs them all). Each case's wall and CPU seconds follow its
 * name (ctest keeps them in Testing/Temporary/LastTest.log: where a test's time goes). */
#ifndef PUDDLE_TEST_H
#define PUDDLE_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_env.h"

static int test_failed_cases, test_passed_cases, test_case_failed;

#define ENSURE(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                         \
			fprintf(stderr, "  FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                \
			test_case_failed = 1;                                                              \
			return;                                                                            \
		}                                                                                      \
	} while (0)

/* ENSURE with the values printed, for numeric comparisons. */
#define ENSURE_MSG(cond, ...)                                                                  \
	do {                                                                                       \
		if (!(cond)) {                                                                         \
			fprintf(stderr, "  FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);                \
			fprintf(stderr, __VA_ARGS__);                                                      \
			fprintf(stderr, "\n");                                                             \
			test_case_failed = 1;                                                              \
			return;                                                                            \
		}                                                                                      \
	} while (0)

#define RUN_TEST(fn)                                                                           \
	do {                                                                                       \
		const char* test_only = getenv("PUDDLE_TEST_ONLY");                                    \
		if (test_only && *test_only && !strstr(#fn, test_only)) break;                         \
		test_case_failed = 0;                                                                  \
		printf("%s\n", #fn);                                                                   \
		fflush(stdout);                                                                        \
		struct timespec test_start, test_end;                                                  \
		timespec_get(&test_start, TIME_UTC);                                                   \
		clock_t test_cpu = clock();                                                            \
		fn();                                                                                  \
		timespec_get(&test_end, TIME_UTC);                                                     \
		printf("  (%.2f s, %.2f s CPU)\n",                                                     \
		       (double)(test_end.tv_sec - test_start.tv_sec) + 1e-9 * (double)(test_end.tv_nsec - test_start.tv_nsec), \
		       (double)(clock() - test_cpu) / CLOCKS_PER_SEC);                                 \
		fflush(stdout);                                                                        \
		if (test_case_failed) test_failed_cases++;                                             \
		else test_passed_cases++;                                                              \
	} while (0)

/* RUN_TEST, but left out of the ThreadSanitizer run (PUDDLE_TEST_TSAN set, as make test-tsan
 * does): every line of src/ the case runs, the cases that run under TSan run on two threads too
 * (gcov, docs/testing.md, "threads-elsewhere"). The release and ASan runs run it. */
#define RUN_TEST_THREADS_ELSEWHERE(fn)                                                         \
	do {                                                                                       \
		if (test_tsan()) {                                                                     \
			printf("%s: left out under TSan (threads-elsewhere)\n", #fn);                       \
			break;                                                                             \
		}                                                                                      \
		RUN_TEST(fn);                                                                          \
	} while (0)

#define TEST_SUMMARY()                                                                         \
	(printf("%d passed, %d failed\n", test_passed_cases, test_failed_cases),                   \
	 test_failed_cases ? 1 : 0)

#endif
