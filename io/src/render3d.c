/* The software renderer of 3D worlds (render.h): particles as shaded spheres in a depth buffer,
 * obstacles, rigid bodies and the container's floor ray-traced per pixel, the container's edges as
 * anti-aliased lines. Three passes, each split into bands: project the particles (bands of
 * particles), rasterize the spheres (bands of rows), shade (bands of rows). Every band writes
 * only its own particles or rows and reads particles in storage order, so the picture does not
 * depend on the thread count. */
#include "render_internal.h"

#include "body_geometry.h"
#include "../../src/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../../shaders/liquid/look.h"

/* Most obstacles drawn; more are left out of the picture (scenes hold at most 16). */
#define MAX_SOLIDS 64
/* A box has 12 edges. */
#define MAX_EDGES 12

/* ---- the buffers ----------------------------------------------------------------------------------- */

void pdl_render_3d_free(pdl_renderer* r)
{
	free(r->depth);
	free(r->hit);
	free(r->projected);
	r->depth = NULL, r->hit = NULL, r->projected = NULL;
	float** liquid[] = {&r->liquid_depth, &r->liquid_tmp, &r->liquid_thick, &r->liquid_tint, &r->liquid_bg, &r->liquid_bg_depth,
	                    &r->liquid_body, &r->liquid_tmp4};
	for (size_t k = 0; k < sizeof liquid / sizeof liquid[0]; ++k) free(*liquid[k]), *liquid[k] = NULL;
	r->projected_capacity = 0;
}

/* ---- shading ------------------------------------------------------------------------------------- */

/* The light, in view space (x right, y up, z towards the viewer): from above, left and behind
 * the camera, so it turns with the camera and the side facing the viewer is always lit. */
static const pdl_vec3 light_view = {-0.40f, 0.70f, 0.59f};
/* Share of the colour seen without the light, and the highlight's strength and sharpness. */
#define AMBIENT 0.35f
#define SPECULAR 0.35f
#define SHININESS 40.0f
/* Most a far surface fades towards the background. */
#define FOG 0.35f

/* Lambert + Blinn-Phong for a unit normal n in view space. */
static rgbf shade(rgbf base, pdl_vec3 n)
{
	pdl_vec3 l = pdl_v3_normalize(light_view);
	pdl_vec3 half = pdl_v3_normalize(pdl_v3_add(l, pdl_v3(0, 0, 1)));
	float diffuse = fmaxf(0.0f, pdl_v3_dot(n, l)), spec = fmaxf(0.0f, pdl_v3_dot(n, half));
	spec = SPECULAR * powf(spec, SHININESS);
	float k = AMBIENT + (1 - AMBIENT) * diffuse;
	return (rgbf){base.r * k + spec, base.g * k + spec, base.b * k + spec};
}

/* A world direction in view space. */
static pdl_vec3 to_view(const pdl_view3* v, pdl_vec3 n) { return pdl_v3(pdl_v3_dot(n, v->r), pdl_v3_dot(n, v->u), -pdl_v3_dot(n, v->f)); }

/* ---- solids: obstacles and the container's far surfaces, ray-traced ------------------------------- */

typedef enum solid_kind { SOLID_BOX, SOLID_SPHERE, SOLID_FLOOR, SOLID_BOWL } solid_kind;

/* A box is kept in its own frame: local = R^T (world - centre), R's columns the box's axes. */
typedef struct solid {
	solid_kind kind;
	pdl_vec3 centre, half; /* half: box half extents; .x is a sphere's radius */
	pdl_vec3 ax, ay, az;   /* the box's axes in the world: unit, right-handed */
	rgbf color;
} solid;

/* A solid's axes turned by angle about z (obstacles and containers turn only so). */
static void turn_about_z(solid* s, float angle)
{
	float c = cosf(angle), sn = sinf(angle);
	s->ax = pdl_v3(c, sn, 0), s->ay = pdl_v3(-sn, c, 0), s->az = pdl_v3(0, 0, 1);
}

static pdl_vec3 to_local(const solid* s, pdl_vec3 d) { return pdl_v3(pdl_v3_dot(s->ax, d), pdl_v3_dot(s->ay, d), pdl_v3_dot(s->az, d)); }

static pdl_vec3 from_local(const solid* s, pdl_vec3 d)
{
	return pdl_v3_add(pdl_v3_add(pdl_v3_scale(s->ax, d.x), pdl_v3_scale(s->ay, d.y)), pdl_v3_scale(s->az, d.z));
}

/* The nearest hit of the ray eye + t dir with t in (near, *t), shortening *t and setting the
 * world normal; false if none. */
