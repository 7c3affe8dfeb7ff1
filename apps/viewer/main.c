/* puddle-view: the window and the loop.
 *
 * The simulation runs at the fixed step of the world's dt (1/60 s by default), decoupled from
 * the display: each frame adds the real time that passed to an accumulator and takes as many
 * steps as fit, polling input between steps. When drawing is the slow part, several steps run
 * per shown frame (display frames are dropped, the fluid keeps real time); when stepping is the
 * slow part, a frame takes a further step only while that step and the drawing, as long as they
 * last took, still end within the frame budget (--frame-budget, 50 ms: 20 frames/s), and at most
 * 4; the rest of the time is dropped (the fluid slows down instead of the loop spiralling, and
 * the window keeps drawing), and input is still read every step.
 *
 * With --frames or --script the clock is the step count instead: exactly one step per frame,
 * no vsync, so runs are repeatable and measure the machine's full speed (--clock real keeps the
 * real-time clock, to measure the interactive loop).
 *
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* getrusage */
#include "gl.h"
#include "gpu_timer.h"
#include "frontend.h"

#include <SDL.h>
#include <sys/resource.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most steps one frame may take to catch up with real time (4 steps of 1/60 s: the display
 * may fall to 15 fps before the fluid slows down). */
#define MAX_CATCH_UP_STEPS 4
/* Longest real-time gap one frame accounts for (a dragged window, a breakpoint). */
#define MAX_FRAME_SECONDS 0.25

#ifndef PUDDLE_VIEW_SCENES_DIR
#define PUDDLE_VIEW_SCENES_DIR "scenes"
#endif

typedef struct viewer_options {
	const char* scene;
	const char* scenes_dir;
	bool list;
	int window_width, window_height;
	long long frames; /* 0: run until closed */
	bool stats;
	const char* script;
	const char* screenshot;
	const char* particles_out;
	const char* report;
	const char* layout;
	bool no_panel;
	bool paused;
	int vsync; /* -1: default (on when interactive, off with --frames) */
	float ui_scale;
	viewer_render_mode render;
	viewer_color_mode color;
	bool render_set, color_set;
	const char* preset; /* NULL: none */
	int fallback; /* -1: default (on when interactive, off with --frames or --script) */
	int look_level; /* -1: none (the look --render and --scale-3d name) */
	int real_clock; /* -1: default (the real-time clock when interactive, steps with --frames or --script) */
} viewer_options;

/* ---- App --------------------------------------------------------------------------------- */

/* Makes `scene` the shown one (the app takes it over) and starts its clock. */
static void viewer_show_scene(viewer_app* app, viewer_scene* scene, const char* source)
{
	if (source != app->scene_source) {
		snprintf(app->scene_source, sizeof app->scene_source, "%s", source);
	}
	pdl_world_def def = pdl_world_get_def(scene->world);
	/* R reloads the same scene: a 3D view keeps the camera the user chose */
	bool keep_camera = app->three_d && def.dimensions == 3 &&
	                   strcmp(app->scene.name, scene->name) == 0;
	viewer_scene_unload(&app->scene);
	app->scene = *scene;
	bool was_three_d = app->three_d;
	app->three_d = def.dimensions == 3;
	/* each dimension's default look: metaball in 2D, liquid in 3D (metaball's spheres stay an
	 * M press away); a switch between the two carries the choice over */
	if (app->three_d && !was_three_d && app->render.mode == VIEWER_RENDER_METABALL) {
		app->render.mode = VIEWER_RENDER_LIQUID;
	} else if (!app->three_d && was_three_d && app->render.mode == VIEWER_RENDER_LIQUID) {
		app->render.mode = VIEWER_RENDER_METABALL;
	}
	if (app->three_d) {
		viewer_scene_bounds_3d(&app->scene, &app->bounds3_min, &app->bounds3_max);
		if (!keep_camera) viewer_view3d_frame(app);
	}
	app->scene_index = viewer_scene_find(scene->name);
	app->step = 0;
	app->render.inside_color = scene->inside_color;
	app->render.outside_color = scene->outside_color;
	app->render.obstacle_color = scene->obstacle_color;
	app->length_unit = def.interaction_radius;
	app->acceleration_unit = sqrtf(def.gravity.x * def.gravity.x + def.gravity.y * def.gravity.y +
	                               def.gravity.z * def.gravity.z);
	if (app->acceleration_unit <= 0) app->acceleration_unit = 10.0f * def.interaction_radius;
	if (app->interaction.spawn_material >= pdl_world_material_count(scene->world)) {
		app->interaction.spawn_material = 0;
	}
	viewer_input_reset(app);
	viewer_update_view(app);
}

/* Replaces the shown scene (a name from the list, or a scene file path); on failure the old
 * scene stays and the message line says why. */
static bool viewer_load_scene(viewer_app* app, const char* name)
{
	viewer_scene scene;
	char err[768];
	if (!viewer_scene_load(&scene, name, &app->scene_options, err, sizeof err)) {
		viewer_message(app, "%s", err);
		return false;
	}
	viewer_show_scene(app, &scene, name);
	return true;
}

