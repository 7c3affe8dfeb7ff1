/* Write-then-rename files (see atomic_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

bool pdl_atomic_open(pdl_atomic_file* a, const char* path, char* err, size_t err_size)
{
	memset(a, 0, sizeof *a);
	if (strlen(path) >= sizeof a->path) {
		snprintf(err, err_size, "%s: path too long", path);
		return false;
	}
	snprintf(a->path, sizeof a->path, "%s", path);
	snprintf(a->temp, sizeof a->temp, "%s.tmp.%ld", path, (long)getpid());
	a->f = fopen(a->temp, "wb");
	if (!a->f) {
		snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
		return false;
	}
	return true;
}

bool pdl_atomic_commit(pdl_atomic_file* a, char* err, size_t err_size)
{
	bool ok = a->f && !ferror(a->f);
	int saved = errno;
	if (a->f && fclose(a->f) != 0) ok = false, saved = errno;
	a->f = NULL;
	if (ok && rename(a->temp, a->path) != 0) ok = false, saved = errno;
	if (!ok) {
		remove(a->temp);
		snprintf(err, err_size, "%s: write failed: %s", a->path, strerror(saved));
	}
	return ok;
}

void pdl_atomic_abort(pdl_atomic_file* a)
{
	if (a->f) fclose(a->f);
	a->f = NULL;
	if (a->temp[0]) remove(a->temp);
}
