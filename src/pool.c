/* A fork-join thread pool on C11 atomics and POSIX threads (ThreadSanitizer understands
 * both, unlike most OpenMP runtimes, and Emscripten maps them to Web Workers).
 *
 * Waiting. Every wait spins for a bounded time and then sleeps on the word it waits for
 * (futex(2) on Linux, Atomics.wait through emscripten_futex_wait in a Web Worker, a condition
 * variable elsewhere), as libgomp does (GOMP_SPINCOUNT, OMP_WAIT_POLICY). Spinning covers the
 * microseconds between the ten or so short jobs of a solver step; sleeping hands the core back
 * when the wait is long, which is when a thread that holds work has lost its core to another
 * program. Waits that spin and sched_yield without end keep the waiting threads on the cores
 * the late one needs: so built, the pool ran two threads 20 times slower than one beside a
 * single busy loop on 2 cores (issue 38). When the pool has more threads than the process has
 * cores, the spins are cut short (libgomp's throttled spin count does the same): a spinning
 * thread there only delays one that has work.
 *
 * What a job still waits for: a worker that lost its core in the middle of a chunk. No other
 * thread can finish that chunk for it; the caller sleeps until it is done, and counts that
 * time (pdl_pool_stalled_ms, pdl_profile.stalled).
 *
 * Joining. A job is open from the moment the caller publishes it until every chunk is claimed.
 * Workers join it (a compare-and-swap on `state`, which holds the job's sequence number and how
 * many have joined) while it is open, and the caller, once it has no more chunks to claim,
 * closes it and waits only for the workers that joined. A worker that is asleep, or runnable
 * but without a core, when the job opens is not waited for: the others take its chunks. So a
 * job never waits for a thread that has no work, only for one that holds a chunk.
 *
 * Affinity: a job's items are split into one contiguous segment per thread, and thread t
 * first works through segment t, chunk by chunk, before it helps with the others. The
 * particles are stored in grid order, so thread t handles about the same particles in every
 * stage of every step and finds them in its own cache; with one shared counter, chunks landed
 * on either core at random and half the data crossed between the cores' caches each stage
 * (measured: the sort and the per-particle stages ran slower on two threads than on one). The
 * helping keeps every thread busy when one segment costs more or its thread is late. Which
 * thread runs an item never changes the result (every stage writes each value in one fixed
 * order), and the chunks are the same for every thread count (multiples of the grain). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT, syscall */
#include "pool.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#elif defined(__EMSCRIPTEN__)
#include <emscripten/threading.h>
#include <math.h>
#endif

/* How long a wait spins before it sleeps, in nanoseconds. A step's jobs follow each other
 * within microseconds, and waking a sleeping thread costs tens of them, so a worker between
 * jobs spins a little; between steps (the viewer drawing a frame) it sleeps. A thread waiting
 * for another's chunk spins about a chunk's time (tens of microseconds at 256-1024 items).
 * Spinning longer does not pay when the cores are contended: the spin's CPU time comes out of
 * the process's own fair share (its autogroup's), and a thread that sleeps keeps its claim to
 * run soon after it wakes (EEVDF's lag), where one that spun has used it up. On 2 cores at a
 * load average of 12 (medians of 5 alternating runs), a 100 us spin between jobs ran the 10k
 * dam break's two threads at 0.67x one thread, 10-30 us at 0.93x. With more threads than
 * cores, every wait spins about a microsecond. */
enum { JOB_SPIN_NS = 30000, CHUNK_SPIN_NS = 50000, THROTTLED_SPIN_NS = 1000 };

/* Waking a sleeping worker is not free for the caller: on the 2-core VM of bench/contend.sh a
 * job that woke one spent 33-50 us in the wake (futex(2)'s FUTEX_WAKE, the other core's
 * interrupt, and the woken thread often taking the caller's own core first), against 70-90 us
 * for the whole job, and under load the woken worker mostly arrived after the job was done.
 * So a job wakes the sleepers only once the caller has worked on it for WAKE_AFTER_NS and
 * chunks are left: short jobs never pay, long ones lose that much of one thread. The caller
 * checks between its chunks, and a chunk that runs a whole pass (the pair passes' slab claims)
 * checks between its parts (pdl_pool_ask_for_help). */
enum { WAKE_AFTER_NS = 50000 };

/* state: the job's sequence number above JOIN_BITS, the workers that joined it below. An odd
 * sequence number is an open job. */
