/* Exports of 3D worlds: VTK, PLY and CSV carry every particle with its real z and vz (2D files
 * keep z = 0 and their columns), and the marching-tetrahedra surface of a 3D run is closed. */
#include "test.h"
#include "io_test.h"

#include "puddle/export.h"
#include "puddle/scene.h"
#include "puddle/surface.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void temp_path(char* out, size_t size, const char* ext)
{
	snprintf(out, size, "/tmp/puddle_test_export_%ld.%s", (long)getpid(), ext);
}

/* A small 3D world that has moved for a few frames, so z and vz are all different. */
static pdl_world* small_3d_world(pdl_scene** scene)
{
	const char* json = "{\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"w\"}, {\"name\": \"v\", \"color\": \"#ff8000\"}],"
	                   " \"container\": {\"shape\": \"box\", \"position\": [0, 0, 2], \"half_extents\": [4, 4, 3]},"
	                   " \"fills\": [{\"shape\": \"ball\", \"material\": \"v\", \"position\": [0, 0, 2], \"radius\": 2,"
	                   "             \"velocity\": [0, 0, 3]}]}";
	pdl_scene_error err;
	pdl_scene* s = pdl_scene_parse(json, strlen(json), "small.json", &err);
	if (!s) {
		printf("  %s\n", err.message);
		return NULL;
	}
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, &err);
	for (int f = 0; w && f < 5; ++f) pdl_world_step(w);
	*scene = s;
	return w;
}

/* Particle k in id order: exports list particles by id. */
static int* by_id(const pdl_particle_data* p)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	for (int i = 0; i < p->count; ++i) lo = p->id[i] < lo ? p->id[i] : lo, hi = p->id[i] > hi ? p->id[i] : hi;
	int* order = malloc((size_t)p->count * sizeof *order);
	/* ids of a fresh world are 0 .. count - 1 */
	for (int i = 0; i < p->count; ++i) order[p->id[i] - lo] = i;
	return hi - lo + 1 == (uint32_t)p->count ? order : (free(order), NULL);
}

static void test_csv_3d(void)
{
	pdl_scene* s = NULL;
	pdl_world* w = small_3d_world(&s);
	ENSURE(w);
	pdl_particle_data p = pdl_world_particles(w);
	ENSURE(p.count > 100 && p.z && p.vz);
	int* order = by_id(&p);
	ENSURE(order);
	char path[256], err[512];
	temp_path(path, sizeof path, "csv");
	ENSURE_MSG(pdl_export_csv(path, w, err, sizeof err), "%s", err);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text);
	const char* header = "id,material,x,y,z,vx,vy,vz,density,pressure\n";
	ENSURE(strncmp(text, header, strlen(header)) == 0);
	char* line = text + strlen(header);
	int rows = 0;
	bool z_exact = true, spread = false;
	while (*line) {
		unsigned id;
		int material;
		float x, y, z, vx, vy, vz;
		ENSURE(sscanf(line, "%u,%d,%f,%f,%f,%f,%f,%f,", &id, &material, &x, &y, &z, &vx, &vy, &vz) == 8);
		ENSURE(rows < p.count);
		int i = order[rows];
		z_exact = z_exact && id == p.id[i] && x == p.x[i] && z == p.z[i] && vz == p.vz[i] && material == p.material[i];
		spread = spread || fabsf(z - 2) > 1; /* the ball is 4 deep about z = 2 */
		rows++;
		line = strchr(line, '\n');
		ENSURE(line);
		line++;
	}
	ENSURE_MSG(rows == p.count, "%d rows for %d particles", rows, p.count);
	ENSURE_MSG(z_exact, "a row's z or vz is not the particle's");
	ENSURE(spread);
	free(text);
	free(order);
	remove(path);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

