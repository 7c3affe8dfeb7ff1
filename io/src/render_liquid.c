/* The liquid look of 3D pictures (render.h, pdl_render_def.liquid): screen-space fluid rendering
 * in software, the same steps a GPU takes (van der Laan, Green & Sainz 2009, "Screen Space Fluid
 * Rendering with Curvature Flow"), so the command line's pictures look like the viewer's and the
 * page's without a display or a GPU:
 *
 *   1. depth       the particles' spheres, nearest front surface per pixel (render3d.c's pass 2),
 *                  with their thickness (the chord through each sphere, summed) and their colour
 *                  weighted by it
 *   2. smoothing   a separable bilateral filter of that depth (rows, then columns): the spheres'
 *                  bumps melt into one surface while a nearer sheet stays in front of a farther
 *                  one (the filter ignores depths more than a few radii away)
 *   3. normals     from the smoothed depth, by the smaller one-sided difference (no halo at the
 *                  silhouette)
 *   4. shading     Fresnel (Schlick) between the refraction of what lies behind the water (the
 *                  picture without the fluid, sampled off by the normal) and the reflection of a
 *                  sky, Beer-Lambert absorption through the thickness in the fluid's own colour,
 *                  a highlight, and the waterline where the surface meets a body
 *   5. foam        fast particles with little fluid around them as small white discs over the
 *                  shaded water, hidden by what is nearer (the spheres' depth and the scenery's),
 *                  with the rule and constants of web/demo/liquid.js and the viewer's
 *                  liquid_gl.c, so the three show the same spray
 *
 * Every pass writes only its band of rows and reads the previous pass's whole buffer, so the
 * picture is the same for any thread count. */
#include "render_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The look's constants, shared with the viewer's and the page's shaders (shaders/liquid/). */
#include "../../shaders/liquid/look.h"
#include "../../src/vec.h"

/* Blur radius in particle radii (projected), and the pixels it may take at most. */
#define BLUR_RADII ((float)PDL_LIQUID_FILTER_RADII)
#define BLUR_MAX_PIXELS 48
/* Depth differences beyond this many particle radii are not blended (a front sheet stays), and
 * beyond this many pixel widths per pixel of distance (the slope of a surface seen obliquely). */
#define BLUR_DEPTH_RADII ((float)PDL_LIQUID_FILTER_RANGE_RADII)
#define BLUR_SLOPE ((float)PDL_LIQUID_FILTER_SLOPE)
static const rgbf foam_color = {PDL_LIQUID_FOAM_COLOR};
static const rgbf waterline_color = {PDL_LIQUID_WATERLINE_COLOR};
static const rgbf sky_blue = {PDL_LIQUID_SKY_BLUE};

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The Gaussian's weights along the filter, exp(-k^2 / (2 sigma^2)) with sigma = reach / 2, for
 * every reach: [reach][|k|]. */
typedef struct spatial_weights {
	float w[BLUR_MAX_PIXELS + 1][BLUR_MAX_PIXELS + 1];
} spatial_weights;

static void spatial_weights_init(spatial_weights* t)
{
	for (int reach = 1; reach <= BLUR_MAX_PIXELS; ++reach)
		for (int k = 0; k <= reach; ++k) t->w[reach][k] = expf(-2.0f * (float)(k * k) / (float)(reach * reach));
}

/* The blur's reach at view depth d, pixels. */
static int reach_at(const liquid_job* job, float d)
{
	return (int)clampf(BLUR_RADII * job->radius * job->r->view.focal / d, 1, BLUR_MAX_PIXELS);
}

/* Where the spheres of a sheet leave a gap narrower than a sphere, the water behind shows
 * through it: a pixel or two several radii deeper than the sheet around it, which the filter's
 * depth range keeps apart, and whose normal (from the step to the sheet) faces sideways, so the
 * pixel shows the reflected sky, grey among blue. The sheet goes on across such a gap: if along
 * the pass there is on both sides, within a sphere's projected radius, a sample nearer than d0
 * by more than the depth range, and the two agree, the pixel's depth is their interpolation. */
