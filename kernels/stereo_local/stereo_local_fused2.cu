// Center-biased local stereo on CUDA, variant fused2 (the default): the fused kernel with
// two disparities per step packed in 16-bit lanes (cost plane, horizontal pass, L / R
// planes), 32 x 64 tiles, 8 rows per thread; the fused kernels run where the lanes could
// overflow (local_packed_applies). Integer arithmetic of stereo_local/stereo_local_math.hpp: the
// CPU reference's map exactly.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "stereo_local/stereo_local_kernels.cuh"

namespace lb::cuda::detail {
namespace {

// Fused, packed pairs (variant fused2): the fused kernel for a compile-time radius R with
// two disparities d, d + 1 per step, their costs packed in the 16-bit lanes of one word
// (c(d) | c(d + 1) << 16), so the cost plane and the horizontal pass carry both at once:
// w * (c0 + 2^16 c1) summed over the window is L(d) + 2^16 L(d + 1), exact while every lane
// sum L <= wsum * 3T stays <= 0xffff (local_packed_applies checks it on the host; otherwise, with
// variable windows, or a radius without an instance, fused2 runs the fused kernels). The
// L and R planes stay packed (48 KiB of shared memory at r 16: 4 blocks per SM); the
// vertical pass (sums up to wsum^2 * 3T, 32-bit) runs once per disparity on the lane it
// extracts (one PRMT per loaded word). Taller tiles (32 x 64,
// 8 rows per thread) halve the halo rows' share of the cost and horizontal work. The WTA
// keeps (key, d) per row in registers: disparities arrive in increasing order within a
// block, so a strict < keeps the smaller d on ties; blocks merge by atomicMin on the packed
// values as the fused kernel does. The cost is the sum of absolute byte differences of RGB
// (alpha masked off) = pixel_cost's |dR| + |dG| + |dB|, then min with 3T: the same integers
// as every other path, hence the identical map.
constexpr int kPTH = 64;               // tile height (width kFT)
constexpr int kPRows = kPTH / kBY;     // output rows per thread
constexpr unsigned kLaneMax = 0xffffu;

constexpr int packed_cost_words(int r) { return ((kPTH + 2 * r) * fixed_cost_stride(r) + 3) / 4 * 4; }
std::size_t packed_smem_bytes(int r) {
  const std::size_t hh = kPTH + 2 * r;
  return (static_cast<std::size_t>(packed_cost_words(r)) + 2 * hh * kFT) * sizeof(unsigned);
}

bool packed_radius(int r) { return r == 8 || r == 12 || r == 16 || r == 20 || r == 24; }

template <int R>
__global__ void __launch_bounds__(kBX* kBY, 4) local_fused_packed_kernel(const uchar4* __restrict__ ref,
                                                                const uchar4* __restrict__ oth, int W, int H,
                                                                int dir, KernelParams k, int dpb,
                                                                u64* __restrict__ out) {
  constexpr int HW = kFT + 2 * R, HH = kPTH + 2 * R, SW = fixed_cost_stride(R), PL = HH * kFT;
  constexpr int CW = packed_cost_words(R);
  extern __shared__ unsigned smem[];
  unsigned* sc = smem;       // [HH][SW], HW used: packed cost pairs
  unsigned* sp = smem + CW;  // 2 planes [HH][kFT]: L, R, packed like the costs
  const unsigned* refw = reinterpret_cast<const unsigned*>(ref);
  const unsigned* othw = reinterpret_cast<const unsigned*>(oth);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBX + tx;
  const int oy0 = ty * kPRows;  // first of this thread's output rows in the tile
  const int x0 = blockIdx.x * kFT, y0 = blockIdx.y * kPTH;
  const int d_begin = blockIdx.z * dpb, d_end = min(k.ndisp, d_begin + dpb);
  const unsigned trunc3 = k.trunc3;
  unsigned bkey[kPRows];
  int bd[kPRows];
#pragma unroll
  for (int q = 0; q < kPRows; ++q) {
    bkey[q] = 0xffffffffu;
    bd[q] = d_begin;
  }
  for (int d = d_begin; d < d_end; d += 2) {
    // 1. packed costs of d and d + 1 (d + 1 may be ndisp: computed, never selected) over
    // the tile + halo, coordinates clamped (= the clamped convolutions).
    for (int hy = ty; hy < HH; hy += kBY) {
      const int gy = sl::clampi(y0 - R + hy, 0, H - 1);
      const unsigned* rrow = refw + static_cast<std::size_t>(gy) * W;
      const unsigned* orow = othw + static_cast<std::size_t>(gy) * W;
      for (int hx = tx; hx < HW; hx += kBX) {
        const int gx = sl::clampi(x0 - R + hx, 0, W - 1);
        const unsigned a = __ldg(rrow + gx) & 0x00ffffffu;
        const unsigned b0 = __ldg(orow + sl::match_x(gx, d, dir, W)) & 0x00ffffffu;
        const unsigned b1 = __ldg(orow + sl::match_x(gx, d + 1, dir, W)) & 0x00ffffffu;
        const unsigned c0 = min(__vsadu4(a, b0), trunc3), c1 = min(__vsadu4(a, b1), trunc3);
        sc[hy * SW + hx] = c0 | (c1 << 16);
      }
    }
    __syncthreads();
    // 2. horizontal, both lanes at once (tasks as in local_fused_fixed_kernel: 4 columns of one
    // halo row).
    for (int task = tid; task < HH * 8; task += kBX * kBY) {
      const int hy = task >> 3, g = task & 7;
      const unsigned* c = sc + hy * SW + 4 * g;
      unsigned l[4] = {}, rr[4] = {};
#pragma unroll
      for (int j = 0; j < 2 * R + 4; ++j) {
        const unsigned v = c[j];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const int tl = i + R - j, tr = j - i - R;
          if (tl >= 0 && tl <= R) l[i] += k.w[tl] * v;
          if (tr >= 0 && tr <= R) rr[i] += k.w[tr] * v;
        }
      }
      unsigned* o = sp + hy * kFT + 4 * g;
      *reinterpret_cast<uint4*>(o) = make_uint4(l[0], l[1], l[2], l[3]);
      *reinterpret_cast<uint4*>(o + PL) = make_uint4(rr[0], rr[1], rr[2], rr[3]);
    }
    __syncthreads();
    // 3. vertical streams and the WTA, one disparity (lane h) at a time; the byte
    // permutation takes the lane's 16 bits (bytes 0, 1 or 2, 3; zeros above). Output row oy0 + q is halo
    // row oy0 + q + R; UL sums halo rows oy0 + q .. oy0 + q + R (weight index q + R - j for
    // halo row oy0 + j), DL rows oy0 + q + R .. oy0 + q + 2R (weight index j - q - R).
#pragma unroll 1
    for (int h = 0; h < 2 && d + h < d_end; ++h) {
      // The same words serve both lanes: an opaque column index keeps the compiler from
      // hoisting the 2 (2R + 8) loads out of this loop (it then holds them all: > 128 registers).
      int col = tx;
      asm volatile("" : "+r"(col));
      const unsigned* pl = sp + col;
      const unsigned* pr = sp + PL + col;
      const unsigned sel = 0x4410u + 0x22u * static_cast<unsigned>(h);
      unsigned ul[kPRows] = {}, dl[kPRows] = {}, ur[kPRows] = {}, dr[kPRows] = {};
#pragma unroll
      for (int j = 0; j < 2 * R + kPRows; ++j) {
        vertical_window_add<R>(k, j, __byte_perm(pl[(oy0 + j) * kFT], 0u, sel), __byte_perm(pr[(oy0 + j) * kFT], 0u, sel),
                               ul, dl, ur, dr);
      }
#pragma unroll
      for (int q = 0; q < kPRows; ++q) {
        const unsigned key = sl::min4(ul[q], dl[q], ur[q], dr[q]);
        if (key < bkey[q]) {
          bkey[q] = key;
          bd[q] = d + h;
        }
      }
    }
    __syncthreads();  // before the next pair overwrites the shared planes
  }
  const int x = x0 + tx;
  if (x >= W) return;
#pragma unroll
  for (int q = 0; q < kPRows; ++q) {
    const int y = y0 + oy0 + q;
    if (y >= H) continue;
    u64* o = out + static_cast<std::size_t>(y) * W + x;
    const u64 v = sl::pack(bkey[q], bd[q]);
    if (gridDim.z == 1)
      *o = v;
    else
      atomicMin(o, v);
  }
}

}  // namespace

