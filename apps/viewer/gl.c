/* puddle-view: loads the OpenGL entry points listed in gl.h.
 * SPDX-License-Identifier: MIT */
#include "gl.h"
#include "viewer.h"

#include <SDL.h>

#include <stdio.h>

viewer_gl_api gl;

bool viewer_gl_load(char* err, int err_size)
{
	/* SDL_GL_GetProcAddress returns void*; converting it to a function pointer is what every
	 * GL loader does (POSIX guarantees it works). memcpy keeps -Wpedantic quiet about it. */
#define VIEWER_GL_LOAD(type, name)                                                    \
	{                                                                                 \
		void* address = SDL_GL_GetProcAddress("gl" #name);                            \
		if (address == NULL) {                                                        \
			snprintf(err, (size_t)err_size, "OpenGL function gl%s is missing", #name); \
			return false;                                                             \
		}                                                                             \
		SDL_memcpy(&gl.name, &address, sizeof gl.name);                               \
	}
	VIEWER_GL_FUNCTIONS(VIEWER_GL_LOAD)
#undef VIEWER_GL_LOAD
	return true;
}

static GLuint compile_shader(GLenum type, const char* source, char* err, int err_size)
{
	GLuint shader = gl.CreateShader(type);
	gl.ShaderSource(shader, 1, &source, NULL);
	gl.CompileShader(shader);
	GLint ok = 0;
	gl.GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[1024];
		gl.GetShaderInfoLog(shader, sizeof log, NULL, log);
		snprintf(err, (size_t)err_size, "shader compile failed: %s", log);
		gl.DeleteShader(shader);
		return 0;
	}
	return shader;
}

GLuint viewer_gl_program(const char* vertex_source, const char* fragment_source, char* err,
                           int err_size)
{
	GLuint vertex = compile_shader(GL_VERTEX_SHADER, vertex_source, err, err_size);
	if (vertex == 0) return 0;
	GLuint fragment = compile_shader(GL_FRAGMENT_SHADER, fragment_source, err, err_size);
	if (fragment == 0) {
		gl.DeleteShader(vertex);
		return 0;
	}
	GLuint program = gl.CreateProgram();
	gl.AttachShader(program, vertex);
	gl.AttachShader(program, fragment);
	gl.LinkProgram(program);
	gl.DeleteShader(vertex);
	gl.DeleteShader(fragment);
	GLint ok = 0;
	gl.GetProgramiv(program, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[1024];
		gl.GetProgramInfoLog(program, sizeof log, NULL, log);
		snprintf(err, (size_t)err_size, "shader link failed: %s", log);
		gl.DeleteProgram(program);
		return 0;
	}
	return program;
}
