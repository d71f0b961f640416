#pragma once
// Marks functions shared by the CPU reference and the CUDA kernels (NVIDIA FLIP's idea):
// the math lives once, so the two paths cannot drift apart silently.
#if defined(__CUDACC__)
#define LB_HD __host__ __device__ __forceinline__
#else
#define LB_HD inline
#endif
