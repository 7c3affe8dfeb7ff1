/* Files of a split world (puddle/mpi.h, docs/mpi.md): ParaView pieces, CSV and PLY in id order,
 * and snapshots, written collectively.
 *
 * CSV, PLY and snapshots are one file each, written with MPI-IO: the particles are first handed
 * round in id order (pdl_mpi_world_id_block: process r gets a contiguous block of ids), so each
 * process's share of the file is contiguous (CSV, PLY: its rows) or a contiguous run of each
 * particle array (snapshots), at an offset every process can work out from the block sizes
 * (MPI_Exscan). No process ever holds the whole file, and the bytes are those one process
 * writes, whatever the number of processes: the file's text and layout depend only on the
 * particles in id order.
 *
 * A snapshot's checksum is FNV-1a 64 over its payload, which is sequential: byte k's state
 * needs byte k - 1's. Each process hashes its run of an array from the state the process
 * before it hands it (8 bytes) and hands the result on, the last back to process 0 for the next
 * array: 2 x N tiny messages per array, the hashing itself no faster than one process's (about
 * 1 GB/s), but no process gathers the particles. The format stays the one pdl_snapshot_read
 * reads (version 3), so one process resumes what N processes wrote and the other way.
 *
 * Every file goes to NAME.tmp.PID (PID: process 0's) and is renamed onto NAME by process 0
 * only after every process wrote its share without error, the file was synced and closed, and
 * its size is the size it must have: a crash, a killed process or a full disk leaves the
 * previous files as they were and never a partial file under a real name. */
#define _POSIX_C_SOURCE 200809L
#include "mpi_internal.h"

#include "puddle/export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A part of a file one process writes: bytes at offset. */
typedef struct region {
	long long offset;
	const void* bytes;
	long long size;
} region;

/* MPI-IO counts are ints: write at most this much per call. */
enum { CHUNK = 1 << 30 };

static void mpi_failure(pdl_error* err, pdl_error_id id, const char* path, const char* what, int rc, int saved_errno)
{
	char text[MPI_MAX_ERROR_STRING] = "";
	int len = 0;
	MPI_Error_string(rc, text, &len);
	if (saved_errno) pdl_error_fill(err, id, path, NULL, "%s: %s (%s)", what, strerror(saved_errno), text);
	else pdl_error_fill(err, id, path, NULL, "%s: %s", what, text);
}

/* Writes path collectively: every process its regions (the same number, count, in every
 * process; sizes may be 0), into a temporary file renamed onto path by process 0 once all
 * wrote and the file holds `size` bytes. */
