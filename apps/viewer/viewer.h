/* puddle-view: the native viewer. viewer.h: the state every part of the viewer shares, and the
 * two bottom layers that work on it (frontend.h declares the layer above: input, drawing,
 * capture, scripts; main.c is the top).
 *
 * One topic a file: main.c (window and loop), view.c (settings names, 2D view maths, the
 * message line), gl.c (OpenGL entry points), renderer.c (GPU drawing and shaders), input.c
 * (mouse and keys acting on the world), bodies.c (rigid bodies: dropping, picking, their
 * shapes' geometry), scenes.c (the worlds the viewer can show), presets.c (the material presets
 * of scenes/presets/materials.json, scaled to a scene), script.c (scripted
 * input replay), capture.c (screenshots and measurement files), panel.cpp (the Dear ImGui side
 * panel, behind a small C interface). A file calls only into its own layer or below, never in
 * a circle: docs/viewer.md, "Code map"; tests/check_layers.py checks it.
 *
 * Coordinates: world units (y up) for the simulation; window points (y down, SDL mouse events)
 * for input; drawable pixels (y down) for the framebuffer. On a high-DPI screen one window point
 * is several drawable pixels (viewer_view.pixel_ratio).
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VIEWER_H
#define PUDDLE_VIEWER_H

#include "puddle/camera.h"
#include "puddle/puddle.h"
#include "puddle/scene.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SDL_Window SDL_Window;
typedef union SDL_Event SDL_Event;

/* ---- Rendering settings ----------------------------------------------------------------- */

/** How particles become pixels. */
typedef enum viewer_render_mode {
	/** The Unity SPH demo, "alpha cutout rendering": soft splats summed into a float buffer, then a
	 * threshold with a smooth edge turns the sum into one connected surface. */
	VIEWER_RENDER_METABALL = 0,
	/** One disc per particle (the Rust stratification demo: instanced particles, one draw call). */
	VIEWER_RENDER_DOTS,
	/** 3D: screen-space fluid rendering (liquid_gl.c), the default look of 3D worlds; a 2D
	 * world shows it as dots. */
	VIEWER_RENDER_LIQUID,
	VIEWER_RENDER_MODE_COUNT
} viewer_render_mode;

/** What the colour of a particle shows. */
typedef enum viewer_color_mode {
	VIEWER_COLOR_MATERIAL = 0, /**< the material's display colour */
	VIEWER_COLOR_SPEED,        /**< |v|, 0 .. speed_range world units / s */
	VIEWER_COLOR_DENSITY,      /**< rho / rho0, 0 .. 2 (1, the rest density, in the middle) */
	VIEWER_COLOR_PRESSURE,     /**< k (rho - rho0), -pressure_range .. +pressure_range */
	VIEWER_COLOR_MODE_COUNT
} viewer_color_mode;

typedef struct viewer_render_settings {
	viewer_render_mode mode;
	viewer_color_mode color;
	/** Dot radius as a fraction of h. */
	float dot_radius;
	/** Metaball splat radius as a fraction of h: how far one particle's soft disc reaches. */
	float splat_radius;
	/** Summed splat weight at which the surface is drawn (the Unity SPH demo uses an alpha of 0.3
	 * with its blur; here one particle alone peaks at 1). */
	float threshold;
	/** Width of the smooth edge around the threshold, in summed weight. */
	float edge_softness;
	/** Resolution of the metaball field relative to the viewport, (0, 1]. The field is smooth,
	 * so half resolution with linear filtering looks the same and costs a quarter of the fill
	 * (what matters on a software rasteriser such as llvmpipe). */
	float field_scale;
	/** World units / s at the top of the speed colour map; 0: the frame's highest speed. */
	float speed_range;
	/** |pressure| at either end of the pressure colour map; 0: the frame's largest |pressure|. */
	float pressure_range;
	/** Draws the fluid's outline over it (O key): closed contours of the smoothed density field
	 * by marching squares (io/include/puddle/surface.h). Needs the viewer built with puddle_io;
	 * without it the switch does nothing. */
	bool contours;
	/** 3D liquid look: draws the world's diffuse particles (spray, foam, bubbles: a scene's
	 * "diffuse" section) as white discs (W key, the panel). On by default; they are worked out
	 * by the world either way. */
	bool diffuse;
	/** 3D: the picture (the liquid's passes and the scene they refract, or the spheres and the
	 * scene) is drawn at this share of the viewport's resolution each way and scaled up, (0, 1];
	 * 1 by default, lowered by the fallback (viewer_fallback) when drawing is over its budget. */
	float scale_3d;
	/** 3D metaball mode: flat discs (one point a particle, no lighting, no depth per pixel)
	 * instead of shaded spheres; off by default, set by the fallback's last levels. */
	bool discs;
	/** 0xRRGGBB inside containers, outside them, and of obstacles (a scene file's output
	 * colours when it has them, so the viewer looks like `puddle run`'s pictures). */
	uint32_t inside_color, outside_color, obstacle_color;
} viewer_render_settings;

