/* Write-then-rename files (see atomic_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

bool pdl_atomic_open(pdl_atomic_file* a, const char* path, pdl_error* err)
{
	memset(a, 0, sizeof *a);
	if (strlen(path) >= sizeof a->path) {
		pdl_error_fill(err, PDL_ERR_FILE_NAME, path, NULL, "path too long");
		return false;
	}
	snprintf(a->path, sizeof a->path, "%s", path);
	snprintf(a->temp, sizeof a->temp, "%s.tmp.%ld", path, (long)getpid());
	a->f = fopen(a->temp, "wb");
	if (!a->f) {
		pdl_error_fill(err, PDL_ERR_FILE_OPEN, path, NULL, "cannot write: %s", strerror(errno));
		return false;
	}
	return true;
}

bool pdl_atomic_commit(pdl_atomic_file* a, pdl_error* err)
{
	bool ok = a->f && !ferror(a->f);
	int saved = errno;
	if (a->f && fclose(a->f) != 0) ok = false, saved = errno;
	a->f = NULL;
	if (ok && rename(a->temp, a->path) != 0) ok = false, saved = errno;
	if (!ok) {
		remove(a->temp);
		pdl_error_fill(err, PDL_ERR_FILE_WRITE, a->path, NULL, "write failed: %s", strerror(saved));
	}
	return ok;
}

void pdl_atomic_abort(pdl_atomic_file* a)
{
	if (a->f) fclose(a->f);
	a->f = NULL;
	if (a->temp[0]) remove(a->temp);
}
