/* puddle-view: instanced particle quads and the colour map's uniforms (particles_gl.h).
 *
 * SPDX-License-Identifier: MIT */
#include "particles_gl.h"

#include <math.h>
#include <string.h>

void viewer_instances_create(viewer_instances* v, int array_count, int byte_array)
{
	memset(v, 0, sizeof *v);
	v->array_count = array_count;
	v->byte_array = byte_array;
	static const float corners[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
	gl.GenVertexArrays(1, &v->vao);
	gl.BindVertexArray(v->vao);
	gl.GenBuffers(1, &v->corner_buffer);
	gl.BindBuffer(GL_ARRAY_BUFFER, v->corner_buffer);
	gl.BufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
	gl.EnableVertexAttribArray(0);
	gl.VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
	gl.GenBuffers(array_count, v->buffers);
	for (int a = 0; a < array_count; ++a) {
		GLuint location = (GLuint)(a + 1);
		gl.BindBuffer(GL_ARRAY_BUFFER, v->buffers[a]);
		gl.BufferData(GL_ARRAY_BUFFER, 4, NULL, GL_STREAM_DRAW);
		gl.EnableVertexAttribArray(location);
		gl.VertexAttribPointer(location, 1, a == byte_array ? GL_UNSIGNED_BYTE : GL_FLOAT, GL_FALSE, 0, NULL);
		gl.VertexAttribDivisor(location, 1); /* one value per instance */
	}
}

void viewer_instances_per_vertex(viewer_instances* v)
{
	gl.BindVertexArray(v->vao);
	/* the corners' four vertices would be read past their end by a draw of one per particle */
	gl.DisableVertexAttribArray(0);
	for (int a = 0; a < v->array_count; ++a) gl.VertexAttribDivisor((GLuint)(a + 1), 0);
	gl.BindVertexArray(0);
}

void viewer_instances_destroy(viewer_instances* v)
{
	if (v->corner_buffer) gl.DeleteBuffers(1, &v->corner_buffer);
	if (v->buffers[0]) gl.DeleteBuffers(v->array_count, v->buffers);
	if (v->vao) gl.DeleteVertexArrays(1, &v->vao);
}

void viewer_instances_upload(viewer_instances* v, const void* const* arrays, int count)
{
	gl.BindVertexArray(v->vao);
	for (int a = 0; a < v->array_count; ++a) {
		GLuint location = (GLuint)(a + 1);
		if (arrays[a] == NULL) {
			gl.DisableVertexAttribArray(location);
			continue;
		}
		gl.EnableVertexAttribArray(location);
		size_t element = a == v->byte_array ? sizeof(uint8_t) : sizeof(float);
		gl.BindBuffer(GL_ARRAY_BUFFER, v->buffers[a]);
		/* Orphan and refill: the driver need not wait for last frame's draw to finish. */
		gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * element), arrays[a], GL_STREAM_DRAW);
	}
}

void viewer_color_uniforms_locate(viewer_color_uniforms* u, GLuint program)
{
	u->color_mode = gl.GetUniformLocation(program, "u_color_mode");
	u->material_color = gl.GetUniformLocation(program, "u_material_color");
	u->rest_density = gl.GetUniformLocation(program, "u_rest_density");
	u->speed_range = gl.GetUniformLocation(program, "u_speed_range");
	u->pressure_range = gl.GetUniformLocation(program, "u_pressure_range");
}

/* The colour map's range: the setting, or (at 0) the largest value this frame. */
static float color_range(const viewer_app* app, const pdl_particle_data* p, float setting)
{
	if (setting > 0) return setting;
	float largest = 0;
	if (app->render.color == VIEWER_COLOR_SPEED) {
		for (int i = 0; i < p->count; ++i) {
			float v2 = p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i];
			if (p->vz) v2 += p->vz[i] * p->vz[i];
			largest = fmaxf(largest, v2);
		}
		largest = sqrtf(largest);
	} else if (app->render.color == VIEWER_COLOR_PRESSURE && p->pressure != NULL) {
		for (int i = 0; i < p->count; ++i) largest = fmaxf(largest, fabsf(p->pressure[i]));
	}
	return fmaxf(largest, 1e-3f);
}

void viewer_color_uniforms_set(const viewer_color_uniforms* u, const viewer_app* app,
                               const pdl_particle_data* p)
{
	const pdl_world* world = app->scene.world;
	float colors[3 * PDL_MAX_MATERIALS];
	float rest[PDL_MAX_MATERIALS];
	int materials = pdl_world_material_count(world);
	for (int m = 0; m < PDL_MAX_MATERIALS; ++m) {
		pdl_material_def def = pdl_world_get_material(world, m < materials ? m : 0);
		colors[3 * m + 0] = (float)((def.color >> 16) & 0xff) / 255.0f;
		colors[3 * m + 1] = (float)((def.color >> 8) & 0xff) / 255.0f;
		colors[3 * m + 2] = (float)(def.color & 0xff) / 255.0f;
		/* in the units of the particles' density: an SPH world's is a mass density (rho0 11.4 for
		 * the default water at h = 1, not its rest_density 4) */
		rest[m] = pdl_world_rest_density(world, m < materials ? m : 0);
	}
	gl.Uniform1i(u->color_mode, (GLint)app->render.color);
	gl.Uniform3fv(u->material_color, PDL_MAX_MATERIALS, colors);
	gl.Uniform1fv(u->rest_density, PDL_MAX_MATERIALS, rest);
	if (app->render.color == VIEWER_COLOR_SPEED)
		gl.Uniform1f(u->speed_range, color_range(app, p, app->render.speed_range));
	if (app->render.color == VIEWER_COLOR_PRESSURE)
		gl.Uniform1f(u->pressure_range, color_range(app, p, app->render.pressure_range));
}
