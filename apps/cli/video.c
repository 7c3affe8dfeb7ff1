/* Video: raw RGB frames piped into ffmpeg, which encodes H.264 in yuv420p (the pixel format every
 * player accepts) into a temporary file that is renamed into place when ffmpeg succeeds. ffmpeg
 * is started with posix_spawn, not a shell, so no file name is ever parsed as shell syntax. */
#define _GNU_SOURCE /* memfd_create */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

struct cli_video {
	pid_t pid;
	FILE* pipe;
	int width, height;
	bool failed;
	int log; /* ffmpeg's messages, in memory */
	char path[1024], temp[1100];
};

const char* cli_find_ffmpeg(char* buf, size_t size)
{
	const char* forced = getenv("PUDDLE_FFMPEG");
	if (forced && *forced) {
		snprintf(buf, size, "%s", forced);
		return access(buf, X_OK) == 0 ? buf : NULL;
	}
	const char* path = getenv("PATH");
	if (!path) path = "/usr/bin:/bin";
	while (*path) {
		const char* colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		if (n > 0 && n + 8 < size) {
			memcpy(buf, path, n);
			snprintf(buf + n, size - n, "/ffmpeg");
			struct stat st;
			if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0) return buf;
		}
		path += n + (colon ? 1 : 0);
	}
	return NULL;
}

cli_video* cli_video_open(const char* path, int width, int height, double fps, pdl_error* err)
{
	char ffmpeg[1024];
	if (!cli_find_ffmpeg(ffmpeg, sizeof ffmpeg)) {
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, NULL, NULL, "--video needs ffmpeg, which is not on PATH (install it: apt-get install ffmpeg; or set PUDDLE_FFMPEG)");
		return NULL;
	}
	if (width % 2 || height % 2) {
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, NULL, NULL, "--video: H.264 yuv420p needs an even width and height, got %dx%d", width, height);
		return NULL;
	}
	cli_video* v = calloc(1, sizeof *v);
	if (!v) return pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "out of memory"), NULL;
	v->width = width, v->height = height;
	snprintf(v->path, sizeof v->path, "%s", path);
	snprintf(v->temp, sizeof v->temp, "%s.tmp.%ld", path, (long)getpid());
	char size[32], rate[32];
	snprintf(size, sizeof size, "%dx%d", width, height);
	snprintf(rate, sizeof rate, "%.6f", fps);
	char* args[] = {ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt",
	                "rgb24", "-s", size, "-framerate", rate, "-i", "pipe:0", "-c:v", "libx264", "-preset", "veryfast",
	                "-crf", "20", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", v->temp, NULL};
	/* the temporary is made here, not by ffmpeg (which overwrites it, -y): a folder that cannot
	 * be written is then said as such, not as "cannot start ffmpeg: Read-only file system" */
	int temp = open(v->temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (temp < 0) {
		pdl_error_fill(err, PDL_ERR_FILE_OPEN, NULL, NULL, "%s: cannot write the video there: %s", path, strerror(errno));
		free(v);
		return NULL;
	}
	close(temp);
	/* ffmpeg's own messages, quoted if it fails, are kept in memory: a log beside the video
	 * could not be written on the full disk whose "No space left on device" it has to say */
	int fds[2] = {-1, -1};
	v->log = memfd_create("ffmpeg-log", MFD_CLOEXEC);
	if (v->log < 0 || pipe(fds) != 0) {
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, NULL, NULL, "cannot start ffmpeg: %s", strerror(errno));
		if (v->log >= 0) close(v->log);
		remove(v->temp);
		free(v);
		return NULL;
	}
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
	posix_spawn_file_actions_addclose(&actions, fds[1]);
	posix_spawn_file_actions_addclose(&actions, fds[0]);
	posix_spawn_file_actions_adddup2(&actions, v->log, STDERR_FILENO);
	posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	/* ffmpeg must not inherit the run's blocked SIGINT and SIGTERM (interrupt.c): it would then
	 * outlive a Ctrl-C and ignore the SIGTERM that stops it */
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigset_t none;
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	int rc = posix_spawn(&v->pid, ffmpeg, &actions, &attr, args, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&actions);
	if (rc == 0) cli_interrupt_watch_ffmpeg((int)v->pid);
	close(fds[0]);
	if (rc != 0) {
		close(fds[1]);
		close(v->log);
		remove(v->temp);
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, NULL, NULL, "cannot start %s: %s", ffmpeg, strerror(rc));
		free(v);
		return NULL;
	}
	v->pipe = fdopen(fds[1], "wb");
	if (!v->pipe) {
		close(fds[1]);
		cli_video_abort(v);
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, NULL, NULL, "cannot start ffmpeg: %s", strerror(errno));
		return NULL;
	}
	return v;
}

