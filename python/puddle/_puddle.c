/* puddle._puddle: the Python binding, a thin layer over the public C API (include/puddle/) and
 * the io library (scenes, snapshots, exports, pictures). It adds no physics: World wraps one
 * pdl_world (and the scene it came from, whose emitters and strokes step(n) plays frame by frame
 * as `puddle run` does), definitions are keyword arguments checked against tables of each def
 * struct's fields, and the particle arrays are numpy views of the world's own memory.
 *
 * Views. pdl_world_particles() hands out the world's arrays, which stay where they are until
 * particles are added (the arrays may grow and move). Each view keeps a lease on its world: the
 * world outlives its views, and a call that may add particles while a lease is alive raises
 * BufferError (as a bytearray refuses to resize while exported) instead of leaving a view on
 * freed memory. A step reorders the particles into the world's other buffer (once a substep), so
 * a view taken before a step shows either the new state or the scratch buffer after it: take
 * views again after every change.
 *
 * SPDX-License-Identifier: MIT */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define PY_ARRAY_UNIQUE_SYMBOL puddle_ARRAY_API
/* (the header defines _import_array(), which goes through numpy's table: see np_import) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <numpy/arrayobject.h>
#pragma GCC diagnostic pop

#include "puddle/export.h"
#include "puddle/image.h"
#include "puddle/puddle.h"
#include "puddle/render.h"
#include "puddle/scene.h"
#include "puddle/snapshot.h"
#include "puddle/suggest.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* numpy's C API is a table of function pointers stored as void*: its macros cast object pointers
 * to function pointers, which ISO C leaves undefined and -Wpedantic reports (every compiler that
 * runs Python does it). Every call through the table is in these wrappers, and -Wpedantic is off
 * for them alone. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
static int np_import(void)
{
	import_array1(-1);
	return 0;
}
static PyArrayObject* np_from_any(PyObject* obj, int type, int min_dims, int max_dims, int flags)
{
	return (PyArrayObject*)PyArray_FROMANY(obj, type, min_dims, max_dims, flags);
}
static PyObject* np_new(int nd, npy_intp* shape, int type, void* data)
{
	return PyArray_New(&PyArray_Type, nd, shape, type, NULL, data, 0, 0, NULL);
}
static int np_set_base(PyObject* arr, PyObject* base) { return PyArray_SetBaseObject((PyArrayObject*)arr, base); }
static int np_sort(PyArrayObject* arr) { return PyArray_Sort(arr, 0, NPY_QUICKSORT); }
static PyArrayObject* np_reshape(PyArrayObject* arr, npy_intp* shape, int nd)
{
	PyArray_Dims d = {shape, nd};
	return (PyArrayObject*)PyArray_Newshape(arr, &d, NPY_CORDER);
}
static npy_intp np_size(PyArrayObject* arr) { return PyArray_SIZE(arr); }
#pragma GCC diagnostic pop

static PyObject* PuddleError;
static PyObject* SceneError;
static PyObject* SnapshotError;
static PyObject* ExportError;

/* ---- errors ------------------------------------------------------------------------------ */

static void set_attr(PyObject* obj, const char* name, PyObject* value)
{
	if (value) {
		PyObject_SetAttrString(obj, name, value);
		Py_DECREF(value);
	} else {
		PyErr_Clear();
	}
}

static PyObject* str_or_none(const char* s)
{
	if (s && s[0]) return PyUnicode_FromString(s);
	Py_RETURN_NONE;
}

/* An exception of `type` with message and the attributes every puddle exception carries (their
 * class defaults are None): id (the error's name, "PDL_ERR_MATERIAL_REST_DENSITY"), code (its
 * number), struct and value from e, field and rule as given or else e's id's; or, without e,
 * field and rule alone. */
static PyObject* new_error_object(PyObject* type, const char* message, const pdl_error* e, const char* field,
                                  const char* rule)
{
	PyObject* exc = PyObject_CallFunction(type, "s", message);
	if (!exc) return NULL;
	if (e) {
		set_attr(exc, "id", PyUnicode_FromString(pdl_error_name(e->id)));
		set_attr(exc, "code", PyLong_FromLong((long)e->id));
		set_attr(exc, "struct", PyUnicode_FromString(pdl_error_struct(e->id)));
		if (!field) field = pdl_error_field(e->id);
		if (!rule) rule = pdl_error_rule(e->id);
		if (!isnan(e->value)) set_attr(exc, "value", PyFloat_FromDouble(e->value));
	}
	set_attr(exc, "field", str_or_none(field));
	set_attr(exc, "rule", str_or_none(rule));
	return exc;
}

static PyObject* raise_object(PyObject* type, PyObject* exc)
{
	if (exc) {
		PyErr_SetObject(type, exc);
		Py_DECREF(exc);
	}
	return NULL;
}

static PyObject* raise_error(PyObject* type, const char* message, const pdl_error* e, const char* field,
                             const char* rule)
{
	return raise_object(type, new_error_object(type, message, e, field, rule));
}

static PyObject* raise_core(const pdl_error* e) { return raise_error(PuddleError, e->message, e, NULL, NULL); }

/* A scene refused: id ("PDL_ERR_SCENE_VALUE", ...), field the JSON path, also in path, rule
 * what is wrong; file, and a syntax error's line and column. */
static PyObject* raise_scene(const pdl_error* e)
{
	PyObject* exc = new_error_object(SceneError, e->message, e, e->path, e->rule);
	if (exc) {
		set_attr(exc, "file", str_or_none(e->file));
		set_attr(exc, "path", PyUnicode_FromString(e->path));
		set_attr(exc, "line", PyLong_FromLong(e->line));
		set_attr(exc, "column", PyLong_FromLong(e->column));
	}
	return raise_object(SceneError, exc);
}

/* A file that could not be written (an export, a PNG): id ("PDL_ERR_FILE_OPEN",
 * "PDL_ERR_FILE_WRITE", ...), file the path, rule what failed. ExportError is an OSError too,
 * so `except OSError` still catches it. */
static PyObject* raise_export(const pdl_error* e)
{
	PyObject* exc = new_error_object(ExportError, e->message, e, NULL, e->rule[0] ? e->rule : NULL);
	if (exc) set_attr(exc, "file", str_or_none(e->file));
	return raise_object(ExportError, exc);
}

/* ---- definitions as keyword arguments ------------------------------------------------------ */

typedef enum { FT_FLOAT, FT_INT, FT_COLOR, FT_VEC3, FT_QUAT, FT_ENUM, FT_VERTS, FT_SPIN, FT_SPH } field_type;

typedef struct field {
	const char* name;
	field_type type;
	size_t offset;
	const char* const* names; /* FT_ENUM: the values' names */
	int count;                /* FT_ENUM: how many */
	size_t count_offset;      /* FT_VERTS: the vertex_count field */
} field;

static const char* const solver_names[] = {"clavet", "sph", "dfsph"};
static const char* const backend_names[] = {"cpu", "cuda"};
static const char* const eos_names[] = {"tait", "linear"};
static const char* const pressure_kernel_names[] = {"poly6", "spiky", "wendland"};
static const char* const boundary_names[] = {"circle_container", "box_container", "circle", "box", "polygon"};
static const char* const fill_names[] = {"point", "line", "disc", "box", "spiral"};
static const char* const body_type_names[] = {"dynamic", "kinematic"};
static const char* const body_shape_names[] = {"box", "circle", "polygon"};
static const char* const color_names[] = {"material", "speed", "density", "pressure"};

#define N(a) (int)(sizeof a / sizeof a[0])

/* pdl_sph_def as declared (puddle/fields.h); an enum field's names are <name>_names */
#define PY_I32_FIELD(name) #name, FT_INT, offsetof(pdl_sph_def, name), NULL, 0, 0
#define PY_F32_FIELD(name) #name, FT_FLOAT, offsetof(pdl_sph_def, name), NULL, 0, 0
#define PY_ENUM_FIELD(name) #name, FT_ENUM, offsetof(pdl_sph_def, name), name##_names, N(name##_names), 0
#define SPH_FIELD(A, name, ctype, type, ...) {PY_##type##_FIELD(name)},
static const field sph_fields[] = {PDL_SPH_FIELDS(SPH_FIELD, ~)};
#undef SPH_FIELD

/* The world, boundary, fill and body defs as declared (puddle/fields.h); an enum field's names
 * are <struct>_<field>_names, a polygon's vertices carry their count (vertex_count is no keyword) */
#define pdl_world_def_solver_names solver_names
#define pdl_world_def_backend_names backend_names
#define pdl_boundary_def_kind_names boundary_names
#define pdl_fill_def_shape_names fill_names
#define pdl_body_def_type_names body_type_names
#define pdl_body_def_shape_names body_shape_names
#define PY_DEF_I32(S, name) {#name, FT_INT, offsetof(S, name), NULL, 0, 0},
#define PY_DEF_MATERIAL PY_DEF_I32
#define PY_DEF_F32(S, name) {#name, FT_FLOAT, offsetof(S, name), NULL, 0, 0},
#define PY_DEF_COLOR(S, name) {#name, FT_COLOR, offsetof(S, name), NULL, 0, 0},
#define PY_DEF_VEC3(S, name) {#name, FT_VEC3, offsetof(S, name), NULL, 0, 0},
#define PY_DEF_SPIN(S, name) {#name, FT_SPIN, offsetof(S, name), NULL, 0, 0},
#define PY_DEF_QUAT(S, name) {#name, FT_QUAT, offsetof(S, name), NULL, 0, 0},
#define PY_DEF_ENUM(S, name) {#name, FT_ENUM, offsetof(S, name), S##_##name##_names, N(S##_##name##_names), 0},
#define PY_DEF_VERTICES(S, name) {#name, FT_VERTS, offsetof(S, name), NULL, 0, offsetof(S, vertex_count)},
#define PY_DEF_COUNT(S, name)
#define DEF_FIELD(S, name, ctype, type, ...) PY_DEF_##type(S, name)

static const field world_fields[] = {
	PDL_WORLD_FIELDS(DEF_FIELD, pdl_world_def)
	{"sph", FT_SPH, offsetof(pdl_world_def, sph), NULL, 0, 0},
};

/* pdl_material_def as declared (puddle/fields.h) */
#define PY_F32 FT_FLOAT
#define PY_COLOR FT_COLOR
#define MATERIAL_FIELD(A, name, ctype, type, ...) {#name, PY_##type, offsetof(pdl_material_def, name), NULL, 0, 0},
static const field material_fields[] = {PDL_MATERIAL_FIELDS(MATERIAL_FIELD, ~)};
#undef MATERIAL_FIELD

static const field boundary_fields[] = {PDL_BOUNDARY_FIELDS(DEF_FIELD, pdl_boundary_def)};

static const field fill_fields[] = {PDL_FILL_FIELDS(DEF_FIELD, pdl_fill_def)};

static const field pointer_fields[] = {PDL_POINTER_FIELDS(DEF_FIELD, pdl_pointer)};

static const field body_fields[] = {PDL_BODY_FIELDS(DEF_FIELD, pdl_body_def)};

/* pdl_scene_emitter as declared (puddle/scene_fields.h) */
static const field emitter_fields[] = {PDL_SCENE_EMITTER_FIELDS(DEF_FIELD, pdl_scene_emitter)};