static double seconds_since(Uint64 start)
{
	return (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
}

/* Exponential smoothing over about 20 samples: steady enough to read, quick to follow. */
static double smooth(double average, double sample)
{
	return average == 0 ? sample : average + 0.05 * (sample - average);
}

static void smooth_profile(pdl_profile* avg, pdl_profile sample)
{
	avg->step = (float)smooth(avg->step, sample.step);
	avg->forces = (float)smooth(avg->forces, sample.forces);
	avg->density = (float)smooth(avg->density, sample.density);
	avg->predict = (float)smooth(avg->predict, sample.predict);
	avg->springs = (float)smooth(avg->springs, sample.springs);
	avg->relax = (float)smooth(avg->relax, sample.relax);
	avg->boundaries = (float)smooth(avg->boundaries, sample.boundaries);
	avg->bodies = (float)smooth(avg->bodies, sample.bodies);
	avg->velocity = (float)smooth(avg->velocity, sample.velocity);
	avg->stalled = (float)smooth(avg->stalled, sample.stalled);
}

static void step_world(viewer_app* app, double* step_seconds_total)
{
	pdl_world* world = app->scene.world;
	float dt = pdl_world_get_def(world).dt;
	viewer_input_before_step(app, dt);
	viewer_scene_advance(&app->scene, app->step);
	Uint64 start = SDL_GetPerformanceCounter();
	pdl_world_step(world);
	double seconds = seconds_since(start);
	*step_seconds_total += seconds;
	app->timing.step_ms = smooth(app->timing.step_ms, 1000.0 * seconds);
	smooth_profile(&app->timing.profile, pdl_world_profile(world));
	app->step += 1;
}

static void poll_events(viewer_app* app)
{
	SDL_Event e;
	while (SDL_PollEvent(&e)) {
		viewer_panel_handle_event(&e);
		if (e.type == SDL_QUIT) app->quit = true;
		if (e.type == SDL_WINDOWEVENT && (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
		                                  e.window.event == SDL_WINDOWEVENT_RESIZED)) {
			viewer_update_view(app);
		}
		viewer_input_handle_event(app, &e);
	}
}

static void carry_out_requests(viewer_app* app)
{
	if (app->scene_requested >= 0) {
		const char* name = viewer_scene_name(app->scene_requested);
		app->scene_requested = -1;
		if (name != NULL) viewer_load_scene(app, name);
	}
	if (app->reset_requested) {
		app->reset_requested = false;
		char source[sizeof app->scene_source];
		snprintf(source, sizeof source, "%s", app->scene_source);
		viewer_load_scene(app, source);
	}
}

/* CPU seconds this process has used, all its threads (the solver's workers and llvmpipe's
 * rasteriser threads included). */
static double process_cpu_seconds(void)
{
	struct rusage usage;
	if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
	return (double)usage.ru_utime.tv_sec + 1e-6 * (double)usage.ru_utime.tv_usec +
	       (double)usage.ru_stime.tv_sec + 1e-6 * (double)usage.ru_stime.tv_usec;
}

/* fps is frames per wall-clock second. cpu_fps is frames per CPU second of this process: on a
 * machine shared with other work the wall clock measures the others too, while cpu_fps is what
 * one free core would give (two free cores give at least that). */
static void print_stats(const viewer_app* app, double wall_seconds, double step_seconds,
                        double cpu_seconds)
{
	pdl_stats stats = pdl_world_stats(app->scene.world);
	const pdl_profile* p = &app->timing.profile;
	double fps = wall_seconds > 0 ? (double)app->frame / wall_seconds : 0;
	double cpu_fps = cpu_seconds > 0 ? (double)app->frame / cpu_seconds : 0;
	double step_ms = app->step > 0 ? 1000.0 * step_seconds / (double)app->step : 0;
	printf("puddle-view: scene %s particles %d bodies %d frames %lld steps %lld wall %.2f s "
	       "fps %.1f cpu %.2f s cpu_fps %.1f step_ms %.2f render_ms %.2f threads %d | ms/step "
	       "forces %.2f density %.2f predict %.2f springs %.2f relax %.2f boundaries %.2f "
	       "bodies %.2f velocity %.2f stalled %.2f\n",
	       app->scene.name, stats.particles, pdl_world_body_count(app->scene.world), app->frame,
	       app->step, wall_seconds, fps, cpu_seconds, cpu_fps, step_ms, app->timing.render_ms,
	       pdl_world_thread_count(app->scene.world), p->forces, p->density, p->predict, p->springs,
	       p->relax, p->boundaries, p->bodies, p->velocity, p->stalled);
	/* the GPU's own time a frame, per drawing stage (gpu_timer.h), means after the warm-up */
	viewer_gpu_times gpu = viewer_gpu_timer_means(app->gpu_timer, true);
	if (gpu.frames > 0) {
		/* which GPU: llvmpipe's timestamps are taken as commands are queued, a GPU's as they run */
		const GLubyte* renderer = gl.GetString(GL_RENDERER);
		printf("puddle-view: gpu \"%s\" gpu_ms %.3f over %lld frames | ms/frame",
		       renderer != NULL ? (const char*)renderer : "?", gpu.frame_ms, gpu.frames);
		for (int s = 0; s < VIEWER_GPU_STAGE_COUNT; ++s)
			printf(" %s %.3f", viewer_gpu_stage_name((viewer_gpu_stage)s), gpu.stage_ms[s]);
		printf("\n");
	}
	/* drawing and presenting a frame (smoothed wall time), and where the fallback stands */
	const viewer_fallback* f = &app->fallback;
	printf("puddle-view: draw_ms %.2f draw_fps %.1f window_ms %.2f window_fps %.1f fallback %s level %d "
	       "changes %d look \"%s\" render %s scale_3d %.2f\n",
	       f->draw_ms, f->draw_ms > 0 ? 1000.0 / f->draw_ms : 0.0, f->window_ms,
	       f->window_ms > 0 ? 1000.0 / f->window_ms : 0.0, f->enabled ? "on" : "off", f->level,
	       f->changes, f->look, viewer_render_mode_name(app->render.mode),
	       app->render.scale_3d);
	fflush(stdout);
}

/* ---- Falling back when drawing is slow ---------------------------------------------------- */

/* The fallback's levels (viewer_fallback), the full look first: the 3D liquid's passes at a
 * share of the viewport's resolution each way (under llvmpipe their cost goes with the pixels:
 * the depth smoothing's taps, the splats' fill), then the spheres the metaball mode draws,
 * which take one pass of one quad per particle, at full then half resolution (their fragments,
 * which write their depth and so are all shaded, are most of their cost in software), then
 * flat discs, one point per particle with neither lighting nor depth per pixel, at half and a
 * quarter of the resolution. */
typedef enum fallback_look { LOOK_LIQUID, LOOK_SPHERES, LOOK_DISCS } fallback_look;
typedef struct fallback_level {
	float scale_3d;
	fallback_look look;
	const char* what;
} fallback_level;
static const fallback_level fallback_levels[] = {
	{1.0f, LOOK_LIQUID, "liquid at full resolution"},
	{0.5f, LOOK_LIQUID, "liquid at half resolution"},
	{0.35f, LOOK_LIQUID, "liquid at a third of the resolution"},
	{1.0f, LOOK_SPHERES, "spheres instead of liquid"},
	{0.5f, LOOK_SPHERES, "spheres at half resolution"},
	{0.5f, LOOK_DISCS, "flat discs at half resolution"},
	{0.25f, LOOK_DISCS, "flat discs at a quarter of the resolution"},
};
enum { FALLBACK_LEVELS = (int)(sizeof fallback_levels / sizeof fallback_levels[0]) };
_Static_assert(FALLBACK_LEVELS <= VIEWER_FALLBACK_MAX_LEVELS, "viewer_fallback's per-level arrays");
/* The frames not counted after a change (the targets and the new look's shaders are made: under
 * llvmpipe the first frame of a level took 1.5 times the next ones, drop-3d at 1280x800; in the
 * page, whose frame time is the time between frames, the first two frames of the liquid took 1.5 s
 * where the rest took 0.3), then the frames whose mean draw time decides: a window of 10, or of 3
 * already when each of them took 1.5 times what the budget leaves the drawing (every frame of a
 * level took within 20 % of its mean under llvmpipe, so 3 such frames tell what 10 would; the
 * least of them, not their mean, so that one slow frame, a shader built late or a pause of the
 * machine, does not decide): the fallback steps down in 5 frames where it waited 13, in about 2 s
 * instead of 5 at the start of drop-3d's liquid, 180 ms a frame. */
#define FALLBACK_SKIP_FRAMES 2
#define FALLBACK_WINDOW_FRAMES 10
#define FALLBACK_QUICK_FRAMES 3
#define FALLBACK_QUICK_OVER 1.5

/* Draws the look of the fallback's `level` from the next frame on. */
static void fallback_set_level(viewer_app* app, int level)
{
	const fallback_level* l = &fallback_levels[level];
	app->fallback.level = level;
	app->fallback.look = l->what;
	app->render.scale_3d = l->scale_3d;
	app->render.mode = l->look == LOOK_LIQUID ? VIEWER_RENDER_LIQUID : VIEWER_RENDER_METABALL;
	app->render.discs = l->look == LOOK_DISCS;
}

/* After each frame: `draw_ms` is the wall time it took to draw and present it, `step_ms` the
 * frame's stepping before. While a 3D world is drawn in the look of the fallback's level, a
 * window whose mean drawing is over what the budget leaves it takes the look one level down:
 * the budget less the window's mean stepping (a frame is both: with a 33 ms step, 17 ms of the
 * 50 are the drawing's), but at least a quarter of the budget (a step that alone takes the
 * whole budget is not the drawing's to make up). */
static double fallback_drawing_budget(double budget_ms, double step_ms)
{
	return fmax(budget_ms - step_ms, 0.25 * budget_ms);
}

static void fallback_frame(viewer_app* app, double draw_ms, double step_ms)
{
	viewer_fallback* f = &app->fallback;
	/* the first frames build shaders and targets */
	if (app->frame > FALLBACK_SKIP_FRAMES) f->draw_ms = smooth(f->draw_ms, draw_ms);
	if (!app->three_d) return;
	bool liquid = app->render.mode == VIEWER_RENDER_LIQUID;
	/* the look is the level's (not one chosen by hand since): the fallback may go on */
	bool own = fallback_levels[f->level].look != LOOK_LIQUID ? app->render.mode == VIEWER_RENDER_METABALL
	                                                         : liquid;
	if (liquid && fallback_levels[f->level].look != LOOK_LIQUID) {
		/* the liquid chosen again (M, the panel) after the fallback left it: try it afresh */
		fallback_set_level(app, 0);
		f->frames = 0;
		f->sum_ms = f->step_sum_ms = 0;
	}
	if (++f->frames <= FALLBACK_SKIP_FRAMES) {
		if (f->frames == FALLBACK_SKIP_FRAMES) f->window_cpu_start = process_cpu_seconds();
		return;
	}
	const int counted = f->frames - FALLBACK_SKIP_FRAMES;
	f->least_ms = counted == 1 ? draw_ms : fmin(f->least_ms, draw_ms);
	f->sum_ms += draw_ms;
	f->step_sum_ms += step_ms;
	const bool clearly_over = counted >= FALLBACK_QUICK_FRAMES &&
	                          f->least_ms > FALLBACK_QUICK_OVER *
	                                            fallback_drawing_budget(f->budget_ms, f->step_sum_ms / counted);
	if (counted < FALLBACK_WINDOW_FRAMES && !clearly_over) return;
	f->window_ms = f->sum_ms / counted;
	f->window_step_ms = f->step_sum_ms / counted;
	f->level_ms[f->level] = f->window_ms;
	f->level_cpu_ms[f->level] = 1000.0 * (process_cpu_seconds() - f->window_cpu_start) / counted;
	if (f->first_window_ms == 0) f->first_window_ms = f->window_ms;
	f->frames = 0;
	f->sum_ms = f->step_sum_ms = 0;
	const double budget = fallback_drawing_budget(f->budget_ms, f->window_step_ms);
	if (!f->enabled || !own || f->window_ms <= budget || f->level + 1 >= FALLBACK_LEVELS) return;
	int level = f->level + 1;
	/* levels whose resolution is no lower than the one drawn (--scale-3d) are no step down */
	while (fallback_levels[level].look == LOOK_LIQUID && fallback_levels[level].scale_3d >= app->render.scale_3d)
		level += 1;
	f->changes += 1;
	fallback_set_level(app, level);
	if (f->window_step_ms >= 0.5) /* (paused: the loop's polling, not stepping) */
		viewer_message(app, "drawing took %.0f ms a frame, over the %.0f ms the %.0f ms budget leaves it after %.0f ms "
		               "of stepping: %s", f->window_ms, budget, f->budget_ms, f->window_step_ms, f->look);
	else
		viewer_message(app, "drawing took %.0f ms a frame, over the %.0f ms budget: %s", f->window_ms, f->budget_ms,
		               f->look);
}

/* ---- The loop ---------------------------------------------------------------------------- */

/* Real time versus simulated time (see the top of this file). */
typedef struct frame_clock {
	bool fixed;         /* one step per frame (--frames, --script) */
	double accumulator; /* real seconds not yet simulated */
	Uint64 last;
} frame_clock;

/* How many steps this frame takes. */
static int steps_due(frame_clock* clock, viewer_app* app)
{
	double dt = (double)pdl_world_get_def(app->scene.world).dt;
	Uint64 now = SDL_GetPerformanceCounter();
	double elapsed = (double)(now - clock->last) / (double)SDL_GetPerformanceFrequency();
	clock->last = now;
	int steps;
	if (app->paused) {
		clock->accumulator = 0;
		steps = app->step_once ? 1 : 0;
	} else if (clock->fixed) {
		steps = 1;
	} else {
		clock->accumulator += fmin(elapsed, MAX_FRAME_SECONDS);
		steps = (int)floor(clock->accumulator / dt);
		clock->accumulator -= steps * dt;
		if (steps > MAX_CATCH_UP_STEPS) {
			/* cannot keep up: drop the backlog, the fluid slows down */
			steps = MAX_CATCH_UP_STEPS;
			clock->accumulator = 0;
		}
	}
	app->step_once = false;
	return steps;
}

/* Draws the world and the panel, and saves a screenshot the user asked for. */
static void draw_frame(viewer_app* app)
{
	Uint64 start = SDL_GetPerformanceCounter();
	viewer_gpu_timer_begin_frame(app->gpu_timer);
	viewer_renderer_draw(app->renderer, app);
	viewer_gpu_timer_stage(app->gpu_timer, VIEWER_GPU_PANEL);
	/* the mouse's ray moved with a camera the panel changed; that is not a motion of the hand */
	if (viewer_panel_draw(app)) viewer_input_refresh_mouse(app);
	viewer_gpu_timer_end_frame(app->gpu_timer);
	app->timing.render_ms = smooth(app->timing.render_ms, 1000.0 * seconds_since(start));
	if (app->screenshot_requested) {
		app->screenshot_requested = false;
		char path[512];
		viewer_screenshot_name(app, path, sizeof path);
		if (viewer_save_screenshot(&app->view, path)) viewer_message(app, "saved %s", path);
		else viewer_message(app, "could not save %s", path);
	}
}

/* Runs until the window closes (or --frames are done); returns the exit status. */
static int run(viewer_app* app, const viewer_options* o, viewer_script* script)
{
	int status = 0;
	bool fixed = o->real_clock >= 0 ? o->real_clock == 0 : o->frames > 0 || script != NULL;
	frame_clock clock = {fixed, 0, SDL_GetPerformanceCounter()};
	double step_seconds = 0;
	Uint64 run_start = SDL_GetPerformanceCounter();
	double cpu_start = process_cpu_seconds();
	Uint64 fps_window_start = run_start;
	long long fps_window_frames = 0;

	while (!app->quit) {
		viewer_script_push_due(script, app, app->frame);
		poll_events(app);
		carry_out_requests(app);
		if (app->quit) break;

		Uint64 frame_start = SDL_GetPerformanceCounter();
		int steps = steps_due(&clock, app);
		/* obstacles and held bodies move while paused */
		if (steps == 0) viewer_input_move_held(app, 0.0f);
		for (int s = 0; s < steps && !app->quit; ++s) {
			if (s > 0) {
				/* a catch-up step only where it and the drawing are expected to end within the
				 * frame's budget: a slow step costs the fluid real time, not the window its frames */
				double expected_ms = 1000.0 * seconds_since(frame_start) + app->timing.step_ms + app->fallback.draw_ms;
				if (!clock.fixed && expected_ms > app->fallback.budget_ms) {
					clock.accumulator = 0;
					break;
				}
				/* input keeps flowing between catch-up steps */
				poll_events(app);
				carry_out_requests(app);
			}
			step_world(app, &step_seconds);
		}

		double step_ms = 1000.0 * seconds_since(frame_start); /* (and the input read between steps) */
		Uint64 draw_start = SDL_GetPerformanceCounter();
		draw_frame(app);
		app->frame += 1;
		bool last_frame = o->frames > 0 && app->frame >= o->frames;
		if (last_frame && o->screenshot != NULL && !viewer_save_screenshot(&app->view, o->screenshot)) {
			fprintf(stderr, "puddle-view: could not save %s\n", o->screenshot);
			status = 1;
		}
		SDL_GL_SwapWindow(app->window);
		fallback_frame(app, 1000.0 * seconds_since(draw_start), step_ms);

		fps_window_frames += 1;
		double window_seconds = seconds_since(fps_window_start);
		if (window_seconds >= 0.5) {
			app->timing.display_fps = (double)fps_window_frames / window_seconds;
			fps_window_frames = 0;
			fps_window_start = SDL_GetPerformanceCounter();
		}
		app->timing.steps_per_second = app->timing.step_ms > 0 ? 1000.0 / app->timing.step_ms : 0;
		if (last_frame) app->quit = true;
	}

	double wall = seconds_since(run_start);
	if (o->stats) print_stats(app, wall, step_seconds, process_cpu_seconds() - cpu_start);
	if (o->particles_out != NULL && !viewer_write_particle_pixels(app, o->particles_out)) {
		fprintf(stderr, "puddle-view: could not write %s\n", o->particles_out);
		status = 1;
	}
	if (o->report != NULL && !viewer_write_report(app, o->report, wall)) {
		fprintf(stderr, "puddle-view: could not write %s\n", o->report);
		status = 1;
	}
	if (o->layout != NULL && !viewer_panel_write_layout(app, o->layout)) {
		fprintf(stderr, "puddle-view: could not write %s\n", o->layout);
		status = 1;
	}
	if (script != NULL && !viewer_script_done(script)) {
		fprintf(stderr, "puddle-view: the run ended before the script did (raise --frames)\n");
		status = 1;
	}
	return status;
}

/* ---- Command line ------------------------------------------------------------------------- */

static void usage(FILE* out)
{
	fprintf(out,
	        "usage: puddle-view [SCENE] [options]\n"
	        "Plays a puddle scene in a window: drag the fluid, pour it, drop and throw bodies, tune\n"
	        "it live.\n"
	        "\n"
	        "  SCENE                  a scene name (see --list) or a scene file (.json);\n"
	        "                         default: blobs\n"
	        "  --list                 list the scenes and exit\n"
	        "  --scenes DIR           where the scene files are (default: the source tree's scenes/)\n"
	        "  --size WxH             window size in points (default 1280x800)\n"
	        "  --particles N          resize the scene to about N particles\n"
	        "  --threads N            solver threads (0 = one per core; default: the scene's)\n"
	        "  --render MODE          metaball | dots | liquid (3D: water; metaball: spheres)\n"
	        "  --color MODE           material | speed | density | pressure\n"
	        "  --preset NAME          turn the scene's fluid into water, lava, slime or stratify\n"
	        "                         (scenes/presets/materials.json, scaled to the scene)\n"
	        "  --paused               start paused\n"
	        "  --no-panel             start with the side panel hidden (Tab shows it)\n"
	        "  --no-diffuse           3D liquid: do not draw spray, foam and bubbles (W toggles)\n"
	        "  --ui-scale F           scale the panel's text and widgets (default: from the display)\n"
	        "  --vsync on|off         wait for the display's refresh (default: on, off with --frames)\n"
	        "  --fallback on|off      3D liquid: when a frame takes longer to draw than the budget,\n"
	        "                         lower the liquid's resolution, then draw spheres, then flat\n"
	        "                         discs (default: on, off with --frames or --script)\n"
	        "  --frame-budget MS      the fallback's budget for drawing a frame, and a frame's for\n"
	        "                         stepping and drawing before it drops catch-up steps (default 50)\n"
	        "  --look-level N         3D: start at the fallback's level N: 0 liquid, 1 and 2 at a\n"
	        "                         half and a third of the resolution, 3 spheres, 4 at half,\n"
	        "                         5 flat discs at half, 6 at a quarter of the resolution\n"
	        "  --scale-3d F           3D: draw at F (0.1 to 1) of the resolution each way, scaled up\n"
	        "  --screenshot-dir DIR   where S saves screenshots (default: working directory)\n"
	        "\n"
	        "Measuring and testing (one step per frame, repeatable):\n"
	        "  --frames N             run N frames, then quit\n"
	        "  --clock real|steps     steps: one step a frame (default with --frames or --script);\n"
	        "                         real: as many as real time asks, as interactively\n"
	        "  --stats                print fps, particles and ms per stage when done\n"
	        "  --script FILE          replay scripted input (docs/viewer.md)\n"
	        "  --screenshot FILE      save a PNG of the last frame\n"
	        "  --particles-out FILE   write each particle's screenshot pixel as CSV\n"
	        "  --report FILE          write a JSON summary (particles, obstacles, bodies, centre of\n"
	        "                         mass)\n"
	        "  --layout FILE          write where the panel, stats box, sliders and tank are (JSON)\n"
	        "\n"
	        "Keys: left drag attract | right or shift+left drag repel | drag an obstacle to move it\n"
	        "      C drop a body (panel: shape, size, density; B: box / circle) | drag a body to\n"
	        "      grab and throw it\n"
	        "      shift+C drop a box obstacle | Delete remove the body or obstacle under the mouse\n"
	        "      E or middle button pour | X erase\n"
	        "      Space pause | . step | R reset | 1-9 scenes | S screenshot | F stats | Tab panel\n"
	        "      M render mode | V colour mode | W spray and foam | wheel pointer size | Esc quit\n"
	        "3D:   left drag pull along the mouse ray | shift+left push | right or alt+left drag\n"
	        "      orbit | middle drag pan | wheel zoom | shift+wheel pointer size | Home re-frame\n"
	        "      E pour | X erase | C drop a body, shift+C an obstacle (at the ray's anchor,\n"
	        "      docs/viewer.md) | left drag on a body grab it at its depth and throw it\n");
}

static bool parse_int(const char* s, long long lo, long long hi, long long* out)
{
	char* end;
	long long v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < lo || v > hi) return false;
	*out = v;
	return true;
}

