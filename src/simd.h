/* Internal: eight-wide float vectors for the neighbour loops, on AVX2, SSE2 (every x86-64),
 * WebAssembly SIMD128 (-msimd128), or plain C.
 *
 * All backends give bitwise-identical results: lane k of a neighbour run holds candidates
 * k, k+8, k+16, ... of that run, every lane operation is an IEEE operation done the same way in
 * each backend (add, sub, mul, div, sqrt, min, compare, bitwise and), and horizontal sums are
 * taken in one fixed order, ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)). SSE2 and
 * WebAssembly hold the eight lanes in two four-wide registers; AVX2 in one. The plain-C backend
 * is the reference and also what a compiler without SIMD gets.
 *
 * The backend is chosen per translation unit: AVX2 where the file defines PDL_SIMD_USE_AVX2
 * before including this header (relax_avx2.c, compiled for AVX2 and picked at run time when the
 * processor has it; relax_avx512.c, the same with AVX-512VL's registers and masks), otherwise
 * the best the compiler targets. */
#ifndef PUDDLE_SIMD_H
#define PUDDLE_SIMD_H

#include <stdint.h>
#include <string.h>

/* PDL_ALWAYS_INLINE: a loop body written once with constant flags (2D or 3D, ...), inlined into
 * each entry point so that every copy is compiled for its flags; PDL_NOINLINE: kept apart */
#if defined(__GNUC__)
#define PDL_NOINLINE __attribute__((noinline))
#define PDL_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PDL_NOINLINE inline
#define PDL_ALWAYS_INLINE inline
#endif

#if defined(PUDDLE_NO_SIMD)
#define PDL_SIMD_SCALAR 1
#elif defined(PDL_SIMD_USE_AVX2)
#define PDL_SIMD_AVX2 1
#include <immintrin.h>
#elif defined(__SSE2__) || defined(_M_X64)
#define PDL_SIMD_SSE2 1
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#define PDL_SIMD_WASM 1
#include <wasm_simd128.h>
#else
#define PDL_SIMD_SCALAR 1
#endif

/* Lanes in a vector; particle arrays read a vector at a time run this many floats past the last
 * particle. */
#define PDL_LANES 8
#define PDL_SIMD_PAD PDL_LANES

/* m8_first(n) reads eight of these from entry 8 - n: n all-ones lanes, then zeros (n >= 8: all
 * lanes). It masks the lanes past the end of a neighbour run. */
static const uint32_t pdl_lane_masks[16] = {~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, 0, 0, 0, 0, 0, 0, 0, 0};

