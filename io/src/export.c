/* VTK XML PolyData + PVD (ParaView), PLY (Blender), CSV (see export.h). */
#include "puddle/export.h"

#include "atomic_file.h"
#include "body_geometry.h"

#include <math.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Storage order changes every step (the engine sorts by grid cell); exports use id order. Keys
 * are id << 32 | index, so sorting plain integers sorts by id (ids are unique). */
static int compare_keys(const void* a, const void* b)
{
	uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
	return (x > y) - (x < y);
}

static int* id_order(const pdl_particle_data* p)
{
	size_t n = (size_t)(p->count > 0 ? p->count : 1);
	uint64_t* keys = malloc(n * sizeof *keys);
	int* order = malloc(n * sizeof *order);
	if (!keys || !order) {
		free(keys);
		free(order);
		return NULL;
	}
	for (int i = 0; i < p->count; ++i) keys[i] = (uint64_t)p->id[i] << 32 | (uint32_t)i;
	qsort(keys, (size_t)p->count, sizeof *keys, compare_keys);
	for (int i = 0; i < p->count; ++i) order[i] = (int)(keys[i] & 0xffffffffu);
	free(keys);
	return order;
}

/* header: the count the header gives (PLY's vertex element; the whole file's particles when this
 * writes one piece of it), or -1 for rows only */
typedef void (*writer)(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order, long long header);

static bool write_file(const char* path, const pdl_world* w, const pdl_particle_data* p, writer write, pdl_error* err)
{
	int* order = id_order(p);
	if (!order) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	pdl_atomic_file a;
	bool ok = pdl_atomic_open(&a, path, err);
	if (ok) {
		write(a.f, w, p, order, p->count);
		ok = pdl_atomic_commit(&a, err);
	}
	free(order);
	return ok;
}

static bool write_stream(FILE* f, const pdl_world* w, const pdl_particle_data* p, writer write, long long header)
{
	int* order = id_order(p);
	if (!order) return false;
	write(f, w, p, order, header);
	free(order);
	return !ferror(f);
}

/* ---- VTK ---------------------------------------------------------------------------------------- */

/* comps 3: the vector (a, b, c), c = NULL (2D worlds) writing z = 0; comps 1: the scalar a */
static void vtp_floats(FILE* f, const char* name, int comps, const pdl_particle_data* p, const int* order,
                       const float* a, const float* b, const float* c)
{
	fprintf(f, "        <DataArray type=\"Float32\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n", name, comps);
	for (int k = 0; k < p->count; ++k) {
		int i = order[k];
		/* %.9g: every float reads back exactly */
		if (comps == 3 && c) fprintf(f, "%.9g %.9g %.9g\n", (double)a[i], (double)b[i], (double)c[i]);
		else if (comps == 3) fprintf(f, "%.9g %.9g 0\n", (double)a[i], (double)b[i]);
		else fprintf(f, "%.9g\n", a ? (double)a[i] : 0.0);
	}
	fprintf(f, "        </DataArray>\n");
}