/* Returns 0 to run, 1 to exit successfully (help, list), 2 on a bad argument. */
static int parse_options(int argc, char** argv, viewer_options* o, viewer_app* app)
{
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		const char* next = i + 1 < argc ? argv[i + 1] : NULL;
		long long n;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 1;
		} else if (strcmp(a, "--list") == 0) {
			o->list = true;
			continue;
		} else if (a[0] != '-') {
			o->scene = a;
			continue;
		}
		if (strcmp(a, "--scenes") == 0 && next != NULL) {
			o->scenes_dir = argv[++i];
			continue;
		}
		if (next == NULL && strcmp(a, "--stats") != 0 && strcmp(a, "--paused") != 0 &&
		    strcmp(a, "--no-panel") != 0 && strcmp(a, "--no-diffuse") != 0) {
			fprintf(stderr, "puddle-view: %s needs a value\n", a);
			return 2;
		}
		bool ok = true;
		if (strcmp(a, "--stats") == 0) {
			o->stats = true;
		} else if (strcmp(a, "--paused") == 0) {
			o->paused = true;
		} else if (strcmp(a, "--no-panel") == 0) {
			o->no_panel = true;
		} else if (strcmp(a, "--no-diffuse") == 0) {
			app->render.diffuse = false; /* drawing only: the world still makes them */
		} else if (strcmp(a, "--size") == 0) {
			ok = sscanf(next, "%dx%d", &o->window_width, &o->window_height) == 2 &&
			     o->window_width >= 64 && o->window_height >= 64 && o->window_width <= 16384 &&
			     o->window_height <= 16384;
			++i;
		} else if (strcmp(a, "--particles") == 0) {
			ok = parse_int(next, 1, 1 << 26, &n);
			app->scene_options.particles = (int)n;
			++i;
		} else if (strcmp(a, "--threads") == 0) {
			ok = parse_int(next, 0, 256, &n);
			app->scene_options.threads = (int)n;
			++i;
		} else if (strcmp(a, "--frames") == 0) {
			ok = parse_int(next, 1, 1LL << 40, &o->frames);
			++i;
		} else if (strcmp(a, "--render") == 0) {
			int m = viewer_render_mode_find(next);
			ok = m >= 0;
			o->render = (viewer_render_mode)m;
			o->render_set = true;
			++i;
		} else if (strcmp(a, "--color") == 0) {
			int m = viewer_color_mode_find(next);
			ok = m >= 0;
			o->color = (viewer_color_mode)m;
			o->color_set = true;
			++i;
		} else if (strcmp(a, "--preset") == 0) {
			o->preset = next; /* looked up once the presets file is read */
			++i;
		} else if (strcmp(a, "--vsync") == 0) {
			ok = strcmp(next, "on") == 0 || strcmp(next, "off") == 0;
			o->vsync = strcmp(next, "on") == 0;
			++i;
		} else if (strcmp(a, "--clock") == 0) {
			ok = strcmp(next, "real") == 0 || strcmp(next, "steps") == 0;
			o->real_clock = strcmp(next, "real") == 0;
			++i;
		} else if (strcmp(a, "--fallback") == 0) {
			ok = strcmp(next, "on") == 0 || strcmp(next, "off") == 0;
			o->fallback = strcmp(next, "on") == 0;
			++i;
		} else if (strcmp(a, "--scale-3d") == 0) {
			app->render.scale_3d = strtof(next, NULL);
			ok = app->render.scale_3d >= 0.1f && app->render.scale_3d <= 1.0f;
			++i;
		} else if (strcmp(a, "--look-level") == 0) {
			ok = parse_int(next, 0, FALLBACK_LEVELS - 1, &n);
			o->look_level = (int)n;
			++i;
		} else if (strcmp(a, "--frame-budget") == 0) {
			app->fallback.budget_ms = strtod(next, NULL);
			ok = app->fallback.budget_ms >= 1 && app->fallback.budget_ms <= 10000;
			++i;
		} else if (strcmp(a, "--ui-scale") == 0) {
			o->ui_scale = strtof(next, NULL);
			ok = o->ui_scale >= 0.5f && o->ui_scale <= 4.0f;
			++i;
		} else if (strcmp(a, "--script") == 0) {
			o->script = argv[++i];
		} else if (strcmp(a, "--screenshot") == 0) {
			o->screenshot = argv[++i];
		} else if (strcmp(a, "--screenshot-dir") == 0) {
			snprintf(app->screenshot_dir, sizeof app->screenshot_dir, "%s", argv[++i]);
		} else if (strcmp(a, "--particles-out") == 0) {
			o->particles_out = argv[++i];
		} else if (strcmp(a, "--report") == 0) {
			o->report = argv[++i];
		} else if (strcmp(a, "--layout") == 0) {
			o->layout = argv[++i];
		} else {
			fprintf(stderr, "puddle-view: unknown option %s (try --help)\n", a);
			return 2;
		}
		if (!ok) {
			fprintf(stderr, "puddle-view: bad value for %s: %s\n", a, next);
			return 2;
		}
	}
	return 0;
}

