/* Times N steps of a settled pool of about P particles with T threads (the engine-only figure
 * quoted in the README; `puddle bench` measures whole scenes).
 * Usage: time_pool [particles=10000] [steps=1000] [threads=1] */
#include <puddle/puddle.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv)
{
	int particles = argc > 1 ? atoi(argv[1]) : 10000;
	int steps = argc > 2 ? atoi(argv[2]) : 1000;
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	pdl_world_def wd = pdl_default_world_def();
	wd.threads = threads;
	pdl_error err;
	pdl_world* w = pdl_world_create(&wd, &err);
	if (!w) {
		fprintf(stderr, "time_pool: %s\n", err.message);
		return 2;
	}
	pdl_material_def water = pdl_default_material_def();
	pdl_world_add_material(w, &water, NULL);
	/* a pool 8 h deep (deeper water needs substeps at this dt, see docs/physics.md), at rest
	 * density */
	float s = pdl_rest_spacing(wd.interaction_radius, water.rest_density);
	float area = particles * s * s * 0.8660254f;
	float hy = 4.0f * wd.interaction_radius, hx = area / (4.0f * hy);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){hx, 2.0f * hy};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def fill = pdl_default_fill_def();
	fill.position = (pdl_vec3){0, -hy};
	fill.half_extents = (pdl_vec3){hx, hy};
	pdl_world_fill(w, &fill, NULL);
	for (int i = 0; i < 100; ++i) pdl_world_step(w); /* warm up */
	pdl_profile sum = {0};
	double t0 = now_s();
	for (int i = 0; i < steps; ++i) {
		pdl_world_step(w);
		pdl_profile p = pdl_world_profile(w);
		sum.forces += p.forces;
		sum.density += p.density;
		sum.predict += p.predict;
		sum.springs += p.springs;
		sum.relax += p.relax;
		sum.boundaries += p.boundaries;
		sum.velocity += p.velocity;
	}
	double t1 = now_s();
	pdl_stats st = pdl_world_stats(w);
	printf("particles %d threads %d steps %d seconds %.3f ms/step %.3f neighbours %.1f\n", st.particles,
	       pdl_world_thread_count(w), steps, t1 - t0, 1e3 * (t1 - t0) / steps, st.mean_neighbours);
	printf("ms/step by stage: forces %.3f predict+sort %.3f springs %.3f density+viscosity %.3f "
	       "relax %.3f boundaries %.3f velocity %.3f\n", sum.forces / steps, sum.predict / steps,
	       sum.springs / steps, sum.density / steps, sum.relax / steps, sum.boundaries / steps,
	       sum.velocity / steps);
	pdl_world_destroy(w);
	return st.non_finite ? 1 : 0;
}
