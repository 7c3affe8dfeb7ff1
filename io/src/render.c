/* The software renderer of 2D worlds: splat, threshold, anti-alias, draw walls (see render.h);
 * 3D worlds are drawn by render3d.c. */
#include "render_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../../shaders/liquid/look.h"


/* The camera 3D pictures of a scene are seen through: the scene's "camera" object, its missing
 * keys filled from pdl_camera_framing of the 3D bounds when the scene was loaded. */
static pdl_camera scene_camera(const pdl_scene* s) { return s->camera; }

pdl_render_def pdl_render_def_from_scene(const pdl_scene* s)
{
	pdl_render_def d;
	memset(&d, 0, sizeof d);
	d.width = s->output.width;
	d.height = s->output.height;
	d.view_min = (pdl_vec2){s->bounds_min.x, s->bounds_min.y}; /* x, y of the 3D bounds */
	d.view_max = (pdl_vec2){s->bounds_max.x, s->bounds_max.y};
	d.color_mode = s->output.color_mode;
	d.blob_radius = s->output.blob_radius;
	d.threshold = s->output.threshold;
	d.color_min = s->output.color_min;
	d.color_max = s->output.color_max;
	d.background = s->output.background;
	d.wall_color = s->output.wall_color;
	d.obstacle_color = s->output.obstacle_color;
	d.threads = 1;
	for (int i = 0; i < PDL_MAX_MATERIALS; ++i)
		d.material_colors[i] = i < s->material_count ? s->materials[i].def.color : 0xffffff;
	d.camera = scene_camera(s);
	d.liquid = s->world.dimensions == 3;
	/* the look's (shaders/liquid/look.h), as the viewer and the page draw foam */
	d.foam_speed = (float)PDL_LIQUID_FOAM_SPEED, d.foam_density = (float)PDL_LIQUID_FOAM_DENSITY;
	d.diffuse = true;
	return d;
}

pdl_renderer* pdl_renderer_create(const pdl_render_def* def)
{
	if (!def || def->width < 1 || def->height < 1 || def->width > 16384 || def->height > 16384) return NULL;
	pdl_renderer* r = calloc(1, sizeof *r);
	if (!r) return NULL;
	r->def = *def;
	size_t n = (size_t)def->width * (size_t)def->height;
	r->field = malloc(n * sizeof *r->field);
	r->acc = malloc(3 * n * sizeof *r->acc);
	r->rgb = malloc(3 * n);
	if (!r->field || !r->acc || !r->rgb) {
		pdl_renderer_destroy(r);
		return NULL;
	}
	float vw = def->view_max.x - def->view_min.x, vh = def->view_max.y - def->view_min.y;
	if (!(vw > 0)) vw = 1;
	if (!(vh > 0)) vh = 1;
	r->scale = fminf((float)def->width / vw, (float)def->height / vh);
	r->cx = 0.5f * (def->view_min.x + def->view_max.x);
	r->cy = 0.5f * (def->view_min.y + def->view_max.y);
	pdl_render_3d_setup(r);
	return r;
}

void pdl_renderer_destroy(pdl_renderer* r)
{
	if (!r) return;
	free(r->field);
	free(r->acc);
	free(r->rgb);
	pdl_render_3d_free(r);
	free(r);
}

pdl_vec2 pdl_render_to_pixel(const pdl_renderer* r, pdl_vec2 p)
{
	return (pdl_vec2){(p.x - r->cx) * r->scale + 0.5f * (float)r->def.width,
	                  0.5f * (float)r->def.height - (p.y - r->cy) * r->scale};
}

float pdl_render_field(const pdl_renderer* r, int x, int y)
{
	if (!r || x < 0 || y < 0 || x >= r->def.width || y >= r->def.height) return 0;
	return r->field[(size_t)y * (size_t)r->def.width + (size_t)x];
}

/* ---- the fluid ----------------------------------------------------------------------------------- */