static bool read_floats(PyObject* value, const char* what, const char* name, float* out, int min, int max, int* got)
{
	PyObject* seq = PySequence_Fast(value, "");
	if (!seq) {
		PyErr_Format(PyExc_TypeError, "%s.%s must be a sequence of %d to %d numbers", what, name, min, max);
		return false;
	}
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	if (n < min || n > max) {
		Py_DECREF(seq);
		PyErr_Format(PyExc_ValueError, "%s.%s must have %d to %d numbers, got %zd", what, name, min, max, n);
		return false;
	}
	for (Py_ssize_t i = 0; i < n; ++i) {
		double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
		if (v == -1 && PyErr_Occurred()) {
			Py_DECREF(seq);
			return false;
		}
		out[i] = (float)v;
	}
	Py_DECREF(seq);
	if (got) *got = (int)n;
	return true;
}

static bool set_field(void* def, const field* f, PyObject* value, const char* what, int dims);

static const field* find_field(const field* table, int n, const char* name)
{
	for (int i = 0; i < n; ++i)
		if (strcmp(table[i].name, name) == 0) return &table[i];
	return NULL;
}

/* Sets def's fields from a dict of keyword arguments; unknown names are a TypeError with a
 * "did you mean". */
static bool apply_fields(void* def, const field* table, int n, PyObject* kwargs, const char* what, int dims)
{
	if (!kwargs) return true;
	PyObject *key, *value;
	Py_ssize_t pos = 0;
	while (PyDict_Next(kwargs, &pos, &key, &value)) {
		const char* name = PyUnicode_AsUTF8(key);
		if (!name) return false;
		const field* f = find_field(table, n, name);
		if (!f) {
			const char* names[32];
			for (int i = 0; i < n; ++i) names[i] = table[i].name;
			const char* near = pdl_suggest(name, names, n);
			if (near) PyErr_Format(PyExc_TypeError, "%s has no field '%s' (did you mean '%s'?)", what, name, near);
			else PyErr_Format(PyExc_TypeError, "%s has no field '%s'", what, name);
			return false;
		}
		if (!set_field(def, f, value, what, dims)) return false;
	}
	return true;
}

static bool set_field(void* def, const field* f, PyObject* value, const char* what, int dims)
{
	char* at = (char*)def + f->offset;
	switch (f->type) {
	case FT_FLOAT: {
		double v = PyFloat_AsDouble(value);
		if (v == -1 && PyErr_Occurred()) return false;
		*(float*)at = (float)v;
		return true;
	}
	case FT_INT: {
		long v = PyLong_AsLong(value);
		if (v == -1 && PyErr_Occurred()) return false;
		if (v < INT32_MIN || v > INT32_MAX) {
			PyErr_Format(PyExc_OverflowError, "%s.%s: %ld does not fit an int", what, f->name, v);
			return false;
		}
		*(int*)at = (int)v;
		return true;
	}
	case FT_COLOR: {
		unsigned long v = PyLong_AsUnsignedLong(value);
		if (v == (unsigned long)-1 && PyErr_Occurred()) return false;
		if (v > 0xffffff) {
			PyErr_Format(PyExc_ValueError, "%s.%s must be 0xRRGGBB, got %#lx", what, f->name, v);
			return false;
		}
		*(uint32_t*)at = (uint32_t)v;
		return true;
	}
	case FT_VEC3: {
		float v[3] = {0, 0, 0};
		if (!read_floats(value, what, f->name, v, 2, 3, NULL)) return false;
		*(pdl_vec3*)at = (pdl_vec3){v[0], v[1], v[2]};
		return true;
	}
	case FT_SPIN: /* 2D: a number (about z); 3D: a vector */
		if (PyNumber_Check(value) && !PySequence_Check(value)) {
			double v = PyFloat_AsDouble(value);
			if (v == -1 && PyErr_Occurred()) return false;
			*(pdl_vec3*)at = (pdl_vec3){0, 0, (float)v};
			return true;
		} else {
			float v[3] = {0, 0, 0};
			if (!read_floats(value, what, f->name, v, 3, 3, NULL)) return false;
			*(pdl_vec3*)at = (pdl_vec3){v[0], v[1], v[2]};
			return true;
		}
	case FT_QUAT: {
		float v[4];
		if (!read_floats(value, what, f->name, v, 4, 4, NULL)) return false;
		*(pdl_quat*)at = (pdl_quat){v[0], v[1], v[2], v[3]};
		return true;
	}
	case FT_ENUM: {
		if (PyUnicode_Check(value)) {
			const char* s = PyUnicode_AsUTF8(value);
			if (!s) return false;
			for (int i = 0; i < f->count; ++i)
				if (strcmp(s, f->names[i]) == 0) {
					*(int*)at = i;
					return true;
				}
			/* 3D names of the same shapes, as scene files spell them */
			if ((f->names == fill_names && strcmp(s, "ball") == 0) ||
			    (f->names == body_shape_names && strcmp(s, "sphere") == 0)) {
				*(int*)at = f->names == fill_names ? PDL_FILL_DISC : PDL_BODY_CIRCLE;
				return true;
			}
			if (f->names == boundary_names && (strcmp(s, "sphere") == 0 || strcmp(s, "sphere_container") == 0)) {
				*(int*)at = strcmp(s, "sphere") == 0 ? PDL_BOUNDARY_CIRCLE : PDL_BOUNDARY_CIRCLE_CONTAINER;
				return true;
			}
			PyObject* list = PyUnicode_FromString("");
			for (int i = 0; list && i < f->count; ++i) {
				PyObject* next = PyUnicode_FromFormat("%U%s'%s'", list, i ? ", " : "", f->names[i]);
				Py_DECREF(list);
				list = next;
			}
			if (list) {
				PyErr_Format(PyExc_ValueError, "%s.%s must be one of %U, got '%s'", what, f->name, list, s);
				Py_DECREF(list);
			}
			return false;
		}
		long v = PyLong_AsLong(value);
		if (v == -1 && PyErr_Occurred()) return false;
		*(int*)at = (int)v; /* out-of-range numbers are the core's to refuse, with its error id */
		return true;
	}
	case FT_VERTS: {
		PyObject* seq = PySequence_Fast(value, "");
		if (!seq) {
			PyErr_Format(PyExc_TypeError, "%s.vertices must be a sequence of (x, y) pairs", what);
			return false;
		}
		Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
		if (n > PDL_MAX_POLYGON_VERTICES) {
			Py_DECREF(seq);
			PyErr_Format(PyExc_ValueError, "%s.vertices: at most %d, got %zd", what, PDL_MAX_POLYGON_VERTICES, n);
			return false;
		}
		pdl_vec2* v = (pdl_vec2*)at;
		for (Py_ssize_t i = 0; i < n; ++i) {
			float xy[2];
			if (!read_floats(PySequence_Fast_GET_ITEM(seq, i), what, "vertices[i]", xy, 2, 2, NULL)) {
				Py_DECREF(seq);
				return false;
			}
			v[i] = (pdl_vec2){xy[0], xy[1]};
		}
		Py_DECREF(seq);
		*(int*)((char*)def + f->count_offset) = (int)n;
		return true;
	}
	case FT_SPH:
		if (!PyDict_Check(value)) {
			PyErr_Format(PyExc_TypeError, "%s.sph must be a dict of SPH settings", what);
			return false;
		}
		return apply_fields(at, sph_fields, N(sph_fields), value, "world.sph", dims);
	}
	return false;
}

static PyObject* vec_tuple(const float* v, int n)
{
	PyObject* t = PyTuple_New(n);
	for (int i = 0; t && i < n; ++i) PyTuple_SET_ITEM(t, i, PyFloat_FromDouble(v[i]));
	return t;
}

/* A def as a dict: vectors as tuples of the world's dimensions, enums by name. */
static PyObject* fields_dict(const void* def, const field* table, int n, int dims)
{
	PyObject* d = PyDict_New();
	for (int i = 0; d && i < n; ++i) {
		const field* f = &table[i];
		const char* at = (const char*)def + f->offset;
		PyObject* v = NULL;
		switch (f->type) {
		case FT_FLOAT: v = PyFloat_FromDouble(*(const float*)at); break;
		case FT_INT: v = PyLong_FromLong(*(const int*)at); break;
		case FT_COLOR: v = PyLong_FromUnsignedLong(*(const uint32_t*)at); break;
		case FT_VEC3: v = vec_tuple((const float*)at, dims); break;
		case FT_SPIN: v = dims == 2 ? PyFloat_FromDouble(((const pdl_vec3*)at)->z) : vec_tuple((const float*)at, 3); break;
		case FT_QUAT: v = vec_tuple((const float*)at, 4); break;
		case FT_ENUM: {
			int e = *(const int*)at;
			v = e >= 0 && e < f->count ? PyUnicode_FromString(f->names[e]) : PyLong_FromLong(e);
			break;
		}
		case FT_VERTS: {
			int count = *(const int*)((const char*)def + f->count_offset);
			v = PyList_New(0);
			for (int k = 0; v && k < count; ++k) {
				PyObject* p = vec_tuple((const float*)&((const pdl_vec2*)at)[k], 2);
				if (!p || PyList_Append(v, p) < 0) Py_CLEAR(v);
				Py_XDECREF(p);
			}
			break;
		}
		case FT_SPH: v = fields_dict(at, sph_fields, N(sph_fields), dims); break;
		}
		if (!v || PyDict_SetItemString(d, f->name, v) < 0) Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

/* ---- World --------------------------------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	pdl_world* world;
	/* The scene the world was built from (its emitters and strokes play in step()), or one made
	 * for a world built in code once it needs one (emitters, pictures); NULL before that. */
	pdl_scene* scene;
	bool from_file;     /* scene came from a file or text: snapshots record its hash */
	long long frame;    /* frames stepped: the next frame's scene events are frame's */
	Py_ssize_t leases;  /* numpy views alive */
	bool busy;          /* stepping with the GIL released */
	PyObject* weakrefs;
} World;

static PyTypeObject WorldType;

/* What every method checks first: a live world not stepping in another thread. */
static pdl_world* live(World* self)
{
	if (!self->world) {
		PyErr_SetString(PyExc_RuntimeError, "puddle.World: not initialised");
		return NULL;
	}
	if (self->busy) {
		PyErr_SetString(PyExc_RuntimeError, "puddle.World: stepping in another thread; a world is used by one thread at a time");
		return NULL;
	}
	return self->world;
}

/* Calls that may add particles move the arrays: refused while views of them are alive. */
static bool no_views(World* self, const char* call)
{
	if (self->leases == 0) return true;
	PyErr_Format(PyExc_BufferError,
	             "puddle.World.%s may add particles and move the particle arrays, but %zd numpy view%s of them %s "
	             "alive: delete %s (or keep copies: w.x.copy())",
	             call, self->leases, self->leases == 1 ? "" : "s", self->leases == 1 ? "is" : "are",
	             self->leases == 1 ? "it" : "them");
	return false;
}

static int dims_of(World* self) { return pdl_world_get_def(self->world).dimensions; }

static PyObject* world_new(PyTypeObject* type, PyObject* args, PyObject* kwargs)
{
	(void)args, (void)kwargs;
	World* self = (World*)type->tp_alloc(type, 0);
	return (PyObject*)self;
}

static void world_dealloc(World* self)
{
	if (self->weakrefs) PyObject_ClearWeakRefs((PyObject*)self);
	if (self->world) pdl_world_destroy(self->world);
	if (self->scene) pdl_scene_destroy(self->scene);
	Py_TYPE(self)->tp_free((PyObject*)self);
}

static int world_init(World* self, PyObject* args, PyObject* kwargs)
{
	if (PyTuple_GET_SIZE(args) > 0) {
		PyErr_SetString(PyExc_TypeError, "puddle.World takes keyword arguments only (the fields of pdl_world_def)");
		return -1;
	}
	if (self->world) {
		PyErr_SetString(PyExc_RuntimeError, "puddle.World: already initialised");
		return -1;
	}
	pdl_world_def def = pdl_default_world_def();
	int dims = 2;
	if (kwargs) {
		PyObject* d = PyDict_GetItemString(kwargs, "dimensions");
		if (d && PyLong_Check(d)) dims = PyLong_AsLong(d) == 3 ? 3 : 2;
		PyErr_Clear();
	}
	if (!apply_fields(&def, world_fields, N(world_fields), kwargs, "world", dims)) return -1;
	pdl_error e;
	self->world = pdl_world_create(&def, &e);
	if (!self->world) return raise_core(&e), -1;
	return 0;
}

/* A World around a scene (taken over), built as `puddle run` builds it. */
static PyObject* world_from_scene(pdl_scene* s, PyObject* threads, double particles)
{
	if (threads && threads != Py_None) {
		long t = PyLong_AsLong(threads);
		if (t == -1 && PyErr_Occurred()) return pdl_scene_destroy(s), NULL;
		s->world.threads = (int)t;
	}
	if (particles > 0) pdl_scene_scale_to_particles(s, particles);
	pdl_error err;
	pdl_world* w = pdl_scene_build_world(s, &err);
	if (!w) {
		pdl_scene_destroy(s);
		return raise_scene(&err);
	}
	World* self = (World*)WorldType.tp_alloc(&WorldType, 0);
	if (!self) {
		pdl_world_destroy(w);
		pdl_scene_destroy(s);
		return NULL;
	}
	self->world = w;
	self->scene = s;
	self->from_file = true;
	return (PyObject*)self;
}

static PyObject* mod_load_scene(PyObject* mod, PyObject* args, PyObject* kwargs)
{
	(void)mod;
	static char* kw[] = {"path", "threads", "particles", NULL};
	PyObject* path;
	PyObject* threads = NULL;
	double particles = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|Od:load_scene", kw, PyUnicode_FSConverter, &path, &threads,
	                                 &particles))
		return NULL;
	pdl_error err;
	pdl_scene* s = pdl_scene_load(PyBytes_AS_STRING(path), &err);
	Py_DECREF(path);
	if (!s) return raise_scene(&err);
	return world_from_scene(s, threads, particles);
}

