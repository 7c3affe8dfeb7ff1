/* Internal: files that appear whole or not at all. Each output is written to "NAME.tmp.PID"
 * and renamed onto NAME only after it was flushed and closed without error, so an interrupted
 * run, a full disk or a bad argument never leaves a truncated file under a real name and never
 * clobbers a good one with a broken one. */
#ifndef PUDDLE_IO_ATOMIC_FILE_H
#define PUDDLE_IO_ATOMIC_FILE_H

#include "puddle/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pdl_atomic_file {
	FILE* f;
	char path[1024];
	char temp[1100];
} pdl_atomic_file;

/* Opens the temporary file for writing; false with err filled on failure. */
bool pdl_atomic_open(pdl_atomic_file* a, const char* path, pdl_error* err);
/* Closes and renames into place; false (temporary removed) if any write failed. */
bool pdl_atomic_commit(pdl_atomic_file* a, pdl_error* err);
/* Gives up: closes and removes the temporary. */
void pdl_atomic_abort(pdl_atomic_file* a);

#ifdef __cplusplus
}
#endif

#endif
