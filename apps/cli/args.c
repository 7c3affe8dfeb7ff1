/* Option parsing helpers: every message names the command, the option, the rule and the value. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "puddle/suggest.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

bool cli_parse_int(const char* cmd, const char* option, const char* text, long long lo, long long hi, long long* out)
{
	char* end = NULL;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || end == text || *end || v < lo || v > hi) {
		fprintf(stderr, "puddle %s: %s: must be an integer in [%lld, %lld], got '%s'\n", cmd, option, lo, hi, text);
		return false;
	}
	*out = v;
	return true;
}

bool cli_parse_float(const char* cmd, const char* option, const char* text, double lo, double hi, double* out)
{
	char* end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || !(v > lo) || v > hi) {
		fprintf(stderr, "puddle %s: %s: must be a number in (%g, %g], got '%s'\n", cmd, option, lo, hi, text);
		return false;
	}
	*out = v;
	return true;
}

bool cli_parse_int_list(const char* cmd, const char* option, const char* text, long long lo, long long hi,
                        long long* values, int max, int* count)
{
	char buf[512];
	if (strlen(text) >= sizeof buf) {
		fprintf(stderr, "puddle %s: %s: list too long\n", cmd, option);
		return false;
	}
	snprintf(buf, sizeof buf, "%s", text);
	*count = 0;
	char* save = NULL;
	for (char* tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*count == max) {
			fprintf(stderr, "puddle %s: %s: at most %d values\n", cmd, option, max);
			return false;
		}
		if (!cli_parse_int(cmd, option, tok, lo, hi, &values[*count])) return false;
		(*count)++;
	}
	if (*count == 0) {
		fprintf(stderr, "puddle %s: %s: needs a comma-separated list of integers, got '%s'\n", cmd, option, text);
		return false;
	}
	return true;
}

bool cli_parse_size(const char* cmd, const char* option, const char* text, int* w, int* h)
{
	int a = 0, b = 0, n = 0;
	if (sscanf(text, "%dx%d%n", &a, &b, &n) != 2 || text[n] || a < 16 || b < 16 || a > 8192 || b > 8192 || a % 2 ||
	    b % 2) {
		fprintf(stderr, "puddle %s: %s: must be WIDTHxHEIGHT, both even and in [16, 8192], got '%s'\n", cmd, option,
		        text);
		return false;
	}
	*w = a, *h = b;
	return true;
}

const char* cli_option_value(const char* cmd, int argc, char** argv, int* i)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "puddle %s: %s needs a value (see 'puddle %s --help')\n", cmd, argv[*i], cmd);
		return NULL;
	}
	return argv[++*i];
}

void cli_unknown_option(const char* cmd, const char* option, const char* const* known, int count)
{
	const char* best = pdl_suggest(option, known, count);
	if (best) fprintf(stderr, "puddle %s: unknown option '%s' (did you mean '%s'?)\n", cmd, option, best);
	else fprintf(stderr, "puddle %s: unknown option '%s'\n", cmd, option);
	fprintf(stderr, "Try 'puddle %s --help'.\n", cmd);
}

bool cli_make_dirs(const char* path)
{
	char buf[1024];
	if (strlen(path) >= sizeof buf) {
		errno = ENAMETOOLONG;
		return false;
	}
	snprintf(buf, sizeof buf, "%s", path);
	for (char* c = buf + 1; *c; ++c) {
		if (*c != '/') continue;
		*c = 0;
		if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
		*c = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
	struct stat st;
	if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return false;
	}
	return true;
}

void cli_run_name(const char* scene_path, char* out, size_t size)
{
	const char* base = strrchr(scene_path, '/');
	base = base ? base + 1 : scene_path;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0) n -= 5;
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < size; ++i) {
		unsigned char c = (unsigned char)base[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		             (c == '.' && k > 0); /* a leading dot would make "." or ".." or a hidden file */
		out[k++] = plain ? (char)c : '_';
	}
	out[k] = 0;
	if (k == 0) snprintf(out, size, "scene");
}

/* A scene named as the viewer takes it, "dam-break" for scenes/dam-break.json: a name with no
 * '/' and no ".json" that is not a file is looked up in the scenes folder (cli_default_scenes's).
 * Returns the path to load (path itself, or out), or NULL after printing why no scene has that
 * name, with the nearest one. */
