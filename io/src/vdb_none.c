/* vdb.h without OpenVDB (this build did not find it): pdl_export_vdb says so. */
#include "puddle/vdb.h"

#include <stdio.h>

bool pdl_vdb_available(void) { return false; }

pdl_vdb_def pdl_default_vdb_def(const pdl_world* world)
{
	float h = pdl_world_get_def(world).interaction_radius;
	return (pdl_vdb_def){h / 3, h / 2};
}

bool pdl_export_vdb(const char* path, const pdl_world* world, const pdl_vdb_def* def, pdl_error* err)
{
	(void)world, (void)def;
	pdl_error_fill(err, PDL_ERR_VDB_UNAVAILABLE, path ? path : "(null)", NULL,
	               "this build of puddle has no OpenVDB (install libopenvdb-dev and libboost-dev, "
	               "then rebuild: scripts/install-deps.sh vdb)");
	return false;
}