#if PDL_SIMD_AVX2
typedef __m256 f8; /* eight floats */
typedef __m256 m8; /* eight lane masks: all ones or all zeros */
static inline f8 f8_set1(float a) { return _mm256_set1_ps(a); }
static inline f8 f8_load(const float* p) { return _mm256_loadu_ps(p); }
static inline void f8_store(float* p, f8 a) { _mm256_storeu_ps(p, a); }
static inline f8 f8_add(f8 a, f8 b) { return _mm256_add_ps(a, b); }
static inline f8 f8_sub(f8 a, f8 b) { return _mm256_sub_ps(a, b); }
static inline f8 f8_mul(f8 a, f8 b) { return _mm256_mul_ps(a, b); }
static inline f8 f8_div(f8 a, f8 b) { return _mm256_div_ps(a, b); }
static inline f8 f8_sqrt(f8 a) { return _mm256_sqrt_ps(a); }
static inline f8 f8_min(f8 a, f8 b) { return _mm256_min_ps(a, b); }
static inline f8 f8_max(f8 a, f8 b) { return _mm256_max_ps(a, b); }
static inline m8 f8_lt(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline m8 f8_gt(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline m8 f8_ge(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline m8 m8_and(m8 a, m8 b) { return _mm256_and_ps(a, b); }
static inline m8 m8_or(m8 a, m8 b) { return _mm256_or_ps(a, b); }
static inline m8 m8_andnot(m8 a, m8 b) { return _mm256_andnot_ps(a, b); } /* b and not a */
static inline f8 f8_mask(m8 m, f8 a) { return _mm256_and_ps(m, a); }     /* a where m, else +0 */
static inline int m8_bits(m8 m) { return _mm256_movemask_ps(m); }
/* lanes whose index base + k is below `end` and is not `self` */
static inline m8 m8_lanes(int base, int end, int self)
{
	__m256i idx = _mm256_add_epi32(_mm256_set1_epi32(base), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
	__m256i in = _mm256_cmpgt_epi32(_mm256_set1_epi32(end), idx);
	__m256i me = _mm256_cmpeq_epi32(idx, _mm256_set1_epi32(self));
	return _mm256_castsi256_ps(_mm256_andnot_si256(me, in));
}
/* the first n lanes (n in [0, 8]) */
static inline m8 m8_first(int n)
{
	return _mm256_loadu_ps((const float*)(pdl_lane_masks + 8 - (n < 8 ? n : 8)));
}
#if defined(__AVX512VL__) /* relax_avx512.c: mask registers, one instruction (vmaskmov stores
                            * are microcoded on AMD processors) */
static inline __mmask8 pdl_first_bits(int n) { return (__mmask8)((1u << (n < 8 ? n : 8)) - 1u); }
static inline f8 f8_load_first(const float* p, int n) { return _mm256_maskz_loadu_ps(pdl_first_bits(n), p); }
static inline void f8_store_first(float* p, f8 a, int n) { _mm256_mask_storeu_ps(p, pdl_first_bits(n), a); }
#else
/* the first n lanes of p (n in [0, 8]), zeros in the others; nothing past them is read */
static inline f8 f8_load_first(const float* p, int n)
{
	return _mm256_maskload_ps(p, _mm256_castps_si256(m8_first(n)));
}
/* writes the first n lanes of a to p, nothing past them */
static inline void f8_store_first(float* p, f8 a, int n)
{
	_mm256_maskstore_ps(p, _mm256_castps_si256(m8_first(n)), a);
}
#endif
#define PDL_HAVE_MASKED_MEMORY 1
#elif PDL_SIMD_SSE2 || PDL_SIMD_WASM
#if PDL_SIMD_SSE2
typedef __m128 v4;
static inline v4 v4_set1(float a) { return _mm_set1_ps(a); }
static inline v4 v4_load(const float* p) { return _mm_loadu_ps(p); }
static inline void v4_store(float* p, v4 a) { _mm_storeu_ps(p, a); }
static inline v4 v4_add(v4 a, v4 b) { return _mm_add_ps(a, b); }
static inline v4 v4_sub(v4 a, v4 b) { return _mm_sub_ps(a, b); }
static inline v4 v4_mul(v4 a, v4 b) { return _mm_mul_ps(a, b); }
static inline v4 v4_div(v4 a, v4 b) { return _mm_div_ps(a, b); }
static inline v4 v4_sqrt(v4 a) { return _mm_sqrt_ps(a); }
static inline v4 v4_min(v4 a, v4 b) { return _mm_min_ps(a, b); }
static inline v4 v4_max(v4 a, v4 b) { return _mm_max_ps(a, b); }
static inline v4 v4_lt(v4 a, v4 b) { return _mm_cmplt_ps(a, b); }
static inline v4 v4_gt(v4 a, v4 b) { return _mm_cmpgt_ps(a, b); }
static inline v4 v4_ge(v4 a, v4 b) { return _mm_cmpge_ps(a, b); }
static inline v4 v4_and(v4 a, v4 b) { return _mm_and_ps(a, b); }
static inline v4 v4_or(v4 a, v4 b) { return _mm_or_ps(a, b); }
static inline v4 v4_andnot(v4 a, v4 b) { return _mm_andnot_ps(a, b); } /* b and not a */
static inline int v4_bits(v4 m) { return _mm_movemask_ps(m); }
static inline v4 v4_lanes(int base, int end, int self)
{
	__m128i idx = _mm_add_epi32(_mm_set1_epi32(base), _mm_setr_epi32(0, 1, 2, 3));
	__m128i in = _mm_cmplt_epi32(idx, _mm_set1_epi32(end));
	__m128i me = _mm_cmpeq_epi32(idx, _mm_set1_epi32(self));
	return _mm_castsi128_ps(_mm_andnot_si128(me, in));
}
#else
typedef v128_t v4;
static inline v4 v4_set1(float a) { return wasm_f32x4_splat(a); }
static inline v4 v4_load(const float* p) { return wasm_v128_load(p); }
static inline void v4_store(float* p, v4 a) { wasm_v128_store(p, a); }
static inline v4 v4_add(v4 a, v4 b) { return wasm_f32x4_add(a, b); }
static inline v4 v4_sub(v4 a, v4 b) { return wasm_f32x4_sub(a, b); }
static inline v4 v4_mul(v4 a, v4 b) { return wasm_f32x4_mul(a, b); }
static inline v4 v4_div(v4 a, v4 b) { return wasm_f32x4_div(a, b); }
static inline v4 v4_sqrt(v4 a) { return wasm_f32x4_sqrt(a); }
/* pmin(b, a) = a < b ? a : b: SSE's minps(a, b) to the bit (also for -0, +0 and NaN) */
static inline v4 v4_min(v4 a, v4 b) { return wasm_f32x4_pmin(b, a); }
/* pmax(b, a) = b < a ? a : b, maxps's a > b ? a : b */
static inline v4 v4_max(v4 a, v4 b) { return wasm_f32x4_pmax(b, a); }
static inline v4 v4_lt(v4 a, v4 b) { return wasm_f32x4_lt(a, b); }
static inline v4 v4_gt(v4 a, v4 b) { return wasm_f32x4_gt(a, b); }
static inline v4 v4_ge(v4 a, v4 b) { return wasm_f32x4_ge(a, b); }
static inline v4 v4_and(v4 a, v4 b) { return wasm_v128_and(a, b); }
static inline v4 v4_or(v4 a, v4 b) { return wasm_v128_or(a, b); }
static inline v4 v4_andnot(v4 a, v4 b) { return wasm_v128_andnot(b, a); }
static inline int v4_bits(v4 m) { return (int)wasm_i32x4_bitmask(m); }
static inline v4 v4_lanes(int base, int end, int self)
{
	v128_t idx = wasm_i32x4_add(wasm_i32x4_splat(base), wasm_i32x4_make(0, 1, 2, 3));
	v128_t in = wasm_i32x4_lt(idx, wasm_i32x4_splat(end));
	v128_t me = wasm_i32x4_eq(idx, wasm_i32x4_splat(self));
	return wasm_v128_andnot(in, me);
}
#endif
/* eight lanes as two four-wide halves: lanes 0-3 in lo, 4-7 in hi */
typedef struct f8 {
	v4 lo, hi;
} f8;
typedef f8 m8;
#define PDL_F8_PAIR(op, a, b) ((f8){op((a).lo, (b).lo), op((a).hi, (b).hi)})
static inline f8 f8_set1(float a) { return (f8){v4_set1(a), v4_set1(a)}; }
static inline f8 f8_load(const float* p) { return (f8){v4_load(p), v4_load(p + 4)}; }
static inline void f8_store(float* p, f8 a)
{
	v4_store(p, a.lo);
	v4_store(p + 4, a.hi);
}
static inline f8 f8_add(f8 a, f8 b) { return PDL_F8_PAIR(v4_add, a, b); }
static inline f8 f8_sub(f8 a, f8 b) { return PDL_F8_PAIR(v4_sub, a, b); }
static inline f8 f8_mul(f8 a, f8 b) { return PDL_F8_PAIR(v4_mul, a, b); }
static inline f8 f8_div(f8 a, f8 b) { return PDL_F8_PAIR(v4_div, a, b); }
static inline f8 f8_sqrt(f8 a) { return (f8){v4_sqrt(a.lo), v4_sqrt(a.hi)}; }
static inline f8 f8_min(f8 a, f8 b) { return PDL_F8_PAIR(v4_min, a, b); }
static inline f8 f8_max(f8 a, f8 b) { return PDL_F8_PAIR(v4_max, a, b); }
static inline m8 f8_lt(f8 a, f8 b) { return PDL_F8_PAIR(v4_lt, a, b); }
static inline m8 f8_gt(f8 a, f8 b) { return PDL_F8_PAIR(v4_gt, a, b); }
static inline m8 f8_ge(f8 a, f8 b) { return PDL_F8_PAIR(v4_ge, a, b); }
static inline m8 m8_and(m8 a, m8 b) { return PDL_F8_PAIR(v4_and, a, b); }
static inline m8 m8_or(m8 a, m8 b) { return PDL_F8_PAIR(v4_or, a, b); }
static inline m8 m8_andnot(m8 a, m8 b) { return PDL_F8_PAIR(v4_andnot, a, b); }
static inline f8 f8_mask(m8 m, f8 a) { return PDL_F8_PAIR(v4_and, m, a); }
static inline int m8_bits(m8 m) { return v4_bits(m.lo) | v4_bits(m.hi) << 4; }
static inline m8 m8_lanes(int base, int end, int self)
{
	return (m8){v4_lanes(base, end, self), v4_lanes(base + 4, end, self)};
}
static inline m8 m8_first(int n)
{
	const float* m = (const float*)(pdl_lane_masks + 8 - (n < 8 ? n : 8));
	return (m8){v4_load(m), v4_load(m + 4)};
}
#else
typedef struct f8 {
	float v[8];
} f8;
typedef struct m8 {
	uint32_t v[8];
} m8;
#define PDL_F8_MAP(expr)                                                                       \
	f8 r;                                                                                      \
	for (int k = 0; k < 8; ++k) r.v[k] = (expr);                                               \
	return r
static inline f8 f8_set1(float a) { PDL_F8_MAP(a); }
static inline f8 f8_load(const float* p) { PDL_F8_MAP(p[k]); }
static inline void f8_store(float* p, f8 a)
{
	for (int k = 0; k < 8; ++k) p[k] = a.v[k];
}
static inline f8 f8_add(f8 a, f8 b) { PDL_F8_MAP(a.v[k] + b.v[k]); }
static inline f8 f8_sub(f8 a, f8 b) { PDL_F8_MAP(a.v[k] - b.v[k]); }
static inline f8 f8_mul(f8 a, f8 b) { PDL_F8_MAP(a.v[k] * b.v[k]); }
static inline f8 f8_div(f8 a, f8 b) { PDL_F8_MAP(a.v[k] / b.v[k]); }
float sqrtf(float);
static inline f8 f8_sqrt(f8 a) { PDL_F8_MAP(sqrtf(a.v[k])); }
/* SSE semantics: minps(a, b) = a < b ? a : b */
static inline f8 f8_min(f8 a, f8 b) { PDL_F8_MAP(a.v[k] < b.v[k] ? a.v[k] : b.v[k]); }
/* maxps(a, b) = a > b ? a : b */
static inline f8 f8_max(f8 a, f8 b) { PDL_F8_MAP(a.v[k] > b.v[k] ? a.v[k] : b.v[k]); }
#define PDL_M8_MAP(expr)                                                                       \
	m8 r;                                                                                      \
	for (int k = 0; k < 8; ++k) r.v[k] = (expr) ? 0xffffffffu : 0u;                            \
	return r
static inline m8 f8_lt(f8 a, f8 b) { PDL_M8_MAP(a.v[k] < b.v[k]); }
static inline m8 f8_gt(f8 a, f8 b) { PDL_M8_MAP(a.v[k] > b.v[k]); }
static inline m8 f8_ge(f8 a, f8 b) { PDL_M8_MAP(a.v[k] >= b.v[k]); }
static inline m8 m8_and(m8 a, m8 b) { PDL_M8_MAP(a.v[k] && b.v[k]); }
static inline m8 m8_or(m8 a, m8 b) { PDL_M8_MAP(a.v[k] || b.v[k]); }
static inline m8 m8_andnot(m8 a, m8 b) { PDL_M8_MAP(!a.v[k] && b.v[k]); }
static inline m8 m8_lanes(int base, int end, int self) { PDL_M8_MAP(base + k < end && base + k != self); }
static inline m8 m8_first(int n) { PDL_M8_MAP(k < n); }
static inline f8 f8_mask(m8 m, f8 a) { PDL_F8_MAP(m.v[k] ? a.v[k] : 0.0f); }
static inline int m8_bits(m8 m)
{
	int bits = 0;
	for (int k = 0; k < 8; ++k) bits |= m.v[k] ? 1 << k : 0;
	return bits;
}
#endif

#ifndef PDL_HAVE_MASKED_MEMORY
static inline f8 f8_load_first(const float* p, int n)
{
	float l[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	for (int k = 0; k < n; ++k) l[k] = p[k];
	return f8_load(l);
}
static inline void f8_store_first(float* p, f8 a, int n)
{
	float l[8];
	f8_store(l, a);
	for (int k = 0; k < n; ++k) p[k] = l[k];
}
#endif

/* p[k] += a[k] for the first n lanes (n >= 8: all eight). Touches nothing past them, so a
 * thread adding to the end of one neighbour run never rewrites the particles after it, which
 * another thread may own. */
static inline void f8_accumulate(float* p, f8 a, int n)
{
	if (n >= 8)
		f8_store(p, f8_add(f8_load(p), a));
	else
		f8_store_first(p, f8_add(f8_load_first(p, n), a), n);
}

/* a where m, else b (bitwise, so -0 and NaN pass unchanged) */
static inline f8 f8_select(m8 m, f8 a, f8 b)
{
#if PDL_SIMD_SCALAR
	PDL_F8_MAP(m.v[k] ? a.v[k] : b.v[k]);
#else
	return m8_or(f8_mask(m, a), m8_andnot(m, b));
#endif
}

/* table[index[k]], table[0] where an index is negative (mask those lanes: m8_valid_index).
 * AVX2: the hardware gather (the same values; DFSPH's 3D dam break, 60 frames on one thread:
 * 4.0-4.1 s of CPU against 4.36 with the lanes set one by one); the others build the vector in
 * registers: assembling it in memory and loading it stalls on the stores. */
static inline f8 f8_gather_index(const float* table, const int32_t* index)
{
#define PDL_AT(k) table[index[k] & ~(index[k] >> 31)]
#if PDL_SIMD_AVX2
	__m256i at = _mm256_loadu_si256((const __m256i*)index);
	at = _mm256_andnot_si256(_mm256_srai_epi32(at, 31), at);
	return _mm256_i32gather_ps(table, at, 4);
#elif PDL_SIMD_SSE2
	return (f8){_mm_setr_ps(PDL_AT(0), PDL_AT(1), PDL_AT(2), PDL_AT(3)),
	            _mm_setr_ps(PDL_AT(4), PDL_AT(5), PDL_AT(6), PDL_AT(7))};
#elif PDL_SIMD_WASM
	return (f8){wasm_f32x4_make(PDL_AT(0), PDL_AT(1), PDL_AT(2), PDL_AT(3)),
	            wasm_f32x4_make(PDL_AT(4), PDL_AT(5), PDL_AT(6), PDL_AT(7))};
#else
	PDL_F8_MAP(PDL_AT(k));
#endif
#undef PDL_AT
}

/* table[index[k]] for indices that are never negative (DFSPH's neighbour lists): the values of
 * f8_gather_index without its clamp, two instructions less a gather on AVX2 */
static inline f8 f8_gather_listed(const float* table, const int32_t* index)
{
#if PDL_SIMD_AVX2
	return _mm256_i32gather_ps(table, _mm256_loadu_si256((const __m256i*)index), 4);
#else
	return f8_gather_index(table, index);
#endif
}

/* rows[4 index[k] + e] for e = 0, 1, 2 into x, y, z: the first three floats of the four-float
 * rows index[0 .. 7] of `rows` (indices never negative, as f8_gather_listed). One 16-byte load a
 * row and a transpose, in registers, in place of three gathers of a float each: the same
 * values. (The gathers were what DFSPH's compression pass spent its time on: three gathers
 * there against one in the pressure pass made it 1.6 times as slow.) */
#if PDL_SIMD_SSE2 || PDL_SIMD_WASM
/* the first three columns of the four rows a, b, c, d */
static inline void v4_transpose3(v4 a, v4 b, v4 c, v4 d, v4* x, v4* y, v4* z)
{
#if PDL_SIMD_SSE2
	const v4 ab_xy = _mm_unpacklo_ps(a, b), cd_xy = _mm_unpacklo_ps(c, d); /* xa xb ya yb, xc xd yc yd */
	const v4 ab_zw = _mm_unpackhi_ps(a, b), cd_zw = _mm_unpackhi_ps(c, d);
	*x = _mm_movelh_ps(ab_xy, cd_xy);
	*y = _mm_movehl_ps(cd_xy, ab_xy);
	*z = _mm_movelh_ps(ab_zw, cd_zw);
#else
	const v4 ab_xy = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), cd_xy = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5);
	const v4 ab_zw = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7), cd_zw = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
	*x = wasm_i64x2_shuffle(ab_xy, cd_xy, 0, 2);
	*y = wasm_i64x2_shuffle(ab_xy, cd_xy, 1, 3);
	*z = wasm_i64x2_shuffle(ab_zw, cd_zw, 0, 2);
#endif
}
#endif
static inline void f8_gather_rows3(const float* rows, const int32_t* index, f8* x, f8* y, f8* z)
{
#define PDL_ROW(k) (rows + 4 * (size_t)index[k])
#if PDL_SIMD_AVX2
	/* rows k and k + 4 in the halves of one register, then the transpose of each half */
	__m256 r[4];
	for (int k = 0; k < 4; ++k)
		r[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(PDL_ROW(k))), _mm_loadu_ps(PDL_ROW(k + 4)), 1);
	const __m256 xy01 = _mm256_unpacklo_ps(r[0], r[1]), xy23 = _mm256_unpacklo_ps(r[2], r[3]);
	const __m256 zw01 = _mm256_unpackhi_ps(r[0], r[1]), zw23 = _mm256_unpackhi_ps(r[2], r[3]);
	*x = _mm256_shuffle_ps(xy01, xy23, 0x44);
	*y = _mm256_shuffle_ps(xy01, xy23, 0xee);
	*z = _mm256_shuffle_ps(zw01, zw23, 0x44);
#elif PDL_SIMD_SSE2 || PDL_SIMD_WASM
	v4_transpose3(v4_load(PDL_ROW(0)), v4_load(PDL_ROW(1)), v4_load(PDL_ROW(2)), v4_load(PDL_ROW(3)), &x->lo, &y->lo,
	              &z->lo);
	v4_transpose3(v4_load(PDL_ROW(4)), v4_load(PDL_ROW(5)), v4_load(PDL_ROW(6)), v4_load(PDL_ROW(7)), &x->hi, &y->hi,
	              &z->hi);
#else
	for (int k = 0; k < 8; ++k) x->v[k] = PDL_ROW(k)[0], y->v[k] = PDL_ROW(k)[1], z->v[k] = PDL_ROW(k)[2];
#endif
#undef PDL_ROW
}

