/* puddle_io: fluid surfaces from particles. The Unity SPH demo (sections 5.1 and 5.2) meshes the
 * fluid with marching squares over a grid of samples, and says why its version was slow (every
 * sample tested against every particle) and blocky (corners on/off, no interpolation). This
 * module does the interpolated version, at O(N + samples) cost:
 *
 *  1. a smoothed density field phi(p) = sum_j W(|p - x_j| / R), W(q) = (1 - q^2)^3 for q < 1,
 *     sampled on a regular grid: particles are counting-sorted into buckets of size R, then
 *     each adds W to the samples within R of it (about 50 in 2D, 113 in 3D at the default
 *     cells), never testing a sample against every particle;
 *  2. in 2D, marching squares with linear interpolation along cell edges, stitched into closed
 *     contours (outer boundaries counter-clockwise, holes clockwise);
 *  3. in 3D, marching tetrahedra (each cube cut into 6 tetrahedra), an indexed triangle mesh
 *     that is watertight (every edge shared by exactly two triangles) with outward winding.
 *
 * The iso level: for particles filling a half-space at uniform density, the field on the
 * boundary plane is exactly half its bulk value (W is symmetric), so iso = 1/2 of the bulk
 * value (iso_fraction 0.5) puts the surface on the boundary of the region the particles fill.
 * On a straight edge of a lattice of spacing s that is about s/2 beyond the outermost row (a
 * square or cubic lattice: s/2; rows of a hexagonal lattice: (sqrt 3 / 4) s = 0.43 s, measured
 * 0.435 s). A disc of lattice points within radius R0 fills the area pi R0^2 (its ragged
 * outermost particles lie on average about s/2 inside R0), so its contour has radius R0: the
 * offset from the lattice radius is 0 (measured: area -0.16 % at R0 = 10 h; a ball of radius
 * 5 h, volume -1.8 %, the convex curvature pulls the surface in by 0.03 h). The bulk value is
 * that of the continuum, phi_bulk = integral of W / (area or volume per particle); at the rest
 * spacing (s = 0.35 R) the lattice sum is within 0.03 % of it. io/tests/test_surface.c
 * measures all of these.
 *
 *     pdl_surface_def def = pdl_surface_def_from_world(world); // R = h, cells h/4, rest spacing
 *     pdl_particle_data p = pdl_world_particles(world);
 *     pdl_contours c;
 *     pdl_error err;
 *     if (!pdl_surface_contours(&def, p.x, p.y, p.count, &c, &err)) puts(err.message);
 *     for (int k = 0; k < c.contour_count; ++k)   // points c.offsets[k] .. c.offsets[k+1]-1
 *         ...;
 *     pdl_contours_free(&c);
 *
 * Memory: every function that returns a field, contours or a mesh allocates it (malloc) and the
 * caller frees it with the matching *_free function; the free functions accept zeroed structs
 * and structs from failed calls. The result struct is zeroed first, so free an old result
 * before passing its struct again. Temporaries are freed before the call returns. Nothing is
 * kept between calls and nothing is global, so calls on different data may run in parallel.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_SURFACE_H
#define PUDDLE_SURFACE_H

#include "puddle/base.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every way an extraction can fail is a pdl_error_id of puddle/base.h
 * (PDL_SURFACE_ERROR_LIST: PDL_ERR_SURFACE_RADIUS, ...; and PDL_ERR_NULL_ARGUMENT,
 * PDL_ERR_OUT_OF_MEMORY); the message is a line a person reads, e.g.
 * "surface.radius must be finite and > 0, got -1", and for PDL_ERR_SURFACE_POSITION value is the
 * index of the first bad particle. Tests assert the id. */