bool cli_video_frame(cli_video* v, const uint8_t* rgb)
{
	if (!v || v->failed) return false;
	size_t n = (size_t)v->width * (size_t)v->height * 3;
	if (fwrite(rgb, 1, n, v->pipe) != n) v->failed = true; /* ffmpeg died: SIGPIPE is ignored */
	return !v->failed;
}

static int finish(cli_video* v)
{
	if (v->pipe) fclose(v->pipe);
	v->pipe = NULL;
	int status = 0;
	while (waitpid(v->pid, &status, 0) < 0 && errno == EINTR) {}
	cli_interrupt_watch_ffmpeg(0);
	return status;
}

static void log_tail(int log, char* out, size_t size)
{
	out[0] = 0;
	char buf[512] = {0};
	off_t len = lseek(log, 0, SEEK_END);
	ssize_t got = len < 0 ? 0 : pread(log, buf, 400, len > 400 ? len - 400 : 0);
	size_t n = got > 0 ? (size_t)got : 0;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) buf[--n] = 0;
	size_t k = 0; /* one message on one line: ffmpeg's lines joined by "; " */
	for (size_t i = 0; i < n && k + 3 < size; ++i) {
		if (buf[i] == '\r') continue;
		if (buf[i] == '\n') out[k++] = ';', out[k++] = ' ';
		else out[k++] = buf[i];
	}
	out[k] = 0;
}

/* Whether the MP4 at path is whole: its top-level boxes (32-bit size, or 64-bit when the size
 * is 1) tile the file exactly and one is the index, "moov". ffmpeg 5.1 exits 0 after "Error
 * writing trailer ... No space left on device", leaving a file without its index that no player
 * opens; its exit status alone cannot be trusted. */
static bool mp4_whole(const char* path, char* why, size_t why_size)
{
	FILE* f = fopen(path, "rb");
	if (!f) return snprintf(why, why_size, "cannot read it back: %s", strerror(errno)), false;
	bool moov = false, ok = true;
	for (;;) {
		unsigned char h[16];
		size_t got = fread(h, 1, 8, f);
		if (got == 0) break;
		uint64_t size = (uint64_t)h[0] << 24 | (uint64_t)h[1] << 16 | (uint64_t)h[2] << 8 | h[3], head = 8;
		if (got == 8 && size == 1 && fread(h + 8, 1, 8, f) == 8) {
			size = 0, head = 16;
			for (int i = 8; i < 16; ++i) size = size << 8 | h[i];
		}
		/* size 0 ("to the end of the file") is never written by ffmpeg's mp4 muxer at the top */
		if (got < 8 || size < head || size > ((uint64_t)1 << 62) || fseeko(f, (off_t)(size - head), SEEK_CUR) != 0) {
			ok = false;
			break;
		}
		moov |= memcmp(h + 4, "moov", 4) == 0;
	}
	/* a seek past the end succeeds: compare where the boxes end with the file's size */
	off_t end = ftello(f);
	bool fits = ok && fseeko(f, 0, SEEK_END) == 0 && ftello(f) == end;
	fclose(f);
	if (!fits) return snprintf(why, why_size, "the file is cut short (its boxes do not fit it)"), false;
	if (!moov) return snprintf(why, why_size, "the file has no index (moov box): ffmpeg did not write its trailer"), false;
	return true;
}

bool cli_video_close(cli_video* v, pdl_error* err)
{
	int status = finish(v);
	bool ok = !v->failed && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	char tail[512], why[160] = "";
	log_tail(v->log, tail, sizeof tail);
	close(v->log);
	/* -loglevel error: anything in the log is an error, "Error writing trailer" among them */
	if (ok && (tail[0] || !mp4_whole(v->temp, why, sizeof why))) ok = false;
	if (ok && rename(v->temp, v->path) != 0) {
		pdl_error_fill(err, PDL_ERR_FILE_WRITE, NULL, NULL, "%s: %s", v->path, strerror(errno));
		ok = false;
	} else if (!ok) {
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, NULL, NULL, "ffmpeg failed writing %s%s%s%s%s", v->path, tail[0] ? ": " : "", tail, why[0] ? ": " : "",
		         why);
	}
	remove(v->temp);
	free(v);
	return ok;
}

void cli_video_abort(cli_video* v)
{
	if (!v) return;
	if (v->pipe) fclose(v->pipe);
	v->pipe = NULL;
	kill(v->pid, SIGTERM);
	int status;
	while (waitpid(v->pid, &status, 0) < 0 && errno == EINTR) {}
	cli_interrupt_watch_ffmpeg(0);
	close(v->log);
	remove(v->temp);
	free(v);
}