static PyObject* mod_parse_scene(PyObject* mod, PyObject* args, PyObject* kwargs)
{
	(void)mod;
	static char* kw[] = {"text", "name", "threads", "particles", NULL};
	const char* text;
	Py_ssize_t length;
	const char* name = "scene";
	PyObject* threads = NULL;
	double particles = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|sOd:parse_scene", kw, &text, &length, &name, &threads,
	                                 &particles))
		return NULL;
	pdl_error err;
	pdl_scene* s = pdl_scene_parse(text, (size_t)length, name, &err);
	if (!s) return raise_scene(&err);
	return world_from_scene(s, threads, particles);
}

/* The scene of a world built in code, made when first needed: the world's def and materials,
 * the output defaults of a scene file, bounds around the container (or the particles). */
static void boundary_box(const pdl_boundary_def* b, float lo[3], float hi[3])
{
	float r[3] = {b->radius, b->radius, b->radius};
	if (b->kind == PDL_BOUNDARY_BOX_CONTAINER || b->kind == PDL_BOUNDARY_BOX) {
		float c = fabsf(cosf(b->angle)), s = fabsf(sinf(b->angle));
		r[0] = c * b->half_extents.x + s * b->half_extents.y;
		r[1] = s * b->half_extents.x + c * b->half_extents.y;
		r[2] = b->half_extents.z;
	}
	const float p[3] = {b->position.x, b->position.y, b->position.z};
	for (int d = 0; d < 3; ++d) lo[d] = p[d] - r[d], hi[d] = p[d] + r[d];
}

static bool world_bounds(pdl_world* w, float lo[3], float hi[3])
{
	bool found = false;
	for (int slot = 0; slot < pdl_world_boundary_slots(w) && !found; ++slot) {
		pdl_boundary_def b;
		if (pdl_world_get_boundary(w, pdl_world_boundary_in_slot(w, slot), &b) &&
		    (b.kind == PDL_BOUNDARY_BOX_CONTAINER || b.kind == PDL_BOUNDARY_CIRCLE_CONTAINER))
			boundary_box(&b, lo, hi), found = true;
	}
	if (!found) {
		pdl_particle_data p = pdl_world_particles(w);
		for (int d = 0; d < 3; ++d) lo[d] = -1, hi[d] = 1;
		for (int i = 0; i < p.count; ++i) {
			const float v[3] = {p.x[i], p.y[i], p.z ? p.z[i] : 0};
			for (int d = 0; d < 3; ++d) {
				if (i == 0 || v[d] < lo[d]) lo[d] = v[d];
				if (i == 0 || v[d] > hi[d]) hi[d] = v[d];
			}
		}
	}
	for (int d = 0; d < 3; ++d) {
		float pad = 0.02f * (hi[d] - lo[d]) + 1e-3f;
		lo[d] -= pad, hi[d] += pad;
	}
	return found;
}

static void sync_scene(World* self)
{
	/* a scene's world is the scene's (set_def changes both); a world built in code gives its
	 * scene its def, materials, and bounds and camera around what it holds now */
	pdl_scene* s = self->scene;
	if (self->from_file) return;
	s->world = pdl_world_get_def(self->world);
	float lo[3], hi[3];
	world_bounds(self->world, lo, hi);
	if (s->world.dimensions == 2) lo[2] = hi[2] = 0;
	s->bounds_min = (pdl_vec3){lo[0], lo[1], lo[2]};
	s->bounds_max = (pdl_vec3){hi[0], hi[1], hi[2]};
	/* pictures as a scene file without "output" would frame them: the bounds' aspect in 2D
	 * (even heights, for H.264), 16:9 camera views in 3D */
	double aspect = s->world.dimensions == 3 ? 9.0 / 16.0 : (double)(hi[1] - lo[1]) / (hi[0] - lo[0]);
	int height = 2 * (int)lround(0.5 * s->output.width * aspect);
	s->output.height = height < 16 ? 16 : height > 8192 ? 8192 : height;
	if (s->world.dimensions == 3) s->camera = pdl_camera_framing(s->bounds_min, s->bounds_max);
	s->material_count = pdl_world_material_count(self->world);
	for (int i = 0; i < s->material_count; ++i) {
		snprintf(s->materials[i].name, sizeof s->materials[i].name, "material%d", i);
		s->materials[i].def = pdl_world_get_material(self->world, i);
	}
}

static pdl_scene* need_scene(World* self)
{
	if (!self->scene) {
		float lo[3], hi[3];
		world_bounds(self->world, lo, hi);
		char json[512];
		int dims = dims_of(self);
		if (dims == 3)
			snprintf(json, sizeof json,
			         "{\"world\": {\"dimensions\": 3, \"bounds\": {\"min\": [%.9g, %.9g, %.9g], \"max\": [%.9g, %.9g, %.9g]}},"
			         " \"materials\": [{\"name\": \"material0\"}]}",
			         lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
		else
			snprintf(json, sizeof json,
			         "{\"world\": {\"bounds\": {\"min\": [%.9g, %.9g], \"max\": [%.9g, %.9g]}},"
			         " \"materials\": [{\"name\": \"material0\"}]}",
			         lo[0], lo[1], hi[0], hi[1]);
		pdl_error err;
		self->scene = pdl_scene_parse(json, strlen(json), "world", &err);
		if (!self->scene) return raise_scene(&err), NULL;
		self->from_file = false;
	}
	sync_scene(self);
	return self->scene;
}

/* ---- stepping ---------------------------------------------------------------------------------- */

/* Whether an emitter of the scene is on during frames [first, first + n). */
static bool emits(const pdl_scene* s, long long first, long long n)
{
	if (!s) return false;
	double t0 = (double)first * s->world.dt, t1 = (double)(first + n) * s->world.dt;
	for (int i = 0; i < s->emitter_count; ++i)
		if (s->emitters[i].start < t1 && s->emitters[i].stop > t0) return true;
	return false;
}

static PyObject* world_step(World* self, PyObject* args, PyObject* kwargs)
{
	static char* kw[] = {"frames", NULL};
	long long n = 1;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|L:step", kw, &n)) return NULL;
	pdl_world* w = live(self);
	if (!w) return NULL;
	if (n < 0) {
		PyErr_SetString(PyExc_ValueError, "step: frames must be >= 0");
		return NULL;
	}
	const pdl_scene* s = self->scene;
	if (s && emits(s, self->frame, n) && !no_views(self, "step")) return NULL;
	/* frame by frame with the GIL released, and Ctrl-C heard between frames */
	pdl_error err;
	for (long long k = 0; k < n; ++k) {
		bool failed = false;
		self->busy = true;
		Py_BEGIN_ALLOW_THREADS
		if (s && pdl_scene_apply_frame(s, w, self->frame, &err) < 0) failed = true;
		else pdl_world_step(w);
		Py_END_ALLOW_THREADS
		self->busy = false;
		if (failed) return raise_scene(&err);
		self->frame++;
		if (PyErr_CheckSignals() < 0) return NULL;
	}
	Py_RETURN_NONE;
}

/* Seconds that n bare pdl_world_step() calls take, timed in C with the GIL held (no scene
 * events): what Python's step() is measured against (python/bench_overhead.py). */
static PyObject* world_c_step_seconds(World* self, PyObject* arg)
{
	long long n = PyLong_AsLongLong(arg);
	if (n == -1 && PyErr_Occurred()) return NULL;
	pdl_world* w = live(self);
	if (!w) return NULL;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long long i = 0; i < n; ++i) pdl_world_step(w);
	clock_gettime(CLOCK_MONOTONIC, &b);
	self->frame += n;
	return PyFloat_FromDouble((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec));
}

static PyObject* world_state_hash(World* self, PyObject* noargs)
{
	(void)noargs;
	pdl_world* w = live(self);
	if (!w) return NULL;
	char hex[17];
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)pdl_world_hash(w));
	return PyUnicode_FromString(hex);
}

/* ---- particle arrays ------------------------------------------------------------------------- */

/* The base object of a view: keeps the world alive and counted as viewed. */
typedef struct {
	PyObject_HEAD
	World* world;
} Lease;

static void lease_dealloc(Lease* self)
{
	if (self->world) {
		self->world->leases--;
		Py_DECREF(self->world);
	}
	Py_TYPE(self)->tp_free((PyObject*)self);
}

static PyTypeObject LeaseType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "puddle._puddle._Lease",
	.tp_basicsize = sizeof(Lease),
	.tp_dealloc = (destructor)lease_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Keeps a world alive while a numpy view of its particles is.",
};

static PyObject* view(World* self, const void* data, int typenum)
{
	pdl_world* w = live(self);
	if (!w) return NULL;
	npy_intp n = pdl_world_particle_count(w);
	if (!data) Py_RETURN_NONE;
	PyObject* arr = np_new(1, &n, typenum, (void*)data);
	if (!arr) return NULL;
	Lease* lease = PyObject_New(Lease, &LeaseType);
	if (!lease) {
		Py_DECREF(arr);
		return NULL;
	}
	Py_INCREF(self);
	lease->world = self;
	self->leases++;
	if (np_set_base(arr, (PyObject*)lease) < 0) {
		Py_DECREF(arr);
		return NULL;
	}
	return arr;
}

#define VIEW_GETTER(name, member, type)                                  \
	static PyObject* get_##name(World* self, void* closure)             \
	{                                                                     \
		(void)closure;                                                    \
		if (!live(self)) return NULL;                                     \
		return view(self, pdl_world_particles(self->world).member, type); \
	}
