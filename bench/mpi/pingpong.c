/* Latency and bandwidth between two MPI processes, for the model of docs/mpi.md ("Model"): the
 * time of a round trip of 8 bytes (latency: half of it) and of 32 MB (the bytes of a halo of a
 * million 32-byte particles; bandwidth: the bytes over half the round trip). Not built by CMake:
 *
 *     mpicc -O2 -std=c11 bench/mpi/pingpong.c -o /tmp/pingpong
 *     mpirun -np 2 /tmp/pingpong                      # shared memory, one node
 *     mpirun -np 2 --map-by node --hostfile hosts /tmp/pingpong   # across the network
 *
 * SPDX-License-Identifier: MIT */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seconds one way for `bytes`, the median of `rounds` round trips. */
static double one_way(char* buffer, int bytes, int rounds, int rank)
{
	double* times = malloc((size_t)rounds * sizeof *times);
	for (int i = 0; i < rounds; ++i) {
		MPI_Barrier(MPI_COMM_WORLD);
		double t = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
		}
		times[i] = (MPI_Wtime() - t) / 2;
	}
	for (int i = 1; i < rounds; ++i) /* insertion sort: a few hundred values */
		for (int j = i; j > 0 && times[j] < times[j - 1]; --j) {
			double x = times[j];
			times[j] = times[j - 1], times[j - 1] = x;
		}
	double median = times[rounds / 2];
	free(times);
	return median;
}

int main(int argc, char** argv)
{
	MPI_Init(&argc, &argv);
	int rank = 0, size = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0) fprintf(stderr, "pingpong: run it with mpirun -np 2\n");
		MPI_Finalize();
		return 2;
	}
	const int big = 32 << 20;
	char* buffer = calloc((size_t)big, 1);
	if (!buffer) MPI_Abort(MPI_COMM_WORLD, 1);
	one_way(buffer, big, 3, rank); /* warm-up: page faults, the transport's set-up */
	double small = one_way(buffer, 8, 1000, rank);
	double large = one_way(buffer, big, 20, rank);
	if (rank == 0)
		printf("latency %.2f us (8 bytes one way), bandwidth %.2f GB/s (%d bytes one way in %.3f ms)\n", small * 1e6,
		       big / large / 1e9, big, large * 1e3);
	free(buffer);
	MPI_Finalize();
	return 0;
}
