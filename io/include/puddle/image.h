/* puddle_io: writing pictures. PNG through libpng; the file is written beside its final name
 * and renamed into place, so a crash or a full disk never leaves a half picture under the name.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_IMAGE_H
#define PUDDLE_IMAGE_H

#include "puddle/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes 8-bit RGB (width * height * 3 bytes, top row first) as PNG. On failure returns false
 * and puts the reason in err (if given). */
bool pdl_png_write(const char* path, const uint8_t* rgb, int width, int height, pdl_error* err);

#ifdef __cplusplus
}
#endif

#endif