VIEW_GETTER(x, x, NPY_FLOAT32)
VIEW_GETTER(y, y, NPY_FLOAT32)
VIEW_GETTER(z, z, NPY_FLOAT32)
VIEW_GETTER(vx, vx, NPY_FLOAT32)
VIEW_GETTER(vy, vy, NPY_FLOAT32)
VIEW_GETTER(vz, vz, NPY_FLOAT32)
VIEW_GETTER(density, density, NPY_FLOAT32)
VIEW_GETTER(pressure, pressure, NPY_FLOAT32)
VIEW_GETTER(material, material, NPY_UINT8)
VIEW_GETTER(ids, id, NPY_UINT32)

/* (n, dims) float32, a new array */
static PyObject* stacked(World* self, bool velocity)
{
	pdl_world* w = live(self);
	if (!w) return NULL;
	pdl_particle_data p = pdl_world_particles(w);
	int dims = dims_of(self);
	npy_intp shape[2] = {p.count, dims};
	PyObject* arr = np_new(2, shape, NPY_FLOAT32, NULL);
	if (!arr) return NULL;
	float* out = (float*)PyArray_DATA((PyArrayObject*)arr);
	const float* a = velocity ? p.vx : p.x;
	const float* b = velocity ? p.vy : p.y;
	const float* c = velocity ? p.vz : p.z;
	for (int i = 0; i < p.count; ++i) {
		out[(size_t)i * dims] = a[i];
		out[(size_t)i * dims + 1] = b[i];
		if (dims == 3) out[(size_t)i * dims + 2] = c[i];
	}
	return arr;
}

static PyObject* get_positions(World* self, void* closure) { return (void)closure, stacked(self, false); }
static PyObject* get_velocities(World* self, void* closure) { return (void)closure, stacked(self, true); }

/* An (n, dims) float32 C array from any array-like, or NULL with a ValueError. */
static PyArrayObject* rows_of(PyObject* obj, const char* name, int dims, npy_intp n)
{
	PyArrayObject* a = np_from_any(obj, NPY_FLOAT32, 1, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
	if (!a) return NULL;
	if (PyArray_NDIM(a) == 1 && PyArray_DIM(a, 0) == dims) {
		/* one particle given as a flat (x, y) */
		npy_intp shape[2] = {1, dims};
		PyArrayObject* r = np_reshape(a, shape, 2);
		Py_DECREF(a);
		a = r;
		if (!a) return NULL;
	}
	if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 1) != dims || (n >= 0 && PyArray_DIM(a, 0) != n)) {
		if (n >= 0) PyErr_Format(PyExc_ValueError, "%s must have shape (%zd, %d), one row per particle", name, (Py_ssize_t)n, dims);
		else PyErr_Format(PyExc_ValueError, "%s must have shape (n, %d)", name, dims);
		Py_DECREF(a);
		return NULL;
	}
	return a;
}

/* A change of the particles, made through pdl_world_set_particles (as a snapshot restore): the
 * current particles where keep[i] (NULL: all), with new positions or velocities (NULL: as they
 * are; else count x dims floats, for every current particle), then `add` new ones (pos, vel: add
 * x dims floats, vel NULL for at rest; mat: add bytes; their ids go to new_ids). Springs between
 * kept particles stay, and a DFSPH world's pressures (its solves' warm start). */
typedef struct change {
	const uint8_t* keep;
	const float *positions, *velocities;
	int add;
	const float *pos, *vel;
	const uint8_t* mat;
	uint32_t* new_ids;
} change;

static bool rebuild(World* self, const change* ch)
{
	const uint8_t* keep = ch->keep;
	const float *pos = ch->pos, *vel = ch->vel;
	const uint8_t* mat = ch->mat;
	uint32_t* new_ids = ch->new_ids;
	int add = ch->add;
	pdl_world* w = self->world;
	pdl_particle_data p = pdl_world_particles(w);
	int dims = dims_of(self);
	int kept = 0;
	for (int i = 0; i < p.count; ++i) kept += !keep || keep[i];
	size_t n = (size_t)kept + (size_t)add;
	size_t m = n ? n : 1;
	float* buf = malloc(m * 6 * sizeof *buf);
	uint8_t* material = malloc(m);
	uint32_t* id = malloc(m * sizeof *id);
	int32_t* index = malloc((size_t)(p.count ? p.count : 1) * sizeof *index);
	int32_t* partner = p.spring_partner ? malloc(m * PDL_MAX_SPRINGS_PER_PARTICLE * sizeof *partner) : NULL;
	float* rest = p.spring_partner ? malloc(m * PDL_MAX_SPRINGS_PER_PARTICLE * sizeof *rest) : NULL;
	/* a DFSPH world's pressures, the warm start of its solves, go along (new particles start at 0) */
	float* warm = p.divergence_pressure ? malloc(2 * m * sizeof *warm) : NULL;
	bool ok = buf && material && id && index && (!p.spring_partner || (partner && rest)) && (!p.divergence_pressure || warm);
	if (ok) {
		float *x = buf, *y = buf + m, *z = buf + 2 * m, *vx = buf + 3 * m, *vy = buf + 4 * m, *vz = buf + 5 * m;
		size_t k = 0;
		for (int i = 0; i < p.count; ++i) {
			index[i] = -1;
			if (keep && !keep[i]) continue;
			index[i] = (int32_t)k;
			x[k] = p.x[i], y[k] = p.y[i], vx[k] = p.vx[i], vy[k] = p.vy[i];
			z[k] = p.z ? p.z[i] : 0, vz[k] = p.vz ? p.vz[i] : 0;
			const float* np = ch->positions ? ch->positions + (size_t)i * dims : NULL;
			const float* nv = ch->velocities ? ch->velocities + (size_t)i * dims : NULL;
			if (np) x[k] = np[0], y[k] = np[1], z[k] = dims == 3 ? np[2] : 0;
			if (nv) vx[k] = nv[0], vy[k] = nv[1], vz[k] = dims == 3 ? nv[2] : 0;
			material[k] = p.material[i], id[k] = p.id[i];
			if (warm) warm[k] = p.pressure[i], warm[m + k] = p.divergence_pressure[i];
			++k;
		}
		if (partner)
			for (int i = 0; i < p.count; ++i) {
				if (index[i] < 0) continue;
				for (int s = 0; s < PDL_MAX_SPRINGS_PER_PARTICLE; ++s) {
					size_t from = (size_t)i * PDL_MAX_SPRINGS_PER_PARTICLE + s;
					size_t to = (size_t)index[i] * PDL_MAX_SPRINGS_PER_PARTICLE + s;
					int32_t j = p.spring_partner[from];
					partner[to] = j < 0 ? -1 : index[j];
					rest[to] = partner[to] < 0 ? 0 : p.spring_rest[from];
				}
			}
		for (int a = 0; a < add; ++a, ++k) {
			x[k] = pos[(size_t)a * dims], y[k] = pos[(size_t)a * dims + 1], z[k] = dims == 3 ? pos[(size_t)a * dims + 2] : 0;
			vx[k] = vel ? vel[(size_t)a * dims] : 0, vy[k] = vel ? vel[(size_t)a * dims + 1] : 0;
			vz[k] = vel && dims == 3 ? vel[(size_t)a * dims + 2] : 0;
			material[k] = mat[a];
			if (warm) warm[k] = warm[m + k] = 0;
			id[k] = p.next_id + (uint32_t)a;
			if (new_ids) new_ids[a] = id[k];
			if (partner)
				for (int s = 0; s < PDL_MAX_SPRINGS_PER_PARTICLE; ++s)
					partner[k * PDL_MAX_SPRINGS_PER_PARTICLE + s] = -1, rest[k * PDL_MAX_SPRINGS_PER_PARTICLE + s] = 0;
		}
		pdl_particle_data d = {0};
		d.count = (int)n;
		d.x = x, d.y = y, d.vx = vx, d.vy = vy;
		if (dims == 3) d.z = z, d.vz = vz;
		d.material = material, d.id = id;
		d.spring_partner = partner, d.spring_rest = rest;
		if (warm) d.pressure = warm, d.divergence_pressure = warm + m;
		d.next_id = p.next_id + (uint32_t)add;
		pdl_error e;
		if (pdl_world_set_particles(w, &d, &e) != PDL_OK) {
			raise_core(&e);
			ok = false;
		}
	} else {
		PyErr_NoMemory();
	}
	free(buf), free(material), free(id), free(index), free(partner), free(rest), free(warm);
	return ok;
}

static PyObject* world_add_particles(World* self, PyObject* args, PyObject* kwargs)
{
	static char* kw[] = {"positions", "velocities", "material", NULL};
	PyObject *pos_obj, *vel_obj = Py_None, *mat_obj = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:add_particles", kw, &pos_obj, &vel_obj, &mat_obj)) return NULL;
	if (!live(self) || !no_views(self, "add_particles")) return NULL;
	int dims = dims_of(self);
	PyArrayObject* pos = rows_of(pos_obj, "positions", dims, -1);
	if (!pos) return NULL;
	npy_intp n = PyArray_DIM(pos, 0);
	PyArrayObject* vel = vel_obj == Py_None ? NULL : rows_of(vel_obj, "velocities", dims, n);
	PyArrayObject* mat = NULL;
	PyObject* ids = NULL;
	if (vel_obj != Py_None && !vel) goto done;
	PyObject* zero = mat_obj ? NULL : PyLong_FromLong(0);
	mat = np_from_any(mat_obj ? mat_obj : zero, NPY_INT64, 0, 1, NPY_ARRAY_CARRAY);
	Py_XDECREF(zero);
	if (!mat) goto done;
	if (PyArray_NDIM(mat) == 1 && PyArray_DIM(mat, 0) != n) {
		PyErr_SetString(PyExc_ValueError, "material must be one id or one per particle");
		goto done;
	}
	if (n > INT32_MAX - pdl_world_particle_count(self->world)) {
		PyErr_SetString(PyExc_ValueError, "too many particles");
		goto done;
	}
	uint8_t* m = malloc((size_t)(n ? n : 1));
	if (!m) {
		PyErr_NoMemory();
		goto done;
	}
	const int64_t* mv = (const int64_t*)PyArray_DATA(mat);
	for (npy_intp i = 0; i < n; ++i) {
		int64_t v = PyArray_NDIM(mat) == 0 ? mv[0] : mv[i];
		if (v < 0 || v >= pdl_world_material_count(self->world)) {
			free(m);
			pdl_error e = {PDL_ERR_MATERIAL_ID, (double)v, ""};
			snprintf(e.message, sizeof e.message, "particle %zd: material %lld is not a material of this world",
			         (Py_ssize_t)i, (long long)v);
			raise_core(&e);
			goto done;
		}
		m[i] = (uint8_t)v;
	}
	npy_intp shape = n;
	ids = np_new(1, &shape, NPY_UINT32, NULL);
	if (ids) {
		change ch = {.add = (int)n, .pos = (const float*)PyArray_DATA(pos), .mat = m,
		             .vel = vel ? (const float*)PyArray_DATA(vel) : NULL,
		             .new_ids = (uint32_t*)PyArray_DATA((PyArrayObject*)ids)};
		if (!rebuild(self, &ch)) Py_CLEAR(ids);
	}
	free(m);
done:
	Py_DECREF(pos);
	Py_XDECREF(vel);
	Py_XDECREF(mat);
	return ids;
}

