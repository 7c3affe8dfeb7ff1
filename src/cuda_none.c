/* The CUDA backend's stand-in in a build without CUDA (PUDDLE_CUDA off, or no nvcc found):
 * worlds that ask for PDL_BACKEND_CUDA are refused at creation with the reason below. */
#include "cuda_step.h"

#include <stdio.h>
#include <stdlib.h>

bool pdl_cuda_probe(char* why, int size)
{
	snprintf(why, (size_t)size, "this build of puddle has no CUDA (configure with -DPUDDLE_CUDA=ON where nvcc is)");
	return false;
}

pdl_cuda* pdl_cuda_create(void) { return NULL; }

void pdl_cuda_destroy(pdl_cuda* c) { (void)c; }

void pdl_cuda_unpin(pdl_cuda* c) { (void)c; }

bool pdl_cuda_step(pdl_cuda* c, const pdl_cuda_frame* f, pdl_profile* prof, char* why, int size)
{
	(void)c, (void)f, (void)prof;
	snprintf(why, (size_t)size, "this build of puddle has no CUDA");
	return false;
}

long long pdl_cuda_bytes(const pdl_cuda* c)
{
	(void)c;
	return 0;
}

bool pdl_cuda_mean_neighbours(pdl_cuda* c, int n, float* mean)
{
	(void)c, (void)n, (void)mean;
	return false;
}