/* Writes base + k for each set bit k of bits (< 256), in ascending k, to out[0 ..] and returns
 * how many: a neighbour scan's hits of a block of eight candidates. out must have room for eight
 * entries: the vector backends write all eight (the positions from a table, one or two stores, no
 * branch on the bits, which a scan's predictor misses), the entries after the count are left
 * undefined. */
#if PDL_SIMD_AVX2 || PDL_SIMD_SSE2 || PDL_SIMD_WASM
static const uint8_t pdl_lane_positions[256][8] = {
	{0,0,0,0,0,0,0,0}, {0,0,0,0,0,0,0,0}, {1,0,0,0,0,0,0,0}, {0,1,0,0,0,0,0,0}, {2,0,0,0,0,0,0,0}, {0,2,0,0,0,0,0,0}, {1,2,0,0,0,0,0,0}, {0,1,2,0,0,0,0,0},
	{3,0,0,0,0,0,0,0}, {0,3,0,0,0,0,0,0}, {1,3,0,0,0,0,0,0}, {0,1,3,0,0,0,0,0}, {2,3,0,0,0,0,0,0}, {0,2,3,0,0,0,0,0}, {1,2,3,0,0,0,0,0}, {0,1,2,3,0,0,0,0},
	{4,0,0,0,0,0,0,0}, {0,4,0,0,0,0,0,0}, {1,4,0,0,0,0,0,0}, {0,1,4,0,0,0,0,0}, {2,4,0,0,0,0,0,0}, {0,2,4,0,0,0,0,0}, {1,2,4,0,0,0,0,0}, {0,1,2,4,0,0,0,0},
	{3,4,0,0,0,0,0,0}, {0,3,4,0,0,0,0,0}, {1,3,4,0,0,0,0,0}, {0,1,3,4,0,0,0,0}, {2,3,4,0,0,0,0,0}, {0,2,3,4,0,0,0,0}, {1,2,3,4,0,0,0,0}, {0,1,2,3,4,0,0,0},
	{5,0,0,0,0,0,0,0}, {0,5,0,0,0,0,0,0}, {1,5,0,0,0,0,0,0}, {0,1,5,0,0,0,0,0}, {2,5,0,0,0,0,0,0}, {0,2,5,0,0,0,0,0}, {1,2,5,0,0,0,0,0}, {0,1,2,5,0,0,0,0},
	{3,5,0,0,0,0,0,0}, {0,3,5,0,0,0,0,0}, {1,3,5,0,0,0,0,0}, {0,1,3,5,0,0,0,0}, {2,3,5,0,0,0,0,0}, {0,2,3,5,0,0,0,0}, {1,2,3,5,0,0,0,0}, {0,1,2,3,5,0,0,0},
	{4,5,0,0,0,0,0,0}, {0,4,5,0,0,0,0,0}, {1,4,5,0,0,0,0,0}, {0,1,4,5,0,0,0,0}, {2,4,5,0,0,0,0,0}, {0,2,4,5,0,0,0,0}, {1,2,4,5,0,0,0,0}, {0,1,2,4,5,0,0,0},
	{3,4,5,0,0,0,0,0}, {0,3,4,5,0,0,0,0}, {1,3,4,5,0,0,0,0}, {0,1,3,4,5,0,0,0}, {2,3,4,5,0,0,0,0}, {0,2,3,4,5,0,0,0}, {1,2,3,4,5,0,0,0}, {0,1,2,3,4,5,0,0},
	{6,0,0,0,0,0,0,0}, {0,6,0,0,0,0,0,0}, {1,6,0,0,0,0,0,0}, {0,1,6,0,0,0,0,0}, {2,6,0,0,0,0,0,0}, {0,2,6,0,0,0,0,0}, {1,2,6,0,0,0,0,0}, {0,1,2,6,0,0,0,0},
	{3,6,0,0,0,0,0,0}, {0,3,6,0,0,0,0,0}, {1,3,6,0,0,0,0,0}, {0,1,3,6,0,0,0,0}, {2,3,6,0,0,0,0,0}, {0,2,3,6,0,0,0,0}, {1,2,3,6,0,0,0,0}, {0,1,2,3,6,0,0,0},
	{4,6,0,0,0,0,0,0}, {0,4,6,0,0,0,0,0}, {1,4,6,0,0,0,0,0}, {0,1,4,6,0,0,0,0}, {2,4,6,0,0,0,0,0}, {0,2,4,6,0,0,0,0}, {1,2,4,6,0,0,0,0}, {0,1,2,4,6,0,0,0},
	{3,4,6,0,0,0,0,0}, {0,3,4,6,0,0,0,0}, {1,3,4,6,0,0,0,0}, {0,1,3,4,6,0,0,0}, {2,3,4,6,0,0,0,0}, {0,2,3,4,6,0,0,0}, {1,2,3,4,6,0,0,0}, {0,1,2,3,4,6,0,0},
	{5,6,0,0,0,0,0,0}, {0,5,6,0,0,0,0,0}, {1,5,6,0,0,0,0,0}, {0,1,5,6,0,0,0,0}, {2,5,6,0,0,0,0,0}, {0,2,5,6,0,0,0,0}, {1,2,5,6,0,0,0,0}, {0,1,2,5,6,0,0,0},
	{3,5,6,0,0,0,0,0}, {0,3,5,6,0,0,0,0}, {1,3,5,6,0,0,0,0}, {0,1,3,5,6,0,0,0}, {2,3,5,6,0,0,0,0}, {0,2,3,5,6,0,0,0}, {1,2,3,5,6,0,0,0}, {0,1,2,3,5,6,0,0},
	{4,5,6,0,0,0,0,0}, {0,4,5,6,0,0,0,0}, {1,4,5,6,0,0,0,0}, {0,1,4,5,6,0,0,0}, {2,4,5,6,0,0,0,0}, {0,2,4,5,6,0,0,0}, {1,2,4,5,6,0,0,0}, {0,1,2,4,5,6,0,0},
	{3,4,5,6,0,0,0,0}, {0,3,4,5,6,0,0,0}, {1,3,4,5,6,0,0,0}, {0,1,3,4,5,6,0,0}, {2,3,4,5,6,0,0,0}, {0,2,3,4,5,6,0,0}, {1,2,3,4,5,6,0,0}, {0,1,2,3,4,5,6,0},
	{7,0,0,0,0,0,0,0}, {0,7,0,0,0,0,0,0}, {1,7,0,0,0,0,0,0}, {0,1,7,0,0,0,0,0}, {2,7,0,0,0,0,0,0}, {0,2,7,0,0,0,0,0}, {1,2,7,0,0,0,0,0}, {0,1,2,7,0,0,0,0},
	{3,7,0,0,0,0,0,0}, {0,3,7,0,0,0,0,0}, {1,3,7,0,0,0,0,0}, {0,1,3,7,0,0,0,0}, {2,3,7,0,0,0,0,0}, {0,2,3,7,0,0,0,0}, {1,2,3,7,0,0,0,0}, {0,1,2,3,7,0,0,0},
	{4,7,0,0,0,0,0,0}, {0,4,7,0,0,0,0,0}, {1,4,7,0,0,0,0,0}, {0,1,4,7,0,0,0,0}, {2,4,7,0,0,0,0,0}, {0,2,4,7,0,0,0,0}, {1,2,4,7,0,0,0,0}, {0,1,2,4,7,0,0,0},
	{3,4,7,0,0,0,0,0}, {0,3,4,7,0,0,0,0}, {1,3,4,7,0,0,0,0}, {0,1,3,4,7,0,0,0}, {2,3,4,7,0,0,0,0}, {0,2,3,4,7,0,0,0}, {1,2,3,4,7,0,0,0}, {0,1,2,3,4,7,0,0},
	{5,7,0,0,0,0,0,0}, {0,5,7,0,0,0,0,0}, {1,5,7,0,0,0,0,0}, {0,1,5,7,0,0,0,0}, {2,5,7,0,0,0,0,0}, {0,2,5,7,0,0,0,0}, {1,2,5,7,0,0,0,0}, {0,1,2,5,7,0,0,0},
	{3,5,7,0,0,0,0,0}, {0,3,5,7,0,0,0,0}, {1,3,5,7,0,0,0,0}, {0,1,3,5,7,0,0,0}, {2,3,5,7,0,0,0,0}, {0,2,3,5,7,0,0,0}, {1,2,3,5,7,0,0,0}, {0,1,2,3,5,7,0,0},
	{4,5,7,0,0,0,0,0}, {0,4,5,7,0,0,0,0}, {1,4,5,7,0,0,0,0}, {0,1,4,5,7,0,0,0}, {2,4,5,7,0,0,0,0}, {0,2,4,5,7,0,0,0}, {1,2,4,5,7,0,0,0}, {0,1,2,4,5,7,0,0},
	{3,4,5,7,0,0,0,0}, {0,3,4,5,7,0,0,0}, {1,3,4,5,7,0,0,0}, {0,1,3,4,5,7,0,0}, {2,3,4,5,7,0,0,0}, {0,2,3,4,5,7,0,0}, {1,2,3,4,5,7,0,0}, {0,1,2,3,4,5,7,0},
	{6,7,0,0,0,0,0,0}, {0,6,7,0,0,0,0,0}, {1,6,7,0,0,0,0,0}, {0,1,6,7,0,0,0,0}, {2,6,7,0,0,0,0,0}, {0,2,6,7,0,0,0,0}, {1,2,6,7,0,0,0,0}, {0,1,2,6,7,0,0,0},
	{3,6,7,0,0,0,0,0}, {0,3,6,7,0,0,0,0}, {1,3,6,7,0,0,0,0}, {0,1,3,6,7,0,0,0}, {2,3,6,7,0,0,0,0}, {0,2,3,6,7,0,0,0}, {1,2,3,6,7,0,0,0}, {0,1,2,3,6,7,0,0},
	{4,6,7,0,0,0,0,0}, {0,4,6,7,0,0,0,0}, {1,4,6,7,0,0,0,0}, {0,1,4,6,7,0,0,0}, {2,4,6,7,0,0,0,0}, {0,2,4,6,7,0,0,0}, {1,2,4,6,7,0,0,0}, {0,1,2,4,6,7,0,0},
	{3,4,6,7,0,0,0,0}, {0,3,4,6,7,0,0,0}, {1,3,4,6,7,0,0,0}, {0,1,3,4,6,7,0,0}, {2,3,4,6,7,0,0,0}, {0,2,3,4,6,7,0,0}, {1,2,3,4,6,7,0,0}, {0,1,2,3,4,6,7,0},
	{5,6,7,0,0,0,0,0}, {0,5,6,7,0,0,0,0}, {1,5,6,7,0,0,0,0}, {0,1,5,6,7,0,0,0}, {2,5,6,7,0,0,0,0}, {0,2,5,6,7,0,0,0}, {1,2,5,6,7,0,0,0}, {0,1,2,5,6,7,0,0},
	{3,5,6,7,0,0,0,0}, {0,3,5,6,7,0,0,0}, {1,3,5,6,7,0,0,0}, {0,1,3,5,6,7,0,0}, {2,3,5,6,7,0,0,0}, {0,2,3,5,6,7,0,0}, {1,2,3,5,6,7,0,0}, {0,1,2,3,5,6,7,0},
	{4,5,6,7,0,0,0,0}, {0,4,5,6,7,0,0,0}, {1,4,5,6,7,0,0,0}, {0,1,4,5,6,7,0,0}, {2,4,5,6,7,0,0,0}, {0,2,4,5,6,7,0,0}, {1,2,4,5,6,7,0,0}, {0,1,2,4,5,6,7,0},
	{3,4,5,6,7,0,0,0}, {0,3,4,5,6,7,0,0}, {1,3,4,5,6,7,0,0}, {0,1,3,4,5,6,7,0}, {2,3,4,5,6,7,0,0}, {0,2,3,4,5,6,7,0}, {1,2,3,4,5,6,7,0}, {0,1,2,3,4,5,6,7}};
