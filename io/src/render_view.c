/* The 3D renderer's view (render_internal.h, pdl_view3): the orbit camera resolved for the
 * picture's size, a world point's pixel and a pixel's ray. Below both 3D passes: the spheres and
 * scenery (render3d.c) and the liquid (render_liquid.c) project and cast rays through it. */
#include "render_internal.h"

#include "../../src/vec.h"

#include <math.h>

void pdl_render_3d_setup(pdl_renderer* r)
{
	const pdl_camera* c = &r->def.camera;
	pdl_view3* v = &r->view;
	v->eye = pdl_camera_eye(c);
	v->f = pdl_v3_normalize(pdl_v3_sub(c->target, v->eye));
	/* the camera's right is forward x up; pitch stays within +-89 degrees, so it is never 0 */
	v->r = pdl_v3_normalize(pdl_v3_cross(v->f, pdl_v3(0, 1, 0)));
	v->u = pdl_v3_cross(v->r, v->f);
	float fov = c->fov > 0 && c->fov < 180 ? c->fov : 45;
	v->tan_y = tanf(0.5f * fov * 3.14159265358979323846f / 180.0f);
	v->tan_x = v->tan_y * (float)r->def.width / (float)r->def.height;
	v->focal = 0.5f * (float)r->def.height / v->tan_y;
	/* the near plane of pdl_camera_matrix */
	v->near = c->distance > 0 ? c->distance / 100 : 0.01f;
}

pdl_vec3 pdl_render_project(const pdl_renderer* r, pdl_vec3 p)
{
	const pdl_view3* v = &r->view;
	pdl_vec3 d = pdl_v3_sub(p, v->eye);
	float w = pdl_v3_dot(d, v->f);
	float ndc_x = pdl_v3_dot(d, v->r) / (w * v->tan_x), ndc_y = pdl_v3_dot(d, v->u) / (w * v->tan_y);
	return pdl_v3(0.5f * (ndc_x + 1) * (float)r->def.width, 0.5f * (1 - ndc_y) * (float)r->def.height, w);
}

pdl_vec3 pdl_render_pixel_ray(const pdl_renderer* r, float x, float y)
{
	const pdl_view3* v = &r->view;
	float ndc_x = 2 * x / (float)r->def.width - 1, ndc_y = 1 - 2 * y / (float)r->def.height;
	return pdl_v3_add(v->f, pdl_v3_add(pdl_v3_scale(v->r, ndc_x * v->tan_x), pdl_v3_scale(v->u, ndc_y * v->tan_y)));
}
