/* The thread pool under the step: every chunk of a parallel loop runs exactly once and is the
 * same for any thread count, so results are bitwise the same for 1, 2, 3, 8 and 17 threads
 * (more than this machine's cores); and a wait that lasts sleeps instead of burning the core
 * (issue 38). Also run under ThreadSanitizer by `make test-tsan`. No assertion here is on
 * speed: those are benchmarks (bench/contend.sh). */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "worlds.h"

#include "../src/pool.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static const int thread_counts[] = {1, 2, 3, 8, 17};
enum { THREAD_COUNTS = sizeof thread_counts / sizeof thread_counts[0] };

typedef struct visit {
	atomic_int* hits;
	int count, grain;
	atomic_int misplaced; /* calls not made of whole chunks [k grain, min((k + 1) grain, count)) */
} visit;

static void mark(void* ctx, int begin, int end)
{
	visit* v = ctx;
	if (begin % v->grain != 0 || (end % v->grain != 0 && end != v->count)) atomic_fetch_add(&v->misplaced, 1);
	for (int i = begin; i < end; ++i) atomic_fetch_add_explicit(&v->hits[i], 1, memory_order_relaxed);
}

static void test_every_chunk_once(void)
{
	const int counts[] = {0, 1, 7, 1000, 100003};
	const int grains[] = {1, 64, 4096};
	for (int t = 0; t < THREAD_COUNTS; ++t) {
		pdl_pool* pool = pdl_pool_create(thread_counts[t]);
		ENSURE(pool && pdl_pool_threads(pool) == thread_counts[t]);
		for (size_t c = 0; c < 5; ++c) {
			for (size_t g = 0; g < 3; ++g) {
				atomic_int* hits = calloc((size_t)counts[c] + 1, sizeof *hits);
				visit v = {hits, counts[c], grains[g], 0};
				for (int rep = 0; rep < 3; ++rep) pdl_pool_for(pool, counts[c], grains[g], mark, &v);
				for (int i = 0; i < counts[c]; ++i) ENSURE_MSG(atomic_load(&hits[i]) == 3, "item %d", i);
				ENSURE_MSG(atomic_load(&v.misplaced) == 0, "%d threads, grain %d", thread_counts[t], grains[g]);
				free(hits);
			}
		}
		pdl_pool_destroy(pool);
	}
}

static void test_many_short_jobs(void)
{
	/* a step issues short jobs back to back: thousands of them must neither hang nor race
	 * (4,000 in quick mode, under the sanitizers: 20,000 took 55 s under TSan) */
	const int jobs = worlds_quick() ? 4000 : 20000;
	pdl_pool* pool = pdl_pool_create(4);
	atomic_int hits[256];
	for (int i = 0; i < 256; ++i) atomic_init(&hits[i], 0);
	visit v = {hits, 256, 16, 0};
	for (int job = 0; job < jobs; ++job) pdl_pool_for(pool, 256, 16, mark, &v);
	for (int i = 0; i < 256; ++i) ENSURE(atomic_load(&hits[i]) == jobs);
	pdl_pool_destroy(pool);
}

/* A float sum in chunks, each chunk's partial added in chunk order: the same bits for any
 * thread count, because a chunk's items never depend on who runs it. (A call may cover several
 * chunks, on one thread: it keeps one partial per chunk, as grid.c's chunk_bounds does.) */
typedef struct partial_sums {
	const float* values;
	float* partial; /* by chunk */
	int grain;
} partial_sums;

static void sum_chunk(void* ctx, int begin, int end)
{
	partial_sums* s = ctx;
	for (int first = begin; first < end; first += s->grain) {
		int last = first + s->grain < end ? first + s->grain : end;
		float sum = 0;
		for (int i = first; i < last; ++i) sum += s->values[i] * s->values[i];
		s->partial[first / s->grain] = sum;
	}
}

static void test_same_sum_for_every_thread_count(void)
{
	enum { N = 100003, GRAIN = 1000, CHUNKS = (N + GRAIN - 1) / GRAIN };
	float* values = malloc(N * sizeof *values);
	float partial[CHUNKS];
	uint32_t seed = 12345;
	for (int i = 0; i < N; ++i) {
		seed = seed * 1664525u + 1013904223u;
		values[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
	}
	float first = 0;
	for (int t = 0; t < THREAD_COUNTS; ++t) {
		pdl_pool* pool = pdl_pool_create(thread_counts[t]);
		partial_sums s = {values, partial, GRAIN};
		pdl_pool_for(pool, N, GRAIN, sum_chunk, &s);
		float total = 0;
		for (int c = 0; c < CHUNKS; ++c) total += partial[c];
		pdl_pool_destroy(pool);
		if (t == 0) first = total;
		ENSURE_MSG(total == first, "%d threads: %.9g against %.9g", thread_counts[t], total, first);
	}
	free(values);
}

/* The engine's own: the determinism test's dam break (two materials, springs, obstacles, a
 * pointer) has the same hash on every thread count, the relaxation's slab passes included. */
static void test_same_world_for_every_thread_count(void)
{
	const int steps = worlds_steps(60);
	uint64_t first = 0;
	for (int t = 0; t < THREAD_COUNTS; ++t) {
		pdl_world* w = worlds_dam_break(thread_counts[t]);
		ENSURE(pdl_world_thread_count(w) == thread_counts[t]);
		for (int s = 0; s < steps; ++s) pdl_world_step(w);
		uint64_t h = pdl_world_hash(w);
		pdl_world_destroy(w);
		printf("  %2d threads: %016" PRIx64 "\n", thread_counts[t], h);
		if (t == 0) first = h;
		ENSURE(h == first);
	}
}

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0) {
	}
}