viewer_render_settings viewer_default_render_settings(void);
const char* viewer_render_mode_name(viewer_render_mode mode);
const char* viewer_color_mode_name(viewer_color_mode mode);
/** The mode of that name, or -1. */
int viewer_render_mode_find(const char* name);
int viewer_color_mode_find(const char* name);

/* ---- View: world units <-> window points <-> drawable pixels ---------------------------- */

typedef struct viewer_view {
	/** The world rectangle kept in sight (container bounds, set when a scene loads). */
	pdl_vec2 world_min, world_max;
	/** Window size in points and framebuffer size in pixels. */
	int window_width, window_height;
	int drawable_width, drawable_height;
	/** Drawable pixels per window point (2 on a typical high-DPI screen). */
	float pixel_ratio;
	/** The simulation's part of the framebuffer, in drawable pixels, origin top-left (the side
	 * panel takes the rest). */
	int viewport_x, viewport_y, viewport_width, viewport_height;
	/** Drawable pixels per world unit, and the world point at the viewport's centre. */
	float pixels_per_unit;
	pdl_vec2 center;
} viewer_view;

/** Fits world_min..world_max into the viewport with a margin, keeping the aspect ratio. */
void viewer_view_fit(viewer_view* view);
/* A plane point as a 3D vector (z = 0) for the library's vector fields. */
static inline pdl_vec3 viewer_vec3(pdl_vec2 v)
{
	pdl_vec3 r = {v.x, v.y, 0};
	return r;
}
/* The plane part of a 3D vector. */
static inline pdl_vec2 viewer_vec2(pdl_vec3 v)
{
	pdl_vec2 r = {v.x, v.y};
	return r;
}

pdl_vec2 viewer_view_window_to_world(const viewer_view* view, float window_x, float window_y);
/** World point to window point (what a mouse event at that spot would carry). */
void viewer_view_world_to_window(const viewer_view* view, pdl_vec2 p, float* window_x,
                                 float* window_y);
/** World point to drawable pixel, origin top-left (the row order of a saved screenshot). */
void viewer_view_world_to_pixel(const viewer_view* view, pdl_vec2 p, float* pixel_x,
                                float* pixel_y);

/* ---- Scenes and presets (scenes.c) ------------------------------------------------------ */

/** What a material preset is scaled by (presets.c): a scene's interaction radius h, |gravity| g
 * (10 h/s^2 without gravity), and the mean rest density and mass of its materials. */
typedef struct viewer_preset_basis {
	float h, g, rest_density, mass;
} viewer_preset_basis;

/** A world to show: a scene file's world, built through puddle_io's scene layer as `puddle run`
 * builds it. R rebuilds it from its name. */
typedef struct viewer_scene {
	char name[64];
	pdl_world* world;
	/** The scene as loaded (and rescaled by --particles): its emitters and strokes run frame by
	 * frame (viewer_scene_advance), its camera and colours are the view's. */
	pdl_scene* source;
	/** The region to frame in 2D: x and y of the scene's bounds. */
	pdl_vec2 bounds_min, bounds_max;
	/** 3D: the camera the scene file asks for ("camera"), used instead of framing the bounds. */
	bool has_camera;
	pdl_camera camera;
	/** The scene's colours (0xRRGGBB) for the inside of containers, the outside and obstacles. */
	uint32_t inside_color, outside_color, obstacle_color;
	/** The scene as loaded, for scaling presets (presets.c). */
	viewer_preset_basis preset_basis;
} viewer_scene;

/** A 3D scene's world box [lo, hi]: its containers' bounds, else its particles'. */
void viewer_scene_bounds_3d(const viewer_scene* scene, pdl_vec3* lo, pdl_vec3* hi);

/** Scene loading options from the command line, applied as `puddle run` applies its own. */
typedef struct viewer_scene_options {
	/** 0 keeps the scene's own particle count; otherwise the scene is resized to hold about
	 * this many particles (pdl_scene_scale_to_particles, for measuring how many particles run
	 * at 60 fps). */
	int particles;
	/** Worker threads for the step (pdl_world_def.threads); -1 keeps the scene's. */
	int threads;
} viewer_scene_options;

