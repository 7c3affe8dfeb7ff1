/* puddle-view: scripted input, for tests and demos without a person at the mouse.
 *
 * A script is a text file, one event a line, run on the frame clock (with --script each frame
 * takes exactly one step unless paused):
 *
 *     # frame event     arguments          (positions in world units, y up)
 *     0       move      10 5               # the mouse moves to (10, 5)
 *     30      press     left  -12 8        # left button down at (-12, 8)
 *     90      release   left
 *     100     key       c                  # press and release C (SDL key names)
 *     105     key       shift+c            # ... with shift held (the event's modifiers)
 *     120     keydown   e                  # hold E ...
 *     140     keyup     e                  # ... and let go
 *     150     resize    900 600            # the window is resized to 900 x 600 points
 *     160     orbit     30 -10             # a right-button drag turning the camera 30 degrees
 *                                          # of yaw and -10 of pitch (3D)
 *     170     wheel     2                  # two wheel clicks up (3D: zoom in)
 *
 * In a 3D world a screen point has no single world point, so positions are the viewport's
 * normalized coordinates instead: x and y in [-1, 1], y up, (0, 0) its centre.
 *
 * Every line becomes the SDL event a person's hand would make, pushed into SDL's own queue
 * with the position converted to window points, so a script tests the same code a user drives.
 *
 * SPDX-License-Identifier: MIT */
#include "frontend.h"

#include <SDL.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum script_kind {
	SCRIPT_MOVE,
	SCRIPT_PRESS,
	SCRIPT_RELEASE,
	SCRIPT_KEY,
	SCRIPT_KEY_DOWN,
	SCRIPT_KEY_UP,
	SCRIPT_RESIZE,
	SCRIPT_ORBIT,
	SCRIPT_WHEEL,
} script_kind;

typedef struct script_event {
	long long frame;
	script_kind kind;
	int button;       /* SDL_BUTTON_LEFT, ... */
	SDL_Keycode key;
	Uint16 modifiers; /* KMOD_LSHIFT for "shift+KEY" */
	bool has_position;
	pdl_vec2 position; /* world units */
	int width, height; /* resize, window points */
	float yaw, pitch;  /* orbit, degrees */
	int wheel;         /* wheel clicks, up > 0 */
	int line;
} script_event;

struct viewer_script {
	script_event* events;
	int count, capacity;
	int next;
};

static int parse_button(const char* word)
{
	if (strcmp(word, "left") == 0) return SDL_BUTTON_LEFT;
	if (strcmp(word, "right") == 0) return SDL_BUTTON_RIGHT;
	if (strcmp(word, "middle") == 0) return SDL_BUTTON_MIDDLE;
	return 0;
}