static bool intersect(const solid* s, pdl_vec3 eye, pdl_vec3 dir, float near, float* t, pdl_vec3* normal)
{
	switch (s->kind) {
	case SOLID_SPHERE:
	case SOLID_BOWL: {
		pdl_vec3 oc = pdl_v3_sub(eye, s->centre);
		float a = pdl_v3_dot(dir, dir), b = pdl_v3_dot(oc, dir), c = pdl_v3_dot(oc, oc) - s->half.x * s->half.x;
		float disc = b * b - a * c;
		if (disc < 0) return false;
		/* an obstacle shows its near side, the inside of a container its far side */
		float hit = s->kind == SOLID_SPHERE ? (-b - sqrtf(disc)) / a : (-b + sqrtf(disc)) / a;
		if (!(hit > near && hit < *t)) return false;
		*t = hit;
		pdl_vec3 n = pdl_v3_scale(pdl_v3_sub(pdl_v3_add(eye, pdl_v3_scale(dir, hit)), s->centre), 1.0f / s->half.x);
		*normal = s->kind == SOLID_SPHERE ? n : pdl_v3_scale(n, -1);
		return true;
	}
	case SOLID_BOX: {
		/* slabs: the ray is inside the box between the largest entry and the smallest exit */
		pdl_vec3 o = to_local(s, pdl_v3_sub(eye, s->centre)), d = to_local(s, dir);
		float o3[3] = {o.x, o.y, o.z}, d3[3] = {d.x, d.y, d.z}, h3[3] = {s->half.x, s->half.y, s->half.z};
		float enter = -INFINITY, leave = INFINITY;
		int axis = 0;
		for (int k = 0; k < 3; ++k) {
			if (d3[k] == 0) {
				if (fabsf(o3[k]) > h3[k]) return false;
				continue;
			}
			float t0 = (-h3[k] - o3[k]) / d3[k], t1 = (h3[k] - o3[k]) / d3[k];
			if (t0 > t1) {
				float swap = t0;
				t0 = t1, t1 = swap;
			}
			if (t0 > enter) enter = t0, axis = k;
			if (t1 < leave) leave = t1;
		}
		if (!(enter <= leave && enter > near && enter < *t)) return false;
		*t = enter;
		float n3[3] = {0, 0, 0};
		n3[axis] = d3[axis] > 0 ? -1.0f : 1.0f;
		*normal = from_local(s, pdl_v3(n3[0], n3[1], n3[2]));
		return true;
	}
	case SOLID_FLOOR: {
		/* the container's bottom face, local y = -half.y, seen from either side */
		pdl_vec3 o = to_local(s, pdl_v3_sub(eye, s->centre)), d = to_local(s, dir);
		if (d.y == 0) return false;
		float hit = (-s->half.y - o.y) / d.y;
		if (!(hit > near && hit < *t)) return false;
		float x = o.x + hit * d.x, z = o.z + hit * d.z;
		if (fabsf(x) > s->half.x || fabsf(z) > s->half.z) return false;
		*t = hit;
		*normal = from_local(s, pdl_v3(0, o.y > -s->half.y ? 1.0f : -1.0f, 0));
		return true;
	}
	}
	return false;
}

/* ---- the container's edges and outline ------------------------------------------------------------ */

/* A line in pixels, with 1 / view depth at its ends (linear in screen space, so the depth at
 * any point of it is exact). */
typedef struct edge_px {
	float x0, y0, iw0, x1, y1, iw1;
	float min_x, min_y, max_x, max_y; /* bounding box grown by the line's half width + 1 */
} edge_px;

/* Projects the world segment a-b, cut at the near plane; false if it is wholly behind it. */
static bool project_edge(const pdl_renderer* r, pdl_vec3 a, pdl_vec3 b, float half_width, edge_px* e)
{
	const pdl_view3* v = &r->view;
	float wa = pdl_v3_dot(pdl_v3_sub(a, v->eye), v->f), wb = pdl_v3_dot(pdl_v3_sub(b, v->eye), v->f);
	float cut = 2 * v->near;
	if (wa < cut && wb < cut) return false;
	if (wa < cut) a = pdl_v3_add(a, pdl_v3_scale(pdl_v3_sub(b, a), (cut - wa) / (wb - wa)));
	if (wb < cut) b = pdl_v3_add(b, pdl_v3_scale(pdl_v3_sub(a, b), (cut - wb) / (wa - wb)));
	pdl_vec3 pa = pdl_render_project(r, a), pb = pdl_render_project(r, b);
	*e = (edge_px){pa.x, pa.y, 1.0f / pa.z, pb.x, pb.y, 1.0f / pb.z, 0, 0, 0, 0};
	float grow = half_width + 1;
	e->min_x = fminf(pa.x, pb.x) - grow, e->max_x = fmaxf(pa.x, pb.x) + grow;
	e->min_y = fminf(pa.y, pb.y) - grow, e->max_y = fmaxf(pa.y, pb.y) + grow;
	return true;
}

/* ---- rigid bodies ------------------------------------------------------------------------------------ */

/* A body as a ray-traced solid in its own colour, with the pixel box its picture lies in (so a
 * pixel tries only the bodies that can cover it). */
typedef struct body_solid {
	solid s;
	rgbf edge;            /* the colour of a box's edges and a sphere's rim */
	float x0, y0, x1, y1; /* pixels; x0 > x1: not in the picture */
} body_solid;

