/* Exports of 3D worlds: VTK, PLY and CSV carry every particle with its real z and vz (2D files
 * keep z = 0 and their columns), and the marching-tetrahedra surface of a 3D run is closed.
 * Rigid bodies: their CSV rows and VTK surfaces read back as the bodies' state and shapes (2D
 * outlines with their areas, closed 3D surfaces with their volumes), and the .pvd collection
 * lists them as a second part. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
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
	pdl_error err;
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
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "csv");
	ENSURE_MSG(pdl_export_csv(path, w, &err), "%s", err.message);
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
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "ply");
	ENSURE_MSG(pdl_export_ply(path, w, &err), "%s", err.message);
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
	ENSURE_MSG(pdl_export_vtp(path, w, &err), "%s", err.message);
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
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "csv");
	ENSURE_MSG(pdl_export_csv(path, w, &err), "%s", err.message);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text && strncmp(text, "id,material,x,y,vx,vy,density,pressure\n", 39) == 0);
	free(text);
	temp_path(path, sizeof path, "ply");
	ENSURE_MSG(pdl_export_ply(path, w, &err), "%s", err.message);
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
	pdl_error err;
	ENSURE_MSG(pdl_surface_mesh(&def, p.x, p.y, p.z, p.count, &m, &err), "%s", err.message);
	ENSURE_MSG(io_test_mesh_closed(&m), "the surface of the 3D run is not closed (%d triangles)", m.triangle_count);
	double volume = pdl_mesh_volume(&m), fluid = p.count * sp * sp * sp / sqrt(2.0);
	printf("  %d particles, %d triangles, volume %.0f vs fluid %.0f\n", p.count, m.triangle_count, volume, fluid);
	ENSURE_MSG(volume > 0.7 * fluid && volume < 1.3 * fluid, "volume %g vs %g", volume, fluid);
	char path[256];
	pdl_error werr;
	temp_path(path, sizeof path, "obj");
	ENSURE_MSG(pdl_mesh_write_obj(path, &m, &werr), "%s", werr.message);
	remove(path);
	pdl_mesh_free(&m);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* ---- bodies ------------------------------------------------------------------------------------ */

/* A pool with a turned box, a circle (kinematic, spinning) and a triangle (2D), or a turned box
 * and a sphere (3D), stepped a few frames so that velocities and the fluid's forces are set. */
static pdl_world* bodies_world(int dimensions, pdl_body_id* ids, int* count)
{
	pdl_world_def wd = pdl_default_world_def();
	wd.dimensions = dimensions, wd.threads = 1;
	pdl_world* w = pdl_world_create(&wd, NULL);
	pdl_material_def water = pdl_default_material_def();
	pdl_world_add_material(w, &water, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER, tank.half_extents = (pdl_vec3){12, 8, 5};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def pool = pdl_default_fill_def();
	pool.position = (pdl_vec3){0, -6, 0}, pool.half_extents = (pdl_vec3){11.5f, 1.8f, 4.5f};
	if (pdl_world_fill(w, &pool, NULL) < 100) return NULL;
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){-6, -2, 0}, d.half_extents = (pdl_vec3){2, 1, 1.5f}, d.angle = 0.3f;
	d.orientation = (pdl_quat){0.2f, 0.1f, 0.3f, 0.92f};
	d.linear_velocity = (pdl_vec3){1, -2, dimensions == 3 ? 0.5f : 0};
	ids[0] = pdl_world_add_body(w, &d, NULL);
	d = pdl_default_body_def();
	d.shape = PDL_BODY_CIRCLE, d.type = PDL_BODY_KINEMATIC, d.position = (pdl_vec3){0, -4, 0}, d.radius = 1.5f;
	d.angular_velocity = (pdl_vec3){0, dimensions == 3 ? 1 : 0, 2};
	ids[1] = pdl_world_add_body(w, &d, NULL);
	*count = 2;
	if (dimensions == 2) {
		d = pdl_default_body_def();
		d.shape = PDL_BODY_POLYGON, d.position = (pdl_vec3){6, -2, 0}, d.vertex_count = 3, d.density = 1.5f;
		d.vertices[0] = (pdl_vec2){-2, -1}, d.vertices[1] = (pdl_vec2){2, -1}, d.vertices[2] = (pdl_vec2){0, 2};
		ids[2] = pdl_world_add_body(w, &d, NULL);
		*count = 3;
	}
	for (int k = 0; k < *count; ++k)
		if (ids[k].index < 0) return NULL;
	for (int f = 0; f < 5; ++f) pdl_world_step(w);
	return w;
}

