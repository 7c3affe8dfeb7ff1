// puddle-view: the side panel and the stats overlay, with Dear ImGui (Debian's libimgui-dev).
//
// The one C++ file of the viewer; the rest talks to it through the C functions declared in
// viewer.h. Every widget edits a copy of a def read from the world this frame and, when it
// changes, hands the copy back through pdl_world_set_def / pdl_world_set_material, which
// validate it: a refused value shows the core's message and the world keeps its old value.
// Changes take effect on the next step.
//
// SPDX-License-Identifier: MIT
#include "frontend.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <math.h>
#include <stdio.h>

static bool panel_ready = false;

extern "C" bool viewer_panel_init(SDL_Window* window, void* gl_context, float font_scale,
                                  char* err, int err_size)
{
	IMGUI_CHECKVERSION();
	ImGui::CreateContext();
	ImGuiIO& io = ImGui::GetIO();
	// no imgui.ini: the viewer must not leave files behind (tests, CI)
	io.IniFilename = nullptr;
	io.FontGlobalScale = font_scale;
	ImGui::StyleColorsDark();
	ImGui::GetStyle().ScaleAllSizes(font_scale);
	if (!ImGui_ImplSDL2_InitForOpenGL(window, gl_context)) {
		snprintf(err, (size_t)err_size, "ImGui_ImplSDL2_InitForOpenGL failed (%s)", SDL_GetError());
		ImGui::DestroyContext();
		return false;
	}
	if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
		snprintf(err, (size_t)err_size, "ImGui_ImplOpenGL3_Init(\"#version 330 core\") failed");
		ImGui_ImplSDL2_Shutdown();
		ImGui::DestroyContext();
		return false;
	}
	panel_ready = true;
	return true;
}

extern "C" void viewer_panel_shutdown(void)
{
	if (!panel_ready) return;
	ImGui_ImplOpenGL3_Shutdown();
	ImGui_ImplSDL2_Shutdown();
	ImGui::DestroyContext();
	panel_ready = false;
}

extern "C" bool viewer_panel_handle_event(const SDL_Event* event)
{
	if (!panel_ready) return false;
	return ImGui_ImplSDL2_ProcessEvent(event);
}

extern "C" bool viewer_panel_wants_mouse(void)
{
	return panel_ready && ImGui::GetIO().WantCaptureMouse;
}

extern "C" bool viewer_panel_wants_keyboard(void)
{
	return panel_ready && ImGui::GetIO().WantCaptureKeyboard;
}

// ---- Sections ----------------------------------------------------------------------------

static void scene_section(viewer_app* app)
{
	int count = viewer_scene_count();
	const char* current = app->scene.name;
	if (ImGui::BeginCombo("scene", current)) {
		for (int i = 0; i < count; ++i) {
			char label[96];
			snprintf(label, sizeof label, "%d  %s", i + 1, viewer_scene_name(i));
			if (ImGui::Selectable(label, i == app->scene_index)) app->scene_requested = i;
			if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", viewer_scene_description(i));
		}
		ImGui::EndCombo();
	}
	if (ImGui::Button(app->paused ? "play (space)" : "pause (space)")) app->paused = !app->paused;
	ImGui::SameLine();
	if (ImGui::Button("step (.)")) {
		app->paused = true;
		app->step_once = true;
	}
	ImGui::SameLine();
	if (ImGui::Button("reset (R)")) app->reset_requested = true;
	ImGui::SameLine();
	if (ImGui::Button("save (S)")) app->screenshot_requested = true;

	const pdl_world* world = app->scene.world;
	ImGui::Text("%d particles, %d obstacles, %d bodies, t = %.2f s", pdl_world_particle_count(world),
	            viewer_obstacle_count(world), pdl_world_body_count(world), pdl_world_time(world));

	ImGui::TextUnformatted("presets:");
	for (int p = 0; p < viewer_preset_count(); ++p) {
		ImGui::SameLine();
		if (ImGui::Button(viewer_preset_name(p))) {
			char err[256];
			if (viewer_apply_preset(app->scene.world, p, &app->scene.preset_basis, err, sizeof err)) {
				viewer_message(app, "preset %s", viewer_preset_name(p));
			} else {
				viewer_message(app, "preset: %s", err);
			}
		}
	}
}

static const char* render_mode_label(int i)
{
	return viewer_render_mode_name((viewer_render_mode)i);
}

