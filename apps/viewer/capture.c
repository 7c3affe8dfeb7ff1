/* puddle-view: screenshots (the S key, --screenshot) and the measurement files tests read.
 * PNG encoding is Debian's libstb (stb_image_write).
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* localtime_r, stat */
#include "gl.h"
#include "gpu_timer.h"
#include "frontend.h"

#include <stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

bool viewer_save_screenshot(const viewer_view* view, const char* path)
{
	int width = view->drawable_width, height = view->drawable_height;
	if (width <= 0 || height <= 0) return false;
	unsigned char* pixels = malloc((size_t)width * (size_t)height * 3);
	if (pixels == NULL) return false;
	/* Read the frame just drawn, before the swap; rows come bottom-up, PNG rows go top-down. */
	gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
	gl.ReadBuffer(GL_BACK);
	gl.ReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels);
	stbi_flip_vertically_on_write(1);
	int ok = stbi_write_png(path, width, height, 3, pixels, width * 3);
	stbi_flip_vertically_on_write(0);
	free(pixels);
	return ok != 0;
}

void viewer_screenshot_name(const viewer_app* app, char* out, int out_size)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm local;
	localtime_r(&now, &local);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
	const char* dir = app->screenshot_dir[0] ? app->screenshot_dir : ".";
	for (int n = 0; n < 1000; ++n) {
		if (n == 0) snprintf(out, (size_t)out_size, "%s/puddle-%s-%s.png", dir, app->scene.name, stamp);
		else snprintf(out, (size_t)out_size, "%s/puddle-%s-%s-%d.png", dir, app->scene.name, stamp, n);
		struct stat st;
		if (stat(out, &st) != 0) return;
	}
}

bool viewer_write_particle_pixels(const viewer_app* app, const char* path)
{
	FILE* f = fopen(path, "w");
	if (f == NULL) return false;
	pdl_particle_data p = pdl_world_particles(app->scene.world);
	fprintf(f, "pixel_x,pixel_y,material\n");
	for (int i = 0; i < p.count; ++i) {
		float px, py;
		if (app->three_d && p.z != NULL) {
			/* behind the eye: no pixel, written far outside the picture */
			if (!viewer_view3d_world_to_pixel(app, (pdl_vec3){p.x[i], p.y[i], p.z[i]}, &px, &py)) {
				px = py = -1e6f;
			}
		} else {
			viewer_view_world_to_pixel(&app->view, (pdl_vec2){p.x[i], p.y[i]}, &px, &py);
		}
		fprintf(f, "%.2f,%.2f,%d\n", px, py, p.material[i]);
	}
	return fclose(f) == 0;
}

/* s as a JSON string: quotes, backslashes and control characters escaped. */
static void write_json_string(FILE* f, const char* s)
{
	fputc('"', f);
	for (; *s != '\0'; ++s) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
		else if (c < 0x20) fprintf(f, "\\u%04x", c);
		else fputc(c, f);
	}
	fputc('"', f);
}

/* Every body: shape, pose, velocities, size, density and colour, in slot order. */
static void write_bodies(FILE* f, const viewer_app* app)
{
	const pdl_world* world = app->scene.world;
	static pdl_body_id ids[PDL_MAX_BODIES];
	int count = pdl_world_bodies(world, ids, PDL_MAX_BODIES);
	fprintf(f, "  \"bodies\": %d,\n", pdl_world_body_count(world));
	fprintf(f, "  \"bodies_added\": %d,\n", app->input.bodies_added);
	fprintf(f, "  \"body_list\": [");
	for (int k = 0; k < count; ++k) {
		pdl_body_def d;
		if (!pdl_world_get_body(world, ids[k], &d)) continue;
		const char* shape = d.shape == PDL_BODY_CIRCLE ? "circle" : d.shape == PDL_BODY_BOX ? "box" : "polygon";
		fprintf(f, "%s\n    {\"id\": %d, \"shape\": \"%s\", ", k ? "," : "", (int)pdl_body_id_to_int(ids[k]),
		        shape);
		fprintf(f, "\"position\": [%.5f, %.5f, %.5f], \"velocity\": [%.5f, %.5f, %.5f], ",
		        d.position.x, d.position.y, d.position.z, d.linear_velocity.x, d.linear_velocity.y,
		        d.linear_velocity.z);
		fprintf(f, "\"angle\": %.5f, \"orientation\": [%.5f, %.5f, %.5f, %.5f], ", d.angle,
		        d.orientation.x, d.orientation.y, d.orientation.z, d.orientation.w);
		fprintf(f, "\"radius\": %.5f, \"half_extents\": [%.5f, %.5f, %.5f], ", d.radius,
		        d.half_extents.x, d.half_extents.y, d.half_extents.z);
		fprintf(f, "\"density\": %.5f, \"color\": \"#%06x\"}", d.density, (unsigned)d.color);
	}
	fprintf(f, "%s],\n", count ? "\n  " : "");
}

