/* Determinism: the same scene gives bitwise-identical particle states with 1, 2 and 4 threads,
 * on repeated runs (every stage is a gather: no result depends on which thread ran it), and
 * with either copy of the neighbour loops (AVX2 or the baseline SSE2 / plain C). */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "worlds.h"
#include "puddle/partition.h"

#include <inttypes.h>
#include <stdlib.h>

static uint64_t run_dam_break(int threads, int frames)
{
	pdl_world* w = worlds_dam_break(threads);
	for (int f = 0; f < frames; ++f) {
		if (f == frames / 2) { /* change things mid-run, as an app would */
			pdl_world_clear_pointer(w, 0);
			pdl_world_remove_particles_in_circle(w, (pdl_vec3){0, -10}, 2.0f);
		}
		pdl_world_step(w);
	}
	uint64_t h = pdl_world_hash(w);
	pdl_world_destroy(w);
	return h;
}

static void test_hash_equal_across_thread_counts(void)
{
	const int frames = worlds_steps(300);
	uint64_t h1 = run_dam_break(1, frames);
	uint64_t h2 = run_dam_break(2, frames);
	uint64_t h4 = run_dam_break(4, frames);
	printf("  hash 1 thread %016" PRIx64 ", 2 threads %016" PRIx64 ", 4 threads %016" PRIx64 "\n", h1, h2, h4);
	ENSURE(h1 == h2);
	ENSURE(h1 == h4);
}

static void test_hash_equal_across_runs(void)
{
	uint64_t a = run_dam_break(2, worlds_steps(200)), b = run_dam_break(2, worlds_steps(200));
	ENSURE(a == b);
}

static void test_thread_count_change_mid_run(void)
{
	/* switching threads between steps must not change the result either */
	const int frames = worlds_steps(150); /* (quick mode: 30, a third on each count) */
	pdl_world* w = worlds_dam_break(1);
	for (int f = 0; f < frames; ++f) {
		if (f == frames / 3 || f == 2 * frames / 3) {
			pdl_world_def d = pdl_world_get_def(w);
			d.threads = f == frames / 3 ? 3 : 2;
			ENSURE(pdl_world_set_def(w, &d, NULL) == PDL_OK);
		}
		pdl_world_step(w);
	}
	pdl_world* ref = worlds_dam_break(1);
	for (int f = 0; f < frames; ++f) pdl_world_step(ref);
	ENSURE(pdl_world_hash(w) == pdl_world_hash(ref));
	pdl_world_destroy(w);
	pdl_world_destroy(ref);
}

/* A world big enough that the grid's counting sort runs in one band per thread (8192 particles
 * and more): the bands must give the serial sort's order, from the first step (keys in fill
 * order) on. */
static uint64_t run_big_pool(int threads, int frames)
{
	pdl_world* w = worlds_create(threads, NULL);
	worlds_add_box_container(w, 40, 12);
	worlds_fill_box(w, 0, 0, -4, 38, 7);
	for (int f = 0; f < frames; ++f) pdl_world_step(w);
	uint64_t h = pdl_world_hash(w);
	pdl_world_destroy(w);
	return h;
}

static void test_hash_equal_with_sort_bands(void)
{
	const int frames = worlds_steps(60);
	uint64_t h1 = run_big_pool(1, frames), h2 = run_big_pool(2, frames), h3 = run_big_pool(3, frames);
	pdl_world* w = worlds_create(1, NULL);
	ENSURE(worlds_fill_box(w, 0, 0, -4, 38, 7) >= 8192); /* several bands at 2 and 3 threads */
	pdl_world_destroy(w);
	printf("  hash 1 thread %016" PRIx64 ", 2 threads %016" PRIx64 ", 3 threads %016" PRIx64 "\n", h1, h2, h3);
	ENSURE(h1 == h2);
	ENSURE(h1 == h3);
}