/* ---- Main ---------------------------------------------------------------------------------- */

/* The panel's scale. Where the system scales windows itself (macOS, Wayland, Windows with DPI
 * awareness) the framebuffer is already larger than the window and ImGui follows it, so 1.
 * Where it does not (X11), a dense screen reports its DPI: scale from the usual 96, in quarter
 * steps, never below 1. */
static float display_ui_scale(SDL_Window* window)
{
	int window_width, drawable_width, height;
	SDL_GetWindowSize(window, &window_width, &height);
	SDL_GL_GetDrawableSize(window, &drawable_width, &height);
	if (drawable_width > window_width) return 1.0f;
	float dpi = 0;
	if (SDL_GetDisplayDPI(SDL_GetWindowDisplayIndex(window), &dpi, NULL, NULL) != 0) return 1.0f;
	float scale = floorf(dpi / 96.0f * 4.0f + 0.5f) / 4.0f;
	return scale < 1.0f ? 1.0f : (scale > 3.0f ? 3.0f : scale);
}

/* What to do when no window can be opened, appended to the messages below. */
#define NO_WINDOW_HINT                                                                          \
	"run it under a display, under a virtual one (xvfb-run -a puddle-view ...), or set "        \
	"SDL_VIDEODRIVER=offscreen to render without a window (with --frames N or --script)"

