/* Surfaces (io/include/puddle/surface.h): the field, marching squares contours, marching
 * tetrahedra meshes, their files, and bad input. */
#define _POSIX_C_SOURCE 200809L
#include "puddle/surface.h"
#include "test.h"
#include "io_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double pi = 3.14159265358979323846;

/* ---- particle sets ------------------------------------------------------------------------- */

typedef struct cloud {
	int count, capacity;
	float *x, *y, *z;
} cloud;

static void cloud_add(cloud* c, double x, double y, double z)
{
	if (c->count == c->capacity) {
		c->capacity = c->capacity ? 2 * c->capacity : 1024;
		c->x = realloc(c->x, (size_t)c->capacity * sizeof *c->x);
		c->y = realloc(c->y, (size_t)c->capacity * sizeof *c->y);
		c->z = realloc(c->z, (size_t)c->capacity * sizeof *c->z);
	}
	c->x[c->count] = (float)x, c->y[c->count] = (float)y, c->z[c->count] = (float)z;
	c->count++;
}

static void cloud_free(cloud* c)
{
	free(c->x), free(c->y), free(c->z);
	memset(c, 0, sizeof *c);
}

/* Hexagonal lattice points at spacing s (rows s sqrt(3)/2 apart, every other row shifted by
 * s/2), centred on (cx, cy), with r_in <= distance <= r_out. */
static void hex_ring(cloud* c, double s, double cx, double cy, double r_in, double r_out)
{
	double row = s * 0.8660254037844386;
	int rows = (int)(r_out / row) + 1, cols = (int)(r_out / s) + 2;
	for (int j = -rows; j <= rows; ++j)
		for (int i = -cols; i <= cols; ++i) {
			double x = (i + 0.5 * (j & 1)) * s, y = j * row, r = sqrt(x * x + y * y);
			if (r <= r_out && r >= r_in) cloud_add(c, cx + x, cy + y, 0);
		}
}

/* Cubic lattice points at spacing s within radius r of the origin. */
static void cubic_ball(cloud* c, double s, double r)
{
	int n = (int)(r / s) + 1;
	for (int k = -n; k <= n; ++k)
		for (int j = -n; j <= n; ++j)
			for (int i = -n; i <= n; ++i) {
				double x = i * s, y = j * s, z = k * s;
				if (x * x + y * y + z * z <= r * r) cloud_add(c, x, y, z);
			}
}

/* Where the surface should be (surface.h): the iso level, half the bulk field, puts it on the
 * boundary of the region the particles fill. On a straight lattice edge that is s/2 beyond the
 * outermost row (hexagonal rows: (sqrt 3 / 4) s = 0.43 s); test_straight_edge measures it. A
 * disc of lattice points within radius R0 fills the area pi R0^2 (count x area per particle:
 * the lattice's edge is ragged, its outermost particles lie on average about s/2 inside R0),
 * so the documented offset from the lattice radius is 0: R_eff = R0. Same for a ball. */
#define R0 10.0

static void print_error(const char* what, double measured, double expected)
{
	printf("  %s: measured %.4f, expected %.4f, error %+.2f %%\n", what, measured, expected,
	       100.0 * (measured - expected) / expected);
}

/* ---- 2D ---------------------------------------------------------------------------------------- */

/* Every contour closes (consecutive points, the last and the first included, are at most one
 * cell diagonal apart), has at least 4 points and no NaN. */
static bool contours_closed(const pdl_contours* c, float cell)
{
	if (c->offsets[0] != 0 || c->offsets[c->contour_count] != c->point_count) return false;
	for (int k = 0; k < c->contour_count; ++k) {
		int a = c->offsets[k], b = c->offsets[k + 1];
		if (b - a < 4) return false;
		for (int i = a; i < b; ++i) {
			int j = i + 1 < b ? i + 1 : a;
			if (!isfinite(c->x[i]) || !isfinite(c->y[i])) return false;
			double dx = c->x[j] - c->x[i], dy = c->y[j] - c->y[i];
			if (sqrt(dx * dx + dy * dy) > 1.4143 * cell) return false;
		}
	}
	return true;
}

