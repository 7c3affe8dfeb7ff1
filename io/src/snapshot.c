/* Binary snapshots (see snapshot.h): a checksummed little-endian byte stream. */
#define _POSIX_C_SOURCE 200809L
#include "puddle/snapshot.h"

#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The bytes a field of the world, boundary or body lists takes in a record (0: not stored). */
#define BYTES_I32 4
#define BYTES_F32 4
#define BYTES_ENUM 4
#define BYTES_COLOR 4
#define BYTES_COUNT 4
#define BYTES_MATERIAL 4
#define BYTES_VEC3 12
#define BYTES_SPIN 12
#define BYTES_QUAT 16
#define BYTES_VERTICES (8 * PDL_MAX_POLYGON_VERTICES)
#define RECORD_SIZE(version, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log,         \
                   shapes, key, snap, since, doc)                                                                      \
	+((snap) && (version) >= (since) ? BYTES_##type : 0)

/* The bytes of one body record in a file of this version: the fields of PDL_BODY_FIELDS
 * (puddle/fields.h) it stores. */
static size_t body_record_size(uint32_t version) { return 0 PDL_BODY_FIELDS(RECORD_SIZE, version); }

static const char magic[8] = {'P', 'D', 'L', 'S', 'N', 'A', 'P', 0};
enum {
	HEADER_SIZE = PDL_SNAPSHOT_HEADER_SIZE,
	SPRINGS = PDL_MAX_SPRINGS_PER_PARTICLE,
	/* the oldest version this build reads: 2 has no bodies (they came with 3), 3 no DFSPH
	 * pressures (4) */
	OLDEST_VERSION = 2,
	/* the particle flags byte (version 4; before it, 0 or 1 for springs) */
	FLAG_SPRINGS = 1,
	FLAG_PRESSURES = 2, /* DFSPH's warm start: f32[n] pressure, f32[n] divergence pressure */
};

static uint64_t fnv1a(const uint8_t* b, size_t n) { return pdl_snapshot_checksum(PDL_SNAPSHOT_CHECKSUM_START, b, n); }

/* ---- writing -------------------------------------------------------------------------------------- */

typedef struct buffer {
	uint8_t* data;
	size_t size, capacity;
	bool failed;
} buffer;

static void put(buffer* b, const void* src, size_t n)
{
	if (b->failed) return;
	if (b->size + n > b->capacity) {
		size_t cap = b->capacity ? b->capacity : 4096;
		while (cap < b->size + n) cap *= 2;
		uint8_t* d = realloc(b->data, cap);
		if (!d) {
			b->failed = true;
			return;
		}
		b->data = d, b->capacity = cap;
	}
	memcpy(b->data + b->size, src, n);
	b->size += n;
}

static void put_u64(buffer* b, uint64_t v)
{
	uint8_t x[8];
	for (int i = 0; i < 8; ++i) x[i] = (uint8_t)(v >> (8 * i));
	put(b, x, 8);
}
static void put_u32(buffer* b, uint32_t v)
{
	uint8_t x[4];
	for (int i = 0; i < 4; ++i) x[i] = (uint8_t)(v >> (8 * i));
	put(b, x, 4);
}
static void put_u8(buffer* b, uint8_t v) { put(b, &v, 1); }
static void put_i32(buffer* b, int32_t v) { put_u32(b, (uint32_t)v); }
static void put_f32(buffer* b, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	put_u32(b, u);
}
static void put_f64(buffer* b, double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	put_u64(b, u);
}
#define PUT_F32 put_f32
#define PUT_COLOR put_u32
static void put_vec2(buffer* b, pdl_vec2 v) { put_f32(b, v.x), put_f32(b, v.y); }
static void put_vec3(buffer* b, pdl_vec3 v) { put_f32(b, v.x), put_f32(b, v.y), put_f32(b, v.z); }

/* A material record: its fields in the declaration's order (puddle/fields.h), each that
 * `version` stores (its `since` is not later). */
static void put_material(buffer* b, const pdl_material_def* m, uint32_t version)
{
#define PUT_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, since, doc) \
	if (version >= (since)) PUT_##type(b, m->name);
	PDL_MATERIAL_FIELDS(PUT_FIELD, ~)
#undef PUT_FIELD
}

/* A record of the world, boundary and body lists (puddle/fields.h): the fields in the order of
 * their snap column (docs/cli.md, "Snapshot format"), each that `version` stores. */
#define PUT_RECORD_I32(b, v) put_i32(b, (int32_t)(v))
#define PUT_RECORD_ENUM PUT_RECORD_I32
#define PUT_RECORD_COUNT PUT_RECORD_I32
#define PUT_RECORD_MATERIAL PUT_RECORD_I32
#define PUT_RECORD_F32 put_f32
#define PUT_RECORD_COLOR put_u32
#define PUT_RECORD_VEC3 put_vec3
#define PUT_RECORD_SPIN put_vec3
#define PUT_RECORD_QUAT(b, q) (put_f32(b, (q).x), put_f32(b, (q).y), put_f32(b, (q).z), put_f32(b, (q).w))
#define PUT_RECORD_VERTICES(b, v)                                                                                      \
	for (int i = 0; i < PDL_MAX_POLYGON_VERTICES; ++i) put_vec2(b, (v)[i])
#define PUT_AT(at, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log,                   \
                   shapes, key, snap, since, doc)                                                                      \
	if ((snap) == at && version >= (since)) {                                                                        \
		PUT_RECORD_##type(b, d->name);                                                                           \
	}
