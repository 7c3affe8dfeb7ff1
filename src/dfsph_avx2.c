/* The neighbour loops of DFSPH (dfsph_loops.h) compiled for AVX2: eight lanes in one
 * register instead of two. dfsph.c calls them when the processor has AVX2; they give the same
 * bits as the SSE2 copy (simd.h). Only GCC on x86-64 builds this copy (its target pragma lets
 * one file use AVX2 while the rest of the library runs on any x86-64). */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2")
#define PDL_SIMD_USE_AVX2 1
#define DFSPH_LOOP(name) pdl_dfsph_##name##_avx2
#include "dfsph_loops.h"
#else
typedef int pdl_no_avx2_loops; /* ISO C: a translation unit is not empty */
#endif
