/* puddle-view: GPU time per drawing stage (gpu_timer.h).
 *
 * Each frame in flight owns a row of timestamp queries: one at the start of every stage and
 * one at the end. A row is read back FRAMES_IN_FLIGHT frames later (by then the GPU finished
 * it long ago; if not, reading waits, which only a GPU more than that many frames behind
 * would notice). Timestamps of one context complete in order, so the row's last query being
 * available means all of it is.
 *
 * SPDX-License-Identifier: MIT */
#include "gpu_timer.h"

#include "gl.h"

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>

enum {
	FRAMES_IN_FLIGHT = 4,
	MAX_MARKS = 24,    /* stage marks a frame, the end's included; more are merged */
	WARMUP_FRAMES = 5, /* not counted: shaders compile and targets are made in them */
};

typedef struct frame_row {
	GLuint queries[MAX_MARKS];
	/* the stage that starts at each mark; the last mark ends the frame */
	viewer_gpu_stage stage[MAX_MARKS];
	int marks;
	long long number; /* frames begun before this one */
	bool pending;     /* ended, not yet read */
} frame_row;

struct viewer_gpu_timer {
	PFNGLGENQUERIESPROC gen_queries;
	PFNGLDELETEQUERIESPROC delete_queries;
	PFNGLQUERYCOUNTERPROC query_counter;
	PFNGLGETQUERYOBJECTIVPROC get_query_objectiv;
	PFNGLGETQUERYOBJECTUI64VPROC get_query_objectui64v;

	frame_row rows[FRAMES_IN_FLIGHT];
	int current;
	bool in_frame;
	long long begun;

	long long measured;
	double frame_ms_sum;
	double stage_ms_sum[VIEWER_GPU_STAGE_COUNT];
	double recent_ms;
};

const char* viewer_gpu_stage_name(viewer_gpu_stage stage)
{
	static const char* const names[VIEWER_GPU_STAGE_COUNT] = {
		"scene", "particles", "depth", "thickness", "smooth", "shade", "foam", "panel"};
	return (unsigned)stage < VIEWER_GPU_STAGE_COUNT ? names[stage] : "?";
}

/* Entry points outside gl.h's table: the timer is optional, the viewer runs without it. */
static bool load(void* function, const char* name)
{
	void* address = SDL_GL_GetProcAddress(name);
	if (address != NULL) SDL_memcpy(function, &address, sizeof address);
	return address != NULL;
}

viewer_gpu_timer* viewer_gpu_timer_create(char* err, int err_size)
{
	viewer_gpu_timer* t = calloc(1, sizeof *t);
	if (t == NULL) {
		snprintf(err, (size_t)err_size, "out of memory");
		return NULL;
	}
	PFNGLGETQUERYIVPROC get_queryiv = NULL;
	if (!load(&t->gen_queries, "glGenQueries") || !load(&t->delete_queries, "glDeleteQueries") ||
	    !load(&t->query_counter, "glQueryCounter") ||
	    !load(&t->get_query_objectiv, "glGetQueryObjectiv") ||
	    !load(&t->get_query_objectui64v, "glGetQueryObjectui64v") ||
	    !load(&get_queryiv, "glGetQueryiv")) {
		snprintf(err, (size_t)err_size, "no timestamp queries (ARB_timer_query)");
		free(t);
		return NULL;
	}
	GLint bits = 0;
	get_queryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
	if (bits == 0) {
		snprintf(err, (size_t)err_size, "the GPU's timestamp counter has no bits");
		free(t);
		return NULL;
	}
	for (int i = 0; i < FRAMES_IN_FLIGHT; ++i) t->gen_queries(MAX_MARKS, t->rows[i].queries);
	return t;
}

void viewer_gpu_timer_destroy(viewer_gpu_timer* t)
{
	if (t == NULL) return;
	for (int i = 0; i < FRAMES_IN_FLIGHT; ++i) t->delete_queries(MAX_MARKS, t->rows[i].queries);
	free(t);
}

