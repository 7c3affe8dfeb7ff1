/* The CUDA backend (src/cuda_step.cu): deterministic on the GPU, close to the CPU backend, and
 * keeping every particle, for the Clavet solver with its springs and for the SPH solver; the
 * worlds it cannot step (rigid bodies) run on the CPU and say why.
 *
 * Without a GPU (or in a build without CUDA) the first case checks that a CUDA world is refused
 * with the reason, and the program exits 77, which ctest reports as skipped, after printing why
 * (tests/CMakeLists.txt: SKIP_RETURN_CODE). */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "worlds.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

enum { SKIPPED = 77 };

static char skip_reason[sizeof ((pdl_error*)0)->message];

/* A dam break without springs (the GPU step's own ground): water and a heavier liquid, viscosity,
 * a box container, a turned box and a triangle, a pointer dragging through. spread > 0 adds a
 * second blob that far away, so that the GPU grid hashes its cells. */
static pdl_world* dam_break(pdl_backend backend, int dimensions, float spread)
{
	pdl_world_def wd = pdl_default_world_def();
	wd.dimensions = dimensions;
	wd.threads = 2;
	wd.backend = backend;
	wd.substeps = 2;
	if (dimensions == 3) wd.gravity = (pdl_vec3){0, -10, 0};
	pdl_error err;
	pdl_world* w = pdl_world_create(&wd, &err);
	if (!w) {
		fprintf(stderr, "dam_break: %s\n", err.message);
		exit(3);
	}
	pdl_material_def water = pdl_default_material_def(), heavy = pdl_default_material_def();
	heavy.mass = 2.0f;
	heavy.rest_density = 5.0f;
	heavy.viscosity_sigma = 1.0f;
	pdl_world_add_material(w, &water, NULL);
	int heavy_id = pdl_world_add_material(w, &heavy, NULL);
	float depth = dimensions == 3 ? 5.0f : 0.0f;
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER;
	tank.half_extents = (pdl_vec3){25, 15, depth + 1};
	tank.friction = 0.2f;
	if (spread > 0) { /* a tank wide enough for the far blob */
		tank.half_extents.x = spread + 10;
		tank.position.x = spread / 2;
	}
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def fd = pdl_default_fill_def();
	fd.position = (pdl_vec3){-19, -5, 0};
	fd.half_extents = (pdl_vec3){5, 9, depth};
	pdl_world_fill(w, &fd, NULL);
	fd.material = heavy_id;
	fd.position = (pdl_vec3){15, -12, 0};
	fd.half_extents = (pdl_vec3){8, 2.5f, depth};
	pdl_world_fill(w, &fd, NULL);
	if (spread > 0) {
		fd.material = 0;
		fd.position = (pdl_vec3){spread, 0, 0};
		fd.half_extents = (pdl_vec3){3, 3, depth};
		pdl_world_fill(w, &fd, NULL);
	}
	pdl_boundary_def box = pdl_default_boundary_def();
	box.position = (pdl_vec3){-3, -10, 0};
	box.half_extents = (pdl_vec3){1.5f, 3, 2};
	box.angle = 0.3f;
	pdl_world_add_boundary(w, &box, NULL);
	pdl_boundary_def ball = pdl_default_boundary_def();
	ball.kind = PDL_BOUNDARY_CIRCLE;
	ball.position = (pdl_vec3){8, 0, 0};
	ball.radius = 2;
	pdl_world_add_boundary(w, &ball, NULL);
	if (dimensions == 2) worlds_add_triangle(w, 0, -14);
	pdl_pointer ptr = pdl_default_pointer();
	ptr.position = (pdl_vec3){-10, -10, 0};
	ptr.velocity = (pdl_vec3){20, 0, 0};
	ptr.drag = 5.0f;
	pdl_world_set_pointer(w, 0, &ptr, NULL);
	return w;
}

static void run(pdl_world* w, int frames)
{
	for (int f = 0; f < frames; ++f) {
		if (f == frames / 2) pdl_world_clear_pointer(w, 0); /* change things mid-run, as an app would */
		pdl_world_step(w);
	}
}