/** Makes the scene list: the scene files (*.json) in `dir`, by their names, sorted; and reads
 * the material presets of `dir`/presets/materials.json. NULL or a missing directory lists
 * none (a scene file's path still loads). */
void viewer_scenes_init(const char* dir);
int viewer_scene_count(void);
/** Name of the index-th scene; number keys 1-9 and 0 follow this order. */
const char* viewer_scene_name(int index);
const char* viewer_scene_description(int index);
/** Index of a scene name, or -1. */
int viewer_scene_find(const char* name);
/** Builds a scene from a name in the list or a path to a .json file; false (with a message in
 * err) if it cannot. */
bool viewer_scene_load(viewer_scene* scene, const char* name, const viewer_scene_options* options,
                       char* err, int err_size);
void viewer_scene_unload(viewer_scene* scene);
/** The scene's own events before step `step` (emitters add rows, strokes move their pointers). */
void viewer_scene_advance(viewer_scene* scene, long long step);
/** The rectangle to frame in 2D: the scene's bounds. */
void viewer_scene_bounds(const viewer_scene* scene, pdl_vec2* lo, pdl_vec2* hi);

/* ---- Material presets (presets.c) --------------------------------------------------------- */

#define VIEWER_MAX_PRESETS 16
#define VIEWER_PRESET_MAX_LAYERS 8


/** Reads the presets (water, lava, slime, stratify) from scenes/presets/materials.json, the file
 * the web page reads too: values written for a reference scene, with a unit per field that says
 * how it scales (docs/viewer.md, "Presets"). False, with viewer_presets_problem() saying why, if
 * it cannot: then there are no presets. Needs puddle_io (cJSON). */
bool viewer_presets_load(const char* path);
/** The solvers' names in pdl_solver_kind order, as scene files and the presets file write them. */
extern const char* const viewer_solver_names[PDL_SOLVER_KIND_COUNT];
/** Why the last viewer_presets_load failed, or "". */
const char* viewer_presets_problem(void);
int viewer_preset_count(void);
const char* viewer_preset_name(int preset);
/** Index of a preset by name, or -1. */
int viewer_preset_find(const char* name);
/** Its materials: 1, or 3 for stratify (heavy, medium, light). */
int viewer_preset_layer_count(int preset);
/** A world's basis as it stands (viewer_scene_load keeps the loaded scene's in the scene). */
viewer_preset_basis viewer_preset_basis_of(const pdl_world* world);
/** The material def of a preset's layer, scaled to a scene's basis. */
pdl_material_def viewer_preset_material(int preset, int layer, const viewer_preset_basis* basis);
/** A slider of a material field: its name, offset in pdl_material_def and range. */
typedef struct viewer_material_slider {
	const char* name;
	size_t offset;
	float lo, hi;
	bool log;
} viewer_material_slider;
/** How many material fields there are (puddle/fields.h). */
int viewer_material_slider_count(void);
/** Field f's slider (false for a field that is not a number: the colour), its declared range
 * scaled from the presets' reference scene to `basis` as a preset's value would be. */
bool viewer_material_slider_of(int f, const viewer_preset_basis* basis, viewer_material_slider* out);
/** A slider of a solver (pdl_sph_def) or world (pdl_world_def) field as declared
 * (puddle/fields.h): name, doc line, offset in its struct, int or float (a vector: its
 * components), range scaled to the scene as the material sliders' are. */
typedef struct viewer_def_slider {
	const char *name, *doc;
	size_t offset;
	bool is_int;
	float lo, hi;
	bool log;
} viewer_def_slider;
/** How many fields pdl_sph_def declares. */
int viewer_sph_slider_count(void);
/** Field f's slider for a world running `solver` (false: not a number with a slider, or a field
 * that solver does not read). */
bool viewer_sph_slider_of(int f, pdl_solver_kind solver, const viewer_preset_basis* basis, viewer_def_slider* out);
/** How many fields pdl_world_def declares (without `sph`). */
int viewer_world_slider_count(void);
/** Field f's slider (false: not a number with a slider). */
bool viewer_world_slider_of(int f, const viewer_preset_basis* basis, viewer_def_slider* out);
/** Substeps the world's stiffest material needs to stay stable (types.h: k dt_sub^2 / h and
 * 0.25 k_spring dt_sub^2 below about 0.02). */