static bool write_collective(pdl_mpi_world* s, const char* path, const region* regions, int count, long long size, pdl_error* err)
{
	char temp[1100] = "";
	if (s->rank == 0) snprintf(temp, sizeof temp, "%s.tmp.%ld", path, (long)getpid());
	MPI_Bcast(temp, (int)sizeof temp, MPI_CHAR, 0, s->comm);
	MPI_File fh;
	errno = 0;
	int rc = MPI_File_open(s->comm, temp, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	if (rc != MPI_SUCCESS) mpi_failure(err, PDL_ERR_FILE_OPEN, path, "cannot write", rc, errno);
	/* the open is collective: it failed everywhere or nowhere */
	if (!pdl_mpi_agree(s->comm, rc == MPI_SUCCESS, err)) return false;
	/* Independent writes, not MPI_File_write_at_all: a collective write that fails on one
	 * process (a full disk under the process that aggregates) returns there early while the
	 * others wait inside it for messages that never come; with 3 processes that hung the run
	 * forever. Each process writes its own regions, and all agree on the outcome before the
	 * next collective call, so no process waits in a collective another will not enter. */
	bool ok = true;
	for (int k = 0; ok && k < count; ++k)
		for (long long at = 0; ok && at < regions[k].size; at += CHUNK) {
			long long left = regions[k].size - at;
			int n = left < CHUNK ? (int)left : CHUNK;
			MPI_Status status;
			errno = 0;
			rc = MPI_File_write_at(fh, (MPI_Offset)(regions[k].offset + at), (const char*)regions[k].bytes + at, n,
			                       MPI_BYTE, &status);
			int written = 0;
			if (rc == MPI_SUCCESS) MPI_Get_count(&status, MPI_BYTE, &written);
			if (rc != MPI_SUCCESS) mpi_failure(err, PDL_ERR_FILE_WRITE, path, "write failed", rc, errno), ok = false;
			else if (written != n) {
				pdl_error_fill(err, PDL_ERR_FILE_WRITE, path, NULL, "write failed: %d of %d bytes written%s%s", written, n,
				               errno ? ": " : "", errno ? strerror(errno) : "");
				ok = false;
			}
		}
	ok = pdl_mpi_agree(s->comm, ok, err);
	errno = 0;
	rc = ok ? MPI_File_sync(fh) : MPI_SUCCESS; /* collective: skipped by all or none */
	if (ok && rc != MPI_SUCCESS) mpi_failure(err, PDL_ERR_FILE_WRITE, path, "write failed (sync)", rc, errno), ok = false;
	errno = 0;
	rc = MPI_File_close(&fh);
	if (ok && rc != MPI_SUCCESS) mpi_failure(err, PDL_ERR_FILE_WRITE, path, "write failed (close)", rc, errno), ok = false;
	ok = pdl_mpi_agree(s->comm, ok, err);
	/* process 0 checks the file and puts it in place, or removes it */
	bool placed = true;
	if (s->rank == 0) {
		struct stat st;
		if (ok && (stat(temp, &st) != 0 || (long long)st.st_size != size)) {
			pdl_error_fill(err, PDL_ERR_FILE_WRITE, path, NULL, "write failed: %lld of %lld bytes in the file",
			               stat(temp, &st) == 0 ? (long long)st.st_size : -1LL, size);
			placed = false;
		}
		if (ok && placed && rename(temp, path) != 0) {
			pdl_error_fill(err, PDL_ERR_FILE_WRITE, path, NULL, "write failed: %s", strerror(errno));
			placed = false;
		}
		if (!ok || !placed) remove(temp);
	}
	return pdl_mpi_agree(s->comm, placed, err) && ok;
}

/* ---- ParaView ------------------------------------------------------------------------------------ */

bool pdl_mpi_world_write_vtk(pdl_mpi_world* s, const char* pvtp_path, pdl_error* err)
{
	/* the piece of process r: NAME_r.vtp beside NAME.pvtp, listed by its file name */
	char stem[1024];
	snprintf(stem, sizeof stem, "%s", pvtp_path);
	size_t n = strlen(stem);
	if (n > 5 && strcmp(stem + n - 5, ".pvtp") == 0) stem[n - 5] = 0;
	char piece[1100];
	snprintf(piece, sizeof piece, "%s_%d.vtp", stem, s->rank);
	pdl_particle_data p;
	bool ok = pdl_mpi_world_local_particles(s, &p);
	if (!ok) pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, piece, NULL, "out of memory");
	ok = ok && pdl_export_vtp_particles(piece, s->world, &p, err);
	if (!pdl_mpi_agree(s->comm, ok, err)) return false;
	if (s->rank == 0) {
		const char* base = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
		char(*names)[1100] = malloc((size_t)s->size * sizeof *names);
		const char** list = malloc((size_t)s->size * sizeof *list);
		ok = names && list;
		for (int r = 0; ok && r < s->size; ++r) {
			snprintf(names[r], sizeof names[r], "%s_%d.vtp", base, r);
			list[r] = names[r];
		}
		if (ok) ok = pdl_export_pvtp(pvtp_path, list, s->size, err);
		else pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, pvtp_path, NULL, "out of memory");
		free(names), free(list);
	}
	return pdl_mpi_agree(s->comm, ok, err);
}