/* Share of its colour a body's edges and rim keep, as in 2D pictures. */
#define BODY_EDGE_SHADE 0.45f

/* Grows the pixel box b by the projection of p; false if p is not beyond the near plane (then
 * the box is not to be trusted). */
static bool box_add(const pdl_renderer* r, body_solid* b, pdl_vec3 p)
{
	pdl_vec3 q = pdl_render_project(r, p);
	if (!(q.z > r->view.near)) return false;
	b->x0 = fminf(b->x0, q.x), b->x1 = fmaxf(b->x1, q.x), b->y0 = fminf(b->y0, q.y), b->y1 = fmaxf(b->y1, q.y);
	return true;
}

static body_solid body_solid_of(const pdl_renderer* r, const pdl_body_def* d)
{
	body_solid b;
	memset(&b, 0, sizeof b);
	pdl_body_frame f = pdl_body_frame_of(d, true);
	b.s.centre = d->position;
	b.s.ax = f.ax, b.s.ay = f.ay, b.s.az = f.az;
	b.s.color = unpack(d->color);
	b.edge = (rgbf){BODY_EDGE_SHADE * b.s.color.r, BODY_EDGE_SHADE * b.s.color.g, BODY_EDGE_SHADE * b.s.color.b};
	/* its picture lies within the hull of the projected corners of the box, or of a cube about
	 * the sphere aligned with the view (perspective keeps convex hulls while all is in front) */
	pdl_vec3 corners[8];
	if (d->shape == PDL_BODY_CIRCLE) {
		b.s.kind = SOLID_SPHERE;
		b.s.half = pdl_v3(d->radius, d->radius, d->radius);
		const pdl_view3* v = &r->view;
		for (int k = 0; k < 8; ++k)
			corners[k] = pdl_v3_add(d->position, pdl_v3_add(pdl_v3_add(pdl_v3_scale(v->r, k & 1 ? d->radius : -d->radius), pdl_v3_scale(v->u, k & 2 ? d->radius : -d->radius)),
			                                  pdl_v3_scale(v->f, k & 4 ? d->radius : -d->radius)));
	} else {
		b.s.kind = SOLID_BOX;
		b.s.half = d->half_extents;
		pdl_body_box_corners(d, &f, corners);
	}
	b.x0 = b.y0 = INFINITY, b.x1 = b.y1 = -INFINITY;
	bool in_front = true;
	for (int k = 0; k < 8; ++k) in_front &= box_add(r, &b, corners[k]);
	if (!in_front) { /* reaches behind the near plane: any pixel may see it */
		b.x0 = b.y0 = -INFINITY, b.x1 = b.y1 = INFINITY;
		return b;
	}
	b.x0 -= 1, b.y0 -= 1, b.x1 += 1, b.y1 += 1;
	return b;
}

/* The colour of body b, hit at view depth t by the ray eye + t dir, with world normal n: its
 * colour shaded, and darkened within edge_width pixels of a box's edges or a sphere's rim, so that
 * a body reads against fluid of its own colour. */
static rgbf body_color(const pdl_renderer* r, const body_solid* b, pdl_vec3 dir, float t, pdl_vec3 n, float edge_width)
{
	const pdl_view3* v = &r->view;
	rgbf base = b->s.color;
	float band = edge_width * t / v->focal; /* world units at that depth */
	if (b->s.kind == SOLID_BOX) {
		pdl_vec3 l = to_local(&b->s, pdl_v3_sub(pdl_v3_add(v->eye, pdl_v3_scale(dir, t)), b->s.centre));
		int near_faces = (fabsf(l.x) > b->s.half.x - band) + (fabsf(l.y) > b->s.half.y - band) + (fabsf(l.z) > b->s.half.z - band);
		if (near_faces >= 2) base = b->edge;
	} else {
		/* the ray passes the centre at R sqrt(1 - (n.u)^2), u its unit direction */
		float cosine = pdl_v3_dot(n, pdl_v3_normalize(dir));
		float miss = b->s.half.x * sqrtf(fmaxf(0.0f, 1 - cosine * cosine));
		if (b->s.half.x - miss < band) base = b->edge;
	}
	return shade(base, to_view(v, n));
}

/* Everything the shading pass draws besides the particles. */
typedef struct scene3 {
	solid solids[MAX_SOLIDS + 1];
	int solid_count;
	const body_solid* bodies;
	int body_count;
	float body_edge; /* width of a body's darkened edges, pixels */
	edge_px edges[MAX_EDGES];
	int edge_count;
	float half_width; /* of edge lines, pixels */
	bool outline;     /* a sphere container's outline circle */
	float outline_x, outline_y, outline_radius;
	rgbf edge_color, background, background_top;
	float fog_start, fog_scale; /* fog grows from view depth fog_start, by fog_scale per unit */
	float edge_margin;          /* edges show over surfaces up to this much nearer, world units */
} scene3;