/* Largest distance between the same particle (by id) in two worlds, in h; -1 when their ids differ. */
static double max_offset_by_id(const pdl_world* a, const pdl_world* b)
{
	pdl_particle_data pa = pdl_world_particles(a), pb = pdl_world_particles(b);
	if (pa.count != pb.count) return -1;
	uint32_t top = 0;
	for (int i = 0; i < pb.count; ++i) top = pb.id[i] > top ? pb.id[i] : top;
	int* where = malloc(((size_t)top + 1) * sizeof *where);
	for (uint32_t k = 0; k <= top; ++k) where[k] = -1;
	for (int i = 0; i < pb.count; ++i) where[pb.id[i]] = i;
	double worst = 0;
	for (int i = 0; i < pa.count; ++i) {
		int j = pa.id[i] <= top ? where[pa.id[i]] : -1;
		if (j < 0) {
			worst = -1;
			break;
		}
		double dx = pa.x[i] - pb.x[j], dy = pa.y[i] - pb.y[j], dz = pa.z ? pa.z[i] - pb.z[j] : 0;
		double d = sqrt(dx * dx + dy * dy + dz * dz);
		if (!(d <= worst)) worst = d; /* NaN makes it NaN */
	}
	free(where);
	return worst;
}

/* Whether every id of the first world appears once (no particle lost or doubled by the GPU's
 * reordering). */
static bool ids_unique(const pdl_world* w)
{
	pdl_particle_data p = pdl_world_particles(w);
	uint32_t top = 0;
	for (int i = 0; i < p.count; ++i) top = p.id[i] > top ? p.id[i] : top;
	unsigned char* seen = calloc((size_t)top + 1, 1);
	bool ok = seen != NULL;
	for (int i = 0; ok && i < p.count; ++i) ok = !seen[p.id[i]]++;
	free(seen);
	return ok;
}

/* ---- everywhere ----------------------------------------------------------------------------- */

/* A CUDA world is made, or refused with PDL_ERR_WORLD_BACKEND and the reason (no CUDA in this
 * build, no GPU); which one decides whether the GPU cases run. */
static bool gpu_available(void)
{
	pdl_world_def wd = pdl_default_world_def();
	wd.backend = PDL_BACKEND_CUDA;
	pdl_error err;
	pdl_world* w = pdl_world_create(&wd, &err);
	if (w) {
		pdl_world_destroy(w);
		return true;
	}
	snprintf(skip_reason, sizeof skip_reason, "%s", err.message);
	return false;
}

static void test_refusal_names_the_field_and_reason(void)
{
	if (gpu_available()) return;
	pdl_world_def wd = pdl_default_world_def();
	wd.backend = PDL_BACKEND_CUDA;
	pdl_error err;
	ENSURE(pdl_world_create(&wd, &err) == NULL);
	ENSURE(err.id == PDL_ERR_WORLD_BACKEND);
	printf("  %s\n", err.message);
	ENSURE(strstr(err.message, "world.backend must be") == err.message);
	ENSURE(strstr(err.message, "CUDA") != NULL);
	wd.backend = (pdl_backend)7;
	ENSURE(pdl_world_create(&wd, &err) == NULL && err.id == PDL_ERR_WORLD_BACKEND && err.value == 7);
	/* a CPU world cannot be switched to a backend it cannot have; nothing changes */
	wd.backend = PDL_BACKEND_CPU;
	pdl_world* w = pdl_world_create(&wd, &err);
	ENSURE(w != NULL);
	wd.backend = PDL_BACKEND_CUDA;
	ENSURE(pdl_world_set_def(w, &wd, &err) == PDL_ERR_WORLD_BACKEND);
	ENSURE(pdl_world_get_def(w).backend == PDL_BACKEND_CPU);
	pdl_world_destroy(w);
}

/* ---- on a GPU ------------------------------------------------------------------------------- */

