/* Private to the renderer (render.c draws 2D worlds, render3d.c 3D ones): the renderer's state
 * and the colour and threading helpers both use. */
#ifndef PUDDLE_RENDER_INTERNAL_H
#define PUDDLE_RENDER_INTERNAL_H

#include "puddle/render.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The orbit camera resolved for one picture size (render_view.c). A pixel's ray is
 * eye + t (f + ndc_x tan_x r + ndc_y tan_y u): its f component is 1, so t is the view depth. */
typedef struct pdl_view3 {
	pdl_vec3 eye;        /* world units */
	pdl_vec3 f, r, u;    /* forward, right, up: unit, right-handed */
	float tan_x, tan_y;  /* half the field of view, horizontal and vertical, as tangents */
	float focal;         /* pixels per world unit at view depth 1: height / (2 tan_y) */
	float near;          /* nothing nearer than this view depth is drawn, world units */
} pdl_view3;

/* A material's sphere radius in 3D pictures, kept with what it was computed from. */
typedef struct pdl_sphere_size {
	float h, rest_density; /* 0, 0: not computed */
	float radius;          /* world units */
} pdl_sphere_size;

struct pdl_renderer {
	pdl_render_def def;
	/* 2D */
	float scale;          /* pixels per world unit */
	float cx, cy;         /* world point at the image centre */
	float* field;         /* sum of splat weights */
	float* acc;           /* weighted colour (3 per pixel) or weighted scalar (1 per pixel) */
	uint8_t* rgb;
	/* 3D: allocated by the first 3D frame */
	pdl_view3 view;
	float* depth;         /* per pixel: view depth of the nearest sphere surface, world units */
	int32_t* hit;         /* per pixel: index of that sphere's particle, -1 for none */
	float* projected;     /* per particle: pixel x, y, view depth, pixel radius (0: not drawn) */
	int projected_capacity;
	pdl_sphere_size sphere_size[PDL_MAX_MATERIALS];
	/* 3D with def.liquid (render_liquid.c), per pixel: the smoothed depth and the pass between,
	 * the fluid's thickness (world units) and its colour weighted by it (3 per pixel), and the
	 * picture without the fluid (3 per pixel) with its depth, and 1 where that picture shows a
	 * body (0 elsewhere: the waterline's mask). liquid_tmp is free once the depth is smoothed;
	 * the foam pass then keeps in it the share of light the foam lets through. */
	float *liquid_depth, *liquid_tmp, *liquid_thick, *liquid_tint, *liquid_bg, *liquid_bg_depth, *liquid_body;
	float* liquid_tmp4; /* the thickness and colour between their two blur passes, 4 per pixel */
};

/* Draws a 3D world (render3d.c); NULL if out of memory. */
const uint8_t* pdl_render_3d(pdl_renderer* renderer, const pdl_world* world);
/* Sets renderer->view from def.camera and the picture size (render_view.c). */
void pdl_render_3d_setup(pdl_renderer* renderer);
/* Frees the 3D buffers (render3d.c). */
void pdl_render_3d_free(pdl_renderer* renderer);
/* The ray through pixel (x, y) (pixel centres at + 0.5): its f component is 1, so eye + t ray
 * is the point at view depth t (render_view.c). */
pdl_vec3 pdl_render_pixel_ray(const pdl_renderer* renderer, float x, float y);

/* ---- colours ------------------------------------------------------------------------------------ */

typedef struct rgbf {
	float r, g, b;
} rgbf;

static inline rgbf unpack(uint32_t c)
{
	return (rgbf){(float)((c >> 16) & 255) / 255.0f, (float)((c >> 8) & 255) / 255.0f, (float)(c & 255) / 255.0f};
}

