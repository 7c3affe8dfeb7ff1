/* io_fault.so: a full disk on demand, for the fault-injection tests (test_faults.py). Loaded
 * with LD_PRELOAD, it stands between a program (and every library it uses: libpng, OpenVDB's
 * streams, MPI-IO, ffmpeg's avio) and the C library's write calls, in the spirit of SQLite's I/O
 * error tests:
 *
 *   IO_FAULT_PATH=TEXT   only files whose path contains TEXT, opened for writing, take part
 *                        (so stdout, stderr and pipes never fail); required
 *   IO_FAULT_AT=K        the K-th write call (1-based) on such a file fails, and every later
 *                        one too: a full disk stays full
 *   IO_FAULT_OPEN=1      instead, opening such a file for writing fails (a read-only folder);
 *                        IO_FAULT_OPEN=read: opening it for reading fails (EACCES), to refuse
 *                        one MPI process a file the others read
 *   IO_FAULT_ERRNO=N     the errno of the failures (default ENOSPC; EROFS for IO_FAULT_OPEN)
 *   IO_FAULT_RANK=R      only the MPI process of rank R (OMPI_COMM_WORLD_RANK) fails
 *   IO_FAULT_DELAY_MS=N  each write call on such a file first sleeps N ms (a slow disk: a test
 *                        can then signal a run in the middle of a write); with or without
 *                        IO_FAULT_AT
 *   IO_FAULT_LOG=FILE    appends "PID K what" for each failure, to see what was hit
 *   IO_FAULT_COUNT=FILE  appends "PID CALLS" at exit: the write calls a fault-free run makes,
 *                        from which a test picks its K
 *
 * Kernel-level writes are interposed (write, writev, pwrite), and so are the stdio calls,
 * since glibc's FILE buffers reach the kernel through internal calls no preload can see: a
 * failing stdio call sets the stream's error flag as a real failed flush would, so ferror()
 * and fclose() report it. Counts are per process (ffmpeg counts its own). Test code only:
 * never linked into puddle. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum { MAX_FD = 4096 };
static bool marked[MAX_FD]; /* fds of files that take part */
static long calls;          /* write calls on them so far */
static bool full;           /* the disk is full: every write on them fails */

static const char* env(const char* name)
{
	const char* v = getenv(name);
	return v && *v ? v : NULL;
}

static bool this_rank(void)
{
	const char* want = env("IO_FAULT_RANK");
	const char* rank = env("OMPI_COMM_WORLD_RANK");
	return !want || (rank && strcmp(want, rank) == 0);
}

static bool takes_part(const char* path, bool writing)
{
	const char* text = env("IO_FAULT_PATH");
	return writing && path && text && strstr(path, text) && this_rank();
}

static int fault_errno(int fallback)
{
	const char* e = env("IO_FAULT_ERRNO");
	return e ? atoi(e) : fallback;
}

static void note(long k, const char* what)
{
	const char* log = env("IO_FAULT_LOG");
	if (!log) return;
	static int (*real_open)(const char*, int, ...);
	if (!real_open) real_open = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, "open");
	int fd = real_open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0) return;
	char line[256];
	int n = snprintf(line, sizeof line, "%ld %ld %s\n", (long)getpid(), k, what);
	static ssize_t (*real_write)(int, const void*, size_t);
	if (!real_write) real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
	if (n > 0) real_write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	close(fd);
}

__attribute__((destructor)) static void count_at_exit(void)
{
	const char* path = env("IO_FAULT_COUNT");
	FILE* f = path ? fopen(path, "a") : NULL;
	if (f) fprintf(f, "%ld %ld\n", (long)getpid(), calls), fclose(f);
}

/* Whether this write call on fd fails (counting it). */
static bool fails(int fd)
{
	if (fd < 0 || fd >= MAX_FD || !marked[fd]) return false;
	const char* delay = env("IO_FAULT_DELAY_MS");
	if (delay) {
		long ms = atol(delay);
		nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000L}, NULL);
	}
	const char* at = env("IO_FAULT_AT");
	calls++;
	if (!full && at && calls >= atol(at)) full = true, note(calls, "write");
	if (full) errno = fault_errno(ENOSPC);
	return full;
}

static bool stream_fails(FILE* f)
{
	if (!f || !fails(fileno(f))) return false;
	f->_flags |= _IO_ERR_SEEN; /* glibc's error flag: what a failed flush sets */
	errno = fault_errno(ENOSPC);
	return true;
}

/* ---- opening: mark the fds of the files that take part ---- */