/* `count` numbers of the DataArray named name (all its components, in order); NULL if absent. */
static double* vtp_array(const char* text, const char* name, int count)
{
	char key[96];
	snprintf(key, sizeof key, "Name=\"%s\"", name);
	const char* at = strstr(text, key);
	if (!at) return NULL;
	at = strchr(at, '\n');
	double* out = malloc((size_t)(count > 0 ? count : 1) * sizeof *out);
	for (int i = 0; at && i < count; ++i) {
		char* end;
		out[i] = strtod(at, &end);
		if (end == at) return free(out), NULL;
		at = end;
	}
	/* and nothing more before the array ends */
	while (*at == '\n' || *at == ' ') ++at;
	return strncmp(at, "</DataArray>", 12) == 0 ? out : (free(out), NULL);
}

static int vtp_count(const char* text, const char* attribute)
{
	const char* at = strstr(text, attribute);
	return at ? atoi(at + strlen(attribute) + 2) : -1;
}

static void test_bodies_csv(void)
{
	for (int dim = 2; dim <= 3; ++dim) {
		pdl_body_id ids[3];
		int n = 0;
		pdl_world* w = bodies_world(dim, ids, &n);
		ENSURE(w);
		char path[256];
		pdl_error err;
		temp_path(path, sizeof path, "bodies.csv");
		ENSURE_MSG(pdl_export_bodies_csv(path, w, 5, &err), "%s", err.message);
		char* text = io_test_read_file(path, NULL);
		ENSURE(text);
		const char* header = dim == 2 ? "frame,time,id,type,shape,x,y,z,angle,vx,vy,vz,wx,wy,wz,fx,fy,fz,tx,ty,tz\n"
		                              : "frame,time,id,type,shape,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz,fx,fy,fz,tx,ty,tz\n";
		ENSURE_MSG(strncmp(text, header, strlen(header)) == 0, "header: %.80s", text);
		char* line = text + strlen(header);
		int rows = 0;
		bool pushed = false;
		for (; *line; ++rows) {
			ENSURE(rows < n);
			char* end = strchr(line, '\n');
			ENSURE(end);
			*end = 0;
			char* field[32];
			int fields = 0;
			for (char* f = strtok(line, ","); f && fields < 32; f = strtok(NULL, ",")) field[fields++] = f;
			ENSURE_MSG(fields == (dim == 2 ? 21 : 24), "row %d has %d fields", rows, fields);
			pdl_body_def b;
			ENSURE(pdl_world_get_body(w, ids[rows], &b));
			pdl_body_force force = pdl_world_body_force(w, ids[rows]);
			ENSURE(atoll(field[0]) == 5 && strtod(field[1], NULL) == pdl_world_time(w));
			ENSURE(atoi(field[2]) == pdl_body_id_to_int(ids[rows]));
			ENSURE(strcmp(field[3], b.type == PDL_BODY_KINEMATIC ? "kinematic" : "dynamic") == 0);
			const char* shape = b.shape == PDL_BODY_BOX ? "box" : b.shape == PDL_BODY_POLYGON ? "polygon" : dim == 3 ? "sphere" : "circle";
			ENSURE_MSG(strcmp(field[4], shape) == 0, "row %d: shape %s", rows, field[4]);
			/* every number is the body's, exactly (9 significant digits read back) */
			float expect[19] = {b.position.x, b.position.y, b.position.z};
			int k = 3;
			if (dim == 2) expect[k++] = b.angle;
			else expect[k++] = b.orientation.x, expect[k++] = b.orientation.y, expect[k++] = b.orientation.z, expect[k++] = b.orientation.w;
			const pdl_vec3 v[4] = {b.linear_velocity, b.angular_velocity, force.force, force.torque};
			for (int q = 0; q < 4; ++q) expect[k++] = v[q].x, expect[k++] = v[q].y, expect[k++] = v[q].z;
			for (int i = 0; i < k; ++i)
				ENSURE_MSG(strtof(field[5 + i], NULL) == expect[i], "row %d column %d: %s, expected %.9g", rows, 5 + i,
				           field[5 + i], (double)expect[i]);
			pushed |= force.force.x != 0 || force.force.y != 0;
			line = end + 1;
		}
		ENSURE_MSG(rows == n, "%d rows for %d bodies", rows, n);
		ENSURE_MSG(pushed, "no body felt the fluid: the force columns were not tried");
		free(text);
		remove(path);
		pdl_world_destroy(w);
	}
}

