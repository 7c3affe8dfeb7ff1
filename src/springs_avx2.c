/* The neighbour loops of the springs (springs_loops.h) compiled for AVX2, as relax_avx2.c
 * compiles those of relaxation: eight lanes in one register, the same bits as the baseline
 * copy. springs.c calls them when the world runs the AVX2 loops (pdl_best_loops). */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2")
#define PDL_SIMD_USE_AVX2 1
#define SPRINGS_LOOP(name) pdl_##name##_avx2
#include "springs_loops.h"
#else
typedef int pdl_no_avx2_spring_loops; /* ISO C: a translation unit is not empty */
#endif
