/* A fork-join thread pool on C11 atomics and POSIX threads (ThreadSanitizer understands
 * both, unlike most OpenMP runtimes, and Emscripten maps them to Web Workers). Workers spin
 * briefly between jobs, because a solver step issues about ten short jobs back to back, then
 * sleep on a condition variable.
 *
 * Affinity: a job's items are split into one contiguous segment per thread, and thread t
 * first works through segment t, chunk by chunk, before it helps with the others. The
 * particles are stored in grid order, so thread t handles about the same particles in every
 * stage of every step and finds them in its own cache; with one shared counter, chunks landed
 * on either core at random and half the data crossed between the cores' caches each stage
 * (measured: the sort and the per-particle stages ran slower on two threads than on one). The
 * helping keeps both threads busy when one segment costs more. Which thread runs an item
 * never changes the result (every stage writes each value in one fixed order).
 *
 * pdl_pool_each is the same job with one item per thread and no helping: each thread runs its
 * own call, all at once, so the calls may wait on flags that the others set (the pair passes'
 * slabs, relax.c). */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

/* Spins on the job counter before a worker yields, then before it sleeps. */
enum { SPIN_PAUSES = 4000, SPIN_YIELDS = 200 };

/* One thread's share of a job: items [next, end), claimed a chunk at a time. */
typedef struct segment {
	_Alignas(64) atomic_int next; /* own cache line: the threads claim from it concurrently */
	int end;
} segment;

typedef struct worker {
	struct pdl_pool* pool;
	int index; /* 1..worker_count; the caller of pdl_pool_for is 0 */
} worker;

struct pdl_pool {
	int worker_count;
	pthread_t* workers;
	worker* worker_args;
	segment* segments; /* worker_count + 1 */
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	atomic_int generation; /* bumped for every job */
	atomic_int sleepers;
	atomic_int busy;       /* workers not yet done with the current job */
	atomic_bool shutdown;
	/* the current job: written before generation is bumped, read after */
	pdl_task_fn* fn;
	void* context;
	int grain;
	bool pinned; /* pdl_pool_each: every thread runs its own segment only */
};

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* One turn of a wait that the other threads end within microseconds: pause the core for the
 * first SPIN_PAUSES turns, then yield it (more threads than cores). */
static inline void wait_turn(int spins)
{
	if (spins < SPIN_PAUSES) cpu_pause();
	else sched_yield();
}

/* Thread `self`: its own segment first, then the others' leftovers. */
static void run_chunks(pdl_pool* pool, int self)
{
	int threads = pool->worker_count + 1;
	for (int k = 0; k < (pool->pinned ? 1 : threads); ++k) {
		segment* s = &pool->segments[(self + k) % threads];
		for (;;) {
			int begin = atomic_fetch_add_explicit(&s->next, pool->grain, memory_order_relaxed);
			if (begin >= s->end) break;
			int end = begin + pool->grain < s->end ? begin + pool->grain : s->end;
			pool->fn(pool->context, begin, end);
		}
	}
}

static int wait_for_job(pdl_pool* pool, int seen)
{
	for (int i = 0; i < SPIN_PAUSES; ++i) {
		int g = atomic_load_explicit(&pool->generation, memory_order_acquire);
		if (g != seen) return g;
		cpu_pause();
	}
	for (int i = 0; i < SPIN_YIELDS; ++i) {
		int g = atomic_load_explicit(&pool->generation, memory_order_acquire);
		if (g != seen) return g;
		sched_yield();
	}
	pthread_mutex_lock(&pool->mutex);
	atomic_fetch_add(&pool->sleepers, 1); /* seq_cst: pairs with the load in pdl_pool_for */
	int g;
	while ((g = atomic_load(&pool->generation)) == seen) pthread_cond_wait(&pool->wake, &pool->mutex);
	atomic_fetch_sub(&pool->sleepers, 1);
	pthread_mutex_unlock(&pool->mutex);
	return g;
}

static void* worker_main(void* arg)
{
	const worker* me = arg;
	pdl_pool* pool = me->pool;
	int seen = 0;
	for (;;) {
		seen = wait_for_job(pool, seen);
		if (atomic_load_explicit(&pool->shutdown, memory_order_acquire)) return NULL;
		run_chunks(pool, me->index);
		atomic_fetch_sub_explicit(&pool->busy, 1, memory_order_release);
	}
}

int pdl_core_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)(n > PDL_POOL_MAX_THREADS ? PDL_POOL_MAX_THREADS : n);
}