#define PUT_RECORD(LIST)                                                                                               \
	for (int at = 1; at <= 0 LIST(COUNT_STORED, ~); ++at) {                                                          \
		LIST(PUT_AT, at)                                                                                         \
	}
#define COUNT_STORED(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log,              \
                   shapes, key, snap, since, doc) +((snap) > 0)

static void put_world(buffer* b, const pdl_world_def* d, uint32_t version) { PUT_RECORD(PDL_WORLD_FIELDS) }
static void put_boundary(buffer* b, const pdl_boundary_def* d, uint32_t version) { PUT_RECORD(PDL_BOUNDARY_FIELDS) }
static void put_body(buffer* b, const pdl_body_def* d, uint32_t version) { PUT_RECORD(PDL_BODY_FIELDS) }

/* The payload before the particle arrays: clock, scene, world def, materials, boundaries, and
 * the particle count, next id and spring flag of a world of `count` particles. */
static void put_head(buffer* b, const pdl_world* w, const pdl_snapshot_info* info, uint32_t count, uint32_t next_id,
                     bool springs, bool pressures, uint32_t version)
{
	put_u64(b, (uint64_t)info->frame);
	put_f64(b, pdl_world_time(w));
	put_u64(b, (uint64_t)pdl_world_step_count(w));
	put_u64(b, info->scene_hash);
	char name[64] = {0};
	snprintf(name, sizeof name, "%s", info->scene_name);
	put(b, name, sizeof name);

	pdl_world_def wd = pdl_world_get_def(w);
	put_world(b, &wd, version);

	int materials = pdl_world_material_count(w);
	put_u32(b, (uint32_t)materials);
	for (int m = 0; m < materials; ++m) {
		pdl_material_def md = pdl_world_get_material(w, m);
		put_material(b, &md, version);
	}
	/* by slot, not by id: the generations are not stored, a restored world keeps its own (the
	 * scene's world has the same boundaries in the same slots) */
	int limit = pdl_world_boundary_slots(w);
	put_u32(b, (uint32_t)limit);
	for (int slot = 0; slot < limit; ++slot) {
		pdl_boundary_def d;
		bool alive = pdl_world_get_boundary(w, pdl_world_boundary_in_slot(w, slot), &d);
		put_u8(b, alive);
		if (alive) put_boundary(b, &d, version);
	}
	put_u32(b, count);
	put_u32(b, next_id);
	put_u8(b, (uint8_t)((springs ? FLAG_SPRINGS : 0) | (pressures ? FLAG_PRESSURES : 0)));
}

/* The payload after the particles: the bodies in slot order (re-added in this order into a fresh
 * world they are the same bodies, bitwise: their state is their def); nothing before version 3,
 * which brought bodies. */
static void put_tail(buffer* b, const pdl_world* w, uint32_t version)
{
	if (version < 3) return;
	int bodies = pdl_world_bodies(w, NULL, 0);
	pdl_body_id* ids = malloc((size_t)(bodies + 1) * sizeof *ids);
	if (!ids) b->failed = true;
	else pdl_world_bodies(w, ids, bodies);
	put_u32(b, (uint32_t)bodies);
	for (int k = 0; ids && k < bodies; ++k) {
		pdl_body_def d;
		pdl_world_get_body(w, ids[k], &d);
		put_body(b, &d, version);
	}
	free(ids);
}

uint64_t pdl_snapshot_checksum(uint64_t state, const void* bytes, size_t size)
{
	const uint8_t* b = bytes;
	for (size_t i = 0; i < size; ++i) state = (state ^ b[i]) * 0x100000001b3ull;
	return state;
}

static void encode_header(uint8_t out[PDL_SNAPSHOT_HEADER_SIZE], uint64_t payload_size, uint64_t checksum,
                          uint32_t version)
{
	const uint64_t fields[] = {version | (uint64_t)HEADER_SIZE << 32, payload_size, checksum, 0};
	memcpy(out, magic, sizeof magic);
	for (int f = 0; f < 4; ++f)
		for (int i = 0; i < 8; ++i) out[8 + 8 * f + i] = (uint8_t)(fields[f] >> (8 * i));
}

void pdl_snapshot_encode_header(uint8_t out[PDL_SNAPSHOT_HEADER_SIZE], uint64_t payload_size, uint64_t checksum)
{
	encode_header(out, payload_size, checksum, PDL_SNAPSHOT_VERSION);
}

