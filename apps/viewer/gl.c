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
