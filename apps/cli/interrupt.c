/* SIGINT and SIGTERM for puddle run, answered within a second wherever the run is.
 *
 * A run sees a signal between frames and stops there cleanly. But a build of 60 million
 * particles, a long frame or a long write does not come back for minutes, and the signal used to
 * wait for it. So the signals are blocked in every thread (the engine's workers inherit the mask)
 * and taken by one thread of their own with sigwaitinfo(): it sets the flag the frame loop reads
 * and, when the run has not stopped half a second later, removes what the run was writing (its
 * NAME.tmp.PID files, ffmpeg and its unfinished video) and ends the process with status 130.
 * Files already renamed into place are whole and stay.
 *
 * Under mpirun (cmd_run_mpi.c) the processes must stop together: the thread first hands the
 * signal on to the other processes of the run on this machine (a signal sent to one process
 * alone then reaches them all at once, as mpirun's own does), the frame loop agrees on the
 * flag with the others before it reads it as a stop, the temporaries of the collective files,
 * named after process 0's PID, are removed too, and no process exits before every one removed
 * its own (process 0 lingers 0.2 s, the others 0.3 s). Once a process has its exit status,
 * cli_interrupt_end makes any signal end it with that status. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { WATCHED_DIRS = 4, MAX_PEERS = 1024 };
/* Who ends the run after a signal: the run itself (STOPPING) or the watching thread (ENDING),
 * decided once, so that only one of them says so. */
enum { RUNNING, STOPPING, ENDING };

static struct {
	pthread_t thread;
	bool started;
	sigset_t set;
	atomic_int signal;   /* the signal taken, 0 before */
	atomic_int state;    /* RUNNING, STOPPING (the run saw it and stops on its own) or ENDING */
	atomic_int ffmpeg;   /* the running ffmpeg's pid, 0 when none */
	pthread_mutex_t lock;
	char dirs[WATCHED_DIRS][1100];
	long temp_pid;          /* another PID whose NAME.tmp.PID files are this run's (0: none) */
	int peers[MAX_PEERS];   /* the run's other processes on this machine, handed each signal */
	int peer_count;
	int linger_ms;          /* under mpirun: the wait between removing the temporaries and exiting */
	int rank;               /* under mpirun: this process's rank; only process 0 says it ends */
} watch = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Removes this process's temporary files (NAME.tmp.PID) in dir, and the NAME.tmp.PID files of
 * watch.temp_pid (under mpirun: process 0's, the collective files'). */
static void remove_temporaries(const char* dir, int depth)
{
	DIR* d = opendir(dir);
	if (!d) return;
	char ends[2][48];
	snprintf(ends[0], sizeof ends[0], ".tmp.%ld", (long)getpid());
	snprintf(ends[1], sizeof ends[1], ".tmp.%ld", watch.temp_pid);
	for (struct dirent* e; (e = readdir(d));) {
		if (e->d_name[0] == '.') continue;
		char path[1400];
		if (snprintf(path, sizeof path, "%.1100s/%.255s", dir, e->d_name) >= (int)sizeof path) continue;
		size_t n = strlen(e->d_name);
		bool temporary = false;
		for (int k = 0; k < (watch.temp_pid > 0 ? 2 : 1); ++k)
			temporary = temporary || (n > strlen(ends[k]) && strcmp(e->d_name + n - strlen(ends[k]), ends[k]) == 0);
		if (temporary) remove(path);
		else if (depth > 0) remove_temporaries(path, depth - 1); /* the run's sub-folders: vtk/, frames/, ... */
	}
	closedir(d);
}

