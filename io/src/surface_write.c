/* Surface files: contours as SVG and VTK polylines, meshes as OBJ and binary PLY (see surface.h).
 * Every file goes through atomic_file.h: written whole under a temporary name, then renamed. */
#include "puddle/surface.h"

#include "atomic_file.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- contours --------------------------------------------------------------------------------- */

static bool contours_valid(const pdl_contours* c, const char* path, pdl_error* err)
{
	if (c && c->contour_count >= 0 && c->point_count >= 0 &&
	    (c->point_count == 0 || (c->x && c->y && c->offsets && c->offsets[c->contour_count] == c->point_count)))
		return true;
	pdl_error_fill(err, PDL_ERR_EXPORT_DATA, path ? path : "(null)", NULL, "not a valid set of contours");
	return false;
}

bool pdl_contours_write_svg(const char* path, const pdl_contours* c, pdl_error* err)
{
	if (!path || !contours_valid(c, path, err)) return false;
	/* World y up becomes SVG y down: every y is written negated, and the viewBox is the box of
	 * the negated points. */
	double lo_x = 0, hi_x = 1, lo_y = -1, hi_y = 0;
	if (c->point_count > 0) {
		lo_x = lo_y = INFINITY, hi_x = hi_y = -INFINITY;
		for (int i = 0; i < c->point_count; ++i) {
			double x = c->x[i], y = -(double)c->y[i];
			lo_x = fmin(lo_x, x), hi_x = fmax(hi_x, x), lo_y = fmin(lo_y, y), hi_y = fmax(hi_y, y);
		}
	}
	double margin = 0.02 * fmax(hi_x - lo_x, hi_y - lo_y) + 1e-6;
	lo_x -= margin, lo_y -= margin, hi_x += margin, hi_y += margin;
	double w = hi_x - lo_x, h = hi_y - lo_y, scale = 800.0 / fmax(w, h);
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	FILE* f = a.f;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"%.7g %.7g %.7g %.7g\">\n",
	        ceil(w * scale), ceil(h * scale), lo_x, lo_y, w, h);
	fprintf(f, "  <title>puddle fluid surface: %d contour%s (world y up is SVG y down)</title>\n", c->contour_count,
	        c->contour_count == 1 ? "" : "s");
	/* the fluid: every contour a subpath of one path, so evenodd makes holes and islands in
	 * holes come out right without working out which contour is inside which */
	fprintf(f, "  <path id=\"fluid\" fill=\"#2a7fd4\" fill-rule=\"evenodd\" stroke=\"none\" d=\"");
	for (int k = 0; k < c->contour_count; ++k) {
		for (int i = c->offsets[k]; i < c->offsets[k + 1]; ++i)
			fprintf(f, "%s%.7g %.7g", i == c->offsets[k] ? "M" : " L", (double)c->x[i], -(double)c->y[i]);
		fprintf(f, " Z%s", k + 1 < c->contour_count ? " " : "");
	}
	fprintf(f, "\"/>\n");
	/* one outline per contour, to pick out or style each one */
	fprintf(f, "  <g fill=\"none\" stroke=\"#0b3d6e\" stroke-width=\"1\" vector-effect=\"non-scaling-stroke\">\n");
	for (int k = 0; k < c->contour_count; ++k) {
		fprintf(f, "    <path class=\"%s\" fill-rule=\"evenodd\" vector-effect=\"non-scaling-stroke\" d=\"",
		        pdl_contour_area(c, k) < 0 ? "hole" : "outer");
		for (int i = c->offsets[k]; i < c->offsets[k + 1]; ++i)
			fprintf(f, "%s%.7g %.7g", i == c->offsets[k] ? "M" : " L", (double)c->x[i], -(double)c->y[i]);
		fprintf(f, " Z\"/>\n");
	}
	fprintf(f, "  </g>\n</svg>\n");
	return pdl_atomic_commit(&a, err);
}

