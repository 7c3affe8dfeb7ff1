/* puddle-view: the middle layer, above viewer.h: input (input.c), drawing (renderer.c,
 * renderer3d.c, panel.cpp), capture (capture.c) and scripted input (script.c). Only these files
 * and main.c (the top) include it; the files below (viewer.h's) never call up into it. See
 * docs/viewer.md, "Code map", and tests/check_layers.py, which keeps it so.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VIEWER_FRONTEND_H
#define PUDDLE_VIEWER_FRONTEND_H

#include "viewer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Input (input.c) ----------------------------------------------------------------------- */

/** Recomputes viewport and fit after a resize, panel toggle or scene change. */
void viewer_update_view(viewer_app* app);

/** Handles one SDL event for the world (keys, mouse); the panel sees events first. */
void viewer_input_handle_event(viewer_app* app, const SDL_Event* event);
/** Applies held buttons and keys to the world before one step of dt seconds: pointer forces,
 * the dragged obstacle, spawning, erasing. */
void viewer_input_before_step(viewer_app* app, float dt);
/** Moves the dragged obstacle (if any) to the mouse and steers the held body (if any) toward
 * it; dt 0 (paused) moves either without giving it a velocity. viewer_input_before_step()
 * calls it. */
void viewer_input_move_held(viewer_app* app, float dt);
/** Recomputes the mouse's world point (3D: its ray and anchor) after the view or camera
 * changed, without making it a motion of the pointer. */
void viewer_input_refresh_mouse(viewer_app* app);
/** Forgets pointers and drags (after a scene change). */
void viewer_input_reset(viewer_app* app);
/** Drops a box obstacle centred at p (shift + C); returns its id or {-1, 0}. */
pdl_boundary_id viewer_input_drop_box(viewer_app* app, pdl_vec2 p);

/* ---- Rendering (renderer.c) -------------------------------------------------------------- */

/** Compiles shaders and makes buffers; NULL (with a message) if the GL context lacks
 * something (float render targets, GLSL 3.30). */
viewer_renderer* viewer_renderer_create(char* err, int err_size);
void viewer_renderer_destroy(viewer_renderer* renderer);
/** Draws background, container, fluid, obstacles and the pointer's reach into app's viewport
 * of the bound default framebuffer, with app's render settings. */
struct viewer_app;
void viewer_renderer_draw(viewer_renderer* renderer, const struct viewer_app* app);
/** The 3D drawing (renderer3d.c), made and called by the renderer when the world is 3D. */
typedef struct viewer_renderer3d viewer_renderer3d;
viewer_renderer3d* viewer_renderer3d_create(char* err, int err_size);
void viewer_renderer3d_destroy(viewer_renderer3d* renderer);
void viewer_renderer3d_draw(viewer_renderer3d* renderer, const struct viewer_app* app);
/** Milliseconds the last frame spent extracting contours (0 when they are off). */
double viewer_renderer_contour_ms(const viewer_renderer* renderer);
/** Window pixels per texel of the last liquid frame's thickness target, each way (2 to 4;
 * 0 before any liquid frame). */
int viewer_renderer_thickness_divisor(const viewer_renderer* renderer);
int viewer_renderer3d_thickness_divisor(const viewer_renderer3d* renderer);

/* ---- Screenshots and measurement files (capture.c) ---------------------------------------- */

/** Reads the default framebuffer back and writes it as a PNG; false if it cannot. */
bool viewer_save_screenshot(const viewer_view* view, const char* path);
/** A fresh name "puddle-<scene>-<date>-<n>.png" in dir (or the working directory). */
void viewer_screenshot_name(const viewer_app* app, char* out, int out_size);
/** Writes every particle as "pixel_x,pixel_y,material" in screenshot pixels, for tests. */
bool viewer_write_particle_pixels(const viewer_app* app, const char* path);
/** Writes a JSON summary: scene, steps, particles, obstacles, bodies, centre of mass, timings. */
bool viewer_write_report(const viewer_app* app, const char* path, double wall_seconds);

/* ---- Scripted input (script.c) ------------------------------------------------------------ */

/** Reads a script: one event a line, "<frame> <event> [args]" (see docs/viewer.md). NULL with
 * a message naming the line when it cannot be parsed. */
viewer_script* viewer_script_load(const char* path, char* err, int err_size);
void viewer_script_destroy(viewer_script* script);
/** Pushes the SDL events of every line due at or before `frame` into SDL's queue, converting
 * world positions to window points through the current view, so that scripted input takes the
 * same path as a person's. Scripts run on frames, not steps, so that they can pause, step and
 * reset the simulation; with --script every unpaused frame is exactly one step. */
void viewer_script_push_due(viewer_script* script, viewer_app* app, long long frame);
/** True when every line has been pushed. */
bool viewer_script_done(const viewer_script* script);

/* ---- Side panel and overlay (panel.cpp, Dear ImGui) --------------------------------------- */

/* false with the cause in err when Dear ImGui or one of its backends does not start */
bool viewer_panel_init(SDL_Window* window, void* gl_context, float font_scale, char* err,
                       int err_size);
void viewer_panel_shutdown(void);
/** Gives the event to ImGui; true if ImGui keeps it (typing into a field, clicking a widget). */
bool viewer_panel_handle_event(const SDL_Event* event);
/** True while ImGui owns the mouse (the pointer is over the panel or a widget is held). */
bool viewer_panel_wants_mouse(void);
bool viewer_panel_wants_keyboard(void);
/** Builds this frame's panel and stats overlay and draws them; changes go straight to the
 * world (they take effect on the next step) or into app's requests. True when the panel moved
 * the 3D camera: the caller then refreshes the mouse's ray (viewer_input_refresh_mouse). */
bool viewer_panel_draw(viewer_app* app);
/** The stats box's height in window points: a strip above the view (0 before the panel starts). */
float viewer_panel_stats_height(void);
/** Writes where the last frame put the panel, the stats box, each slider's frame, grab and
 * value, and the tank, as JSON in window points (--layout; test viewer_layout). */
bool viewer_panel_write_layout(const viewer_app* app, const char* path);

#ifdef __cplusplus
}
#endif

#endif
