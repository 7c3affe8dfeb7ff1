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
#include "gpu_timer.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_internal.h> /* TempInputIsActive: a slider being typed into (ctrl+click) */
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

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
	ImGuiStyle& style = ImGui::GetStyle();
	/* tighter rows, so the default sections fit 800 points of height (issue 23 #3); square
	 * grabs and frames: value_slider finds the grab as the last rectangle drawn */
	style.FramePadding.y = 2.0f;
	style.ItemSpacing.y = 3.0f;
	style.GrabMinSize = 8.0f;
	style.GrabRounding = 0.0f;
	style.FrameRounding = 0.0f;
	style.ScaleAllSizes(font_scale);
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

// ---- Layout ------------------------------------------------------------------------------
//
// Where things landed in the last frame, in window points, for --layout (viewer_layout test).

struct slider_layout {
	char label[40];
	char value[40];
	ImVec2 frame_min, frame_max, grab_min, grab_max, text_min, text_max;
};

static struct {
	bool panel_shown, stats_shown;
	ImVec2 panel_min, panel_max, stats_min, stats_max;
	float content_end_y; /* the cursor after the last item, window-relative */
	float scroll_max_y;  /* ImGui's scroll range: 0 when everything fits */
	float label_column;
	int slider_count;
	slider_layout sliders[64];
} layout;

/* The widest label of a framed widget seen so far: the label column at the panel's right. */
static float widest_label = 0.0f;

static void note_label(const char* label)
{
	float w = ImGui::CalcTextSize(label).x;
	if (w > widest_label) widest_label = w;
}

/* A slider that writes its value on the side of the frame away from the grab (left when the
 * grab is in the right half, right otherwise). ImGui centres the value, where the grab passes
 * over it at mid-range values whatever the width ("1.|00", issue 23 #3). The grab is the last
 * rectangle ImGui drew (style: no rounding); the value ImGui would write is drawn transparent. */
static bool value_slider(const char* label, ImGuiDataType type, void* v, const void* lo,
                         const void* hi, const char* format, ImGuiSliderFlags flags)
{
	note_label(label);
	if (ImGui::TempInputIsActive(ImGui::GetID(label))) {
		return ImGui::SliderScalar(label, type, v, lo, hi, format, flags);
	}
	const ImGuiStyle& style = ImGui::GetStyle();
	ImDrawList* draw = ImGui::GetWindowDrawList();
	float width = ImGui::CalcItemWidth();
	int first = draw->VtxBuffer.Size;
	ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0, 0, 0, 0));
	bool changed = ImGui::SliderScalar(label, type, v, lo, hi, format, flags);
	ImGui::PopStyleColor();
	/* the frame, then the grab: four corners each; nothing when the row is clipped away */
	if (draw->VtxBuffer.Size - first < 8) return changed;
	ImVec2 frame_min = ImGui::GetItemRectMin();
	ImVec2 frame_max(frame_min.x + width, frame_min.y + ImGui::GetFrameHeight());
	ImVec2 grab_min(1e30f, 1e30f), grab_max(-1e30f, -1e30f);
	for (int i = draw->VtxBuffer.Size - 4; i < draw->VtxBuffer.Size; ++i) {
		ImVec2 p = draw->VtxBuffer[i].pos;
		grab_min = ImVec2(fminf(grab_min.x, p.x), fminf(grab_min.y, p.y));
		grab_max = ImVec2(fmaxf(grab_max.x, p.x), fmaxf(grab_max.y, p.y));
	}
	char text[40];
	if (type == ImGuiDataType_Float) snprintf(text, sizeof text, format, (double)*(const float*)v);
	else snprintf(text, sizeof text, format, *(const int*)v);
	ImVec2 size = ImGui::CalcTextSize(text);
	bool grab_right = grab_min.x + grab_max.x > frame_min.x + frame_max.x;
	ImVec2 at(grab_right ? frame_min.x + style.FramePadding.x : frame_max.x - style.FramePadding.x - size.x,
	          frame_min.y + style.FramePadding.y);
	ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
	draw->AddText(at, ink, text);
	draw->AddText(ImVec2(frame_max.x + style.ItemInnerSpacing.x, at.y), ink, label);
	if (layout.slider_count < (int)(sizeof layout.sliders / sizeof layout.sliders[0])) {
		slider_layout* s = &layout.sliders[layout.slider_count++];
		snprintf(s->label, sizeof s->label, "%s", label);
		snprintf(s->value, sizeof s->value, "%s", text);
		s->frame_min = frame_min;
		s->frame_max = frame_max;
		s->grab_min = grab_min;
		s->grab_max = grab_max;
		s->text_min = at;
		s->text_max = ImVec2(at.x + size.x, at.y + size.y);
	}
	return changed;
}

