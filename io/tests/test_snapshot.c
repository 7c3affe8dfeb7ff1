/* Snapshots: exact round trip, resume equals an uninterrupted run (strokes, emitters, springs),
 * and damaged files are refused without touching the world. */
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
	char err[512];
	ENSURE_MSG(pdl_snapshot_write(path, a, &info, err, sizeof err), "%s", err);
	pdl_world* b = pdl_scene_build_world(s, NULL);
	pdl_snapshot_info got;
	ENSURE_MSG(pdl_snapshot_read(path, b, &got, err, sizeof err), "%s", err);
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

/* Stop at frame `cut`, save, restore into a fresh world, finish: same hash as never stopping. */
static bool resume_matches(const char* name, long long cut, long long total)
{
	pdl_scene* s = load(name);
	if (!s) return false;
	pdl_world* straight = pdl_scene_build_world(s, NULL);
	run_frames(s, straight, 0, total);
	pdl_world* first = pdl_scene_build_world(s, NULL);
	run_frames(s, first, 0, cut);
	char path[256], err[512];
	temp_path(path, sizeof path, name);
	pdl_snapshot_info info = {cut, pdl_scene_hash(s), ""};
	bool ok = pdl_snapshot_write(path, first, &info, err, sizeof err);
	pdl_world_destroy(first);
	pdl_world* second = pdl_scene_build_world(s, NULL);
	pdl_snapshot_info got = {0};
	ok = ok && pdl_snapshot_read(path, second, &got, err, sizeof err);
	if (ok) run_frames(s, second, got.frame, total);
	bool same = ok && pdl_world_hash(second) == pdl_world_hash(straight) &&
	            pdl_world_particle_count(second) == pdl_world_particle_count(straight);
	printf("  %-10s cut at %lld of %lld: %s\n", name, cut, total, same ? "identical" : ok ? "DIFFERENT" : err);
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
	/* 3D scenes: z and vz are in the snapshot */
	ENSURE(resume_matches("dam-break-3d", 20, 30));
	ENSURE(resume_matches("drop-3d", 12, 20));
	ENSURE(resume_matches("stratify-3d", 10, 20)); /* three materials */
}

/* A 3D snapshot restores z and vz exactly, and a 2D world refuses it (and the other way). */
static void test_3d_snapshot(void)
{
	pdl_scene* s = load("drop-3d");
	ENSURE(s);
	pdl_world* a = pdl_scene_build_world(s, NULL);
	ENSURE(a);
	run_frames(s, a, 0, 10);
	char path[256], err[512];
	temp_path(path, sizeof path, "three");
	pdl_snapshot_info info = {10, pdl_scene_hash(s), "drop-3d"};
	ENSURE_MSG(pdl_snapshot_write(path, a, &info, err, sizeof err), "%s", err);
	pdl_world* b = pdl_scene_build_world(s, NULL);
	ENSURE_MSG(pdl_snapshot_read(path, b, NULL, err, sizeof err), "%s", err);
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
	ENSURE(!pdl_snapshot_read(path, c, NULL, err, sizeof err));
	ENSURE_MSG(strstr(err, "snapshot is of a 3D world, the scene's world is 2D"), "%s", err);
	ENSURE(pdl_world_hash(c) == before);
	pdl_snapshot_info flat_info = {0, pdl_scene_hash(flat), "drop"};
	ENSURE_MSG(pdl_snapshot_write(path, c, &flat_info, err, sizeof err), "%s", err);
	ENSURE(!pdl_snapshot_read(path, b, NULL, err, sizeof err));
	ENSURE_MSG(strstr(err, "snapshot is of a 2D world, the scene's world is 3D"), "%s", err);
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
static void test_damaged_snapshots_refused(void)
{
	pdl_scene* s = load("slime");
	ENSURE(s);
	pdl_world* w = pdl_scene_build_world(s, NULL);
	run_frames(s, w, 0, 30);
	char path[256], bad[300], err[512];
	temp_path(path, sizeof path, "good");
	snprintf(bad, sizeof bad, "%s.bad", path);
	pdl_snapshot_info info = {30, 1, "slime"};
	ENSURE(pdl_snapshot_write(path, w, &info, err, sizeof err));
	size_t n = 0;
	unsigned char* bytes = (unsigned char*)io_test_read_file(path, &n);
	ENSURE(bytes && n > 100);
	pdl_world* target = pdl_scene_build_world(s, NULL);
	uint64_t before = pdl_world_hash(target);
	size_t cuts[] = {0, 5, 20, 39, 40, 41, n / 2, n - 1};
	for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; ++c) {
		ENSURE(write_bytes(bad, bytes, cuts[c]));
		ENSURE_MSG(!pdl_snapshot_read(bad, target, NULL, err, sizeof err), "cut at %zu accepted", cuts[c]);
		bool says = strstr(err, "truncated") || (cuts[c] < 8 && strstr(err, "not a puddle snapshot"));
		ENSURE_MSG(says, "cut at %zu: %s", cuts[c], err);
	}
	bytes[n / 2] ^= 0x10;
	ENSURE(write_bytes(bad, bytes, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, err, sizeof err));
	ENSURE_MSG(strstr(err, "corrupted snapshot: checksum mismatch"), "%s", err);
	bytes[n / 2] ^= 0x10;
	bytes[0] = 'X';
	ENSURE(write_bytes(bad, bytes, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, err, sizeof err));
	ENSURE_MSG(strstr(err, "not a puddle snapshot (wrong magic bytes)"), "%s", err);
	bytes[0] = 'P';
	bytes[8] = 99; /* version */
	ENSURE(write_bytes(bad, bytes, n));
	ENSURE(!pdl_snapshot_read(bad, target, NULL, err, sizeof err));
	ENSURE_MSG(strstr(err, "snapshot version 99 is not supported (this build reads version 2)"), "%s", err);
	ENSURE(pdl_world_hash(target) == before);
	ENSURE(!pdl_snapshot_read("/nonexistent/snap.pdls", target, NULL, err, sizeof err));
	ENSURE_MSG(strstr(err, "cannot open"), "%s", err);
	free(bytes);
	remove(path);
	remove(bad);
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
	char err[512];
	pdl_snapshot_info info = {0, 0, ""};
	ENSURE(!pdl_snapshot_write("/nonexistent/dir/x.pdls", w, &info, err, sizeof err));
	ENSURE_MSG(strstr(err, "cannot write"), "%s", err);
	pdl_world_destroy(w);
	pdl_scene_destroy(s);
}

int main(void)
{
	RUN_TEST(test_round_trip);
	RUN_TEST(test_3d_snapshot);
	RUN_TEST(test_damaged_snapshots_refused);
	RUN_TEST(test_failed_write_keeps_old_file);
	RUN_TEST(test_resume_equals_uninterrupted);
	return TEST_SUMMARY();
}
