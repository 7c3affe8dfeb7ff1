/* The thread pool under the step: every item of a parallel loop runs exactly once, for any
 * count, grain and thread count (also run under ThreadSanitizer by `make test-tsan`). */
#include "test.h"

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
	/* a step issues short jobs back to back: thousands of them must neither hang nor race */
	pdl_pool* pool = pdl_pool_create(4);
	atomic_int hits[256];
	for (int i = 0; i < 256; ++i) atomic_init(&hits[i], 0);
	visit v = {hits};
	for (int job = 0; job < 20000; ++job) pdl_pool_for(pool, 256, 16, mark, &v);
	for (int i = 0; i < 256; ++i) ENSURE(atomic_load(&hits[i]) == 20000);
	pdl_pool_destroy(pool);
}

int main(void)
{
	RUN_TEST(test_every_item_once);
	RUN_TEST(test_many_short_jobs);
	return TEST_SUMMARY();
}