static bool slider_float(const char* label, float* v, float lo, float hi, const char* format,
                         ImGuiSliderFlags flags = 0)
{
	return value_slider(label, ImGuiDataType_Float, v, &lo, &hi, format, flags);
}

static bool slider_int(const char* label, int* v, int lo, int hi, const char* format = "%d")
{
	return value_slider(label, ImGuiDataType_S32, v, &lo, &hi, format, 0);
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
	ImGui::Text("%d particles  %d obst.  %d bodies  t %.2f s", pdl_world_particle_count(world),
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
		/* 3D draws spheres in metaball and dots modes (renderer3d.c), metaball's overlapping into
		 * one body; liquid turns metaball's spheres into a water surface (liquid_gl.c) */
		if (r->mode != VIEWER_RENDER_DOTS) {
			slider_float("sphere size", &r->splat_radius, 0.2f, 2.0f, "%.2f");
			if (ImGui::IsItemHovered()) ImGui::SetTooltip("sphere radius = 0.4 h x this");
			if (r->mode == VIEWER_RENDER_LIQUID) {
				ImGui::Checkbox("spray and foam (W)", &r->diffuse);
				if (ImGui::IsItemHovered())
					ImGui::SetTooltip("the scene's diffuse particles (spray, foam, bubbles) as white discs");
			}
		} else {
			slider_float("dot radius / h", &r->dot_radius, 0.05f, 1.0f, "%.2f");
		}
	} else {
		ImGui::Checkbox("contours (O)", &r->contours);
		if (ImGui::IsItemHovered())
			ImGui::SetTooltip("the fluid's outline: marching squares over the smoothed density field");
	}
	if (app->three_d) {
	} else if (r->mode == VIEWER_RENDER_METABALL) {
		slider_float("splat radius / h", &r->splat_radius, 0.2f, 2.0f, "%.2f");
		/* tuning, closed by default: the panel fits 800 points with its default sections */
		if (ImGui::TreeNode("metaball tuning")) {
			slider_float("threshold", &r->threshold, 0.05f, 3.0f, "%.2f");
			slider_float("edge softness", &r->edge_softness, 0.001f, 1.0f, "%.3f");
			slider_float("field resolution", &r->field_scale, 0.25f, 1.0f, "%.2f");
			ImGui::TreePop();
		}
	} else {
		slider_float("dot radius / h", &r->dot_radius, 0.05f, 1.0f, "%.2f");
	}
	if (r->color == VIEWER_COLOR_SPEED) {
		float top = 40.0f * sqrtf(app->acceleration_unit * app->length_unit);
		slider_float("speed range", &r->speed_range, 0.0f, top, r->speed_range > 0 ? "%.1f" : "auto");
	}
	if (r->color == VIEWER_COLOR_PRESSURE) {
		slider_float("pressure range", &r->pressure_range, 0.0f, 1000.0f * app->length_unit,
		                   r->pressure_range > 0 ? "%.0f" : "auto", ImGuiSliderFlags_Logarithmic);
	}
}

/* A declared field's slider (viewer_def_slider) on the struct it belongs to: a number, or a
 * vector's components as one drag (no grab to cover the digits in frames a half or a third as
 * wide); its doc line on hover. */
static bool def_slider(const viewer_def_slider* sl, void* def, bool three_d)
{
	char label[48];
	snprintf(label, sizeof label, "%s", sl->name);
	for (char* u = label; *u; ++u)
		if (*u == '_') *u = ' ';
	void* v = (char*)def + sl->offset;
	bool changed;
	if (sl->is_int) {
		changed = slider_int(label, (int*)v, (int)sl->lo, (int)sl->hi);
	} else if (strcmp(sl->name, "gravity") == 0) {
		note_label(label);
		float* g = (float*)v;
		float speed = (sl->hi - sl->lo) / 1000.0f;
		changed = three_d ? ImGui::DragFloat3(label, g, speed, sl->lo, sl->hi, "%.1f")
		                  : ImGui::DragFloat2(label, g, speed, sl->lo, sl->hi, "%.1f");
	} else {
		float span = sl->hi - sl->lo;
		const char* format = span < 0.1f ? "%.5f" : span < 10.0f ? "%.3f" : "%.1f";
		changed = slider_float(label, (float*)v, sl->lo, sl->hi, format, sl->log ? ImGuiSliderFlags_Logarithmic : 0);
	}
	if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sl->doc);
	return changed;
}