static const char* scene_path_of(const char* path, char* out, size_t size)
{
	const size_t n = strlen(path);
	if (strchr(path, '/') || (n >= 5 && strcmp(path + n - 5, ".json") == 0) || access(path, F_OK) == 0) return path;
	char** list = NULL;
	const int count = cli_default_scenes(&list);
	const char* found = NULL;
	const char* names[256];
	int named = 0;
	for (int i = 0; i < count; ++i) {
		const char* base = strrchr(list[i], '/');
		base = base ? base + 1 : list[i];
		if (strlen(base) == n + 5 && strncmp(base, path, n) == 0) snprintf(out, size, "%s", list[i]), found = out;
		if (named < 256) names[named++] = base;
	}
	if (!found) {
		/* the names without ".json", for the suggestion */
		char bare[256][64];
		const char* options[256];
		for (int i = 0; i < named; ++i) {
			snprintf(bare[i], sizeof bare[i], "%.*s", (int)(strlen(names[i]) - 5), names[i]);
			options[i] = bare[i];
		}
		const char* near = pdl_suggest(path, options, named);
		fprintf(stderr, "%s: cannot open: no such file, and no scene of that name%s%s%s; the scenes: ", path,
		        near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		for (int i = 0; i < named; ++i) fprintf(stderr, "%s%s", i ? ", " : "", options[i]);
		fprintf(stderr, "\n");
	}
	for (int i = 0; i < count; ++i) free(list[i]);
	free(list);
	return found;
}

pdl_scene* cli_load_scene(const char* path)
{
	char resolved[1024];
	const char* file = scene_path_of(path, resolved, sizeof resolved);
	if (!file) return NULL;
	pdl_error err;
	pdl_scene* s = pdl_scene_load(file, &err);
	if (!s) fprintf(stderr, "%s\n", err.message);
	return s;
}

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_lost_particles(const pdl_scene* s, const pdl_world* w)
{
	pdl_particle_data p = pdl_world_particles(w);
	return cli_lost_in(s, &p);
}

int cli_lost_in(const pdl_scene* s, const pdl_particle_data* d)
{
	const pdl_particle_data p = *d;
	int lost = 0;
	for (int i = 0; i < p.count; ++i) {
		bool inside = p.x[i] >= s->bounds_min.x && p.x[i] <= s->bounds_max.x && p.y[i] >= s->bounds_min.y &&
		              p.y[i] <= s->bounds_max.y; /* false for NaN */
		bool finite = isfinite(p.vx[i]) && isfinite(p.vy[i]);
		if (p.z) /* 3D worlds */
			inside = inside && p.z[i] >= s->bounds_min.z && p.z[i] <= s->bounds_max.z, finite = finite && isfinite(p.vz[i]);
		lost += !(inside && finite);
	}
	return lost;
}

static int compare_text(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

/* Every *.json in the scenes folder, sorted. */
int cli_default_scenes(char*** out)
{
	const char* dir = access("scenes", R_OK) == 0 ? "scenes" : PUDDLE_SCENES_DIR;
	DIR* d = opendir(dir);
	*out = NULL;
	if (!d) return 0;
	int count = 0, cap = 0;
	char** list = NULL;
	for (struct dirent* e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
		if (count == cap) {
			cap = cap ? 2 * cap : 16;
			char** l = realloc(list, (size_t)cap * sizeof *l);
			if (!l) break;
			list = l;
		}
		size_t len = strlen(dir) + n + 2;
		list[count] = malloc(len);
		if (!list[count]) break;
		snprintf(list[count], len, "%s/%s", dir, e->d_name);
		count++;
	}
	closedir(d);
	qsort(list, (size_t)count, sizeof *list, compare_text);
	*out = list;
	return count;
}

/* Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE before the program starts; other launchers
 * (Slurm's srun --mpi=pmix) set their own variables, and a plain run inside a batch job may see
 * those too, so they are not guessed at: PUDDLE_UNDER_MPI=1 asks for the split path. */
bool cli_under_mpi(void)
{
	const char* size = getenv("OMPI_COMM_WORLD_SIZE");
	const char* forced = getenv("PUDDLE_UNDER_MPI");
	return (size && *size) || (forced && strcmp(forced, "1") == 0);
}