/* Adds every particle's splat to the rows [row0, row1) of the field. Each band of rows belongs
 * to one thread, so no two threads write the same pixel and the sums are the same for any thread
 * count (every pixel adds its particles in storage order). */
static void splat(pdl_renderer* r, const pdl_particle_data* p, int row0, int row1)
{
	const pdl_render_def* d = &r->def;
	int w = d->width;
	bool by_material = d->color_mode == PDL_COLOR_MATERIAL;
	size_t rows = (size_t)(row1 - row0) * (size_t)w;
	memset(r->field + (size_t)row0 * (size_t)w, 0, rows * sizeof *r->field);
	memset(r->acc + (by_material ? 3 : 1) * (size_t)row0 * (size_t)w, 0, (by_material ? 3 : 1) * rows * sizeof *r->acc);
	float radius = d->blob_radius * r->scale, r2 = radius * radius, inv_r2 = 1.0f / r2;
	rgbf colors[PDL_MAX_MATERIALS];
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) colors[m] = unpack(d->material_colors[m]);
	for (int i = 0; i < p->count; ++i) {
		if (!isfinite(p->x[i]) || !isfinite(p->y[i])) continue;
		pdl_vec2 c = pdl_render_to_pixel(r, (pdl_vec2){p->x[i], p->y[i]});
		int y0 = (int)floorf(c.y - radius), y1 = (int)ceilf(c.y + radius);
		if (y1 < row0 || y0 >= row1 || c.x + radius < 0 || c.x - radius > (float)w) continue;
		if (y0 < row0) y0 = row0;
		if (y1 > row1 - 1) y1 = row1 - 1;
		rgbf col = colors[p->material[i] % PDL_MAX_MATERIALS];
		float value = by_material ? 0 : scalar_of(p, d->color_mode, i);
		for (int y = y0; y <= y1; ++y) {
			float dy = ((float)y + 0.5f - c.y), span2 = r2 - dy * dy;
			if (span2 <= 0) continue;
			/* only the pixels of this row inside the disc */
			float span = sqrtf(span2);
			int x0 = (int)floorf(c.x - span), x1 = (int)ceilf(c.x + span);
			if (x0 < 0) x0 = 0;
			if (x1 > w - 1) x1 = w - 1;
			size_t row = (size_t)y * (size_t)w;
			for (int x = x0; x <= x1; ++x) {
				float dx = ((float)x + 0.5f - c.x), q2 = (dx * dx + dy * dy) * inv_r2;
				if (q2 >= 1) continue;
				/* (1 - q^2)^3: smooth, compact, flat at the centre (the poly6 profile) */
				float k = 1 - q2, wgt = k * k * k;
				size_t at = row + (size_t)x;
				r->field[at] += wgt;
				if (by_material) {
					r->acc[3 * at] += wgt * col.r;
					r->acc[3 * at + 1] += wgt * col.g;
					r->acc[3 * at + 2] += wgt * col.b;
				} else {
					r->acc[at] += wgt * value;
				}
			}
		}
	}
}

/* ---- walls ---------------------------------------------------------------------------------------- */

typedef struct shape_px {
	bool container, circle;
	float cx, cy, radius; /* circle, pixels */
	int n;                /* polygon, pixels, counter-clockwise in world = clockwise on screen */
	float px[PDL_MAX_POLYGON_VERTICES], py[PDL_MAX_POLYGON_VERTICES];
	float nx[PDL_MAX_POLYGON_VERTICES], ny[PDL_MAX_POLYGON_VERTICES], off[PDL_MAX_POLYGON_VERTICES];
} shape_px;