static void test_bodies_vtk_2d(void)
{
	pdl_body_id ids[3];
	int n = 0;
	pdl_world* w = bodies_world(2, ids, &n);
	ENSURE(w);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "bodies.vtp");
	ENSURE_MSG(pdl_export_bodies_vtp(path, w, &err), "%s", err.message);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text);
	/* a box's 4 corners, a circle's 32 points, a triangle's 3; one polygon each */
	int points = vtp_count(text, "NumberOfPoints"), polys = vtp_count(text, "NumberOfPolys");
	ENSURE_MSG(points == 4 + 32 + 3 && polys == 3, "%d points, %d polygons", points, polys);
	double* xyz = vtp_array(text, "position", 3 * points);
	double* offsets = vtp_array(text, "offsets", polys);
	double* connectivity = vtp_array(text, "connectivity", points);
	double* id = vtp_array(text, "id", polys);
	double* velocity = vtp_array(text, "velocity", 3 * points);
	ENSURE(xyz && offsets && connectivity && id && velocity);
	ENSURE(offsets[0] == 4 && offsets[1] == 36 && offsets[2] == 39);
	/* the box's corners are pdl_body_world_vertices's, exactly */
	pdl_body_def box;
	pdl_world_get_body(w, ids[0], &box);
	pdl_vec2 corner[PDL_MAX_POLYGON_VERTICES];
	ENSURE(pdl_body_world_vertices(&box, corner) == 4);
	for (int i = 0; i < 4; ++i) {
		int at = (int)connectivity[i];
		ENSURE((float)xyz[3 * at] == corner[i].x && (float)xyz[3 * at + 1] == corner[i].y && xyz[3 * at + 2] == 0);
	}
	/* each outline encloses its body's area, counter-clockwise (positive shoelace area) */
	const float pi = 3.14159265f;
	const double areas[3] = {4 * box.half_extents.x * box.half_extents.y, 0.5 * 32 * 1.5 * 1.5 * sin(2 * pi / 32), 6};
	for (int c = 0, first = 0; c < 3; first = (int)offsets[c], ++c) {
		double area = 0;
		int size = (int)offsets[c] - first;
		for (int i = 0; i < size; ++i) {
			int a = (int)connectivity[first + i], b = (int)connectivity[first + (i + 1) % size];
			area += 0.5 * (xyz[3 * a] * xyz[3 * b + 1] - xyz[3 * b] * xyz[3 * a + 1]);
		}
		ENSURE_MSG(fabs(area - areas[c]) < 1e-4 * areas[c], "body %d: area %g, expected %g", c, area, areas[c]);
		ENSURE((int)id[c] == pdl_body_id_to_int(ids[c]));
	}
	/* points move with their body: the spinning circle's points at v + w x r */
	pdl_body_def circle;
	pdl_world_get_body(w, ids[1], &circle);
	int at = (int)connectivity[4];
	double rx = xyz[3 * at] - circle.position.x, ry = xyz[3 * at + 1] - circle.position.y;
	ENSURE(circle.angular_velocity.z != 0);
	ENSURE(fabs(velocity[3 * at] - (circle.linear_velocity.x - circle.angular_velocity.z * ry)) < 1e-5);
	ENSURE(fabs(velocity[3 * at + 1] - (circle.linear_velocity.y + circle.angular_velocity.z * rx)) < 1e-5);
	free(xyz), free(offsets), free(connectivity), free(id), free(velocity);
	free(text);
	remove(path);
	/* the collection lists the bodies' file beside the particles' as a second, named part */
	temp_path(path, sizeof path, "pvd");
	pdl_pvd_dataset sets[2] = {{"vtk/frame_000005.vtp", 0.25, 0, "particles"}, {"vtk/bodies_000005.vtp", 0.25, 1, "bodies"}};
	ENSURE_MSG(pdl_export_pvd_datasets(path, sets, 2, &err), "%s", err.message);
	text = io_test_read_file(path, NULL);
	ENSURE(text && strstr(text, "<DataSet timestep=\"0.25\" group=\"\" part=\"0\" name=\"particles\" file=\"vtk/frame_000005.vtp\"/>"));
	ENSURE(strstr(text, "<DataSet timestep=\"0.25\" group=\"\" part=\"1\" name=\"bodies\" file=\"vtk/bodies_000005.vtp\"/>"));
	free(text);
	/* without names, as pdl_export_pvd always wrote */
	const char* files[1] = {"vtk/frame_000000.vtp"};
	const double times[1] = {0};
	ENSURE(pdl_export_pvd(path, files, times, 1, &err));
	text = io_test_read_file(path, NULL);
	ENSURE(text && strstr(text, "<DataSet timestep=\"0\" group=\"\" part=\"0\" file=\"vtk/frame_000000.vtp\"/>"));
	free(text);
	remove(path);
	pdl_world_destroy(w);
}