static PyObject* world_set_particles(World* self, PyObject* args, PyObject* kwargs)
{
	static char* kw[] = {"positions", "velocities", NULL};
	PyObject *pos_obj = Py_None, *vel_obj = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:set_particles", kw, &pos_obj, &vel_obj)) return NULL;
	if (!live(self)) return NULL;
	int dims = dims_of(self);
	npy_intp n = pdl_world_particle_count(self->world);
	PyArrayObject* pos = pos_obj == Py_None ? NULL : rows_of(pos_obj, "positions", dims, n);
	PyArrayObject* vel = vel_obj == Py_None ? NULL : rows_of(vel_obj, "velocities", dims, n);
	bool ok = (pos_obj == Py_None || pos) && (vel_obj == Py_None || vel);
	if (ok && (pos || vel)) {
		change ch = {.positions = pos ? (const float*)PyArray_DATA(pos) : NULL,
		             .velocities = vel ? (const float*)PyArray_DATA(vel) : NULL};
		ok = rebuild(self, &ch);
	}
	Py_XDECREF(pos);
	Py_XDECREF(vel);
	if (!ok) return NULL;
	Py_RETURN_NONE;
}

static PyObject* world_remove_particles(World* self, PyObject* arg)
{
	if (!live(self)) return NULL;
	/* a copy: sorted here, the caller's array is left as it was */
	PyArrayObject* ids = np_from_any(arg, NPY_INT64, 0, 1, NPY_ARRAY_CARRAY | NPY_ARRAY_ENSURECOPY);
	if (!ids) return NULL;
	pdl_particle_data p = pdl_world_particles(self->world);
	uint8_t* keep = malloc((size_t)(p.count ? p.count : 1));
	if (!keep) {
		Py_DECREF(ids);
		return PyErr_NoMemory();
	}
	/* the ids as a sorted list, each particle looked up in it */
	npy_intp n = np_size(ids);
	PyObject* sorted = np_sort(ids) < 0 ? NULL : (PyObject*)ids;
	int removed = 0;
	if (sorted) {
		const int64_t* v = (const int64_t*)PyArray_DATA(ids);
		for (int i = 0; i < p.count; ++i) {
			npy_intp lo = 0, hi = n;
			while (lo < hi) {
				npy_intp mid = (lo + hi) / 2;
				if (v[mid] < (int64_t)p.id[i]) lo = mid + 1;
				else hi = mid;
			}
			keep[i] = !(lo < n && v[lo] == (int64_t)p.id[i]);
			removed += !keep[i];
		}
	}
	change ch = {.keep = keep};
	bool ok = sorted && (removed == 0 || rebuild(self, &ch));
	free(keep);
	Py_DECREF(ids);
	return ok ? PyLong_FromLong(removed) : NULL;
}

static PyObject* world_remove_in(World* self, PyObject* args, PyObject* kwargs, bool circle)
{
	static char* kw_circle[] = {"center", "radius", NULL};
	static char* kw_box[] = {"center", "half_extents", NULL};
	PyObject *c_obj, *size_obj;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO", circle ? kw_circle : kw_box, &c_obj, &size_obj)) return NULL;
	if (!live(self)) return NULL;
	float c[3] = {0, 0, 0}, s[3] = {0, 0, 0};
	if (!read_floats(c_obj, "remove", "center", c, 2, 3, NULL)) return NULL;
	if (circle) {
		double r = PyFloat_AsDouble(size_obj);
		if (r == -1 && PyErr_Occurred()) return NULL;
		return PyLong_FromLong(pdl_world_remove_particles_in_circle(self->world, (pdl_vec3){c[0], c[1], c[2]}, (float)r));
	}
	if (!read_floats(size_obj, "remove", "half_extents", s, 2, 3, NULL)) return NULL;
	return PyLong_FromLong(
	    pdl_world_remove_particles_in_box(self->world, (pdl_vec3){c[0], c[1], c[2]}, (pdl_vec3){s[0], s[1], s[2]}));
}

static PyObject* world_remove_in_circle(World* self, PyObject* args, PyObject* kwargs)
{
	return world_remove_in(self, args, kwargs, true);
}

static PyObject* world_remove_in_box(World* self, PyObject* args, PyObject* kwargs)
{
	return world_remove_in(self, args, kwargs, false);
}

/* ---- definitions: world, materials, boundaries, fills, pointers, emitters ---------------------- */

static PyObject* no_positional(PyObject* args, const char* call, Py_ssize_t allowed)
{
	if (PyTuple_GET_SIZE(args) > allowed) {
		PyErr_Format(PyExc_TypeError, "%s takes %zd positional argument%s; give the fields by name", call, allowed,
		             allowed == 1 ? "" : "s");
		return NULL;
	}
	return Py_None;
}

static PyObject* world_get_def(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	pdl_world_def d = pdl_world_get_def(self->world);
	return fields_dict(&d, world_fields, N(world_fields), d.dimensions);
}

static PyObject* world_set_def(World* self, PyObject* args, PyObject* kwargs)
{
	if (!no_positional(args, "set_def", 0) || !live(self)) return NULL;
	pdl_world_def d = pdl_world_get_def(self->world);
	if (!apply_fields(&d, world_fields, N(world_fields), kwargs, "world", d.dimensions)) return NULL;
	pdl_error e;
	if (pdl_world_set_def(self->world, &d, &e) != PDL_OK) return raise_core(&e);
	if (self->scene) self->scene->world = pdl_world_get_def(self->world);
	Py_RETURN_NONE;
}

static PyObject* world_add_material(World* self, PyObject* args, PyObject* kwargs)
{
	if (!no_positional(args, "add_material", 0) || !live(self)) return NULL;
	pdl_material_def d = pdl_default_material_def();
	if (!apply_fields(&d, material_fields, N(material_fields), kwargs, "material", 2)) return NULL;
	pdl_error e;
	int id = pdl_world_add_material(self->world, &d, &e);
	if (id < 0) return raise_core(&e);
	return PyLong_FromLong(id);
}

static bool material_id(World* self, PyObject* args, int* id)
{
	if (!PyArg_ParseTuple(args, "i", id)) return false;
	if (*id < 0 || *id >= pdl_world_material_count(self->world)) {
		pdl_error e = {PDL_ERR_MATERIAL_ID, *id, ""};
		snprintf(e.message, sizeof e.message, "material.id must name a material of this world, got %d", *id);
		raise_core(&e);
		return false;
	}
	return true;
}

static PyObject* world_set_material(World* self, PyObject* args, PyObject* kwargs)
{
	int id;
	if (!live(self) || !material_id(self, args, &id)) return NULL;
	pdl_material_def d = pdl_world_get_material(self->world, id);
	if (!apply_fields(&d, material_fields, N(material_fields), kwargs, "material", 2)) return NULL;
	pdl_error e;
	if (pdl_world_set_material(self->world, id, &d, &e) != PDL_OK) return raise_core(&e);
	if (self->scene && !self->from_file) sync_scene(self);
	Py_RETURN_NONE;
}

static PyObject* world_material(World* self, PyObject* args)
{
	int id;
	if (!live(self) || !material_id(self, args, &id)) return NULL;
	pdl_material_def d = pdl_world_get_material(self->world, id);
	PyObject* dict = fields_dict(&d, material_fields, N(material_fields), 2);
	if (dict && self->scene && self->from_file && id < self->scene->material_count) {
		PyObject* name = PyUnicode_FromString(self->scene->materials[id].name);
		if (!name || PyDict_SetItemString(dict, "name", name) < 0) Py_CLEAR(dict);
		Py_XDECREF(name);
	}
	return dict;
}

static PyObject* world_rest_density(World* self, PyObject* args)
{
	int id;
	if (!live(self) || !material_id(self, args, &id)) return NULL;
	return PyFloat_FromDouble(pdl_world_rest_density(self->world, id));
}

static PyObject* world_add_boundary(World* self, PyObject* args, PyObject* kwargs)
{
	if (!no_positional(args, "add_boundary", 0) || !live(self)) return NULL;
	pdl_boundary_def d = pdl_default_boundary_def();
	if (!apply_fields(&d, boundary_fields, N(boundary_fields), kwargs, "boundary", dims_of(self))) return NULL;
	pdl_error e;
	pdl_boundary_id id = pdl_world_add_boundary(self->world, &d, &e);
	if (id.index < 0) return raise_core(&e);
	return PyLong_FromLong(pdl_boundary_id_to_int(id));
}

/* A boundary id from Python: the packed int of pdl_boundary_id_to_int; a stale or unknown one
 * raises PDL_ERR_BOUNDARY_ID. d, when given, gets the boundary's def. */
static bool boundary_of(World* self, PyObject* args, pdl_boundary_id* id, pdl_boundary_def* d)
{
	int packed;
	if (!PyArg_ParseTuple(args, "i", &packed)) return false;
	*id = pdl_boundary_id_from_int(packed);
	if (pdl_world_get_boundary(self->world, *id, d)) return true;
	pdl_error e = {PDL_ERR_BOUNDARY_ID, packed, ""};
	snprintf(e.message, sizeof e.message, "boundary.id must name a live boundary of this world, got %d", packed);
	raise_core(&e);
	return false;
}

static PyObject* world_set_boundary(World* self, PyObject* args, PyObject* kwargs)
{
	pdl_boundary_id id;
	pdl_boundary_def d;
	if (!live(self) || !boundary_of(self, args, &id, &d)) return NULL;
	if (!apply_fields(&d, boundary_fields, N(boundary_fields), kwargs, "boundary", dims_of(self))) return NULL;
	pdl_error e;
	if (pdl_world_set_boundary(self->world, id, &d, &e) != PDL_OK) return raise_core(&e);
	Py_RETURN_NONE;
}

static PyObject* world_boundary(World* self, PyObject* args)
{
	pdl_boundary_id id;
	pdl_boundary_def d;
	if (!live(self) || !boundary_of(self, args, &id, &d)) return NULL;
	return fields_dict(&d, boundary_fields, N(boundary_fields), dims_of(self));
}

static PyObject* world_remove_boundary(World* self, PyObject* args)
{
	pdl_boundary_id id;
	if (!live(self) || !boundary_of(self, args, &id, NULL)) return NULL;
	pdl_error e;
	if (pdl_world_remove_boundary(self->world, id, &e) != PDL_OK) return raise_core(&e);
	Py_RETURN_NONE;
}

static PyObject* world_boundaries(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	PyObject* list = PyList_New(0);
	for (int slot = 0; list && slot < pdl_world_boundary_slots(self->world); ++slot) {
		const pdl_boundary_id id = pdl_world_boundary_in_slot(self->world, slot);
		if (id.index < 0) continue;
		PyObject* v = PyLong_FromLong(pdl_boundary_id_to_int(id));
		if (!v || PyList_Append(list, v) < 0) Py_CLEAR(list);
		Py_XDECREF(v);
	}
	return list;
}

static PyObject* world_fill(World* self, PyObject* args, PyObject* kwargs)
{
	if (!no_positional(args, "fill", 0) || !live(self) || !no_views(self, "fill")) return NULL;
	pdl_fill_def d = pdl_default_fill_def();
	if (!apply_fields(&d, fill_fields, N(fill_fields), kwargs, "fill", dims_of(self))) return NULL;
	pdl_error e;
	int n = pdl_world_fill(self->world, &d, &e);
	if (n < 0) return raise_core(&e);
	return PyLong_FromLong(n);
}

static PyObject* world_set_pointer(World* self, PyObject* args, PyObject* kwargs)
{
	int index = 0;
	if (!live(self) || !PyArg_ParseTuple(args, "|i:set_pointer", &index)) return NULL;
	pdl_pointer ptr = pdl_default_pointer();
	if (!apply_fields(&ptr, pointer_fields, N(pointer_fields), kwargs, "pointer", dims_of(self))) return NULL;
	pdl_error e;
	if (pdl_world_set_pointer(self->world, index, &ptr, &e) != PDL_OK) return raise_core(&e);
	Py_RETURN_NONE;
}

static PyObject* world_clear_pointer(World* self, PyObject* args)
{
	int index = 0;
	if (!live(self) || !PyArg_ParseTuple(args, "|i:clear_pointer", &index)) return NULL;
	pdl_world_clear_pointer(self->world, index);
	Py_RETURN_NONE;
}