/* The polygon with world corners v[0..n) (counter-clockwise) in pixels, with its edges' planes. */
static void polygon_px(const pdl_renderer* r, const pdl_vec2* v, int n, shape_px* s)
{
	s->n = n;
	for (int i = 0; i < s->n; ++i) {
		pdl_vec2 q = pdl_render_to_pixel(r, v[i]);
		s->px[i] = q.x, s->py[i] = q.y;
	}
	/* the y flip turns counter-clockwise into clockwise: outward normal of edge a->b is (-ey, ex) */
	for (int i = 0; i < s->n; ++i) {
		int j = (i + 1) % s->n;
		float ex = s->px[j] - s->px[i], ey = s->py[j] - s->py[i], len = sqrtf(ex * ex + ey * ey);
		if (len <= 0) len = 1;
		s->nx[i] = -ey / len, s->ny[i] = ex / len;
		s->off[i] = s->nx[i] * s->px[i] + s->ny[i] * s->py[i];
	}
}

static shape_px shape_of(const pdl_renderer* r, const pdl_boundary_def* b)
{
	shape_px s;
	memset(&s, 0, sizeof s);
	s.container = b->kind == PDL_BOUNDARY_CIRCLE_CONTAINER || b->kind == PDL_BOUNDARY_BOX_CONTAINER;
	s.circle = b->kind == PDL_BOUNDARY_CIRCLE_CONTAINER || b->kind == PDL_BOUNDARY_CIRCLE;
	if (s.circle) {
		pdl_vec2 c = pdl_render_to_pixel(r, (pdl_vec2){b->position.x, b->position.y});
		s.cx = c.x, s.cy = c.y, s.radius = b->radius * r->scale;
		return s;
	}
	pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
	polygon_px(r, v, pdl_boundary_world_vertices(b, v), &s);
	return s;
}

/* Signed distance in pixels from the shape's surface, positive outside the solid shape. */
static float distance_px(const shape_px* s, float x, float y)
{
	if (s->circle) return sqrtf((x - s->cx) * (x - s->cx) + (y - s->cy) * (y - s->cy)) - s->radius;
	float d = -INFINITY;
	for (int i = 0; i < s->n; ++i) d = fmaxf(d, s->nx[i] * x + s->ny[i] * y - s->off[i]);
	return d;
}

/* ---- bodies --------------------------------------------------------------------------------------- */

/* A rigid body as drawn over the fluid: its shape in pixels, filled with its colour inside a
 * darker outline (so that a body the colour of the fluid still stands out), and for a circle a
 * radius in the outline's colour that shows how far it has turned. */
typedef struct body_px {
	shape_px shape;
	rgbf fill, edge;
	float x0, y0, x1, y1;     /* the pixel box it can colour */
	float mx0, my0, mx1, my1; /* circles: the radius line, pixels */
} body_px;

/* Share of its colour a body's outline keeps. */
#define BODY_EDGE_SHADE 0.45f

static body_px body_of(const pdl_renderer* r, const pdl_body_def* b)
{
	body_px out;
	memset(&out, 0, sizeof out);
	out.fill = unpack(b->color);
	out.edge = (rgbf){BODY_EDGE_SHADE * out.fill.r, BODY_EDGE_SHADE * out.fill.g, BODY_EDGE_SHADE * out.fill.b};
	shape_px* s = &out.shape;
	if (b->shape == PDL_BODY_CIRCLE) {
		s->circle = true;
		pdl_vec2 c = pdl_render_to_pixel(r, (pdl_vec2){b->position.x, b->position.y});
		s->cx = c.x, s->cy = c.y, s->radius = b->radius * r->scale;
		out.x0 = c.x - s->radius, out.x1 = c.x + s->radius, out.y0 = c.y - s->radius, out.y1 = c.y + s->radius;
		/* the body's own x axis; the picture's y runs down */
		out.mx0 = c.x, out.my0 = c.y;
		out.mx1 = c.x + s->radius * cosf(b->angle), out.my1 = c.y - s->radius * sinf(b->angle);
	} else {
		pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
		polygon_px(r, v, pdl_body_world_vertices(b, v), s);
		out.x0 = out.y0 = INFINITY, out.x1 = out.y1 = -INFINITY;
		for (int i = 0; i < s->n; ++i) {
			out.x0 = fminf(out.x0, s->px[i]), out.x1 = fmaxf(out.x1, s->px[i]);
			out.y0 = fminf(out.y0, s->py[i]), out.y1 = fmaxf(out.y1, s->py[i]);
		}
	}
	/* the anti-aliased rim reaches half a pixel out */
	out.x0 -= 1, out.y0 -= 1, out.x1 += 1, out.y1 += 1;
	return out;
}

