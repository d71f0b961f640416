// Center-biased local stereo on CUDA: the seed's kernel-fusion phases and a fused tiled
// kernel, all with the integer arithmetic of stereo_local/stereo_local_math.hpp, so every
// variant's map is identical to the CPU reference (see stereo_local/stereo_local_cuda.hpp).
//
// Phase pipelines: disparities in groups of four, one uint4 per pixel and group ("four
// disparities packed per 4-vector"), planes [group][y][x] in global memory:
//   phase2  cost -> horizontal (L, R) -> vertical (UL, DL, UR, DR, one kernel) -> WTA
//   phase3  cost -> horizontal -> vertical on L (UL, DL) and on R (UR, DR) -> WTA
//   phase4  cost -> horizontal re-packed A = (L0 L1 R0 R1), B = (L2 L3 R2 R3) ->
//           vertical A -> WTA A (d = 4g, 4g+1) -> vertical B -> WTA B (4g+2, 4g+3; merges A)
//   phase5  cost -> horizontal re-packed -> vertical+WTA A -> vertical+WTA B: each thread
//           runs over all groups keeping a running min / argmin; UL..DR never stored
//   fused   one kernel: per 32x32 tile and batch of disparities, cost (tile + halo), both
//           passes and the WTA in shared memory / registers; batches merge by atomicMin
//           on the packed (key, d) values, which is order-independent. Radii 8, 12, 16,
//           20, 24 run an unrolled instance (weights as constants, 4 rows per thread in
//           the vertical pass), other radii the generic kernel.
//   fused2  (default) fused with two disparities per step packed in 16-bit lanes (cost plane,
//           horizontal pass, L / R planes), 32 x 64 tiles, 8 rows per thread; runs the
//           fused kernels where the lanes could overflow (see local_fused_packed_kernel).
// Ties: the packed value (key << 10 | d) orders by key then d, so every order of min()
// picks the smaller disparity, as the CPU does.
//
// This file: the pipelines (variant -> kernels: phases in stereo_local_phases.cu, fused in
// stereo_local_fused.cu, fused2 in stereo_local_fused2.cu), the left-right check and the
// device state; the CUDA engine over it is stereo_local_engine.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "cuda_check.cuh"
#include "lightbench/cuda_api.hpp"
#include "stereo_local/stereo_local_kernels.cuh"

namespace lb::cuda::detail {
namespace {

__global__ void local_to_float_kernel(const u64* __restrict__ packed, int n, float* __restrict__ disp) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) disp[i] = static_cast<float>(sl::packed_disparity(packed[i]));
}

__global__ void local_unpack_kernel(const u64* __restrict__ packed, int n, int* __restrict__ d) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = sl::packed_disparity(packed[i]);
}

__global__ void local_lr_kernel(const int* __restrict__ dl, const int* __restrict__ dr, int W, int H, float* __restrict__ disp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  const std::size_t o = static_cast<std::size_t>(y) * W;
  disp[o + x] = static_cast<float>(sl::lr_fill(dl + o, dr + o, W, x));
}

}  // namespace

LocalKernel parse_local_kernel(const std::string& name) {
  if (name == "phase2") return LocalKernel::Phase2;
  if (name == "phase3") return LocalKernel::Phase3;
  if (name == "phase4") return LocalKernel::Phase4;
  if (name == "phase5") return LocalKernel::Phase5;
  if (name == "fused") return LocalKernel::Fused;
  if (name == "fused2") return LocalKernel::Fused2;
  throw Error("--variant '" + name + "': local stereo variants are phase2, phase3, phase4, phase5, fused, fused2");
}

const char* local_kernel_name(LocalKernel k) {
  switch (k) {
    case LocalKernel::Phase2: return "phase2";
    case LocalKernel::Phase3: return "phase3";
    case LocalKernel::Phase4: return "phase4";
    case LocalKernel::Phase5: return "phase5";
    case LocalKernel::Fused: return "fused";
    case LocalKernel::Fused2: return "fused2";
  }
  return "?";
}

LocalKernel local_kernel_run(const KernelParams& k, LocalKernel v, int smem_optin) {
  if (v == LocalKernel::Fused2 && !local_packed_applies(k, smem_optin)) return LocalKernel::Fused;
  return v;
}

std::uint64_t local_pass_bytes(int width, int height, const KernelParams& k, bool lr_check, LocalKernel v) {
  const std::uint64_t px = static_cast<std::uint64_t>(width) * height;
  const std::uint64_t P = static_cast<std::uint64_t>((k.ndisp + 3) / 4) * px * 16;  // one uint4 plane set
  const std::uint64_t img = 2 * px * 4, packed = px * 8;
  const std::uint64_t centre = k.variable_windows ? 2 * P : 0;  // L / R (A / B) re-read by the WTA
  std::uint64_t agg = 0;
  switch (v) {
    case LocalKernel::Phase2:
    case LocalKernel::Phase3:  // cost, horizontal, vertical, WTA
      agg = (img + P) + (P + 2 * P) + (2 * P + 4 * P) + (4 * P + centre + packed);
      break;
    case LocalKernel::Phase4:  // cost, horizontal, 2 x (vertical, WTA copy), the second merges the first
      agg = (img + P) + (P + 2 * P) + 2 * (P + 2 * P) + (4 * P + centre + packed) + 2 * packed;
      break;
    case LocalKernel::Phase5:  // cost, horizontal, 2 x vertical+WTA
      agg = (img + P) + (P + 2 * P) + (2 * P + packed) + 2 * packed;
      break;
    case LocalKernel::Fused:
    case LocalKernel::Fused2: agg = img + packed; break;
  }
  std::uint64_t total = agg + packed + px * 4;  // + to_float
  if (lr_check) total = 2 * agg + 2 * (packed + px * 4) + 2 * px * 4 + px * 4;  // two passes, unpack, check
  return total;
}