static inline rgbf mix(rgbf a, rgbf b, float t)
{
	return (rgbf){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/* A perceptually ordered ramp, dark blue - teal - green - yellow - red, for scalar modes. */
static inline rgbf ramp(float t)
{
	static const float stops[5][3] = {
		{0.17f, 0.20f, 0.55f}, {0.13f, 0.56f, 0.69f}, {0.35f, 0.78f, 0.40f}, {0.97f, 0.83f, 0.25f}, {0.89f, 0.26f, 0.20f}};
	if (!(t > 0)) t = 0;
	if (t > 1) t = 1;
	float x = t * 4.0f;
	int i = (int)x;
	if (i > 3) i = 3;
	float u = x - (float)i;
	rgbf a = {stops[i][0], stops[i][1], stops[i][2]}, b = {stops[i + 1][0], stops[i + 1][1], stops[i + 1][2]};
	return mix(a, b, u);
}

static inline uint8_t to_byte(float v)
{
	if (!(v > 0)) return 0;
	if (v >= 1) return 255;
	return (uint8_t)(v * 255.0f + 0.5f);
}

/* The value a scalar colour mode shows for particle i (speed counts vz in 3D worlds). */
static inline float scalar_of(const pdl_particle_data* p, pdl_color_mode mode, int i)
{
	switch (mode) {
	case PDL_COLOR_SPEED:
		if (p->vz) return sqrtf(p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + p->vz[i] * p->vz[i]);
		return sqrtf(p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i]);
	case PDL_COLOR_DENSITY: return p->density ? p->density[i] : 0;
	case PDL_COLOR_PRESSURE: return p->pressure ? p->pressure[i] : 0;
	default: return 0;
	}
}

/* The ramp's range: the def's, or this frame's smallest and largest value (speed from 0). */
static inline void scalar_range(const pdl_render_def* d, const pdl_particle_data* p, float* lo, float* hi)
{
	if (d->color_max != d->color_min) {
		*lo = d->color_min, *hi = d->color_max;
		return;
	}
	float a = INFINITY, b = -INFINITY;
	for (int i = 0; i < p->count; ++i) {
		float v = scalar_of(p, d->color_mode, i);
		if (!isfinite(v)) continue;
		a = fminf(a, v), b = fmaxf(b, v);
	}
	if (d->color_mode == PDL_COLOR_SPEED) a = 0;
	if (!(b > a)) b = a + 1;
	*lo = a, *hi = b;
}

/* ---- the liquid look (render_liquid.c) ------------------------------------------------------------ */

/* A band of rows of a liquid pass; radius: the particles' sphere radius, world units. The foam
 * pass also reads the particles, each material's sphere radius (world units) and the rest
 * density its particles' density is measured against (pdl_liquid_foam_rest). */
typedef struct liquid_job {
	const pdl_renderer* r;
	float radius;
	int from, to;
	const pdl_particle_data* p;
	const float* sphere_radius;
	const float* rest;
	const pdl_diffuse_data* diffuse; /* the world's spray, foam and bubbles (count 0: none) */
} liquid_job;

/* The light and sky the water reflects. */
typedef struct liquid_light {
	pdl_vec3 direction;    /* towards the light, world space, unit */
	rgbf horizon, zenith;  /* the sky along a level and an upward ray */
} liquid_light;

/* The light and sky of the look (shaders/liquid/look.h) for a view and a background colour. */
liquid_light pdl_liquid_light(const pdl_view3* view, rgbf background);

/* The bilateral filter of the depth: along rows (depth into liquid_tmp), then along columns
 * (liquid_tmp into liquid_depth); run_bands jobs of liquid_job, the second after the first. */
void* pdl_liquid_blur_rows(void* job);
void* pdl_liquid_blur_columns(void* job);
/* The colour of the water at pixel (x, y), where liquid_depth is finite and nearer than
 * liquid_bg_depth. */
rgbf pdl_liquid_color(const pdl_renderer* r, const liquid_light* light, int x, int y, float radius);
/* Each material's rest density as the world's solver measures density (pdl_world_rest_density),
 * into rest[PDL_MAX_MATERIALS]; 0 for materials the world does not have. */
void pdl_liquid_foam_rest(const pdl_world* world, float* rest);
/* Foam over rows [from, to) into liquid_tmp, after the smoothing and the background pass (its
 * depth hides foam); a liquid_job. Does nothing when def.foam_speed is not > 0. */
void* pdl_liquid_foam(void* job);
/* The shaded colour c at pixel `at` with the foam over it. */
rgbf pdl_liquid_foam_over(const pdl_renderer* r, size_t at, rgbf c);

/* ---- bodies ------------------------------------------------------------------------------------- */

/* What a picture needs of the world's rigid bodies: their defs in slot order, and for each band
 * of rows a scratch list of body indices (the bodies that reach its current row), `bands`
 * lists of count + 1 ints one after the other. */
typedef struct render_bodies {
	int count;
	pdl_body_def* defs;
	int* active;
} render_bodies;

/* false if out of memory (then nothing is held) */
static inline bool render_bodies_get(const pdl_world* w, int bands, render_bodies* out)
{
	out->count = pdl_world_bodies(w, NULL, 0);
	size_t n = (size_t)out->count + 1;
	pdl_body_id* ids = malloc(n * sizeof *ids);
	out->defs = malloc(n * sizeof *out->defs);
	out->active = malloc((size_t)bands * n * sizeof *out->active);
	bool ok = ids && out->defs && out->active;
	if (ok) pdl_world_bodies(w, ids, out->count);
	for (int k = 0; ok && k < out->count; ++k) pdl_world_get_body(w, ids[k], &out->defs[k]);
	free(ids);
	if (!ok) free(out->defs), free(out->active);
	return ok;
}

static inline void render_bodies_free(render_bodies* b) { free(b->defs), free(b->active); }

/* ---- threads ------------------------------------------------------------------------------------ */

/* How many bands of rows the def's thread count gives for this picture. */
static inline int render_bands(const pdl_render_def* d)
{
	int bands = d->threads < 1 ? 1 : d->threads > PDL_RENDER_MAX_THREADS ? PDL_RENDER_MAX_THREADS : d->threads;
	if (bands > d->height) bands = d->height;
	return bands;
}

/* Runs fn on every job (jobs is an array of `bands` jobs of job_size bytes), job 0 on this
 * thread; falls back to this thread alone if a thread cannot be started (the result is the same
 * either way, since every job writes only its own rows or particles). */
static inline void run_bands(void* jobs, size_t job_size, int bands, void* (*fn)(void*))
{
	pthread_t threads[PDL_RENDER_MAX_THREADS];
	bool started[PDL_RENDER_MAX_THREADS] = {false};
	char* at = jobs;
	for (int b = 1; b < bands; ++b) started[b] = pthread_create(&threads[b], NULL, fn, at + (size_t)b * job_size) == 0;
	fn(at);
	for (int b = 1; b < bands; ++b) {
		if (started[b]) pthread_join(threads[b], NULL);
		else fn(at + (size_t)b * job_size);
	}
}

#endif