static float across_gap(const float* in, int w, int h, int x, int y, bool along_y, float d0, float range,
                        float slope, int gap)
{
	int found[2] = {0, 0};
	float depth[2] = {0, 0};
	for (int side = 0; side < 2; ++side)
		for (int k = 1; k <= gap; ++k) {
			int kk = side ? k : -k, xx = along_y ? x : x + kk, yy = along_y ? y + kk : y;
			if (xx < 0 || xx >= w || yy < 0 || yy >= h) break;
			float d = in[(size_t)yy * (size_t)w + (size_t)xx];
			if (d < d0 - range - slope * (float)k) {
				found[side] = k, depth[side] = d;
				break;
			}
		}
	/* both sides of one sheet, not a nearer sheet on one side and a drop on the other */
	if (!found[0] || !found[1] || !(fabsf(depth[1] - depth[0]) <= range + slope * (float)(found[0] + found[1])))
		return d0;
	return depth[0] + (depth[1] - depth[0]) * (float)found[0] / (float)(found[0] + found[1]);
}

/* One pass of the separable bilateral filter over rows [from, to): along x (from depth into
 * tmp) or along y (from tmp into smooth). The pixel's depth is the weighted least-squares line
 * through the samples the filter keeps, taken at the pixel (local linear regression). A plain
 * weighted mean moves a sloped surface towards the side of a cut-off window (a silhouette, a
 * nearer sheet, the water's edge) that has more samples; the cut wanders from column to column
 * with the spheres' outline, so the column pass gave each column its own offset, up to a tenth
 * of a unit on drop-3d, and the normals vertical streaks. A window whole on both sides gives
 * the weighted mean, as before. */
static void blur_pass(const liquid_job* job, const spatial_weights* table, bool along_y)
{
	const pdl_renderer* r = job->r;
	const int w = r->def.width, h = r->def.height;
	const float* in = along_y ? r->liquid_tmp : r->depth;
	float* out = along_y ? r->liquid_depth : r->liquid_tmp;
	const float depth_sigma = BLUR_DEPTH_RADII * job->radius;
	const float inv_2sz = 1.0f / (2 * depth_sigma * depth_sigma);
	for (int y = job->from; y < job->to; ++y)
		for (int x = 0; x < w; ++x) {
			size_t at = (size_t)y * (size_t)w + (size_t)x;
			float d0 = in[at];
			if (!(d0 < INFINITY)) {
				out[at] = INFINITY;
				continue;
			}
			/* a surface seen at a grazing angle changes depth by several pixels' widths per pixel:
			 * the depth range allowed grows with the distance, or such surfaces would keep their
			 * bumps along the screen's y (streaks) */
			const float slope = BLUR_SLOPE * d0 / r->view.focal;
			const int gap = (int)fminf(ceilf(job->radius * r->view.focal / d0), (float)reach_at(job, d0));
			d0 = across_gap(in, w, h, x, y, along_y, d0, depth_sigma, slope, gap);
			const int reach = reach_at(job, d0);
			const float* spatial = table->w[reach];
			/* sums of the weights wk, wk k, wk k^2, wk (d - d0), wk k (d - d0) */
			float s0 = 0, s1 = 0, s2 = 0, t0 = 0, t1 = 0;
			for (int k = -reach; k <= reach; ++k) {
				int xx = along_y ? x : x + k, yy = along_y ? y + k : y;
				if (xx < 0 || xx >= w || yy < 0 || yy >= h) continue;
				float d = in[(size_t)yy * (size_t)w + (size_t)xx];
				if (!(d < INFINITY)) continue;
				float dd = fmaxf(0.0f, fabsf(d - d0) - slope * (float)abs(k));
				float wk = spatial[abs(k)];
				if (dd > 0) wk *= expf(-dd * dd * inv_2sz);
				const float fk = (float)k, e = d - d0;
				s0 += wk, s1 += wk * fk, s2 += wk * fk * fk, t0 += wk * e, t1 += wk * fk * e;
			}
			/* a line needs samples in two places; else (one pixel's worth) the mean */
			const float det = s0 * s2 - s1 * s1;
			out[at] = d0 + (det > 1e-3f * s0 * s2 ? (t0 * s2 - s1 * t1) / det : t0 / s0);
		}
}

/* A plain Gaussian of the thickness and the weighted colour (4 values a pixel), with the
 * depth's reach: the sum of sphere chords is grainy, the light through water is not. Rows:
 * from liquid_thick/liquid_tint into liquid_tmp4; columns: back. */