bool pdl_snapshot_encode_parts(const pdl_world* w, const pdl_snapshot_info* info, uint32_t count, uint32_t next_id,
                               bool springs, bool pressures, pdl_snapshot_parts* parts)
{
	buffer head = {0}, tail = {0};
	put_head(&head, w, info, count, next_id, springs, pressures, PDL_SNAPSHOT_VERSION);
	put_tail(&tail, w, PDL_SNAPSHOT_VERSION);
	if (head.failed || tail.failed) {
		free(head.data), free(tail.data);
		*parts = (pdl_snapshot_parts){0};
		return false;
	}
	*parts = (pdl_snapshot_parts){head.data, head.size, tail.data, tail.size};
	return true;
}

void pdl_snapshot_parts_free(pdl_snapshot_parts* parts)
{
	free(parts->head), free(parts->tail);
	*parts = (pdl_snapshot_parts){0};
}

/* Why a file of `version` cannot hold world w without losing part of it (NULL: it can): what
 * that version does not store must be absent or at its default. */
#define DIFFERS_SINCE(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, since, doc) \
	if (version < (since) && memcmp(&m.name, &def.name, sizeof m.name) != 0) return "material." #name;
#define RECORD_DIFFERS_SINCE(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log,     \
                             shapes, key, snap, since, doc)                                                            \
	if ((snap) && version < (since) && memcmp(&d.name, &def.name, sizeof d.name) != 0) return A "." #name;
static const char* body_lost_in_version(const pdl_world* w, pdl_body_id id, uint32_t version)
{
	pdl_body_def d, def = pdl_default_body_def();
	if (pdl_world_get_body(w, id, &d)) {
		PDL_BODY_FIELDS(RECORD_DIFFERS_SINCE, "body")
	}
	return NULL;
}

static const char* lost_in_version(const pdl_world* w, uint32_t version)
{
	if (version < 3 && pdl_world_bodies(w, NULL, 0) > 0) return "bodies";
	if (version < 4 && pdl_world_particles(w).divergence_pressure) return "DFSPH pressures";
	for (int k = 0; k < pdl_world_material_count(w); ++k) {
		pdl_material_def m = pdl_world_get_material(w, k), def = pdl_default_material_def();
		PDL_MATERIAL_FIELDS(DIFFERS_SINCE, ~)
	}
	{
		pdl_world_def d = pdl_world_get_def(w), def = pdl_default_world_def();
		PDL_WORLD_FIELDS(RECORD_DIFFERS_SINCE, "world")
	}
	for (int slot = 0; slot < pdl_world_boundary_slots(w); ++slot) {
		pdl_boundary_def d, def = pdl_default_boundary_def();
		if (pdl_world_get_boundary(w, pdl_world_boundary_in_slot(w, slot), &d)) {
			PDL_BOUNDARY_FIELDS(RECORD_DIFFERS_SINCE, "boundary")
		}
	}
	int bodies = pdl_world_bodies(w, NULL, 0);
	pdl_body_id* ids = bodies > 0 ? malloc((size_t)bodies * sizeof *ids) : NULL;
	const char* lost = NULL;
	if (ids) bodies = pdl_world_bodies(w, ids, bodies);
	for (int k = 0; ids && !lost && k < bodies; ++k) lost = body_lost_in_version(w, ids[k], version);
	free(ids);
	return lost;
}
#undef DIFFERS_SINCE
#undef RECORD_DIFFERS_SINCE

bool pdl_snapshot_write(const char* path, const pdl_world* w, const pdl_snapshot_info* info, pdl_error* err)
{
	return pdl_snapshot_write_version(path, w, info, PDL_SNAPSHOT_VERSION, err);
}