#endif
static inline int pdl_append_lanes(int32_t* out, unsigned bits, int32_t base)
{
#if PDL_SIMD_AVX2
	__m256i at = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)pdl_lane_positions[bits]));
	_mm256_storeu_si256((__m256i*)out, _mm256_add_epi32(at, _mm256_set1_epi32(base)));
	return __builtin_popcount(bits);
#elif PDL_SIMD_SSE2 || PDL_SIMD_WASM
	/* the table's bytes widened to two stores of four (SSE2 has no byte-to-int conversion), and the
	 * count by adding bits (x86-64's baseline has no popcnt: __builtin_popcount is a call there) */
#if PDL_SIMD_SSE2
	const __m128i zero = _mm_setzero_si128(), add = _mm_set1_epi32(base);
	const __m128i wide = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)pdl_lane_positions[bits]), zero);
	_mm_storeu_si128((__m128i*)out, _mm_add_epi32(_mm_unpacklo_epi16(wide, zero), add));
	_mm_storeu_si128((__m128i*)(out + 4), _mm_add_epi32(_mm_unpackhi_epi16(wide, zero), add));
#else
	int64_t positions;
	memcpy(&positions, pdl_lane_positions[bits], sizeof positions);
	const v128_t add = wasm_i32x4_splat(base), wide = wasm_u16x8_extend_low_u8x16(wasm_i64x2_make(positions, 0));
	wasm_v128_store(out, wasm_i32x4_add(wasm_u32x4_extend_low_u16x8(wide), add));
	wasm_v128_store(out + 4, wasm_i32x4_add(wasm_u32x4_extend_high_u16x8(wide), add));