/** How particles become a field and the field a surface. */
typedef struct pdl_surface_def {
	/** Kernel radius R of the field, world units, finite and > 0. Default 1, the default world's
	 * interaction radius h; pass the world's h. */
	float radius;
	/** Distance between samples, world units, finite and > 0. Default R/4 = 0.25 in 2D
	 * (pdl_default_surface_def) and R/3 in 3D (pdl_default_surface_def_3d): about one sample
	 * per particle spacing or finer, so the surface follows the particles and the interpolation
	 * hides the grid. Scale it with radius. */
	float cell_size;
	/** The particle spacing of the fluid at rest, world units, finite and > 0: in 2D the
	 * distance between neighbours of a hexagonal lattice (area (sqrt 3 / 2) s^2 per particle,
	 * as pdl_world_fill places them), in 3D the edge of a cubic lattice (volume s^3 per
	 * particle). It sets the bulk field value the iso level is a fraction of. Default
	 * pdl_rest_spacing(1, 4) = 0.3526, the default material's at h = 1. */
	float spacing;
	/** Surface level as a fraction of the bulk field value, in (0, 1). Default 0.5: the
	 * surface lies on the boundary of the region the particles fill, about s/2 beyond the
	 * outermost particles (see the top of this file). Lower makes the fluid fatter and joins
	 * drops sooner; higher makes it thinner. */
	float iso_fraction;
	/** Most samples one grid may have, >= 8; a larger request fails with
	 * PDL_SURFACE_ERR_TOO_MANY_SAMPLES instead of allocating gigabytes because one particle
	 * flew far away. Default 1 << 24 (64 MiB of floats). */
	long long max_samples;
} pdl_surface_def;

/** Defaults for 2D (cell_size R/4) and 3D (cell_size R/3). */
pdl_surface_def pdl_default_surface_def(void);
pdl_surface_def pdl_default_surface_def_3d(void);

struct pdl_scene;
struct pdl_world;
/** The 2D def for a scene (puddle/scene.h) or a world: radius = the world's h; cell_size = h/4;
 * spacing = the widest rest spacing of its materials (the lightest one's: its bulk has the
 * lowest field, and levelling on it keeps every material inside the surface). */
pdl_surface_def pdl_surface_def_from_scene(const struct pdl_scene* scene);
pdl_surface_def pdl_surface_def_from_world(const struct pdl_world* world);

/** The absolute iso level the def asks for in `dim` (2 or 3) dimensions: iso_fraction x the
 * bulk value (pi R^2 / 4) / ((sqrt 3 / 2) s^2) in 2D, (64 pi R^3 / 315) / s^3 in 3D. */
float pdl_surface_iso_level(const pdl_surface_def* def, int dim);

/** A sampled field. Sample (i, j, k) is at origin + cell_size (i, j, k) and is
 * values[i + nx (j + ny k)]. The grid covers the particles' bounding box grown by R plus one
 * cell on every side, so the outermost ring of samples is 0 and every surface is closed. Its
 * origin is a whole multiple of cell_size, so a blob that moves sees the same sample points. */
typedef struct pdl_field {
	int dim;                /**< 2 or 3 */
	int nx, ny, nz;         /**< samples per axis, nz = 1 in 2D */
	float origin[3];        /**< world position of sample (0, 0, 0); origin[2] = 0 in 2D */
	float cell_size;        /**< world units */
	float iso;              /**< the def's level, pdl_surface_iso_level() */
	float* values;          /**< nx ny nz samples, x fastest; owned, pdl_field_free() */
} pdl_field;

/** Closed contours (2D). Contour k is the points offsets[k] .. offsets[k + 1] - 1, closed
 * implicitly (the last point joins the first; no point is repeated). The fluid is on the left
 * of the direction of travel: outer boundaries run counter-clockwise (positive signed area),
 * holes clockwise (negative). Contours never cross and every one has at least 4 points (two
 * may coincide where a sample equals the iso level exactly). */
typedef struct pdl_contours {
	int contour_count;
	int point_count;
	float* x;               /**< point_count positions, world units; owned */
	float* y;
	int* offsets;           /**< contour_count + 1 entries, offsets[0] = 0; owned */
} pdl_contours;

/** An indexed triangle mesh (3D). Triangles are counter-clockwise seen from outside the fluid,
 * so (b - a) x (c - a) points out; each vertex lies on one grid edge and is shared by every
 * triangle that touches that edge, so a closed surface has every edge in exactly two triangles
 * and every directed edge in exactly one. */