/* The world section's declared sliders: the limits (true) or the others. */
static bool def_sliders(viewer_app* app, pdl_world_def* def, bool limits, bool* auto_substeps)
{
	static const char* const limit_fields[] = {"cfl", "max_iterations", "max_particles"};
	const viewer_preset_basis* basis = &app->scene.preset_basis;
	bool changed = false;
	for (int list = 0; list < 2; ++list) {
		int count = list == 0 ? viewer_sph_slider_count() : viewer_world_slider_count();
		for (int f = 0; f < count; ++f) {
			viewer_def_slider sl;
			if (!(list == 0 ? viewer_sph_slider_of(f, def->solver, basis, &sl) : viewer_world_slider_of(f, basis, &sl)))
				continue;
			bool limit = false;
			for (size_t k = 0; k < sizeof limit_fields / sizeof limit_fields[0]; ++k)
				limit |= strcmp(sl.name, limit_fields[k]) == 0;
			if (limit != limits) continue;
			changed |= def_slider(&sl, list == 0 ? (void*)&def->sph : (void*)def, app->three_d);
			if (strcmp(sl.name, "substeps") == 0) {
				ImGui::Checkbox("auto substeps", auto_substeps);
				if (ImGui::IsItemHovered()) {
					ImGui::SetTooltip("raise substeps as soon as a stiffness needs them\n(k dt_sub^2 / h below about 0.02)");
				}
			}
		}
	}
	/* the most particles the world holds cannot go below the particles it holds */
	int count = pdl_world_particle_count(app->scene.world);
	if (def->max_particles < count) def->max_particles = count;
	return changed;
}