/* SDL's video drivers that show nothing: a window on them is invisible. */
static bool video_driver_is_headless(const char* name)
{
	return strcmp(name, "offscreen") == 0 || strcmp(name, "dummy") == 0 ||
	       strcmp(name, "evdev") == 0;
}

/* Starts SDL's video. Without a display, SDL 2 quietly falls back to its "offscreen" driver
 * (EGL without a window): the viewer then ran invisibly, forever, at full speed (no vsync
 * throttles it). So unless SDL_VIDEODRIVER names a driver, only the drivers that show a window
 * are tried, in SDL's order, and when none starts the message says what each one said. */
static bool start_video(char* err, int err_size)
{
	const char* requested = SDL_getenv("SDL_VIDEODRIVER");
	if (requested != NULL && requested[0] != '\0') {
		if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) == 0) return true;
		snprintf(err, (size_t)err_size, "SDL_Init with SDL_VIDEODRIVER=%s: %s; " NO_WINDOW_HINT,
		         requested, SDL_GetError());
		return false;
	}
	if (SDL_Init(SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0) {
		snprintf(err, (size_t)err_size, "SDL_Init: %s", SDL_GetError());
		return false;
	}
	const char* display = SDL_getenv("DISPLAY");
	const char* wayland = SDL_getenv("WAYLAND_DISPLAY");
	int used = snprintf(err, (size_t)err_size,
	                    "no display to open a window on (DISPLAY=%s, WAYLAND_DISPLAY=%s); SDL:",
	                    display != NULL ? display : "", wayland != NULL ? wayland : "");
	for (int d = 0; d < SDL_GetNumVideoDrivers(); ++d) {
		const char* name = SDL_GetVideoDriver(d);
		if (video_driver_is_headless(name)) continue;
		/* over the environment: SDL_VIDEODRIVER set but empty would otherwise win over every
		 * hint and let SDL try every driver, "offscreen" at last, which starts without a
		 * display and ran the viewer invisibly until killed */
		SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, name, SDL_HINT_OVERRIDE);
		if (SDL_InitSubSystem(SDL_INIT_VIDEO) == 0) return true;
		if (used >= 0 && used < err_size)
			used += snprintf(err + used, (size_t)(err_size - used), " %s: %s;", name, SDL_GetError());
	}
	if (used >= 0 && used < err_size) snprintf(err + used, (size_t)(err_size - used), " " NO_WINDOW_HINT);
	return false;
}