/* Distance in pixels from (x, y) to the segment (ax, ay) - (bx, by). */
static float segment_distance(float x, float y, float ax, float ay, float bx, float by)
{
	float ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
	float t = len2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / len2 : 0;
	t = fminf(1.0f, fmaxf(0.0f, t));
	float dx = x - (ax + t * ex), dy = y - (ay + t * ey);
	return sqrtf(dx * dx + dy * dy);
}

/* The colour c with body b drawn over it at pixel centre (x, y); the outline is edge_width
 * pixels wide. */
static rgbf draw_body(const body_px* b, float edge_width, float x, float y, rgbf c)
{
	float dist = distance_px(&b->shape, x, y);
	float cover = fminf(1.0f, fmaxf(0.0f, 0.5f - dist));
	if (cover <= 0) return c;
	/* 0 inside the outline, 1 on it, blended across one pixel */
	float on_edge = fminf(1.0f, fmaxf(0.0f, dist + edge_width + 0.5f));
	rgbf body = mix(b->fill, b->edge, on_edge);
	if (b->shape.circle) {
		float d = segment_distance(x, y, b->mx0, b->my0, b->mx1, b->my1);
		body = mix(body, b->edge, fminf(1.0f, fmaxf(0.0f, 0.5f * edge_width + 0.5f - d)));
	}
	return mix(c, body, cover);
}

/* ---- the picture ----------------------------------------------------------------------------------- */

typedef struct frame_job {
	pdl_renderer* r;
	const pdl_particle_data* p;
	const shape_px* shapes;
	int shape_count;
	const body_px* bodies;
	int body_count;
	float body_edge; /* outline width, pixels */
	int* active;     /* scratch, body_count: the bodies that reach the current row */
	float lo, hi;
	int row0, row1;
} frame_job;

/* Colours the rows [row0, row1) from the finished field. */
static void composite(const frame_job* job)
{
	pdl_renderer* r = job->r;
	const pdl_render_def* d = &r->def;
	int w = d->width, hgt = d->height;
	bool by_material = d->color_mode == PDL_COLOR_MATERIAL;
	rgbf bg = unpack(d->background), wall = unpack(d->wall_color), obstacle = unpack(d->obstacle_color);
	float t = d->threshold, lo = job->lo, hi = job->hi;
	for (int y = job->row0; y < job->row1; ++y) {
		float row_y = (float)y + 0.5f;
		int active = 0;
		for (int k = 0; k < job->body_count; ++k)
			if (row_y >= job->bodies[k].y0 && row_y <= job->bodies[k].y1) job->active[active++] = k;
		for (int x = 0; x < w; ++x) {
			size_t at = (size_t)y * (size_t)w + (size_t)x;
			float fx = (float)x + 0.5f, fy = row_y;
			rgbf c = bg;
			/* fluid: coverage from the field's signed distance to the threshold */
			float f = r->field[at];
			if (f > 0) {
				float l = x > 0 ? r->field[at - 1] : f, rr = x < w - 1 ? r->field[at + 1] : f;
				float u = y > 0 ? r->field[at - (size_t)w] : f, dn = y < hgt - 1 ? r->field[at + (size_t)w] : f;
				float gx = 0.5f * (rr - l), gy = 0.5f * (dn - u), g = sqrtf(gx * gx + gy * gy);
				float cover = g > 1e-6f ? (f - t) / g + 0.5f : (f >= t ? 1.0f : 0.0f);
				cover = fminf(1.0f, fmaxf(0.0f, cover));
				if (cover > 0) {
					rgbf fluid;
					if (by_material) fluid = (rgbf){r->acc[3 * at] / f, r->acc[3 * at + 1] / f, r->acc[3 * at + 2] / f};
					else fluid = ramp((r->acc[at] / f - lo) / (hi - lo));
					/* a little depth: the thin rim is darker than the bulk */
					float shade = 0.78f + 0.22f * fminf(1.0f, (f - t) / (2.0f * t));
					if (shade < 0.78f) shade = 0.78f;
					fluid = (rgbf){fluid.r * shade, fluid.g * shade, fluid.b * shade};
					c = mix(c, fluid, cover);
				}
			}
			/* bodies over the fluid, in slot order */
			for (int a = 0; a < active; ++a) {
				const body_px* b = &job->bodies[job->active[a]];
				if (fx >= b->x0 && fx <= b->x1) c = draw_body(b, job->body_edge, fx, fy, c);
			}
			/* walls over the fluid, so the surface meets them flush */
			for (int k = 0; k < job->shape_count; ++k) {
				float dist = distance_px(&job->shapes[k], fx, fy);
				float cover = job->shapes[k].container ? dist + 0.5f : 0.5f - dist;
				cover = fminf(1.0f, fmaxf(0.0f, cover));
				if (cover > 0) c = mix(c, job->shapes[k].container ? wall : obstacle, cover);
			}
			r->rgb[3 * at] = to_byte(c.r);
			r->rgb[3 * at + 1] = to_byte(c.g);
			r->rgb[3 * at + 2] = to_byte(c.b);
		}
	}
}