static const char* color_mode_label(int i)
{
	return viewer_color_mode_name((viewer_color_mode)i);
}

/* A combo box over the names of an enum; true when the choice changed. */
static bool name_combo(const char* label, int* value, int count, const char* (*name)(int))
{
	bool changed = false;
	if (ImGui::BeginCombo(label, name(*value))) {
		for (int i = 0; i < count; ++i) {
			if (ImGui::Selectable(name(i), i == *value)) {
				changed = i != *value;
				*value = i;
			}
		}
		ImGui::EndCombo();
	}
	return changed;
}

static void render_section(viewer_app* app)
{
	viewer_render_settings* r = &app->render;
	int mode = (int)r->mode, color = (int)r->color;
	if (name_combo("render (M)", &mode, VIEWER_RENDER_MODE_COUNT, render_mode_label)) {
		r->mode = (viewer_render_mode)mode;
	}
	if (name_combo("colour (V)", &color, VIEWER_COLOR_MODE_COUNT, color_mode_label)) {
		r->color = (viewer_color_mode)color;
	}
	if (app->three_d) {
		/* 3D draws spheres in both modes (renderer3d.c): metaball's overlap into one body */
		if (r->mode == VIEWER_RENDER_METABALL) {
			ImGui::SliderFloat("sphere size", &r->splat_radius, 0.2f, 2.0f, "%.2f");
			if (ImGui::IsItemHovered()) ImGui::SetTooltip("sphere radius = 0.4 h x this");
		} else {
			ImGui::SliderFloat("dot radius / h", &r->dot_radius, 0.05f, 1.0f, "%.2f");
		}
	} else {
		ImGui::Checkbox("contours (O)", &r->contours);
		if (ImGui::IsItemHovered())
			ImGui::SetTooltip("the fluid's outline: marching squares over the smoothed density field");
	}
	if (app->three_d) {
	} else if (r->mode == VIEWER_RENDER_METABALL) {
		ImGui::SliderFloat("splat radius / h", &r->splat_radius, 0.2f, 2.0f, "%.2f");
		ImGui::SliderFloat("threshold", &r->threshold, 0.05f, 3.0f, "%.2f");
		ImGui::SliderFloat("edge softness", &r->edge_softness, 0.001f, 1.0f, "%.3f");
		ImGui::SliderFloat("field resolution", &r->field_scale, 0.25f, 1.0f, "%.2f");
	} else {
		ImGui::SliderFloat("dot radius / h", &r->dot_radius, 0.05f, 1.0f, "%.2f");
	}
	if (r->color == VIEWER_COLOR_SPEED) {
		float top = 40.0f * sqrtf(app->acceleration_unit * app->length_unit);
		ImGui::SliderFloat("speed range", &r->speed_range, 0.0f, top, r->speed_range > 0 ? "%.1f" : "auto");
	}
	if (r->color == VIEWER_COLOR_PRESSURE) {
		ImGui::SliderFloat("pressure range", &r->pressure_range, 0.0f, 1000.0f * app->length_unit,
		                   r->pressure_range > 0 ? "%.0f" : "auto", ImGuiSliderFlags_Logarithmic);
	}
}

static void world_section(viewer_app* app, bool* auto_substeps)
{
	pdl_world* world = app->scene.world;
	pdl_world_def def = pdl_world_get_def(world);
	bool changed = false;
	float hz = 1.0f / def.dt;
	if (ImGui::SliderFloat("steps / s (1/dt)", &hz, 15.0f, 240.0f, "%.0f")) {
		def.dt = 1.0f / hz;
		changed = true;
	}
	changed |= ImGui::SliderInt("substeps", &def.substeps, 1, 64);
	ImGui::Checkbox("auto substeps", auto_substeps);
	if (ImGui::IsItemHovered()) {
		ImGui::SetTooltip("raise substeps as soon as a stiffness needs them\n(k dt_sub^2 / h below about 0.02)");
	}
	float g = 4.0f * app->acceleration_unit, h = app->length_unit;
	if (app->three_d) changed |= ImGui::SliderFloat3("gravity", &def.gravity.x, -g, g, "%.1f");
	else changed |= ImGui::SliderFloat2("gravity", &def.gravity.x, -g, g, "%.1f");
	changed |= ImGui::SliderFloat("h (radius)", &def.interaction_radius, 0.25f * h, 4.0f * h, "%.2f");
	changed |= ImGui::SliderInt("threads (0: all)", &def.threads, 0, 64);
	ImGui::Text("running on %d thread(s)", pdl_world_thread_count(world));
	if (*auto_substeps) {
		int needed = viewer_substeps_needed(world);
		if (needed > def.substeps) {
			def.substeps = needed;
			changed = true;
		}
	}
	if (changed) {
		pdl_error e;
		if (pdl_world_set_def(world, &def, &e) != PDL_OK) viewer_message(app, "%s", e.message);
	}
}