bool pdl_snapshot_write_version(const char* path, const pdl_world* w, const pdl_snapshot_info* info, uint32_t version,
                                pdl_error* err)
{
	if (version < OLDEST_VERSION || version > PDL_SNAPSHOT_VERSION) {
		pdl_error_fill(err, PDL_ERR_SNAPSHOT_HEADER, path, NULL,
		               "cannot write snapshot version %u (this build writes versions %d to %d)", (unsigned)version,
		               OLDEST_VERSION, PDL_SNAPSHOT_VERSION);
		return false;
	}
	const char* lost = lost_in_version(w, version);
	if (lost) {
		pdl_error_fill(err, PDL_ERR_SNAPSHOT_WORLD, path, NULL,
		               "snapshot version %u cannot hold this world's %s, which came later: nothing written",
		               (unsigned)version, lost);
		return false;
	}
	buffer b = {0};
	pdl_particle_data p = pdl_world_particles(w);
	size_t n = (size_t)p.count;
	put_head(&b, w, info, (uint32_t)p.count, p.next_id, p.spring_partner != NULL, p.divergence_pressure != NULL,
	         version);
	for (size_t i = 0; i < n; ++i) put_f32(&b, p.x[i]);
	for (size_t i = 0; i < n; ++i) put_f32(&b, p.y[i]);
	for (size_t i = 0; i < n; ++i) put_f32(&b, p.vx[i]);
	for (size_t i = 0; i < n; ++i) put_f32(&b, p.vy[i]);
	if (pdl_world_get_def(w).dimensions == 3) {
		for (size_t i = 0; i < n; ++i) put_f32(&b, p.z[i]);
		for (size_t i = 0; i < n; ++i) put_f32(&b, p.vz[i]);
	}
	put(&b, p.material, n);
	for (size_t i = 0; i < n; ++i) put_u32(&b, p.id[i]);
	if (p.spring_partner) {
		for (size_t k = 0; k < n * SPRINGS; ++k) put_i32(&b, p.spring_partner[k]);
		for (size_t k = 0; k < n * SPRINGS; ++k) put_f32(&b, p.spring_rest[k]);
	}
	if (p.divergence_pressure) {
		for (size_t i = 0; i < n; ++i) put_f32(&b, p.pressure[i]);
		for (size_t i = 0; i < n; ++i) put_f32(&b, p.divergence_pressure[i]);
	}
	put_tail(&b, w, version);
	if (b.failed) {
		free(b.data);
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	uint8_t head[HEADER_SIZE];
	encode_header(head, (uint64_t)b.size, fnv1a(b.data, b.size), version);
	pdl_atomic_file a;
	bool ok = pdl_atomic_open(&a, path, err);
	if (ok) {
		fwrite(head, 1, sizeof head, a.f);
		fwrite(b.data, 1, b.size, a.f);
		ok = pdl_atomic_commit(&a, err);
	}
	free(b.data);
	return ok;
}

/* ---- reading -------------------------------------------------------------------------------------- */

typedef struct cursor {
	const uint8_t* data;
	size_t size, at;
	bool short_read;
} cursor;

static const uint8_t* take(cursor* c, size_t n)
{
	if (c->short_read || n > c->size - c->at) {
		c->short_read = true;
		return NULL;
	}
	const uint8_t* p = c->data + c->at;
	c->at += n;
	return p;
}
static uint64_t get_u64(cursor* c)
{
	const uint8_t* p = take(c, 8);
	uint64_t v = 0;
	for (int i = 0; p && i < 8; ++i) v |= (uint64_t)p[i] << (8 * i);
	return v;
}
static uint32_t get_u32(cursor* c)
{
	const uint8_t* p = take(c, 4);
	uint32_t v = 0;
	for (int i = 0; p && i < 4; ++i) v |= (uint32_t)p[i] << (8 * i);
	return v;
}
static uint8_t get_u8(cursor* c)
{
	const uint8_t* p = take(c, 1);
	return p ? *p : 0;
}
static int32_t get_i32(cursor* c) { return (int32_t)get_u32(c); }
static float get_f32(cursor* c)
{
	uint32_t u = get_u32(c);
	float v;
	memcpy(&v, &u, 4);
	return v;
}
static double get_f64(cursor* c)
{
	uint64_t u = get_u64(c);
	double v;
	memcpy(&v, &u, 8);
	return v;
}
static pdl_vec2 get_vec2(cursor* c)
{
	pdl_vec2 v;
	v.x = get_f32(c);
	v.y = get_f32(c);
	return v;
}
static pdl_vec3 get_vec3(cursor* c)
{
	pdl_vec3 v;
	v.x = get_f32(c);
	v.y = get_f32(c);
	v.z = get_f32(c);
	return v;
}

/* A field a file of this version lacks (its `since` is later) keeps its default. */
#define GET_F32 get_f32
#define GET_COLOR get_u32
static void get_material(cursor* c, uint32_t version, pdl_material_def* m)
{
	*m = pdl_default_material_def();
#define GET_FIELD(A, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log, since, ...) \
	if (version >= (since)) m->name = GET_##type(c);
	PDL_MATERIAL_FIELDS(GET_FIELD, ~)
#undef GET_FIELD
}

/* A record of the world, boundary and body lists, as put_world and its kin wrote it; a field a
 * file of this version lacks (its `since` is later) keeps its default. */
#define GET_RECORD_I32(c, dst, ctype) dst = (ctype)get_i32(c)
#define GET_RECORD_ENUM GET_RECORD_I32
#define GET_RECORD_COUNT GET_RECORD_I32
#define GET_RECORD_MATERIAL GET_RECORD_I32
#define GET_RECORD_F32(c, dst, ctype) dst = get_f32(c)
#define GET_RECORD_COLOR(c, dst, ctype) dst = get_u32(c)
#define GET_RECORD_VEC3(c, dst, ctype) dst = get_vec3(c)
#define GET_RECORD_SPIN GET_RECORD_VEC3
#define GET_RECORD_QUAT(c, dst, ctype) (dst.x = get_f32(c), dst.y = get_f32(c), dst.z = get_f32(c), dst.w = get_f32(c))
#define GET_RECORD_VERTICES(c, dst, ctype)                                                                             \
	for (int i = 0; i < PDL_MAX_POLYGON_VERTICES; ++i) dst[i] = get_vec2(c)
#define GET_AT(at, name, ctype, type, deflt, rule, lo, hi, error, unit, scale, ui_lo, ui_hi, ui_log,                   \
                   shapes, key, snap, since, doc)                                                                      \
	if ((snap) == at && version >= (since)) {                                                                        \
		GET_RECORD_##type(c, d->name, ctype);                                                                    \
	}