typedef struct pdl_mesh {
	int vertex_count;
	int triangle_count;
	float* positions;       /**< 3 vertex_count: x y z, world units; owned */
	float* normals;         /**< 3 vertex_count: unit outward normals, -grad phi; owned */
	int* triangles;         /**< 3 triangle_count vertex indices; owned */
} pdl_mesh;

/** Samples the field of `count` particles (x, y; z = NULL in 2D) on the def's grid.
 * dim is 2 or 3. Fails (false, err filled if given, *out zeroed) on a bad def, count < 0, a
 * NULL array, a non-finite position, too many samples or no memory. count = 0 gives a 2 x 2
 * (x 2) field of zeros. */
bool pdl_surface_field(const pdl_surface_def* def, int dim, const float* x, const float* y, const float* z,
                       int count, pdl_field* out, pdl_error* err);
void pdl_field_free(pdl_field* field);

/** Marching squares over a 2D field at level `iso`: a corner is inside when its value > iso,
 * crossings are interpolated linearly along cell edges, and a saddle cell (two opposite
 * corners inside) joins its inside corners when the mean of its four corners (the bilinear
 * value at the centre) is > iso, else separates them. Stitched into closed contours. Samples on
 * the grid's border and non-finite samples count as outside, so every contour closes (a field
 * from pdl_surface_field is 0 there anyway). */
bool pdl_field_contours(const pdl_field* field, float iso, pdl_contours* out, pdl_error* err);

/** Marching tetrahedra over a 3D field at level `iso` (see surface.c for why tetrahedra), with
 * the same inside rule and border rule as pdl_field_contours, so the mesh is always closed. */
bool pdl_field_mesh(const pdl_field* field, float iso, pdl_mesh* out, pdl_error* err);

/** The two steps in one call: field then contours (2D) or field then mesh (3D), at the def's
 * iso level. */
bool pdl_surface_contours(const pdl_surface_def* def, const float* x, const float* y, int count, pdl_contours* out,
                          pdl_error* err);
bool pdl_surface_mesh(const pdl_surface_def* def, const float* x, const float* y, const float* z, int count,
                      pdl_mesh* out, pdl_error* err);

void pdl_contours_free(pdl_contours* contours);
void pdl_mesh_free(pdl_mesh* mesh);

/** Signed area of contour k (shoelace), world units^2: > 0 for an outer boundary, < 0 for a
 * hole. */
double pdl_contour_area(const pdl_contours* contours, int k);
/** Volume enclosed by a closed mesh (divergence theorem), world units^3. */
double pdl_mesh_volume(const pdl_mesh* mesh);

/* ---- files: each writes NAME.tmp.PID and renames it into place when complete, returns false
 * with the reason in err (if given) on failure and then leaves nothing behind. ---- */

/** SVG of the contours: the fluid as one filled <path> (every contour a subpath, fill-rule
 * evenodd, so holes are holes), then one stroked <path> per contour with
 * class="outer" or class="hole". World y up becomes SVG y down; the viewBox is the contours'
 * bounding box grown by 2 %. */
bool pdl_contours_write_svg(const char* path, const pdl_contours* contours, pdl_error* err);
/** VTK XML PolyData (.vtp, ParaView): the points (z = 0) and one closed polyline per contour,
 * with cell data "area" (signed, Float32) and "hole" (Int32, 1 for holes). */
bool pdl_contours_write_vtp(const char* path, const pdl_contours* contours, pdl_error* err);
/** Wavefront OBJ: v, vn and f a//a b//b c//c lines (1-based). */
bool pdl_mesh_write_obj(const char* path, const pdl_mesh* mesh, pdl_error* err);
/** Binary little-endian PLY: vertex x y z nx ny nz (float), face vertex_indices (uchar count,
 * int indices). Blender and ParaView read both files. */
bool pdl_mesh_write_ply(const char* path, const pdl_mesh* mesh, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
