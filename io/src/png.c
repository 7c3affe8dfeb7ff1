/* PNG output through libpng (Debian's libpng-dev). */
#include "puddle/image.h"

#include "atomic_file.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

/* libpng's own handler prints "libpng error: Write Error" before the caller can say which file
 * and why; the caller's message is the one that names both */
static void quiet_error(png_structp png, png_const_charp message)
{
	(void)message;
	png_longjmp(png, 1);
}

/* libpng reports errors by longjmp; everything that must survive it is volatile or outside */
static bool write_rows(FILE* f, const uint8_t* rgb, int width, int height)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, quiet_error, NULL);
	if (!png) return false;
	png_infop info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return false;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return false;
	}
	png_init_io(png, f);
	/* pictures of flat colours compress well and fast at a middle level */
	png_set_compression_level(png, 6);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; ++y) png_write_row(png, (png_const_bytep)(rgb + (size_t)y * (size_t)width * 3));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return true;
}

bool pdl_png_write(const char* path, const uint8_t* rgb, int width, int height, pdl_error* err)
{
	if (!path || !rgb || width < 1 || height < 1) {
		pdl_error_fill(err, PDL_ERR_EXPORT_DATA, path ? path : "(null)", NULL, "nothing to write");
		return false;
	}
	pdl_atomic_file a;
	if (!pdl_atomic_open(&a, path, err)) return false;
	if (!write_rows(a.f, rgb, width, height)) {
		/* a failed write (a full disk) is the usual reason: say it, not "encoding failed" */
		int saved = errno;
		if (ferror(a.f)) pdl_error_fill(err, PDL_ERR_FILE_WRITE, path, NULL, "write failed: %s", strerror(saved));
		else pdl_error_fill(err, PDL_ERR_EXPORT_DATA, path, NULL, "PNG encoding failed");
		pdl_atomic_abort(&a);
		return false;
	}
	return pdl_atomic_commit(&a, err);
}