#define GET_RECORD(LIST)                                                                                               \
	for (int at = 1; at <= 0 LIST(COUNT_STORED, ~); ++at) {                                                          \
		LIST(GET_AT, at)                                                                                         \
	}

static void get_world(cursor* c, uint32_t version, pdl_world_def* d)
{
	*d = pdl_default_world_def();
	GET_RECORD(PDL_WORLD_FIELDS)
}
static void get_boundary(cursor* c, uint32_t version, pdl_boundary_def* d)
{
	*d = pdl_default_boundary_def();
	GET_RECORD(PDL_BOUNDARY_FIELDS)
}
static void get_body(cursor* c, uint32_t version, pdl_body_def* d)
{
	*d = pdl_default_body_def();
	GET_RECORD(PDL_BODY_FIELDS)
}

/* Everything a snapshot holds, decoded. Particle arrays point into the file's bytes only after
 * copying (the file is little-endian, the machine may not be). */
typedef struct decoded {
	pdl_snapshot_info info;
	double time;
	long long steps;
	pdl_world_def world;
	int material_count;
	pdl_material_def materials[PDL_MAX_MATERIALS];
	int boundary_limit;
	bool* alive;
	pdl_boundary_def* boundaries;
	int count;
	uint32_t next_id;
	bool springs, pressures;
	float *x, *y, *vx, *vy, *z, *vz, *rest; /* z, vz: 3D worlds only */
	float *pressure, *divergence_pressure;  /* with pressures (DFSPH's warm start) */
	uint8_t* material;
	uint32_t* id;
	int32_t* partner;
	int body_count; /* 0 in version 2 files */
	pdl_body_def* bodies;
} decoded;

static void free_decoded(decoded* d)
{
	free(d->alive), free(d->boundaries), free(d->x), free(d->y), free(d->vx), free(d->vy), free(d->rest);
	free(d->z), free(d->vz);
	free(d->material), free(d->id), free(d->partner), free(d->bodies);
	free(d->pressure), free(d->divergence_pressure);
}

/* "path: what"; always false */
static bool fail(pdl_error* err, pdl_error_id id, const char* path, const char* what)
{
	pdl_error_fill(err, id, path, NULL, "%s", what);
	return false;
}

/* The header's checks; the sizes it gives are then checked against the bytes present. */
static bool check_header(const char* path, const uint8_t* head, size_t got, uint32_t* version, uint64_t* payload_size,
                         uint64_t* checksum, pdl_error* err)
{
	if (got < sizeof magic || memcmp(head, magic, sizeof magic) != 0)
		return fail(err, PDL_ERR_SNAPSHOT_HEADER, path, "not a puddle snapshot (wrong magic bytes)");
	if (got < HEADER_SIZE) return fail(err, PDL_ERR_SNAPSHOT_CORRUPT, path, "truncated snapshot: the header is incomplete");
	cursor hc = {head, HEADER_SIZE, sizeof magic, false};
	*version = get_u32(&hc);
	uint32_t header_size = get_u32(&hc);
	*payload_size = get_u64(&hc), *checksum = get_u64(&hc);
	uint64_t reserved = get_u64(&hc);
	if (*version < OLDEST_VERSION || *version > PDL_SNAPSHOT_VERSION) {
		pdl_error_fill(err, PDL_ERR_SNAPSHOT_HEADER, path, NULL,
		               "snapshot version %u is not supported (this build reads versions %d to %d)", (unsigned)*version,
		               OLDEST_VERSION, PDL_SNAPSHOT_VERSION);
		return false;
	}
	if (header_size != HEADER_SIZE || *payload_size > ((uint64_t)1 << 40))
		return fail(err, PDL_ERR_SNAPSHOT_CORRUPT, path, "corrupted snapshot: impossible header sizes");
	/* written as 0 by every version: anything else is damage the checksum (of the payload
	 * only) would not see */
	if (reserved != 0) return fail(err, PDL_ERR_SNAPSHOT_CORRUPT, path, "corrupted snapshot: reserved header bytes 32 to 39 are not 0");
	return true;
}

static bool check_payload_size(const char* path, uint64_t present, uint64_t payload_size, bool extra, pdl_error* err)
{
	if (present < payload_size) {
		pdl_error_fill(err, PDL_ERR_SNAPSHOT_CORRUPT, path, NULL, "truncated snapshot: %llu of %llu payload bytes present",
		               (unsigned long long)present, (unsigned long long)payload_size);
		return false;
	}
	if (extra) return fail(err, PDL_ERR_SNAPSHOT_CORRUPT, path, "corrupted snapshot: bytes after the payload");
	return true;
}

static bool decode(const char* path, uint32_t version, uint64_t checksum, const uint8_t* payload, size_t payload_size,
                   decoded* d, pdl_error* err);