static void blur_thickness(const liquid_job* job, const spatial_weights* table, bool along_y)
{
	const pdl_renderer* r = job->r;
	const int w = r->def.width, h = r->def.height;
	for (int y = job->from; y < job->to; ++y)
		for (int x = 0; x < w; ++x) {
			size_t at = (size_t)y * (size_t)w + (size_t)x;
			float* out = along_y ? NULL : r->liquid_tmp4 + 4 * at;
			float sum[4] = {0, 0, 0, 0}, weight = 0;
			float d0 = r->depth[at];
			/* half the depth's reach: the thickness only has to lose the spheres' grain */
			const int reach = d0 < INFINITY ? (reach_at(job, d0) + 1) / 2 : 1;
			const float* spatial = table->w[reach];
			for (int k = -reach; k <= reach; ++k) {
				int xx = along_y ? x : x + k, yy = along_y ? y + k : y;
				if (xx < 0 || xx >= w || yy < 0 || yy >= h) continue;
				size_t from = (size_t)yy * (size_t)w + (size_t)xx;
				float wk = spatial[abs(k)], v[4];
				if (along_y) {
					memcpy(v, r->liquid_tmp4 + 4 * from, sizeof v);
				} else {
					v[0] = r->liquid_thick[from];
					memcpy(v + 1, r->liquid_tint + 3 * from, 3 * sizeof v[0]);
				}
				for (int c = 0; c < 4; ++c) sum[c] += wk * v[c];
				weight += wk;
			}
			if (along_y) {
				r->liquid_thick[at] = sum[0] / weight;
				for (int c = 0; c < 3; ++c) r->liquid_tint[3 * at + (size_t)c] = sum[1 + c] / weight;
			} else {
				for (int c = 0; c < 4; ++c) out[c] = sum[c] / weight;
			}
		}
}

static void* blur(void* arg, bool along_y)
{
	spatial_weights table; /* 4 kB */
	spatial_weights_init(&table);
	blur_pass(arg, &table, along_y);
	blur_thickness(arg, &table, along_y);
	return NULL;
}

void* pdl_liquid_blur_rows(void* arg) { return blur(arg, false); }

void* pdl_liquid_blur_columns(void* arg) { return blur(arg, true); }

/* The world position the smoothed depth puts at pixel (x, y): eye + depth * its ray. */
static pdl_vec3 position_at(const pdl_renderer* r, int x, int y, float depth)
{
	pdl_vec3 d = pdl_render_pixel_ray(r, (float)x + 0.5f, (float)y + 0.5f);
	const pdl_vec3 e = r->view.eye;
	return (pdl_vec3){e.x + depth * d.x, e.y + depth * d.y, e.z + depth * d.z};
}

/* The step to the neighbour along x (dx = 1) or y (dy = 1) whose depth differs least: the
 * surface's tangent there, not the jump to whatever lies behind its edge. */
static bool tangent(const pdl_renderer* r, int x, int y, int dx, int dy, pdl_vec3 p, float d0, pdl_vec3* t)
{
	const int w = r->def.width, h = r->def.height;
	float best = INFINITY;
	for (int s = -1; s <= 1; s += 2) {
		int xx = x + s * dx, yy = y + s * dy;
		if (xx < 0 || xx >= w || yy < 0 || yy >= h) continue;
		float d = r->liquid_depth[(size_t)yy * (size_t)w + (size_t)xx];
		if (!(d < INFINITY) || !(fabsf(d - d0) < best)) continue;
		best = fabsf(d - d0);
		pdl_vec3 q = position_at(r, xx, yy, d);
		*t = (pdl_vec3){(q.x - p.x) * (float)s, (q.y - p.y) * (float)s, (q.z - p.z) * (float)s};
	}
	return best < INFINITY;
}