static void test_disc_area(void)
{
	pdl_surface_def def = pdl_default_surface_def();
	double s = def.spacing;
	cloud c = {0};
	hex_ring(&c, s, 0.3, -0.2, 0, R0);
	pdl_contours out;
	pdl_error err;
	ENSURE(pdl_surface_contours(&def, c.x, c.y, c.count, &out, &err));
	ENSURE_MSG(out.contour_count == 1, "%d contours", out.contour_count);
	ENSURE(contours_closed(&out, def.cell_size));
	double area = pdl_contour_area(&out, 0), r_eff = R0;
	printf("  disc: %d particles within R0 = %g\n", c.count, R0);
	print_error("disc area / (pi R_eff^2), R_eff = R0", area, pi * r_eff * r_eff);
	print_error("disc area / (particles x area per particle)", area, c.count * 0.8660254037844386 * s * s);
	ENSURE_MSG(area > 0, "area %g: the outer contour must run counter-clockwise", area);
	ENSURE_MSG(fabs(area / (pi * r_eff * r_eff) - 1) < 0.05, "area %g vs %g", area, pi * r_eff * r_eff);
	pdl_contours_free(&out);
	cloud_free(&c);
}

/* A wide block of hexagonal rows: over its middle, the top contour runs (sqrt 3 / 4) s above the
 * top row, "about s/2" beyond the outermost particles. */
static void test_straight_edge(void)
{
	pdl_surface_def def = pdl_default_surface_def();
	double s = def.spacing, row = s * 0.8660254037844386;
	cloud c = {0};
	double top = -1e9;
	for (int j = 0; j < 30; ++j)
		for (int i = 0; i < 60; ++i) {
			cloud_add(&c, (i + 0.5 * (j & 1)) * s, j * row, 0);
			top = fmax(top, j * row);
		}
	pdl_contours out;
	ENSURE(pdl_surface_contours(&def, c.x, c.y, c.count, &out, NULL));
	ENSURE(out.contour_count == 1);
	double sum = 0;
	int n = 0;
	for (int i = 0; i < out.point_count; ++i)
		if (out.y[i] > top && out.x[i] > 15 * s && out.x[i] < 45 * s) sum += out.y[i] - top, n++;
	ENSURE(n > 20);
	double offset = sum / n;
	print_error("straight edge: surface beyond the top row / s", offset / s, 0.4330127);
	ENSURE_MSG(fabs(offset / s - 0.4330127) < 0.05, "offset %g s", offset / s);
	pdl_contours_free(&out);
	cloud_free(&c);
}

static void test_two_discs_and_ring(void)
{
	pdl_surface_def def = pdl_default_surface_def();
	double s = def.spacing;
	cloud c = {0};
	hex_ring(&c, s, -8, 0, 0, 5);
	hex_ring(&c, s, 8, 1, 0, 4); /* 16 apart: 7 h between the edges */
	pdl_contours out;
	ENSURE(pdl_surface_contours(&def, c.x, c.y, c.count, &out, NULL));
	ENSURE_MSG(out.contour_count == 2, "%d contours", out.contour_count);
	ENSURE(contours_closed(&out, def.cell_size));
	ENSURE(pdl_contour_area(&out, 0) > 0 && pdl_contour_area(&out, 1) > 0);
	pdl_contours_free(&out);
	cloud_free(&c);

	/* an annulus: one outer boundary (counter-clockwise) and one hole (clockwise) */
	hex_ring(&c, s, 1, 2, 5, 9);
	ENSURE(pdl_surface_contours(&def, c.x, c.y, c.count, &out, NULL));
	ENSURE_MSG(out.contour_count == 2, "%d contours", out.contour_count);
	ENSURE(contours_closed(&out, def.cell_size));
	double a0 = pdl_contour_area(&out, 0), a1 = pdl_contour_area(&out, 1);
	double outer = a0 > a1 ? a0 : a1, hole = a0 > a1 ? a1 : a0;
	ENSURE_MSG(outer > 0 && hole < 0, "areas %g and %g: must have opposite signs", a0, a1);
	double expected_hole = pi * 5 * 5, expected_outer = pi * 9 * 9;
	print_error("ring outer area", outer, expected_outer);
	print_error("ring hole area", -hole, expected_hole);
	ENSURE_MSG(fabs(-hole / expected_hole - 1) < 0.05, "hole %g vs %g", -hole, expected_hole);
	ENSURE_MSG(fabs(outer / expected_outer - 1) < 0.05, "outer %g vs %g", outer, expected_outer);
	pdl_contours_free(&out);
	cloud_free(&c);
}

/* A hand-made 4 x 4 field whose middle cell is a saddle: corners (1,1) and (2,2) inside, (2,1)
 * and (1,2) outside. A centre above iso joins the two inside corners (one contour); below, it
 * separates them (two). */
