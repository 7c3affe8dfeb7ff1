/* The orbit camera (include/puddle/camera.h). */
#include "puddle/camera.h"

#include <math.h>

#define DEG (3.14159265358979323846f / 180.0f)

pdl_camera pdl_default_camera(void)
{
	return (pdl_camera){PDL_CAMERA_FIELDS(PDL_FIELD_DEFAULT, ~)};
}

pdl_camera pdl_camera_framing(pdl_vec3 lo, pdl_vec3 hi)
{
	pdl_camera c = pdl_default_camera();
	c.target = (pdl_vec3){0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y), 0.5f * (lo.z + hi.z)};
	float dx = hi.x - lo.x, dy = hi.y - lo.y, dz = hi.z - lo.z;
	/* the bounding sphere must fit the narrower (vertical) field of view */
	float radius = 0.5f * sqrtf(dx * dx + dy * dy + dz * dz);
	c.distance = radius / sinf(0.5f * c.fov * DEG);
	if (!(c.distance > 0)) c.distance = 1;
	return c;
}

/* The camera's frame: forward f (eye to target), right r, up u, all unit. */
static void frame(const pdl_camera* c, float f[3], float r[3], float u[3])
{
	float cy = cosf(c->yaw * DEG), sy = sinf(c->yaw * DEG);
	float cp = cosf(c->pitch * DEG), sp = sinf(c->pitch * DEG);
	/* eye offset from the target is distance * (sy cp, sp, cy cp); forward is its negative */
	f[0] = -sy * cp, f[1] = -sp, f[2] = -cy * cp;
	r[0] = cy, r[1] = 0, r[2] = -sy; /* f x (0, 1, 0), normalized */
	u[0] = r[1] * f[2] - r[2] * f[1];
	u[1] = r[2] * f[0] - r[0] * f[2];
	u[2] = r[0] * f[1] - r[1] * f[0];
}

pdl_vec3 pdl_camera_eye(const pdl_camera* c)
{
	float f[3], r[3], u[3];
	frame(c, f, r, u);
	return (pdl_vec3){c->target.x - c->distance * f[0], c->target.y - c->distance * f[1],
	                  c->target.z - c->distance * f[2]};
}

void pdl_camera_matrix(const pdl_camera* c, float aspect, float m[16])
{
	float f[3], r[3], u[3];
	frame(c, f, r, u);
	pdl_vec3 e = pdl_camera_eye(c);
	float near = c->distance / 100, far = c->distance * 100;
	float t = 1.0f / tanf(0.5f * c->fov * DEG);
	/* view: rows r, u, -f; translation -R e */
	float view[3][4] = {
		{r[0], r[1], r[2], -(r[0] * e.x + r[1] * e.y + r[2] * e.z)},
		{u[0], u[1], u[2], -(u[0] * e.x + u[1] * e.y + u[2] * e.z)},
		{-f[0], -f[1], -f[2], (f[0] * e.x + f[1] * e.y + f[2] * e.z)},
	};
	/* perspective (gluPerspective) times view */
	float a = (far + near) / (near - far), b = 2 * far * near / (near - far);
	for (int col = 0; col < 4; ++col) {
		m[col * 4 + 0] = t / aspect * view[0][col];
		m[col * 4 + 1] = t * view[1][col];
		m[col * 4 + 2] = a * view[2][col] + (col == 3 ? b : 0);
		m[col * 4 + 3] = -view[2][col];
	}
}

pdl_vec3 pdl_camera_ray(const pdl_camera* c, float aspect, float ndc_x, float ndc_y)
{
	float f[3], r[3], u[3];
	frame(c, f, r, u);
	float t = tanf(0.5f * c->fov * DEG);
	float d[3];
	for (int k = 0; k < 3; ++k) d[k] = f[k] + ndc_x * t * aspect * r[k] + ndc_y * t * u[k];
	float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	return (pdl_vec3){d[0] / len, d[1] / len, d[2] / len};
}