/* The same hash run after run, in 2D, 3D and on a hashed grid. */
static void test_gpu_same_bits_every_run(void)
{
	const float spreads[] = {0, 0, 5000};
	const int dims[] = {2, 3, 2};
	for (int k = 0; k < 3; ++k) {
		uint64_t hash[2];
		for (int r = 0; r < 2; ++r) {
			pdl_world* w = dam_break(PDL_BACKEND_CUDA, dims[k], spreads[k]);
			run(w, worlds_steps(200));
			ENSURE(pdl_world_profile(w).backend == PDL_BACKEND_CUDA);
			ENSURE_MSG(pdl_world_backend_note(w)[0] == 0, "%s", pdl_world_backend_note(w));
			hash[r] = pdl_world_hash(w);
			pdl_world_destroy(w);
		}
		printf("  %dD%s: %016" PRIx64 " and %016" PRIx64 "\n", dims[k], spreads[k] > 0 ? " hashed" : "", hash[0],
		       hash[1]);
		ENSURE(hash[0] == hash[1]);
	}
}

/* Against the CPU backend: after one frame the same particles are within rounding of each
 * other; after a second of a dam break (two substeps a frame, chaotic splashes) within a tenth
 * of h for most; bulk figures agree. */
static void test_gpu_agrees_with_cpu(void)
{
	const int dims[] = {2, 3, 2};
	const float spreads[] = {0, 0, 5000};
	for (int k = 0; k < 3; ++k) {
		pdl_world* cpu = dam_break(PDL_BACKEND_CPU, dims[k], spreads[k]);
		pdl_world* gpu = dam_break(PDL_BACKEND_CUDA, dims[k], spreads[k]);
		run(cpu, 1);
		run(gpu, 1);
		double one = max_offset_by_id(cpu, gpu);
		run(cpu, 59);
		run(gpu, 59);
		double sixty = max_offset_by_id(cpu, gpu);
		pdl_stats a = pdl_world_stats(cpu), b = pdl_world_stats(gpu);
		double com = sqrt(pow(a.centre_of_mass.x - b.centre_of_mass.x, 2) + pow(a.centre_of_mass.y - b.centre_of_mass.y, 2) +
		                  pow(a.centre_of_mass.z - b.centre_of_mass.z, 2));
		printf("  %dD%s, %d particles: largest offset after 1 frame %.3g h, after 60 %.3g h; centre of mass %.3g h "
		       "apart; mean neighbours %.2f (CPU) %.2f (GPU); density error %.4f %.4f\n",
		       dims[k], spreads[k] > 0 ? " hashed" : "", a.particles, one, sixty, com, a.mean_neighbours,
		       b.mean_neighbours, a.mean_density_error, b.mean_density_error);
		ENSURE(one >= 0 && one < 1e-3);
		ENSURE(sixty >= 0); /* the same ids */
		ENSURE(com < 0.05);
		ENSURE(fabs(a.mean_neighbours - b.mean_neighbours) < 0.05 * a.mean_neighbours);
		ENSURE(fabs(a.mean_density_error - b.mean_density_error) < 0.01);
		pdl_world_destroy(cpu);
		pdl_world_destroy(gpu);
	}
}

/* The test library's SPH dam breaks (2D with surface tension, a heavier liquid, a box and a
 * pointer; 3D with a ball), switched to a backend after they are built. */
static pdl_world* sph_dam_break(pdl_backend backend, int dimensions)
{
	pdl_world* w = dimensions == 3 ? worlds_dam_break_3d(2, PDL_SOLVER_SPH) : worlds_sph_dam_break(2);
	pdl_world_def d = pdl_world_get_def(w);
	d.backend = backend;
	pdl_error err;
	if (pdl_world_set_def(w, &d, &err) != PDL_OK) {
		fprintf(stderr, "sph_dam_break: %s\n", err.message);
		exit(3);
	}
	return w;
}

/* SPH on the GPU: the same CFL substeps as the CPU, within rounding of it after a frame, the
 * same bits run after run, and every particle kept. */
