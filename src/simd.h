/* Internal: four-wide float vectors for the neighbour loops, on SSE2 (every x86-64), WebAssembly
 * SIMD128 (-msimd128), or plain C.
 *
 * All three give bitwise-identical results: lane k of a neighbour run holds candidates
 * k, k+4, k+8, ... of that run, every lane operation is an IEEE operation done the same way in
 * each backend (add, sub, mul, div, sqrt, min, max, compare, bitwise and), and horizontal sums
 * are taken in one fixed order, ((l0 + l1) + (l2 + l3)). The plain-C backend is the reference
 * and also what a compiler without SIMD gets. Wider vectors (AVX2) would change the summation
 * order and with it the last bits of every result, so puddle stays four wide everywhere. */
#ifndef PUDDLE_SIMD_H
#define PUDDLE_SIMD_H

#include <stdint.h>

#if defined(PUDDLE_NO_SIMD)
#define PDL_SIMD_SCALAR 1
#elif defined(__SSE2__) || defined(_M_X64)
#define PDL_SIMD_SSE2 1
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#define PDL_SIMD_WASM 1
#include <wasm_simd128.h>
#else
#define PDL_SIMD_SCALAR 1
#endif

#if PDL_SIMD_SSE2
typedef __m128 f4;  /* four floats */
typedef __m128 m4;  /* four lane masks: all ones or all zeros */
static inline f4 f4_set1(float a) { return _mm_set1_ps(a); }
static inline f4 f4_load(const float* p) { return _mm_loadu_ps(p); }
static inline f4 f4_add(f4 a, f4 b) { return _mm_add_ps(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
static inline f4 f4_div(f4 a, f4 b) { return _mm_div_ps(a, b); }
static inline f4 f4_sqrt(f4 a) { return _mm_sqrt_ps(a); }
static inline f4 f4_max(f4 a, f4 b) { return _mm_max_ps(a, b); }
static inline f4 f4_min(f4 a, f4 b) { return _mm_min_ps(a, b); }
static inline m4 f4_lt(f4 a, f4 b) { return _mm_cmplt_ps(a, b); }
static inline m4 f4_gt(f4 a, f4 b) { return _mm_cmpgt_ps(a, b); }
static inline m4 m4_and(m4 a, m4 b) { return _mm_and_ps(a, b); }
static inline m4 m4_andnot(m4 a, m4 b) { return _mm_andnot_ps(a, b); } /* b and not a */
static inline f4 f4_mask(m4 m, f4 a) { return _mm_and_ps(m, a); }     /* a where m, else +0 */
static inline int m4_bits(m4 m) { return _mm_movemask_ps(m); }
/* lanes whose index base + k is below `end` and is not `self` */
static inline m4 m4_lanes(int base, int end, int self)
{
	__m128i idx = _mm_add_epi32(_mm_set1_epi32(base), _mm_setr_epi32(0, 1, 2, 3));
	__m128i in = _mm_cmplt_epi32(idx, _mm_set1_epi32(end));
	__m128i me = _mm_cmpeq_epi32(idx, _mm_set1_epi32(self));
	return _mm_castsi128_ps(_mm_andnot_si128(me, in));
}
static inline void f4_store(float* p, f4 a) { _mm_storeu_ps(p, a); }
#elif PDL_SIMD_WASM
typedef v128_t f4;
typedef v128_t m4;
static inline f4 f4_set1(float a) { return wasm_f32x4_splat(a); }
static inline f4 f4_load(const float* p) { return wasm_v128_load(p); }
static inline f4 f4_add(f4 a, f4 b) { return wasm_f32x4_add(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return wasm_f32x4_sub(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return wasm_f32x4_mul(a, b); }
static inline f4 f4_div(f4 a, f4 b) { return wasm_f32x4_div(a, b); }
static inline f4 f4_sqrt(f4 a) { return wasm_f32x4_sqrt(a); }
/* pmax(x, y) = x < y ? y : x, so pmax(b, a) = a > b ? a : b: SSE's maxps(a, b) to the bit
 * (also for -0 and +0, and NaN); likewise pmin(b, a) = minps(a, b). */
static inline f4 f4_max(f4 a, f4 b) { return wasm_f32x4_pmax(b, a); }
static inline f4 f4_min(f4 a, f4 b) { return wasm_f32x4_pmin(b, a); }
static inline m4 f4_lt(f4 a, f4 b) { return wasm_f32x4_lt(a, b); }
static inline m4 f4_gt(f4 a, f4 b) { return wasm_f32x4_gt(a, b); }
static inline m4 m4_and(m4 a, m4 b) { return wasm_v128_and(a, b); }
static inline m4 m4_andnot(m4 a, m4 b) { return wasm_v128_andnot(b, a); }
static inline f4 f4_mask(m4 m, f4 a) { return wasm_v128_and(m, a); }
static inline int m4_bits(m4 m) { return (int)wasm_i32x4_bitmask(m); }
static inline m4 m4_lanes(int base, int end, int self)
{
	v128_t idx = wasm_i32x4_add(wasm_i32x4_splat(base), wasm_i32x4_make(0, 1, 2, 3));
	v128_t in = wasm_i32x4_lt(idx, wasm_i32x4_splat(end));
	v128_t me = wasm_i32x4_eq(idx, wasm_i32x4_splat(self));
	return wasm_v128_andnot(in, me);
}
static inline void f4_store(float* p, f4 a) { wasm_v128_store(p, a); }
#else
typedef struct f4 {
	float v[4];
} f4;
typedef struct m4 {
	uint32_t v[4];
} m4;
#define PDL_F4_MAP(expr)                                                                       \
	f4 r;                                                                                      \
	for (int k = 0; k < 4; ++k) r.v[k] = (expr);                                               \
	return r
static inline f4 f4_set1(float a) { PDL_F4_MAP(a); }
static inline f4 f4_load(const float* p) { PDL_F4_MAP(p[k]); }
static inline f4 f4_add(f4 a, f4 b) { PDL_F4_MAP(a.v[k] + b.v[k]); }
static inline f4 f4_sub(f4 a, f4 b) { PDL_F4_MAP(a.v[k] - b.v[k]); }
static inline f4 f4_mul(f4 a, f4 b) { PDL_F4_MAP(a.v[k] * b.v[k]); }
static inline f4 f4_div(f4 a, f4 b) { PDL_F4_MAP(a.v[k] / b.v[k]); }
float sqrtf(float);
static inline f4 f4_sqrt(f4 a) { PDL_F4_MAP(sqrtf(a.v[k])); }
/* SSE semantics: maxps(a, b) = a > b ? a : b, minps(a, b) = a < b ? a : b */
static inline f4 f4_max(f4 a, f4 b) { PDL_F4_MAP(a.v[k] > b.v[k] ? a.v[k] : b.v[k]); }
static inline f4 f4_min(f4 a, f4 b) { PDL_F4_MAP(a.v[k] < b.v[k] ? a.v[k] : b.v[k]); }
#define PDL_M4_MAP(expr)                                                                       \
	m4 r;                                                                                      \
	for (int k = 0; k < 4; ++k) r.v[k] = (expr) ? 0xffffffffu : 0u;                            \
	return r
static inline m4 f4_lt(f4 a, f4 b) { PDL_M4_MAP(a.v[k] < b.v[k]); }
static inline m4 f4_gt(f4 a, f4 b) { PDL_M4_MAP(a.v[k] > b.v[k]); }
static inline m4 m4_and(m4 a, m4 b) { PDL_M4_MAP(a.v[k] && b.v[k]); }
static inline m4 m4_andnot(m4 a, m4 b) { PDL_M4_MAP(!a.v[k] && b.v[k]); }
static inline m4 m4_lanes(int base, int end, int self) { PDL_M4_MAP(base + k < end && base + k != self); }
static inline f4 f4_mask(m4 m, f4 a) { PDL_F4_MAP(m.v[k] ? a.v[k] : 0.0f); }
static inline int m4_bits(m4 m)
{
	return (m.v[0] ? 1 : 0) | (m.v[1] ? 2 : 0) | (m.v[2] ? 4 : 0) | (m.v[3] ? 8 : 0);
}
static inline void f4_store(float* p, f4 a)
{
	for (int k = 0; k < 4; ++k) p[k] = a.v[k];
}
#endif

/* table[index[0..3]] */
static inline f4 f4_gather(const float* table, const uint8_t* index)
{
	float v[4] = {table[index[0]], table[index[1]], table[index[2]], table[index[3]]};
	return f4_load(v);
}

/* ((l0 + l1) + (l2 + l3)): the one horizontal order every backend uses */
static inline float f4_sum(f4 a)
{
	float l[4];
	f4_store(l, a);
	return (l[0] + l[1]) + (l[2] + l[3]);
}

/* Particle arrays read four at a time run this many floats past the last particle. */
#define PDL_SIMD_PAD 4

#endif
