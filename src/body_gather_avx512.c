/* The bodies' fluid-side gather (body_gather.h) compiled for AVX-512VL: the AVX2 code with 32 vector registers (relax_avx512.c says why), 256-bit only; the same
 * operations in the same order, so the same bits as the baseline copy (simd.h). body_step.c
 * calls it when the world runs the AVX-512 loops (pdl_best_loops). */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2,avx512f,avx512vl,prefer-vector-width=256")
#define PDL_SIMD_USE_AVX2 1
#define BODY_GATHER(name) name##_avx512
#include "body_gather.h"
#else
typedef int pdl_no_avx512_body_gather; /* ISO C: a translation unit is not empty */
#endif