static void test_gpu_sph(void)
{
	for (int dims = 2; dims <= 3; ++dims) {
		pdl_world* cpu = sph_dam_break(PDL_BACKEND_CPU, dims);
		pdl_world* gpu = sph_dam_break(PDL_BACKEND_CUDA, dims);
		pdl_world* again = sph_dam_break(PDL_BACKEND_CUDA, dims);
		int before = pdl_world_stats(cpu).particles;
		pdl_world_step(cpu);
		pdl_world_step(gpu);
		pdl_world_step(again);
		double one = max_offset_by_id(cpu, gpu);
		int sub_cpu = pdl_world_profile(cpu).substeps, sub_gpu = pdl_world_profile(gpu).substeps;
		ENSURE_MSG(pdl_world_profile(gpu).backend == PDL_BACKEND_CUDA, "%s", pdl_world_backend_note(gpu));
		for (int f = 0; f < worlds_steps(60); ++f) {
			pdl_world_step(cpu);
			pdl_world_step(gpu);
			pdl_world_step(again);
		}
		pdl_stats a = pdl_world_stats(cpu), b = pdl_world_stats(gpu);
		double com = sqrt(pow(a.centre_of_mass.x - b.centre_of_mass.x, 2) + pow(a.centre_of_mass.y - b.centre_of_mass.y, 2) +
		                  pow(a.centre_of_mass.z - b.centre_of_mass.z, 2));
		printf("  SPH %dD, %d particles: %d substeps (CPU %d); after 1 frame %.3g h apart; after %d, centre of mass "
		       "%.3g h apart, density error %.4f (CPU %.4f), neighbours %.2f (CPU %.2f); hashes %016" PRIx64
		       " %016" PRIx64 "\n",
		       dims, b.particles, sub_gpu, sub_cpu, one, worlds_steps(60) + 1, com, b.mean_density_error,
		       a.mean_density_error, b.mean_neighbours, a.mean_neighbours, pdl_world_hash(gpu), pdl_world_hash(again));
		ENSURE(sub_gpu == sub_cpu);
		ENSURE(one >= 0 && one < 1e-3);
		ENSURE(pdl_world_hash(gpu) == pdl_world_hash(again));
		ENSURE(b.particles == before && b.non_finite == 0 && ids_unique(gpu));
		ENSURE(com < 0.05);
		ENSURE(fabs(a.mean_density_error - b.mean_density_error) < 0.005);
		pdl_world_destroy(cpu);
		pdl_world_destroy(gpu);
		pdl_world_destroy(again);
	}
}

/* No particle lost, doubled, NaN or outside the tank over a long run, 3D. */
static void test_gpu_keeps_every_particle(void)
{
	pdl_world* w = dam_break(PDL_BACKEND_CUDA, 3, 0);
	int before = pdl_world_stats(w).particles;
	run(w, worlds_steps(600));
	pdl_stats s = pdl_world_stats(w);
	pdl_particle_data p = pdl_world_particles(w);
	int outside = 0;
	for (int i = 0; i < p.count; ++i)
		outside += !(fabsf(p.x[i]) <= 25 && fabsf(p.y[i]) <= 15 && fabsf(p.z[i]) <= 6);
	printf("  %d particles, %d non-finite, %d outside, %lld GPU bytes\n", s.particles, s.non_finite, outside,
	       s.device_bytes);
	ENSURE(s.particles == before);
	ENSURE(s.non_finite == 0);
	ENSURE(outside == 0);
	ENSURE(ids_unique(w));
	ENSURE(s.device_bytes > 0);
	pdl_world_destroy(w);
}

/* Between steps the GPU keeps the particles, and copies them again only after the host changed
 * them: particles set through the API (moved 3 h up, stopped) reach the GPU, and so does a
 * removal; the ids stay unique and nothing comes back. */