static bool parse_line(char* text, script_event* ev, char* why, size_t why_size)
{
	char verb[32], arg[64];
	float x, y;
	int used = 0;
	if (sscanf(text, "%lld %31s%n", &ev->frame, verb, &used) != 2) {
		snprintf(why, why_size, "expected '<frame> <event> ...'");
		return false;
	}
	if (ev->frame < 0) {
		snprintf(why, why_size, "frame must be >= 0");
		return false;
	}
	const char* rest = text + used;
	if (strcmp(verb, "move") == 0) {
		if (sscanf(rest, "%f %f", &x, &y) != 2) {
			snprintf(why, why_size, "move needs X Y");
			return false;
		}
		ev->kind = SCRIPT_MOVE;
		ev->has_position = true;
		ev->position = (pdl_vec2){x, y};
		return true;
	}
	if (strcmp(verb, "press") == 0 || strcmp(verb, "release") == 0) {
		int n = sscanf(rest, "%63s %f %f", arg, &x, &y);
		ev->kind = verb[0] == 'p' ? SCRIPT_PRESS : SCRIPT_RELEASE;
		ev->button = n >= 1 ? parse_button(arg) : 0;
		if (ev->button == 0 || n == 2) {
			snprintf(why, why_size, "%s needs left|right|middle and optionally X Y", verb);
			return false;
		}
		ev->has_position = n == 3;
		ev->position = (pdl_vec2){n == 3 ? x : 0, n == 3 ? y : 0};
		return true;
	}
	if (strcmp(verb, "key") == 0 || strcmp(verb, "keydown") == 0 || strcmp(verb, "keyup") == 0) {
		if (sscanf(rest, "%63s", arg) != 1) {
			snprintf(why, why_size, "%s needs a key name", verb);
			return false;
		}
		const char* name = arg;
		if (SDL_strncasecmp(name, "shift+", 6) == 0 && name[6] != '\0') {
			ev->modifiers = KMOD_LSHIFT;
			name += 6;
		}
		ev->key = SDL_GetKeyFromName(name);
		if (ev->key == SDLK_UNKNOWN) {
			snprintf(why, why_size, "unknown key '%s'", arg);
			return false;
		}
		ev->kind = strcmp(verb, "key") == 0       ? SCRIPT_KEY
		           : strcmp(verb, "keydown") == 0 ? SCRIPT_KEY_DOWN
		                                          : SCRIPT_KEY_UP;
		return true;
	}
	if (strcmp(verb, "resize") == 0) {
		if (sscanf(rest, "%d %d", &ev->width, &ev->height) != 2 || ev->width < 64 ||
		    ev->height < 64 || ev->width > 16384 || ev->height > 16384) {
			snprintf(why, why_size, "resize needs a width and height in [64, 16384]");
			return false;
		}
		ev->kind = SCRIPT_RESIZE;
		return true;
	}
	if (strcmp(verb, "orbit") == 0) {
		if (sscanf(rest, "%f %f", &ev->yaw, &ev->pitch) != 2 || !(fabsf(ev->yaw) <= 3600.0f) ||
		    !(fabsf(ev->pitch) <= 3600.0f)) {
			snprintf(why, why_size, "orbit needs YAW PITCH in degrees (each within +-3600)");
			return false;
		}
		ev->kind = SCRIPT_ORBIT;
		return true;
	}
	if (strcmp(verb, "wheel") == 0) {
		if (sscanf(rest, "%d", &ev->wheel) != 1 || ev->wheel < -100 || ev->wheel > 100) {
			snprintf(why, why_size, "wheel needs a number of clicks in [-100, 100]");
			return false;
		}
		ev->kind = SCRIPT_WHEEL;
		return true;
	}
	snprintf(why, why_size,
	         "unknown event '%s' (move, press, release, key, keydown, keyup, resize, orbit, "
	         "wheel)",
	         verb);
	return false;
}

viewer_script* viewer_script_load(const char* path, char* err, int err_size)
{
	FILE* f = fopen(path, "r");
	if (f == NULL) {
		snprintf(err, (size_t)err_size, "%s: cannot open", path);
		return NULL;
	}
	viewer_script* s = calloc(1, sizeof *s);
	if (s == NULL) {
		fclose(f);
		snprintf(err, (size_t)err_size, "out of memory");
		return NULL;
	}
	char text[512];
	int line = 0;
	long long last_frame = 0;
	while (fgets(text, sizeof text, f) != NULL) {
		++line;
		char* hash = strchr(text, '#');
		if (hash != NULL) *hash = '\0';
		char* p = text;
		while (*p == ' ' || *p == '\t') ++p;
		if (*p == '\0' || *p == '\n' || *p == '\r') continue;
		script_event ev = {0};
		ev.line = line;
		char why[160];
		bool ok = parse_line(p, &ev, why, sizeof why);
		if (ok && ev.frame < last_frame) {
			snprintf(why, sizeof why, "frames must not decrease (%lld after %lld)", ev.frame,
			         last_frame);
			ok = false;
		}
		if (!ok) {
			snprintf(err, (size_t)err_size, "%s:%d: %s", path, line, why);
			fclose(f);
			viewer_script_destroy(s);
			return NULL;
		}
		last_frame = ev.frame;
		if (s->count == s->capacity) {
			int capacity = s->capacity ? 2 * s->capacity : 64;
			script_event* grown = realloc(s->events, (size_t)capacity * sizeof *grown);
			if (grown == NULL) {
				snprintf(err, (size_t)err_size, "out of memory");
				fclose(f);
				viewer_script_destroy(s);
				return NULL;
			}
			s->events = grown;
			s->capacity = capacity;
		}
		s->events[s->count++] = ev;
	}
	fclose(f);
	return s;
}

void viewer_script_destroy(viewer_script* s)
{
	if (s == NULL) return;
	free(s->events);
	free(s);
}

bool viewer_script_done(const viewer_script* s)
{
	return s == NULL || s->next >= s->count;
}

