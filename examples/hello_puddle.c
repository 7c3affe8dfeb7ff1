/* The README's ten-line example: a column of water collapsing in a tank. */
#include <puddle/puddle.h>
#include <stdio.h>

int main(void)
{
	pdl_world_def world_def = pdl_default_world_def(); /* h = 1, dt = 1/60 s, gravity (0, -10) */
	pdl_world* world = pdl_world_create(&world_def, NULL);
	pdl_material_def water = pdl_default_material_def();
	pdl_world_add_material(world, &water, NULL); /* material 0 */
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){20, 10};
	pdl_world_add_boundary(world, &tank, NULL);
	pdl_fill_def column = pdl_default_fill_def(); /* a 10 x 10 box at rest density */
	column.position = (pdl_vec3){-14, -4};
	pdl_world_fill(world, &column, NULL);
	for (int frame = 0; frame < 600; ++frame) pdl_world_step(world); /* ten seconds */
	pdl_particle_data p = pdl_world_particles(world);
	pdl_stats stats = pdl_world_stats(world);
	printf("%d particles after %.1f s, centre of mass (%.2f, %.2f), max speed %.2f\n", p.count,
	       pdl_world_time(world), stats.centre_of_mass.x, stats.centre_of_mass.y, stats.max_speed);
	pdl_world_destroy(world);
	return stats.non_finite == 0 && p.count > 0 ? 0 : 1;
}