enum { JOIN_BITS = 10 };
#define JOIN_MASK ((1u << JOIN_BITS) - 1)
#define SEQUENCE_MASK ((1u << (31 - JOIN_BITS)) - 1) /* state stays a non-negative int */

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
	int job_spin_ns, chunk_spin_ns;
	int wake_limit; /* the most sleeping workers a job wakes: the cores besides the caller's */
	_Alignas(64) atomic_int state; /* sequence << JOIN_BITS | joined (the futex workers sleep on) */
	_Alignas(64) atomic_int left;  /* joined workers done with the current job (the caller sleeps on it) */
	atomic_int job_sleepers;       /* workers asleep on state */
	atomic_int caller_sleeping;    /* 1 while the caller sleeps on left */
	atomic_int flag_sleepers;      /* threads asleep in pdl_pool_wait */
	atomic_bool shutdown;
	/* the caller's own: */
	unsigned sequence;  /* the current job's (odd: open) */
	long long stalled_ns;
	long long wake_at;  /* when to wake sleeping workers (WAKE_AFTER_NS; 0: not) */
	int wake_count;     /* how many */
	/* the current job: written while it is closed, read by the workers that join it */
	pdl_task_fn* fn;
	void* context;
	int grain;
};

/* The pool this thread is a worker of (NULL on any other thread): stalls are the caller's. */
static _Thread_local const pdl_pool* worker_of;

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sleeping on a word: park returns when *word may no longer hold `expected` (or spuriously);
 * unpark wakes up to `count` threads parked on it. The kernel (or the browser) compares the
 * word with `expected` atomically with going to sleep, so a change made before the sleep is
 * never missed (futex(2), FUTEX_WAIT). */
