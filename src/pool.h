/* Internal: a small fork-join thread pool. The calling thread works too, so a pool of n
 * threads starts n - 1 workers. Work is split into chunks claimed through atomic counters;
 * which thread runs a chunk never changes the result, because every stage writes each value in
 * one fixed order whatever the split (gathers, and the pair passes' slabs, relax_loops.h). */
#ifndef PUDDLE_POOL_H
#define PUDDLE_POOL_H

#include <stdatomic.h>

/* The most threads a pool runs (pdl_world_def.threads is checked against it). */
#define PDL_POOL_MAX_THREADS 256

/* Runs items [begin, end) of a parallel loop. */
typedef void pdl_task_fn(void* context, int begin, int end);

typedef struct pdl_pool pdl_pool;

/* A pool running `threads` threads in all (>= 1). May start fewer workers than asked when the
 * system refuses threads (e.g. WebAssembly without -pthread); never NULL unless out of memory. */
pdl_pool* pdl_pool_create(int threads);
void pdl_pool_destroy(pdl_pool* pool);
/* Threads actually running, the caller included. */
int pdl_pool_threads(const pdl_pool* pool);
/* Calls fn over [0, count) in chunks of `grain` items and returns when all are done. Every
 * chunk is [k grain, min((k + 1) grain, count)) and runs exactly once, on whichever thread
 * claims it; a call covers one chunk, or all of them on a pool of one thread (a function that
 * keeps a result per chunk splits its range by grain, as grid.c's chunk_bounds does). Thread t starts with the t-th of `threads` contiguous segments (its data stays in
 * its cache from stage to stage), then helps with the others. The caller waits only for the
 * threads that took part: a worker that has not woken up (or has no core) by the time every
 * chunk is claimed is not waited for. A chunk may wait (pdl_pool_wait) only for work that is
 * already claimed by a thread that never waits itself, never for a chunk not yet started. */
void pdl_pool_for(pdl_pool* pool, int count, int grain, pdl_task_fn* fn, void* context);

/* For a chunk that runs long (a whole pass): call between its parts. On the job's caller, wakes
 * sleeping workers once the job has run long enough to be worth their waking (pool.c,
 * WAKE_AFTER_NS) and chunks are left for them; elsewhere it does nothing. */
void pdl_pool_ask_for_help(pdl_pool* pool);

/* Waits until *flag == value (acquire): spins briefly, then sleeps until pdl_pool_post. */
void pdl_pool_wait(pdl_pool* pool, atomic_int* flag, int value);
/* Sets *flag = value (release) and wakes the threads sleeping in pdl_pool_wait on it. */
void pdl_pool_post(pdl_pool* pool, atomic_int* flag, int value);

/* Milliseconds the calling thread has spent asleep in this pool's waits, waiting for a
 * pool thread to finish what it had taken (the end of pdl_pool_for, pdl_pool_wait), since the
 * pool was made. Such waits outlast the spin only when that thread has lost its core: the
 * solver is starved. Read it from the thread that calls pdl_pool_for. */
double pdl_pool_stalled_ms(const pdl_pool* pool);
/* Milliseconds on the monotonic clock (the step's timers, pdl_profile). */
double pdl_now_ms(void);

/* Cores this process may run on (its CPU affinity where the system has one), at least 1 and
 * at most PDL_POOL_MAX_THREADS. */
int pdl_core_count(void);

#endif