rgbf pdl_liquid_color(const pdl_renderer* r, const liquid_light* light, int x, int y, float radius)
{
	const int w = r->def.width, h = r->def.height;
	const size_t at = (size_t)y * (size_t)w + (size_t)x;
	const float d0 = r->liquid_depth[at];
	pdl_vec3 dir = pdl_v3_unit(pdl_render_pixel_ray(r, (float)x + 0.5f, (float)y + 0.5f));
	pdl_vec3 p = position_at(r, x, y, d0), tx = {0, 0, 0}, ty = {0, 0, 0}, n;
	bool has_x = tangent(r, x, y, 1, 0, p, d0, &tx), has_y = tangent(r, x, y, 0, 1, p, d0, &ty);
	if (has_x && has_y) {
		/* x right, y down on the screen: tx x ty points away from the viewer; flip to face it */
		n = pdl_v3_unit((pdl_vec3){tx.y * ty.z - tx.z * ty.y, tx.z * ty.x - tx.x * ty.z, tx.x * ty.y - tx.y * ty.x});
		if (pdl_v3_dot(n, dir) > 0) n = (pdl_vec3){-n.x, -n.y, -n.z};
	} else {
		n = (pdl_vec3){-dir.x, -dir.y, -dir.z}; /* a lone pixel faces the viewer */
	}
	/* what the water shows: the refracted background, absorbed through its thickness */
	const float thick = fmaxf(r->liquid_thick[at], 1e-6f * radius);
	const float tint_r = r->liquid_tint[3 * at] / thick, tint_g = r->liquid_tint[3 * at + 1] / thick,
	            tint_b = r->liquid_tint[3 * at + 2] / thick;
	const pdl_view3* v = &r->view;
	const float radii = thick / radius;
	float slope_x = pdl_v3_dot(n, v->r), slope_y = pdl_v3_dot(n, v->u); /* the normal's screen components */
	float shift = (float)PDL_LIQUID_REFRACT * fminf(radii, (float)PDL_LIQUID_REFRACT_MAX_RADII) * radius * v->focal / d0; /* pixels */
	int sx = (int)clampf((float)x + 0.5f - slope_x * shift, 0, (float)(w - 1));
	int sy = (int)clampf((float)y + 0.5f + slope_y * shift, 0, (float)(h - 1));
	size_t behind = (size_t)sy * (size_t)w + (size_t)sx;
	if (!(r->liquid_bg_depth[behind] > d0)) behind = at; /* that pixel shows something in front */
	rgbf bg = {r->liquid_bg[3 * behind], r->liquid_bg[3 * behind + 1], r->liquid_bg[3 * behind + 2]};
	const float absorb = (float)PDL_LIQUID_ABSORB, grey = (float)PDL_LIQUID_ABSORB_GREY;
	const float scatter = (float)PDL_LIQUID_SCATTER;
	float tr = expf(-(absorb * (1 - tint_r) + grey) * radii);
	float tg = expf(-(absorb * (1 - tint_g) + grey) * radii);
	float tb = expf(-(absorb * (1 - tint_b) + grey) * radii);
	rgbf refracted = {bg.r * tr + scatter * tint_r * (1 - tr), bg.g * tg + scatter * tint_g * (1 - tg),
	                  bg.b * tb + scatter * tint_b * (1 - tb)};
	/* what it reflects: the sky along the mirrored ray */
	const float f0 = (float)PDL_LIQUID_F0;
	float cosine = fmaxf(0.0f, -pdl_v3_dot(n, dir)), c5 = 1 - cosine;
	float fresnel = f0 + (1 - f0) * c5 * c5 * c5 * c5 * c5;
	float along = 2 * pdl_v3_dot(n, dir);
	pdl_vec3 mirrored = {dir.x - along * n.x, dir.y - along * n.y, dir.z - along * n.z};
	rgbf sky = mix(light->horizon, light->zenith, clampf(mirrored.y, 0, 1));
	rgbf c = mix(refracted, sky, fresnel);
	/* the light's highlight (Blinn-Phong, the half vector of the light and the eye) */
	pdl_vec3 half = pdl_v3_unit((pdl_vec3){light->direction.x - dir.x, light->direction.y - dir.y, light->direction.z - dir.z});
	float spec = (float)PDL_LIQUID_SPECULAR * powf(fmaxf(0.0f, pdl_v3_dot(n, half)), (float)PDL_LIQUID_SHININESS);
	c = (rgbf){c.r + spec, c.g + spec, c.b + spec};
	/* the edge follows the thickness, not the spheres' rims (smoothstep, as the shader) */
	const float lo = (float)PDL_LIQUID_EDGE_LO_RADII, hi = (float)PDL_LIQUID_EDGE_HI_RADII;
	const float e = clampf((radii - lo) / (hi - lo), 0, 1), cover = e * e * (3 - 2 * e);
	const rgbf here = {r->liquid_bg[3 * at], r->liquid_bg[3 * at + 1], r->liquid_bg[3 * at + 2]};
	c = mix(here, c, cover);
	/* the waterline: on a body, where the surface is within WATERLINE radii in front of it
	 * (composite.frag.glsl) */
	if (r->liquid_body[at] > 0) {
		const float gap = clampf((r->liquid_bg_depth[at] - d0) / (radius * (float)PDL_LIQUID_WATERLINE_RADII), 0, 1);
		const float line = 1 - gap * gap * (3 - 2 * gap); /* 1 - smoothstep(0, WATERLINE, gap) */
		c = mix(c, waterline_color, (float)PDL_LIQUID_WATERLINE_ALPHA * line);
	}
	return c;
}

