/* Snapshots: exact round trip, resume equals an uninterrupted run (strokes, emitters, springs,
 * rigid bodies in 2D, 3D and SPH), damaged files (a body record too) are refused without
 * touching the world, and version 2 files (before bodies) are still read. */
#include "test.h"
#include "io_test.h"

#include "puddle/scene.h"
#include "puddle/snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pdl_scene* load(const char* name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s.json", PUDDLE_SCENES_DIR, name);
	pdl_scene* s = pdl_scene_load(path, NULL);
	if (s) s->world.threads = 2;
	return s;
}

static void run_frames(const pdl_scene* s, pdl_world* w, long long from, long long to)
{
	for (long long f = from; f < to; ++f) {
		pdl_scene_apply_frame(s, w, f, NULL);
		pdl_world_step(w);
	}
}

static void temp_path(char* out, size_t size, const char* tag)
{
	snprintf(out, size, "/tmp/puddle_test_%s_%ld.pdls", tag, (long)getpid());
}

static void test_round_trip(void)
{
	pdl_scene* s = load("blobs");
	ENSURE(s);
	pdl_world* a = pdl_scene_build_world(s, NULL);
	ENSURE(a);
	run_frames(s, a, 0, 90);
	char path[256];
	temp_path(path, sizeof path, "round");
	pdl_snapshot_info info = {90, pdl_scene_hash(s), "blobs"};
	pdl_error err;
	ENSURE_MSG(pdl_snapshot_write(path, a, &info, &err), "%s", err.message);
	pdl_world* b = pdl_scene_build_world(s, NULL);
	pdl_snapshot_info got;
	ENSURE_MSG(pdl_snapshot_read(path, b, &got, &err), "%s", err.message);
	ENSURE(got.frame == 90 && got.scene_hash == info.scene_hash && strcmp(got.scene_name, "blobs") == 0);
	ENSURE(pdl_world_hash(a) == pdl_world_hash(b));
	ENSURE(pdl_world_time(a) == pdl_world_time(b));
	ENSURE(pdl_world_step_count(a) == pdl_world_step_count(b));
	ENSURE(pdl_world_particles(a).next_id == pdl_world_particles(b).next_id);
	remove(path);
	pdl_world_destroy(a);
	pdl_world_destroy(b);
	pdl_scene_destroy(s);
}

/* Stop at frame `cut`, save, restore into a fresh world, finish: same hash as never stopping.
 * The snapshot is written from the uninterrupted run itself as it passes `cut` (the writer reads
 * the world through a const pointer; the hash before and after the write is checked too): the
 * same state a separate run stopped at `cut` would have, bit for bit, without stepping those
 * frames twice. A state the snapshot leaves out (a solver's warm start, a stroke's progress,
 * an emitter's phase) still makes the resumed run end elsewhere. */
static bool resume_matches(const char* name, long long cut, long long total)
{
	pdl_scene* s = load(name);
	if (!s) return false;
	pdl_world* straight = pdl_scene_build_world(s, NULL);
	run_frames(s, straight, 0, cut);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, name);
	pdl_snapshot_info info = {cut, pdl_scene_hash(s), ""};
	const uint64_t at_cut = pdl_world_hash(straight);
	bool ok = pdl_snapshot_write(path, straight, &info, &err);
	const bool untouched = pdl_world_hash(straight) == at_cut;
	run_frames(s, straight, cut, total);
	pdl_world* second = pdl_scene_build_world(s, NULL);
	pdl_snapshot_info got = {0};
	ok = ok && pdl_snapshot_read(path, second, &got, &err);
	if (ok) run_frames(s, second, got.frame, total);
	bool same = ok && untouched && pdl_world_hash(second) == pdl_world_hash(straight) &&
	            pdl_world_particle_count(second) == pdl_world_particle_count(straight);
	printf("  %-10s cut at %lld of %lld: %s\n", name, cut, total,
	       same ? "identical" : !untouched ? "WRITE CHANGED THE WORLD" : ok ? "DIFFERENT" : err.message);
	remove(path);
	pdl_world_destroy(second);
	pdl_world_destroy(straight);
	pdl_scene_destroy(s);
	return same;
}

