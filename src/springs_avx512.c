/* The neighbour loops of the springs (springs_loops.h) compiled for AVX-512VL, as
 * relax_avx512.c compiles those of relaxation: the AVX2 code with 32 vector registers, the
 * same bits as every other copy. springs.c calls them when the world runs the AVX-512 loops. */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2,avx512f,avx512vl,prefer-vector-width=256")
#define PDL_SIMD_USE_AVX2 1
#define SPRINGS_LOOP(name) pdl_##name##_avx512
#include "springs_loops.h"
#else
typedef int pdl_no_avx512_spring_loops; /* ISO C: a translation unit is not empty */
#endif