#if defined(__linux__)
static void park(atomic_int* word, int expected)
{
	syscall(SYS_futex, (int*)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}
static void unpark(atomic_int* word, int count)
{
	syscall(SYS_futex, (int*)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}
#elif defined(__EMSCRIPTEN__)
/* Atomics.wait in a Worker; the browser's main thread may not block, and Emscripten spins
 * there instead (emscripten_futex_wait). Without -pthread both are no-ops, and no wait here
 * ever parks: a pool without workers never waits for another thread. */
static void park(atomic_int* word, int expected)
{
	emscripten_futex_wait((volatile void*)word, (uint32_t)expected, INFINITY);
}
static void unpark(atomic_int* word, int count) { emscripten_futex_wake((volatile void*)word, count); }
#else
/* One condition variable for every word: the parked thread checks the word under the mutex
 * that unpark takes, so no wake is lost, and the others just check again. */
static pthread_mutex_t park_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_wake = PTHREAD_COND_INITIALIZER;
static void park(atomic_int* word, int expected)
{
	pthread_mutex_lock(&park_mutex);
	if (atomic_load(word) == expected) pthread_cond_wait(&park_wake, &park_mutex);
	pthread_mutex_unlock(&park_mutex);
}
static void unpark(atomic_int* word, int count)
{
	(void)word, (void)count;
	pthread_mutex_lock(&park_mutex);
	pthread_cond_broadcast(&park_wake);
	pthread_mutex_unlock(&park_mutex);
}
#endif

/* Waits until *word != seen and returns the new value (acquire): spins for spin_ns, then
 * sleeps, counted in *sleepers so that whoever changes the word knows to wake it. The
 * sleepers count and the word are both sequentially consistent: either this thread sees the
 * change before it sleeps, or the changer sees it counted (and the kernel's own check covers a
 * change between the two). Adds the time asleep to *stalled_ns unless that is NULL. */
static int await_change(atomic_int* word, int seen, int spin_ns, atomic_int* sleepers, long long* stalled_ns)
{
	long long start = 0;
	for (int spins = 0;; ++spins) {
		int v = atomic_load_explicit(word, memory_order_acquire);
		if (v != seen) return v;
		if ((spins & 15) == 0) {
			long long t = now_ns();
			if (spins == 0) start = t;
			else if (t - start >= spin_ns) break;
		}
		cpu_pause();
	}
	long long asleep = stalled_ns ? now_ns() : 0;
	atomic_fetch_add(sleepers, 1);
	int v;
	while ((v = atomic_load(word)) == seen) park(word, seen);
	atomic_fetch_sub(sleepers, 1);
	if (stalled_ns) *stalled_ns += now_ns() - asleep;
	return v;
}

static unsigned sequence_of(int state) { return (unsigned)state >> JOIN_BITS; }

/* Whether any segment of the current job has chunks left to claim. */
static bool chunks_left(pdl_pool* pool)
{
	for (int t = 0; t <= pool->worker_count; ++t)
		if (atomic_load_explicit(&pool->segments[t].next, memory_order_relaxed) < pool->segments[t].end) return true;
	return false;
}

/* The caller's lazy wake (WAKE_AFTER_NS): once the job has run until pool->wake_at, wakes
 * sleeping workers if chunks are left for them. */
static void wake_if_due(pdl_pool* pool)
{
	if (pool->wake_at && now_ns() >= pool->wake_at) {
		if (chunks_left(pool)) unpark(&pool->state, pool->wake_count);
		pool->wake_at = 0;
	}
}

void pdl_pool_ask_for_help(pdl_pool* pool)
{
	if (worker_of != pool) wake_if_due(pool);
}

/* Thread `self`: its own segment first, then the others' leftovers. */
static void run_chunks(pdl_pool* pool, int self)
{
	int threads = pool->worker_count + 1;
	for (int k = 0; k < threads; ++k) {
		segment* s = &pool->segments[(self + k) % threads];
		for (;;) {
			int begin = atomic_fetch_add_explicit(&s->next, pool->grain, memory_order_relaxed);
			if (begin >= s->end) break;
			int end = begin + pool->grain < s->end ? begin + pool->grain : s->end;
			pool->fn(pool->context, begin, end);
			if (self == 0) wake_if_due(pool);
		}
	}
}

static void* worker_main(void* arg)
{
	const worker* me = arg;
	pdl_pool* pool = me->pool;
	worker_of = pool;
	unsigned joined = 0; /* the sequence number of the last job this worker joined */
	int s = atomic_load_explicit(&pool->state, memory_order_acquire);
	for (;;) {
		unsigned sequence = sequence_of(s);
		if (!(sequence & 1) || sequence == joined) { /* closed, or done with it */
			s = await_change(&pool->state, s, pool->job_spin_ns, &pool->job_sleepers, NULL);
			continue;
		}
		if (atomic_load_explicit(&pool->shutdown, memory_order_acquire)) return NULL;
		/* join; on failure s is the state now (another joined, or the job closed) */
		if (!atomic_compare_exchange_weak_explicit(&pool->state, &s, s + 1, memory_order_acquire,
		                                           memory_order_acquire))
			continue;
		joined = sequence;
		run_chunks(pool, me->index);
		atomic_fetch_add(&pool->left, 1); /* seq_cst: pairs with caller_sleeping */
		if (atomic_load(&pool->caller_sleeping)) unpark(&pool->left, 1);
		s = atomic_load_explicit(&pool->state, memory_order_acquire);
	}
}

int pdl_core_count(void)
{
	long n = 0;
#if defined(__linux__)
	/* the cores this process may use (taskset, a container's cpuset), as nproc(1) counts them */
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
#endif
	if (n < 1) n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)(n > PDL_POOL_MAX_THREADS ? PDL_POOL_MAX_THREADS : n);
}

pdl_pool* pdl_pool_create(int threads)
{
	pdl_pool* pool = calloc(1, sizeof *pool);
	if (!pool) return NULL;
	atomic_init(&pool->state, 0);
	atomic_init(&pool->left, 0);
	atomic_init(&pool->job_sleepers, 0);
	atomic_init(&pool->caller_sleeping, 0);
	atomic_init(&pool->flag_sleepers, 0);
	atomic_init(&pool->shutdown, false);
	int wanted = threads > 1 ? threads - 1 : 0;
	if (wanted > PDL_POOL_MAX_THREADS - 1) wanted = PDL_POOL_MAX_THREADS - 1;
	int cores = pdl_core_count();
	bool throttled = wanted + 1 > cores;
	pool->job_spin_ns = throttled ? THROTTLED_SPIN_NS : JOB_SPIN_NS;
	pool->chunk_spin_ns = throttled ? THROTTLED_SPIN_NS : CHUNK_SPIN_NS;
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
	/* workers beyond the cores would only take turns on them, each preempted one holding up the
	 * job's end, so a job wakes no more than there are cores for (those spinning join anyway) */
	pool->wake_limit = cores > 1 ? cores - 1 : 1;
	for (int i = 0; i < wanted; ++i) {
		pool->worker_args[i] = (worker){pool, i + 1};
		if (pthread_create(&pool->workers[i], NULL, worker_main, &pool->worker_args[i]) != 0) break;
		pool->worker_count++;
	}
	return pool;
}

/* Opens the next job to the workers; true if some are asleep. */
static bool open_job(pdl_pool* pool)
{
	pool->sequence = (pool->sequence + 1) & SEQUENCE_MASK;
	atomic_store(&pool->state, (int)(pool->sequence << JOIN_BITS)); /* seq_cst: publishes the job */
	return atomic_load(&pool->job_sleepers) > 0; /* seq_cst: pairs with await_change's count */
}

void pdl_pool_destroy(pdl_pool* pool)
{
	if (!pool) return;
	if (pool->worker_count > 0) {
		atomic_store(&pool->shutdown, true);
		if (open_job(pool)) unpark(&pool->state, INT_MAX);
	}
	for (int i = 0; i < pool->worker_count; ++i) pthread_join(pool->workers[i], NULL);
	free(pool->workers);
	free(pool->worker_args);
	free(pool->segments);
	free(pool);
}

int pdl_pool_threads(const pdl_pool* pool) { return pool ? pool->worker_count + 1 : 1; }

double pdl_pool_stalled_ms(const pdl_pool* pool) { return pool ? 1e-6 * (double)pool->stalled_ns : 0; }

double pdl_now_ms(void)
{
	/* monotonic, and with microseconds under Emscripten too (timespec_get has milliseconds) */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Publishes the job set up in pool (fn, context, grain, segments) in `chunks` chunks, works on
 * it as thread 0, closes it once nothing is left to claim, and returns when every worker that
 * joined is done. */
static void run_job(pdl_pool* pool, int chunks)
{
	atomic_store_explicit(&pool->left, 0, memory_order_relaxed); /* nobody has joined yet */
	pool->wake_count = chunks - 1 < pool->wake_limit ? chunks - 1 : pool->wake_limit;
	pool->wake_at = open_job(pool) ? now_ns() + WAKE_AFTER_NS : 0;
	run_chunks(pool, 0);
	/* close: no worker joins after this; the exchange also reads how many did */
	pool->sequence = (pool->sequence + 1) & SEQUENCE_MASK;
	int joined = (int)((unsigned)atomic_exchange(&pool->state, (int)(pool->sequence << JOIN_BITS)) & JOIN_MASK);
	for (int done; (done = atomic_load_explicit(&pool->left, memory_order_acquire)) != joined;)
		await_change(&pool->left, done, pool->chunk_spin_ns, &pool->caller_sleeping, &pool->stalled_ns);
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
	/* segment t starts at t count / threads, rounded to the nearest whole chunk, so every
	 * chunk starts at a multiple of grain whichever thread claims it (rounding down gave the
	 * last thread up to a chunk more than its share: 4096 against 5802 particles of 9898 in
	 * chunks of 1024, and the first thread then took the other's particles, out of its cache) */
	int threads = pool->worker_count + 1;
	long long chunks = ((long long)count + grain - 1) / grain;
	for (int t = 0; t < threads; ++t) {
		int begin = (int)((chunks * t + threads / 2) / threads * grain);
		int end = t + 1 < threads ? (int)((chunks * (t + 1) + threads / 2) / threads * grain) : count;
		if (begin > count) begin = count;
		if (end > count) end = count;
		atomic_store_explicit(&pool->segments[t].next, begin, memory_order_relaxed);
		pool->segments[t].end = end;
	}
	run_job(pool, chunks < INT_MAX ? (int)chunks : INT_MAX);
}

void pdl_pool_wait(pdl_pool* pool, atomic_int* flag, int value)
{
	long long* stalled = worker_of != pool ? &pool->stalled_ns : NULL;
	for (int v; (v = atomic_load_explicit(flag, memory_order_acquire)) != value;)
		await_change(flag, v, pool->chunk_spin_ns, &pool->flag_sleepers, stalled);
}

void pdl_pool_post(pdl_pool* pool, atomic_int* flag, int value)
{
	atomic_store(flag, value); /* seq_cst: pairs with flag_sleepers */
	if (atomic_load(&pool->flag_sleepers) > 0) unpark(flag, INT_MAX);
}
