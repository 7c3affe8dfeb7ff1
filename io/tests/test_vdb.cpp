// The OpenVDB export (vdb.h), read back with OpenVDB's own reader: a settled 3D pool's file
// holds a "density" fog volume whose sum times the voxel volume is the fluid's mass, and a
// "surface" level set that is negative inside the pool and positive above it; a 2D world and a
// bad def are refused with the reason, and nothing is written then. With diffuse particles on, a
// "diffuse" fog volume holds their count.
#include "test.h"

#include "puddle/vdb.h"

#include <openvdb/openvdb.h>

#include <cstdio>
#include <cstring>
#include <string>

static pdl_world* pool(int dimensions)
{
	pdl_world_def wd = pdl_default_world_def();
	wd.dimensions = dimensions, wd.threads = 2;
	pdl_world* w = pdl_world_create(&wd, NULL);
	pdl_material_def water = pdl_default_material_def(), heavy = water;
	heavy.mass = 2;
	pdl_world_add_material(w, &water, NULL);
	pdl_world_add_material(w, &heavy, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = {6, 4, 3};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def fill = pdl_default_fill_def();
	fill.position = {0, -3, 0}, fill.half_extents = {5.9f, 0.9f, 2.9f};
	fill.material = 1;
	pdl_world_fill(w, &fill, NULL);
	fill.position = {0, -1.5f, 0}, fill.half_extents = {5.9f, 0.5f, 2.9f};
	fill.material = 0;
	pdl_world_fill(w, &fill, NULL);
	for (int s = 0; s < 60; ++s) pdl_world_step(w);
	return w;
}

static void test_pool_reads_back(void)
{
	ENSURE(pdl_vdb_available());
	pdl_world* w = pool(3);
	pdl_vdb_def def = pdl_default_vdb_def(w);
	const std::string path = "test_vdb_pool.vdb";
	pdl_error err = {};
	bool wrote = pdl_export_vdb(path.c_str(), w, &def, &err);
	if (!wrote) printf("  %s\n", err.message);
	ENSURE(wrote);
	pdl_particle_data p = pdl_world_particles(w);
	double mass = 0, top = -1e30;
	for (int i = 0; i < p.count; ++i) {
		mass += pdl_world_get_material(w, p.material[i]).mass;
		top = p.y[i] > top ? p.y[i] : top;
	}
	openvdb::initialize();
	openvdb::io::File file(path);
	file.open();
	openvdb::FloatGrid::Ptr density = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("density"));
	openvdb::FloatGrid::Ptr surface = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("surface"));
	openvdb::MetaMap::Ptr meta = file.getMetadata();
	const bool has_diffuse = file.hasGrid("diffuse");
	file.close();
	std::remove(path.c_str());
	ENSURE(density && surface);
	ENSURE(!has_diffuse); /* only with diffuse particles on */
	const double voxel = density->voxelSize()[0];
	double sum = 0;
	for (auto v = density->cbeginValueOn(); v; ++v) sum += *v;
	const double read_mass = sum * voxel * voxel * voxel;
	auto acc = surface->getConstAccessor();
	const openvdb::math::Transform& xf = surface->transform();
	// inside the pool (its middle), above it (2 h over the highest particle)
	float inside = acc.getValue(xf.worldToIndexCellCentered(openvdb::Vec3d(0, -3, 0)));
	float above = acc.getValue(xf.worldToIndexCellCentered(openvdb::Vec3d(0, top + 2, 0)));
	printf("  %d particles, mass %.3f; density grid: voxel %.4f, %llu active voxels, mass %.3f; level set: %llu "
	       "active voxels, %.3f inside, %.3f above; metadata particles %d\n",
	       p.count, mass, voxel, (unsigned long long)density->activeVoxelCount(), read_mass,
	       (unsigned long long)surface->activeVoxelCount(), inside, above,
	       meta->metaValue<int32_t>("puddle_particles"));
	ENSURE(std::fabs(read_mass - mass) <= 1e-4 * mass);
	ENSURE(density->getGridClass() == openvdb::GRID_FOG_VOLUME && surface->getGridClass() == openvdb::GRID_LEVEL_SET);
	ENSURE(inside < 0 && above > 0);
	ENSURE(meta->metaValue<int32_t>("puddle_particles") == p.count);
	pdl_world_destroy(w);
}

// With diffuse particles on, a "diffuse" fog volume whose sum times the voxel volume is their count.
static void test_diffuse_grid(void)
{
	pdl_world* w = pool(3);
	pdl_diffuse_def dd = pdl_default_diffuse_def();
	dd.enabled = 1;
	ENSURE(pdl_world_set_diffuse(w, &dd, NULL) == PDL_OK);
	pdl_fill_def ball = pdl_default_fill_def();
	ball.shape = PDL_FILL_DISC, ball.position = {0, 2, 0}, ball.radius = 1.5f, ball.velocity = {0, -12, 0};
	pdl_world_fill(w, &ball, NULL);
	for (int s = 0; s < 30 && pdl_world_diffuse(w).count == 0; ++s) pdl_world_step(w);
	const int count = pdl_world_diffuse(w).count;
	ENSURE(count > 0);
	pdl_vdb_def def = pdl_default_vdb_def(w);
	const std::string path = "test_vdb_diffuse.vdb";
	pdl_error err = {};
	ENSURE_MSG(pdl_export_vdb(path.c_str(), w, &def, &err), "%s", err.message);
	openvdb::initialize();
	openvdb::io::File file(path);
	file.open();
	openvdb::FloatGrid::Ptr diffuse = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("diffuse"));
	file.close();
	std::remove(path.c_str());
	ENSURE(diffuse && diffuse->getGridClass() == openvdb::GRID_FOG_VOLUME);
	const double voxel = diffuse->voxelSize()[0];
	double sum = 0;
	for (auto v = diffuse->cbeginValueOn(); v; ++v) sum += *v;
	printf("  %d diffuse particles; the grid sums to %.3f of them\n", count, sum * voxel * voxel * voxel);
	ENSURE(std::fabs(sum * voxel * voxel * voxel - count) <= 1e-3 * count);
	pdl_world_destroy(w);
}

static void test_refused(void)
{
	pdl_error err = {};
	pdl_world* flat = pool(2);
	pdl_vdb_def def = {0.3f, 0.5f};
	ENSURE(!pdl_export_vdb("test_vdb_2d.vdb", flat, &def, &err));
	ENSURE(std::strcmp(err.message, "test_vdb_2d.vdb: VDB volumes are of 3D worlds; this world is 2D") == 0);
	ENSURE(err.id == PDL_ERR_VDB_DIMENSIONS);
	pdl_world_destroy(flat);
	pdl_world* w = pool(3);
	def = pdl_vdb_def{0.3f, 0.2f};
	ENSURE(!pdl_export_vdb("test_vdb_bad.vdb", w, &def, &err));
	ENSURE(std::strcmp(err.message, "test_vdb_bad.vdb: the VDB def needs voxel_size > 0 and radius > voxel_size") == 0);
	ENSURE(err.id == PDL_ERR_VDB_DEF);
	FILE* f = std::fopen("test_vdb_2d.vdb", "rb");
	FILE* g = std::fopen("test_vdb_bad.vdb", "rb");
	ENSURE(!f && !g);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_pool_reads_back);
	RUN_TEST(test_diffuse_grid);
	RUN_TEST(test_refused);
	return TEST_SUMMARY();
}