/* 3D: each body's polygons make a closed surface, wound outward, that encloses its volume. */
static void test_bodies_vtk_3d(void)
{
	pdl_body_id ids[3];
	int n = 0;
	pdl_world* w = bodies_world(3, ids, &n);
	ENSURE(w);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "bodies3.vtp");
	ENSURE_MSG(pdl_export_bodies_vtp(path, w, &err), "%s", err.message);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text);
	/* a box: 8 corners, 6 faces; a sphere: 2 poles and 7 rings of 16, 8 x 16 faces */
	int points = vtp_count(text, "NumberOfPoints"), polys = vtp_count(text, "NumberOfPolys");
	ENSURE_MSG(points == 8 + 114 && polys == 6 + 128, "%d points, %d polygons", points, polys);
	double* xyz = vtp_array(text, "position", 3 * points);
	double* offsets = vtp_array(text, "offsets", polys);
	ENSURE(xyz && offsets);
	int corners = (int)offsets[polys - 1];
	double* connectivity = vtp_array(text, "connectivity", corners);
	double* id = vtp_array(text, "id", polys);
	ENSURE(connectivity && id);
	pdl_body_def box, ball;
	pdl_world_get_body(w, ids[0], &box);
	pdl_world_get_body(w, ids[1], &ball);
	const double volumes[2] = {8.0 * box.half_extents.x * box.half_extents.y * box.half_extents.z,
	                           4.0 / 3.0 * 3.14159265358979 * ball.radius * ball.radius * ball.radius};
	for (int body = 0; body < 2; ++body) {
		/* the body's polygons, fanned into triangles */
		pdl_mesh m = {0};
		m.triangles = malloc(3 * (size_t)corners * sizeof *m.triangles);
		double volume = 0;
		for (int c = 0, first = 0; c < polys; first = (int)offsets[c], ++c) {
			if ((int)id[c] != pdl_body_id_to_int(ids[body])) continue;
			for (int i = first + 1; i + 1 < (int)offsets[c]; ++i) {
				int t[3] = {(int)connectivity[first], (int)connectivity[i], (int)connectivity[i + 1]};
				const double* a = xyz + 3 * t[0];
				const double* b = xyz + 3 * t[1];
				const double* e = xyz + 3 * t[2];
				/* divergence theorem: the signed volume of the tetrahedra from the origin */
				volume += (a[0] * (b[1] * e[2] - b[2] * e[1]) - a[1] * (b[0] * e[2] - b[2] * e[0]) + a[2] * (b[0] * e[1] - b[1] * e[0])) / 6;
				memcpy(m.triangles + 3 * m.triangle_count++, t, sizeof t);
			}
		}
		ENSURE_MSG(io_test_mesh_closed(&m), "body %d: its surface is not closed and consistently wound", body);
		double lo = body == 0 ? 0.9999 : 0.85; /* an 8 x 16 sphere holds about 0.9 of the ball */
		ENSURE_MSG(volume > lo * volumes[body] && volume < 1.0001 * volumes[body], "body %d: volume %g, expected %g", body,
		           volume, volumes[body]);
		free(m.triangles);
	}
	/* the box's first corner is its centre - the turned half extents */
	pdl_vec3 h = box.half_extents;
	pdl_quat q = box.orientation;
	/* rotate (-hx, -hy, -hz) by q: v' = v + 2 w (u x v) + 2 u x (u x v) */
	double u[3] = {q.x, q.y, q.z}, v[3] = {-h.x, -h.y, -h.z}, t[3], c2[3];
	t[0] = u[1] * v[2] - u[2] * v[1], t[1] = u[2] * v[0] - u[0] * v[2], t[2] = u[0] * v[1] - u[1] * v[0];
	c2[0] = u[1] * t[2] - u[2] * t[1], c2[1] = u[2] * t[0] - u[0] * t[2], c2[2] = u[0] * t[1] - u[1] * t[0];
	const float centre[3] = {box.position.x, box.position.y, box.position.z};
	for (int k = 0; k < 3; ++k)
		ENSURE_MSG(fabs(xyz[k] - (centre[k] + v[k] + 2 * q.w * t[k] + 2 * c2[k])) < 1e-4, "corner 0 axis %d: %g", k, xyz[k]);
	free(xyz), free(offsets), free(connectivity), free(id);
	free(text);
	remove(path);
	pdl_world_destroy(w);
}