static PyObject* world_add_emitter(World* self, PyObject* args, PyObject* kwargs)
{
	if (!no_positional(args, "add_emitter", 0) || !live(self)) return NULL;
	pdl_scene* s = need_scene(self);
	if (!s) return NULL;
	if (s->emitter_count >= PDL_SCENE_MAX_EMITTERS) {
		PyErr_Format(PyExc_ValueError, "add_emitter: at most %d emitters", PDL_SCENE_MAX_EMITTERS);
		return NULL;
	}
	pdl_scene_emitter em = {0};
	em.width = 1;
	em.stop = INFINITY;
	if (!apply_fields(&em, emitter_fields, N(emitter_fields), kwargs, "emitter", dims_of(self))) return NULL;
	const char* bad = NULL;
	if (em.material < 0 || em.material >= pdl_world_material_count(self->world)) bad = "material: must name a material of this world";
	else if (!(em.width > 0) || !isfinite(em.width)) bad = "width: must be finite and > 0";
	else if (!(em.spacing >= 0) || !isfinite(em.spacing)) bad = "spacing: must be finite and >= 0";
	else if (!(em.start >= 0) || !(em.stop > em.start)) bad = "start, stop: must be 0 <= start < stop";
	else if (!(em.velocity.x != 0 || em.velocity.y != 0 || em.velocity.z != 0) || !isfinite(em.velocity.x) ||
	         !isfinite(em.velocity.y) || !isfinite(em.velocity.z))
		bad = "velocity: must be finite and not zero";
	if (bad) {
		char msg[160];
		snprintf(msg, sizeof msg, "emitter.%s", bad);
		char name[32];
		snprintf(name, sizeof name, "%.*s", (int)(strchr(bad, ':') - bad), bad);
		return raise_error(PuddleError, msg, NULL, name, strchr(bad, ':') + 2);
	}
	s->emitters[s->emitter_count++] = em;
	return PyLong_FromLong(s->emitter_count - 1);
}

/* ---- bodies -------------------------------------------------------------------------------------- */

static bool body_of(World* self, PyObject* arg, pdl_body_id* id, pdl_body_def* d)
{
	long packed = PyLong_AsLong(arg);
	if (packed == -1 && PyErr_Occurred()) return false;
	*id = pdl_body_id_from_int((int32_t)packed);
	if (d ? pdl_world_get_body(self->world, *id, d) : pdl_world_body_valid(self->world, *id)) return true;
	pdl_error e = {PDL_ERR_BODY_ID, (double)packed, ""};
	snprintf(e.message, sizeof e.message, "body.id must name a live body of this world, got %ld", packed);
	raise_core(&e);
	return false;
}

static PyObject* world_add_body(World* self, PyObject* args, PyObject* kwargs)
{
	if (!no_positional(args, "add_body", 0) || !live(self)) return NULL;
	pdl_body_def d = pdl_default_body_def();
	if (!apply_fields(&d, body_fields, N(body_fields), kwargs, "body", dims_of(self))) return NULL;
	pdl_error e;
	pdl_body_id id = pdl_world_add_body(self->world, &d, &e);
	if (id.index < 0) return raise_core(&e);
	return PyLong_FromLong(pdl_body_id_to_int(id));
}

static PyObject* world_body(World* self, PyObject* arg)
{
	pdl_body_id id;
	pdl_body_def d;
	if (!live(self) || !body_of(self, arg, &id, &d)) return NULL;
	return fields_dict(&d, body_fields, N(body_fields), dims_of(self));
}

static PyObject* world_set_body(World* self, PyObject* args, PyObject* kwargs)
{
	pdl_body_id id;
	pdl_body_def d;
	if (!live(self)) return NULL;
	if (PyTuple_GET_SIZE(args) != 1) {
		PyErr_SetString(PyExc_TypeError, "set_body(id, **fields)");
		return NULL;
	}
	if (!body_of(self, PyTuple_GET_ITEM(args, 0), &id, &d)) return NULL;
	if (!apply_fields(&d, body_fields, N(body_fields), kwargs, "body", dims_of(self))) return NULL;
	pdl_error e;
	if (pdl_world_set_body(self->world, id, &d, &e) != PDL_OK) return raise_core(&e);
	Py_RETURN_NONE;
}

static PyObject* world_remove_body(World* self, PyObject* arg)
{
	pdl_body_id id;
	if (!live(self) || !body_of(self, arg, &id, NULL)) return NULL;
	pdl_error e;
	if (pdl_world_remove_body(self->world, id, &e) != PDL_OK) return raise_core(&e);
	Py_RETURN_NONE;
}

static PyObject* world_body_force(World* self, PyObject* arg)
{
	pdl_body_id id;
	if (!live(self) || !body_of(self, arg, &id, NULL)) return NULL;
	pdl_body_force f = pdl_world_body_force(self->world, id);
	int dims = dims_of(self);
	PyObject* force = vec_tuple(&f.force.x, dims);
	PyObject* torque = dims == 2 ? PyFloat_FromDouble(f.torque.z) : vec_tuple(&f.torque.x, 3);
	if (!force || !torque) {
		Py_XDECREF(force);
		Py_XDECREF(torque);
		return NULL;
	}
	return Py_BuildValue("(NN)", force, torque);
}

static PyObject* world_body_mass(World* self, PyObject* arg)
{
	pdl_body_id id;
	if (!live(self) || !body_of(self, arg, &id, NULL)) return NULL;
	pdl_body_mass m = pdl_world_body_mass(self->world, id);
	int dims = dims_of(self);
	PyObject* inertia = dims == 2 ? PyFloat_FromDouble(m.inertia.z) : vec_tuple(&m.inertia.x, 3);
	if (!inertia) return NULL;
	return Py_BuildValue("{s:d,s:N,s:i,s:d,s:d}", "mass", (double)m.mass, "inertia", inertia, "particles", m.particles,
	                     "spacing", (double)m.spacing, "bound_radius", (double)m.bound_radius);
}

static PyObject* world_bodies(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	int n = pdl_world_body_count(self->world);
	pdl_body_id* ids = malloc((size_t)(n ? n : 1) * sizeof *ids);
	if (!ids) return PyErr_NoMemory();
	n = pdl_world_bodies(self->world, ids, n);
	PyObject* list = PyList_New(n);
	for (int i = 0; list && i < n; ++i) PyList_SET_ITEM(list, i, PyLong_FromLong(pdl_body_id_to_int(ids[i])));
	free(ids);
	return list;
}

/* ---- snapshots, exports, pictures ------------------------------------------------------------- */

static PyObject* path_call(PyObject* args, PyObject** path)
{
	if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, path)) return NULL;
	return Py_None;
}

static PyObject* world_save_snapshot(World* self, PyObject* args)
{
	PyObject* path;
	if (!live(self) || !path_call(args, &path)) return NULL;
	pdl_snapshot_info info = {self->frame, self->scene && self->from_file ? pdl_scene_hash(self->scene) : 0, ""};
	if (self->scene) snprintf(info.scene_name, sizeof info.scene_name, "%s", self->scene->name);
	pdl_error err;
	bool ok = pdl_snapshot_write(PyBytes_AS_STRING(path), self->world, &info, &err);
	Py_DECREF(path);
	if (!ok) return raise_error(SnapshotError, err.message, &err, NULL, NULL);
	Py_RETURN_NONE;
}

static PyObject* world_load_snapshot(World* self, PyObject* args)
{
	PyObject* path;
	if (!live(self) || !no_views(self, "load_snapshot") || !path_call(args, &path)) return NULL;
	const char* p = PyBytes_AS_STRING(path);
	pdl_snapshot_info info;
	pdl_error err;
	bool ok = pdl_snapshot_peek(p, &info, &err);
	uint64_t want = self->scene && self->from_file ? pdl_scene_hash(self->scene) : 0;
	if (ok && info.scene_hash != want) {
		pdl_error_fill(&err, PDL_ERR_SNAPSHOT_WORLD, NULL, NULL,
		               "%s was made from %s'%s' with other settings than this world's; resuming would not continue the "
		               "same run",
		               p, info.scene_hash ? "scene " : "a world built in code ", info.scene_name);
		ok = false;
	}
	ok = ok && pdl_snapshot_read(p, self->world, &info, &err);
	Py_DECREF(path);
	if (!ok) return raise_error(SnapshotError, err.message, &err, NULL, NULL);
	self->frame = info.frame;
	return PyLong_FromLongLong(info.frame);
}

typedef bool (*export_fn)(const char*, const pdl_world*, pdl_error*);

static PyObject* export_with(World* self, PyObject* args, export_fn fn)
{
	PyObject* path;
	if (!live(self) || !path_call(args, &path)) return NULL;
	pdl_error err;
	bool ok = fn(PyBytes_AS_STRING(path), self->world, &err);
	Py_DECREF(path);
	if (!ok) return raise_export(&err);
	Py_RETURN_NONE;
}

static PyObject* world_export_vtk(World* self, PyObject* args) { return export_with(self, args, pdl_export_vtp); }
static PyObject* world_export_ply(World* self, PyObject* args) { return export_with(self, args, pdl_export_ply); }
static PyObject* world_export_csv(World* self, PyObject* args) { return export_with(self, args, pdl_export_csv); }
static PyObject* world_export_bodies_vtk(World* self, PyObject* args)
{
	return export_with(self, args, pdl_export_bodies_vtp);
}

static PyObject* world_export_bodies_csv(World* self, PyObject* args)
{
	PyObject* path;
	if (!live(self) || !path_call(args, &path)) return NULL;
	pdl_error err;
	bool ok = pdl_export_bodies_csv(PyBytes_AS_STRING(path), self->world, self->frame, &err);
	Py_DECREF(path);
	if (!ok) return raise_export(&err);
	Py_RETURN_NONE;
}

/* The picture `puddle run` draws, as a new (height, width, 3) uint8 array. */
static PyObject* world_render(World* self, PyObject* args, PyObject* kwargs)
{
	static char* kw[] = {"width", "height", "color", "spheres", NULL};
	int width = 0, height = 0, spheres = 0;
	const char* color = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iizp:render", kw, &width, &height, &color, &spheres)) return NULL;
	if (!live(self)) return NULL;
	pdl_scene* s = need_scene(self);
	if (!s) return NULL;
	pdl_render_def rd = pdl_render_def_from_scene(s);
	if (!self->from_file)
		for (int i = 0; i < PDL_MAX_MATERIALS; ++i)
			rd.material_colors[i] = i < pdl_world_material_count(self->world) ? pdl_world_get_material(self->world, i).color : 0xffffff;
	if (width > 0) rd.width = width;
	if (height > 0) rd.height = height;
	else if (width > 0) rd.height = (int)lround((double)s->output.height * width / s->output.width);
	if (spheres) rd.liquid = false;
	if (color) {
		int mode = -1;
		for (int i = 0; i < N(color_names); ++i)
			if (strcmp(color, color_names[i]) == 0) mode = i;
		if (mode < 0) {
			PyErr_Format(PyExc_ValueError, "render: color must be 'material', 'speed', 'density' or 'pressure', got '%s'", color);
			return NULL;
		}
		rd.color_mode = (pdl_color_mode)mode;
	}
	if (rd.width < 1 || rd.height < 1 || rd.width > 16384 || rd.height > 16384) {
		PyErr_Format(PyExc_ValueError, "render: size must be 1 to 16384 pixels a side, got %dx%d", rd.width, rd.height);
		return NULL;
	}
	rd.threads = pdl_world_thread_count(self->world);
	if (rd.threads > PDL_RENDER_MAX_THREADS) rd.threads = PDL_RENDER_MAX_THREADS;
	pdl_renderer* r = pdl_renderer_create(&rd);
	if (!r) return PyErr_NoMemory();
	const uint8_t* rgb = pdl_render(r, self->world);
	npy_intp shape[3] = {rd.height, rd.width, 3};
	PyObject* arr = rgb ? np_new(3, shape, NPY_UINT8, NULL) : PyErr_NoMemory();
	if (arr) memcpy(PyArray_DATA((PyArrayObject*)arr), rgb, (size_t)rd.width * rd.height * 3);
	pdl_renderer_destroy(r);
	return arr;
}