#endif
	unsigned c = bits - ((bits >> 1) & 0x55u);
	c = (c & 0x33u) + ((c >> 2) & 0x33u);
	return (int)((c + (c >> 4)) & 0x0fu);
#else
	int n = 0;
	for (; bits; bits &= bits - 1) out[n++] = base + __builtin_ctz(bits);
	return n;
#endif
}

/* lanes whose index is not negative */
static inline m8 m8_valid_index(const int32_t* index)
{
#if PDL_SIMD_AVX2
	__m256i v = _mm256_loadu_si256((const __m256i*)index);
	return _mm256_castsi256_ps(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(-1)));
#elif PDL_SIMD_SSE2
	__m128i lo = _mm_loadu_si128((const __m128i*)index), hi = _mm_loadu_si128((const __m128i*)(index + 4));
	return (m8){_mm_castsi128_ps(_mm_cmpgt_epi32(lo, _mm_set1_epi32(-1))),
	            _mm_castsi128_ps(_mm_cmpgt_epi32(hi, _mm_set1_epi32(-1)))};
#elif PDL_SIMD_WASM
	return (m8){wasm_i32x4_gt(wasm_v128_load(index), wasm_i32x4_splat(-1)),
	            wasm_i32x4_gt(wasm_v128_load(index + 4), wasm_i32x4_splat(-1))};