/* The particles of p with ids in [lo, hi), copied (the arrays a process of a split world holds). */
typedef struct piece {
	pdl_particle_data p;
	float* f[8];
	uint8_t* material;
	uint32_t* id;
} piece;

static void take_piece(piece* out, const pdl_particle_data* p, uint32_t lo, uint32_t hi)
{
	memset(out, 0, sizeof *out);
	const float* src[8] = {p->x, p->y, p->z, p->vx, p->vy, p->vz, p->density, p->pressure};
	size_t n = (size_t)p->count + 1;
	for (int a = 0; a < 8; ++a) out->f[a] = malloc(n * sizeof(float));
	out->material = malloc(n), out->id = malloc(n * sizeof(uint32_t));
	int k = 0;
	for (int i = 0; i < p->count; ++i) {
		if (p->id[i] < lo || p->id[i] >= hi) continue;
		for (int a = 0; a < 8; ++a) out->f[a][k] = src[a] ? src[a][i] : 0.0f;
		out->material[k] = p->material[i], out->id[k] = p->id[i];
		++k;
	}
	out->p = (pdl_particle_data){.count = k, .x = out->f[0], .y = out->f[1], .z = p->z ? out->f[2] : NULL,
	                             .vx = out->f[3], .vy = out->f[4], .vz = p->vz ? out->f[5] : NULL,
	                             .material = out->material, .id = out->id, .density = out->f[6],
	                             .pressure = out->f[7], .next_id = p->next_id};
}

static void free_piece(piece* c)
{
	for (int a = 0; a < 8; ++a) free(c->f[a]);
	free(c->material), free(c->id);
}

/* Pieces of one file put together (puddle over MPI): a CSV or PLY header and the rows of two id
 * ranges, each written by itself, are byte for byte the file of the whole world; and a .pvtp
 * lists two .vtp pieces, declaring every point array they hold, with the pieces' points adding
 * up to the world's. */