/* Takes in a row's results; false (nothing read) when it has not finished and !wait. */
static bool read_row(viewer_gpu_timer* t, frame_row* row, bool wait)
{
	if (!row->pending) return false;
	if (!wait) {
		GLint available = 0;
		t->get_query_objectiv(row->queries[row->marks - 1], GL_QUERY_RESULT_AVAILABLE, &available);
		if (!available) return false;
	}
	GLuint64 ns[MAX_MARKS];
	for (int i = 0; i < row->marks; ++i)
		t->get_query_objectui64v(row->queries[i], GL_QUERY_RESULT, &ns[i]);
	row->pending = false;
	if (row->number < WARMUP_FRAMES) return true;
	for (int i = 0; i + 1 < row->marks; ++i)
		t->stage_ms_sum[row->stage[i]] += 1e-6 * (double)(ns[i + 1] - ns[i]);
	double frame_ms = 1e-6 * (double)(ns[row->marks - 1] - ns[0]);
	t->frame_ms_sum += frame_ms;
	t->measured += 1;
	t->recent_ms = t->recent_ms == 0 ? frame_ms : t->recent_ms + 0.05 * (frame_ms - t->recent_ms);
	return true;
}

static void mark(viewer_gpu_timer* t, viewer_gpu_stage stage)
{
	frame_row* row = &t->rows[t->current];
	if (row->marks >= MAX_MARKS - 1) return; /* the end's query is kept free */
	t->query_counter(row->queries[row->marks], GL_TIMESTAMP);
	row->stage[row->marks] = stage;
	row->marks += 1;
}

void viewer_gpu_timer_begin_frame(viewer_gpu_timer* t)
{
	if (t == NULL) return;
	frame_row* row = &t->rows[t->current];
	read_row(t, row, true); /* its queries are about to be reused */
	row->marks = 0;
	t->in_frame = true;
	mark(t, VIEWER_GPU_SCENE);
}

void viewer_gpu_timer_stage(viewer_gpu_timer* t, viewer_gpu_stage stage)
{
	if (t == NULL || !t->in_frame) return;
	mark(t, stage);
}

void viewer_gpu_timer_end_frame(viewer_gpu_timer* t)
{
	if (t == NULL || !t->in_frame) return;
	frame_row* row = &t->rows[t->current];
	t->query_counter(row->queries[row->marks], GL_TIMESTAMP);
	row->stage[row->marks] = VIEWER_GPU_STAGE_COUNT;
	row->marks += 1;
	row->number = t->begun++;
	row->pending = true;
	t->in_frame = false;
	t->current = (t->current + 1) % FRAMES_IN_FLIGHT;
	/* the oldest rows first, each as soon as the GPU is done with it */
	for (int i = 0; i < FRAMES_IN_FLIGHT; ++i) {
		frame_row* oldest = &t->rows[(t->current + i) % FRAMES_IN_FLIGHT];
		if (oldest->pending && !read_row(t, oldest, false)) break;
	}
}

viewer_gpu_times viewer_gpu_timer_means(viewer_gpu_timer* t, bool wait)
{
	viewer_gpu_times out = {0};
	if (t == NULL) return out;
	if (wait)
		for (int i = 0; i < FRAMES_IN_FLIGHT; ++i)
			read_row(t, &t->rows[(t->current + i) % FRAMES_IN_FLIGHT], true);
	out.frames = t->measured;
	if (t->measured == 0) return out;
	out.frame_ms = t->frame_ms_sum / (double)t->measured;
	for (int s = 0; s < VIEWER_GPU_STAGE_COUNT; ++s)
		out.stage_ms[s] = t->stage_ms_sum[s] / (double)t->measured;
	return out;
}

double viewer_gpu_timer_recent_ms(const viewer_gpu_timer* t) { return t != NULL ? t->recent_ms : 0; }
