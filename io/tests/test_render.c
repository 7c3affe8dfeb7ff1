/* Pictures: the blobs PNG is not blank and has fluid exactly where the particles are; the
 * picture is the same for any thread count; the PNG decodes to the rendered pixels. */
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
	char path[256], err[512];
	snprintf(path, sizeof path, "/tmp/puddle_test_%ld.png", (long)getpid());
	ENSURE_MSG(pdl_png_write(path, rgb, 64, 48, err, sizeof err), "%s", err);
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
	ENSURE(!pdl_png_write("/nonexistent/x.png", rgb, 64, 48, err, sizeof err));
	remove(path);
	pdl_renderer_destroy(r);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

int main(void)
{
	RUN_TEST(test_fluid_where_particles_are);
	RUN_TEST(test_threads_same_picture);
	RUN_TEST(test_png_decodes_to_pixels);
	return TEST_SUMMARY();
}