static bool color_edit(const char* label, uint32_t* color)
{
	float rgb[3] = {(float)((*color >> 16) & 0xff) / 255.0f, (float)((*color >> 8) & 0xff) / 255.0f,
	                (float)(*color & 0xff) / 255.0f};
	if (!ImGui::ColorEdit3(label, rgb)) return false;
	uint32_t r = (uint32_t)lroundf(rgb[0] * 255.0f), g = (uint32_t)lroundf(rgb[1] * 255.0f),
	         b = (uint32_t)lroundf(rgb[2] * 255.0f);
	*color = (r << 16) | (g << 8) | b;
	return true;
}

static void material_section(viewer_app* app)
{
	pdl_world* world = app->scene.world;
	/* stiffnesses are accelerations (length / s^2) and beta is per length: ranges follow h */
	float h = app->length_unit;
	int count = pdl_world_material_count(world);
	for (int m = 0; m < count; ++m) {
		pdl_material_def d = pdl_world_get_material(world, m);
		ImGui::PushID(m);
		char title[32];
		snprintf(title, sizeof title, "material %d", m);
		if (ImGui::TreeNodeEx(title, m == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
			bool c = false;
			c |= color_edit("colour", &d.color);
			c |= ImGui::SliderFloat("rest density", &d.rest_density, 0.5f, 20.0f, "%.2f");
			c |= ImGui::SliderFloat("stiffness k", &d.stiffness, 0.0f, 2000.0f * h, "%.1f",
			                        ImGuiSliderFlags_Logarithmic);
			c |= ImGui::SliderFloat("near stiffness", &d.near_stiffness, 0.0f, 2000.0f * h, "%.1f",
			                        ImGuiSliderFlags_Logarithmic);
			c |= ImGui::SliderFloat("mass", &d.mass, 0.01f, 100.0f, "%.2f",
			                        ImGuiSliderFlags_Logarithmic);
			c |= ImGui::SliderFloat("gravity scale", &d.gravity_scale, -2.0f, 3.0f, "%.2f");
			c |= ImGui::SliderFloat("viscosity sigma", &d.viscosity_sigma, 0.0f, 20.0f, "%.2f");
			c |= ImGui::SliderFloat("viscosity beta", &d.viscosity_beta, 0.0f, 5.0f / h, "%.3f");
			c |= ImGui::SliderFloat("spring stiffness", &d.spring_stiffness, 0.0f, 1000.0f, "%.1f",
			                        ImGuiSliderFlags_Logarithmic);
			c |= ImGui::SliderFloat("yield ratio", &d.yield_ratio, 0.0f, 1.0f, "%.2f");
			c |= ImGui::SliderFloat("plasticity", &d.plasticity, 0.0f, 5.0f, "%.2f");
			c |= ImGui::SliderFloat("wall friction", &d.wall_friction, 0.0f, 1.0f, "%.2f");
			c |= ImGui::SliderFloat("wall stickiness", &d.wall_stickiness, 0.0f, 500.0f, "%.1f");
			c |= ImGui::SliderFloat("stick distance / h", &d.stick_distance, 0.01f, 1.0f, "%.2f");
			if (c) {
				pdl_error e;
				if (pdl_world_set_material(world, m, &d, &e) != PDL_OK) {
					viewer_message(app, "%s", e.message);
				}
			}
			ImGui::TreePop();
		}
		ImGui::PopID();
	}
	if (count < PDL_MAX_MATERIALS && ImGui::Button("add material")) {
		pdl_material_def d = pdl_default_material_def();
		pdl_error e;
		if (pdl_world_add_material(world, &d, &e) < 0) viewer_message(app, "%s", e.message);
	}
}

static void interaction_section(viewer_app* app)
{
	viewer_interaction_settings* s = &app->interaction;
	ImGui::SliderFloat("pointer radius / h", &s->pointer_radius, 0.5f, 60.0f, "%.1f");
	ImGui::SliderFloat("pointer pull / g", &s->pointer_strength, 0.0f, 100.0f, "%.1f");
	ImGui::SliderFloat("pointer drag", &s->pointer_drag, 0.0f, 20.0f, "%.1f");
	ImGui::SliderFloat("pour radius / h", &s->spawn_radius, 0.3f, 5.0f, "%.2f");
	float rate = 1.0f / s->spawn_interval;
	if (ImGui::SliderFloat("pours / s", &rate, 1.0f, 60.0f, "%.0f")) s->spawn_interval = 1.0f / rate;
	int materials = pdl_world_material_count(app->scene.world);
	if (materials > 1) ImGui::SliderInt("pour material", &s->spawn_material, 0, materials - 1);
	ImGui::SliderFloat2("obstacle half size / h", &s->box_half_extents.x, 0.25f, 20.0f, "%.2f");
	if (ImGui::IsItemHovered()) ImGui::SetTooltip("the fixed box shift + C drops");
}

/* The next body C drops, and the bodies there are: three widgets and a line, so the panel
 * still fits a 1280 x 800 window with the default sections open. */
static void bodies_section(viewer_app* app)
{
	viewer_interaction_settings* s = &app->interaction;
	for (int k = 0; k < VIEWER_BODY_SHAPE_COUNT; ++k) {
		if (k > 0) ImGui::SameLine();
		if (ImGui::RadioButton(viewer_body_shape_name((viewer_body_shape)k, app->three_d),
		                       s->body_shape == k)) {
			s->body_shape = (viewer_body_shape)k;
		}
	}
	ImGui::SameLine();
	ImGui::TextDisabled("(B; C drops)");
	ImGui::SliderFloat(s->body_shape == VIEWER_BODY_BOX ? "half size / h" : "radius / h", &s->body_size,
	                   0.5f, 8.0f, "%.2f");
	ImGui::SliderFloat("density / water", &s->body_density, 0.1f, 3.0f, "%.2f");
	if (ImGui::IsItemHovered()) ImGui::SetTooltip("relative to material 0 at rest: below 1 floats, above 1 sinks");
	int count = pdl_world_body_count(app->scene.world);
	ImGui::Text("%d bod%s", count, count == 1 ? "y" : "ies");
	ImGui::SameLine();
	if (ImGui::Button("remove all bodies")) viewer_remove_all_bodies(app);
}

/* The 3D camera: what the mouse sets, as numbers to read or type. */
/* true when the camera changed (the mouse's ray moved with it) */
static bool camera_section(viewer_app* app)
{
	pdl_camera* c = &app->camera;
	bool changed = false;
	changed |= ImGui::DragFloat3("target", &c->target.x, 0.05f * app->length_unit, 0.0f, 0.0f, "%.2f");
	changed |= ImGui::SliderFloat("yaw", &c->yaw, -180.0f, 180.0f, "%.1f deg");
	changed |= ImGui::SliderFloat("pitch", &c->pitch, -89.0f, 89.0f, "%.1f deg");
	changed |= ImGui::SliderFloat("distance", &c->distance, 1.0f * app->length_unit,
	                              400.0f * app->length_unit, "%.1f", ImGuiSliderFlags_Logarithmic);
	changed |= ImGui::SliderFloat("fov", &c->fov, 5.0f, 120.0f, "%.0f deg");
	if (ImGui::Button("re-frame (Home)")) {
		viewer_view3d_frame(app);
		changed = true;
	}
	return changed;
}

static void help_section_3d(void)
{
	ImGui::TextUnformatted(
		"left drag        pull along the mouse ray\n"
		"shift + left     push away from the ray\n"
		"drag obstacle    move it (camera plane)\n"
		"right / alt+left orbit the camera\n"
		"middle drag      pan\n"
		"wheel            zoom (shift: pointer size)\n"
		"Home             re-frame the scene\n"
		"E / X            pour / erase\n"
		"C / shift + C    drop a body / an obstacle\n"
		"B                next body: cube / sphere\n"
		"drag a body      grab and throw it\n"
		"Delete           remove body or obstacle\n"
		"space / . / R    pause / step / reset\n"
		"M / V            sphere size / colour mode\n"
		"Tab              hide this panel");
}

static void help_section(void)
{
	ImGui::TextUnformatted(
		"left drag       attract\n"
		"right drag      repel (or shift + left)\n"
		"drag obstacle   move it\n"
		"E / middle      pour particles\n"
		"X               erase particles\n"
		"C               drop a body\n"
		"B               next body: box / circle\n"
		"shift + C       drop a box obstacle\n"
		"drag a body     grab and throw it\n"
		"Delete          remove body / obstacle\n"
		"space / .       pause / step\n"
		"R               reset scene\n"
		"1-9             switch scene\n"
		"S               screenshot (PNG)\n"
		"F               stats overlay\n"
		"M / V           render / colour mode\n"
		"O               fluid outline (contours)\n"
		"wheel           pointer size\n"
		"Tab             hide this panel");
}

static void stats_overlay(viewer_app* app)
{
	const viewer_view* v = &app->view;
	float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
	ImGui::SetNextWindowPos(ImVec2((float)v->viewport_x / ratio + 10.0f,
	                               (float)v->viewport_y / ratio + 10.0f));
	ImGui::SetNextWindowBgAlpha(0.55f);
	ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
	                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
	                         ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
	if (ImGui::Begin("stats", nullptr, flags)) {
		const viewer_timing* t = &app->timing;
		const pdl_profile* p = &t->profile;
		pdl_world_def def = pdl_world_get_def(app->scene.world);
		ImGui::Text("%.1f fps   %s%s", t->display_fps, app->scene.name, app->paused ? "  (paused)" : "");
		ImGui::Text("%d particles, %d threads, %d substeps", pdl_world_particle_count(app->scene.world),
		            pdl_world_thread_count(app->scene.world), def.substeps);
		ImGui::Text("step %.2f ms (%.0f steps/s possible)", t->step_ms, t->steps_per_second);
		ImGui::Text("  forces %.2f  density %.2f", p->forces, p->density);
		ImGui::Text("  predict %.2f  springs %.2f", p->predict, p->springs);
		ImGui::Text("  relax %.2f  boundaries %.2f", p->relax, p->boundaries);
		ImGui::Text("  bodies %.2f  velocity %.2f", p->bodies, p->velocity);
		ImGui::Text("draw %.2f ms", t->render_ms);
		if (app->render.contours) ImGui::Text("  contours %.2f ms", viewer_renderer_contour_ms(app->renderer));
	}
	ImGui::End();
}

extern "C" bool viewer_panel_draw(viewer_app* app)
{
	if (!panel_ready) return false;
	bool camera_changed = false;
	static bool auto_substeps = true;
	ImGui_ImplOpenGL3_NewFrame();
	ImGui_ImplSDL2_NewFrame();
	ImGui::NewFrame();

	if (app->show_panel) {
		const viewer_view* v = &app->view;
		float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
		float x = (float)(v->viewport_x + v->viewport_width) / ratio;
		ImGui::SetNextWindowPos(ImVec2(x, 0.0f));
		ImGui::SetNextWindowSize(ImVec2((float)v->window_width - x, (float)v->window_height));
		ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
		                         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
		if (ImGui::Begin("puddle  (Tab hides)", nullptr, flags)) {
			ImGui::PushItemWidth(-140.0f * ImGui::GetIO().FontGlobalScale);
			scene_section(app);
			if (ImGui::CollapsingHeader("render", ImGuiTreeNodeFlags_DefaultOpen)) render_section(app);
			if (ImGui::CollapsingHeader("solver", ImGuiTreeNodeFlags_DefaultOpen)) {
				world_section(app, &auto_substeps);
			}
			if (ImGui::CollapsingHeader("bodies", ImGuiTreeNodeFlags_DefaultOpen)) bodies_section(app);
			if (ImGui::CollapsingHeader("materials", ImGuiTreeNodeFlags_DefaultOpen)) {
				material_section(app);
			}
			if (app->three_d && ImGui::CollapsingHeader("3D", ImGuiTreeNodeFlags_DefaultOpen)) {
				camera_changed = camera_section(app);
			}
			if (ImGui::CollapsingHeader("interaction")) interaction_section(app);
			if (ImGui::CollapsingHeader("keys and mouse")) {
				if (app->three_d) help_section_3d();
				else help_section();
			}
			ImGui::PopItemWidth();
			if (app->message[0]) {
				ImGui::Separator();
				ImGui::TextWrapped("%s", app->message);
			}
		}
		ImGui::End();
	}
	if (app->show_stats) stats_overlay(app);

	ImGui::Render();
	ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
	return camera_changed;
}