static bool open_window(viewer_app* app, const viewer_options* o, char* err, int err_size)
{
	/* Windows scales DPI-unaware windows as bitmaps (blurry); ask for real pixels. Other
	 * platforms report their scale through SDL_GL_GetDrawableSize (viewer_update_view). */
	SDL_SetHint(SDL_HINT_WINDOWS_DPI_AWARENESS, "permonitorv2");
	if (!start_video(err, err_size)) return false;
	SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
	SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
	SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
	/* macOS gives a core profile only to forward-compatible contexts */
	SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
	SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
	/* a depth buffer for 3D worlds (sphere impostors write their depth); 2D draws without it */
	SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
	SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
	char title[128];
	snprintf(title, sizeof title, "puddle %s", pdl_version_string());
	app->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
	                               o->window_width, o->window_height,
	                               SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE |
	                                   SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_SHOWN);
	if (app->window == NULL) {
		snprintf(err, (size_t)err_size, "SDL_CreateWindow (video driver %s): %s",
		         SDL_GetCurrentVideoDriver(), SDL_GetError());
		return false;
	}
	app->gl_context = SDL_GL_CreateContext(app->window);
	if (app->gl_context == NULL) {
		snprintf(err, (size_t)err_size,
		         "no OpenGL 3.3 core context (video driver %s): %s; the viewer needs OpenGL 3.3 "
		         "(Mesa's llvmpipe has it: LIBGL_ALWAYS_SOFTWARE=1)",
		         SDL_GetCurrentVideoDriver(), SDL_GetError());
		return false;
	}
	SDL_GL_MakeCurrent(app->window, app->gl_context);
	if (!viewer_gl_load(err, err_size)) return false;
	int vsync = o->vsync >= 0 ? o->vsync : (o->frames > 0 || o->script != NULL ? 0 : 1);
	/* adaptive vsync first (tears instead of halving the rate when a frame is late) */
	if (vsync && SDL_GL_SetSwapInterval(-1) != 0) SDL_GL_SetSwapInterval(1);
	if (!vsync) SDL_GL_SetSwapInterval(0);
	if (video_driver_is_headless(SDL_GetCurrentVideoDriver()) && o->frames == 0 && o->script == NULL)
		fprintf(stderr, "puddle-view: SDL_VIDEODRIVER=%s shows no window; this runs until it is "
		                "killed (--frames N stops it)\n", SDL_GetCurrentVideoDriver());
	return true;
}

