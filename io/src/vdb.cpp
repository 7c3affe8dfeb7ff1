// OpenVDB volumes of 3D worlds (vdb.h): a fog volume of the fluid's mass density and a level
// set of its surface, written with OpenVDB's own writer. C++ because OpenVDB is; the rest of
// puddle_io is C and sees only vdb.h.
#include "puddle/vdb.h"

#include "atomic_file.h"

#include <openvdb/io/Stream.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/ParticlesToLevelSet.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <sstream>
#include <string>

namespace {

// The particles as ParticlesToLevelSet reads them: positions and one radius, world units.
struct ParticleList {
	using PosType = openvdb::Vec3R;
	const pdl_particle_data* p;
	double radius;
	size_t size() const { return (size_t)p->count; }
	void getPos(size_t i, openvdb::Vec3R& at) const { at = openvdb::Vec3R(p->x[i], p->y[i], p->z[i]); }
	void getPosRad(size_t i, openvdb::Vec3R& at, openvdb::Real& r) const
	{
		getPos(i, at);
		r = radius;
	}
};

bool say(pdl_error* err, pdl_error_id id, const char* path, const std::string& what)
{
	pdl_error_fill(err, id, path, nullptr, "%s", what.c_str());
	return false;
}

// Each point's weight per unit volume spread over the 8 voxel centres around it by trilinear
// weights (they sum to 1, so no mass is made or lost): a fog volume named `name`.
template <typename Weight>
openvdb::FloatGrid::Ptr splat_grid(const char* name, int count, const float* x, const float* y, const float* z,
                                   Weight weight, float voxel)
{
	openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(0.0f);
	grid->setTransform(openvdb::math::Transform::createLinearTransform(voxel));
	grid->setGridClass(openvdb::GRID_FOG_VOLUME);
	grid->setName(name);
	auto acc = grid->getAccessor();
	const double per_volume = 1.0 / ((double)voxel * voxel * voxel);
	for (int i = 0; i < count; ++i) {
		const double mass = weight(i);
		// voxel centres sit at integer index coordinates
		const double u[3] = {x[i] / voxel, y[i] / voxel, z[i] / voxel};
		int base[3];
		double frac[3];
		for (int k = 0; k < 3; ++k) {
			base[k] = (int)std::floor(u[k]);
			frac[k] = u[k] - base[k];
		}
		for (int corner = 0; corner < 8; ++corner) {
			double w = 1;
			openvdb::Coord c;
			for (int k = 0; k < 3; ++k) {
				const bool upper = corner & (1 << k);
				w *= upper ? frac[k] : 1 - frac[k];
				c[k] = base[k] + (upper ? 1 : 0);
			}
			if (w > 0) acc.setValue(c, acc.getValue(c) + (float)(w * mass * per_volume));
		}
	}
	return grid;
}

std::once_flag initialized;

} // namespace

extern "C" bool pdl_vdb_available(void) { return true; }

extern "C" pdl_vdb_def pdl_default_vdb_def(const pdl_world* world)
{
	const float h = pdl_world_get_def(world).interaction_radius;
	pdl_vdb_def d;
	d.voxel_size = h / 3;
	float rest = pdl_world_material_count(world) > 0 ? pdl_world_get_material(world, 0).rest_density : 0;
	float spacing = rest > 0 ? pdl_rest_spacing_3d(h, rest) : h / 2;
	d.radius = std::fmax(0.5f * spacing, 1.5f * d.voxel_size);
	return d;
}

extern "C" bool pdl_export_vdb(const char* path, const pdl_world* world, const pdl_vdb_def* def, pdl_error* err)
{
	if (!path || !world || !def) {
		return say(err, PDL_ERR_NULL_ARGUMENT, nullptr, "pdl_export_vdb: path, world and def must not be NULL");
	}
	if (pdl_world_get_def(world).dimensions != 3) {
		return say(err, PDL_ERR_VDB_DIMENSIONS, path, "VDB volumes are of 3D worlds; this world is 2D");
	}
	if (!(def->voxel_size > 0) || !std::isfinite(def->voxel_size) || !(def->radius > def->voxel_size) ||
	    !std::isfinite(def->radius)) {
		return say(err, PDL_ERR_VDB_DEF, path, "the VDB def needs voxel_size > 0 and radius > voxel_size");
	}
	// OpenVDB's file writer does not report a failed write (a full disk left empty .vdb files
	// under their real names): the volume is serialised in memory, then written and renamed
	// through atomic_file.h, whose every write is checked, like every other output.
	std::string bytes;
	try {
		std::call_once(initialized, [] { openvdb::initialize(); });
		pdl_particle_data p = pdl_world_particles(world);
		openvdb::GridPtrVec grids;
		// the fluid's mass per unit volume
		grids.push_back(splat_grid(
			"density", p.count, p.x, p.y, p.z,
			[&](int i) { return (double)pdl_world_get_material(world, p.material[i]).mass; }, def->voxel_size));
		// with diffuse particles on, their number per unit volume (spray, foam and bubbles alike)
		if (pdl_world_get_diffuse(world).enabled) {
			pdl_diffuse_data d = pdl_world_diffuse(world);
			grids.push_back(splat_grid("diffuse", d.count, d.x, d.y, d.z, [](int) { return 1.0; }, def->voxel_size));
		}
		// the level set, with a band of 3 voxels each side (OpenVDB's default width)
		openvdb::FloatGrid::Ptr surface = openvdb::createLevelSet<openvdb::FloatGrid>(def->voxel_size);
		surface->setName("surface");
		if (p.count > 0) {
			ParticleList list{&p, (double)def->radius};
			openvdb::tools::ParticlesToLevelSet<openvdb::FloatGrid> raster(*surface);
			raster.setRmin(1.0); // in voxels: every particle is at least 1.5 voxels (pdl_vdb_def)
			raster.rasterizeSpheres(list);
			raster.finalize(true);
		}
		grids.push_back(surface);
		std::ostringstream out(std::ios_base::binary);
		openvdb::MetaMap meta;
		meta.insertMeta("puddle_time", openvdb::FloatMetadata(pdl_world_time(world)));
		meta.insertMeta("puddle_particles", openvdb::Int32Metadata(p.count));
		openvdb::io::Stream(out).write(grids, meta);
		bytes = out.str();
	} catch (const std::exception& e) {
		return say(err, PDL_ERR_EXPORT_DATA, path, e.what());
	}
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	std::fwrite(bytes.data(), 1, bytes.size(), a.f);
	return pdl_atomic_commit(&a, err);
}