// Whether fused2 can run the packed kernel for k (else it runs the fused kernels): a
// compiled radius, no variable windows, lane sums within 16 bits, and the shared memory
// (r 16: 48 KiB, r 24: 63 KiB) within the device's per-block limit `smem_optin`.
bool local_packed_applies(const KernelParams& k, int smem_optin) {
  return packed_radius(k.radius) && !k.variable_windows &&
         static_cast<std::uint64_t>(k.wsum) * k.trunc3 <= kLaneMax &&
         packed_smem_bytes(k.radius) <= static_cast<std::size_t>(smem_optin);
}

void launch_local_fused_packed(const LocalLaunch& a, cudaStream_t s) {
  const dim3 block(kBX, kBY);
  const int tiles = ((a.W + kFT - 1) / kFT) * ((a.H + kPTH - 1) / kPTH);
  // Disparity batches of an even size (pairs): enough blocks for ~10 per SM, so the blocks
  // (about 3 resident per SM) balance over the SMs; each batch beyond the first costs one
  // atomicMin per pixel.
  const DisparityBatches z = disparity_batches(a, tiles, 10, 2, s);
  const dim3 grid((a.W + kFT - 1) / kFT, (a.H + kPTH - 1) / kPTH, z.count);
  auto launch = [&](auto kernel, std::size_t smem) {
    launch_fused_kernel(kernel, grid, block, smem, a, z.per_batch, s);
  };
  switch (a.k.radius) {
    case 8: launch(local_fused_packed_kernel<8>, packed_smem_bytes(8)); break;
    case 12: launch(local_fused_packed_kernel<12>, packed_smem_bytes(12)); break;
    case 16: launch(local_fused_packed_kernel<16>, packed_smem_bytes(16)); break;
    case 20: launch(local_fused_packed_kernel<20>, packed_smem_bytes(20)); break;
    default: launch(local_fused_packed_kernel<24>, packed_smem_bytes(24)); break;  // packed_radius
  }
}

}  // namespace lb::cuda::detail