static void write_vtp(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order, long long header)
{
	(void)w, (void)header;
	int n = p->count;
	fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
	fprintf(f, "  <PolyData>\n    <Piece NumberOfPoints=\"%d\" NumberOfVerts=\"%d\" NumberOfLines=\"0\" "
	           "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n", n, n);
	fprintf(f, "      <Points>\n");
	vtp_floats(f, "position", 3, p, order, p->x, p->y, p->z);
	fprintf(f, "      </Points>\n      <PointData Scalars=\"density\" Vectors=\"velocity\">\n");
	vtp_floats(f, "velocity", 3, p, order, p->vx, p->vy, p->vz);
	vtp_floats(f, "density", 1, p, order, p->density, NULL, NULL);
	vtp_floats(f, "pressure", 1, p, order, p->pressure, NULL, NULL);
	fprintf(f, "        <DataArray type=\"Int32\" Name=\"material\" format=\"ascii\">\n");
	for (int k = 0; k < n; ++k) fprintf(f, "%d\n", p->material[order[k]]);
	fprintf(f, "        </DataArray>\n        <DataArray type=\"UInt32\" Name=\"id\" format=\"ascii\">\n");
	for (int k = 0; k < n; ++k) fprintf(f, "%u\n", (unsigned)p->id[order[k]]);
	fprintf(f, "        </DataArray>\n      </PointData>\n");
	fprintf(f, "      <Verts>\n        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
	for (int k = 0; k < n; ++k) fprintf(f, "%d\n", k);
	fprintf(f, "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n");
	for (int k = 0; k < n; ++k) fprintf(f, "%d\n", k + 1);
	fprintf(f, "        </DataArray>\n      </Verts>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
}

bool pdl_export_vtp(const char* path, const pdl_world* w, pdl_error* err)
{
	pdl_particle_data p = pdl_world_particles(w);
	return write_file(path, w, &p, write_vtp, err);
}

bool pdl_export_vtp_particles(const char* path, const pdl_world* w, const pdl_particle_data* p, pdl_error* err)
{
	return write_file(path, w, p, write_vtp, err);
}

static void xml_attribute(FILE* f, const char* s)
{
	for (; *s; ++s) {
		if (*s == '&') fputs("&amp;", f);
		else if (*s == '"') fputs("&quot;", f);
		else if (*s == '<') fputs("&lt;", f);
		else if (*s == '>') fputs("&gt;", f);
		else fputc(*s, f);
	}
}

bool pdl_export_pvd_datasets(const char* path, const pdl_pvd_dataset* sets, int count, pdl_error* err)
{
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	fprintf(a.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
	fprintf(a.f, "  <Collection>\n");
	for (int i = 0; i < count; ++i) {
		fprintf(a.f, "    <DataSet timestep=\"%.9g\" group=\"\" part=\"%d\" ", sets[i].time, sets[i].part);
		if (sets[i].name) {
			fprintf(a.f, "name=\"");
			xml_attribute(a.f, sets[i].name);
			fprintf(a.f, "\" ");
		}
		fprintf(a.f, "file=\"");
		xml_attribute(a.f, sets[i].file);
		fprintf(a.f, "\"/>\n");
	}
	fprintf(a.f, "  </Collection>\n</VTKFile>\n");
	return pdl_atomic_commit(&a, err);
}

bool pdl_export_pvd(const char* path, const char* const* files, const double* times, int count, pdl_error* err)
{
	pdl_pvd_dataset* sets = malloc((size_t)(count > 0 ? count : 1) * sizeof *sets);
	if (!sets) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	for (int i = 0; i < count; ++i) sets[i] = (pdl_pvd_dataset){files[i], times[i], 0, NULL};
	bool ok = pdl_export_pvd_datasets(path, sets, count, err);
	free(sets);
	return ok;
}

/* The arrays of write_vtp, as a parallel file declares them (type, name, components). */
static const struct {
	const char *type, *name;
	int comps;
} vtp_point_data[] = {{"Float32", "velocity", 3}, {"Float32", "density", 1}, {"Float32", "pressure", 1},
                      {"Int32", "material", 1}, {"UInt32", "id", 1}};

bool pdl_export_pvtp(const char* path, const char* const* pieces, int count, pdl_error* err)
{
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	fprintf(a.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
	fprintf(a.f, "  <PPolyData GhostLevel=\"0\">\n    <PPoints>\n");
	fprintf(a.f, "      <PDataArray type=\"Float32\" Name=\"position\" NumberOfComponents=\"3\"/>\n    </PPoints>\n");
	fprintf(a.f, "    <PPointData Scalars=\"density\" Vectors=\"velocity\">\n");
	for (size_t k = 0; k < sizeof vtp_point_data / sizeof vtp_point_data[0]; ++k)
		fprintf(a.f, "      <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n", vtp_point_data[k].type,
		        vtp_point_data[k].name, vtp_point_data[k].comps);
	fprintf(a.f, "    </PPointData>\n");
	for (int i = 0; i < count; ++i) {
		fprintf(a.f, "    <Piece Source=\"");
		xml_attribute(a.f, pieces[i]);
		fprintf(a.f, "\"/>\n");
	}
	fprintf(a.f, "  </PPolyData>\n</VTKFile>\n");
	return pdl_atomic_commit(&a, err);
}

/* ---- PLY ------------------------------------------------------------------------------------------ */

static void write_ply(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order, long long header)
{
	bool is_3d = p->z != NULL;
	if (header >= 0) {
		fprintf(f, "ply\nformat ascii 1.0\ncomment puddle particles, t = %.9g s%s\n", pdl_world_time(w), is_3d ? "" : ", z = 0");
		fprintf(f, "element vertex %lld\n", header);
		fprintf(f, "property float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n");
		if (is_3d) fprintf(f, "property float vz\n");
		fprintf(f, "property float density\nproperty float pressure\nproperty uchar material\n");
		fprintf(f, "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n");
	}
	uint32_t colors[PDL_MAX_MATERIALS];
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) colors[m] = pdl_world_get_material(w, m).color;
	for (int k = 0; k < p->count; ++k) {
		int i = order[k];
		uint32_t c = colors[p->material[i] % PDL_MAX_MATERIALS];
		if (is_3d)
			fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g ", (double)p->x[i], (double)p->y[i], (double)p->z[i], (double)p->vx[i],
			        (double)p->vy[i], (double)p->vz[i]);
		else
			fprintf(f, "%.9g %.9g 0 %.9g %.9g ", (double)p->x[i], (double)p->y[i], (double)p->vx[i], (double)p->vy[i]);
		fprintf(f, "%.9g %.9g %d %u %u %u\n", p->density ? (double)p->density[i] : 0.0,
		        p->pressure ? (double)p->pressure[i] : 0.0, p->material[i], (unsigned)(c >> 16) & 255u,
		        (unsigned)(c >> 8) & 255u, (unsigned)c & 255u);
	}
}

bool pdl_export_ply(const char* path, const pdl_world* w, pdl_error* err)
{
	pdl_particle_data p = pdl_world_particles(w);
	return write_file(path, w, &p, write_ply, err);
}

/* The diffuse particles: x y z vx vy vz (z = 0 in 2D), kind (pdl_diffuse_kind) and life, in the
 * world's order (the oldest first). */
bool pdl_export_diffuse_ply(const char* path, const pdl_world* w, pdl_error* err)
{
	pdl_diffuse_data d = pdl_world_diffuse(w);
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	fprintf(a.f, "ply\nformat ascii 1.0\ncomment puddle diffuse particles, t = %.9g s\n", pdl_world_time(w));
	fprintf(a.f, "comment kind 0 spray, 1 foam, 2 bubble; life in seconds\nelement vertex %d\n", d.count);
	fprintf(a.f, "property float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n"
	             "property float vz\nproperty uchar kind\nproperty float life\nend_header\n");
	for (int i = 0; i < d.count; ++i)
		fprintf(a.f, "%.9g %.9g %.9g %.9g %.9g %.9g %d %.9g\n", (double)d.x[i], (double)d.y[i], (double)d.z[i],
		        (double)d.vx[i], (double)d.vy[i], (double)d.vz[i], d.kind[i], (double)d.life[i]);
	return pdl_atomic_commit(&a, err);
}

bool pdl_export_ply_stream(FILE* f, const pdl_world* w, const pdl_particle_data* p, long long header)
{
	return write_stream(f, w, p, write_ply, header);
}

/* ---- CSV ------------------------------------------------------------------------------------------ */

static void write_csv(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order, long long header)
{
	(void)w;
	bool is_3d = p->z != NULL;
	if (header >= 0)
		fprintf(f, is_3d ? "id,material,x,y,z,vx,vy,vz,density,pressure\n" : "id,material,x,y,vx,vy,density,pressure\n");
	for (int k = 0; k < p->count; ++k) {
		int i = order[k];
		fprintf(f, "%u,%d,%.9g,%.9g,", (unsigned)p->id[i], p->material[i], (double)p->x[i], (double)p->y[i]);
		if (is_3d) fprintf(f, "%.9g,", (double)p->z[i]);
		fprintf(f, "%.9g,%.9g,", (double)p->vx[i], (double)p->vy[i]);
		if (is_3d) fprintf(f, "%.9g,", (double)p->vz[i]);
		fprintf(f, "%.9g,%.9g\n", p->density ? (double)p->density[i] : 0.0, p->pressure ? (double)p->pressure[i] : 0.0);
	}
}

bool pdl_export_csv(const char* path, const pdl_world* w, pdl_error* err)
{
	pdl_particle_data p = pdl_world_particles(w);
	return write_file(path, w, &p, write_csv, err);
}

bool pdl_export_csv_stream(FILE* f, const pdl_world* w, const pdl_particle_data* p, long long header)
{
	return write_stream(f, w, p, write_csv, header);
}

/* ---- bodies ---------------------------------------------------------------------------------------- */

/* Points on a 2D circle body's outline, and the rings and segments of a 3D sphere body's
 * tessellation (poles at the body's local +-z; the mesh turns with the body, so spin shows). */
enum { CIRCLE_SEGMENTS = 32, SPHERE_RINGS = 8, SPHERE_SEGMENTS = 16 };

static const char* const type_names[PDL_BODY_TYPE_COUNT] = {"dynamic", "kinematic"};

static const char* shape_name(pdl_body_shape shape, bool three)
{
	switch (shape) {
	case PDL_BODY_BOX: return "box";
	case PDL_BODY_CIRCLE: return three ? "sphere" : "circle";
	case PDL_BODY_POLYGON: return "polygon";
	default: return "unknown";
	}
}

/* Every live body, in slot order, with its def and what the fluid did to it. */
typedef struct body_list {
	int count;
	pdl_body_id* ids;
	pdl_body_def* defs;
	pdl_body_force* forces;
} body_list;

static void free_bodies(body_list* l) { free(l->ids), free(l->defs), free(l->forces); }

static bool list_bodies(const pdl_world* w, body_list* l)
{
	l->count = pdl_world_bodies(w, NULL, 0);
	size_t n = (size_t)l->count + 1;
	l->ids = malloc(n * sizeof *l->ids), l->defs = malloc(n * sizeof *l->defs), l->forces = malloc(n * sizeof *l->forces);
	if (!l->ids || !l->defs || !l->forces) {
		free_bodies(l);
		return false;
	}
	pdl_world_bodies(w, l->ids, l->count);
	for (int k = 0; k < l->count; ++k) {
		pdl_world_get_body(w, l->ids[k], &l->defs[k]);
		l->forces[k] = pdl_world_body_force(w, l->ids[k]);
	}
	return true;
}

/* The bodies' surfaces as polygons: points, and per polygon its point count and its body. */
typedef struct body_mesh {
	int points, polys, corners; /* corners: sum of the polygons' point counts */
	pdl_vec3* point;
	int* point_body;
	int* poly_size;   /* points per polygon */
	int* poly_body;
	int* connectivity; /* point indices, polygon after polygon */
	bool failed;
} body_mesh;

static void mesh_free(body_mesh* m) { free(m->point), free(m->point_body), free(m->poly_size), free(m->poly_body), free(m->connectivity); }

/* Room for what one body adds at most: a sphere, or a polygon of PDL_MAX_POLYGON_VERTICES
 * (a 2D circle has CIRCLE_SEGMENTS). */
static void mesh_reserve(body_mesh* m, int bodies)
{
	size_t points = (size_t)bodies * (2 + (SPHERE_RINGS - 1) * SPHERE_SEGMENTS) + 1;
	size_t polys = (size_t)bodies * (SPHERE_RINGS * SPHERE_SEGMENTS) + 1;
	m->point = malloc(points * sizeof *m->point), m->point_body = malloc(points * sizeof *m->point_body);
	m->poly_size = malloc(polys * sizeof *m->poly_size), m->poly_body = malloc(polys * sizeof *m->poly_body);
	m->connectivity = malloc(4 * polys * sizeof *m->connectivity);
	m->failed = !m->point || !m->point_body || !m->poly_size || !m->poly_body || !m->connectivity;
}

static int mesh_point(body_mesh* m, int body, pdl_vec3 p)
{
	m->point[m->points] = p, m->point_body[m->points] = body;
	return m->points++;
}

/* A polygon through the points first + index[0..n). */
static void mesh_poly(body_mesh* m, int body, int first, const int* index, int n)
{
	for (int i = 0; i < n; ++i) m->connectivity[m->corners++] = first + index[i];
	m->poly_size[m->polys] = n, m->poly_body[m->polys] = body;
	m->polys++;
}

static void mesh_body_2d(body_mesh* m, int body, const pdl_body_def* d)
{
	pdl_vec2 v[CIRCLE_SEGMENTS > PDL_MAX_POLYGON_VERTICES ? CIRCLE_SEGMENTS : PDL_MAX_POLYGON_VERTICES];
	int n = pdl_body_world_vertices(d, v);
	if (d->shape == PDL_BODY_CIRCLE) {
		/* counter-clockwise from the body's own x axis, like box and polygon corners */
		n = CIRCLE_SEGMENTS;
		for (int i = 0; i < n; ++i) {
			float a = d->angle + 2.0f * 3.14159265358979f * (float)i / (float)n;
			v[i] = (pdl_vec2){d->position.x + d->radius * cosf(a), d->position.y + d->radius * sinf(a)};
		}
	}
	int first = m->points, index[CIRCLE_SEGMENTS];
	for (int i = 0; i < n; ++i) mesh_point(m, body, (pdl_vec3){v[i].x, v[i].y, 0}), index[i] = i;
	mesh_poly(m, body, first, index, n);
}

static void mesh_body_3d(body_mesh* m, int body, const pdl_body_def* d)
{
	pdl_body_frame f = pdl_body_frame_of(d, true);
	int first = m->points;
	if (d->shape == PDL_BODY_BOX) {
		pdl_vec3 corner[8];
		pdl_body_box_corners(d, &f, corner);
		for (int k = 0; k < 8; ++k) mesh_point(m, body, corner[k]);
		/* the six faces, counter-clockwise seen from outside (corner bits: x 1, y 2, z 4) */
		static const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
		for (int k = 0; k < 6; ++k) mesh_poly(m, body, first, faces[k], 4);
		return;
	}
	/* a sphere: the south pole, SPHERE_RINGS - 1 rings of SPHERE_SEGMENTS points, the north pole */
	const float pi = 3.14159265358979f;
	float r = d->radius;
	mesh_point(m, body, pdl_body_frame_point(&f, (pdl_vec3){0, 0, -r}));
	for (int ring = 1; ring < SPHERE_RINGS; ++ring) {
		float polar = pi * (float)ring / (float)SPHERE_RINGS, z = -r * cosf(polar), rho = r * sinf(polar);
		for (int k = 0; k < SPHERE_SEGMENTS; ++k) {
			float a = 2 * pi * (float)k / (float)SPHERE_SEGMENTS;
			mesh_point(m, body, pdl_body_frame_point(&f, (pdl_vec3){rho * cosf(a), rho * sinf(a), z}));
		}
	}
	int north = mesh_point(m, body, pdl_body_frame_point(&f, (pdl_vec3){0, 0, r})) - first;
	/* point k of ring i (1-based) is 1 + (i - 1) SPHERE_SEGMENTS + k; faces counter-clockwise from outside */
	for (int ring = 0; ring < SPHERE_RINGS; ++ring)
		for (int k = 0; k < SPHERE_SEGMENTS; ++k) {
			int next = (k + 1) % SPHERE_SEGMENTS;
			int below = 1 + (ring - 1) * SPHERE_SEGMENTS, above = 1 + ring * SPHERE_SEGMENTS;
			if (ring == 0) {
				int tri[3] = {0, above + next, above + k};
				mesh_poly(m, body, first, tri, 3);
			} else if (ring == SPHERE_RINGS - 1) {
				int tri[3] = {below + k, below + next, north};
				mesh_poly(m, body, first, tri, 3);
			} else {
				int quad[4] = {below + k, below + next, above + next, above + k};
				mesh_poly(m, body, first, quad, 4);
			}
		}
}

/* cell data: one of a body's vectors (0 velocity, 1 angular velocity, 2 force, 3 torque) or
 * numbers (0 packed id, 1 type, 2 shape) on each of its polygons */
static void vtp_body_vectors(FILE* f, const char* name, const body_mesh* m, const body_list* l, int which)
{
	fprintf(f, "        <DataArray type=\"Float32\" Name=\"%s\" NumberOfComponents=\"3\" format=\"ascii\">\n", name);
	for (int c = 0; c < m->polys; ++c) {
		int k = m->poly_body[c];
		pdl_vec3 v = which == 0 ? l->defs[k].linear_velocity : which == 1 ? l->defs[k].angular_velocity
		           : which == 2 ? l->forces[k].force : l->forces[k].torque;
		fprintf(f, "%.9g %.9g %.9g\n", (double)v.x, (double)v.y, (double)v.z);
	}
	fprintf(f, "        </DataArray>\n");
}

static void vtp_body_ints(FILE* f, const char* name, const body_mesh* m, const body_list* l, int which)
{
	fprintf(f, "        <DataArray type=\"Int32\" Name=\"%s\" format=\"ascii\">\n", name);
	for (int c = 0; c < m->polys; ++c) {
		int k = m->poly_body[c];
		fprintf(f, "%d\n", which == 0 ? (int)pdl_body_id_to_int(l->ids[k]) : which == 1 ? (int)l->defs[k].type : (int)l->defs[k].shape);
	}
	fprintf(f, "        </DataArray>\n");
}

static void write_bodies_vtp(FILE* f, const body_list* l, const body_mesh* m)
{
	fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
	fprintf(f, "  <PolyData>\n    <Piece NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
	           "NumberOfStrips=\"0\" NumberOfPolys=\"%d\">\n", m->points, m->polys);
	fprintf(f, "      <Points>\n        <DataArray type=\"Float32\" Name=\"position\" NumberOfComponents=\"3\" format=\"ascii\">\n");
	for (int i = 0; i < m->points; ++i)
		fprintf(f, "%.9g %.9g %.9g\n", (double)m->point[i].x, (double)m->point[i].y, (double)m->point[i].z);
	fprintf(f, "        </DataArray>\n      </Points>\n");
	/* each point moves with its body: v + w x r */
	fprintf(f, "      <PointData Vectors=\"velocity\">\n");
	fprintf(f, "        <DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"ascii\">\n");
	for (int i = 0; i < m->points; ++i) {
		pdl_vec3 v = pdl_body_point_velocity(&l->defs[m->point_body[i]], m->point[i]);
		fprintf(f, "%.9g %.9g %.9g\n", (double)v.x, (double)v.y, (double)v.z);
	}
	fprintf(f, "        </DataArray>\n      </PointData>\n");
	fprintf(f, "      <CellData Scalars=\"id\">\n");
	vtp_body_ints(f, "id", m, l, 0);
	vtp_body_ints(f, "type", m, l, 1);
	vtp_body_ints(f, "shape", m, l, 2);
	vtp_body_vectors(f, "body_velocity", m, l, 0);
	vtp_body_vectors(f, "angular_velocity", m, l, 1);
	vtp_body_vectors(f, "force", m, l, 2);
	vtp_body_vectors(f, "torque", m, l, 3);
	fprintf(f, "      </CellData>\n");
	fprintf(f, "      <Polys>\n        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
	for (int i = 0; i < m->corners; ++i) fprintf(f, "%d\n", m->connectivity[i]);
	fprintf(f, "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n");
	for (int c = 0, end = 0; c < m->polys; ++c) fprintf(f, "%d\n", end += m->poly_size[c]);
	fprintf(f, "        </DataArray>\n      </Polys>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
}

bool pdl_export_bodies_vtp(const char* path, const pdl_world* w, pdl_error* err)
{
	bool three = pdl_world_get_def(w).dimensions == 3;
	body_list l;
	body_mesh m = {0};
	if (!list_bodies(w, &l)) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	mesh_reserve(&m, l.count);
	bool ok = !m.failed;
	if (!ok) pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
	for (int k = 0; ok && k < l.count; ++k) {
		if (three) mesh_body_3d(&m, k, &l.defs[k]);
		else mesh_body_2d(&m, k, &l.defs[k]);
	}
	pdl_atomic_file a;
	if (ok) ok = pdl_atomic_open(&a, path, err);
	if (ok) {
		write_bodies_vtp(a.f, &l, &m);
		ok = pdl_atomic_commit(&a, err);
	}
	mesh_free(&m);
	free_bodies(&l);
	return ok;
}

bool pdl_export_bodies_csv(const char* path, const pdl_world* w, long long frame, pdl_error* err)
{
	bool three = pdl_world_get_def(w).dimensions == 3;
	body_list l;
	if (!list_bodies(w, &l)) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	pdl_atomic_file a;
	bool ok = pdl_atomic_open(&a, path, err);
	if (ok) {
		FILE* f = a.f;
		fprintf(f, "frame,time,id,type,shape,x,y,z,%s,vx,vy,vz,wx,wy,wz,fx,fy,fz,tx,ty,tz\n", three ? "qx,qy,qz,qw" : "angle");
		double time = pdl_world_time(w);
		for (int k = 0; k < l.count; ++k) {
			const pdl_body_def* d = &l.defs[k];
			const pdl_body_force* F = &l.forces[k];
			fprintf(f, "%lld,%.17g,%d,%s,%s,", frame, time, (int)pdl_body_id_to_int(l.ids[k]),
			        (unsigned)d->type < PDL_BODY_TYPE_COUNT ? type_names[d->type] : "unknown", shape_name(d->shape, three));
			fprintf(f, "%.9g,%.9g,%.9g,", (double)d->position.x, (double)d->position.y, (double)d->position.z);
			if (three)
				fprintf(f, "%.9g,%.9g,%.9g,%.9g,", (double)d->orientation.x, (double)d->orientation.y, (double)d->orientation.z,
				        (double)d->orientation.w);
			else
				fprintf(f, "%.9g,", (double)d->angle);
			const pdl_vec3 v[4] = {d->linear_velocity, d->angular_velocity, F->force, F->torque};
			for (int q = 0; q < 4; ++q)
				fprintf(f, "%.9g,%.9g,%.9g%s", (double)v[q].x, (double)v[q].y, (double)v[q].z, q < 3 ? "," : "\n");
		}
		ok = pdl_atomic_commit(&a, err);
	}
	free_bodies(&l);
	return ok;
}