static void test_resume_equals_uninterrupted(void)
{
	ENSURE(resume_matches("blobs", 200, 260));     /* cut in the middle of a stroke */
	ENSURE(resume_matches("obstacles", 77, 150));  /* emitter running */
	ENSURE(resume_matches("slime", 100, 160));     /* springs with plasticity */
	ENSURE(resume_matches("stratify", 40, 70));    /* three materials */
	ENSURE(resume_matches("sph-dam-break", 50, 90)); /* the SPH solver: its settings and CFL substeps */
	ENSURE(resume_matches("dfsph-dam-break", 40, 70)); /* DFSPH: its solves' warm start is saved */
	/* 3D scenes: z and vz are in the snapshot (20,000 particles: in quick mode, the sanitizer
	 * builds, a fifth of the frames, the cut still after the solves' first warm start) */
	const int q = test_quick() ? 5 : 1;
	ENSURE(resume_matches("dam-break-3d", 20 / q, 30 / q));
	ENSURE(resume_matches("drop-3d", 12 / q, 20 / q));
	ENSURE(resume_matches("stratify-3d", 10 / q, 20 / q)); /* three materials */
}

/* A 3D snapshot restores z and vz exactly, and a 2D world refuses it (and the other way). */
static void test_3d_snapshot(void)
{
	pdl_scene* s = load("drop-3d");
	ENSURE(s);
	pdl_world* a = pdl_scene_build_world(s, NULL);
	ENSURE(a);
	run_frames(s, a, 0, 10);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "three");
	pdl_snapshot_info info = {10, pdl_scene_hash(s), "drop-3d"};
	ENSURE_MSG(pdl_snapshot_write(path, a, &info, &err), "%s", err.message);
	pdl_world* b = pdl_scene_build_world(s, NULL);
	ENSURE_MSG(pdl_snapshot_read(path, b, NULL, &err), "%s", err.message);
	pdl_particle_data pa = pdl_world_particles(a), pb = pdl_world_particles(b);
	ENSURE(pa.count == pb.count && pb.z && pb.vz);
	ENSURE(memcmp(pa.z, pb.z, (size_t)pa.count * sizeof *pa.z) == 0);
	ENSURE(memcmp(pa.vz, pb.vz, (size_t)pa.count * sizeof *pa.vz) == 0);
	bool moved = false;
	for (int i = 0; i < pa.count; ++i) moved |= pa.vz[i] != 0;
	ENSURE(moved); /* the round trip had real z velocities to carry */
	ENSURE(pdl_world_hash(a) == pdl_world_hash(b));
	pdl_scene* flat = load("drop");
	ENSURE(flat);
	pdl_world* c = pdl_scene_build_world(flat, NULL);
	uint64_t before = pdl_world_hash(c);
	ENSURE(!pdl_snapshot_read(path, c, NULL, &err));
	ENSURE_MSG(strstr(err.message, "snapshot is of a 3D world, the scene's world is 2D"), "%s", err.message);
	ENSURE(err.id == PDL_ERR_SNAPSHOT_WORLD && strcmp(err.file, path) == 0);
	ENSURE(pdl_world_hash(c) == before);
	pdl_snapshot_info flat_info = {0, pdl_scene_hash(flat), "drop"};
	ENSURE_MSG(pdl_snapshot_write(path, c, &flat_info, &err), "%s", err.message);
	ENSURE(!pdl_snapshot_read(path, b, NULL, &err));
	ENSURE_MSG(strstr(err.message, "snapshot is of a 2D world, the scene's world is 3D"), "%s", err.message);
	remove(path);
	pdl_world_destroy(a), pdl_world_destroy(b), pdl_world_destroy(c);
	pdl_scene_destroy(s), pdl_scene_destroy(flat);
}