static void build_scene(const pdl_renderer* r, const pdl_world* world, float sphere_radius, scene3* sc)
{
	const pdl_render_def* d = &r->def;
	memset(sc, 0, sizeof *sc);
	sc->edge_margin = 0.05f + 2 * sphere_radius;
	rgbf wall = unpack(d->wall_color), white = {1, 1, 1};
	sc->background = unpack(d->background);
	/* a slightly lighter sky above: it reads as depth */
	sc->background_top = mix(sc->background, white, 0.06f);
	sc->edge_color = mix(wall, white, 0.55f);
	sc->half_width = fmaxf(0.6f, (float)d->height / 720.0f);
	/* from nothing a fifth of the camera distance before the target (about the front of a box
	 * pdl_camera_framing frames) to FOG that far and 0.4 distance behind it */
	float dist = d->camera.distance > 0 ? d->camera.distance : 1;
	sc->fog_start = 0.8f * dist, sc->fog_scale = 1.0f / (0.6f * dist);
	int limit = pdl_world_boundary_slots(world);
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def b;
		if (!pdl_world_get_boundary(world, pdl_world_boundary_in_slot(world, slot), &b)) continue;
		solid s = {.kind = SOLID_BOX, .centre = b.position, .half = b.half_extents, .color = unpack(d->obstacle_color)};
		turn_about_z(&s, b.angle);
		switch (b.kind) {
		case PDL_BOUNDARY_BOX:
		case PDL_BOUNDARY_CIRCLE:
			if (b.kind == PDL_BOUNDARY_CIRCLE) s.kind = SOLID_SPHERE, s.half = pdl_v3(b.radius, b.radius, b.radius);
			if (sc->solid_count < MAX_SOLIDS) sc->solids[sc->solid_count++] = s;
			break;
		case PDL_BOUNDARY_BOX_CONTAINER: {
			if (sc->edge_count > 0) break; /* one container's edges */
			s.kind = SOLID_FLOOR;
			s.color = mix(wall, white, 0.18f);
			sc->solids[sc->solid_count++] = s;
			pdl_vec3 corner[8];
			for (int k = 0; k < 8; ++k) {
				pdl_vec3 local = pdl_v3(k & 1 ? b.half_extents.x : -b.half_extents.x, k & 2 ? b.half_extents.y : -b.half_extents.y,
				                    k & 4 ? b.half_extents.z : -b.half_extents.z);
				corner[k] = pdl_v3_add(b.position, from_local(&s, local));
			}
			/* the 12 edges join corners that differ in one bit */
			for (int k = 0; k < 8; ++k)
				for (int bit = 1; bit < 8; bit <<= 1)
					if (!(k & bit) && project_edge(r, corner[k], corner[k | bit], sc->half_width, &sc->edges[sc->edge_count]))
						sc->edge_count++;
			break;
		}
		case PDL_BOUNDARY_CIRCLE_CONTAINER: {
			if (sc->outline) break;
			s.kind = SOLID_BOWL, s.half = pdl_v3(b.radius, b.radius, b.radius);
			s.color = mix(wall, white, 0.12f);
			sc->solids[sc->solid_count++] = s;
			/* the silhouette of a sphere seen from distance D is a cone of half angle asin(R / D) */
			pdl_vec3 to_centre = pdl_v3_sub(b.position, r->view.eye);
			float dist2 = pdl_v3_dot(to_centre, to_centre), cone = dist2 - b.radius * b.radius;
			pdl_vec3 c = pdl_render_project(r, b.position);
			if (cone > 0 && c.z > r->view.near) {
				sc->outline = true;
				sc->outline_x = c.x, sc->outline_y = c.y;
				sc->outline_radius = r->view.focal * b.radius / sqrtf(cone);
			}
			break;
		}
		default: break; /* polygons are 2D only */
		}
	}
}

/* ---- pass 1: particles to pixels ------------------------------------------------------------------ */

typedef struct job3 {
	pdl_renderer* r;
	const pdl_particle_data* p;
	const float* radius; /* world units, by material */
	const scene3* sc;
	int* active;         /* scratch, one per body: the bodies whose pixel box reaches the row */
	float lo, hi;        /* scalar colour range */
	float largest;       /* the largest material's sphere radius, world units */
	int from, to;        /* particles (pass 1) or rows (passes 2 and 3) */
} job3;

/* Each particle's pixel centre, view depth and pixel radius; radius 0 for particles that cannot
 * reach the picture (behind the near plane, off screen, or not finite). */
