/* vdb.h without OpenVDB (this build did not find it): pdl_export_vdb says so. */
#include "puddle/vdb.h"

#include <stdio.h>

bool pdl_vdb_available(void) { return false; }

pdl_vdb_def pdl_default_vdb_def(const pdl_world* world)
{
	float h = pdl_world_get_def(world).interaction_radius;
	return (pdl_vdb_def){h / 3, h / 2};
}

bool pdl_export_vdb(const char* path, const pdl_world* world, const pdl_vdb_def* def, char* err, size_t err_size)
{
	(void)world, (void)def;
	if (err && err_size)
		snprintf(err, err_size, "%s: this build of puddle has no OpenVDB (install libopenvdb-dev and libboost-dev, "
		         "then rebuild: scripts/install-deps.sh vdb)", path ? path : "(null)");
	return false;
}