/* The picture as PNG bytes: how Jupyter shows a World that ends a cell. */
static PyObject* world_repr_png(World* self, PyObject* noargs)
{
	(void)noargs;
	PyObject* args = PyTuple_New(0);
	PyObject* kwargs = Py_BuildValue("{s:i}", "width", 480);
	PyObject* img = args && kwargs ? world_render(self, args, kwargs) : NULL;
	Py_XDECREF(args);
	Py_XDECREF(kwargs);
	if (!img) return NULL;
	const char* dir = getenv("TMPDIR");
	char path[1024];
	pdl_error err;
	snprintf(path, sizeof path, "%s/puddle-XXXXXX", dir && dir[0] ? dir : "/tmp");
	int fd = mkstemp(path);
	PyObject* bytes = NULL;
	if (fd < 0) {
		PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
	} else {
		close(fd);
		PyArrayObject* a = (PyArrayObject*)img;
		if (!pdl_png_write(path, (const uint8_t*)PyArray_DATA(a), (int)PyArray_DIM(a, 1), (int)PyArray_DIM(a, 0), &err)) {
			raise_export(&err);
		} else {
			FILE* f = fopen(path, "rb");
			if (f && fseek(f, 0, SEEK_END) == 0) {
				long size = ftell(f);
				rewind(f);
				bytes = size >= 0 ? PyBytes_FromStringAndSize(NULL, size) : NULL;
				if (bytes && fread(PyBytes_AS_STRING(bytes), 1, (size_t)size, f) != (size_t)size) Py_CLEAR(bytes);
			}
			if (f) fclose(f);
			if (!bytes && !PyErr_Occurred()) PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
		}
		remove(path);
	}
	Py_DECREF(img);
	return bytes;
}

static PyObject* world_repr(World* self)
{
	if (!self->world) return PyUnicode_FromString("<puddle.World (not initialised)>");
	pdl_world_def d = pdl_world_get_def(self->world);
	const char* name = self->scene && self->from_file ? self->scene->name : "built in code";
	char t[32];
	snprintf(t, sizeof t, "%.3f", pdl_world_time(self->world));
	int bodies = pdl_world_body_count(self->world);
	return PyUnicode_FromFormat("<puddle.World %s: %dD %s, %d particles, %d bod%s, frame %lld, t = %s s>", name,
	                            d.dimensions, solver_names[d.solver], pdl_world_particle_count(self->world), bodies,
	                            bodies == 1 ? "y" : "ies", self->frame, t);
}

static PyObject* mod_write_png(PyObject* mod, PyObject* args)
{
	(void)mod;
	PyObject *path, *obj;
	if (!PyArg_ParseTuple(args, "O&O:write_png", PyUnicode_FSConverter, &path, &obj)) return NULL;
	PyArrayObject* a = np_from_any(obj, NPY_UINT8, 3, 3, NPY_ARRAY_CARRAY);
	if (!a || PyArray_DIM(a, 2) != 3) {
		if (a) PyErr_SetString(PyExc_ValueError, "write_png: the image must have shape (height, width, 3)");
		Py_XDECREF(a);
		Py_DECREF(path);
		return NULL;
	}
	pdl_error err;
	bool ok = pdl_png_write(PyBytes_AS_STRING(path), (const uint8_t*)PyArray_DATA(a), (int)PyArray_DIM(a, 1),
	                        (int)PyArray_DIM(a, 0), &err);
	Py_DECREF(a);
	Py_DECREF(path);
	if (!ok) return raise_export(&err);
	Py_RETURN_NONE;
}

/* ---- measurement --------------------------------------------------------------------------------- */

static PyObject* world_stats(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	pdl_stats s = pdl_world_stats(self->world);
	int dims = dims_of(self);
	return Py_BuildValue("{s:i,s:i,s:L,s:d,s:d,s:d,s:d,s:d,s:d,s:i,s:N,s:N,s:L}", "particles", s.particles, "springs",
	                     s.springs, "steps", s.steps, "time", s.time, "max_speed", (double)s.max_speed,
	                     "mean_density_error", (double)s.mean_density_error, "max_density_error",
	                     (double)s.max_density_error, "mean_neighbours", (double)s.mean_neighbours, "clumped",
	                     (double)s.clumped, "non_finite", s.non_finite, "momentum", vec_tuple(&s.momentum.x, dims),
	                     "centre_of_mass", vec_tuple(&s.centre_of_mass.x, dims), "device_bytes", s.device_bytes);
}

static PyObject* world_profile(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	pdl_profile p = pdl_world_profile(self->world);
	return Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:i,s:s,s:d,s:i,s:i,s:d,s:d}", "step", (double)p.step,
	                     "forces", (double)p.forces, "predict", (double)p.predict, "springs", (double)p.springs,
	                     "density", (double)p.density, "relax", (double)p.relax, "boundaries", (double)p.boundaries,
	                     "bodies", (double)p.bodies, "velocity", (double)p.velocity, "substeps", p.substeps, "backend",
	                     backend_names[p.backend == PDL_BACKEND_CUDA], "transfer", (double)p.transfer,
	                     "density_iterations", p.density_iterations, "divergence_iterations", p.divergence_iterations,
	                     "density_solve_error", (double)p.density_solve_error, "stalled", (double)p.stalled);
}

/* n rows of `columns` floats from up to three arrays (NULL: zeros), a fresh numpy array */
static PyObject* float_rows(int n, int columns, const float* const* from)
{
	npy_intp shape[2] = {n, columns};
	PyObject* arr = np_new(columns > 1 ? 2 : 1, shape, NPY_FLOAT32, NULL);
	if (!arr) return NULL;
	float* out = PyArray_DATA((PyArrayObject*)arr);
	for (int i = 0; i < n; ++i)
		for (int c = 0; c < columns; ++c) out[(size_t)i * (size_t)columns + (size_t)c] = from[c] ? from[c][i] : 0.0f;
	return arr;
}

static PyObject* world_diffuse(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	pdl_diffuse_data d = pdl_world_diffuse(self->world);
	const float* position[3] = {d.x, d.y, d.z};
	const float* velocity[3] = {d.vx, d.vy, d.vz};
	const float* life[1] = {d.life};
	npy_intp n = d.count;
	PyObject* kind = np_new(1, &n, NPY_UINT8, NULL);
	if (kind && n > 0) memcpy(PyArray_DATA((PyArrayObject*)kind), d.kind, (size_t)n);
	return Py_BuildValue("{s:N,s:N,s:N,s:N,s:i,s:i,s:i}", "positions", float_rows(d.count, 3, position), "velocities",
	                     float_rows(d.count, 3, velocity), "life", float_rows(d.count, 1, life), "kind", kind, "spray",
	                     d.kind_count[PDL_DIFFUSE_SPRAY], "foam", d.kind_count[PDL_DIFFUSE_FOAM], "bubbles",
	                     d.kind_count[PDL_DIFFUSE_BUBBLE]);
}

static PyObject* world_scene_json(World* self, PyObject* noargs)
{
	(void)noargs;
	if (!live(self)) return NULL;
	if (!self->scene || !self->from_file) Py_RETURN_NONE;
	char* json = pdl_scene_to_json(self->scene);
	if (!json) return PyErr_NoMemory();
	PyObject* s = PyUnicode_FromString(json);
	free(json);
	return s;
}

#define INT_GETTER(name, expr)                          \
	static PyObject* get_##name(World* self, void* c)   \
	{                                                   \
		(void)c;                                        \
		if (!live(self)) return NULL;                   \
		return expr;                                    \
	}
INT_GETTER(particle_count, PyLong_FromLong(pdl_world_particle_count(self->world)))
INT_GETTER(dimensions, PyLong_FromLong(dims_of(self)))
INT_GETTER(solver, PyUnicode_FromString(solver_names[pdl_world_get_def(self->world).solver]))
INT_GETTER(time, PyFloat_FromDouble(pdl_world_time(self->world)))
INT_GETTER(frame, PyLong_FromLongLong(self->frame))
INT_GETTER(step_count, PyLong_FromLongLong(pdl_world_step_count(self->world)))
INT_GETTER(thread_count, PyLong_FromLong(pdl_world_thread_count(self->world)))
INT_GETTER(material_count, PyLong_FromLong(pdl_world_material_count(self->world)))
INT_GETTER(next_id, PyLong_FromUnsignedLong(pdl_world_particles(self->world).next_id))
INT_GETTER(backend_note, PyUnicode_FromString(pdl_world_backend_note(self->world)))
INT_GETTER(views, PyLong_FromSsize_t(self->leases))
INT_GETTER(scene_name, self->scene && self->from_file ? PyUnicode_FromString(self->scene->name) : (Py_INCREF(Py_None), Py_None))

static PyObject* get_bounds(World* self, void* c)
{
	(void)c;
	if (!live(self)) return NULL;
	pdl_scene* s = need_scene(self);
	if (!s) return NULL;
	int dims = dims_of(self);
	return Py_BuildValue("(NN)", vec_tuple(&s->bounds_min.x, dims), vec_tuple(&s->bounds_max.x, dims));
}