/* Reads and checks the whole file into d. */
static bool load(const char* path, decoded* d, pdl_error* err)
{
	memset(d, 0, sizeof *d);
	/* O_NONBLOCK: a FIFO given as the snapshot must be refused, not waited on forever */
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		pdl_error_fill(err, PDL_ERR_FILE_OPEN, path, NULL, "cannot open: %s", strerror(errno));
		if (fd >= 0) close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, PDL_ERR_FILE_OPEN, path,
		            S_ISDIR(st.st_mode) ? "is a folder; give one of the snapshot files in it (snap_NNNNNN.pdls)"
		                                : "is not a regular file (a pipe, device or socket); give a snapshot file");
	}
	FILE* f = fdopen(fd, "rb");
	if (!f) {
		pdl_error_fill(err, PDL_ERR_FILE_OPEN, path, NULL, "cannot open: %s", strerror(errno));
		close(fd);
		return false;
	}
	uint8_t head[HEADER_SIZE];
	size_t got = fread(head, 1, sizeof head, f);
	uint32_t version;
	uint64_t payload_size, checksum;
	if (!check_header(path, head, got, &version, &payload_size, &checksum, err)) {
		fclose(f);
		return false;
	}
	/* the header's size against the file's before allocating it: a damaged size field must say
	 * "truncated", not "out of memory" after asking for up to 1 TiB */
	uint64_t present = (uint64_t)st.st_size - HEADER_SIZE;
	if (present < payload_size) {
		fclose(f);
		return check_payload_size(path, present, payload_size, false, err);
	}
	uint8_t* payload = malloc(payload_size ? (size_t)payload_size : 1);
	if (!payload) {
		fclose(f);
		return fail(err, PDL_ERR_OUT_OF_MEMORY, path, "out of memory");
	}
	size_t n = fread(payload, 1, (size_t)payload_size, f);
	bool extra = fgetc(f) != EOF;
	fclose(f);
	bool ok = check_payload_size(path, n, payload_size, extra, err) &&
	          decode(path, version, checksum, payload, (size_t)payload_size, d, err);
	free(payload);
	return ok;
}

/* The same from bytes in memory. */
static bool load_memory(const char* name, const uint8_t* data, size_t size, decoded* d, pdl_error* err)
{
	memset(d, 0, sizeof *d);
	uint32_t version;
	uint64_t payload_size, checksum;
	if (!data) size = 0;
	if (!check_header(name, data, size, &version, &payload_size, &checksum, err)) return false;
	return check_payload_size(name, size - HEADER_SIZE, payload_size, size - HEADER_SIZE > payload_size, err) &&
	       decode(name, version, checksum, data + HEADER_SIZE, (size_t)payload_size, d, err);
}

