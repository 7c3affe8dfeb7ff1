/* The frames a run's .pvd collection lists (puddle run, and puddle run under mpirun). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "puddle/export.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char* extension(const cli_pvd_list* l) { return l->ext ? l->ext : ".vtp"; }

bool cli_pvd_add(cli_pvd_list* l, long long frame)
{
	if (l->count == l->capacity) {
		int cap = l->capacity ? 2 * l->capacity : 64;
		long long* f = realloc(l->frames, (size_t)cap * sizeof *f);
		if (!f) return false;
		l->frames = f, l->capacity = cap;
	}
	l->frames[l->count++] = frame;
	return true;
}

static int compare_ll(const void* a, const void* b)
{
	long long x = *(const long long*)a, y = *(const long long*)b;
	return (x > y) - (x < y);
}

/* A resumed run keeps the earlier frames already on disk in its collection. */
void cli_pvd_scan(cli_pvd_list* l, const char* run_dir, long long up_to)
{
	char dir[1100];
	snprintf(dir, sizeof dir, "%s/%s", run_dir, l->sub);
	DIR* d = opendir(dir);
	if (!d) return;
	size_t skip = strlen(l->prefix);
	for (struct dirent* e; (e = readdir(d));) {
		long long frame;
		int end = 0;
		if (strncmp(e->d_name, l->prefix, skip) != 0) continue;
		const char* rest = e->d_name + skip;
		if (sscanf(rest, "_%lld%n", &frame, &end) == 1 && strcmp(rest + end, extension(l)) == 0 && frame <= up_to)
			cli_pvd_add(l, frame);
	}
	closedir(d);
	if (l->count > 1) qsort(l->frames, (size_t)l->count, sizeof *l->frames, compare_ll);
}

/* Writes the collection of l's files (part 0) and, when bodies lists any, the bodies' files as
 * part 1: ParaView then reads each time as two blocks, "particles" and "bodies". */
bool cli_pvd_write(const cli_pvd_list* l, const cli_pvd_list* bodies, const char* path, double dt, pdl_error* err)
{
	int extra = bodies ? bodies->count : 0, count = l->count + extra;
	char(*names)[64] = malloc((size_t)(count + 1) * sizeof *names);
	pdl_pvd_dataset* sets = malloc((size_t)(count + 1) * sizeof *sets);
	bool ok = names && sets;
	/* both lists are in frame order: merge them, a frame's particles before its bodies */
	for (int i = 0, j = 0, n = 0; ok && n < count; ++n) {
		bool body = i == l->count || (j < extra && bodies->frames[j] < l->frames[i]);
		const cli_pvd_list* from = body ? bodies : l;
		long long frame = from->frames[body ? j++ : i++];
		snprintf(names[n], sizeof names[n], "%s/%s_%06lld%s", from->sub, from->prefix, frame, extension(from));
		sets[n] = (pdl_pvd_dataset){names[n], (double)frame * dt, body ? 1 : 0,
		                            extra ? (body ? "bodies" : "particles") : NULL};
	}
	if (ok) ok = pdl_export_pvd_datasets(path, sets, count, err);
	else pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
	free(names), free(sets);
	return ok;
}