static void test_ply_and_vtk_3d(void)
{
	pdl_scene* s = NULL;
	pdl_world* w = small_3d_world(&s);
	ENSURE(w);
	pdl_particle_data p = pdl_world_particles(w);
	int* order = by_id(&p);
	ENSURE(order);
	char path[256], err[512];
	temp_path(path, sizeof path, "ply");
	ENSURE_MSG(pdl_export_ply(path, w, err, sizeof err), "%s", err);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text);
	char expect[64];
	snprintf(expect, sizeof expect, "element vertex %d\n", p.count);
	ENSURE(strstr(text, expect) && strstr(text, "property float vz\n") && !strstr(text, "z = 0"));
	char* line = strstr(text, "end_header\n");
	ENSURE(line);
	line += strlen("end_header\n");
	int rows = 0;
	bool exact = true;
	for (; *line; ++rows) {
		float x, y, z, vx, vy, vz;
		ENSURE(sscanf(line, "%f %f %f %f %f %f", &x, &y, &z, &vx, &vy, &vz) == 6);
		int i = order[rows];
		exact = exact && x == p.x[i] && y == p.y[i] && z == p.z[i] && vz == p.vz[i];
		line = strchr(line, '\n') + 1;
	}
	ENSURE_MSG(rows == p.count && exact, "PLY: %d rows for %d particles, exact %d", rows, p.count, exact);
	free(text);
	remove(path);

	temp_path(path, sizeof path, "vtp");
	ENSURE_MSG(pdl_export_vtp(path, w, err, sizeof err), "%s", err);
	text = io_test_read_file(path, NULL);
	ENSURE(text);
	snprintf(expect, sizeof expect, "NumberOfPoints=\"%d\"", p.count);
	ENSURE(strstr(text, expect));
	line = strstr(text, "Name=\"position\"");
	ENSURE(line);
	line = strchr(line, '\n') + 1;
	exact = true;
	for (int k = 0; k < p.count; ++k) {
		float x, y, z;
		ENSURE(sscanf(line, "%f %f %f", &x, &y, &z) == 3);
		int i = order[k];
		exact = exact && x == p.x[i] && y == p.y[i] && z == p.z[i];
		line = strchr(line, '\n') + 1;
	}
	ENSURE_MSG(exact, "VTK positions are not the particles'");
	ENSURE(strncmp(line, "        </DataArray>", 20) == 0); /* exactly count points */
	line = strchr(strstr(text, "Name=\"velocity\""), '\n') + 1;
	exact = true;
	for (int k = 0; k < p.count; ++k) {
		float vx, vy, vz;
		ENSURE(sscanf(line, "%f %f %f", &vx, &vy, &vz) == 3);
		exact = exact && vz == p.vz[order[k]];
		line = strchr(line, '\n') + 1;
	}
	ENSURE_MSG(exact, "VTK velocities are not the particles'");
	free(text);
	remove(path);
	free(order);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* 2D files are as before: z = 0, no vz, the 2D CSV columns. */
static void test_2d_unchanged(void)
{
	const char* json = "{\"materials\": [{\"name\": \"w\"}], \"container\": {\"shape\": \"box\", \"half_extents\": [5, 5]},"
	                   " \"fills\": [{\"shape\": \"disc\", \"radius\": 2}]}";
	pdl_scene* s = pdl_scene_parse(json, strlen(json), "flat.json", NULL);
	ENSURE(s);
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	ENSURE(w);
	pdl_world_step(w);
	char path[256], err[512];
	temp_path(path, sizeof path, "csv");
	ENSURE_MSG(pdl_export_csv(path, w, err, sizeof err), "%s", err);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text && strncmp(text, "id,material,x,y,vx,vy,density,pressure\n", 39) == 0);
	free(text);
	temp_path(path, sizeof path, "ply");
	ENSURE_MSG(pdl_export_ply(path, w, err, sizeof err), "%s", err);
	text = io_test_read_file(path, NULL);
	ENSURE(text && strstr(text, "z = 0\n") && !strstr(text, "vz"));
	char* line = strstr(text, "end_header\n") + strlen("end_header\n");
	float x, y, z;
	ENSURE(sscanf(line, "%f %f %f", &x, &y, &z) == 3 && z == 0);
	free(text);
	remove(path);
	temp_path(path, sizeof path, "csv");
	remove(path);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* The surface of a 3D run (drop-3d, scaled down, mid-splash) is closed and encloses about the
 * fluid's volume (particles times the FCC volume per particle s^3 / sqrt 2). */
static void test_surface_of_3d_run(void)
{
	pdl_scene* s = pdl_scene_load(PUDDLE_SCENES_DIR "/drop-3d.json", NULL);
	ENSURE(s);
	pdl_scene_scale_to_particles(s, 4000);
	s->world.threads = 2;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	ENSURE(w);
	for (long long f = 0; f < 40; ++f) {
		pdl_scene_apply_frame(s, w, f, NULL);
		pdl_world_step(w);
	}
	float sp = pdl_rest_spacing_3d(1, 4);
	pdl_surface_def def = pdl_default_surface_def_3d();
	def.spacing = sp * 0.8908987181403393f; /* the cube of the FCC volume per particle, as puddle run */
	pdl_particle_data p = pdl_world_particles(w);
	pdl_mesh m;
	pdl_surface_error err;
	ENSURE_MSG(pdl_surface_mesh(&def, p.x, p.y, p.z, p.count, &m, &err), "%s", err.message);
	ENSURE_MSG(io_test_mesh_closed(&m), "the surface of the 3D run is not closed (%d triangles)", m.triangle_count);
	double volume = pdl_mesh_volume(&m), fluid = p.count * sp * sp * sp / sqrt(2.0);
	printf("  %d particles, %d triangles, volume %.0f vs fluid %.0f\n", p.count, m.triangle_count, volume, fluid);
	ENSURE_MSG(volume > 0.7 * fluid && volume < 1.3 * fluid, "volume %g vs %g", volume, fluid);
	char path[256], werr[512];
	temp_path(path, sizeof path, "obj");
	ENSURE_MSG(pdl_mesh_write_obj(path, &m, werr, sizeof werr), "%s", werr);
	remove(path);
	pdl_mesh_free(&m);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

int main(void)
{
	RUN_TEST(test_csv_3d);
	RUN_TEST(test_ply_and_vtk_3d);
	RUN_TEST(test_2d_unchanged);
	RUN_TEST(test_surface_of_3d_run);
	return TEST_SUMMARY();
}