static void test_gpu_takes_the_hosts_changes(void)
{
	pdl_world* w = dam_break(PDL_BACKEND_CUDA, 2, 0);
	run(w, 20);
	pdl_particle_data p = pdl_world_particles(w);
	int n = p.count;
	float* xy = malloc(4 * (size_t)n * sizeof *xy);
	double mean_y = 0;
	for (int i = 0; i < n; ++i) {
		xy[i] = p.x[i], xy[n + i] = p.y[i] + 3.0f, xy[2 * n + i] = 0, xy[3 * n + i] = 0;
		mean_y += p.y[i] / n;
	}
	pdl_particle_data set = {.count = n, .x = xy, .y = xy + n, .vx = xy + 2 * n, .vy = xy + 3 * n,
	                         .material = p.material, .id = p.id, .next_id = p.next_id};
	ENSURE(pdl_world_set_particles(w, &set, NULL) == PDL_OK);
	free(xy);
	pdl_world_step(w);
	p = pdl_world_particles(w);
	double after = 0;
	for (int i = 0; i < p.count; ++i) after += p.y[i] / p.count;
	printf("  mean height %.3f, set 3 h higher, one step later %.3f\n", mean_y, after);
	ENSURE(pdl_world_profile(w).backend == PDL_BACKEND_CUDA);
	ENSURE(after > mean_y + 2.5);
	int removed = pdl_world_remove_particles_in_circle(w, (pdl_vec3){-19, -5}, 3);
	ENSURE(removed > 0);
	pdl_world_step(w);
	pdl_stats s = pdl_world_stats(w);
	ENSURE(s.particles == n - removed);
	ENSURE(ids_unique(w));
	pdl_world_destroy(w);
}

/* The number of springs and the centre of mass, for comparing two worlds. */
static double com_apart(const pdl_world* a, const pdl_world* b)
{
	pdl_stats x = pdl_world_stats(a), y = pdl_world_stats(b);
	return sqrt(pow(x.centre_of_mass.x - y.centre_of_mass.x, 2) + pow(x.centre_of_mass.y - y.centre_of_mass.y, 2) +
	            pow(x.centre_of_mass.z - y.centre_of_mass.z, 2));
}

/* A slime blob added to a world (springs: Clavet alg. 3 and 4). */
static void add_slime(pdl_world* w, int dimensions)
{
	pdl_material_def slime = pdl_default_material_def();
	slime.spring_stiffness = 300;
	slime.plasticity = 0.5f;
	int slime_id = pdl_world_add_material(w, &slime, NULL);
	pdl_fill_def blob = pdl_default_fill_def();
	blob.shape = PDL_FILL_DISC;
	blob.material = slime_id;
	blob.position = (pdl_vec3){5, 8, 0};
	blob.radius = dimensions == 3 ? 2.5f : 3;
	pdl_world_fill(w, &blob, NULL);
}

/* Springs on the GPU (2D, and the test library's 3D dam break with its springy heavy liquid):
 * made from the same neighbours as on the CPU, within rounding of it after a frame, the same
 * bits run after run, none lost. Ties between equally near candidates may pick another partner
 * than the CPU's (the grids meet candidates in other orders), so the spring counts are
 * compared, not the springs. */