/* ---- CSV and PLY ----------------------------------------------------------------------------------- */

/* Each process's id block's rows (process 0's after the header) at their offset. */
static bool write_text(pdl_mpi_world* s, const char* path, bool ply, pdl_error* err)
{
	pdl_particle_data p;
	long long first = 0, total = 0;
	if (!pdl_mpi_world_id_block(s, &p, &first, &total)) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	bool ok = f != NULL;
	if (ok) {
		long long header = s->rank == 0 ? total : -1;
		ok = ply ? pdl_export_ply_stream(f, s->world, &p, header) : pdl_export_csv_stream(f, s->world, &p, header);
		ok = fclose(f) == 0 && ok;
	}
	if (!ok) pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
	long long mine = ok ? (long long)size : 0, before = 0, all = 0;
	MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
	MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, s->comm);
	if (s->rank == 0) before = 0;
	if (pdl_mpi_agree(s->comm, ok, err)) {
		region r = {before, text, mine};
		ok = write_collective(s, path, &r, 1, all, err);
	} else {
		ok = false;
	}
	free(text);
	return ok;
}

bool pdl_mpi_world_write_csv(pdl_mpi_world* s, const char* path, pdl_error* err)
{
	return write_text(s, path, false, err);
}

bool pdl_mpi_world_write_ply(pdl_mpi_world* s, const char* path, pdl_error* err)
{
	return write_text(s, path, true, err);
}

/* ---- snapshots ------------------------------------------------------------------------------------- */

static void put_le32(uint8_t* out, uint32_t v)
{
	for (int i = 0; i < 4; ++i) out[i] = (uint8_t)(v >> (8 * i));
}

