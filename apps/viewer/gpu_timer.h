/* puddle-view: GPU time per drawing stage, from OpenGL timestamp queries.
 *
 * Why: render_ms (viewer.h) is CPU time around the draw calls. Under Mesa's llvmpipe the
 * drawing runs inside those calls, so it is the drawing's cost; on a real GPU the calls only
 * queue work that runs later, and render_ms says almost nothing about what the GPU spends.
 * These timers put a GL_TIMESTAMP query (ARB_timer_query, core since OpenGL 3.3) at the start
 * of each stage and at the end of the frame and read the results a few frames later, when the
 * GPU has long finished them, so measuring never stalls the pipeline.
 *
 * The stages tile the frame: time from one viewer_gpu_timer_stage() call to the next (or to
 * viewer_gpu_timer_end_frame()) is the named stage's. Calls with a NULL timer do nothing, so
 * drawing code marks its stages unconditionally.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_VIEWER_GPU_TIMER_H
#define PUDDLE_VIEWER_GPU_TIMER_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum viewer_gpu_stage {
	VIEWER_GPU_SCENE,           /**< clear, container, floor, walls, obstacles, bodies, lines */
	VIEWER_GPU_PARTICLES,       /**< 2D metaballs or dots, 3D spheres */
	VIEWER_GPU_LIQUID_DEPTH,    /**< liquid: nearest sphere depth, full resolution */
	VIEWER_GPU_LIQUID_THICKNESS,/**< liquid: additive thickness and colour, half resolution */
	VIEWER_GPU_LIQUID_SMOOTH,   /**< liquid: the separable depth filter's passes */
	VIEWER_GPU_LIQUID_SHADE,    /**< liquid: normals, Fresnel, refraction, absorption */
	VIEWER_GPU_LIQUID_FOAM,     /**< liquid: foam and spray points */
	VIEWER_GPU_PANEL,           /**< the side panel and the stats box (Dear ImGui) */
	VIEWER_GPU_STAGE_COUNT
} viewer_gpu_stage;

/** Short names for the stats line: "scene", "particles", "depth", ... */
const char* viewer_gpu_stage_name(viewer_gpu_stage stage);

typedef struct viewer_gpu_timer viewer_gpu_timer;

/** Mean GPU milliseconds a frame over the frames measured (those after the first few, which
 * compile shaders and allocate targets). frames is 0 when none was measured. */
typedef struct viewer_gpu_times {
	long long frames;
	double frame_ms;                           /**< first stage's start to the frame's end */
	double stage_ms[VIEWER_GPU_STAGE_COUNT];   /**< 0 for stages the frames never entered */
} viewer_gpu_times;

/** Needs a current OpenGL context; NULL (and the reason in err) when it has no timestamp
 * queries or no bits of timer precision. */
viewer_gpu_timer* viewer_gpu_timer_create(char* err, int err_size);
void viewer_gpu_timer_destroy(viewer_gpu_timer* timer);

/** Starts a frame's measurement; its first stage is VIEWER_GPU_SCENE. */
void viewer_gpu_timer_begin_frame(viewer_gpu_timer* timer);
/** From here to the next mark the GPU's time is `stage`'s. */
void viewer_gpu_timer_stage(viewer_gpu_timer* timer, viewer_gpu_stage stage);
/** Ends the frame (before the swap) and takes in the results of frames that have finished. */
void viewer_gpu_timer_end_frame(viewer_gpu_timer* timer);

/** The means so far; with wait, first waits for the frames still in flight. */
viewer_gpu_times viewer_gpu_timer_means(viewer_gpu_timer* timer, bool wait);
/** The last measured frame's total, smoothed like the other timings (for the stats box). */
double viewer_gpu_timer_recent_ms(const viewer_gpu_timer* timer);

#ifdef __cplusplus
}
#endif

#endif