int viewer_substeps_needed(const pdl_world* world);
/** Applies a preset to every particle of the world, scaled to `basis` (the scene as loaded, so
 * that presets applied one after another do not drift): its materials replace the world's and
 * are dealt out over the particles by id (one material: all of them; stratify: a fine mix that
 * separates). Also raises substeps where the preset's stiffness needs it. */
bool viewer_apply_preset(pdl_world* world, int preset, const viewer_preset_basis* basis, char* err,
                         int err_size);

/* ---- Interaction (input.c) --------------------------------------------------------------- */

typedef enum viewer_pointer_action {
	VIEWER_POINTER_NONE = 0,
	VIEWER_POINTER_ATTRACT,
	VIEWER_POINTER_REPEL,
	VIEWER_POINTER_DRAG_OBSTACLE,
	/** A rigid body held by the left button: it is steered toward the pointer (input.c). */
	VIEWER_POINTER_GRAB_BODY,
} viewer_pointer_action;

/** The shapes C drops: box (3D: cube) or circle (3D: sphere). */
typedef enum viewer_body_shape {
	VIEWER_BODY_BOX = 0,
	VIEWER_BODY_CIRCLE,
	VIEWER_BODY_SHAPE_COUNT
} viewer_body_shape;

/** Tunable interaction strengths (side panel). Lengths are in units of h and the pointer's pull
 * in units of gravity, so the same settings suit a scene in h = 1 units and one in pixels. */
typedef struct viewer_interaction_settings {
	float pointer_radius;   /**< reach, in h */
	float pointer_strength; /**< pull toward the pointer, in |gravity| (10 h/s^2 without gravity);
	                             the repel button negates it */
	float pointer_drag;     /**< 1/s, how strongly fluid follows the pointer's motion */
	float spawn_radius;     /**< the disc of new particles while pouring, in h */
	float spawn_interval;   /**< seconds between two poured discs */
	pdl_vec2 box_half_extents; /**< half size of a box obstacle dropped with shift + C, in h */
	int spawn_material;
	/** The next body C drops: its shape, its size (a box's half extent, a circle's radius), in
	 * h, and its density relative to material 0's fluid at rest (0.5 floats half submerged). */
	viewer_body_shape body_shape;
	float body_size;
	float body_density;
} viewer_interaction_settings;

viewer_interaction_settings viewer_default_interaction_settings(void);

typedef struct viewer_input {
	/** Last mouse position in window points and in world units, and the mouse's world
	 * velocity (world units / s, smoothed). */
	float mouse_x, mouse_y;
	pdl_vec2 mouse_world;
	pdl_vec2 mouse_velocity;
	bool mouse_inside;
	viewer_pointer_action action;
	/** The obstacle being dragged and where it was grabbed, relative to its centre. */
	pdl_boundary_id dragged_obstacle;
	pdl_vec2 grab_offset;
	/** Where the mouse was at the previous step: its velocity is the difference over dt. */
	pdl_vec2 mouse_world_at_last_step;
	/** 3D: the mouse ray (from the camera's eye, unit direction) and the point on it where
	 * pours, boxes and the eraser act (view3d.c, viewer_view3d_anchor), and that point at the
	 * previous step. */
	pdl_vec3 ray_origin, ray_direction;
	pdl_vec3 anchor, anchor_at_last_step;
	pdl_vec3 anchor_velocity;
	/** 3D: the camera is being orbited (right or alt + left drag) or panned (middle drag). */
	bool orbiting, panning;
	/** 3D: the dragged obstacle moves in the plane facing the camera through grab_point. */
	pdl_vec3 grab_point, grab_offset_3d;
	bool spawning; /**< spawn key or middle button held */
	bool erasing;  /**< erase key held */
	double spawn_clock; /**< simulated seconds until the next spawned disc */
	int obstacles_added;
	/** The held body, and the grabbed point in the body's own frame (it turns with the body).
	 * 3D: the body is held at the depth of grab_point (the plane facing the camera). */
	pdl_body_id held_body;
	pdl_vec3 body_grab_local;
	/** Bodies added with C since the scene was loaded. */
	int bodies_added;
	/** A failure to steer the held body was reported (once a grab, not every step). */
	bool grab_warned;
} viewer_input;

/* ---- The application ---------------------------------------------------------------------- */

/** Timings shown by the stats overlay and written by --stats, exponentially smoothed. */
typedef struct viewer_timing {
	double display_fps;   /**< frames presented per second */
	double steps_per_second;
	double step_ms;       /**< one pdl_world_step() */
	double render_ms;     /**< drawing the world, panel included, before the swap */
	pdl_profile profile;  /**< per stage, ms per step */
} viewer_timing;