static void* watcher(void* unused)
{
	(void)unused;
	siginfo_t info;
	int sig;
	while ((sig = sigwaitinfo(&watch.set, &info)) < 0) {}
	if (atomic_load(&watch.state) == STOPPING) return NULL; /* cli_interrupt_stop's wake-up, or too late to matter */
	/* the other processes of the run, unless the signal came from one of them (it handed it to
	 * every one already); before the flag is set, which the processes agree on: a process that
	 * stops on it has the signal pending already, and takes it before it ends (cli_interrupt_end) */
	pthread_mutex_lock(&watch.lock);
	bool from_peer = false;
	for (int k = 0; k < watch.peer_count; ++k)
		from_peer = from_peer || (info.si_code == SI_USER && info.si_pid == watch.peers[k]);
	for (int k = 0; k < watch.peer_count && !from_peer; ++k) kill((pid_t)watch.peers[k], sig);
	pthread_mutex_unlock(&watch.lock);
	atomic_store(&watch.signal, sig);
	/* half a second for the frame loop to notice and stop by itself */
	for (int i = 0; i < 50; ++i) {
		if (atomic_load(&watch.state) == STOPPING) return NULL;
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	int running = RUNNING;
	if (!atomic_compare_exchange_strong(&watch.state, &running, ENDING)) return NULL; /* stopping just now */
	pthread_mutex_lock(&watch.lock);
	const int linger_ms = watch.linger_ms, rank = watch.rank;
	pthread_mutex_unlock(&watch.lock);
	/* said first: under mpirun a process can be ended by Open MPI as soon as another one exits
	 * (it fails reading from a process that is gone), so every process removes its temporaries
	 * and process 0 has said this before any exits: process 0 lingers 0.2 s, the others 0.3 s */
	static const char said[] = "\npuddle run: interrupted in the middle of a long step; what it was writing was removed, "
	                           "finished files are kept\n";
	const size_t gap = isatty(STDERR_FILENO) ? 0 : 1; /* the newline ends a progress bar's line */
	if (rank == 0 && write(STDERR_FILENO, said + gap, sizeof said - 1 - gap) < 0) {}
	/* and nothing more: the run's own thread may still be writing a file removed below, and
	 * would say "write failed: No such file or directory" of it before the process ends */
	int quiet = open("/dev/null", O_WRONLY);
	if (quiet >= 0) dup2(quiet, STDERR_FILENO), close(quiet);
	int ffmpeg = atomic_load(&watch.ffmpeg);
	if (ffmpeg > 0) kill((pid_t)ffmpeg, SIGKILL);
	for (int pass = 0; pass < (linger_ms > 0 ? 2 : 1); ++pass) { /* again for a file begun while lingering */
		if (pass) nanosleep(&(struct timespec){0, linger_ms * 1000L * 1000L}, NULL);
		pthread_mutex_lock(&watch.lock);
		for (int k = 0; k < WATCHED_DIRS; ++k)
			if (watch.dirs[k][0]) remove_temporaries(watch.dirs[k], 1);
		pthread_mutex_unlock(&watch.lock);
	}
	_exit(EXIT_INTERRUPTED);
}

/* SIGINT and SIGTERM could reach another thread only where a library unblocks them in a thread
 * of its own (Open MPI's block every signal): that thread then hands the signal to the watching
 * one instead of ending the process. */
static void hand_on(int sig) { pthread_kill(watch.thread, sig); }

static void handle(int sig, void (*handler)(int))
{
	struct sigaction act;
	memset(&act, 0, sizeof act);
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;
	sigemptyset(&act.sa_mask);
	sigaction(sig, &act, NULL);
}

bool cli_interrupt_start(void)
{
	atomic_store(&watch.state, RUNNING);
	atomic_store(&watch.signal, 0);
	sigemptyset(&watch.set);
	sigaddset(&watch.set, SIGINT);
	sigaddset(&watch.set, SIGTERM);
	/* before any other thread exists, so that every one inherits the mask */
	if (pthread_sigmask(SIG_BLOCK, &watch.set, NULL) != 0) return false;
	watch.started = pthread_create(&watch.thread, NULL, watcher, NULL) == 0;
	if (watch.started) handle(SIGINT, hand_on), handle(SIGTERM, hand_on);
	return watch.started;
}

/* The run stops on its own from here: the watching thread will not end it. When that thread
 * already is (it took the signal more than half a second ago), the caller waits for it. */
static void stopping(void)
{
	int running = RUNNING;
	if (atomic_compare_exchange_strong(&watch.state, &running, STOPPING) || running == STOPPING) return;
	for (;;) pause(); /* ENDING: the process ends within 0.3 s */
}

int cli_interrupted(void)
{
	int sig = atomic_load(&watch.signal);
	if (sig) stopping();
	return sig;
}

int cli_interrupt_signal(void) { return atomic_load(&watch.signal); }

void cli_interrupt_stopping(void) { stopping(); }

void cli_interrupt_peers(const int* pids, int count, long temp_pid, int rank)
{
	pthread_mutex_lock(&watch.lock);
	watch.linger_ms = rank == 0 ? 200 : 300;
	watch.rank = rank;
	watch.peer_count = 0;
	for (int k = 0; k < count && watch.peer_count < MAX_PEERS; ++k)
		if (pids[k] > 0 && pids[k] != (int)getpid()) watch.peers[watch.peer_count++] = pids[k];
	watch.temp_pid = temp_pid;
	pthread_mutex_unlock(&watch.lock);
}

void cli_interrupt_watch_dir(int slot, const char* dir)
{
	if (slot < 0 || slot >= WATCHED_DIRS) return;
	pthread_mutex_lock(&watch.lock);
	snprintf(watch.dirs[slot], sizeof watch.dirs[slot], "%s", dir ? dir : "");
	pthread_mutex_unlock(&watch.lock);
}

void cli_interrupt_watch_ffmpeg(int pid) { atomic_store(&watch.ffmpeg, pid); }

static volatile sig_atomic_t end_code;

static void end_now(int sig)
{
	(void)sig;
	_exit(end_code);
}

/* Ends the watching thread; a signal from then on goes to `then` (SIG_DFL: its default action). */
static void stop_watching(void (*then)(int))
{
	if (!watch.started) return;
	handle(SIGINT, then), handle(SIGTERM, then); /* before the thread hand_on hands them to ends */
	/* woken with a signal of its own set (not pthread_cancel: a cancelled thread trips
	 * AddressSanitizer's thread teardown); it sees STOPPING and returns */
	stopping();
	pthread_kill(watch.thread, SIGTERM);
	pthread_join(watch.thread, NULL);
	watch.started = false;
	pthread_mutex_lock(&watch.lock);
	watch.peer_count = 0; /* (their PIDs may soon be another program's) */
	pthread_mutex_unlock(&watch.lock);
	/* a second signal (Ctrl-C twice, or one handed on by each process of a run under mpirun)
	 * waits, blocked, for nobody: taken here, it does not end the process as it returns 130 */
	while (sigtimedwait(&watch.set, NULL, &(struct timespec){0, 0}) > 0) {}
	pthread_sigmask(SIG_UNBLOCK, &watch.set, NULL);
}

void cli_interrupt_end(int code)
{
	end_code = code ? code : EXIT_INTERRUPTED;
	stop_watching(end_now);
}

void cli_interrupt_stop(void) { stop_watching(SIG_DFL); }
