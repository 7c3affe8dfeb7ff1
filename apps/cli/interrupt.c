/* SIGINT and SIGTERM for puddle run, answered within a second wherever the run is.
 *
 * A run sees a signal between frames and stops there cleanly. But a build of 60 million
 * particles, a long frame or a long write does not come back for minutes, and the signal used to
 * wait for it. So the signals are blocked in every thread (the engine's workers inherit the mask)
 * and taken by one thread of their own with sigwait(): it sets the flag the frame loop reads and,
 * when the run has not stopped half a second later, removes what the run was writing (its
 * NAME.tmp.PID files, ffmpeg and its unfinished video) and ends the process with status 130.
 * Files already renamed into place are whole and stay. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { WATCHED_DIRS = 4 };

static struct {
	pthread_t thread;
	bool started;
	sigset_t set;
	atomic_int signal;   /* the signal taken, 0 before */
	atomic_bool stopped; /* the run saw it and is stopping on its own */
	atomic_int ffmpeg;   /* the running ffmpeg's pid, 0 when none */
	pthread_mutex_t lock;
	char dirs[WATCHED_DIRS][1100];
} watch = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Removes this process's temporary files (NAME.tmp.PID, NAME.ffmpeg-log.PID) in dir. */
static void remove_temporaries(const char* dir, int depth)
{
	DIR* d = opendir(dir);
	if (!d) return;
	char tmp[48], log[48];
	snprintf(tmp, sizeof tmp, ".tmp.%ld", (long)getpid());
	snprintf(log, sizeof log, ".ffmpeg-log.%ld", (long)getpid());
	for (struct dirent* e; (e = readdir(d));) {
		if (e->d_name[0] == '.') continue;
		char path[1400];
		if (snprintf(path, sizeof path, "%.1100s/%.255s", dir, e->d_name) >= (int)sizeof path) continue;
		size_t n = strlen(e->d_name), t = strlen(tmp), l = strlen(log);
		if ((n > t && strcmp(e->d_name + n - t, tmp) == 0) || (n > l && strcmp(e->d_name + n - l, log) == 0)) remove(path);
		else if (depth > 0) remove_temporaries(path, depth - 1); /* the run's sub-folders: vtk/, frames/, ... */
	}
	closedir(d);
}

static void* watcher(void* unused)
{
	(void)unused;
	int sig = 0;
	while (sigwait(&watch.set, &sig) != 0) {}
	if (atomic_load(&watch.stopped)) return NULL; /* cli_interrupt_stop's wake-up, or too late to matter */
	atomic_store(&watch.signal, sig);
	/* half a second for the frame loop to notice and stop by itself */
	for (int i = 0; i < 50; ++i) {
		if (atomic_load(&watch.stopped)) return NULL;
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	int ffmpeg = atomic_load(&watch.ffmpeg);
	if (ffmpeg > 0) kill((pid_t)ffmpeg, SIGKILL);
	pthread_mutex_lock(&watch.lock);
	for (int k = 0; k < WATCHED_DIRS; ++k)
		if (watch.dirs[k][0]) remove_temporaries(watch.dirs[k], 1);
	pthread_mutex_unlock(&watch.lock);
	static const char said[] = "\npuddle run: interrupted in the middle of a long step; what it was writing was removed, "
	                           "finished files are kept\n";
	if (write(STDERR_FILENO, said, sizeof said - 1) < 0) {}
	_exit(EXIT_INTERRUPTED);
}

bool cli_interrupt_start(void)
{
	sigemptyset(&watch.set);
	sigaddset(&watch.set, SIGINT);
	sigaddset(&watch.set, SIGTERM);
	/* before any other thread exists, so that every one inherits the mask */
	if (pthread_sigmask(SIG_BLOCK, &watch.set, NULL) != 0) return false;
	watch.started = pthread_create(&watch.thread, NULL, watcher, NULL) == 0;
	return watch.started;
}

int cli_interrupted(void)
{
	int sig = atomic_load(&watch.signal);
	if (sig) atomic_store(&watch.stopped, true);
	return sig;
}

void cli_interrupt_watch_dir(int slot, const char* dir)
{
	if (slot < 0 || slot >= WATCHED_DIRS) return;
	pthread_mutex_lock(&watch.lock);
	snprintf(watch.dirs[slot], sizeof watch.dirs[slot], "%s", dir ? dir : "");
	pthread_mutex_unlock(&watch.lock);
}

void cli_interrupt_watch_ffmpeg(int pid) { atomic_store(&watch.ffmpeg, pid); }

void cli_interrupt_stop(void)
{
	if (!watch.started) return;
	/* woken with a signal of its own set (not pthread_cancel: a cancelled thread trips
	 * AddressSanitizer's thread teardown); it sees `stopped` and returns */
	atomic_store(&watch.stopped, true);
	pthread_kill(watch.thread, SIGTERM);
	pthread_join(watch.thread, NULL);
	watch.started = false;
	pthread_sigmask(SIG_UNBLOCK, &watch.set, NULL);
}