pdl_pool* pdl_pool_create(int threads)
{
	pdl_pool* pool = calloc(1, sizeof *pool);
	if (!pool) return NULL;
	pthread_mutex_init(&pool->mutex, NULL);
	pthread_cond_init(&pool->wake, NULL);
	atomic_init(&pool->generation, 0);
	atomic_init(&pool->sleepers, 0);
	atomic_init(&pool->busy, 0);
	atomic_init(&pool->shutdown, false);
	int wanted = threads > 1 ? threads - 1 : 0;
	pool->segments = aligned_alloc(64, (size_t)(wanted + 1) * sizeof *pool->segments);
	if (!pool->segments) {
		pdl_pool_destroy(pool);
		return NULL;
	}
	for (int i = 0; i <= wanted; ++i) {
		atomic_init(&pool->segments[i].next, 0);
		pool->segments[i].end = 0;
	}
	if (wanted > 0) {
		pool->workers = calloc((size_t)wanted, sizeof *pool->workers);
		pool->worker_args = calloc((size_t)wanted, sizeof *pool->worker_args);
	}
	if (!pool->workers || !pool->worker_args) wanted = 0;
	for (int i = 0; i < wanted; ++i) {
		pool->worker_args[i] = (worker){pool, i + 1};
		if (pthread_create(&pool->workers[i], NULL, worker_main, &pool->worker_args[i]) != 0) break;
		pool->worker_count++;
	}
	return pool;
}

void pdl_pool_destroy(pdl_pool* pool)
{
	if (!pool) return;
	atomic_store(&pool->shutdown, true);
	pthread_mutex_lock(&pool->mutex);
	atomic_fetch_add(&pool->generation, 1);
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->mutex);
	for (int i = 0; i < pool->worker_count; ++i) pthread_join(pool->workers[i], NULL);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->mutex);
	free(pool->workers);
	free(pool->worker_args);
	free(pool->segments);
	free(pool);
}

int pdl_pool_threads(const pdl_pool* pool) { return pool ? pool->worker_count + 1 : 1; }

/* Publishes the job set up in pool (fn, context, grain, pinned, segments), works on it as
 * thread 0 and returns when every worker is done. */
static void run_job(pdl_pool* pool)
{
	atomic_store_explicit(&pool->busy, pool->worker_count, memory_order_relaxed);
	atomic_fetch_add(&pool->generation, 1); /* seq_cst: publishes the job */
	if (atomic_load(&pool->sleepers) > 0) {
		pthread_mutex_lock(&pool->mutex);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->mutex);
	}
	run_chunks(pool, 0);
	for (int spins = 0; atomic_load_explicit(&pool->busy, memory_order_acquire) > 0; ++spins)
		wait_turn(spins);
}

void pdl_pool_for(pdl_pool* pool, int count, int grain, pdl_task_fn* fn, void* context)
{
	if (count <= 0) return;
	if (grain < 1) grain = 1;
	if (!pool || pool->worker_count == 0 || count <= grain) {
		fn(context, 0, count);
		return;
	}
	pool->fn = fn;
	pool->context = context;
	pool->grain = grain;
	pool->pinned = false;
	/* segment t starts at t count / threads, rounded to the nearest whole chunk, so every
	 * chunk starts at a multiple of grain whichever thread claims it (rounding down gave the
	 * last thread up to a chunk more than its share: 4096 against 5802 particles of 9898 in
	 * chunks of 1024, and the first thread then took the other's particles, out of its cache) */
	int threads = pool->worker_count + 1;
	for (int t = 0; t < threads; ++t) {
		long long chunks = ((long long)count + grain - 1) / grain;
		int begin = (int)((chunks * t + threads / 2) / threads * grain);
		int end = t + 1 < threads ? (int)((chunks * (t + 1) + threads / 2) / threads * grain) : count;
		if (begin > count) begin = count;
		if (end > count) end = count;
		atomic_store_explicit(&pool->segments[t].next, begin, memory_order_relaxed);
		pool->segments[t].end = end;
	}
	run_job(pool);
}

void pdl_pool_each(pdl_pool* pool, pdl_task_fn* fn, void* context)
{
	int threads = pdl_pool_threads(pool);
	if (threads == 1) {
		fn(context, 0, 1);
		return;
	}
	pool->fn = fn;
	pool->context = context;
	pool->grain = 1;
	pool->pinned = true;
	for (int t = 0; t < threads; ++t) {
		atomic_store_explicit(&pool->segments[t].next, t, memory_order_relaxed);
		pool->segments[t].end = t + 1;
	}
	run_job(pool);
}

void pdl_pool_wait(const atomic_int* flag, int value)
{
	for (int spins = 0; atomic_load_explicit(flag, memory_order_acquire) != value; ++spins)
		wait_turn(spins);
}