static void world_section(viewer_app* app, bool* auto_substeps)
{
	pdl_world* world = app->scene.world;
	pdl_world_def def = pdl_world_get_def(world);
	bool changed = false;
	/* the solver, switched live (docs/physics.md; README "Which solver"): the particles stay,
	 * each solver takes them as they are */
	int kind = (int)def.solver;
	note_label("solver");
	if (ImGui::Combo("solver", &kind, viewer_solver_names, PDL_SOLVER_KIND_COUNT)) {
		def.solver = (pdl_solver_kind)kind;
		changed = true;
	}
	/* the solver's and the world's number fields as declared (puddle/fields.h): each with its
	 * declared range scaled to the scene, its doc line as the tooltip; a solver's only while it
	 * runs; the limits (CFL, iterations, particles, threads) in a node closed by default, so
	 * that the default sections fit a 1280 x 800 window */
	for (int limits = 0; limits < 2; ++limits) {
		if (limits && !ImGui::TreeNode("limits")) break;
		changed |= def_sliders(app, &def, limits != 0, auto_substeps);
		if (limits) {
			char running[32];
			snprintf(running, sizeof running, "%%d (runs %d)", pdl_world_thread_count(world));
			changed |= slider_int("threads (0: all)", &def.threads, 0, 64, def.threads == 0 ? running : "%d");
			ImGui::TreePop();
		}
	}
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
	int count = pdl_world_material_count(world);
	for (int m = 0; m < count; ++m) {
		pdl_material_def d = pdl_world_get_material(world, m);
		ImGui::PushID(m);
		char title[32];
		snprintf(title, sizeof title, "material %d", m);
		if (ImGui::TreeNodeEx(title, m == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
			bool c = false;
			c |= color_edit("colour", &d.color);
			// every number field as declared (puddle/fields.h), its range scaled to the scene;
			// from the springs on (less used) in a node closed by default
			bool open = true, nested = false;
			for (int f = 0; f < viewer_material_slider_count(); ++f) {
				viewer_material_slider sl;
				if (!viewer_material_slider_of(f, &app->scene.preset_basis, &sl)) continue;
				if (!nested && strcmp(sl.name, "spring_stiffness") == 0) {
					nested = true;
					open = ImGui::TreeNode("springs and walls");
				}
				if (!open) continue;
				char label[48];
				snprintf(label, sizeof label, "%s", sl.name);
				for (char* u = label; *u; ++u)
					if (*u == '_') *u = ' ';
				float* v = (float*)(void*)((char*)&d + sl.offset);
				c |= slider_float(label, v, sl.lo, sl.hi, sl.hi - sl.lo < 10.0f ? "%.3f" : "%.1f",
				                  sl.log ? ImGuiSliderFlags_Logarithmic : 0);
			}
			if (nested && open) ImGui::TreePop();
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
	slider_float("pointer radius / h", &s->pointer_radius, 0.5f, 60.0f, "%.1f");
	slider_float("pointer pull / g", &s->pointer_strength, 0.0f, 100.0f, "%.1f");
	slider_float("pointer drag", &s->pointer_drag, 0.0f, 20.0f, "%.1f");
	slider_float("pour radius / h", &s->spawn_radius, 0.3f, 5.0f, "%.2f");
	float rate = 1.0f / s->spawn_interval;
	if (slider_float("pours / s", &rate, 1.0f, 60.0f, "%.0f")) s->spawn_interval = 1.0f / rate;
	int materials = pdl_world_material_count(app->scene.world);
	if (materials > 1) slider_int("pour material", &s->spawn_material, 0, materials - 1);
	note_label("obstacle / h");
	ImGui::DragFloat2("obstacle / h", &s->box_half_extents.x, 0.05f, 0.25f, 20.0f, "%.2f");
	if (ImGui::IsItemHovered()) ImGui::SetTooltip("half size of the fixed box shift + C drops, in h");
}

/* The next body C drops, and the bodies there are: three rows, so the panel still fits a
 * 1280 x 800 window with the default sections open. */
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
	if (ImGui::IsItemHovered()) ImGui::SetTooltip("the body C drops (B switches)");
	int count = pdl_world_body_count(app->scene.world);
	char remove[48];
	snprintf(remove, sizeof remove, "remove all %d", count);
	ImGui::SameLine();
	if (ImGui::Button(remove)) viewer_remove_all_bodies(app);
	slider_float(s->body_shape == VIEWER_BODY_BOX ? "half size / h" : "radius / h", &s->body_size,
	                   0.5f, 8.0f, "%.2f");
	slider_float("density / water", &s->body_density, 0.1f, 3.0f, "%.2f");
	if (ImGui::IsItemHovered()) ImGui::SetTooltip("relative to material 0 at rest: below 1 floats, above 1 sinks");
}

/* The 3D camera: what the mouse sets, as numbers to read or type. */
/* true when the camera changed (the mouse's ray moved with it) */
static bool camera_section(viewer_app* app)
{
	pdl_camera* c = &app->camera;
	bool changed = false;
	changed |= ImGui::DragFloat3("target", &c->target.x, 0.05f * app->length_unit, 0.0f, 0.0f, "%.2f");
	changed |= slider_float("yaw", &c->yaw, -180.0f, 180.0f, "%.1f deg");
	changed |= slider_float("pitch", &c->pitch, -89.0f, 89.0f, "%.1f deg");
	changed |= slider_float("distance", &c->distance, 1.0f * app->length_unit,
	                              400.0f * app->length_unit, "%.1f", ImGuiSliderFlags_Logarithmic);
	changed |= slider_float("fov", &c->fov, 5.0f, 120.0f, "%.0f deg");
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
		"W               3D liquid: spray and foam on or off\n"
		"wheel           pointer size\n"
		"Tab             hide this panel");
}

/* The stats box is a strip of STATS_LINES lines above the view, across its width: the view is
 * fitted below it (viewer_update_view), so it never covers the tank. */
#define STATS_LINES 3

extern "C" float viewer_panel_stats_height(void)
{
	if (!panel_ready) return 0.0f;
	const ImGuiIO& io = ImGui::GetIO();
	const ImGuiStyle& style = ImGui::GetStyle();
	/* the default font (13 px) until the atlas is built by the first frame */
	float font = (io.Fonts->Fonts.Size > 0 ? io.Fonts->Fonts[0]->FontSize : 13.0f) * io.FontGlobalScale;
	return STATS_LINES * font + (STATS_LINES - 1) * style.ItemSpacing.y + 2.0f * style.WindowPadding.y;
}

static void stats_overlay(viewer_app* app)
{
	const viewer_view* v = &app->view;
	float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
	ImGui::SetNextWindowPos(ImVec2((float)v->viewport_x / ratio, 0.0f));
	ImGui::SetNextWindowSize(ImVec2((float)v->viewport_width / ratio, viewer_panel_stats_height()));
	ImGui::SetNextWindowBgAlpha(0.55f);
	ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
	                         ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
	                         ImGuiWindowFlags_NoInputs;
	if (ImGui::Begin("stats", nullptr, flags)) {
		const viewer_timing* t = &app->timing;
		const pdl_profile* p = &t->profile;
		pdl_world_def def = pdl_world_get_def(app->scene.world);
		ImGui::Text("%.1f fps   %s%s   %d particles, %d threads, %d substeps   draw %.2f ms",
		            t->display_fps, app->scene.name, app->paused ? " (paused)" : "",
		            pdl_world_particle_count(app->scene.world), pdl_world_thread_count(app->scene.world),
		            def.substeps, t->render_ms);
		if (app->gpu_timer != NULL) {
			/* the GPU's own time, which on a real GPU draw (the CPU's side) does not show */
			ImGui::SameLine();
			ImGui::Text("  gpu %.2f ms", viewer_gpu_timer_recent_ms(app->gpu_timer));
		}
		if (app->render.contours) {
			ImGui::SameLine();
			ImGui::Text("  contours %.2f ms", viewer_renderer_contour_ms(app->renderer));
		}
		ImGui::Text("step %.2f ms (%.0f steps/s possible):  forces %.2f  density %.2f  predict %.2f",
		            t->step_ms, t->steps_per_second, p->forces, p->density, p->predict);
		ImGui::Text("springs %.2f  relax %.2f  boundaries %.2f  bodies %.2f  velocity %.2f", p->springs,
		            p->relax, p->boundaries, p->bodies, p->velocity);
		/* pdl_profile.stalled: the step waited, asleep, for solver threads that had no core (other
		 * programs, or more threads than cores); a tenth of the step is past scheduling noise */
		if (p->stalled > 0.1f * p->step) {
			ImGui::SameLine();
			ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "  starved: %.0f%% of the step waiting for cores",
			                   100.0f * p->stalled / p->step);
		}
		/* the fallback (main.c) drew a cheaper look because a frame took too long to draw */
		if (app->fallback.changes > 0) {
			ImGui::SameLine();
			ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "  slow drawing: %s", app->fallback.look);
		}
		layout.stats_min = ImGui::GetWindowPos();
		layout.stats_max = ImVec2(layout.stats_min.x + ImGui::GetWindowWidth(),
		                          layout.stats_min.y + ImGui::GetWindowHeight());
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
	layout.panel_shown = app->show_panel;
	layout.stats_shown = app->show_stats;
	layout.slider_count = 0;

	if (app->show_panel) {
		const viewer_view* v = &app->view;
		float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
		float x = (float)(v->viewport_x + v->viewport_width) / ratio;
		ImGui::SetNextWindowPos(ImVec2(x, 0.0f));
		ImGui::SetNextWindowSize(ImVec2((float)v->window_width - x, (float)v->window_height));
		ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
		                         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
		if (ImGui::Begin("puddle  (Tab hides)", nullptr, flags)) {
			/* sliders end where the widest label begins (measured; grows as labels appear) */
			if (widest_label == 0.0f) note_label("stick distance / h");
			layout.label_column = widest_label + ImGui::GetStyle().ItemInnerSpacing.x;
			ImGui::PushItemWidth(-layout.label_column);
			scene_section(app);
			if (ImGui::CollapsingHeader("render", ImGuiTreeNodeFlags_DefaultOpen)) render_section(app);
			if (ImGui::CollapsingHeader("solver", ImGuiTreeNodeFlags_DefaultOpen)) {
				world_section(app, &auto_substeps);
			}
			if (ImGui::CollapsingHeader("bodies", ImGuiTreeNodeFlags_DefaultOpen)) bodies_section(app);
			if (ImGui::CollapsingHeader("materials", ImGuiTreeNodeFlags_DefaultOpen)) {
				material_section(app);
			}
			/* the mouse moves the camera; its numbers are there to read or type */
			if (app->three_d && ImGui::CollapsingHeader("3D camera")) {
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
			layout.content_end_y = ImGui::GetCursorPosY();
			layout.scroll_max_y = ImGui::GetScrollMaxY();
			layout.panel_min = ImGui::GetWindowPos();
			layout.panel_max = ImVec2(layout.panel_min.x + ImGui::GetWindowWidth(),
			                          layout.panel_min.y + ImGui::GetWindowHeight());
		}
		ImGui::End();
	}
	if (app->show_stats) stats_overlay(app);

	ImGui::Render();
	ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
	return camera_changed;
}

/* The tank's rectangle on screen, window points: the 2D view's world box, or the 3D box's eight
 * corners projected. False when a corner is behind the camera. */
static bool tank_rect(const viewer_app* app, ImVec2* lo, ImVec2* hi)
{
	const viewer_view* v = &app->view;
	float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
	*lo = ImVec2(1e30f, 1e30f);
	*hi = ImVec2(-1e30f, -1e30f);
	for (int corner = 0; corner < (app->three_d ? 8 : 4); ++corner) {
		float px, py;
		if (app->three_d) {
			pdl_vec3 p = {(corner & 1) ? app->bounds3_max.x : app->bounds3_min.x,
			              (corner & 2) ? app->bounds3_max.y : app->bounds3_min.y,
			              (corner & 4) ? app->bounds3_max.z : app->bounds3_min.z};
			if (!viewer_view3d_world_to_pixel(app, p, &px, &py)) return false;
		} else {
			pdl_vec2 p = {(corner & 1) ? v->world_max.x : v->world_min.x,
			              (corner & 2) ? v->world_max.y : v->world_min.y};
			viewer_view_world_to_pixel(v, p, &px, &py);
		}
		*lo = ImVec2(fminf(lo->x, px / ratio), fminf(lo->y, py / ratio));
		*hi = ImVec2(fmaxf(hi->x, px / ratio), fmaxf(hi->y, py / ratio));
	}
	return true;
}

static void write_rect(FILE* f, const char* name, ImVec2 lo, ImVec2 hi, const char* end)
{
	fprintf(f, "\"%s\": [%.2f, %.2f, %.2f, %.2f]%s", name, lo.x, lo.y, hi.x, hi.y, end);
}

extern "C" bool viewer_panel_write_layout(const viewer_app* app, const char* path)
{
	FILE* f = fopen(path, "w");
	if (f == NULL) return false;
	const viewer_view* v = &app->view;
	float ratio = v->pixel_ratio > 0 ? v->pixel_ratio : 1.0f;
	fprintf(f, "{\n  \"window\": [%d, %d],\n  \"pixel_ratio\": %.4f,\n  \"ui_scale\": %.4f,\n",
	        v->window_width, v->window_height, ratio, panel_ready ? ImGui::GetIO().FontGlobalScale : 0.0f);
	fprintf(f, "  ");
	write_rect(f, "viewport", ImVec2((float)v->viewport_x / ratio, (float)v->viewport_y / ratio),
	           ImVec2((float)(v->viewport_x + v->viewport_width) / ratio,
	                  (float)(v->viewport_y + v->viewport_height) / ratio), ",\n");
	ImVec2 lo, hi;
	bool tank = tank_rect(app, &lo, &hi);
	fprintf(f, "  ");
	if (tank) write_rect(f, "tank", lo, hi, ",\n");
	else fprintf(f, "\"tank\": null,\n");
	fprintf(f, "  \"panel_shown\": %s,\n  ", layout.panel_shown ? "true" : "false");
	write_rect(f, "panel", layout.panel_min, layout.panel_max, ",\n");
	fprintf(f, "  \"panel_content_end_y\": %.2f,\n  \"panel_scroll_max_y\": %.2f,\n"
	        "  \"label_column\": %.2f,\n", layout.content_end_y, layout.scroll_max_y, layout.label_column);
	fprintf(f, "  \"stats_shown\": %s,\n  ", layout.stats_shown ? "true" : "false");
	write_rect(f, "stats", layout.stats_min, layout.stats_max, ",\n");
	fprintf(f, "  \"sliders\": [");
	for (int i = 0; i < layout.slider_count; ++i) {
		const slider_layout* s = &layout.sliders[i];
		fprintf(f, "%s\n    {\"label\": \"%s\", \"value\": \"%s\", ", i ? "," : "", s->label, s->value);
		write_rect(f, "frame", s->frame_min, s->frame_max, ", ");
		write_rect(f, "grab", s->grab_min, s->grab_max, ", ");
		write_rect(f, "text", s->text_min, s->text_max, "}");
	}
	fprintf(f, "%s]\n}\n", layout.slider_count ? "\n  " : "");
	return fclose(f) == 0;
}
