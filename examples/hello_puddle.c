/* The README's ten-line example: a column of water collapsing in a tank; then, as the README's
 * Bodies section shows, a box dropped onto the water floats on it. */
#include <puddle/puddle.h>
#include <stdbool.h>
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

	pdl_error err;
	pdl_body_def box = pdl_default_body_def();          /* a dynamic box, friction 0.5, restitution 0.1 */
	box.position = (pdl_vec3){0, 5};                    /* its centre of mass, world units */
	box.half_extents = (pdl_vec3){3, 1.5f};
	box.density = 0.5f;                                 /* half the water's: floats half under */
	pdl_body_id id = pdl_world_add_body(world, &box, &err);
	if (id.index < 0) {
		fprintf(stderr, "%s\n", err.message);
		return 1;
	}
	for (int frame = 0; frame < 300; ++frame) pdl_world_step(world);
	pdl_world_get_body(world, id, &box);                /* position, angle (3D: orientation), velocities */
	pdl_body_force f = pdl_world_body_force(world, id); /* force and torque the fluid put on it */
	printf("a box half as dense as the water floats: centre (%.2f, %.2f), the fluid holds it up with %.1f\n",
	       box.position.x, box.position.y, f.force.y);
	bool floats = box.position.y > -10 + 1.5f && box.position.y < 0 && f.force.y > 0;
	pdl_world_destroy(world);
	return stats.non_finite == 0 && p.count > 0 && floats ? 0 : 1;
}