static void test_saddle(void)
{
	float values[16] = {0};
	pdl_field f = {2, 4, 4, 1, {0, 0, 0}, 1.0f, 0.5f, values};
	values[1 + 4 * 1] = 1.0f, values[2 + 4 * 2] = 1.0f;
	values[2 + 4 * 1] = 0.2f, values[1 + 4 * 2] = 0.2f; /* centre (1 + 1 + 0.2 + 0.2) / 4 = 0.6 */
	pdl_contours out;
	ENSURE(pdl_field_contours(&f, 0.5f, &out, NULL));
	ENSURE_MSG(out.contour_count == 1, "centre inside: %d contours", out.contour_count);
	ENSURE(pdl_contour_area(&out, 0) > 0);
	ENSURE(contours_closed(&out, 1.0f));
	pdl_contours_free(&out);
	values[2 + 4 * 1] = 0.0f, values[1 + 4 * 2] = 0.0f; /* centre 0.5, not above iso */
	ENSURE(pdl_field_contours(&f, 0.5f, &out, NULL));
	ENSURE_MSG(out.contour_count == 2, "centre outside: %d contours", out.contour_count);
	ENSURE(pdl_contour_area(&out, 0) > 0 && pdl_contour_area(&out, 1) > 0);
	/* each crossing is interpolated: half-way between 1 and 0 at iso 0.5 */
	for (int i = 0; i < out.point_count; ++i) {
		double fx = out.x[i] - floor(out.x[i]), fy = out.y[i] - floor(out.y[i]);
		ENSURE_MSG(fabs(fx - 0.5) < 1e-6 || fabs(fy - 0.5) < 1e-6 || (fx == 0 && fy == 0), "point %g %g", out.x[i],
		           out.y[i]);
	}
	pdl_contours_free(&out);
	/* the border counts as outside: a field that is 1 everywhere still gives one closed contour */
	for (int i = 0; i < 16; ++i) values[i] = 1.0f;
	ENSURE(pdl_field_contours(&f, 0.5f, &out, NULL));
	ENSURE_MSG(out.contour_count == 1, "full field: %d contours", out.contour_count);
	ENSURE(contours_closed(&out, 1.0f));
	pdl_contours_free(&out);
}

/* ---- 3D ---------------------------------------------------------------------------------------- */

static void test_ball_mesh(void)
{
	pdl_surface_def def = pdl_default_surface_def_3d();
	def.spacing = 0.5f;
	double s = def.spacing, r0 = 5.0;
	cloud c = {0};
	cubic_ball(&c, s, r0);
	pdl_mesh m;
	pdl_error err;
	ENSURE(pdl_surface_mesh(&def, c.x, c.y, c.z, c.count, &m, &err));
	printf("  ball: %d particles, %d vertices, %d triangles\n", c.count, m.vertex_count, m.triangle_count);
	ENSURE(m.triangle_count > 100);
	ENSURE_MSG(io_test_mesh_closed(&m), "the mesh has an open or doubled edge");
	for (int i = 0; i < 3 * m.vertex_count; ++i) ENSURE(isfinite(m.positions[i]) && isfinite(m.normals[i]));
	/* outward: the normals point away from the centre */
	int inward = 0;
	for (int v = 0; v < m.vertex_count; ++v) {
		const float* p = m.positions + 3 * v;
		const float* n = m.normals + 3 * v;
		inward += p[0] * n[0] + p[1] * n[1] + p[2] * n[2] <= 0;
	}
	ENSURE_MSG(inward == 0, "%d normals point inward", inward);
	/* a field that is not 0 on its border still gives a closed mesh: the border counts as outside */
	float ones[27];
	for (int i = 0; i < 27; ++i) ones[i] = 1.0f;
	pdl_field full = {3, 3, 3, 3, {0, 0, 0}, 1.0f, 0.5f, ones};
	pdl_mesh box;
	ENSURE(pdl_field_mesh(&full, 0.5f, &box, NULL));
	ENSURE_MSG(io_test_mesh_closed(&box) && pdl_mesh_volume(&box) > 0, "full field: %d triangles, volume %g", box.triangle_count,
	           pdl_mesh_volume(&box));
	pdl_mesh_free(&box);
	double volume = pdl_mesh_volume(&m), r_eff = r0, expected = 4.0 / 3.0 * pi * r_eff * r_eff * r_eff;
	print_error("ball volume / (4/3 pi R_eff^3), R_eff = R0", volume, expected);
	print_error("ball volume / (particles x s^3)", volume, c.count * s * s * s);
	ENSURE_MSG(volume > 0, "volume %g: triangles must be counter-clockwise seen from outside", volume);
	ENSURE_MSG(fabs(volume / expected - 1) < 0.05, "volume %g vs %g", volume, expected);
	pdl_mesh_free(&m);

	/* two balls and a hollow ball (a cavity: its surface faces inwards) stay closed */
	cloud_free(&c);
	for (int k = 0; k < 2; ++k) {
		cloud b = {0};
		cubic_ball(&b, s, 2.0);
		for (int i = 0; i < b.count; ++i) cloud_add(&c, b.x[i] + (k ? 3.0 : -3.0), b.y[i], b.z[i]);
		cloud_free(&b);
	}
	ENSURE(pdl_surface_mesh(&def, c.x, c.y, c.z, c.count, &m, NULL));
	ENSURE(io_test_mesh_closed(&m));
	pdl_mesh_free(&m);
	cloud_free(&c);
	cloud hollow = {0};
	cubic_ball(&hollow, s, 4.0);
	for (int i = 0; i < hollow.count; ++i) {
		double r = sqrt(hollow.x[i] * hollow.x[i] + hollow.y[i] * hollow.y[i] + hollow.z[i] * hollow.z[i]);
		if (r >= 2.5) cloud_add(&c, hollow.x[i], hollow.y[i], hollow.z[i]);
	}
	ENSURE(pdl_surface_mesh(&def, c.x, c.y, c.z, c.count, &m, NULL));
	ENSURE(io_test_mesh_closed(&m));
	double shell = pdl_mesh_volume(&m), a = 4.0, b = 2.5; /* the filled region, as for the ball */
	print_error("hollow ball volume", shell, 4.0 / 3.0 * pi * (a * a * a - b * b * b));
	ENSURE(fabs(shell / (4.0 / 3.0 * pi * (a * a * a - b * b * b)) - 1) < 0.05);
	pdl_mesh_free(&m);
	cloud_free(&c);
	cloud_free(&hollow);
}