static void* splat_band(void* arg)
{
	frame_job* job = arg;
	splat(job->r, job->p, job->row0, job->row1);
	return NULL;
}

static void* composite_band(void* arg)
{
	composite(arg);
	return NULL;
}

const uint8_t* pdl_render(pdl_renderer* r, const pdl_world* world)
{
	if (!r || !world) return NULL;
	if (pdl_world_get_def(world).dimensions == 3) return pdl_render_3d(r, world);
	const pdl_render_def* d = &r->def;
	pdl_particle_data p = pdl_world_particles(world);
	float lo = 0, hi = 1;
	if (d->color_mode != PDL_COLOR_MATERIAL) scalar_range(d, &p, &lo, &hi);
	shape_px shapes[64];
	int shape_count = 0;
	int limit = pdl_world_boundary_slots(world);
	for (int slot = 0; slot < limit && shape_count < 64; ++slot) {
		pdl_boundary_def b;
		if (!pdl_world_get_boundary(world, pdl_world_boundary_in_slot(world, slot), &b)) continue;
		shapes[shape_count++] = shape_of(r, &b);
	}
	int bands = render_bands(d);
	render_bodies rb;
	if (!render_bodies_get(world, bands, &rb)) return NULL;
	body_px* bodies = malloc((size_t)(rb.count + 1) * sizeof *bodies);
	if (!bodies) {
		render_bodies_free(&rb);
		return NULL;
	}
	for (int k = 0; k < rb.count; ++k) bodies[k] = body_of(r, &rb.defs[k]);
	/* an outline that stays visible as pictures grow: 1.5 px up to 540 rows, then 1/360 of the height */
	float body_edge = fmaxf(1.5f, (float)d->height / 360.0f);
	frame_job jobs[PDL_RENDER_MAX_THREADS];
	for (int b = 0; b < bands; ++b)
		jobs[b] = (frame_job){r, &p, shapes, shape_count, bodies, rb.count, body_edge,
		                      rb.active + (size_t)b * (size_t)(rb.count + 1), lo, hi,
		                      (int)((long long)d->height * b / bands), (int)((long long)d->height * (b + 1) / bands)};
	run_bands(jobs, sizeof jobs[0], bands, splat_band);
	run_bands(jobs, sizeof jobs[0], bands, composite_band);
	render_bodies_free(&rb);
	free(bodies);
	return r->rgb;
}