static bool write_bytes(const char* path, const unsigned char* data, size_t n)
{
	FILE* f = fopen(path, "wb");
	if (!f) return false;
	bool ok = fwrite(data, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

/* Damaged files: truncated anywhere, a flipped byte, the wrong magic, a future version. Each is
 * refused with its reason and the world stays as it was. */
/* w written to path as a snapshot, and the file's bytes (free them); NULL if either failed. */
static unsigned char* snapshot_bytes(const pdl_world* w, const pdl_snapshot_info* info, const char* path, size_t* n)
{
	pdl_error err;
	if (!pdl_snapshot_write(path, w, info, &err)) return NULL;
	return (unsigned char*)io_test_read_file(path, n);
}

static void test_damaged_snapshots_refused(void)
{
	pdl_scene* s = load("slime");
	ENSURE(s);
	pdl_world* w = pdl_scene_build_world(s, NULL);
	run_frames(s, w, 0, 30);
	char path[256], bad[300];
	pdl_error err;
	temp_path(path, sizeof path, "good");
	snprintf(bad, sizeof bad, "%s.bad", path);
	pdl_snapshot_info info = {30, 1, "slime"};
	size_t n = 0;
	unsigned char* bytes = snapshot_bytes(w, &info, path, &n);
	ENSURE(bytes && n > 100);
	pdl_world* target = pdl_scene_build_world(s, NULL);
	uint64_t before = pdl_world_hash(target);
	size_t cuts[] = {0, 5, 20, 39, 40, 41, n / 2, n - 1};
	for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; ++c) {
		ENSURE(write_bytes(bad, bytes, cuts[c]));
		ENSURE_MSG(!pdl_snapshot_read(bad, target, NULL, &err), "cut at %zu accepted", cuts[c]);
		bool says = strstr(err.message, "truncated") || (cuts[c] < 8 && strstr(err.message, "not a puddle snapshot"));
		ENSURE_MSG(says, "cut at %zu: %s", cuts[c], err.message);
	}
	bytes[n / 2] ^= 0x10;
	ENSURE(write_bytes(bad, bytes, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "corrupted snapshot: checksum mismatch"), "%s", err.message);
	ENSURE(err.id == PDL_ERR_SNAPSHOT_CORRUPT);
	bytes[n / 2] ^= 0x10;
	bytes[0] = 'X';
	ENSURE(write_bytes(bad, bytes, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "not a puddle snapshot (wrong magic bytes)"), "%s", err.message);
	ENSURE(err.id == PDL_ERR_SNAPSHOT_HEADER);
	bytes[0] = 'P';
	bytes[8] = 99; /* version */
	ENSURE(write_bytes(bad, bytes, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	char refusal[96];
	snprintf(refusal, sizeof refusal, "snapshot version 99 is not supported (this build reads versions 2 to %d)",
	         PDL_SNAPSHOT_VERSION);
	ENSURE_MSG(strstr(err.message, refusal), "%s", err.message);
	ENSURE(pdl_world_hash(target) == before);
	ENSURE(!pdl_snapshot_read("/nonexistent/snap.pdls", target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "cannot open"), "%s", err.message);
	ENSURE(err.id == PDL_ERR_FILE_OPEN && strcmp(err.file, "/nonexistent/snap.pdls") == 0);
	free(bytes);
	remove(path);
	remove(bad);
	pdl_world_destroy(w);
	pdl_world_destroy(target);
	pdl_scene_destroy(s);
}

/* pdl_snapshot_read_memory (the fuzzer's entry point) reads the same bytes as the file reader and
 * refuses damaged ones with the same messages, naming the buffer. */
static void test_read_memory(void)
{
	pdl_scene* s = load("slime");
	ENSURE(s);
	pdl_world* w = pdl_scene_build_world(s, NULL);
	run_frames(s, w, 0, 20);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "memory");
	pdl_snapshot_info info = {20, 7, "slime"}, got;
	size_t n = 0;
	unsigned char* bytes = snapshot_bytes(w, &info, path, &n);
	ENSURE(bytes && n > 100);
	pdl_world* target = pdl_scene_build_world(s, NULL);
	uint64_t before = pdl_world_hash(target);
	ENSURE(!pdl_snapshot_read_memory(bytes, 39, "buf", target, NULL, &err));
	ENSURE_MSG(strcmp(err.message, "buf: truncated snapshot: the header is incomplete") == 0, "%s", err.message);
	ENSURE(!pdl_snapshot_read_memory(bytes, n - 1, "buf", target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "buf: truncated snapshot: ") == err.message, "%s", err.message);
	unsigned char* longer = malloc(n + 1);
	ENSURE(longer);
	memcpy(longer, bytes, n);
	longer[n] = 0;
	ENSURE(!pdl_snapshot_read_memory(longer, n + 1, NULL, target, NULL, &err));
	ENSURE_MSG(strcmp(err.message, "<snapshot>: corrupted snapshot: bytes after the payload") == 0, "%s", err.message);
	free(longer);
	ENSURE(!pdl_snapshot_read_memory(NULL, 0, "buf", target, NULL, &err));
	ENSURE_MSG(strcmp(err.message, "buf: not a puddle snapshot (wrong magic bytes)") == 0, "%s", err.message);
	ENSURE(pdl_world_hash(target) == before);
	ENSURE_MSG(pdl_snapshot_read_memory(bytes, n, "buf", target, &got, &err), "%s", err.message);
	ENSURE(got.frame == 20 && got.scene_hash == 7 && pdl_world_hash(target) == pdl_world_hash(w));
	free(bytes);
	remove(path);
	pdl_world_destroy(w);
	pdl_world_destroy(target);
	pdl_scene_destroy(s);
}

/* A failed write leaves an existing file alone. */
static void test_failed_write_keeps_old_file(void)
{
	pdl_scene* s = load("drop");
	ENSURE(s);
	pdl_world* w = pdl_scene_build_world(s, NULL);
	pdl_error err;
	pdl_snapshot_info info = {0, 0, ""};
	ENSURE(!pdl_snapshot_write("/nonexistent/dir/x.pdls", w, &info, &err));
	ENSURE_MSG(strstr(err.message, "cannot write"), "%s", err.message);
	ENSURE(err.id == PDL_ERR_FILE_OPEN);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

/* ---- rigid bodies ------------------------------------------------------------------------------ */

/* The world a scene with bodies would build: a tank, a column of water, and bodies of every
 * shape (a kinematic one among them, a polygon in 2D). */
static pdl_world* bodies_world(int dimensions, pdl_solver_kind solver)
{
	pdl_world_def wd = pdl_default_world_def();
	wd.dimensions = dimensions, wd.threads = 2, wd.solver = solver;
	pdl_world* w = pdl_world_create(&wd, NULL);
	pdl_material_def water = pdl_default_material_def();
	pdl_world_add_material(w, &water, NULL);
	pdl_boundary_def tank = pdl_default_boundary_def();
	tank.kind = PDL_BOUNDARY_BOX_CONTAINER, tank.half_extents = (pdl_vec3){14, 8, 4};
	pdl_world_add_boundary(w, &tank, NULL);
	pdl_fill_def column = pdl_default_fill_def();
	column.position = (pdl_vec3){-9, -4, 0}, column.half_extents = (pdl_vec3){4, dimensions == 3 ? 3 : 4, 3.5f};
	if (pdl_world_fill(w, &column, NULL) < 100) return NULL;
	for (int k = 0; k < (dimensions == 3 ? 3 : 4); ++k) {
		pdl_body_def d = pdl_default_body_def();
		d.shape = k == 3 ? PDL_BODY_POLYGON : k == 2 ? PDL_BODY_CIRCLE : PDL_BODY_BOX;
		d.type = k == 1 ? PDL_BODY_KINEMATIC : PDL_BODY_DYNAMIC;
		d.position = (pdl_vec3){1 + 3.5f * (float)k, -6 + 2.5f * (float)(k % 2), 0};
		d.angle = 0.2f * (float)k, d.orientation = (pdl_quat){0.1f * (float)k, 0.2f, 0, 1};
		d.linear_velocity = (pdl_vec3){k == 1 ? -0.5f : 0, 0, 0};
		d.angular_velocity = (pdl_vec3){0, 0, k == 1 ? 0.3f : 0};
		d.density = 0.4f + 0.3f * (float)k;
		d.vertex_count = 3;
		d.vertices[0] = (pdl_vec2){-1, -1}, d.vertices[1] = (pdl_vec2){1.5f, -1}, d.vertices[2] = (pdl_vec2){0, 1.2f};
		d.color = 0x102030u * (uint32_t)(k + 1);
		if (pdl_world_add_body(w, &d, NULL).index < 0) return NULL;
	}
	return w;
}

static void step_n(pdl_world* w, int n)
{
	for (int s = 0; s < n; ++s) pdl_world_step(w);
}

/* Every body of a and b, in slot order, has the same def, bit for bit. */
static bool same_bodies(const pdl_world* a, const pdl_world* b)
{
	pdl_body_id ia[8], ib[8];
	int n = pdl_world_bodies(a, ia, 8);
	if (n != pdl_world_bodies(b, ib, 8)) return false;
	for (int k = 0; k < n; ++k) {
		pdl_body_def da, db;
		if (!pdl_world_get_body(a, ia[k], &da) || !pdl_world_get_body(b, ib[k], &db)) return false;
		if (memcmp(&da, &db, sizeof da) != 0) return false;
	}
	return true;
}

/* Run `cut` steps, snapshot, restore into a freshly built world (whose own bodies the snapshot's
 * replace), run `more`: the same state as cut + more straight. With remove_at > 0 one body is
 * removed at that step, so the snapshot has fewer bodies than the fresh world and a gap in its
 * slots. */
static bool bodies_resume(int dimensions, pdl_solver_kind solver, int cut, int more, int remove_at)
{
	pdl_world* straight = bodies_world(dimensions, solver);
	pdl_world* first = bodies_world(dimensions, solver);
	if (!straight || !first) return false;
	pdl_body_id ids[8];
	pdl_world_bodies(straight, ids, 8);
	for (int s = 0; s < cut + more; ++s) {
		if (s == remove_at && remove_at > 0) pdl_world_remove_body(straight, ids[1], NULL);
		pdl_world_step(straight);
	}
	for (int s = 0; s < cut; ++s) {
		if (s == remove_at && remove_at > 0) pdl_world_remove_body(first, ids[1], NULL);
		pdl_world_step(first);
	}
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "bodies");
	pdl_snapshot_info info = {cut, 7, "bodies"};
	bool ok = pdl_snapshot_write(path, first, &info, &err);
	pdl_world* second = bodies_world(dimensions, solver);
	ok = ok && second && pdl_snapshot_read(path, second, NULL, &err);
	bool restored = ok && pdl_world_hash(second) == pdl_world_hash(first) && same_bodies(first, second) &&
	                pdl_world_body_count(second) == pdl_world_body_count(first);
	if (ok) step_n(second, more);
	bool same = restored && pdl_world_hash(second) == pdl_world_hash(straight) && same_bodies(second, straight);
	printf("  %dD %s, %d bodies, cut at %d of %d%s: %s\n", dimensions, solver == PDL_SOLVER_SPH ? "SPH" : solver == PDL_SOLVER_DFSPH ? "DFSPH" : "Clavet",
	       pdl_world_body_count(first), cut, cut + more, remove_at > 0 ? " (one removed before)" : "",
	       same ? "identical" : !ok ? err.message : !restored ? "RESTORE DIFFERS" : "DIFFERENT");
	remove(path);
	pdl_world_destroy(straight), pdl_world_destroy(first), pdl_world_destroy(second);
	return same;
}

static void test_bodies_resume_bitwise(void)
{
	ENSURE(bodies_resume(2, PDL_SOLVER_CLAVET, 60, 40, 0));
	ENSURE(bodies_resume(2, PDL_SOLVER_CLAVET, 50, 30, 20)); /* a body removed: fewer than the scene's */
	ENSURE(bodies_resume(2, PDL_SOLVER_SPH, 30, 20, 0));
	ENSURE(bodies_resume(2, PDL_SOLVER_DFSPH, 30, 20, 0));
	ENSURE(bodies_resume(3, PDL_SOLVER_CLAVET, 20, 15, 0));
}

static uint64_t fnv1a(const unsigned char* b, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* The header's checksum (bytes 24..31) made right again for the payload after byte 40. */
static void fix_checksum(unsigned char* bytes, size_t n)
{
	uint64_t h = fnv1a(bytes + 40, n - 40);
	for (int i = 0; i < 8; ++i) bytes[24 + i] = (unsigned char)(h >> (8 * i));
}

static void put_le32(unsigned char* at, uint32_t v)
{
	for (int i = 0; i < 4; ++i) at[i] = (unsigned char)(v >> (8 * i));
}

/* A body record with a bad value, under a right checksum, is refused with the record's number
 * and the engine's reason, and the world keeps its state and its own bodies; one with a wrong
 * checksum is refused by the checksum; a body count that does not match the bytes is refused. */
static void test_corrupted_body_record_refused(void)
{
	pdl_world* w = bodies_world(2, PDL_SOLVER_CLAVET);
	ENSURE(w);
	step_n(w, 10);
	char path[256], bad[300];
	pdl_error err;
	temp_path(path, sizeof path, "body_record");
	snprintf(bad, sizeof bad, "%s.bad", path);
	pdl_snapshot_info info = {10, 7, "bodies"};
	ENSURE_MSG(pdl_snapshot_write(path, w, &info, &err), "%s", err.message);
	size_t n = 0;
	unsigned char* bytes = (unsigned char*)io_test_read_file(path, &n);
	ENSURE(bytes);
	/* the payload ends with u32 count and 4 records of 232 bytes (docs/cli.md) */
	enum { RECORD = 232 };
	size_t records = n - 4 * RECORD;
	ENSURE(bytes[records - 4] == 4 && bytes[records - 3] == 0);
	pdl_world* target = bodies_world(2, PDL_SOLVER_CLAVET);
	ENSURE(target);
	uint64_t before = pdl_world_hash(target);
	/* record 1's type (its first field) := 7 */
	unsigned char* copy = malloc(n);
	memcpy(copy, bytes, n);
	put_le32(copy + records + RECORD, 7);
	fix_checksum(copy, n);
	ENSURE(write_bytes(bad, copy, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "body record 1 of 4 (slot order) refused: body.type must be PDL_BODY_DYNAMIC or "
	                       "PDL_BODY_KINEMATIC, got 7"), "%s", err.message);
	ENSURE(strncmp(err.message, bad, strlen(bad)) == 0); /* the message names the file */
	ENSURE(err.id == PDL_ERR_SNAPSHOT_WORLD && strcmp(err.file, bad) == 0);
	/* record 3's position x (after type and shape) := NaN */
	memcpy(copy, bytes, n);
	put_le32(copy + records + 3 * RECORD + 8, 0x7fc00000u);
	fix_checksum(copy, n);
	ENSURE(write_bytes(bad, copy, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "body record 3 of 4 (slot order) refused: body.position must be finite"), "%s", err.message);
	/* the world refused nothing of it: same state, same (scene) bodies */
	ENSURE(pdl_world_hash(target) == before && pdl_world_body_count(target) == 4);
	pdl_world* fresh = bodies_world(2, PDL_SOLVER_CLAVET);
	ENSURE(same_bodies(target, fresh));
	pdl_world_destroy(fresh);
	/* a flipped bit in a record, checksum left alone */
	memcpy(copy, bytes, n);
	copy[records + 2 * RECORD + 40] ^= 0x04;
	ENSURE(write_bytes(bad, copy, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	ENSURE_MSG(strstr(err.message, "corrupted snapshot: checksum mismatch"), "%s", err.message);
	/* a body count one too many for the records that follow */
	memcpy(copy, bytes, n);
	put_le32(copy + records - 4, 5);
	fix_checksum(copy, n);
	ENSURE(write_bytes(bad, copy, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, &err));
	char refusal[96];
	snprintf(refusal, sizeof refusal, "corrupted snapshot: 5 body records do not fill the %d bytes left for them",
	         4 * RECORD);
	ENSURE_MSG(strstr(err.message, refusal), "%s", err.message);
	ENSURE(pdl_world_hash(target) == before);
	/* and the good file restores */
	ENSURE_MSG(pdl_snapshot_read(path, target, NULL, &err), "%s", err.message);
	ENSURE(pdl_world_hash(target) == pdl_world_hash(w) && same_bodies(target, w));
	free(copy), free(bytes);
	remove(path), remove(bad);
	pdl_world_destroy(w), pdl_world_destroy(target);
}

/* A version 2 file (written before bodies: no body section) is still read, as a world without
 * bodies: the scene's bodies are removed. The file is written as version 2 writes it
 * (pdl_snapshot_write_version: the fields its declarations store from version 2 on, no body
 * section, a flags byte of springs only), so the test holds whatever fields come later. */
static void test_version_2_read(void)
{
	pdl_world* w = bodies_world(2, PDL_SOLVER_CLAVET);
	ENSURE(w);
	char path[256];
	pdl_error err;
	temp_path(path, sizeof path, "v2");
	pdl_snapshot_info info = {5, 7, "v2"};
	/* a world with bodies cannot go into version 2: refused, nothing written */
	remove(path);
	ENSURE(!pdl_snapshot_write_version(path, w, &info, 2, &err));
	ENSURE(err.id == PDL_ERR_SNAPSHOT_WORLD);
	char want[512];
	snprintf(want, sizeof want, "%s: snapshot version 2 cannot hold this world's bodies, which came later: nothing written",
	         path);
	ENSURE_MSG(strcmp(err.message, want) == 0, "%s", err.message);
	ENSURE(access(path, F_OK) != 0);
	ENSURE(!pdl_snapshot_write_version(path, w, &info, 1, &err) && err.id == PDL_ERR_SNAPSHOT_HEADER);
	ENSURE(!pdl_snapshot_write_version(path, w, &info, PDL_SNAPSHOT_VERSION + 1, &err) &&
	       err.id == PDL_ERR_SNAPSHOT_HEADER);

	pdl_body_id ids[8];
	int n = pdl_world_bodies(w, ids, 8);
	for (int k = 0; k < n; ++k) pdl_world_remove_body(w, ids[k], NULL);
	step_n(w, 5);
	ENSURE_MSG(pdl_snapshot_write_version(path, w, &info, 2, &err), "%s", err.message);
	size_t size = 0;
	unsigned char* bytes = (unsigned char*)io_test_read_file(path, &size);
	ENSURE(bytes && size > 44 && bytes[8] == 2);
	free(bytes);
	pdl_world* target = bodies_world(2, PDL_SOLVER_CLAVET);
	ENSURE(pdl_world_body_count(target) == 4);
	pdl_snapshot_info got;
	ENSURE_MSG(pdl_snapshot_read(path, target, &got, &err), "%s", err.message);
	ENSURE(got.frame == 5 && pdl_world_body_count(target) == 0);
	ENSURE(pdl_world_hash(target) == pdl_world_hash(w));
	remove(path);
	pdl_world_destroy(w), pdl_world_destroy(target);
}

int main(void)
{
	RUN_TEST(test_round_trip);
	RUN_TEST(test_3d_snapshot);
	RUN_TEST(test_damaged_snapshots_refused);
	RUN_TEST(test_read_memory);
	RUN_TEST(test_failed_write_keeps_old_file);
	RUN_TEST(test_corrupted_body_record_refused);
	RUN_TEST(test_version_2_read);
	RUN_TEST(test_bodies_resume_bitwise);
	RUN_TEST(test_resume_equals_uninterrupted);
	return TEST_SUMMARY();
}
