/* The thread pool under the step: every item of a parallel loop runs exactly once, for any
 * count, grain and thread count, and pdl_pool_each runs one call on every thread at once (also
 * run under ThreadSanitizer by `make test-tsan`). */
#include "test.h"
#include "worlds.h"

#include "../src/pool.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct visit {
	atomic_int* hits;
} visit;

static void mark(void* ctx, int begin, int end)
{
	visit* v = ctx;
	for (int i = begin; i < end; ++i) atomic_fetch_add_explicit(&v->hits[i], 1, memory_order_relaxed);
}

static void test_every_item_once(void)
{
	const int threads[] = {1, 2, 3, 8};
	const int counts[] = {0, 1, 7, 1000, 100003};
	const int grains[] = {1, 64, 4096};
	for (size_t t = 0; t < 4; ++t) {
		pdl_pool* pool = pdl_pool_create(threads[t]);
		ENSURE(pool && pdl_pool_threads(pool) == threads[t]);
		for (size_t c = 0; c < 5; ++c) {
			for (size_t g = 0; g < 3; ++g) {
				atomic_int* hits = calloc((size_t)counts[c] + 1, sizeof *hits);
				visit v = {hits};
				for (int rep = 0; rep < 3; ++rep) pdl_pool_for(pool, counts[c], grains[g], mark, &v);
				for (int i = 0; i < counts[c]; ++i) ENSURE_MSG(atomic_load(&hits[i]) == 3, "item %d", i);
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
	visit v = {hits};
	for (int job = 0; job < jobs; ++job) pdl_pool_for(pool, 256, 16, mark, &v);
	for (int i = 0; i < 256; ++i) ENSURE(atomic_load(&hits[i]) == jobs);
	pdl_pool_destroy(pool);
}

/* pdl_pool_each: thread t marks its arrival and then waits for every other thread's. If one
 * thread ran another's call after its own (as pdl_pool_for's helping would), or any call ran
 * twice or not at all, this hangs or the counts are off. */
typedef struct meeting {
	atomic_int arrived[8];
	atomic_int calls[8];
	int threads, round;
} meeting;

static void meet(void* ctx, int t, int t_end)
{
	meeting* m = ctx;
	ENSURE(t_end == t + 1 && t >= 0 && t < m->threads);
	atomic_fetch_add(&m->calls[t], 1);
	atomic_store_explicit(&m->arrived[t], m->round, memory_order_release);
	for (int k = 0; k < m->threads; ++k) pdl_pool_wait(&m->arrived[k], m->round);
}

static void test_each_runs_every_thread_at_once(void)
{
	const int threads[] = {1, 2, 3, 8};
	for (size_t t = 0; t < 4; ++t) {
		pdl_pool* pool = pdl_pool_create(threads[t]);
		ENSURE(pool && pdl_pool_threads(pool) == threads[t]);
		meeting m = {.threads = threads[t]};
		for (int k = 0; k < 8; ++k) {
			atomic_init(&m.arrived[k], 0);
			atomic_init(&m.calls[k], 0);
		}
		/* between jobs of pdl_pool_for too, as in a step */
		atomic_int hits[64];
		for (int i = 0; i < 64; ++i) atomic_init(&hits[i], 0);
		visit v = {hits};
		const int rounds = threads[t] > 2 ? 200 : 2000; /* more threads than this machine's cores yield in turn */
		for (m.round = 1; m.round <= rounds; ++m.round) {
			pdl_pool_each(pool, meet, &m);
			pdl_pool_for(pool, 64, 4, mark, &v);
		}
		for (int k = 0; k < threads[t]; ++k) ENSURE_MSG(atomic_load(&m.calls[k]) == rounds, "thread %d", k);
		for (int i = 0; i < 64; ++i) ENSURE(atomic_load(&hits[i]) == rounds);
		pdl_pool_destroy(pool);
	}
}

int main(void)
{
	RUN_TEST(test_every_item_once);
	RUN_TEST(test_many_short_jobs);
	RUN_TEST(test_each_runs_every_thread_at_once);
	return TEST_SUMMARY();
}