/* ---- files ---------------------------------------------------------------------------------- */

static int count_of(const char* text, const char* what)
{
	int n = 0;
	for (const char* p = text; (p = strstr(p, what)); p += strlen(what)) ++n;
	return n;
}

static int lines_starting(const char* text, const char* prefix)
{
	int n = 0;
	size_t len = strlen(prefix);
	for (const char* p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, prefix, len) == 0) ++n;
	return n;
}

static void test_files(void)
{
	char dir[] = "/tmp/puddle_surface_XXXXXX";
	ENSURE(mkdtemp(dir));
	char svg[256], vtp[256], obj[256], ply[256];
	pdl_error err;
	snprintf(svg, sizeof svg, "%s/c.svg", dir), snprintf(vtp, sizeof vtp, "%s/c.vtp", dir);
	snprintf(obj, sizeof obj, "%s/m.obj", dir), snprintf(ply, sizeof ply, "%s/m.ply", dir);

	pdl_surface_def def = pdl_default_surface_def();
	cloud c = {0};
	hex_ring(&c, def.spacing, 0, 0, 2, 4);
	pdl_contours con;
	ENSURE(pdl_surface_contours(&def, c.x, c.y, c.count, &con, NULL));
	ENSURE(con.contour_count == 2);
	ENSURE_MSG(pdl_contours_write_svg(svg, &con, &err), "%s", err.message);
	ENSURE_MSG(pdl_contours_write_vtp(vtp, &con, &err), "%s", err.message);
	size_t n;
	char* text = io_test_read_file(svg, &n);
	ENSURE(text && strncmp(text, "<?xml", 5) == 0 && strstr(text, "</svg>\n"));
	ENSURE_MSG(count_of(text, "<path") == con.contour_count + 1, "%d paths", count_of(text, "<path"));
	ENSURE(count_of(text, "class=\"hole\"") == 1 && count_of(text, "class=\"outer\"") == 1);
	ENSURE(count_of(text, "fill-rule=\"evenodd\"") >= 1 && !strstr(text, "nan"));
	free(text);
	text = io_test_read_file(vtp, &n);
	char expect[128];
	snprintf(expect, sizeof expect, "NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"%d\"", con.point_count,
	         con.contour_count);
	ENSURE(text && strstr(text, expect) && strstr(text, "</VTKFile>"));
	free(text);
	pdl_contours_free(&con);
	cloud_free(&c);

	pdl_surface_def d3 = pdl_default_surface_def_3d();
	cubic_ball(&c, d3.spacing, 2.0);
	pdl_mesh m;
	ENSURE(pdl_surface_mesh(&d3, c.x, c.y, c.z, c.count, &m, NULL));
	ENSURE(m.triangle_count > 0);
	ENSURE_MSG(pdl_mesh_write_obj(obj, &m, &err), "%s", err.message);
	ENSURE_MSG(pdl_mesh_write_ply(ply, &m, &err), "%s", err.message);
	text = io_test_read_file(obj, &n);
	ENSURE(text);
	ENSURE_MSG(lines_starting(text, "v ") == m.vertex_count && lines_starting(text, "vn ") == m.vertex_count &&
	               lines_starting(text, "f ") == m.triangle_count,
	           "obj: %d v, %d f; mesh %d, %d", lines_starting(text, "v "), lines_starting(text, "f "), m.vertex_count,
	           m.triangle_count);
	free(text);
	text = io_test_read_file(ply, &n);
	ENSURE(text && strncmp(text, "ply\nformat binary_little_endian 1.0\n", 36) == 0);
	const char* end = strstr(text, "end_header\n");
	int nv = -1, nf = -1;
	const char* ev = strstr(text, "element vertex ");
	const char* ef = strstr(text, "element face ");
	ENSURE(end && ev && ef && sscanf(ev, "element vertex %d", &nv) == 1 && sscanf(ef, "element face %d", &nf) == 1);
	ENSURE_MSG(nv == m.vertex_count && nf == m.triangle_count, "ply: %d %d", nv, nf);
	size_t header = (size_t)(end - text) + strlen("end_header\n");
	ENSURE_MSG(n == header + 24 * (size_t)nv + 13 * (size_t)nf, "ply size %zu", n);
	/* the first face reads back as the mesh's */
	const unsigned char* face = (const unsigned char*)text + header + 24 * (size_t)nv;
	uint32_t i0 = face[1] | face[2] << 8 | (uint32_t)face[3] << 16 | (uint32_t)face[4] << 24;
	ENSURE(face[0] == 3 && i0 == (uint32_t)m.triangles[0]);
	free(text);
	pdl_mesh_free(&m);
	cloud_free(&c);

	/* a failed write leaves nothing: no file, no temporary */
	char bad[300];
	snprintf(bad, sizeof bad, "%s/missing/c.svg", dir);
	pdl_contours empty = {0};
	ENSURE(!pdl_contours_write_svg(bad, &empty, &err) && strstr(err.message, "cannot write"));
	ENSURE(access(bad, F_OK) != 0);
	remove(svg), remove(vtp), remove(obj), remove(ply), rmdir(dir);
}