bool viewer_write_report(const viewer_app* app, const char* path, double wall_seconds)
{
	FILE* f = fopen(path, "w");
	if (f == NULL) return false;
	const pdl_world* world = app->scene.world;
	pdl_stats stats = pdl_world_stats(world);
	const viewer_timing* t = &app->timing;
	double fps = wall_seconds > 0 ? (double)app->frame / wall_seconds : 0;
	fprintf(f, "{\n");
	fprintf(f, "  \"scene\": \"%s\",\n", app->scene.name);
	fprintf(f, "  \"frames\": %lld,\n", app->frame);
	fprintf(f, "  \"steps\": %lld,\n", app->step);
	fprintf(f, "  \"particles\": %d,\n", stats.particles);
	fprintf(f, "  \"obstacles\": %d,\n", viewer_obstacle_count(world));
	fprintf(f, "  \"obstacles_added\": %d,\n", app->input.obstacles_added);
	write_bodies(f, app);
	fprintf(f, "  \"non_finite\": %d,\n", stats.non_finite);
	fprintf(f, "  \"centre_of_mass\": [%.6f, %.6f],\n", stats.centre_of_mass.x,
	        stats.centre_of_mass.y);
	fprintf(f, "  \"dimensions\": %d,\n", app->three_d ? 3 : 2);
	if (app->three_d) {
		const pdl_camera* c = &app->camera;
		fprintf(f, "  \"centre_of_mass_3d\": [%.6f, %.6f, %.6f],\n", stats.centre_of_mass.x,
		        stats.centre_of_mass.y, stats.centre_of_mass.z);
		fprintf(f, "  \"camera\": {\"target\": [%.4f, %.4f, %.4f], \"yaw\": %.4f, \"pitch\": %.4f, "
		        "\"distance\": %.4f, \"fov\": %.4f},\n",
		        c->target.x, c->target.y, c->target.z, c->yaw, c->pitch, c->distance, c->fov);
	}
	fprintf(f, "  \"drawable\": [%d, %d],\n", app->view.drawable_width, app->view.drawable_height);
	fprintf(f, "  \"viewport\": [%d, %d, %d, %d],\n", app->view.viewport_x, app->view.viewport_y,
	        app->view.viewport_width, app->view.viewport_height);
	fprintf(f, "  \"pixels_per_unit\": %.6f,\n", app->view.pixels_per_unit);
	fprintf(f, "  \"view_center\": [%.6f, %.6f],\n", app->view.center.x, app->view.center.y);
	fprintf(f, "  \"obstacle_positions\": [");
	int limit = pdl_world_boundary_slots(world), written = 0;
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def def;
		if (!pdl_world_get_boundary(world, pdl_world_boundary_in_slot(world, slot), &def)) continue;
		if (def.kind == PDL_BOUNDARY_CIRCLE_CONTAINER || def.kind == PDL_BOUNDARY_BOX_CONTAINER)
			continue;
		if (app->three_d) {
			fprintf(f, "%s[%.4f, %.4f, %.4f]", written++ ? ", " : "", def.position.x,
			        def.position.y, def.position.z);
		} else {
			fprintf(f, "%s[%.4f, %.4f]", written++ ? ", " : "", def.position.x, def.position.y);
		}
	}
	fprintf(f, "],\n");
	fprintf(f, "  \"material_colors\": [");
	for (int m = 0; m < pdl_world_material_count(world); ++m) {
		fprintf(f, "%s\"#%06x\"", m ? ", " : "", (unsigned)pdl_world_get_material(world, m).color);
	}
	fprintf(f, "],\n");
	fprintf(f, "  \"obstacle_color\": \"#%06x\",\n", (unsigned)app->render.obstacle_color);
	fprintf(f, "  \"message\": ");
	write_json_string(f, app->message);
	fprintf(f, ",\n");
	fprintf(f, "  \"paused\": %s,\n", app->paused ? "true" : "false");
	fprintf(f, "  \"show_stats\": %s,\n", app->show_stats ? "true" : "false");
	fprintf(f, "  \"show_panel\": %s,\n", app->show_panel ? "true" : "false");
	fprintf(f, "  \"render_mode\": \"%s\",\n", viewer_render_mode_name(app->render.mode));
	fprintf(f, "  \"color_mode\": \"%s\",\n", viewer_color_mode_name(app->render.color));
	fprintf(f, "  \"contours\": %s,\n", app->render.contours ? "true" : "false");
	pdl_diffuse_data diffuse = pdl_world_diffuse(world);
	fprintf(f, "  \"diffuse\": {\"drawn\": %s, \"spray\": %d, \"foam\": %d, \"bubbles\": %d},\n",
	        app->render.diffuse ? "true" : "false", diffuse.kind_count[PDL_DIFFUSE_SPRAY],
	        diffuse.kind_count[PDL_DIFFUSE_FOAM], diffuse.kind_count[PDL_DIFFUSE_BUBBLE]);
	fprintf(f, "  \"wall_seconds\": %.4f,\n", wall_seconds);
	fprintf(f, "  \"fps\": %.2f,\n", fps);
	fprintf(f, "  \"step_ms\": %.4f,\n", t->step_ms);
	fprintf(f, "  \"render_ms\": %.4f,\n", t->render_ms);
	viewer_gpu_times gpu = viewer_gpu_timer_means(app->gpu_timer, true);
	fprintf(f, "  \"gpu_frames\": %lld,\n", gpu.frames);
	fprintf(f, "  \"thickness_divisor\": %d,\n", viewer_renderer_thickness_divisor(app->renderer));
	fprintf(f, "  \"gpu_ms\": %.4f,\n", gpu.frame_ms);
	fprintf(f, "  \"gpu_stage_ms\": {");
	for (int s = 0; s < VIEWER_GPU_STAGE_COUNT; ++s)
		fprintf(f, "%s\"%s\": %.4f", s > 0 ? ", " : "", viewer_gpu_stage_name((viewer_gpu_stage)s),
		        gpu.stage_ms[s]);
	fprintf(f, "},\n");
	const viewer_fallback* fb = &app->fallback;
	fprintf(f, "  \"fallback\": {\"enabled\": %s, \"budget_ms\": %.2f, \"level\": %d, \"changes\": %d, "
	        "\"look\": \"%s\", \"first_window_ms\": %.3f, \"window_ms\": %.3f, \"window_step_ms\": %.3f, "
	        "\"draw_ms\": %.3f, \"scale_3d\": %.3f, \"discs\": %s, \"levels\": [",
	        fb->enabled ? "true" : "false", fb->budget_ms, fb->level, fb->changes, fb->look ? fb->look : "",
	        fb->first_window_ms, fb->window_ms, fb->window_step_ms, fb->draw_ms, app->render.scale_3d,
	        app->render.discs ? "true" : "false");
	/* the last window measured at each level (0: none) */
	for (int l = 0; l < VIEWER_FALLBACK_MAX_LEVELS; ++l)
		fprintf(f, "%s{\"window_ms\": %.3f, \"cpu_ms\": %.3f}", l > 0 ? ", " : "", fb->level_ms[l],
		        fb->level_cpu_ms[l]);
	fprintf(f, "]},\n");
	fprintf(f, "  \"threads\": %d\n", pdl_world_thread_count(world));
	fprintf(f, "}\n");
	return fclose(f) == 0;
}