static void test_gpu_springs(void)
{
	for (int dims = 2; dims <= 3; ++dims) {
		pdl_world* w[3];
		for (int k = 0; k < 3; ++k) {
			pdl_backend b = k == 0 ? PDL_BACKEND_CPU : PDL_BACKEND_CUDA;
			if (dims == 2) {
				w[k] = dam_break(b, 2, 0);
				add_slime(w[k], 2);
			} else {
				w[k] = worlds_dam_break_3d(2, PDL_SOLVER_CLAVET);
				pdl_world_def d = pdl_world_get_def(w[k]);
				d.backend = b;
				ENSURE(pdl_world_set_def(w[k], &d, NULL) == PDL_OK);
			}
			pdl_world_step(w[k]);
		}
		ENSURE_MSG(pdl_world_profile(w[1]).backend == PDL_BACKEND_CUDA, "%s", pdl_world_backend_note(w[1]));
		double one = max_offset_by_id(w[0], w[1]);
		int springs_cpu = pdl_world_stats(w[0]).springs, springs_gpu = pdl_world_stats(w[1]).springs;
		for (int f = 0; f < worlds_steps(60); ++f)
			for (int k = 0; k < 3; ++k) pdl_world_step(w[k]);
		pdl_stats a = pdl_world_stats(w[0]), b = pdl_world_stats(w[1]);
		printf("  %dD springs, %d particles: after 1 frame %d springs (CPU %d), %.3g h apart; after %d frames %d "
		       "springs (CPU %d), centres of mass %.3g h apart; hashes %016" PRIx64 " %016" PRIx64 "\n",
		       dims, b.particles, springs_gpu, springs_cpu, one, worlds_steps(60) + 1, b.springs, a.springs,
		       com_apart(w[0], w[1]), pdl_world_hash(w[1]), pdl_world_hash(w[2]));
		ENSURE(springs_gpu > 0 && abs(springs_gpu - springs_cpu) <= springs_cpu / 10);
		ENSURE(one >= 0 && one < 1e-3);
		ENSURE(pdl_world_hash(w[1]) == pdl_world_hash(w[2]));
		ENSURE(b.particles == a.particles && b.non_finite == 0 && ids_unique(w[1]));
		ENSURE(abs(b.springs - a.springs) <= a.springs / 10);
		ENSURE(com_apart(w[0], w[1]) < 0.1);
		for (int k = 0; k < 3; ++k) pdl_world_destroy(w[k]);
	}
}

/* A world with a rigid body steps on the CPU and says so; once it is gone, on the GPU again. */
static void test_gpu_hands_bodies_to_the_cpu(void)
{
	pdl_world* w = dam_break(PDL_BACKEND_CUDA, 2, 0);
	pdl_body_def box = pdl_default_body_def();
	box.position = (pdl_vec3){10, 5};
	box.half_extents = (pdl_vec3){1.5f, 1};
	pdl_body_id id = pdl_world_add_body(w, &box, NULL);
	ENSURE(id.index >= 0);
	run(w, 5);
	printf("  note: %s\n", pdl_world_backend_note(w));
	ENSURE(pdl_world_profile(w).backend == PDL_BACKEND_CPU);
	ENSURE(strstr(pdl_world_backend_note(w), "rigid bodies") != NULL);
	ENSURE(pdl_world_remove_body(w, id, NULL) == PDL_OK);
	run(w, 5);
	ENSURE(pdl_world_profile(w).backend == PDL_BACKEND_CUDA);
	ENSURE(pdl_world_backend_note(w)[0] == 0);
	ENSURE(ids_unique(w) && pdl_world_stats(w).non_finite == 0);
	/* switched back to the CPU, the world gives the GPU's memory back and steps on */
	pdl_world_def d = pdl_world_get_def(w);
	d.backend = PDL_BACKEND_CPU;
	ENSURE(pdl_world_set_def(w, &d, NULL) == PDL_OK);
	ENSURE(pdl_world_stats(w).device_bytes == 0);
	run(w, 5);
	ENSURE(pdl_world_profile(w).backend == PDL_BACKEND_CPU && ids_unique(w));
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_refusal_names_the_field_and_reason);
	if (!gpu_available()) {
		printf("SKIPPED the GPU cases: %s\n", skip_reason);
		printf("%d passed, %d failed\n", test_passed_cases, test_failed_cases);
		return test_failed_cases ? 1 : SKIPPED;
	}
	RUN_TEST(test_gpu_same_bits_every_run);
	RUN_TEST(test_gpu_agrees_with_cpu);
	RUN_TEST(test_gpu_keeps_every_particle);
	RUN_TEST(test_gpu_sph);
	RUN_TEST(test_gpu_takes_the_hosts_changes);
	RUN_TEST(test_gpu_springs);
	RUN_TEST(test_gpu_hands_bodies_to_the_cpu);
	return TEST_SUMMARY();
}