/* ---- bad input -------------------------------------------------------------------------------- */

static void test_bad_input(void)
{
	float x[3] = {0, 1, 2}, y[3] = {0, 0, 0}, z[3] = {0, 0, 0};
	pdl_contours con;
	pdl_mesh mesh;
	pdl_field field;
	pdl_error err;
	pdl_surface_def def = pdl_default_surface_def();
	def.radius = -1;
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_RADIUS);
	ENSURE_MSG(strcmp(err.message, "surface.radius must be finite and > 0, got -1") == 0, "%s", err.message);
	ENSURE(con.contour_count == 0 && con.x == NULL);
	pdl_contours_free(&con); /* a failed call's result may be freed */
	def = pdl_default_surface_def();
	def.cell_size = 0;
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_CELL_SIZE);
	ENSURE(!pdl_surface_mesh(&def, x, y, z, 3, &mesh, &err) && err.id == PDL_ERR_SURFACE_CELL_SIZE);
	def.cell_size = NAN;
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_CELL_SIZE);
	def = pdl_default_surface_def();
	def.iso_fraction = 1;
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_ISO_FRACTION);
	def = pdl_default_surface_def();
	def.spacing = 0;
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_SPACING);
	def = pdl_default_surface_def();
	y[1] = NAN, x[2] = NAN; /* the first bad particle is named, whichever axis */
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_POSITION && err.value == 1);
	ENSURE_MSG(strcmp(err.message, "surface.position must be finite, particle 1 is not") == 0, "%s", err.message);
	y[1] = 0, x[2] = 2, z[2] = INFINITY;
	ENSURE(!pdl_surface_mesh(&def, x, y, z, 3, &mesh, &err) && err.id == PDL_ERR_SURFACE_POSITION && err.value == 2);
	z[2] = 0;
	ENSURE(!pdl_surface_contours(&def, x, y, -1, &con, &err) && err.id == PDL_ERR_SURFACE_COUNT);
	ENSURE(!pdl_surface_contours(&def, NULL, y, 3, &con, &err) && err.id == PDL_ERR_NULL_ARGUMENT);
	ENSURE(!pdl_surface_contours(NULL, x, y, 3, &con, &err) && err.id == PDL_ERR_NULL_ARGUMENT);
	/* a particle far away asks for a huge grid: refused, not allocated */
	x[2] = 1e7f;
	ENSURE(!pdl_surface_contours(&def, x, y, 3, &con, &err) && err.id == PDL_ERR_SURFACE_TOO_MANY_SAMPLES);
	def.cell_size = 1e-30f;
	ENSURE(!pdl_surface_mesh(&def, x, y, z, 3, &mesh, &err) && err.id == PDL_ERR_SURFACE_TOO_MANY_SAMPLES);
	/* no particles: an empty result, not an error */
	def = pdl_default_surface_def();
	ENSURE(pdl_surface_contours(&def, NULL, NULL, 0, &con, &err) && err.id == PDL_OK && con.contour_count == 0);
	pdl_contours_free(&con);
	/* a field of the wrong kind, a non-finite iso */
	x[2] = 2;
	ENSURE(pdl_surface_field(&def, 2, x, y, NULL, 3, &field, &err));
	ENSURE(!pdl_field_mesh(&field, field.iso, &mesh, &err) && err.id == PDL_ERR_SURFACE_FIELD);
	ENSURE(!pdl_field_contours(&field, NAN, &con, &err) && err.id == PDL_ERR_SURFACE_ISO);
	pdl_field_free(&field);
	ENSURE(!pdl_surface_field(&def, 4, x, y, z, 3, &field, &err) && err.id == PDL_ERR_SURFACE_FIELD);
	ENSURE(field.values == NULL);
	ENSURE(strcmp(pdl_error_name(PDL_ERR_SURFACE_SPACING), "PDL_ERR_SURFACE_SPACING") == 0);
}

