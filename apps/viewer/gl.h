/* puddle-view: OpenGL 3.3 core entry points, loaded at run time through SDL.
 *
 * Why a table: libGL only promises OpenGL 1.x symbols; everything newer must be looked up once
 * a context exists (and on some platforms per context). The viewer calls GL as gl.Name(...).
 * Types and enums come from the Khronos header GL/glcorearb.h.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VIEWER_GL_H
#define PUDDLE_VIEWER_GL_H

#include <GL/glcorearb.h>

#define VIEWER_GL_FUNCTIONS(X)                                          \
	X(PFNGLACTIVETEXTUREPROC, ActiveTexture)                            \
	X(PFNGLATTACHSHADERPROC, AttachShader)                              \
	X(PFNGLBINDBUFFERPROC, BindBuffer)                                  \
	X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)                        \
	X(PFNGLBINDTEXTUREPROC, BindTexture)                                \
	X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray)                        \
	X(PFNGLBLENDFUNCPROC, BlendFunc)                                    \
	X(PFNGLBUFFERDATAPROC, BufferData)                                  \
	X(PFNGLBUFFERSUBDATAPROC, BufferSubData)                            \
	X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)          \
	X(PFNGLCLEARPROC, Clear)                                            \
	X(PFNGLCLEARCOLORPROC, ClearColor)                                  \
	X(PFNGLCOMPILESHADERPROC, CompileShader)                            \
	X(PFNGLCREATEPROGRAMPROC, CreateProgram)                            \
	X(PFNGLCREATESHADERPROC, CreateShader)                              \
	X(PFNGLDELETEBUFFERSPROC, DeleteBuffers)                            \
	X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers)                  \
	X(PFNGLBLITFRAMEBUFFERPROC, BlitFramebuffer)                        \
	X(PFNGLDELETEPROGRAMPROC, DeleteProgram)                            \
	X(PFNGLDELETESHADERPROC, DeleteShader)                              \
	X(PFNGLDELETETEXTURESPROC, DeleteTextures)                          \
	X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays)                  \
	X(PFNGLDEPTHFUNCPROC, DepthFunc)                                    \
	X(PFNGLDEPTHMASKPROC, DepthMask)                                    \
	X(PFNGLDISABLEPROC, Disable)                                        \
	X(PFNGLDISABLEVERTEXATTRIBARRAYPROC, DisableVertexAttribArray)      \
	X(PFNGLSCISSORPROC, Scissor)                                        \
	X(PFNGLDRAWARRAYSPROC, DrawArrays)                                  \
	X(PFNGLDRAWARRAYSINSTANCEDPROC, DrawArraysInstanced)                \
	X(PFNGLENABLEPROC, Enable)                                          \
	X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray)        \
	X(PFNGLFINISHPROC, Finish)                                          \
	X(PFNGLFRAMEBUFFERTEXTURE2DPROC, FramebufferTexture2D)              \
	X(PFNGLGENBUFFERSPROC, GenBuffers)                                  \
	X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers)                        \
	X(PFNGLGENTEXTURESPROC, GenTextures)                                \
	X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays)                        \
	X(PFNGLGETERRORPROC, GetError)                                      \
	X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog)                    \
	X(PFNGLGETPROGRAMIVPROC, GetProgramiv)                              \
	X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog)                      \
	X(PFNGLGETSHADERIVPROC, GetShaderiv)                                \
	X(PFNGLGETSTRINGPROC, GetString)                                    \
	X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation)                  \
	X(PFNGLLINKPROGRAMPROC, LinkProgram)                                \
	X(PFNGLPIXELSTOREIPROC, PixelStorei)                                \
	X(PFNGLREADBUFFERPROC, ReadBuffer)                                  \
	X(PFNGLREADPIXELSPROC, ReadPixels)                                  \
	X(PFNGLSHADERSOURCEPROC, ShaderSource)                              \
	X(PFNGLTEXIMAGE2DPROC, TexImage2D)                                  \
	X(PFNGLTEXPARAMETERIPROC, TexParameteri)                            \
	X(PFNGLUNIFORM1FPROC, Uniform1f)                                    \
	X(PFNGLUNIFORM1IPROC, Uniform1i)                                    \
	X(PFNGLUNIFORM2FPROC, Uniform2f)                                    \
	X(PFNGLUNIFORM3FPROC, Uniform3f)                                    \
	X(PFNGLUNIFORM3FVPROC, Uniform3fv)                                  \
	X(PFNGLUNIFORMMATRIX4FVPROC, UniformMatrix4fv)                      \
	X(PFNGLUNIFORM1FVPROC, Uniform1fv)                                  \
	X(PFNGLUSEPROGRAMPROC, UseProgram)                                  \
	X(PFNGLVERTEXATTRIBDIVISORPROC, VertexAttribDivisor)                \
	X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer)                \
	X(PFNGLVIEWPORTPROC, Viewport)

typedef struct viewer_gl_api {
#define VIEWER_GL_MEMBER(type, name) type name;
	VIEWER_GL_FUNCTIONS(VIEWER_GL_MEMBER)
#undef VIEWER_GL_MEMBER
} viewer_gl_api;

/** Filled by viewer_gl_load() (viewer.h) once the context is current. */
extern viewer_gl_api gl;

/** Compiles and links a vertex + fragment shader pair; 0 with the compiler's log in err. */
GLuint viewer_gl_program(const char* vertex_source, const char* fragment_source, char* err,
                         int err_size);

#endif
