/* The step never allocates once warmed up. This program is linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so every such call in libpuddle goes through
 * the counters below. */
#include "test.h"
#include "worlds.h"

#include <stddef.h>

void* __real_malloc(size_t size);
void* __real_calloc(size_t n, size_t size);
void* __real_realloc(void* p, size_t size);
void* __wrap_malloc(size_t size);
void* __wrap_calloc(size_t n, size_t size);
void* __wrap_realloc(void* p, size_t size);

static int allocations;

void* __wrap_malloc(size_t size)
{
	allocations++;
	return __real_malloc(size);
}
void* __wrap_calloc(size_t n, size_t size)
{
	allocations++;
	return __real_calloc(n, size);
}
void* __wrap_realloc(void* p, size_t size)
{
	allocations++;
	return __real_realloc(p, size);
}

static void test_no_allocation_in_the_step(void)
{
	pdl_world* w = worlds_dam_break(2); /* springs, obstacles, pointer, three materials */
	ENSURE(allocations > 0);            /* the counters do see the library's allocations */
	pdl_world_step(w);
	int before = allocations;
	for (int s = 0; s < worlds_steps(300); ++s) pdl_world_step(w);
	printf("  allocations during 300 steps: %d\n", allocations - before);
	ENSURE(allocations == before);
	/* adding particles may grow the arrays (outside the step); the steps after it do not */
	worlds_fill_box(w, 0, 0, 10, 3, 3);
	pdl_world_step(w);
	before = allocations;
	for (int s = 0; s < 100; ++s) pdl_world_step(w);
	ENSURE(allocations == before);
	pdl_world_destroy(w);
}

/* The same for the SPH solver (src/sph.c): its wall tables live in the world, its scratch in
 * the particle arrays. */
static void test_no_allocation_in_the_sph_step(void)
{
	pdl_world* w = worlds_sph_dam_break(2); /* obstacles, pointer, two materials, surface tension */
	pdl_world_step(w);
	int before = allocations;
	for (int s = 0; s < worlds_steps(120); ++s) pdl_world_step(w);
	printf("  allocations during 120 SPH steps: %d\n", allocations - before);
	ENSURE(allocations == before);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_no_allocation_in_the_step);
	RUN_TEST(test_no_allocation_in_the_sph_step);
	return TEST_SUMMARY();
}