/* The light the water reflects, from the scene's background colour (look.h). */
liquid_light pdl_liquid_light(const pdl_view3* v, rgbf background)
{
	const pdl_vec3 l = pdl_v3_unit((pdl_vec3){PDL_LIQUID_LIGHT});
	liquid_light light;
	light.direction = pdl_v3_unit((pdl_vec3){l.x * v->r.x + l.y * v->u.x - l.z * v->f.x, l.x * v->r.y + l.y * v->u.y - l.z * v->f.y,
	                                  l.x * v->r.z + l.y * v->u.z - l.z * v->f.z});
	const rgbf white = {1, 1, 1};
	light.horizon = mix(background, white, (float)PDL_LIQUID_SKY_HORIZON_WHITE);
	light.zenith = mix(background, sky_blue, (float)PDL_LIQUID_SKY_ZENITH_BLUE);
	return light;
}

/* ---- foam ------------------------------------------------------------------------------------ */

void pdl_liquid_foam_rest(const pdl_world* world, float* rest)
{
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) rest[m] = pdl_world_rest_density(world, m); /* 0 past the last */
}

/* How far particle i is past both foam thresholds (> 0: foam), as liquid.js's point shader:
 * min(speed / foam_speed - 1, 2 (1 - density / (foam_density rest))). Speed says the particle
 * has the kinetic energy to leave the water, the missing density that it has left it (few
 * neighbours): the two cues Ihmsen, Akinci, Akinci & Teschner 2012 ("Unified spray, foam and
 * air bubbles for particle-based fluids", The Visual Computer 28) use to make and to classify
 * spray, applied here to the fluid's own particles instead of extra diffuse ones. Lonely counts
 * twice: it is at most 1, while fast grows with the speed. */
static float foam_amount(const liquid_job* job, int i)
{
	const pdl_particle_data* p = job->p;
	const pdl_render_def* d = &job->r->def;
	float rest = job->rest[p->material[i] % PDL_MAX_MATERIALS];
	if (!(rest > 0)) return 0;
	float speed = sqrtf(p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i] + p->vz[i] * p->vz[i]);
	float fast = speed / d->foam_speed - 1;
	float lonely = 1 - p->density[i] / (d->foam_density * rest);
	if (!(fast > 0) || !(lonely > 0)) return 0; /* also NaN (fminf would return the other one) */
	return fminf(fast, 2 * lonely);
}

static bool foam_on(const pdl_render_def* d) { return d->foam_speed > 0 && d->foam_speed < INFINITY; }

/* A white disc of radius rad pixels at (cx, cy), view depth z, alpha at its centre, into the
 * light let through of rows [row0, row1); hidden where a sphere or the scenery is nearer. */
static void foam_disc(const pdl_renderer* r, float* through, int row0, int row1, float cx, float cy, float rad,
                      float z, float alpha)
{
	const int w = r->def.width;
	int y0 = (int)floorf(cy - rad), y1 = (int)ceilf(cy + rad);
	if (y1 < row0 || y0 >= row1) return;
	if (y0 < row0) y0 = row0;
	if (y1 > row1 - 1) y1 = row1 - 1;
	const float inv_r2 = 1.0f / (rad * rad);
	for (int y = y0; y <= y1; ++y) {
		const float dy = (float)y + 0.5f - cy;
		int x0 = (int)floorf(cx - rad), x1 = (int)ceilf(cx + rad);
		if (x0 < 0) x0 = 0;
		if (x1 > w - 1) x1 = w - 1;
		for (int x = x0; x <= x1; ++x) {
			const float dx = (float)x + 0.5f - cx, q2 = (dx * dx + dy * dy) * inv_r2;
			if (q2 >= 1) continue;
			const size_t at = (size_t)y * (size_t)w + (size_t)x;
			/* the depth test: the nearest sphere and the scenery, as the GPU's depth buffer holds
			 * both */
			if (!(z <= r->depth[at]) || !(z < r->liquid_bg_depth[at])) continue;
			through[at] *= 1 - alpha * (1 - q2);
		}
	}
}