int main(int argc, char** argv)
{
	viewer_app app;
	memset(&app, 0, sizeof app);
	app.render = viewer_default_render_settings();
	app.interaction = viewer_default_interaction_settings();
	app.scene_options.threads = -1;
	app.scene_requested = -1;
	app.show_panel = true;
	app.panel_width = 360.0f;
	app.input.dragged_obstacle = (pdl_boundary_id){-1, 0};
	app.input.held_body = (pdl_body_id){-1, 0};

	viewer_options o;
	memset(&o, 0, sizeof o);
	o.scene = NULL;
	o.scenes_dir = PUDDLE_VIEW_SCENES_DIR;
	o.window_width = 1280;
	o.window_height = 800;
	o.vsync = -1;
	o.fallback = -1;
	o.look_level = -1;
	o.real_clock = -1;
	app.fallback.budget_ms = 50.0; /* 20 frames/s */
	app.fallback.look = fallback_levels[0].what;
	o.ui_scale = 0.0f; /* 0: from the display */
	int parsed = parse_options(argc, argv, &o, &app);
	if (parsed != 0) return parsed == 1 ? 0 : 2;
	if (o.color_set) app.render.color = o.color;
	app.show_panel = !o.no_panel;
	app.paused = o.paused;
	/* measured runs (--frames, --script) draw the look they ask for unless told otherwise */
	app.fallback.enabled = o.fallback >= 0 ? o.fallback == 1 : o.frames == 0 && o.script == NULL;

	char err[768];
	viewer_script* script = NULL;
	if (o.script != NULL) {
		script = viewer_script_load(o.script, err, sizeof err);
		if (script == NULL) {
			fprintf(stderr, "puddle-view: %s\n", err);
			return 2;
		}
	}
	viewer_scenes_init(o.scenes_dir);
	if (o.list) {
		for (int s = 0; s < viewer_scene_count(); ++s) {
			const char* d = viewer_scene_description(s);
			printf("%2d  %-20s %.*s%s\n", s + 1, viewer_scene_name(s), 56, d, strlen(d) > 56 ? "..." : "");
		}
		viewer_script_destroy(script);
		return 0;
	}
	if (o.scene == NULL) o.scene = viewer_scene_find("blobs") >= 0 ? "blobs" : viewer_scene_name(0);
	if (o.scene == NULL) {
		fprintf(stderr, "puddle-view: no scene files in %s: name a scene file, or the folder with "
		        "--scenes DIR\n", o.scenes_dir);
		viewer_script_destroy(script);
		return 2;
	}
	/* Build the world before opening a window, so a bad scene fails fast and plainly. */
	viewer_scene first_scene;
	if (!viewer_scene_load(&first_scene, o.scene, &app.scene_options, err, sizeof err)) {
		fprintf(stderr, "puddle-view: %s\n", err);
		viewer_script_destroy(script);
		return 2;
	}

	int status = 0;
	if (!open_window(&app, &o, err, sizeof err)) {
		fprintf(stderr, "puddle-view: %s\n", err);
		status = 1;
		goto done;
	}
	app.renderer = viewer_renderer_create(err, sizeof err);
	if (app.renderer == NULL) {
		fprintf(stderr, "puddle-view: %s\n", err);
		status = 1;
		goto done;
	}
	app.gpu_timer = viewer_gpu_timer_create(err, sizeof err);
	if (app.gpu_timer == NULL && o.stats) fprintf(stderr, "puddle-view: no GPU times: %s\n", err);
	if (o.ui_scale <= 0) o.ui_scale = display_ui_scale(app.window);
	app.panel_width *= o.ui_scale;
	if (!viewer_panel_init(app.window, app.gl_context, o.ui_scale, err, sizeof err)) {
		fprintf(stderr, "puddle-view: could not start Dear ImGui: %s\n", err);
		status = 1;
		goto done;
	}
	viewer_show_scene(&app, &first_scene, o.scene);
	memset(&first_scene, 0, sizeof first_scene); /* the app owns it now */
	if (o.render_set) app.render.mode = o.render; /* over the scene's default look */
	if (o.look_level >= 0 && app.three_d) fallback_set_level(&app, o.look_level);
	if (o.preset != NULL && !viewer_apply_preset(app.scene.world, viewer_preset_find(o.preset),
	                                             &app.scene.preset_basis, err, sizeof err)) {
		fprintf(stderr, "puddle-view: preset '%s': %s%s%s\n", o.preset, err,
		        viewer_presets_problem()[0] != '\0' ? "; " : "", viewer_presets_problem());
		status = 1;
		goto done;
	}

	status = run(&app, &o, script);

done:
	viewer_scene_unload(&first_scene);
	viewer_scene_unload(&app.scene);
	viewer_panel_shutdown();
	viewer_renderer_destroy(app.renderer);
	viewer_gpu_timer_destroy(app.gpu_timer);
	if (app.gl_context != NULL) SDL_GL_DeleteContext(app.gl_context);
	if (app.window != NULL) SDL_DestroyWindow(app.window);
	SDL_Quit();
	viewer_script_destroy(script);
	return status;
}
