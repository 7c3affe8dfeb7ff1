/* VTK XML PolyData + PVD (ParaView), PLY (Blender), CSV (see export.h). */
#include "puddle/export.h"

#include "atomic_file.h"

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

typedef void (*writer)(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order);

static bool write_file(const char* path, const pdl_world* w, writer write, char* err, size_t err_size)
{
	pdl_particle_data p = pdl_world_particles(w);
	int* order = id_order(&p);
	if (!order) {
		snprintf(err, err_size, "%s: out of memory", path);
		return false;
	}
	pdl_atomic_file a;
	bool ok = pdl_atomic_open(&a, path, err, err_size);
	if (ok) {
		write(a.f, w, &p, order);
		ok = pdl_atomic_commit(&a, err, err_size);
	}
	free(order);
	return ok;
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

static void write_vtp(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order)
{
	(void)w;
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

bool pdl_export_vtp(const char* path, const pdl_world* w, char* err, size_t err_size)
{
	return write_file(path, w, write_vtp, err, err_size);
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

bool pdl_export_pvd(const char* path, const char* const* files, const double* times, int count, char* err,
                    size_t err_size)
{
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err, err_size)) return false;
	fprintf(a.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
	fprintf(a.f, "  <Collection>\n");
	for (int i = 0; i < count; ++i) {
		fprintf(a.f, "    <DataSet timestep=\"%.9g\" group=\"\" part=\"0\" file=\"", times[i]);
		xml_attribute(a.f, files[i]);
		fprintf(a.f, "\"/>\n");
	}
	fprintf(a.f, "  </Collection>\n</VTKFile>\n");
	return pdl_atomic_commit(&a, err, err_size);
}

/* ---- PLY ------------------------------------------------------------------------------------------ */

static void write_ply(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order)
{
	bool is_3d = p->z != NULL;
	fprintf(f, "ply\nformat ascii 1.0\ncomment puddle particles, t = %.9g s%s\n", pdl_world_time(w), is_3d ? "" : ", z = 0");
	fprintf(f, "element vertex %d\n", p->count);
	fprintf(f, "property float x\nproperty float y\nproperty float z\nproperty float vx\nproperty float vy\n");
	if (is_3d) fprintf(f, "property float vz\n");
	fprintf(f, "property float density\nproperty float pressure\nproperty uchar material\n");
	fprintf(f, "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n");
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

bool pdl_export_ply(const char* path, const pdl_world* w, char* err, size_t err_size)
{
	return write_file(path, w, write_ply, err, err_size);
}

/* ---- CSV ------------------------------------------------------------------------------------------ */

static void write_csv(FILE* f, const pdl_world* w, const pdl_particle_data* p, const int* order)
{
	(void)w;
	bool is_3d = p->z != NULL;
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

bool pdl_export_csv(const char* path, const pdl_world* w, char* err, size_t err_size)
{
	return write_file(path, w, write_csv, err, err_size);
}