/* The field itself: a lone particle's centre is W(0) = 1, and the bulk of a lattice matches the
 * continuum value that the iso level is a fraction of. */
static void test_field_values(void)
{
	pdl_surface_def def = pdl_default_surface_def();
	float x = 0.25f, y = 0.5f; /* on sample points */
	pdl_field f;
	ENSURE(pdl_surface_field(&def, 2, &x, &y, NULL, 1, &f, NULL));
	ENSURE(f.nx >= 2 + 2 * 4 && f.ny == f.nx);
	double sum = 0, peak = 0;
	for (int i = 0; i < f.nx * f.ny; ++i) sum += f.values[i], peak = fmax(peak, f.values[i]);
	ENSURE_MSG(fabs(peak - 1) < 1e-6, "peak %g", peak);
	/* the samples sum to the kernel's integral, pi R^2 / 4, over the cell area */
	double integral = sum * f.cell_size * f.cell_size;
	ENSURE_MSG(fabs(integral - pi / 4) < 0.01, "integral %g", integral);
	for (int i = 0; i < f.nx; ++i) ENSURE(f.values[i] == 0 && f.values[(size_t)(f.ny - 1) * (size_t)f.nx + (size_t)i] == 0);
	pdl_field_free(&f);
	cloud c = {0};
	hex_ring(&c, def.spacing, 0, 0, 0, 5);
	ENSURE(pdl_surface_field(&def, 2, c.x, c.y, NULL, c.count, &f, NULL));
	int centre_i = (int)lround((0 - f.origin[0]) / f.cell_size), centre_j = (int)lround((0 - f.origin[1]) / f.cell_size);
	double bulk = f.values[(size_t)centre_j * (size_t)f.nx + (size_t)centre_i];
	print_error("bulk field / continuum value", bulk, 2.0 * f.iso);
	ENSURE_MSG(fabs(bulk / (2.0 * f.iso) - 1) < 0.01, "bulk %g, iso %g", bulk, f.iso);
	pdl_field_free(&f);
	cloud_free(&c);
}

int main(void)
{
	RUN_TEST(test_field_values);
	RUN_TEST(test_straight_edge);
	RUN_TEST(test_disc_area);
	RUN_TEST(test_two_discs_and_ring);
	RUN_TEST(test_saddle);
	RUN_TEST(test_ball_mesh);
	RUN_TEST(test_files);
	RUN_TEST(test_bad_input);
	return TEST_SUMMARY();
}