bool pdl_contours_write_vtp(const char* path, const pdl_contours* c, pdl_error* err)
{
	if (!path || !contours_valid(c, path, err)) return false;
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	FILE* f = a.f;
	/* the XML layout of export.c's particle files; a VTK polyline is open, so each one lists
	 * its first point again at the end */
	fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
	fprintf(f, "  <PolyData>\n    <Piece NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"%d\" "
	           "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n", c->point_count, c->contour_count);
	fprintf(f, "      <Points>\n");
	fprintf(f, "        <DataArray type=\"Float32\" Name=\"position\" NumberOfComponents=\"3\" format=\"ascii\">\n");
	for (int i = 0; i < c->point_count; ++i) fprintf(f, "%.9g %.9g 0\n", (double)c->x[i], (double)c->y[i]);
	fprintf(f, "        </DataArray>\n      </Points>\n      <CellData Scalars=\"area\">\n");
	fprintf(f, "        <DataArray type=\"Float32\" Name=\"area\" format=\"ascii\">\n");
	for (int k = 0; k < c->contour_count; ++k) fprintf(f, "%.9g\n", pdl_contour_area(c, k));
	fprintf(f, "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"hole\" format=\"ascii\">\n");
	for (int k = 0; k < c->contour_count; ++k) fprintf(f, "%d\n", pdl_contour_area(c, k) < 0);
	fprintf(f, "        </DataArray>\n      </CellData>\n");
	fprintf(f, "      <Lines>\n        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
	for (int k = 0; k < c->contour_count; ++k) {
		for (int i = c->offsets[k]; i < c->offsets[k + 1]; ++i) fprintf(f, "%d ", i);
		fprintf(f, "%d\n", c->offsets[k]);
	}
	fprintf(f, "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n");
	for (int k = 0; k < c->contour_count; ++k) fprintf(f, "%d\n", c->offsets[k + 1] + k + 1);
	fprintf(f, "        </DataArray>\n      </Lines>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
	return pdl_atomic_commit(&a, err);
}

/* ---- meshes ----------------------------------------------------------------------------------- */

static bool mesh_valid(const pdl_mesh* m, const char* path, pdl_error* err)
{
	bool ok = m && m->vertex_count >= 0 && m->triangle_count >= 0 &&
	          (m->vertex_count == 0 || (m->positions && m->normals)) && (m->triangle_count == 0 || m->triangles);
	for (int t = 0; ok && t < 3 * m->triangle_count; ++t) ok = m->triangles[t] >= 0 && m->triangles[t] < m->vertex_count;
	if (!ok) pdl_error_fill(err, PDL_ERR_EXPORT_DATA, path ? path : "(null)", NULL, "not a valid mesh");
	return ok;
}

bool pdl_mesh_write_obj(const char* path, const pdl_mesh* m, pdl_error* err)
{
	if (!path || !mesh_valid(m, path, err)) return false;
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	FILE* f = a.f;
	fprintf(f, "# puddle fluid surface: %d vertices, %d triangles, counter-clockwise seen from outside\n",
	        m->vertex_count, m->triangle_count);
	for (int v = 0; v < m->vertex_count; ++v) {
		const float* p = m->positions + 3 * v;
		fprintf(f, "v %.9g %.9g %.9g\n", (double)p[0], (double)p[1], (double)p[2]);
	}
	for (int v = 0; v < m->vertex_count; ++v) {
		const float* n = m->normals + 3 * v;
		fprintf(f, "vn %.6g %.6g %.6g\n", (double)n[0], (double)n[1], (double)n[2]);
	}
	for (int t = 0; t < m->triangle_count; ++t) {
		const int* i = m->triangles + 3 * t;
		fprintf(f, "f %d//%d %d//%d %d//%d\n", i[0] + 1, i[0] + 1, i[1] + 1, i[1] + 1, i[2] + 1, i[2] + 1);
	}
	return pdl_atomic_commit(&a, err);
}

static void put_u32(unsigned char* b, uint32_t v)
{
	b[0] = (unsigned char)v, b[1] = (unsigned char)(v >> 8), b[2] = (unsigned char)(v >> 16), b[3] = (unsigned char)(v >> 24);
}

static void put_f32(unsigned char* b, float v)
{
	uint32_t u;
	memcpy(&u, &v, sizeof u);
	put_u32(b, u);
}

bool pdl_mesh_write_ply(const char* path, const pdl_mesh* m, pdl_error* err)
{
	if (!path || !mesh_valid(m, path, err)) return false;
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	FILE* f = a.f;
	fprintf(f, "ply\nformat binary_little_endian 1.0\ncomment puddle fluid surface, counter-clockwise seen from "
	           "outside\nelement vertex %d\n", m->vertex_count);
	fprintf(f, "property float x\nproperty float y\nproperty float z\n");
	fprintf(f, "property float nx\nproperty float ny\nproperty float nz\n");
	fprintf(f, "element face %d\nproperty list uchar int vertex_indices\nend_header\n", m->triangle_count);
	/* bytes put one by one, so the file is little-endian on any machine */
	unsigned char b[24];
	for (int v = 0; v < m->vertex_count; ++v) {
		for (int c = 0; c < 3; ++c) put_f32(b + 4 * c, m->positions[3 * v + c]);
		for (int c = 0; c < 3; ++c) put_f32(b + 12 + 4 * c, m->normals[3 * v + c]);
		fwrite(b, 1, 24, f);
	}
	for (int t = 0; t < m->triangle_count; ++t) {
		b[0] = 3;
		for (int c = 0; c < 3; ++c) put_u32(b + 1 + 4 * c, (uint32_t)m->triangles[3 * t + c]);
		fwrite(b, 1, 13, f);
	}
	return pdl_atomic_commit(&a, err);
}
