/* Pictures: the blobs PNG is not blank and has fluid exactly where the particles are; the
 * picture is the same for any thread count; the PNG decodes to the rendered pixels; rigid
 * bodies are drawn over the fluid in their colours with a darker outline. */
#include "test.h"

#include "puddle/image.h"
#include "puddle/render.h"
#include "puddle/scene.h"

#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pdl_world* blobs_after(pdl_scene** scene, long long frames)
{
	pdl_scene* s = pdl_scene_load(PUDDLE_SCENES_DIR "/blobs.json", NULL);
	if (!s) return NULL;
	s->world.threads = 2;
	pdl_world* w = pdl_scene_build_world(s, NULL);
	for (long long f = 0; w && f < frames; ++f) {
		pdl_scene_apply_frame(s, w, f, NULL);
		pdl_world_step(w);
	}
	*scene = s;
	return w;
}

static void test_fluid_where_particles_are(void)
{
	pdl_scene* s = NULL;
	pdl_world* w = blobs_after(&s, 120);
	ENSURE(w);
	pdl_render_def d = pdl_render_def_from_scene(s);
	d.width = d.height = 240;
	pdl_renderer* r = pdl_renderer_create(&d);
	ENSURE(r);
	const uint8_t* rgb = pdl_render(r, w);
	ENSURE(rgb);
	/* every particle's pixel is inside the surface and drawn in the fluid's colour */
	pdl_particle_data p = pdl_world_particles(w);
	int fluid_pixels = 0;
	for (int i = 0; i < p.count; ++i) {
		pdl_vec2 px = pdl_render_to_pixel(r, (pdl_vec2){p.x[i], p.y[i]});
		int x = (int)px.x, y = (int)px.y;
		ENSURE_MSG(pdl_render_field(r, x, y) >= d.threshold, "particle %d at pixel %d,%d: field %g", i, x, y,
		           pdl_render_field(r, x, y));
		/* the container wall is drawn over the fluid: leave out particles touching it */
		if (hypotf(p.x[i] - s->container.position.x, p.y[i] - s->container.position.y) > s->container.radius - 0.3f)
			continue;
		const uint8_t* c = rgb + 3 * ((size_t)y * 240 + (size_t)x);
		/* blue water: blue channel well above red, as #2a7fd4 shaded */
		ENSURE_MSG(c[2] > c[0] + 60 && c[2] > 100, "pixel %d,%d is %d,%d,%d", x, y, c[0], c[1], c[2]);
	}
	/* and no fluid far from every particle: the top of the container is empty after 2 s */
	for (int y = 0; y < 240; ++y)
		for (int x = 0; x < 240; ++x) {
			float field = pdl_render_field(r, x, y);
			if (field >= d.threshold) fluid_pixels++;
		}
	ENSURE(pdl_render_field(r, 120, 40) == 0.0f);
	/* not blank: the fluid covers a sizeable share of the picture */
	ENSURE_MSG(fluid_pixels > 240 * 240 / 10, "%d fluid pixels", fluid_pixels);
	pdl_renderer_destroy(r);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

static void test_threads_same_picture(void)
{
	pdl_scene* s = NULL;
	pdl_world* w = blobs_after(&s, 30);
	ENSURE(w);
	pdl_render_def d = pdl_render_def_from_scene(s);
	d.width = 200, d.height = 150;
	uint8_t* pictures[3];
	int threads[3] = {1, 3, 16};
	for (int t = 0; t < 3; ++t) {
		d.threads = threads[t];
		d.color_mode = t == 2 ? PDL_COLOR_SPEED : PDL_COLOR_MATERIAL;
		pdl_renderer* r = pdl_renderer_create(&d);
		ENSURE(r);
		pictures[t] = malloc(200 * 150 * 3);
		memcpy(pictures[t], pdl_render(r, w), 200 * 150 * 3);
		pdl_renderer_destroy(r);
	}
	ENSURE(memcmp(pictures[0], pictures[1], 200 * 150 * 3) == 0);
	ENSURE(memcmp(pictures[0], pictures[2], 200 * 150 * 3) != 0); /* speed colours differ */
	for (int t = 0; t < 3; ++t) free(pictures[t]);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

static void test_png_decodes_to_pixels(void)
{
	pdl_scene* s = NULL;
	pdl_world* w = blobs_after(&s, 10);
	ENSURE(w);
	pdl_render_def d = pdl_render_def_from_scene(s);
	d.width = 64, d.height = 48;
	pdl_renderer* r = pdl_renderer_create(&d);
	const uint8_t* rgb = pdl_render(r, w);
	char path[256];
	pdl_error err;
	snprintf(path, sizeof path, "/tmp/puddle_test_%ld.png", (long)getpid());
	ENSURE_MSG(pdl_png_write(path, rgb, 64, 48, &err), "%s", err.message);
	png_image image;
	memset(&image, 0, sizeof image);
	image.version = PNG_IMAGE_VERSION;
	ENSURE(png_image_begin_read_from_file(&image, path));
	ENSURE(image.width == 64 && image.height == 48);
	image.format = PNG_FORMAT_RGB;
	uint8_t* back = malloc(PNG_IMAGE_SIZE(image));
	ENSURE(png_image_finish_read(&image, NULL, back, 0, NULL));
	ENSURE(memcmp(back, rgb, 64 * 48 * 3) == 0);
	free(back);
	ENSURE(!pdl_png_write("/nonexistent/x.png", rgb, 64, 48, &err));
	remove(path);
	pdl_renderer_destroy(r);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* ---- bodies ------------------------------------------------------------------------------------ */

#define BOX_COLOR 0xd03030u
#define CIRCLE_COLOR 0x30c040u
#define POLYGON_COLOR 0xe0c020u

static bool same_color(const uint8_t* c, uint32_t rgb)
{
	return c[0] == ((rgb >> 16) & 255) && c[1] == ((rgb >> 8) & 255) && c[2] == (rgb & 255);
}

/* A tank with a layer of water particles set by hand (no step, so the picture is exact) and
 * three bodies standing in it: a turned box, a circle and a triangle, each over the water. */
static pdl_world* bodies_world(pdl_body_id ids[3])
{
	pdl_world_def wd = pdl_default_world_def();
	wd.threads = 1;
	pdl_world* w = pdl_world_create(&wd, NULL);
	pdl_material_def water = pdl_default_material_def();
	water.color = 0x2a7fd4;
	pdl_world_add_material(w, &water, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER, tank.half_extents = (pdl_vec3){10, 6, 0};
	pdl_world_add_boundary(w, &tank, NULL);
	enum { COLS = 38, ROWS = 12, N = COLS * ROWS };
	static float x[N], y[N], zero[N];
	static uint8_t material[N];
	for (int i = 0; i < N; ++i) x[i] = -9.25f + 0.5f * (float)(i % COLS), y[i] = -5.5f + 0.5f * (float)(i / COLS);
	pdl_particle_data data = {.count = N, .x = x, .y = y, .vx = zero, .vy = zero, .material = material};
	if (pdl_world_set_particles(w, &data, NULL) != PDL_OK) return NULL;
	pdl_body_def d = pdl_default_body_def();
	d.position = (pdl_vec3){-5, -3, 0}, d.half_extents = (pdl_vec3){2, 1, 0}, d.angle = 0.4f, d.color = BOX_COLOR;
	ids[0] = pdl_world_add_body(w, &d, NULL);
	d = pdl_default_body_def();
	d.shape = PDL_BODY_CIRCLE, d.position = (pdl_vec3){1, -3, 0}, d.radius = 1.5f, d.angle = 1.0f, d.color = CIRCLE_COLOR;
	ids[1] = pdl_world_add_body(w, &d, NULL);
	d = pdl_default_body_def();
	d.shape = PDL_BODY_POLYGON, d.position = (pdl_vec3){6, -3, 0}, d.color = POLYGON_COLOR;
	d.vertex_count = 3;
	d.vertices[0] = (pdl_vec2){-2, -1.5f}, d.vertices[1] = (pdl_vec2){2, -1.5f}, d.vertices[2] = (pdl_vec2){0, 1.5f};
	ids[2] = pdl_world_add_body(w, &d, NULL);
	for (int k = 0; k < 3; ++k)
		if (ids[k].index < 0) return NULL;
	return w;
}

static pdl_render_def bodies_render_def(int threads)
{
	pdl_render_def d;
	memset(&d, 0, sizeof d);
	d.width = 420, d.height = 252, d.threads = threads;
	d.view_min = (pdl_vec2){-10.5f, -6.3f}, d.view_max = (pdl_vec2){10.5f, 6.3f};
	d.color_mode = PDL_COLOR_MATERIAL;
	d.blob_radius = 1, d.threshold = 0.5f;
	d.background = 0x10161f, d.wall_color = 0x2b3440, d.obstacle_color = 0x6b7686;
	d.material_colors[0] = 0x2a7fd4;
	return d;
}

static void test_bodies_drawn_2d(void)
{
	pdl_body_id ids[3];
	pdl_world* w = bodies_world(ids);
	ENSURE(w);
	pdl_render_def d = bodies_render_def(1);
	pdl_renderer* r = pdl_renderer_create(&d);
	ENSURE(r);
	const uint8_t* rgb = pdl_render(r, w);
	ENSURE(rgb);
	const uint32_t colors[3] = {BOX_COLOR, CIRCLE_COLOR, POLYGON_COLOR};
	for (int k = 0; k < 3; ++k) {
		pdl_body_def b;
		ENSURE(pdl_world_get_body(w, ids[k], &b));
		/* the water is under every body: the field says fluid at its centre ... */
		pdl_vec2 c = pdl_render_to_pixel(r, (pdl_vec2){b.position.x, b.position.y});
		ENSURE_MSG(pdl_render_field(r, (int)c.x, (int)c.y) >= d.threshold, "body %d: no water under it", k);
		/* ... and the body is drawn over it, in its own colour, across its inside (for the
		 * circle, off the radius line that shows its turn: below the centre) */
		int filled = 0, tried = 0;
		for (int dy = -4; dy <= 4; ++dy)
			for (int dx = -4; dx <= 4; ++dx, ++tried) {
				int px = (int)c.x + dx, py = (int)c.y + dy + (k == 1 ? 12 : 0);
				filled += same_color(rgb + 3 * ((size_t)py * 420 + (size_t)px), colors[k]);
			}
		ENSURE_MSG(filled == tried, "body %d: %d of %d pixels near its centre in its colour", k, filled, tried);
		/* its outline: walking from the centre out along +x up to the water beyond it, some
		 * pixel is much darker than the body's colour (a blend of body and water is not) */
		int x = (int)c.x, y = (int)c.y + (k == 1 ? 12 : 0), darkest = 255;
		for (; x < 419; ++x) {
			const uint8_t* p = rgb + 3 * ((size_t)y * 420 + (size_t)x);
			if (p[2] > p[0] + 60) break; /* water */
			int brightest = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
			if (brightest < darkest) darkest = brightest;
		}
		uint32_t col = colors[k];
		int own = (int)((col >> 16) & 255) > (int)((col >> 8) & 255) ? (int)((col >> 16) & 255) : (int)((col >> 8) & 255);
		ENSURE_MSG(x < 419 && darkest < own / 2, "body %d: no dark outline (darkest %d, colour %d)", k, darkest, own);
	}
	/* the box's corners are where pdl_body_world_vertices puts them: just inside each, the box;
	 * just outside, not */
	pdl_body_def box;
	pdl_world_get_body(w, ids[0], &box);
	pdl_vec2 v[PDL_MAX_POLYGON_VERTICES];
	ENSURE(pdl_body_world_vertices(&box, v) == 4);
	for (int i = 0; i < 4; ++i) {
		pdl_vec2 in = {box.position.x + 0.85f * (v[i].x - box.position.x), box.position.y + 0.85f * (v[i].y - box.position.y)};
		pdl_vec2 out = {box.position.x + 1.15f * (v[i].x - box.position.x), box.position.y + 1.15f * (v[i].y - box.position.y)};
		pdl_vec2 pi = pdl_render_to_pixel(r, in), po = pdl_render_to_pixel(r, out);
		ENSURE_MSG(same_color(rgb + 3 * ((size_t)pi.y * 420 + (size_t)pi.x), BOX_COLOR), "corner %d: not inside", i);
		const uint8_t* o = rgb + 3 * ((size_t)po.y * 420 + (size_t)po.x);
		ENSURE_MSG(!(o[0] > 150 && o[1] < 80), "corner %d: box colour outside it", i);
	}
	/* the circle's turn: a dark radius from its centre along its angle (1 rad), none opposite */
	pdl_body_def circle;
	pdl_world_get_body(w, ids[1], &circle);
	pdl_vec2 along = pdl_render_to_pixel(r, (pdl_vec2){circle.position.x + 0.8f * cosf(1.0f), circle.position.y + 0.8f * sinf(1.0f)});
	pdl_vec2 opposite = pdl_render_to_pixel(r, (pdl_vec2){circle.position.x - 0.8f * cosf(1.0f), circle.position.y - 0.8f * sinf(1.0f)});
	ENSURE(rgb[3 * ((size_t)along.y * 420 + (size_t)along.x) + 1] < 0xc0 * 6 / 10);
	ENSURE(same_color(rgb + 3 * ((size_t)opposite.y * 420 + (size_t)opposite.x), CIRCLE_COLOR));
	/* the same picture for any thread count */
	uint8_t* one = malloc(420 * 252 * 3);
	memcpy(one, rgb, 420 * 252 * 3);
	pdl_renderer_destroy(r);
	d = bodies_render_def(5);
	r = pdl_renderer_create(&d);
	ENSURE(memcmp(one, pdl_render(r, w), 420 * 252 * 3) == 0);
	/* and without its bodies the picture has no body colour left */
	for (int k = 0; k < 3; ++k) ENSURE(pdl_world_remove_body(w, ids[k], NULL) == PDL_OK);
	rgb = pdl_render(r, w);
	int body_pixels = 0;
	for (size_t i = 0; i < 420 * 252; ++i)
		body_pixels += same_color(rgb + 3 * i, BOX_COLOR) || same_color(rgb + 3 * i, CIRCLE_COLOR) ||
		               same_color(rgb + 3 * i, POLYGON_COLOR);
	ENSURE_MSG(body_pixels == 0, "%d body pixels with no bodies", body_pixels);
	free(one);
	pdl_renderer_destroy(r);
	pdl_world_destroy(w);
}

int main(void)
{
	RUN_TEST(test_fluid_where_particles_are);
	RUN_TEST(test_threads_same_picture);
	RUN_TEST(test_png_decodes_to_pixels);
	RUN_TEST(test_bodies_drawn_2d);
	return TEST_SUMMARY();
}