/* The world's diffuse particles (src/diffuse.c) as white discs (look.h, PDL_LIQUID_DIFFUSE_*). */
static void diffuse_discs(const liquid_job* job, float* through)
{
	const pdl_renderer* r = job->r;
	const pdl_diffuse_data* d = job->diffuse;
	if (!d || d->count == 0) return;
	const float world_radius = (float)PDL_LIQUID_DIFFUSE_SIZE * job->radius;
	const float lift = (float)PDL_LIQUID_DIFFUSE_LIFT * job->radius;
	for (int i = 0; i < d->count; ++i) {
		pdl_vec3 q = pdl_render_project(r, (pdl_vec3){d->x[i], d->y[i], d->z[i]});
		if (!(q.z > r->view.near + lift) || !isfinite(q.x) || !isfinite(q.y)) continue;
		const float rad = fmaxf(0.5f, world_radius * r->view.focal / q.z);
		float alpha;
		bool bubble = d->kind[i] == PDL_DIFFUSE_BUBBLE;
		if (bubble) alpha = (float)PDL_LIQUID_BUBBLE_ALPHA;
		else if (d->kind[i] == PDL_DIFFUSE_SPRAY) alpha = (float)PDL_LIQUID_SPRAY_ALPHA;
		else alpha = (float)PDL_LIQUID_DIFFUSE_FOAM_ALPHA * clampf(d->life[i] / (float)PDL_LIQUID_DIFFUSE_FADE, 0, 1);
		foam_disc(r, through, job->from, job->to, q.x, q.y, rad, bubble ? q.z : q.z - lift, alpha);
	}
}

void* pdl_liquid_foam(void* arg)
{
	const liquid_job* job = arg;
	const pdl_renderer* r = job->r;
	if (!foam_on(&r->def) && !r->def.diffuse) return NULL;
	const int w = r->def.width, row0 = job->from, row1 = job->to;
	/* the light the foam lets through, per pixel: discs of one colour blended over one another
	 * (alpha over) give 1 - prod(1 - a), whatever their order, so the bands need no sorting */
	float* through = r->liquid_tmp;
	for (size_t k = (size_t)row0 * (size_t)w; k < (size_t)row1 * (size_t)w; ++k) through[k] = 1;
	if (r->def.diffuse) diffuse_discs(job, through);
	const pdl_particle_data* p = job->p;
	if (!foam_on(&r->def) || !p->density || !p->vz) return NULL;
	for (int i = 0; i < p->count; ++i) {
		const float* q = r->projected + 4 * (size_t)i;
		if (q[3] <= 0) continue;
		const float cx = q[0], cy = q[1], rad = fmaxf(0.5f, (float)PDL_LIQUID_FOAM_SIZE * q[3]);
		if ((int)ceilf(cy + rad) < row0 || (int)floorf(cy - rad) >= row1) continue;
		const float amount = foam_amount(job, i);
		if (!(amount > 0)) continue;
		const float alpha = (float)PDL_LIQUID_FOAM_ALPHA * fminf(1.0f, 3 * amount); /* liquid.js: clamp(f * 3, 0, 1) */
		const float z = q[2] - (float)PDL_LIQUID_FOAM_LIFT * job->sphere_radius[p->material[i] % PDL_MAX_MATERIALS];
		/* (this sphere's own front is farther than z) */
		foam_disc(r, through, row0, row1, cx, cy, rad, z, alpha);
	}
	return NULL;
}

rgbf pdl_liquid_foam_over(const pdl_renderer* r, size_t at, rgbf c)
{
	if (!foam_on(&r->def) && !r->def.diffuse) return c;
	/* in this form no foam (1) leaves the colour exactly as it was */
	const float t = r->liquid_tmp[at], a = 1 - t;
	return (rgbf){c.r * t + foam_color.r * a, c.g * t + foam_color.g * a, c.b * t + foam_color.b * a};
}