#define REAL(ret, name, args) \
	static ret(*real_##name) args; \
	if (!real_##name) real_##name = (ret(*) args)dlsym(RTLD_NEXT, #name)

static int opened(int fd, const char* path, bool writing)
{
	if (fd >= 0 && fd < MAX_FD) marked[fd] = takes_part(path, writing);
	return fd;
}

static bool open_refused(const char* path, bool writing)
{
	const char* how = env("IO_FAULT_OPEN");
	bool reading = how && strcmp(how, "read") == 0;
	if (!how || !takes_part(path, reading ? !writing : writing)) return false;
	note(0, path);
	errno = fault_errno(reading ? EACCES : EROFS);
	return true;
}

static bool flags_write(int flags) { return (flags & O_ACCMODE) != O_RDONLY; }
static bool mode_write(const char* mode) { return mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')); }

/* the optional third (fourth) argument of open (openat): the new file's mode */
#define MODE_ARG(flags, last)                   \
	mode_t mode = 0;                            \
	if ((flags) & (O_CREAT | O_TMPFILE)) {      \
		va_list ap;                             \
		va_start(ap, last);                     \
		mode = va_arg(ap, mode_t);              \
		va_end(ap);                             \
	}

#define OPEN_LIKE(name)                                                          \
	int name(const char* path, int flags, ...)                                   \
	{                                                                            \
		REAL(int, name, (const char*, int, ...));                                \
		MODE_ARG(flags, flags)                                                   \
		if (open_refused(path, flags_write(flags))) return -1;                   \
		return opened(real_##name(path, flags, mode), path, flags_write(flags)); \
	}
OPEN_LIKE(open)
OPEN_LIKE(open64)

#define OPENAT_LIKE(name)                                                             \
	int name(int dir, const char* path, int flags, ...)                               \
	{                                                                                 \
		REAL(int, name, (int, const char*, int, ...));                                \
		MODE_ARG(flags, flags)                                                        \
		if (open_refused(path, flags_write(flags))) return -1;                        \
		return opened(real_##name(dir, path, flags, mode), path, flags_write(flags)); \
	}
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

int creat(const char* path, mode_t mode)
{
	REAL(int, creat, (const char*, mode_t));
	if (open_refused(path, true)) return -1;
	return opened(real_creat(path, mode), path, true);
}

#define FOPEN_LIKE(name)                                             \
	FILE* name(const char* path, const char* mode)                   \
	{                                                                \
		REAL(FILE*, name, (const char*, const char*));               \
		if (open_refused(path, mode_write(mode))) return NULL;       \
		FILE* f = real_##name(path, mode);                           \
		if (f) opened(fileno(f), path, mode_write(mode));            \
		return f;                                                    \
	}
FOPEN_LIKE(fopen)
FOPEN_LIKE(fopen64)

int close(int fd)
{
	REAL(int, close, (int));
	if (fd >= 0 && fd < MAX_FD) marked[fd] = false;
	return real_close(fd);
}

int fclose(FILE* f)
{
	REAL(int, fclose, (FILE*));
	int fd = f ? fileno(f) : -1;
	/* the buffered rest reaches the disk here: on a full disk it cannot */
	bool failed = fd >= 0 && fd < MAX_FD && marked[fd] && (full || stream_fails(f));
	if (fd >= 0 && fd < MAX_FD) marked[fd] = false;
	int rc = real_fclose(f);
	if (failed) {
		errno = fault_errno(ENOSPC);
		return EOF;
	}
	return rc;
}

/* ---- kernel-level writes ---- */

ssize_t write(int fd, const void* b, size_t n)
{
	REAL(ssize_t, write, (int, const void*, size_t));
	return fails(fd) ? -1 : real_write(fd, b, n);
}

ssize_t writev(int fd, const struct iovec* v, int n)
{
	REAL(ssize_t, writev, (int, const struct iovec*, int));
	return fails(fd) ? -1 : real_writev(fd, v, n);
}

ssize_t pwrite(int fd, const void* b, size_t n, off_t at)
{
	REAL(ssize_t, pwrite, (int, const void*, size_t, off_t));
	return fails(fd) ? -1 : real_pwrite(fd, b, n, at);
}

ssize_t pwrite64(int fd, const void* b, size_t n, off_t at)
{
	REAL(ssize_t, pwrite64, (int, const void*, size_t, off_t));
	return fails(fd) ? -1 : real_pwrite64(fd, b, n, at);
}

/* ---- stdio ---- */

size_t fwrite(const void* b, size_t size, size_t n, FILE* f)
{
	REAL(size_t, fwrite, (const void*, size_t, size_t, FILE*));
	return stream_fails(f) ? 0 : real_fwrite(b, size, n, f);
}

int fputs(const char* s, FILE* f)
{
	REAL(int, fputs, (const char*, FILE*));
	return stream_fails(f) ? EOF : real_fputs(s, f);
}

int fputc(int c, FILE* f)
{
	REAL(int, fputc, (int, FILE*));
	return stream_fails(f) ? EOF : real_fputc(c, f);
}

int putc(int c, FILE* f)
{
	REAL(int, putc, (int, FILE*));
	return stream_fails(f) ? EOF : real_putc(c, f);
}

int fflush(FILE* f)
{
	REAL(int, fflush, (FILE*));
	return f && stream_fails(f) ? EOF : real_fflush(f);
}

int vfprintf(FILE* f, const char* fmt, va_list ap)
{
	REAL(int, vfprintf, (FILE*, const char*, va_list));
	return stream_fails(f) ? -1 : real_vfprintf(f, fmt, ap);
}

int fprintf(FILE* f, const char* fmt, ...)
{
	if (stream_fails(f)) return -1;
	va_list ap;
	va_start(ap, fmt);
	REAL(int, vfprintf, (FILE*, const char*, va_list));
	int n = real_vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

/* _FORTIFY_SOURCE builds call these instead */
int __vfprintf_chk(FILE* f, int flag, const char* fmt, va_list ap)
{
	REAL(int, __vfprintf_chk, (FILE*, int, const char*, va_list));
	return stream_fails(f) ? -1 : real___vfprintf_chk(f, flag, fmt, ap);
}

int __fprintf_chk(FILE* f, int flag, const char* fmt, ...)
{
	if (stream_fails(f)) return -1;
	va_list ap;
	va_start(ap, fmt);
	REAL(int, __vfprintf_chk, (FILE*, int, const char*, va_list));
	int n = real___vfprintf_chk(f, flag, fmt, ap);
	va_end(ap);
	return n;
}
