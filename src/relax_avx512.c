/* The neighbour loops of relaxation (relax_loops.h) compiled for AVX-512VL: the AVX2 code and
 * its 256-bit operations, with the 32 vector registers AVX-512 gives instead of 16. The pair
 * loops hold about twenty vectors at once (the particle's position, velocity and sums, the
 * constants, the pair's terms); with 16 registers GCC spills them to the stack and every
 * iteration waits on the reloads (perf annotate: the loop counter and five vectors live in
 * memory). The same operations in the same order, so the same bits as every other copy
 * (simd.h); 256-bit only (prefer-vector-width), so no processor lowers its clock for 512-bit
 * work. relax.c calls them when the processor has AVX-512F and VL. */
#include "core.h"

#if PDL_HAVE_AVX2_LOOPS
#pragma GCC target("avx2,avx512f,avx512vl,prefer-vector-width=256")
#define PDL_SIMD_USE_AVX2 1
#define RELAX_LOOP(name) pdl_##name##_avx512
#include "relax_loops.h"
#else
typedef int pdl_no_avx512_loops; /* ISO C: a translation unit is not empty */
#endif
