/* A fork-join thread pool on C11 atomics and POSIX threads (ThreadSanitizer understands
 * both, unlike most OpenMP runtimes, and Emscripten maps them to Web Workers). Workers spin
 * briefly between jobs, because a solver step issues about ten short jobs back to back, then
 * sleep on a condition variable. */
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

struct pdl_pool {
	int worker_count;
	pthread_t* workers;
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	atomic_int generation; /* bumped for every job */
	atomic_int sleepers;
	atomic_int busy;       /* workers not yet done with the current job */
	atomic_bool shutdown;
	/* the current job: written before generation is bumped, read after */
	pdl_task_fn* fn;
	void* context;
	int count, grain;
	atomic_int next; /* first item not yet claimed */
};

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void run_chunks(pdl_pool* pool)
{
	for (;;) {
		int begin = atomic_fetch_add_explicit(&pool->next, pool->grain, memory_order_relaxed);
		if (begin >= pool->count) return;
		int end = begin + pool->grain < pool->count ? begin + pool->grain : pool->count;
		pool->fn(pool->context, begin, end);
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
	pdl_pool* pool = arg;
	int seen = 0;
	for (;;) {
		seen = wait_for_job(pool, seen);
		if (atomic_load_explicit(&pool->shutdown, memory_order_acquire)) return NULL;
		run_chunks(pool);
		atomic_fetch_sub_explicit(&pool->busy, 1, memory_order_release);
	}
}

int pdl_core_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)(n > 256 ? 256 : n);
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
	atomic_init(&pool->next, 0);
	int wanted = threads > 1 ? threads - 1 : 0;
	if (wanted > 0) pool->workers = calloc((size_t)wanted, sizeof *pool->workers);
	if (!pool->workers) wanted = 0;
	for (int i = 0; i < wanted; ++i) {
		if (pthread_create(&pool->workers[i], NULL, worker_main, pool) != 0) break;
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
	free(pool);
}

int pdl_pool_threads(const pdl_pool* pool) { return pool ? pool->worker_count + 1 : 1; }

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
	pool->count = count;
	pool->grain = grain;
	atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
	atomic_store_explicit(&pool->busy, pool->worker_count, memory_order_relaxed);
	atomic_fetch_add(&pool->generation, 1); /* seq_cst: publishes the job */
	if (atomic_load(&pool->sleepers) > 0) {
		pthread_mutex_lock(&pool->mutex);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->mutex);
	}
	run_chunks(pool);
	for (int spins = 0; atomic_load_explicit(&pool->busy, memory_order_acquire) > 0; ++spins) {
		if (spins < SPIN_PAUSES) cpu_pause();
		else sched_yield();
	}
}