/** Real time without a GPU (main.c): while the 3D liquid look is drawn, the wall time to draw
 * and present a frame is measured; when its mean over a window of frames is over the budget,
 * the look steps down one level, first the liquid's resolution, then spheres, then flat discs,
 * and says so on the message line and on stderr. */
#define VIEWER_FALLBACK_MAX_LEVELS 8
typedef struct viewer_fallback {
	bool enabled;      /**< --fallback on|off; on by default when interactive */
	double budget_ms;  /**< drawing a frame may take this long (--frame-budget, 50 ms: 20 fps) */
	int level;         /**< 0: the full look; each level cheaper (main.c's fallback_levels) */
	int frames;        /**< frames measured at this level, the first ones not counted */
	double sum_ms;     /**< their draw time */
	double least_ms;   /**< the shortest of them */
	double step_sum_ms; /**< their stepping time */
	double window_ms;  /**< the mean draw time of the last full window, at the level it was measured */
	double window_step_ms; /**< the same window's mean stepping time a frame */
	double first_window_ms; /**< the first window's, before any step down */
	double draw_ms;    /**< drawing and presenting a frame, smoothed (every mode) */
	int changes;       /**< steps taken down */
	const char* look;  /**< what the level draws, in words */
	double window_cpu_start; /**< the process's CPU seconds when this window began */
	/** per level, the last full window measured there (0: none): its mean wall ms a frame, and
	 * the process's CPU ms a frame (every thread: llvmpipe's, and the solver's when it steps) */
	double level_ms[VIEWER_FALLBACK_MAX_LEVELS], level_cpu_ms[VIEWER_FALLBACK_MAX_LEVELS];
} viewer_fallback;

typedef struct viewer_renderer viewer_renderer;
typedef struct viewer_gpu_timer viewer_gpu_timer;
typedef struct viewer_script viewer_script;

typedef struct viewer_app {
	SDL_Window* window;
	void* gl_context;
	viewer_renderer* renderer;
	/** GPU time per drawing stage (gpu_timer.h); NULL without timestamp queries. */
	viewer_gpu_timer* gpu_timer;

	viewer_scene scene;
	/** What the scene was loaded from (a list name or a file path): R loads it again. */
	char scene_source[512];
	viewer_scene_options scene_options;
	/** Index of the shown scene in viewer_scene_name() order, -1 for a file not in the list. */
	int scene_index;

	viewer_view view;
	/** The shown world is 3D: drawn through `camera`, mouse input acts along rays. */
	bool three_d;
	pdl_camera camera;
	/** The 3D world box the camera frames (Home re-frames it). */
	pdl_vec3 bounds3_min, bounds3_max;
	viewer_render_settings render;
	viewer_interaction_settings interaction;
	viewer_input input;
	viewer_timing timing;
	viewer_fallback fallback;

	/** Steps taken since the scene was (re)loaded: the clock scripts run on. */
	long long step;
	long long frame;
	bool paused;
	bool step_once;
	bool show_stats;
	bool show_panel;
	bool quit;
	/** Requests made by keys or the panel, carried out between frames. */
	bool reset_requested;
	int scene_requested; /**< -1: none */
	bool screenshot_requested;
	char screenshot_dir[256];
	/** Status line shown in the panel (errors from the API, saved screenshot names). */
	char message[256];
	float panel_width; /**< window points */
	/** h of the scene as loaded: the panel's slider ranges scale with it. */
	float length_unit;
	/** |gravity| of the scene as loaded (10 h/s^2 if it has none), for the same reason. */
	float acceleration_unit;
} viewer_app;