/* The payload into d (which owns what it allocates; the payload stays the caller's). */
static bool decode(const char* path, uint32_t version, uint64_t checksum, const uint8_t* payload, size_t payload_size,
                   decoded* d, pdl_error* err)
{
#ifdef PUDDLE_FUZZ_NO_CHECKSUM
	(void)checksum; /* fuzz builds only: random bytes reach the decoder instead of stopping here */
#else
	if (fnv1a(payload, payload_size) != checksum) return fail(err, PDL_ERR_SNAPSHOT_CORRUPT, path, "corrupted snapshot: checksum mismatch");
#endif

	cursor c = {payload, payload_size, 0, false};
	d->info.frame = (long long)get_u64(&c);
	d->time = get_f64(&c);
	d->steps = (long long)get_u64(&c);
	d->info.scene_hash = get_u64(&c);
	const uint8_t* name = take(&c, sizeof d->info.scene_name);
	if (name) memcpy(d->info.scene_name, name, sizeof d->info.scene_name);
	d->info.scene_name[sizeof d->info.scene_name - 1] = 0;
	get_world(&c, version, &d->world);
	if (d->world.dimensions != 2 && d->world.dimensions != 3) goto corrupt;
	uint32_t materials = get_u32(&c);
	if (materials > PDL_MAX_MATERIALS) goto corrupt;
	d->material_count = (int)materials;
	for (uint32_t m = 0; m < materials; ++m) get_material(&c, version, &d->materials[m]);
	uint32_t limit = get_u32(&c);
	if (limit > (uint32_t)(c.size / 2)) goto corrupt;
	d->boundary_limit = (int)limit;
	d->alive = calloc(limit + 1, sizeof *d->alive);
	d->boundaries = calloc(limit + 1, sizeof *d->boundaries);
	if (!d->alive || !d->boundaries) goto oom;
	for (uint32_t i = 0; i < limit; ++i) {
		d->alive[i] = get_u8(&c) != 0;
		if (d->alive[i]) get_boundary(&c, version, &d->boundaries[i]);
	}
	uint32_t count = get_u32(&c);
	d->next_id = get_u32(&c);
	const uint8_t flags = get_u8(&c);
	if (version >= 4 && (flags & ~(FLAG_SPRINGS | FLAG_PRESSURES))) goto corrupt;
	d->springs = version >= 4 ? (flags & FLAG_SPRINGS) != 0 : flags != 0;
	d->pressures = version >= 4 && (flags & FLAG_PRESSURES);
	bool is_3d = d->world.dimensions == 3;
	size_t per = 4 * (is_3d ? 7 : 5) + 1 + (d->springs ? 8 * SPRINGS : 0) + (d->pressures ? 8 : 0);
	if (c.short_read || count > (c.size - c.at) / per || count > (uint32_t)67108864) goto corrupt;
	d->count = (int)count;
	size_t cn = count ? count : 1;
	d->x = malloc(cn * 4), d->y = malloc(cn * 4), d->vx = malloc(cn * 4), d->vy = malloc(cn * 4);
	d->material = malloc(cn), d->id = malloc(cn * 4);
	if (is_3d) d->z = malloc(cn * 4), d->vz = malloc(cn * 4);
	if (!d->x || !d->y || !d->vx || !d->vy || !d->material || !d->id || (is_3d && (!d->z || !d->vz))) goto oom;
	float* arrays[6] = {d->x, d->y, d->vx, d->vy, d->z, d->vz};
	for (int a = 0; a < (is_3d ? 6 : 4); ++a)
		for (uint32_t i = 0; i < count; ++i) arrays[a][i] = get_f32(&c);
	const uint8_t* mats = take(&c, count);
	if (mats) memcpy(d->material, mats, count);
	for (uint32_t i = 0; i < count; ++i) d->id[i] = get_u32(&c);
	if (d->springs) {
		d->partner = malloc(cn * SPRINGS * 4);
		d->rest = malloc(cn * SPRINGS * 4);
		if (!d->partner || !d->rest) goto oom;
		for (size_t k = 0; k < (size_t)count * SPRINGS; ++k) d->partner[k] = get_i32(&c);
		for (size_t k = 0; k < (size_t)count * SPRINGS; ++k) d->rest[k] = get_f32(&c);
	}
	if (d->pressures) {
		d->pressure = malloc(cn * 4), d->divergence_pressure = malloc(cn * 4);
		if (!d->pressure || !d->divergence_pressure) goto oom;
		for (uint32_t i = 0; i < count; ++i) d->pressure[i] = get_f32(&c);
		for (uint32_t i = 0; i < count; ++i) d->divergence_pressure[i] = get_f32(&c);
	}
	if (version >= 3) {
		uint32_t bodies = get_u32(&c);
		if (c.short_read || bodies > PDL_MAX_BODIES || (size_t)bodies * body_record_size(version) != c.size - c.at) {
			free_decoded(d);
			pdl_error_fill(err, PDL_ERR_SNAPSHOT_CORRUPT, path, NULL,
			               "corrupted snapshot: %u body records do not fill the %zu bytes left for them", (unsigned)bodies,
			               c.short_read ? (size_t)0 : c.size - c.at);
			return false;
		}
		d->body_count = (int)bodies;
		d->bodies = malloc((bodies + 1) * sizeof *d->bodies);
		if (!d->bodies) goto oom;
		for (uint32_t k = 0; k < bodies; ++k) get_body(&c, version, &d->bodies[k]);
	}
	if (c.short_read || c.at != c.size) goto corrupt;
	return true;
corrupt:
	free_decoded(d);
	return fail(err, PDL_ERR_SNAPSHOT_CORRUPT, path, "corrupted snapshot: sizes inside the payload do not add up");
oom:
	free_decoded(d);
	return fail(err, PDL_ERR_OUT_OF_MEMORY, path, "out of memory");
}

bool pdl_snapshot_peek(const char* path, pdl_snapshot_info* info, pdl_error* err)
{
	decoded d;
	if (!load(path, &d, err)) return false;
	if (info) *info = d.info;
	free_decoded(&d);
	return true;
}

/* Whether a world like the one the snapshot restores (its def, materials and boundaries) takes
 * every body record, tried in a scratch world so that a refused record leaves the caller's
 * world as it was; what says which record and why not. */
static bool bodies_accepted(const decoded* d, const pdl_world_def* def, char* what, size_t what_size)
{
	if (d->body_count == 0) return true;
	pdl_world_def scratch_def = *def;
	scratch_def.threads = 1;
	pdl_error e;
	pdl_world* scratch = pdl_world_create(&scratch_def, &e);
	bool ok = scratch != NULL;
	if (!ok) snprintf(what, what_size, "the world refused the snapshot's state: %s", e.message);
	for (int m = 0; ok && m < d->material_count; ++m)
		if (pdl_world_add_material(scratch, &d->materials[m], &e) < 0) {
			snprintf(what, what_size, "the world refused the snapshot's state: %s", e.message);
			ok = false;
		}
	for (int slot = 0; ok && slot < d->boundary_limit; ++slot)
		if (d->alive[slot] && pdl_world_add_boundary(scratch, &d->boundaries[slot], &e).index < 0) {
			snprintf(what, what_size, "the world refused the snapshot's state: %s", e.message);
			ok = false;
		}
	for (int k = 0; ok && k < d->body_count; ++k)
		if (pdl_world_add_body(scratch, &d->bodies[k], &e).index < 0) {
			snprintf(what, what_size, "body record %d of %d (slot order) refused: %s", k, d->body_count, e.message);
			ok = false;
		}
	pdl_world_destroy(scratch);
	return ok;
}

