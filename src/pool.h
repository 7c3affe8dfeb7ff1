/* Internal: a small fork-join thread pool. The calling thread works too, so a pool of n
 * threads starts n - 1 workers. Work is split into chunks claimed through an atomic counter;
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
/* Calls fn over [0, count) in chunks of `grain` items and returns when all are done. Thread t
 * starts with the t-th of `threads` contiguous segments (its data stays in its cache from stage
 * to stage), then helps with the others; every chunk starts at a multiple of grain. */
void pdl_pool_for(pdl_pool* pool, int count, int grain, pdl_task_fn* fn, void* context);

/* Calls fn(context, t, t + 1) once on every thread t of the pool (the caller is thread 0) and
 * returns when all are done. Unlike pdl_pool_for, no thread runs another's call, so the calls
 * may wait for each other (pdl_pool_wait): they all run at once. */
void pdl_pool_each(pdl_pool* pool, pdl_task_fn* fn, void* context);
/* Waits until *flag == value (acquire): spins, then yields the core. */
void pdl_pool_wait(const atomic_int* flag, int value);

/* Cores the system reports, at least 1. */
int pdl_core_count(void);

#endif