/** Sets the message line (printf style); also printed to stderr when verbose. */
void viewer_message(viewer_app* app, const char* fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/** True for the kinds of boundary that hold the fluid in (circle and box containers). */
bool viewer_is_container(pdl_boundary_kind kind);
/** Pointer reach in world units. */
float viewer_pointer_radius(const viewer_app* app);
/** Live obstacles (not containers) in the world. */
int viewer_obstacle_count(const pdl_world* world);

/* ---- Rigid bodies (bodies.c) ------------------------------------------------------------- */

const char* viewer_body_shape_name(viewer_body_shape shape, bool three_d);
/** Adds a dynamic body with the panel's "next body" settings centred at p (the C key); its id,
 * or {-1, 0} with the core's message on the message line (outside the container, too many). */
pdl_body_id viewer_drop_body(viewer_app* app, pdl_vec3 p);
/** Removes every body (the panel's button); how many there were. */
int viewer_remove_all_bodies(viewer_app* app);
/** Whether p is inside the convex counter-clockwise polygon v[0..n) (left of every edge). */
bool viewer_inside_convex(const pdl_vec2* v, int n, pdl_vec2 p);
/** The topmost (last in slot order) body containing the plane point p, or {-1, 0}. */
pdl_body_id viewer_body_at(const pdl_world* world, pdl_vec2 p);
/** 3D: the nearest body the ray hits, or {-1, 0}; its hit distance in *t. */
pdl_body_id viewer_view3d_pick_body(const pdl_world* world, pdl_vec3 origin, pdl_vec3 direction,
                                    float* t);
/** v turned by the unit quaternion q (body frame to world), and back (world to body). */
pdl_vec3 viewer_quat_rotate(pdl_quat q, pdl_vec3 v);
pdl_vec3 viewer_quat_unrotate(pdl_quat q, pdl_vec3 v);
/** A body's own-frame point in world space, and back: 2D turns by angle, 3D by orientation. */
pdl_vec3 viewer_body_to_world(const pdl_body_def* def, bool three_d, pdl_vec3 local);
pdl_vec3 viewer_body_to_local(const pdl_body_def* def, bool three_d, pdl_vec3 world);
/** 3D: the 8 corners of a box body; corner k has x, y, z signs from bits 0-2. */
void viewer_body_box_corners(const pdl_body_def* def, pdl_vec3 out[8]);
static inline bool viewer_body_id_equal(pdl_body_id a, pdl_body_id b)
{
	return a.index == b.index && a.generation == b.generation;
}
static inline bool viewer_boundary_id_equal(pdl_boundary_id a, pdl_boundary_id b)
{
	return a.index == b.index && a.generation == b.generation;
}

/* ---- 3D view (view3d.c) ----------------------------------------------------------------- */

/** Degrees the camera turns per window point of an orbit drag. */
#define VIEWER_ORBIT_DEGREES_PER_POINT 0.3f

/** The simulation viewport's width / height. */
float viewer_view_aspect(const viewer_view* view);
/** Points the camera at the whole 3D world box (Home). */
void viewer_view3d_frame(viewer_app* app);
/** The ray from the eye through a window point: origin and unit direction. */
void viewer_view3d_ray(const viewer_app* app, float window_x, float window_y, pdl_vec3* origin,
                       pdl_vec3* direction);
/** Where 3D pours, boxes and the eraser act: the ray's crossing with the plane facing the
 * camera through the world box's centre, pulled inside the box by `margin` world units. */
pdl_vec3 viewer_view3d_anchor(const viewer_app* app, pdl_vec3 origin, pdl_vec3 direction,
                              float margin);
/** The crossing of a ray with the plane facing the camera through `point`. */
pdl_vec3 viewer_view3d_on_plane(const viewer_app* app, pdl_vec3 origin, pdl_vec3 direction,
                                pdl_vec3 point);
/** The nearest obstacle (not container) the ray hits, or {-1, 0}; its hit distance in *t. */
pdl_boundary_id viewer_view3d_pick_obstacle(const pdl_world* world, pdl_vec3 origin, pdl_vec3 direction,
                                float* t);
/** World point to drawable pixel (origin top-left); false when it is behind the camera. */
bool viewer_view3d_world_to_pixel(const viewer_app* app, pdl_vec3 p, float* pixel_x,
                                  float* pixel_y);
/** Window point of a point in the viewport's normalized coordinates (x, y in [-1, 1], y up):
 * how scripts give positions in 3D scenes. */
void viewer_view3d_ndc_to_window(const viewer_view* view, float ndc_x, float ndc_y,
                                 float* window_x, float* window_y);
/** Orbits (right / alt + left drag), pans (middle drag) and zooms (wheel) the camera. */
void viewer_view3d_orbit(viewer_app* app, float dx_points, float dy_points);
void viewer_view3d_pan(viewer_app* app, float dx_points, float dy_points);
void viewer_view3d_zoom(viewer_app* app, float wheel_steps);

/* ---- OpenGL entry points (gl.c) ------------------------------------------------------------ */

/** Loads the GL 3.3 core functions the viewer calls through SDL_GL_GetProcAddress; false names
 * the first one missing. */
bool viewer_gl_load(char* err, int err_size);

#ifdef __cplusplus
}
#endif

#endif