static void test_hash_equal_across_simd_backends(void)
{
	/* PUDDLE_SIMD=baseline (avx2) makes the worlds created after it use the baseline loops (at
	 * most the AVX2 ones); the default is the best copy the processor runs, AVX-512VL on
	 * processors that have it */
	const int frames = worlds_steps(300);
	uint64_t native = run_dam_break(2, frames);
	setenv("PUDDLE_SIMD", "avx2", 1);
	uint64_t avx2 = run_dam_break(2, frames);
	setenv("PUDDLE_SIMD", "baseline", 1);
	uint64_t baseline = run_dam_break(2, frames);
	unsetenv("PUDDLE_SIMD");
	printf("  hash default loops %016" PRIx64 ", AVX2 at most %016" PRIx64 ", baseline loops %016" PRIx64 "\n",
	       native, avx2, baseline);
	ENSURE(native == baseline);
	ENSURE(avx2 == baseline);
}

/* A world whose relaxation gathers (pdl_grid_frame.gather_passes, as a process of a split world
 * runs) and whose 3D grid axes are fixed is as deterministic: the same hash for 1, 2 and 4
 * threads; and the gather passes are the same physics, not the same bits, as the pair passes. */
static uint64_t run_framed(int threads, bool three, bool gather)
{
	pdl_world* w = three ? worlds_dam_break_3d(threads, PDL_SOLVER_CLAVET) : worlds_dam_break(threads);
	pdl_grid_frame f = pdl_default_grid_frame();
	f.gather_passes = gather;
	if (three) f.axes[0] = 0, f.axes[1] = 2, f.axes[2] = 1;
	if (pdl_world_set_grid_frame(w, &f, NULL) != PDL_OK) return 0;
	for (int s = 0; s < worlds_steps(120); ++s) pdl_world_step(w);
	uint64_t h = pdl_world_hash(w);
	pdl_world_destroy(w);
	return h;
}

static void test_grid_frame_is_deterministic(void)
{
	/* (quick mode, under the sanitizers: 1 and 2 threads; the release run checks 1, 2 and 4 and
	 * prints the pair passes' hash beside them) */
	const bool quick = worlds_quick();
	for (int three = 0; three < 2; ++three) {
		uint64_t h1 = run_framed(1, three, true), h2 = run_framed(2, three, true);
		uint64_t h4 = quick ? h1 : run_framed(4, three, true), pairs = quick ? 0 : run_framed(2, three, false);
		printf("  %s, gather passes: %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " (pair passes %016" PRIx64 ")\n",
		       three ? "3D, axes fixed" : "2D", h1, h2, h4, pairs);
		ENSURE(h1 != 0 && h1 == h2 && h1 == h4);
	}
}

/* pdl_world_grid_cells counts the grid's cells over a box (h / 2 wide in 2D, h in 3D): what a
 * split world's dense_cells must cover (mpi/src/mpi_world.c). */
static void test_grid_cells_of_a_box(void)
{
	for (int three = 0; three < 2; ++three) {
		pdl_world* w = three ? worlds_dam_break_3d(1, PDL_SOLVER_CLAVET) : worlds_dam_break(1);
		const float h = pdl_world_get_def(w).interaction_radius;
		/* 10 h x 5 h x 2 h from the origin, a quarter cell in: 2D 21 x 11 cells, 3D 11 x 6 x 3 */
		pdl_vec3 lo = {0.25f * h, 0.25f * h, 0.25f * h}, hi = {10.25f * h, 5.25f * h, 2.25f * h};
		double cells = pdl_world_grid_cells(w, lo, hi);
		printf("  %s: %.0f cells\n", three ? "3D" : "2D", cells);
		ENSURE(cells == (three ? 11.0 * 6 * 3 : 21.0 * 11));
		ENSURE(pdl_world_grid_cells(w, hi, lo) == 0);
		ENSURE(pdl_world_grid_cells(w, lo, (pdl_vec3){NAN, hi.y, hi.z}) == 0);
		ENSURE(pdl_world_grid_cells(NULL, lo, hi) == 0);
		pdl_world_destroy(w);
	}
}

int main(void)
{
	RUN_TEST(test_hash_equal_across_thread_counts);
	RUN_TEST(test_hash_equal_across_runs);
	RUN_TEST(test_thread_count_change_mid_run);
	RUN_TEST(test_hash_equal_with_sort_bands);
	RUN_TEST(test_hash_equal_across_simd_backends);
	RUN_TEST(test_grid_frame_is_deterministic);
	RUN_TEST(test_grid_cells_of_a_box);
	return TEST_SUMMARY();
}
