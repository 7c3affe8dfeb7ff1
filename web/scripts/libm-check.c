/* Does libm give the core the same bits in wasm (Emscripten's musl) as natively (glibc)? Hashes
 * of what the SPH solvers take from libm, printed one line per part, for the two builds to diff
 * (web/DEVELOPING.md, "Same bits as the native tools", has the results of 2026-11-28):
 *   powf(x, g)   every float x in [0.25, 4] at five exponents (the Tait pressure, kernels.h)
 *   xsph-E       (float)(1 - pow(1 - E, 60 dt)) for every float dt in [1e-5, 0.1] (sph.c's
 *                pdl_sph_xsph_share, per substep)
 *   wall-tables  pdl_wall_tables of both kernels, 2D and 3D (sph.c, dfsph.c)
 *   rest-2d/3d   pdl_sph_rest_density(_3d) over (h, spacing) pairs
 * and one hash of raw double pow results (which differ on glibc's FMA path, yet every use above
 * rounds them to float). From web/, about a minute each:
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off -fno-fast-math -I../include -I../src \
 *      scripts/libm-check.c ../src/[a-z]*.c -lm -lpthread -o /tmp/libm-check && /tmp/libm-check > native.txt
 *   emcc -O3 -msimd128 -std=c11 -ffp-contract=off -fno-fast-math -I../include -I../src scripts/libm-check.c \
 *      ../src/[a-z]*.c -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -sALLOW_MEMORY_GROWTH -o /tmp/libm-check.js \
 *      && node /tmp/libm-check.js > wasm.txt && diff native.txt wasm.txt  */
#include "core.h"
#include "kernels.h"
#include "walls.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

float pdl_sph_rest_density(float h, float spacing, float mass);
float pdl_sph_rest_density_3d(float h, float spacing, float mass);

static uint64_t hash = 0xcbf29ce484222325ull;
static void mix(uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; ++i) {
		hash ^= (v >> (8 * i)) & 0xff;
		hash *= 0x100000001b3ull;
	}
}
static void mixf(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	mix(u, 4);
}
static void part(const char* name, long n)
{
	printf("%s %ld %016llx\n", name, n, (unsigned long long)hash);
	hash = 0xcbf29ce484222325ull;
}
static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static float from_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* sph.c's wall_line (static there) */
static double wall_line(double t, bool three)
{
	return three ? 315.0 / 256.0 * pow(1 - t * t, 4) : 128.0 / (35.0 * PDL_PI) * pow(1 - t * t, 3.5);
}

int main(void)
{
	const float gammas[] = {7.0f, 1.0f, 1.5f, 3.0f, 7.15f};
	for (int g = 0; g < 5; ++g) {
		volatile float gamma = gammas[g];
		long n = 0;
		for (uint32_t u = bits(0.25f); u <= bits(4.0f); ++u, ++n) mixf(powf(from_bits(u), gamma));
		char name[32];
		snprintf(name, sizeof name, "powf-%g", (double)gammas[g]);
		part(name, n);
	}
	const float eps[] = {0.0f, 0.01f, 0.05f, 0.1f, 0.3f, 0.5f, 0.9f};
	for (int k = 0; k < 7; ++k) {
		volatile float xsph = eps[k];
		long n = 0;
		for (uint32_t u = bits(1e-5f); u <= bits(0.1f); ++u, ++n)
			mixf((float)(1.0 - pow(1.0 - (double)xsph, 60.0 * (double)from_bits(u))));
		char name[32];
		snprintf(name, sizeof name, "xsph-%g", (double)eps[k]);
		part(name, n);
	}
	float d[PDL_SPH_WALL_TABLE + 1], f[PDL_SPH_WALL_TABLE + 1];
	for (int three = 0; three < 2; ++three)
		for (int wendland = 0; wendland < 2; ++wendland) {
			pdl_wall_tables(wendland ? pdl_wendland_plane : wall_line, three, d, f);
			for (int i = 0; i <= PDL_SPH_WALL_TABLE; ++i) {
				mixf(d[i]);
				mixf(f[i]);
			}
		}
	part("wall-tables", 4);
	long n = 0;
	for (int i = 0; i < 400; ++i)
		for (int j = 0; j < 100; ++j, ++n) {
			float h = 0.05f + 0.05f * (float)i;
			mixf(pdl_sph_rest_density(h, h * (0.3f + 0.005f * (float)j), 1.0f));
		}
	part("rest-2d", n);
	n = 0;
	for (int i = 0; i < 100; ++i)
		for (int j = 0; j < 40; ++j, ++n) {
			float h = 0.05f + 0.2f * (float)i;
			mixf(pdl_sph_rest_density_3d(h, h * (0.35f + 0.01f * (float)j), 1.0f));
		}
	part("rest-3d", n);
	uint64_t s = 88172645463325252ull; /* xorshift64 */
	for (n = 0; n < 1000000; ++n) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		volatile double base = 0.5 + (double)(s >> 11) * 0x1p-54, ex = 1.0 / (1 + n % 100);
		double r = pow(base, ex);
		uint64_t u;
		memcpy(&u, &r, 8);
		mix(u, 8);
	}
	part("pow-double (may differ)", n);
	return 0;
}