static void* project_band(void* arg)
{
	const job3* job = arg;
	const pdl_renderer* r = job->r;
	const pdl_particle_data* p = job->p;
	float width = (float)r->def.width, height = (float)r->def.height;
	for (int i = job->from; i < job->to; ++i) {
		float* out = r->projected + 4 * (size_t)i;
		out[3] = 0;
		pdl_vec3 at = pdl_v3(p->x[i], p->y[i], p->z[i]);
		if (!isfinite(at.x) || !isfinite(at.y) || !isfinite(at.z)) continue;
		float world_radius = job->radius[p->material[i] % PDL_MAX_MATERIALS];
		pdl_vec3 q = pdl_render_project(r, at);
		if (!(q.z > r->view.near + world_radius)) continue;
		/* at least the pixel it is on, so far particles do not vanish */
		float rad = fmaxf(0.75f, world_radius * r->view.focal / q.z);
		if (q.x + rad < 0 || q.x - rad > width || q.y + rad < 0 || q.y - rad > height) continue;
		out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = rad;
	}
	return NULL;
}

static rgbf particle_color(const job3* job, const rgbf* colors, int i);

/* ---- pass 2: spheres into the depth buffer --------------------------------------------------------- */

/* The pixels of particle i's disc in rows [row0, row1), with the half chord through its sphere
 * there: calls visit(r, at, half_chord, i, arg) for each. */
typedef void disc_visit(pdl_renderer* r, size_t at, float half_chord, int i, void* arg);
static void rasterize_disc(pdl_renderer* r, const float* q, float world_radius, int row0, int row1, int i,
                           disc_visit* visit, void* arg)
{
	const int w = r->def.width;
	float rad = q[3];
	if (rad <= 0) return;
	float cx = q[0], cy = q[1];
	int y0 = (int)floorf(cy - rad), y1 = (int)ceilf(cy + rad);
	if (y1 < row0 || y0 >= row1) return;
	if (y0 < row0) y0 = row0;
	if (y1 > row1 - 1) y1 = row1 - 1;
	float r2 = rad * rad, inv_r2 = 1.0f / r2;
	for (int y = y0; y <= y1; ++y) {
		float dy = (float)y + 0.5f - cy, span2 = r2 - dy * dy;
		if (span2 <= 0) continue;
		float span = sqrtf(span2);
		int x0 = (int)floorf(cx - span), x1 = (int)ceilf(cx + span);
		if (x0 < 0) x0 = 0;
		if (x1 > w - 1) x1 = w - 1;
		size_t row = (size_t)y * (size_t)w;
		for (int x = x0; x <= x1; ++x) {
			float dx = (float)x + 0.5f - cx, q2 = (dx * dx + dy * dy) * inv_r2;
			if (q2 >= 1) continue;
			visit(r, row + (size_t)x, world_radius * sqrtf(1 - q2), i, arg);
		}
	}
}

/* Pass 1: the nearest sphere surface (view-aligned depth of the sphere's front, w - R sqrt(1 -
 * q^2)); a tie keeps the particle stored first. The liquid's thickness: the chords, summed.
 * The liquid leaves out what is behind the scenery (background_band ran first), as the GPU's
 * depth pass (a sphere's front behind the scene's depth) and its thickness splats (a centre
 * behind it) do: a body in front hides the water, and a submerged body is absorbed only by
 * the water in front of it. */
static void visit_depth(pdl_renderer* r, size_t at, float half_chord, int i, void* arg)
{
	const float* q = arg;
	float z = q[2] - half_chord;
	const bool liquid = r->def.liquid;
	if (z < r->depth[at] && (!liquid || z < r->liquid_bg_depth[at])) r->depth[at] = z, r->hit[at] = i;
	if (liquid && !(q[2] > r->liquid_bg_depth[at])) r->liquid_thick[at] += 2 * half_chord;
}

/* Pass 2 (liquid): the colour, weighted by the chord and by the sphere's depth below the surface
 * found in pass 1 over PDL_LIQUID_LAYER_RADII (shaders/liquid/thickness.frag.glsl's rule): one
 * sees the liquid near the surface, so layers keep their hue. The weights into liquid_tmp. */
typedef struct tint_visit {
	const float* q;
	float layer; /* world units */
	rgbf color;
} tint_visit;

static void visit_tint(pdl_renderer* r, size_t at, float half_chord, int i, void* arg)
{
	(void)i;
	const tint_visit* t = arg;
	if (t->q[2] > r->liquid_bg_depth[at]) return; /* behind the scenery (visit_depth) */
	float below = fmaxf(0.0f, t->q[2] - t->layer / (float)PDL_LIQUID_LAYER_RADII - r->depth[at]);
	float weight = 2 * half_chord * expf(-below / t->layer);
	r->liquid_tint[3 * at] += weight * t->color.r;
	r->liquid_tint[3 * at + 1] += weight * t->color.g;
	r->liquid_tint[3 * at + 2] += weight * t->color.b;
	r->liquid_tmp[at] += weight;
}

/* Rasterizes every sphere over the rows [from, to): pass 1, then for the liquid pass 2 and the
 * colour as the weighted mean times the thickness (what render_liquid.c divides by). */
