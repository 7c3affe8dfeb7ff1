/* The neighbour loops of DFSPH (dfsph_loops.h) compiled for AVX-512VL: the AVX2 code and
 * its 256-bit operations, with the 32 vector registers AVX-512 gives instead of 16 (the forces
 * pass holds about twenty vectors at once; relax_avx512.c says what spilling them cost). The same operations in the same order, so the same bits as every other copy
 * (simd.h); 256-bit only (prefer-vector-width), so no processor lowers its clock for 512-bit
 * work. dfsph.c calls them when the processor has AVX-512F and VL. */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2,avx512f,avx512vl,prefer-vector-width=256")
#define PDL_SIMD_USE_AVX2 1
#define DFSPH_LOOP(name) pdl_dfsph_##name##_avx512
#include "dfsph_loops.h"
#else
typedef int pdl_no_avx512_loops; /* ISO C: a translation unit is not empty */
#endif
