/* The bodies' fluid-side gather (body_gather.h) compiled for AVX2: eight lanes in one register instead of SSE2's two; the same
 * operations in the same order, so the same bits as the baseline copy (simd.h). body_step.c
 * calls it when the world runs the AVX2 loops (pdl_best_loops). */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2")
#define PDL_SIMD_USE_AVX2 1
#define BODY_GATHER(name) name##_avx2
#include "body_gather.h"
#else
typedef int pdl_no_avx2_body_gather; /* ISO C: a translation unit is not empty */
#endif
