/* Helpers the io tests share: whole files read back, and the closed-mesh check. */
#ifndef PUDDLE_IO_TEST_H
#define PUDDLE_IO_TEST_H

#include "puddle/surface.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole file, with a 0 after it (text can be read as a string); its length in *size when
 * size is not NULL. NULL if it cannot be read. The caller frees it. */
static inline char* io_test_read_file(const char* path, size_t* size)
{
	FILE* f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char* text = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
		free(text);
		text = NULL;
	}
	if (text) text[n] = 0;
	if (text && size) *size = (size_t)n;
	fclose(f);
	return text;
}

static inline int io_test_compare_u64(const void* a, const void* b)
{
	uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
	return (x > y) - (x < y);
}

/* Every directed edge (a, b) of every triangle appears once, and its reverse (b, a) appears
 * too: then every edge is in exactly two triangles, wound oppositely (closed, manifold at
 * edges, consistently oriented). */
static inline bool io_test_mesh_closed(const pdl_mesh* m)
{
	size_t n = 3 * (size_t)m->triangle_count;
	uint64_t* keys = malloc((n ? n : 1) * sizeof *keys);
	for (int t = 0; t < m->triangle_count; ++t)
		for (int e = 0; e < 3; ++e) {
			uint32_t a = (uint32_t)m->triangles[3 * t + e], b = (uint32_t)m->triangles[3 * t + (e + 1) % 3];
			keys[3 * (size_t)t + (size_t)e] = (uint64_t)a << 32 | b;
		}
	qsort(keys, n, sizeof *keys, io_test_compare_u64);
	bool ok = n > 0;
	for (size_t i = 0; ok && i < n; ++i) {
		if (i + 1 < n && keys[i + 1] == keys[i]) ok = false; /* a directed edge twice */
		uint64_t reverse = keys[i] << 32 | keys[i] >> 32;
		if (ok && !bsearch(&reverse, keys, n, sizeof *keys, io_test_compare_u64)) ok = false; /* an open edge */
	}
	free(keys);
	return ok;
}

#endif