#else
	PDL_M8_MAP(index[k] >= 0);
#endif
}

/* lanes where index[k] == j */
static inline m8 m8_index_is(const int32_t* index, int32_t j)
{
#if PDL_SIMD_AVX2
	__m256i v = _mm256_loadu_si256((const __m256i*)index);
	return _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_set1_epi32(j)));
#elif PDL_SIMD_SSE2
	__m128i lo = _mm_loadu_si128((const __m128i*)index), hi = _mm_loadu_si128((const __m128i*)(index + 4));
	__m128i jj = _mm_set1_epi32(j);
	return (m8){_mm_castsi128_ps(_mm_cmpeq_epi32(lo, jj)), _mm_castsi128_ps(_mm_cmpeq_epi32(hi, jj))};
#elif PDL_SIMD_WASM
	return (m8){wasm_i32x4_eq(wasm_v128_load(index), wasm_i32x4_splat(j)),
	            wasm_i32x4_eq(wasm_v128_load(index + 4), wasm_i32x4_splat(j))};
#else
	PDL_M8_MAP(index[k] == j);
#endif
}

/* table[index[0..7]] */
static inline f8 f8_gather(const float* table, const uint8_t* index)
{
	float v[8];
	for (int k = 0; k < 8; ++k) v[k] = table[index[k]];
	return f8_load(v);
}

/* ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)): the one horizontal order every backend
 * uses. The vector backends add neighbouring lanes, then neighbouring pairs, by shuffles: lane
 * 0 gets (l0 + l1) + (l2 + l3) and lane 4 (l4 + l5) + (l6 + l7) (IEEE addition commutes, so
 * the shuffled operand order gives the same bits). */
#if PDL_SIMD_AVX2
static inline float f8_sum(f8 a)
{
	a = _mm256_add_ps(a, _mm256_permute_ps(a, 0xB1));       /* l0+l1, ., l2+l3, ., l4+l5, ... */
	a = _mm256_add_ps(a, _mm256_permute_ps(a, 0x4E));       /* lanes 0 and 4: the pair sums */
	return _mm_cvtss_f32(_mm_add_ss(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1)));
}
#elif PDL_SIMD_SSE2
static inline float v4_sum(v4 a) /* (a0 + a1) + (a2 + a3) in lane 0 */
{
	a = _mm_add_ps(a, _mm_shuffle_ps(a, a, 0xB1));
	return _mm_cvtss_f32(_mm_add_ss(a, _mm_movehl_ps(a, a)));
}
static inline float f8_sum(f8 a) { return v4_sum(a.lo) + v4_sum(a.hi); }
#elif PDL_SIMD_WASM
static inline float v4_sum(v4 a)
{
	a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 1, 0, 3, 2));
	return wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 2);
}
static inline float f8_sum(f8 a) { return v4_sum(a.lo) + v4_sum(a.hi); }
#else
static inline float f8_sum(f8 a)
{
	float l[8];
	f8_store(l, a);
	return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}
#endif

#endif