static void* sphere_band(void* arg)
{
	const job3* job = arg;
	pdl_renderer* r = job->r;
	int w = r->def.width, row0 = job->from, row1 = job->to;
	size_t first = (size_t)row0 * (size_t)w, n = (size_t)(row1 - row0) * (size_t)w;
	for (size_t k = first; k < first + n; ++k) r->depth[k] = INFINITY, r->hit[k] = -1;
	const bool liquid = r->def.liquid;
	if (liquid) {
		memset(r->liquid_thick + first, 0, n * sizeof *r->liquid_thick);
		memset(r->liquid_tint + 3 * first, 0, 3 * n * sizeof *r->liquid_tint);
		memset(r->liquid_tmp + first, 0, n * sizeof *r->liquid_tmp);
	}
	const pdl_particle_data* p = job->p;
	for (int i = 0; i < p->count; ++i) {
		const float* q = r->projected + 4 * (size_t)i;
		rasterize_disc(r, q, job->radius[p->material[i] % PDL_MAX_MATERIALS], row0, row1, i, visit_depth, (void*)q);
	}
	if (!liquid) return NULL;
	rgbf colors[PDL_MAX_MATERIALS];
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) colors[m] = unpack(r->def.material_colors[m]);
	for (int i = 0; i < p->count; ++i) {
		const float* q = r->projected + 4 * (size_t)i;
		float world_radius = job->radius[p->material[i] % PDL_MAX_MATERIALS];
		tint_visit t = {q, (float)PDL_LIQUID_LAYER_RADII * world_radius, particle_color(job, colors, i)};
		rasterize_disc(r, q, world_radius, row0, row1, i, visit_tint, &t);
	}
	for (size_t k = first; k < first + n; ++k) {
		float weight = r->liquid_tmp[k], scale = weight > 0 ? r->liquid_thick[k] / weight : 0;
		for (int c = 0; c < 3; ++c) r->liquid_tint[3 * k + (size_t)c] *= scale;
	}
	return NULL;
}

/* ---- pass 3: shading --------------------------------------------------------------------------------- */

static rgbf particle_color(const job3* job, const rgbf* colors, int i)
{
	const pdl_render_def* d = &job->r->def;
	if (d->color_mode == PDL_COLOR_MATERIAL) return colors[job->p->material[i] % PDL_MAX_MATERIALS];
	return ramp((scalar_of(job->p, d->color_mode, i) - job->lo) / (job->hi - job->lo));
}

/* Distance in pixels from (x, y) to the segment, and 1 / view depth at its nearest point. */
static float edge_distance(const edge_px* e, float x, float y, float* inv_w)
{
	float ex = e->x1 - e->x0, ey = e->y1 - e->y0, len2 = ex * ex + ey * ey;
	float t = len2 > 0 ? ((x - e->x0) * ex + (y - e->y0) * ey) / len2 : 0;
	t = fminf(1.0f, fmaxf(0.0f, t));
	*inv_w = e->iw0 + (e->iw1 - e->iw0) * t;
	float dx = x - (e->x0 + t * ex), dy = y - (e->y0 + t * ey);
	return sqrtf(dx * dx + dy * dy);
}

/* What the pixel in column fx shows of the solids and bodies nearer than *depth along its ray
 * dir (shortening *depth), or `behind` if none is; *is_body (unless NULL) whether a body. */
static rgbf scenery(const job3* job, int active, float fx, pdl_vec3 dir, float* depth, rgbf behind, bool* is_body)
{
	const pdl_renderer* r = job->r;
	const scene3* sc = job->sc;
	const pdl_view3* v = &r->view;
	pdl_vec3 normal = {0, 0, 0};
	int solid_hit = -1, body_hit = -1;
	for (int k = 0; k < sc->solid_count; ++k)
		if (intersect(&sc->solids[k], v->eye, dir, v->near, depth, &normal)) solid_hit = k;
	for (int a = 0; a < active; ++a) {
		const body_solid* b = &sc->bodies[job->active[a]];
		if (fx >= b->x0 && fx <= b->x1 && intersect(&b->s, v->eye, dir, v->near, depth, &normal))
			body_hit = job->active[a];
	}
	if (is_body) *is_body = body_hit >= 0;
	if (body_hit >= 0) return body_color(r, &sc->bodies[body_hit], dir, *depth, normal, sc->body_edge);
	if (solid_hit >= 0) return shade(sc->solids[solid_hit].color, to_view(v, normal));
	return behind;
}

/* The bodies whose pixel box reaches row fy, into job->active; their count. */
static int active_bodies(const job3* job, float fy)
{
	int active = 0;
	for (int k = 0; k < job->sc->body_count; ++k)
		if (fy >= job->sc->bodies[k].y0 && fy <= job->sc->bodies[k].y1) job->active[active++] = k;
	return active;
}

static rgbf sky_at(const job3* job, float fy)
{
	return mix(job->sc->background_top, job->sc->background, fy / (float)job->r->def.height);
}

/* Liquid pictures: the picture without the fluid, and its depth (INFINITY: sky), which the
 * water refracts. */
