/* puddle-view: what the 2D and 3D renderers share to draw particles. Each particle is an
 * instance of a quad (a triangle strip of four corners) whose per-particle values come from one
 * vertex buffer per particle array; both particle shaders colour it by the same map (material
 * colour, speed, pressure, density) through the same uniforms.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VIEWER_PARTICLES_GL_H
#define PUDDLE_VIEWER_PARTICLES_GL_H

#include "gl.h"
#include "viewer.h"

/* Most particle arrays a renderer draws from: x, y, z, vx, vy, vz, density, pressure, material. */
#define VIEWER_MAX_INSTANCE_ARRAYS 9

/* GLSL of the 3D particle arrays as a vertex shader's inputs, in viewer_instances' layout
 * (attribute 0 the corner, 1-9 the arrays: x, y, z, vx, vy, vz, density, pressure, material). */
#define VIEWER_PARTICLE_INPUTS_GLSL                                                            \
	"layout(location = 1) in float a_x;\n"                                                    \
	"layout(location = 2) in float a_y;\n"                                                    \
	"layout(location = 3) in float a_z;\n"                                                    \
	"layout(location = 4) in float a_vx;\n"                                                   \
	"layout(location = 5) in float a_vy;\n"                                                   \
	"layout(location = 6) in float a_vz;\n"                                                   \
	"layout(location = 7) in float a_density;\n"                                              \
	"layout(location = 8) in float a_pressure;\n"                                             \
	"layout(location = 9) in float a_material;\n"

/* GLSL of the colour map, for a particle vertex shader (after its #version line): the uniforms
 * viewer_color_uniforms sets, and particle_color(material, speed, density, pressure). */
#define VIEWER_COLOR_MAP_GLSL                                                                  \
	"uniform int u_color_mode;\n"                                                             \
	"uniform vec3 u_material_color[32];\n"                                                    \
	"uniform float u_rest_density[32];\n"                                                     \
	"uniform float u_speed_range;\n"                                                          \
	"uniform float u_pressure_range;\n"                                                       \
	"vec3 ramp(float t) {\n"                                                                  \
	"  t = clamp(t, 0.0, 1.0);\n"                                                             \
	"  vec3 c = vec3(1.5) - abs(4.0 * t - vec3(3.0, 2.0, 1.0));\n"                            \
	"  return clamp(c, 0.0, 1.0) * 0.85 + 0.1;\n"                                             \
	"}\n"                                                                                     \
	"vec3 diverging(float t) {\n"                                                             \
	"  t = clamp(t, -1.0, 1.0);\n"                                                            \
	"  vec3 mid = vec3(0.9, 0.9, 0.88);\n"                                                    \
	"  return t < 0.0 ? mix(mid, vec3(0.17, 0.36, 0.85), -t) : mix(mid, vec3(0.86, 0.2, 0.14), t);\n" \
	"}\n"                                                                                     \
	"vec3 particle_color(float material, float speed, float density, float pressure) {\n"    \
	"  int m = clamp(int(material + 0.5), 0, 31);\n"                                          \
	"  if (u_color_mode == 1) return ramp(speed / u_speed_range);\n"                          \
	"  if (u_color_mode == 2) return ramp(0.5 * density / u_rest_density[m]);\n"              \
	"  if (u_color_mode == 3) return diverging(pressure / u_pressure_range);\n"               \
	"  return u_material_color[m];\n"                                                         \
	"}\n"

/* A vertex array: attribute 0 the quad's corners, attribute a + 1 one value per instance from
 * buffer a, a float except in buffer byte_array (the material index, one byte). */
typedef struct viewer_instances {
	GLuint vao, corner_buffer, buffers[VIEWER_MAX_INSTANCE_ARRAYS];
	int array_count, byte_array;
} viewer_instances;

void viewer_instances_create(viewer_instances* v, int array_count, int byte_array);
void viewer_instances_destroy(viewer_instances* v);
/* Makes the arrays one value per vertex instead of per instance: drawn as GL_POINTS, one
 * vertex a particle (attribute 0, the corners, turned off). */
void viewer_instances_per_vertex(viewer_instances* v);
/* Binds the vertex array and fills each buffer with `count` values of its array; a NULL array
 * (a world that reports no density or pressure) leaves its attribute reading 0. */
void viewer_instances_upload(viewer_instances* v, const void* const* arrays, int count);

/* The colour map's uniforms in a particle shader. */
typedef struct viewer_color_uniforms {
	GLint color_mode, material_color, rest_density, speed_range, pressure_range;
} viewer_color_uniforms;

void viewer_color_uniforms_locate(viewer_color_uniforms* u, GLuint program);
/* Sets them for the app's colour mode (the program in use): the materials' colours and rest
 * densities, and the speed or pressure range, the setting or (at 0) the largest this frame. */
void viewer_color_uniforms_set(const viewer_color_uniforms* u, const viewer_app* app,
                               const pdl_particle_data* p);

#endif