static void test_pieces_make_the_whole(void)
{
	pdl_scene* s = NULL;
	pdl_world* w = small_3d_world(&s);
	ENSURE(w);
	pdl_particle_data p = pdl_world_particles(w);
	const uint32_t cut = p.next_id / 3;
	piece a, b;
	take_piece(&a, &p, 0, cut);
	take_piece(&b, &p, cut, UINT32_MAX);
	ENSURE(a.p.count > 0 && b.p.count > 0 && a.p.count + b.p.count == p.count);
	char path[256];
	pdl_error err;
	for (int format = 0; format < 2; ++format) {
		temp_path(path, sizeof path, format ? "ply" : "csv");
		ENSURE_MSG(format ? pdl_export_ply(path, w, &err) : pdl_export_csv(path, w, &err), "%s", err.message);
		size_t size = 0;
		char* whole = io_test_read_file(path, &size);
		ENSURE(whole);
		char* joined = NULL;
		size_t joined_size = 0;
		FILE* f = open_memstream(&joined, &joined_size);
		ENSURE(f);
		/* the second piece first, shuffled: each piece sorts its own rows by id */
		bool ok = format ? pdl_export_ply_stream(f, w, &a.p, p.count) && pdl_export_ply_stream(f, w, &b.p, -1)
		                 : pdl_export_csv_stream(f, w, &a.p, 0) && pdl_export_csv_stream(f, w, &b.p, -1);
		fclose(f);
		ENSURE(ok);
		ENSURE_MSG(joined_size == size && memcmp(joined, whole, size) == 0, "%s: pieces %zu bytes, whole %zu bytes",
		           format ? "PLY" : "CSV", joined_size, size);
		free(joined), free(whole);
		remove(path);
	}

	char piece_path[2][256], pvtp[256];
	snprintf(piece_path[0], sizeof piece_path[0], "/tmp/puddle_test_export_%ld_0.vtp", (long)getpid());
	snprintf(piece_path[1], sizeof piece_path[1], "/tmp/puddle_test_export_%ld_1.vtp", (long)getpid());
	temp_path(pvtp, sizeof pvtp, "pvtp");
	ENSURE_MSG(pdl_export_vtp_particles(piece_path[0], w, &a.p, &err), "%s", err.message);
	ENSURE_MSG(pdl_export_vtp_particles(piece_path[1], w, &b.p, &err), "%s", err.message);
	const char* sources[2] = {strrchr(piece_path[0], '/') + 1, strrchr(piece_path[1], '/') + 1};
	ENSURE_MSG(pdl_export_pvtp(pvtp, sources, 2, &err), "%s", err.message);
	char* text = io_test_read_file(pvtp, NULL);
	ENSURE(text && strstr(text, "<VTKFile type=\"PPolyData\"") && strstr(text, "</VTKFile>"));
	int points = 0;
	for (int k = 0; k < 2; ++k) {
		char expect[300];
		snprintf(expect, sizeof expect, "<Piece Source=\"%s\"/>", sources[k]);
		ENSURE_MSG(strstr(text, expect), "the .pvtp does not list %s", sources[k]);
		char* vtp = io_test_read_file(piece_path[k], NULL);
		ENSURE(vtp);
		int n = -1;
		const char* at = strstr(vtp, "NumberOfPoints=\"");
		ENSURE(at && sscanf(at, "NumberOfPoints=\"%d\"", &n) == 1);
		points += n;
		/* every array of the piece is declared by the .pvtp, with its type and components */
		int arrays = 0;
		for (at = strstr(vtp, "<DataArray "); at; at = strstr(at + 1, "<DataArray ")) {
			char type[32], name[32];
			if (sscanf(at, "<DataArray type=\"%31[^\"]\" Name=\"%31[^\"]\"", type, name) != 2) continue;
			if (strcmp(name, "connectivity") == 0 || strcmp(name, "offsets") == 0) continue;
			const char* nc = strstr(at, "NumberOfComponents=\"");
			int comps = nc && nc < strchr(at, '>') ? atoi(nc + strlen("NumberOfComponents=\"")) : 1;
			char declared[128];
			snprintf(declared, sizeof declared, "<PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>", type, name,
			         comps);
			ENSURE_MSG(strstr(text, declared), "the .pvtp does not declare %s", declared);
			++arrays;
		}
		ENSURE_MSG(arrays == 6, "%d point arrays in a piece, want 6 (position, velocity, density, pressure, material, id)",
		           arrays);
		free(vtp);
		remove(piece_path[k]);
	}
	ENSURE_MSG(points == p.count, "the pieces hold %d points, the world %d", points, p.count);
	free(text);
	remove(pvtp);
	free_piece(&a), free_piece(&b);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* The diffuse particles' PLY: every one, in the world's order, to the bit, with its kind and
 * life; a world without them writes an empty point set. */
static void test_diffuse_ply(void)
{
	const char* json = "{\"world\": {\"dimensions\": 3}, \"materials\": [{\"name\": \"w\"}],"
	                   " \"container\": {\"shape\": \"box\", \"half_extents\": [6, 5, 3]},"
	                   " \"fills\": [{\"shape\": \"ball\", \"position\": [0, 1, 0], \"radius\": 2, \"velocity\": [0, -12, 0]},"
	                   "           {\"shape\": \"box\", \"position\": [0, -4, 0], \"half_extents\": [6, 1, 3]}],"
	                   " \"diffuse\": {\"enabled\": 1}}";
	pdl_error serr;
	pdl_scene* s = pdl_scene_parse(json, strlen(json), "splash.json", &serr);
	ENSURE_MSG(s, "%s", serr.message);
	s->world.threads = 1;
	pdl_world* w = pdl_scene_build_world(s, &serr);
	ENSURE(w);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "ply");
	ENSURE_MSG(pdl_export_diffuse_ply(path, w, &err), "%s", err.message);
	char* text = io_test_read_file(path, NULL);
	ENSURE(text && strstr(text, "element vertex 0\n") && strstr(text, "property uchar kind\nproperty float life\n"));
	free(text);
	for (int f = 0; f < 20 && pdl_world_diffuse(w).count == 0; ++f) pdl_world_step(w);
	pdl_diffuse_data d = pdl_world_diffuse(w);
	ENSURE(d.count > 0);
	ENSURE_MSG(pdl_export_diffuse_ply(path, w, &err), "%s", err.message);
	text = io_test_read_file(path, NULL);
	ENSURE(text);
	char expect[64];
	snprintf(expect, sizeof expect, "element vertex %d\n", d.count);
	ENSURE(strstr(text, expect));
	char* line = strstr(text, "end_header\n") + strlen("end_header\n");
	int rows = 0;
	bool exact = true;
	for (; *line; ++rows) {
		float x, y, z, vx, vy, vz, life;
		int kind;
		ENSURE(sscanf(line, "%f %f %f %f %f %f %d %f", &x, &y, &z, &vx, &vy, &vz, &kind, &life) == 8);
		exact = exact && rows < d.count && x == d.x[rows] && y == d.y[rows] && z == d.z[rows] && vx == d.vx[rows] &&
		        vy == d.vy[rows] && vz == d.vz[rows] && kind == d.kind[rows] && life == d.life[rows];
		line = strchr(line, '\n') + 1;
	}
	ENSURE_MSG(rows == d.count && exact, "%d rows for %d diffuse particles, exact %d", rows, d.count, exact);
	free(text);
	remove(path);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

int main(void)
{
	RUN_TEST(test_csv_3d);
	RUN_TEST(test_ply_and_vtk_3d);
	RUN_TEST(test_2d_unchanged);
	RUN_TEST(test_surface_of_3d_run);
	RUN_TEST(test_bodies_csv);
	RUN_TEST(test_bodies_vtk_2d);
	RUN_TEST(test_bodies_vtk_3d);
	RUN_TEST(test_pieces_make_the_whole);
	RUN_TEST(test_diffuse_ply);
	return TEST_SUMMARY();
}