PinnedHost::~PinnedHost() {
  if (ptr_) CUDA_CHECK_PRINT(cudaFreeHost(ptr_));
}

void PinnedHost::reserve(std::size_t bytes) {
  if (bytes <= bytes_) return;
  if (ptr_) CUDA_CHECK_THROW(cudaFreeHost(ptr_));
  ptr_ = nullptr;
  bytes_ = 0;
  host_pinned_alloc(reinterpret_cast<void**>(&ptr_), bytes, "the local-stereo staging");
  bytes_ = bytes;
}

void LocalDeviceState::set_pair(const stereo::StereoPair& pair, cudaStream_t s) {
  stereo::validate(stereo::LocalParams{}, pair);
  const ImageU8 l = to_rgba(pair.left), r = to_rgba(pair.right);
  width = l.width;
  height = l.height;
  const std::size_t bytes = l.size_bytes();
  host_left_.reserve(bytes);
  host_right_.reserve(bytes);
  host_disp_.reserve(l.pixels() * sizeof(float));
  std::memcpy(host_left_.get(), l.data.data(), bytes);
  std::memcpy(host_right_.get(), r.data.data(), bytes);
  left.reserve(bytes);
  right.reserve(bytes);
  int dev = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&smem_optin_, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  upload(s);
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
}

void LocalDeviceState::upload(cudaStream_t s) {
  const std::size_t bytes = static_cast<std::size_t>(width) * height * 4;
  CUDA_CHECK_THROW(cudaMemcpyAsync(left.get(), host_left_.get(), bytes, cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaMemcpyAsync(right.get(), host_right_.get(), bytes, cudaMemcpyHostToDevice, s));
}

void LocalDeviceState::download(cudaStream_t s) {
  CUDA_CHECK_THROW(cudaMemcpyAsync(host_disp_.get(), disp.get(), static_cast<std::size_t>(width) * height * 4,
                                   cudaMemcpyDeviceToHost, s));
}
void LocalDeviceState::aggregate(const KernelParams& k, LocalKernel v, int dir, std::uint64_t* out_packed,
                                 cudaStream_t s) {
  LocalLaunch a{};
  a.ref = (dir < 0 ? left : right).as<uchar4>();
  a.oth = (dir < 0 ? right : left).as<uchar4>();
  a.W = width;
  a.H = height;
  a.dir = dir;
  a.k = k;
  a.sm_count = sm_count_;
  a.out = reinterpret_cast<u64*>(out_packed);
  const LocalKernel run = local_kernel_run(k, v, smem_optin_);
  if (run == LocalKernel::Fused2) {
    launch_local_fused_packed(a, s);
    return;
  }
  if (run == LocalKernel::Fused) {
    launch_local_fused(a, s);
    return;
  }
  launch_local_phases(a, run, work, s);
}


void LocalDeviceState::compute(const KernelParams& k, bool lr_check, LocalKernel v, cudaStream_t s) {
  LB_REQUIRE(!empty(), "stereo local: no pair loaded");
  const int n = width * height;
  packed.reserve(static_cast<std::size_t>(n) * 2 * sizeof(u64));
  disp.reserve(static_cast<std::size_t>(n) * sizeof(float));
  std::uint64_t* p0 = packed.as<std::uint64_t>();
  std::uint64_t* p1 = p0 + n;
  aggregate(k, v, -1, p0, s);
  if (!lr_check) {
    local_to_float_kernel<<<(n + 255) / 256, 256, 0, s>>>(reinterpret_cast<u64*>(p0), n, disp.as<float>());
    CUDA_CHECK_LAUNCH();
    return;
  }
  aggregate(k, v, +1, p1, s);
  ints.reserve(static_cast<std::size_t>(n) * 2 * sizeof(int));
  int* dl = ints.as<int>();
  int* dr = dl + n;
  local_unpack_kernel<<<(n + 255) / 256, 256, 0, s>>>(reinterpret_cast<u64*>(p0), n, dl);
  CUDA_CHECK_LAUNCH();
  local_unpack_kernel<<<(n + 255) / 256, 256, 0, s>>>(reinterpret_cast<u64*>(p1), n, dr);
  CUDA_CHECK_LAUNCH();
  const dim3 block(kBX, kBY);
  const dim3 grid2((width + kBX - 1) / kBX, (height + kBY - 1) / kBY);
  local_lr_kernel<<<grid2, block, 0, s>>>(dl, dr, width, height, disp.as<float>());
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