static void push_motion(viewer_app* app, float x, float y)
{
	SDL_Event e;
	SDL_zero(e);
	e.type = SDL_MOUSEMOTION;
	e.motion.windowID = SDL_GetWindowID(app->window);
	e.motion.x = (Sint32)x;
	e.motion.y = (Sint32)y;
	e.motion.xrel = (Sint32)(x - app->input.mouse_x);
	e.motion.yrel = (Sint32)(y - app->input.mouse_y);
	SDL_PushEvent(&e);
}

/* A motion from (x0, y0) to (x1, y1), window points, whatever the mouse's last position. */
static void push_motion_from(viewer_app* app, float x0, float y0, float x1, float y1)
{
	SDL_Event e;
	SDL_zero(e);
	e.type = SDL_MOUSEMOTION;
	e.motion.windowID = SDL_GetWindowID(app->window);
	e.motion.x = (Sint32)x1;
	e.motion.y = (Sint32)y1;
	e.motion.xrel = (Sint32)(x1 - x0);
	e.motion.yrel = (Sint32)(y1 - y0);
	SDL_PushEvent(&e);
}

static void push_button(viewer_app* app, bool down, int button, float x, float y)
{
	SDL_Event e;
	SDL_zero(e);
	e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
	e.button.windowID = SDL_GetWindowID(app->window);
	e.button.button = (Uint8)button;
	e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
	e.button.clicks = 1;
	e.button.x = (Sint32)x;
	e.button.y = (Sint32)y;
	SDL_PushEvent(&e);
}

/* A key event carrying its modifiers in keysym.mod (SDL's own modifier state follows only the
 * real keyboard, so the viewer reads the event's too). */
static void push_key(viewer_app* app, bool down, SDL_Keycode key, Uint16 modifiers)
{
	SDL_Event e;
	SDL_zero(e);
	e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
	e.key.windowID = SDL_GetWindowID(app->window);
	e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
	e.key.keysym.sym = key;
	e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
	e.key.keysym.mod = modifiers;
	SDL_PushEvent(&e);
}

void viewer_script_push_due(viewer_script* s, viewer_app* app, long long frame)
{
	if (s == NULL) return;
	while (s->next < s->count && s->events[s->next].frame <= frame) {
		const script_event* ev = &s->events[s->next++];
		float x = app->input.mouse_x, y = app->input.mouse_y;
		if (ev->has_position) {
			if (app->three_d) viewer_view3d_ndc_to_window(&app->view, ev->position.x, ev->position.y, &x, &y);
			else viewer_view_world_to_window(&app->view, ev->position, &x, &y);
			/* a person's hand moves to a spot before pressing there */
			if (ev->kind != SCRIPT_MOVE) push_motion(app, x, y);
		}
		switch (ev->kind) {
		case SCRIPT_MOVE:
			push_motion(app, x, y);
			break;
		case SCRIPT_PRESS:
		case SCRIPT_RELEASE:
			push_button(app, ev->kind == SCRIPT_PRESS, ev->button, x, y);
			break;
		case SCRIPT_KEY:
			push_key(app, true, ev->key, ev->modifiers);
			push_key(app, false, ev->key, ev->modifiers);
			break;
		case SCRIPT_KEY_DOWN:
		case SCRIPT_KEY_UP:
			push_key(app, ev->kind == SCRIPT_KEY_DOWN, ev->key, ev->modifiers);
			break;
		case SCRIPT_ORBIT: {
			/* a right-button drag from where the mouse is, by the points that turn the camera
			 * that far (the hand goes back without the button, as a person's would) */
			float dx = -ev->yaw / VIEWER_ORBIT_DEGREES_PER_POINT;
			float dy = ev->pitch / VIEWER_ORBIT_DEGREES_PER_POINT;
			push_button(app, true, SDL_BUTTON_RIGHT, x, y);
			push_motion_from(app, x, y, x + dx, y + dy);
			push_button(app, false, SDL_BUTTON_RIGHT, x + dx, y + dy);
			push_motion_from(app, x + dx, y + dy, x, y);
			break;
		}
		case SCRIPT_WHEEL: {
			SDL_Event e;
			SDL_zero(e);
			e.type = SDL_MOUSEWHEEL;
			e.wheel.windowID = SDL_GetWindowID(app->window);
			e.wheel.y = ev->wheel;
			e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
			SDL_PushEvent(&e);
			break;
		}
		case SCRIPT_RESIZE:
			/* what dragging the window's edge does; the window system answers with a size
			 * event, as it would for a person */
			SDL_SetWindowSize(app->window, ev->width, ev->height);
			break;
		}
	}
}
