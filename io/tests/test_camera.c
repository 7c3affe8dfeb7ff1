/* The orbit camera (camera.h): what the matrix does to known points, where yaw puts the eye,
 * that rays agree with the matrix, and that framing keeps a box in view. */
#include "test.h"

#include "puddle/camera.h"

#include <math.h>

/* clip = m * (p, 1), then normalized device coordinates; *w is clip w (the view depth). */
static pdl_vec3 to_ndc(const float m[16], pdl_vec3 p, float* w)
{
	float in[4] = {p.x, p.y, p.z, 1}, clip[4];
	for (int row = 0; row < 4; ++row) {
		clip[row] = 0;
		for (int col = 0; col < 4; ++col) clip[row] += m[col * 4 + row] * in[col];
	}
	*w = clip[3];
	return (pdl_vec3){clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]};
}

static float length(pdl_vec3 a) { return sqrtf(a.x * a.x + a.y * a.y + a.z * a.z); }

/* A camera at an awkward angle, not looking at the origin. */
static pdl_camera tilted(void)
{
	pdl_camera c = pdl_default_camera();
	c.target = (pdl_vec3){3, -2, 5};
	c.yaw = 57, c.pitch = 31, c.distance = 25, c.fov = 50;
	return c;
}

static void test_target_at_picture_centre(void)
{
	pdl_camera c = tilted();
	float m[16], w;
	pdl_camera_matrix(&c, 16.0f / 9.0f, m);
	pdl_vec3 ndc = to_ndc(m, c.target, &w);
	ENSURE_MSG(fabsf(ndc.x) < 1e-5f && fabsf(ndc.y) < 1e-5f, "target at ndc %g, %g", ndc.x, ndc.y);
	ENSURE_MSG(fabsf(w - c.distance) < 1e-3f, "view depth %g, distance %g", w, c.distance);
	ENSURE(ndc.z > -1 && ndc.z < 1); /* between the near and far planes */
}

static void test_right_is_positive_x(void)
{
	/* yaw 0: the camera is on +z looking to -z, so its right is +x */
	pdl_camera c = pdl_default_camera();
	c.yaw = 0, c.pitch = 20;
	float m[16], w;
	pdl_camera_matrix(&c, 1.5f, m);
	ENSURE(to_ndc(m, (pdl_vec3){5, 0, 0}, &w).x > 0.05f);
	ENSURE(to_ndc(m, (pdl_vec3){-5, 0, 0}, &w).x < -0.05f);
	/* yaw 90: on +x looking to -x, its right is -z */
	c.yaw = 90;
	pdl_camera_matrix(&c, 1.5f, m);
	ENSURE(to_ndc(m, (pdl_vec3){0, 0, -5}, &w).x > 0.05f);
	/* and up is up */
	ENSURE(to_ndc(m, (pdl_vec3){0, 5, 0}, &w).y > 0.05f);
}

static void test_yaw_and_pitch_place_the_eye(void)
{
	pdl_camera c = pdl_default_camera();
	c.target = (pdl_vec3){1, 2, 3};
	c.yaw = 90, c.pitch = 0, c.distance = 10;
	pdl_vec3 e = pdl_camera_eye(&c);
	ENSURE_MSG(fabsf(e.x - 11) < 1e-4f && fabsf(e.y - 2) < 1e-4f && fabsf(e.z - 3) < 1e-4f, "eye %g %g %g", e.x, e.y,
	           e.z);
	c.yaw = 0;
	e = pdl_camera_eye(&c);
	ENSURE_MSG(fabsf(e.x - 1) < 1e-4f && fabsf(e.z - 13) < 1e-4f, "eye %g %g %g", e.x, e.y, e.z);
	/* pitch > 0 looks down: the eye is above the target, still `distance` away */
	c.pitch = 30;
	e = pdl_camera_eye(&c);
	ENSURE(fabsf(e.y - (2 + 10 * sinf(30 * 3.14159265f / 180))) < 1e-4f);
	pdl_vec3 off = {e.x - 1, e.y - 2, e.z - 3};
	ENSURE(fabsf(length(off) - 10) < 1e-4f);
}

static void test_centre_ray_hits_target(void)
{
	pdl_camera c = tilted();
	pdl_vec3 e = pdl_camera_eye(&c), ray = pdl_camera_ray(&c, 16.0f / 9.0f, 0, 0);
	pdl_vec3 to_target = {(c.target.x - e.x) / c.distance, (c.target.y - e.y) / c.distance, (c.target.z - e.z) / c.distance};
	ENSURE(fabsf(length(ray) - 1) < 1e-5f);
	ENSURE_MSG(fabsf(ray.x - to_target.x) < 1e-5f && fabsf(ray.y - to_target.y) < 1e-5f &&
	               fabsf(ray.z - to_target.z) < 1e-5f,
	           "ray %g %g %g, to target %g %g %g", ray.x, ray.y, ray.z, to_target.x, to_target.y, to_target.z);
	/* any other ray lands where the matrix says: a point along it projects back to its ndc */
	float m[16], w;
	pdl_camera_matrix(&c, 16.0f / 9.0f, m);
	pdl_vec3 d = pdl_camera_ray(&c, 16.0f / 9.0f, 0.6f, -0.35f);
	pdl_vec3 ndc = to_ndc(m, (pdl_vec3){e.x + 30 * d.x, e.y + 30 * d.y, e.z + 30 * d.z}, &w);
	ENSURE_MSG(fabsf(ndc.x - 0.6f) < 1e-4f && fabsf(ndc.y + 0.35f) < 1e-4f, "ndc %g %g", ndc.x, ndc.y);
}

static void test_framing_keeps_box_in_view(void)
{
	pdl_vec3 boxes[3][2] = {
		{{-16, -8, -6}, {16, 8, 6}},      /* a tank */
		{{-2, 0, -30}, {2, 40, 30}},      /* tall and deep */
		{{100, -5, 100}, {101, -4, 101}}, /* small, far from the origin */
	};
	for (int b = 0; b < 3; ++b) {
		pdl_vec3 lo = boxes[b][0], hi = boxes[b][1];
		pdl_camera c = pdl_camera_framing(lo, hi);
		ENSURE(c.distance > 0 && c.fov >= 5 && c.fov <= 120 && c.pitch >= -89 && c.pitch <= 89);
		float m[16];
		pdl_camera_matrix(&c, 16.0f / 9.0f, m);
		for (int k = 0; k < 8; ++k) {
			pdl_vec3 p = {k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z};
			float w;
			pdl_vec3 ndc = to_ndc(m, p, &w);
			ENSURE_MSG(w > 0 && fabsf(ndc.x) <= 1 && fabsf(ndc.y) <= 1 && fabsf(ndc.z) <= 1,
			           "box %d corner %d at ndc %g %g %g, w %g", b, k, ndc.x, ndc.y, ndc.z, w);
		}
	}
}

int main(void)
{
	RUN_TEST(test_target_at_picture_centre);
	RUN_TEST(test_right_is_positive_x);
	RUN_TEST(test_yaw_and_pitch_place_the_eye);
	RUN_TEST(test_centre_ray_hits_target);
	RUN_TEST(test_framing_keeps_box_in_view);
	return TEST_SUMMARY();
}