bool pdl_mpi_world_write_snapshot(pdl_mpi_world* s, const char* path, const pdl_snapshot_info* info, pdl_error* err)
{
	pdl_particle_data p;
	long long first = 0, total = 0;
	/* (with springs the block's partners come by place in the whole world's id order, which is
	 * the file's order) */
	if (!pdl_mpi_world_id_block(s, &p, &first, &total)) {
		pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
		return false;
	}
	/* the particle arrays in file order (snapshot.h): x y vx vy (z vz) material id (partners
	 * rest lengths) (DFSPH: pressure, divergence pressure) */
	const float* floats[6] = {p.x, p.y, p.vx, p.vy, p.z, p.vz};
	const int nfloat = s->three ? 6 : 4, K = PDL_MAX_SPRINGS_PER_PARTICLE;
	const int warm = nfloat + 2 + (s->springs ? 2 : 0), arrays = warm + (s->dfsph ? 2 : 0);
	const size_t n = (size_t)p.count;
	size_t element[12];
	for (int a = 0; a < arrays; ++a) element[a] = a == nfloat ? 1 : a > nfloat + 1 && a < warm ? 4 * (size_t)K : 4;
	/* process 0: the header and the payload's head, and its tail */
	pdl_snapshot_parts parts = {0};
	bool ok = true;
	long long sizes[2] = {0, 0};
	if (s->rank == 0) {
		ok = pdl_snapshot_encode_parts(s->world, info, (uint32_t)total, s->next_id, s->springs, s->dfsph, &parts);
		sizes[0] = (long long)parts.head_size, sizes[1] = (long long)parts.tail_size;
	}
	MPI_Bcast(sizes, 2, MPI_LONG_LONG, 0, s->comm);
	uint8_t* bytes = malloc(n * (size_t)(4 * nfloat + 5 + (s->springs ? 8 * K : 0) + (s->dfsph ? 8 : 0)) + 1);
	uint8_t* head = s->rank == 0 && ok ? malloc(PDL_SNAPSHOT_HEADER_SIZE + parts.head_size) : NULL;
	ok = ok && bytes && (s->rank != 0 || head);
	if (!ok) pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
	if (!pdl_mpi_agree(s->comm, ok, err)) {
		pdl_snapshot_parts_free(&parts);
		free(bytes), free(head);
		return false;
	}
	/* this process's run of each array, little-endian, and where it goes */
	region regions[14];
	const uint8_t* run[12];
	long long offset = PDL_SNAPSHOT_HEADER_SIZE + sizes[0];
	uint8_t* at = bytes;
	for (int a = 0; a < arrays; ++a) {
		run[a] = at;
		for (size_t i = 0; i < n; ++i) {
			if (a < nfloat || a >= warm) {
				uint32_t u;
				memcpy(&u, a < nfloat ? &floats[a][i] : a == warm ? &p.pressure[i] : &p.divergence_pressure[i], 4);
				put_le32(at + 4 * i, u);
			} else if (a == nfloat) {
				at[i] = p.material[i];
			} else if (a == nfloat + 1) {
				put_le32(at + 4 * i, p.id[i]);
			} else {
				for (int b = 0; b < K; ++b) {
					uint32_t u;
					if (a == nfloat + 2) u = (uint32_t)p.spring_partner[i * K + b];
					else memcpy(&u, &p.spring_rest[i * K + b], 4);
					put_le32(at + 4 * (i * K + b), u);
				}
			}
		}
		regions[1 + a] = (region){offset + first * (long long)element[a], at, (long long)(n * element[a])};
		offset += total * (long long)element[a];
		at += n * element[a];
	}
	const long long payload = offset + sizes[1] - PDL_SNAPSHOT_HEADER_SIZE;
	/* the checksum, handed on in file order: head (process 0), each array's runs, tail */
	uint64_t h = s->rank == 0 ? pdl_snapshot_checksum(PDL_SNAPSHOT_CHECKSUM_START, parts.head, parts.head_size) : 0;
	for (int a = 0; a < arrays; ++a) {
		unsigned long long state = h;
		if (s->rank > 0) MPI_Recv(&state, 1, MPI_UNSIGNED_LONG_LONG, s->rank - 1, a, s->comm, MPI_STATUS_IGNORE);
		state = pdl_snapshot_checksum(state, run[a], n * element[a]);
		if (s->size > 1) MPI_Send(&state, 1, MPI_UNSIGNED_LONG_LONG, (s->rank + 1) % s->size, a, s->comm);
		if (s->rank == 0 && s->size > 1) MPI_Recv(&state, 1, MPI_UNSIGNED_LONG_LONG, s->size - 1, a, s->comm, MPI_STATUS_IGNORE);
		h = state;
	}
	regions[0] = (region){0, head, 0};
	regions[arrays + 1] = (region){offset, parts.tail, 0};
	if (s->rank == 0) {
		h = pdl_snapshot_checksum(h, parts.tail, parts.tail_size);
		pdl_snapshot_encode_header(head, (uint64_t)payload, h);
		memcpy(head + PDL_SNAPSHOT_HEADER_SIZE, parts.head, parts.head_size);
		regions[0].size = PDL_SNAPSHOT_HEADER_SIZE + sizes[0];
		regions[arrays + 1].size = sizes[1];
	}
	ok = write_collective(s, path, regions, arrays + 2, PDL_SNAPSHOT_HEADER_SIZE + payload, err);
	pdl_snapshot_parts_free(&parts);
	free(bytes), free(head);
	return ok;
}

bool pdl_mpi_world_read_snapshot(pdl_mpi_world* s, const char* path, pdl_snapshot_info* info, pdl_error* err)
{
	bool ok = pdl_snapshot_read(path, s->world, info, err);
	if (!pdl_mpi_agree(s->comm, ok, err)) return false;
	ok = pdl_mpi_world_reload(s);
	if (!ok) pdl_error_fill(err, PDL_ERR_OUT_OF_MEMORY, path, NULL, "out of memory");
	return pdl_mpi_agree(s->comm, ok, err);
}