static void* background_band(void* arg)
{
	const job3* job = arg;
	pdl_renderer* r = job->r;
	int w = r->def.width;
	for (int y = job->from; y < job->to; ++y) {
		float fy = (float)y + 0.5f;
		int active = active_bodies(job, fy);
		rgbf sky = sky_at(job, fy);
		for (int x = 0; x < w; ++x) {
			size_t at = (size_t)y * (size_t)w + (size_t)x;
			float fx = (float)x + 0.5f, depth = INFINITY;
			bool body;
			rgbf c = scenery(job, active, fx, pdl_render_pixel_ray(r, fx, fy), &depth, sky, &body);
			r->liquid_bg[3 * at] = c.r, r->liquid_bg[3 * at + 1] = c.g, r->liquid_bg[3 * at + 2] = c.b;
			r->liquid_bg_depth[at] = depth;
			r->liquid_body[at] = body ? 1.0f : 0.0f;
		}
	}
	return NULL;
}

static void* shade_band(void* arg)
{
	const job3* job = arg;
	pdl_renderer* r = job->r;
	const pdl_render_def* d = &r->def;
	const scene3* sc = job->sc;
	int w = d->width;
	const bool liquid = d->liquid;
	const liquid_light light = liquid ? pdl_liquid_light(&r->view, sc->background) : (liquid_light){{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	rgbf colors[PDL_MAX_MATERIALS];
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) colors[m] = unpack(d->material_colors[m]);
	for (int y = job->from; y < job->to; ++y) {
		float fy = (float)y + 0.5f;
		rgbf sky = sky_at(job, fy);
		int active = liquid ? 0 : active_bodies(job, fy);
		for (int x = 0; x < w; ++x) {
			size_t at = (size_t)y * (size_t)w + (size_t)x;
			float fx = (float)x + 0.5f;
			float depth;
			rgbf c;
			if (liquid) { /* the water where it is in front of the scenery, else the scenery */
				float water = r->liquid_depth[at], behind = r->liquid_bg_depth[at];
				if (water < behind) {
					c = pdl_liquid_color(r, &light, x, y, job->largest);
					depth = water;
				} else {
					c = (rgbf){r->liquid_bg[3 * at], r->liquid_bg[3 * at + 1], r->liquid_bg[3 * at + 2]};
					depth = behind;
				}
			} else { /* solids nearer than the nearest sphere replace it */
				depth = r->depth[at];
				int particle = r->hit[at];
				c = scenery(job, active, fx, pdl_render_pixel_ray(r, fx, fy), &depth, sky, NULL);
				if (depth == r->depth[at] && particle >= 0) {
					const float* q = r->projected + 4 * (size_t)particle;
					float nx = (fx - q[0]) / q[3], ny = (q[1] - fy) / q[3];
					float nz = sqrtf(fmaxf(0.0f, 1 - nx * nx - ny * ny));
					c = shade(particle_color(job, colors, particle), pdl_v3(nx, ny, nz));
				}
			}
			/* depth cue: surfaces behind the target fade a little towards the background */
			if (depth < INFINITY) c = mix(c, sc->background, FOG * fminf(1.0f, fmaxf(0.0f, (depth - sc->fog_start) * sc->fog_scale)));
			if (liquid) c = pdl_liquid_foam_over(r, at, c); /* as the GPU draws it: last, unfogged */
			/* edges in front of the nearest surface. The margin keeps the floor's own edges (at
			 * the floor's depth) visible, and edges over spheres that touch, or poke through, the
			 * walls: particle centres stay inside the container, not their spheres. */
			for (int k = 0; k < sc->edge_count; ++k) {
				const edge_px* e = &sc->edges[k];
				if (fx < e->min_x || fx > e->max_x || fy < e->min_y || fy > e->max_y) continue;
				float inv_w, dist = edge_distance(e, fx, fy, &inv_w);
				float cover = fminf(1.0f, fmaxf(0.0f, sc->half_width + 0.5f - dist));
				if (cover <= 0 || !(1.0f / inv_w < depth * 1.002f + sc->edge_margin)) continue;
				c = mix(c, sc->edge_color, cover);
			}
			if (sc->outline) {
				float dist = fabsf(hypotf(fx - sc->outline_x, fy - sc->outline_y) - sc->outline_radius);
				float cover = fminf(1.0f, fmaxf(0.0f, sc->half_width + 0.5f - dist));
				if (cover > 0) c = mix(c, sc->edge_color, cover);
			}
			r->rgb[3 * at] = to_byte(c.r);
			r->rgb[3 * at + 1] = to_byte(c.g);
			r->rgb[3 * at + 2] = to_byte(c.b);
		}
	}
	return NULL;
}

/* ---- the picture ------------------------------------------------------------------------------------- */

static bool reserve(pdl_renderer* r, int particles)
{
	size_t pixels = (size_t)r->def.width * (size_t)r->def.height;
	if (!r->depth) r->depth = malloc(pixels * sizeof *r->depth);
	if (!r->hit) r->hit = malloc(pixels * sizeof *r->hit);
	if (!r->depth || !r->hit) return false;
	if (r->def.liquid) {
		float** one[] = {&r->liquid_depth, &r->liquid_tmp, &r->liquid_thick, &r->liquid_bg_depth, &r->liquid_body};
		for (size_t k = 0; k < sizeof one / sizeof one[0]; ++k)
			if (!*one[k] && !(*one[k] = malloc(pixels * sizeof **one[k]))) return false;
		float** three[] = {&r->liquid_tint, &r->liquid_bg};
		for (size_t k = 0; k < sizeof three / sizeof three[0]; ++k)
			if (!*three[k] && !(*three[k] = malloc(3 * pixels * sizeof **three[k]))) return false;
		if (!r->liquid_tmp4 && !(r->liquid_tmp4 = malloc(4 * pixels * sizeof *r->liquid_tmp4))) return false;
	}
	if (particles > r->projected_capacity) {
		int capacity = particles + particles / 4 + 64;
		float* grown = realloc(r->projected, 4 * (size_t)capacity * sizeof *grown);
		if (!grown) return false;
		r->projected = grown, r->projected_capacity = capacity;
	}
	return true;
}

const uint8_t* pdl_render_3d(pdl_renderer* r, const pdl_world* world)
{
	const pdl_render_def* d = &r->def;
	pdl_particle_data p = pdl_world_particles(world);
	if (!reserve(r, p.count)) return NULL;
	/* each material's sphere: half its rest spacing, so spheres at rest just touch. The spacing
	 * is a lattice-sum solve (about a millisecond), so it is kept until h or the material's rest
	 * density changes. */
	float h = pdl_world_get_def(world).interaction_radius, radius[PDL_MAX_MATERIALS];
	int materials = pdl_world_material_count(world);
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) {
		float rest_density = m < materials ? pdl_world_get_material(world, m).rest_density : 0;
		pdl_sphere_size* cached = &r->sphere_size[m];
		if (m < materials && (cached->h != h || cached->rest_density != rest_density)) {
			cached->h = h, cached->rest_density = rest_density;
			cached->radius = 0.5f * pdl_rest_spacing_3d(h, rest_density);
		}
		/* particles of a material the world does not have yet: material 0's size */
		radius[m] = m < materials ? cached->radius : m > 0 ? radius[0] : 0.25f * h;
	}
	float lo = 0, hi = 1;
	if (d->color_mode != PDL_COLOR_MATERIAL) scalar_range(d, &p, &lo, &hi);
	scene3 scene;
	float largest = 0;
	for (int m = 0; m < materials; ++m) largest = fmaxf(largest, radius[m]);
	build_scene(r, world, largest, &scene);
	int bands = render_bands(d);
	render_bodies rb;
	if (!render_bodies_get(world, bands, &rb)) return NULL;
	body_solid* bodies = malloc((size_t)(rb.count + 1) * sizeof *bodies);
	if (!bodies) {
		render_bodies_free(&rb);
		return NULL;
	}
	for (int k = 0; k < rb.count; ++k) bodies[k] = body_solid_of(r, &rb.defs[k]);
	scene.bodies = bodies, scene.body_count = rb.count;
	scene.body_edge = 2 * scene.half_width; /* as wide as the container's edge lines */
	job3 jobs[PDL_RENDER_MAX_THREADS];
	for (int b = 0; b < bands; ++b)
		jobs[b] = (job3){r, &p, radius, &scene, rb.active + (size_t)b * (size_t)(rb.count + 1), lo, hi, largest,
		                 (int)((long long)p.count * b / bands), (int)((long long)p.count * (b + 1) / bands)};
	run_bands(jobs, sizeof jobs[0], bands, project_band);
	for (int b = 0; b < bands; ++b)
		jobs[b].from = (int)((long long)d->height * b / bands), jobs[b].to = (int)((long long)d->height * (b + 1) / bands);
	/* the liquid: first the picture without it, which the spheres are tested against */
	if (d->liquid) run_bands(jobs, sizeof jobs[0], bands, background_band);
	run_bands(jobs, sizeof jobs[0], bands, sphere_band);
	if (d->liquid) { /* render_liquid.c: smooth the depth, foam */
		float rest[PDL_MAX_MATERIALS];
		pdl_liquid_foam_rest(world, rest);
		liquid_job liquid[PDL_RENDER_MAX_THREADS];
		pdl_diffuse_data diffuse = d->diffuse ? pdl_world_diffuse(world) : (pdl_diffuse_data){0};
		for (int b = 0; b < bands; ++b)
			liquid[b] = (liquid_job){r, largest, jobs[b].from, jobs[b].to, &p, radius, rest, &diffuse};
		run_bands(liquid, sizeof liquid[0], bands, pdl_liquid_blur_rows);
		run_bands(liquid, sizeof liquid[0], bands, pdl_liquid_blur_columns);
		run_bands(liquid, sizeof liquid[0], bands, pdl_liquid_foam);
	}
	run_bands(jobs, sizeof jobs[0], bands, shade_band);
	render_bodies_free(&rb);
	free(bodies);
	return r->rgb;
}