/* Restores w from a decoded snapshot, then frees d; path names it in messages. */
static bool restore(const char* path, decoded d, pdl_world* w, pdl_snapshot_info* info, pdl_error* err)
{
	bool ok = false;
	char what[sizeof ((pdl_error*)0)->message + 128];
	pdl_error_id why = PDL_ERR_SNAPSHOT_WORLD;
	/* the world must have the same shape of state: same dimensions, materials, boundary ids */
	if (d.world.dimensions != pdl_world_get_def(w).dimensions) {
		snprintf(what, sizeof what, "snapshot is of a %dD world, the scene's world is %dD", d.world.dimensions,
		         pdl_world_get_def(w).dimensions);
		goto done;
	}
	if (d.material_count != pdl_world_material_count(w)) {
		snprintf(what, sizeof what, "snapshot has %d materials, the scene's world has %d", d.material_count,
		         pdl_world_material_count(w));
		goto done;
	}
	int limit = pdl_world_boundary_slots(w);
	for (int slot = 0; slot < d.boundary_limit; ++slot) {
		if (d.alive[slot] && !pdl_world_boundary_valid(w, pdl_world_boundary_in_slot(w, slot))) {
			snprintf(what, sizeof what, "snapshot has boundary %d, the scene's world does not", slot);
			goto done;
		}
	}
	pdl_error e;
	pdl_world_def wd = d.world;
	wd.threads = pdl_world_get_def(w).threads; /* threads never change results */
	/* the solver and its SPH settings are not in the snapshot: they are the scene's, which the
	 * world was built from */
	wd.solver = pdl_world_get_def(w).solver;
	wd.sph = pdl_world_get_def(w).sph;
	if (!bodies_accepted(&d, &wd, what, sizeof what)) goto done;
	if (pdl_world_set_def(w, &wd, &e)) goto refused;
	for (int m = 0; m < d.material_count; ++m)
		if (pdl_world_set_material(w, m, &d.materials[m], &e)) goto refused;
	for (int slot = 0; slot < limit || slot < d.boundary_limit; ++slot) {
		const pdl_boundary_id id = pdl_world_boundary_in_slot(w, slot);
		bool here = id.index >= 0, there = slot < d.boundary_limit && d.alive[slot];
		if (there && pdl_world_set_boundary(w, id, &d.boundaries[slot], &e)) goto refused;
		if (here && !there && pdl_world_remove_boundary(w, id, &e)) goto refused;
	}
	pdl_particle_data p = {0};
	p.count = d.count;
	p.x = d.x, p.y = d.y, p.vx = d.vx, p.vy = d.vy;
	p.z = d.z, p.vz = d.vz;
	p.material = d.material;
	p.id = d.id;
	p.spring_partner = d.partner;
	p.spring_rest = d.rest;
	p.pressure = d.pressure, p.divergence_pressure = d.divergence_pressure;
	p.next_id = d.next_id;
	if (pdl_world_set_particles(w, &p, &e)) goto refused;
	/* the snapshot's bodies replace the scene's, in slot order: into the same slots when there
	 * are as many (a run resumed from its scene's world, so each body keeps its id, which the
	 * bodies' CSV and VTK files name), else all removed and re-added */
	int live = pdl_world_bodies(w, NULL, 0);
	pdl_body_id* ids = malloc((size_t)(live + 1) * sizeof *ids);
	if (!ids) {
		snprintf(what, sizeof what, "out of memory");
		why = PDL_ERR_OUT_OF_MEMORY;
		goto done;
	}
	pdl_world_bodies(w, ids, live);
	if (live == d.body_count) {
		for (int k = 0; k < live; ++k)
			if (pdl_world_set_body(w, ids[k], &d.bodies[k], &e) != PDL_OK) {
				free(ids);
				goto refused;
			}
	} else {
		for (int k = 0; k < live; ++k) pdl_world_remove_body(w, ids[k], NULL);
		for (int k = 0; k < d.body_count; ++k)
			if (pdl_world_add_body(w, &d.bodies[k], &e).index < 0) {
				free(ids);
				goto refused;
			}
	}
	free(ids);
	pdl_world_set_clock(w, d.time, d.steps);
	if (info) *info = d.info;
	ok = true;
	goto done;
refused:
	snprintf(what, sizeof what, "the world refused the snapshot's state: %s", e.message);
	why = e.id;
done:
	if (!ok) fail(err, why, path, what);
	free_decoded(&d);
	return ok;
}

bool pdl_snapshot_read(const char* path, pdl_world* w, pdl_snapshot_info* info, pdl_error* err)
{
	decoded d;
	if (!load(path, &d, err)) return false;
	return restore(path, d, w, info, err);
}

bool pdl_snapshot_read_memory(const void* data, size_t size, const char* name, pdl_world* w, pdl_snapshot_info* info, pdl_error* err)
{
	decoded d;
	if (!name) name = "<snapshot>";
	if (!load_memory(name, data, size, &d, err)) return false;
	return restore(name, d, w, info, err);
}