enum { IDLE_MS = 200 };

/* A job whose chunk 0 (always the caller's first) sleeps IDLE_MS and then posts a flag that
 * the other chunks wait for: every other thread waits on that flag, then at the job's end. */
typedef struct late_post {
	pdl_pool* pool;
	atomic_int posted;
	atomic_int saw_post; /* chunks other than 0 that found the flag posted */
} late_post;

static void post_late(void* ctx, int begin, int end)
{
	late_post* lp = ctx;
	for (int i = begin; i < end; ++i) {
		if (i == 0) {
			sleep_ms(IDLE_MS);
			pdl_pool_post(lp->pool, &lp->posted, 1);
		} else {
			pdl_pool_wait(lp->pool, &lp->posted, 1);
			atomic_fetch_add(&lp->saw_post, 1);
		}
	}
}

/* Waits sleep: a pool with nothing to do, and a pool waiting IDLE_MS for one thread's chunk,
 * use a small part of one core's IDLE_MS of CPU time in all (spinning workers would use a
 * whole IDLE_MS each). A behaviour check on CPU time, not a speed test: the bound is a
 * quarter of what a single spinning thread would use, whatever this machine's speed. */
static void test_waits_sleep(void)
{
	for (int t = 1; t < THREAD_COUNTS; ++t) {
		const int threads = thread_counts[t];
		pdl_pool* pool = pdl_pool_create(threads);
		atomic_int hits[64];
		for (int i = 0; i < 64; ++i) atomic_init(&hits[i], 0);
		visit v = {hits, 64, 1, 0};
		pdl_pool_for(pool, 64, 1, mark, &v); /* the workers have run and now wait for work */

		double cpu = cpu_seconds();
		sleep_ms(IDLE_MS);
		double idle_ms = 1000.0 * (cpu_seconds() - cpu);

		late_post lp = {.pool = pool};
		atomic_init(&lp.posted, 0);
		atomic_init(&lp.saw_post, 0);
		double stalled = pdl_pool_stalled_ms(pool);
		cpu = cpu_seconds();
		pdl_pool_for(pool, threads, 1, post_late, &lp);
		double waiting_ms = 1000.0 * (cpu_seconds() - cpu);
		stalled = pdl_pool_stalled_ms(pool) - stalled;
		pdl_pool_destroy(pool);

		printf("  %2d threads: CPU %.1f ms while idle %d ms, %.1f ms while one chunk sleeps (caller "
		       "asleep %.1f ms)\n", threads, idle_ms, IDLE_MS, waiting_ms, stalled);
		ENSURE_MSG(idle_ms < IDLE_MS / 4, "%d threads", threads);
		ENSURE_MSG(waiting_ms < IDLE_MS / 4, "%d threads", threads);
		ENSURE(atomic_load(&lp.saw_post) == threads - 1);
	}
}

/* A long job gets help from workers that were asleep when it started: the caller wakes them
 * once the job has run a while, between its chunks or, in a chunk that runs a whole pass,
 * where that chunk asks for help (pdl_pool_ask_for_help). Each part sleeps, so the job is
 * long in wall time whatever the machine. */
enum { PARTS = 8, PART_MS = 20 };

typedef struct long_job {
	pdl_pool* pool;
	pthread_t caller;
	atomic_int by_others; /* chunks run on another thread than the caller */
} long_job;

static void long_chunks(void* ctx, int begin, int end)
{
	long_job* j = ctx;
	for (int i = begin; i < end; ++i) sleep_ms(PART_MS);
	if (!pthread_equal(pthread_self(), j->caller)) atomic_fetch_add(&j->by_others, 1);
}

/* one item per thread; item 0 (the caller's) runs PARTS parts, asking for help between them */
static void long_pass(void* ctx, int t, int unused)
{
	(void)unused;
	long_job* j = ctx;
	if (t == 0)
		for (int k = 0; k < PARTS; ++k) {
			sleep_ms(PART_MS);
			pdl_pool_ask_for_help(j->pool);
		}
	else if (!pthread_equal(pthread_self(), j->caller))
		atomic_fetch_add(&j->by_others, 1);
}

static void test_sleeping_workers_help_with_long_jobs(void)
{
	pdl_pool* pool = pdl_pool_create(2);
	long_job j = {.pool = pool, .caller = pthread_self()};
	atomic_init(&j.by_others, 0);
	sleep_ms(IDLE_MS / 4); /* the worker has gone to sleep */
	pdl_pool_for(pool, PARTS, 1, long_chunks, &j);
	int chunks_helped = atomic_load(&j.by_others);
	atomic_store(&j.by_others, 0);
	sleep_ms(IDLE_MS / 4);
	pdl_pool_for(pool, 2, 1, long_pass, &j);
	int pass_helped = atomic_load(&j.by_others);
	pdl_pool_destroy(pool);
	ENSURE_MSG(chunks_helped > 0, "the worker ran none of %d chunks of %d ms", PARTS, PART_MS);
	ENSURE_MSG(pass_helped == 1, "the worker did not take its item of the pass");
}

int main(void)
{
	RUN_TEST(test_every_chunk_once);
	RUN_TEST(test_many_short_jobs);
	RUN_TEST(test_same_sum_for_every_thread_count);
	RUN_TEST(test_same_world_for_every_thread_count);
	RUN_TEST(test_waits_sleep);
	RUN_TEST(test_sleeping_workers_help_with_long_jobs);
	return TEST_SUMMARY();
}