static PyGetSetDef world_getset[] = {
	{"x", (getter)get_x, NULL, "Positions' x, a read-only float32 view of the world's array (storage order).", NULL},
	{"y", (getter)get_y, NULL, "Positions' y, a read-only float32 view.", NULL},
	{"z", (getter)get_z, NULL, "Positions' z, a read-only float32 view (3D worlds; None in 2D).", NULL},
	{"vx", (getter)get_vx, NULL, "Velocities' x, a read-only float32 view.", NULL},
	{"vy", (getter)get_vy, NULL, "Velocities' y, a read-only float32 view.", NULL},
	{"vz", (getter)get_vz, NULL, "Velocities' z, a read-only float32 view (3D worlds; None in 2D).", NULL},
	{"density", (getter)get_density, NULL, "Density at the last step, a read-only float32 view.", NULL},
	{"pressure", (getter)get_pressure, NULL, "Pressure at the last step, a read-only float32 view.", NULL},
	{"material", (getter)get_material, NULL, "Material ids, a read-only uint8 view.", NULL},
	{"ids", (getter)get_ids, NULL, "Stable particle ids, a read-only uint32 view.", NULL},
	{"positions", (getter)get_positions, NULL, "Positions as a new (n, dimensions) float32 array (a copy).", NULL},
	{"velocities", (getter)get_velocities, NULL, "Velocities as a new (n, dimensions) float32 array (a copy).", NULL},
	{"particle_count", (getter)get_particle_count, NULL, "Particles in the world.", NULL},
	{"dimensions", (getter)get_dimensions, NULL, "2 or 3.", NULL},
	{"solver", (getter)get_solver, NULL, "'clavet', 'sph' or 'dfsph'.", NULL},
	{"time", (getter)get_time, NULL, "Simulated seconds.", NULL},
	{"frame", (getter)get_frame, NULL, "Frames stepped (snapshots keep it): the next frame's scene events are this one's.", NULL},
	{"step_count", (getter)get_step_count, NULL, "Solver substeps taken.", NULL},
	{"thread_count", (getter)get_thread_count, NULL, "Threads the world steps with.", NULL},
	{"material_count", (getter)get_material_count, NULL, "Materials of the world.", NULL},
	{"next_id", (getter)get_next_id, NULL, "The id the next added particle gets.", NULL},
	{"backend_note", (getter)get_backend_note, NULL, "Why the last step of a CUDA world ran on the CPU, or ''.", NULL},
	{"views", (getter)get_views, NULL, "numpy views of the particle arrays alive now.", NULL},
	{"scene_name", (getter)get_scene_name, NULL, "The scene's name, or None for a world built in code.", NULL},
	{"bounds", (getter)get_bounds, NULL, "(min, max): the region pictures frame (the scene's bounds).", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

#define METH(name, fn, flags, doc) {name, (PyCFunction)(void (*)(void))fn, flags, doc}
static PyMethodDef world_methods[] = {
	METH("step", world_step, METH_VARARGS | METH_KEYWORDS, "step(frames=1): advance frames as `puddle run --steps` does."),
	METH("state_hash", world_state_hash, METH_NOARGS, "The state hash as 16 hex digits, as `puddle run` prints it."),
	METH("_c_step_seconds", world_c_step_seconds, METH_O, "Seconds n bare C steps take (for overhead measurement)."),
	METH("get_def", world_get_def, METH_NOARGS, "The world's definition as a dict."),
	METH("set_def", world_set_def, METH_VARARGS | METH_KEYWORDS, "Change fields of the world's definition."),
	METH("add_material", world_add_material, METH_VARARGS | METH_KEYWORDS, "Add a material; returns its id."),
	METH("set_material", world_set_material, METH_VARARGS | METH_KEYWORDS, "set_material(id, **fields)."),
	METH("get_material", world_material, METH_VARARGS, "get_material(id): a material's fields as a dict."),
	METH("rest_density", world_rest_density, METH_VARARGS, "rest_density(id): the density its particles have at rest."),
	METH("add_boundary", world_add_boundary, METH_VARARGS | METH_KEYWORDS, "Add a container or obstacle; returns its id."),
	METH("set_boundary", world_set_boundary, METH_VARARGS | METH_KEYWORDS, "set_boundary(id, **fields)."),
	METH("get_boundary", world_boundary, METH_VARARGS, "get_boundary(id): a boundary's fields as a dict."),
	METH("remove_boundary", world_remove_boundary, METH_VARARGS, "remove_boundary(id)."),
	METH("boundaries", world_boundaries, METH_NOARGS,
	     "Ids of the live boundaries, in slot order (a removed boundary's slot is reused, with a new id)."),
	METH("fill", world_fill, METH_VARARGS | METH_KEYWORDS, "Add particles in a shape; returns how many."),
	METH("add_particles", world_add_particles, METH_VARARGS | METH_KEYWORDS,
	     "add_particles(positions, velocities=None, material=0): returns the new ids."),
	METH("set_particles", world_set_particles, METH_VARARGS | METH_KEYWORDS,
	     "set_particles(positions=None, velocities=None): new values for every particle, in storage order."),
	METH("remove_particles", world_remove_particles, METH_O, "remove_particles(ids): returns how many went."),
	METH("remove_in_circle", world_remove_in_circle, METH_VARARGS | METH_KEYWORDS, "remove_in_circle(center, radius)."),
	METH("remove_in_box", world_remove_in_box, METH_VARARGS | METH_KEYWORDS, "remove_in_box(center, half_extents)."),
	METH("set_pointer", world_set_pointer, METH_VARARGS | METH_KEYWORDS, "set_pointer(index=0, **fields)."),
	METH("clear_pointer", world_clear_pointer, METH_VARARGS, "clear_pointer(index=0)."),
	METH("add_emitter", world_add_emitter, METH_VARARGS | METH_KEYWORDS, "Add an emitter; returns its index."),
	METH("add_body", world_add_body, METH_VARARGS | METH_KEYWORDS, "Add a rigid body; returns its id."),
	METH("get_body", world_body, METH_O, "get_body(id): the body's fields and current state as a dict."),
	METH("set_body", world_set_body, METH_VARARGS | METH_KEYWORDS, "set_body(id, **fields)."),
	METH("remove_body", world_remove_body, METH_O, "remove_body(id)."),
	METH("body_force", world_body_force, METH_O, "body_force(id): (force, torque) of the fluid in the last step."),
	METH("body_mass", world_body_mass, METH_O, "body_mass(id): mass, inertia, sampling."),
	METH("bodies", world_bodies, METH_NOARGS, "Ids of the live bodies."),
	METH("save_snapshot", world_save_snapshot, METH_VARARGS, "save_snapshot(path)."),
	METH("load_snapshot", world_load_snapshot, METH_VARARGS, "load_snapshot(path): returns the frame."),
	METH("export_vtk", world_export_vtk, METH_VARARGS, "export_vtk(path): VTK XML PolyData (.vtp)."),
	METH("export_ply", world_export_ply, METH_VARARGS, "export_ply(path)."),
	METH("export_csv", world_export_csv, METH_VARARGS, "export_csv(path)."),
	METH("export_bodies_vtk", world_export_bodies_vtk, METH_VARARGS, "export_bodies_vtk(path)."),
	METH("export_bodies_csv", world_export_bodies_csv, METH_VARARGS, "export_bodies_csv(path)."),
	METH("render", world_render, METH_VARARGS | METH_KEYWORDS, "render(width=0, height=0, color=None, spheres=False)."),
	METH("_repr_png_", world_repr_png, METH_NOARGS, "The picture as PNG bytes (Jupyter shows a World with it)."),
	METH("stats", world_stats, METH_NOARGS, "Summary numbers of the state."),
	METH("profile", world_profile, METH_NOARGS, "What the last step cost, stage by stage, ms."),
	METH("diffuse", world_diffuse, METH_NOARGS,
	     "The scene's spray, foam and bubbles (copies): positions and velocities (n x 3), life (s), kind "
	     "(0 spray, 1 foam, 2 bubble) and the count of each."),
	METH("scene_json", world_scene_json, METH_NOARGS, "The resolved scene as JSON, or None."),
	{NULL, NULL, 0, NULL},
};

static PyTypeObject WorldType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "puddle._puddle.World",
	.tp_basicsize = sizeof(World),
	.tp_dealloc = (destructor)world_dealloc,
	.tp_repr = (reprfunc)world_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "A puddle world: World(**fields of pdl_world_def), or puddle.load_scene(path).",
	.tp_weaklistoffset = offsetof(World, weakrefs),
	.tp_methods = world_methods,
	.tp_getset = world_getset,
	.tp_init = (initproc)world_init,
	.tp_new = world_new,
};

/* ---- module ---------------------------------------------------------------------------------- */

static PyObject* mod_error_names(PyObject* mod, PyObject* noargs)
{
	(void)mod, (void)noargs;
	PyObject* list = PyList_New(PDL_ERROR_COUNT);
	for (int i = 0; list && i < PDL_ERROR_COUNT; ++i) PyList_SET_ITEM(list, i, PyUnicode_FromString(pdl_error_name((pdl_error_id)i)));
	return list;
}

static PyObject* mod_rest_spacing(PyObject* mod, PyObject* args, PyObject* kwargs)
{
	(void)mod;
	static char* kw[] = {"interaction_radius", "rest_density", "dimensions", NULL};
	float h, rho;
	int dims = 2;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ff|i:rest_spacing", kw, &h, &rho, &dims)) return NULL;
	return PyFloat_FromDouble(dims == 3 ? pdl_rest_spacing_3d(h, rho) : pdl_rest_spacing(h, rho));
}

static PyObject* mod_vector_loops(PyObject* mod, PyObject* noargs)
{
	(void)mod, (void)noargs;
	return PyUnicode_FromString(pdl_vector_loops());
}

static PyMethodDef module_methods[] = {
	METH("load_scene", mod_load_scene, METH_VARARGS | METH_KEYWORDS, "load_scene(path, threads=None, particles=0)."),
	METH("parse_scene", mod_parse_scene, METH_VARARGS | METH_KEYWORDS, "parse_scene(text, name='scene', threads=None, particles=0)."),
	METH("write_png", mod_write_png, METH_VARARGS, "write_png(path, image): an (h, w, 3) uint8 image as PNG."),
	METH("error_names", mod_error_names, METH_NOARGS, "Every error id of the core, by code."),
	METH("rest_spacing", mod_rest_spacing, METH_VARARGS | METH_KEYWORDS, "The fill spacing at a rest density."),
	METH("vector_loops", mod_vector_loops, METH_NOARGS, "The copy of the vector loops worlds run."),
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT, "puddle._puddle", "puddle's C binding (use the puddle package).", -1, module_methods,
	NULL, NULL, NULL, NULL,
};

static PyObject* new_error(PyObject* mod, const char* name, PyObject* base, const char* doc)
{
	char full[64];
	snprintf(full, sizeof full, "puddle.%s", name);
	PyObject* e = PyErr_NewExceptionWithDoc(full, doc, base, NULL);
	if (!e) return NULL;
	Py_INCREF(e);
	if (PyModule_AddObject(mod, name, e) < 0) {
		Py_DECREF(e);
		return NULL;
	}
	return e;
}

PyMODINIT_FUNC PyInit__puddle(void);
PyMODINIT_FUNC PyInit__puddle(void)
{
	if (np_import() < 0) return NULL;
	if (PyType_Ready(&WorldType) < 0 || PyType_Ready(&LeaseType) < 0) return NULL;
	PyObject* mod = PyModule_Create(&module_def);
	if (!mod) return NULL;
	PuddleError = new_error(mod, "PuddleError", PyExc_ValueError,
	                        "A call the core refused. id: the error id ('PDL_ERR_MATERIAL_REST_DENSITY'), code: its "
	                        "number, struct, field and rule: what it is about, value: the value that broke the rule.");
	SceneError = new_error(mod, "SceneError", PuddleError,
	                       "A scene file or text refused: file, path (= field, the JSON path), rule, line and column.");
	SnapshotError = new_error(mod, "SnapshotError", PuddleError, "A snapshot that could not be written or read.");
	PyObject* export_bases = PuddleError ? PyTuple_Pack(2, PuddleError, PyExc_OSError) : NULL;
	ExportError = export_bases ? new_error(mod, "ExportError", export_bases,
	                                       "A file that could not be written (export_*, write_png): id, file, rule; "
	                                       "also an OSError.")
	                           : NULL;
	Py_XDECREF(export_bases);
	if (!PuddleError || !SceneError || !SnapshotError || !ExportError) return NULL;
	static const char* const defaults[] = {"id", "code", "struct", "field", "rule", "value", "file", "path"};
	for (int i = 0; i < N(defaults); ++i)
		if (PyObject_SetAttrString(i < 6 ? PuddleError : SceneError, defaults[i], Py_None) < 0) return NULL;
	if (PyObject_SetAttrString(ExportError, "file", Py_None) < 0) return NULL;
	PyObject* zero = PyLong_FromLong(0);
	if (!zero || PyObject_SetAttrString(SceneError, "line", zero) < 0 || PyObject_SetAttrString(SceneError, "column", zero) < 0) {
		Py_XDECREF(zero);
		return NULL;
	}
	Py_DECREF(zero);
	Py_INCREF(&WorldType);
	if (PyModule_AddObject(mod, "World", (PyObject*)&WorldType) < 0) return NULL;
	PyModule_AddStringConstant(mod, "core_version", pdl_version_string());
	PyModule_AddIntConstant(mod, "MAX_MATERIALS", PDL_MAX_MATERIALS);
	PyModule_AddIntConstant(mod, "MAX_POINTERS", PDL_MAX_POINTERS);
	return mod;
}
