#pragma once
// Internal to lb_kernels: the 2D pixel-block CAE kernel of coalesced (cae_scan.cu) and of
// binned / binned_fast (cae_binned.cu), one template: each file instantiates its own.
#include "lightfield/cae_common.cuh"

namespace lb::cuda::detail {

// ---- coalesced / binned: 2D pixel blocks (x fastest), labels per grid z ----------------
template <CaeKernel kK>
__global__ void cae_pixels_kernel(CaeArgs a, const uchar4* __restrict__ rgba) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;
  const int x = a.rx + px, y = a.ry + py;
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  constexpr bool kBin = kK == CaeKernel::Binned || kK == CaeKernel::BinnedFast;
  static_assert(kK == CaeKernel::Coalesced || kBin, "cae_pixels_kernel: coalesced, binned or binned_fast");
  constexpr int kHistBins = kBin ? 64 : 256;
  __align__(16) unsigned char hist[3][kHistBins];
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    zero_hist(&hist[0][0], 3 * kHistBins);
    // Column-wise angular walk: for each view column u, the views down the column.
    for (int u = a.u0; u < a.u0 + a.n; ++u) {
      const float sx = shear_pos(x, u - a.uc, d);
      int x0 = 0, x1 = 0;
      float fx = 0.0f;
      if constexpr (kK == CaeKernel::BinnedFast) axis_tap(sx, a.W, x0, x1, fx);
      for (int v = a.v0; v < a.v0 + a.n; ++v) {
        int s[3];
        if constexpr (kK == CaeKernel::BinnedFast) {
          int y0, y1;
          float fy;
          axis_tap(shear_pos(y, v - a.vc, d), a.H, y0, y1, fy);
          const Levels l = sample_fast(reinterpret_cast<const unsigned*>(rgba) + (static_cast<size_t>(v) * a.nu + u) * plane,
                                       a.W, x0, x1, fx, y0, y1, fy);
          s[0] = static_cast<int>(l.r - kMagicBits);
          s[1] = static_cast<int>(l.g - kMagicBits);
          s[2] = static_cast<int>(l.b - kMagicBits);
        } else {
          sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane,
                      bilinear_tap(sx, shear_pos(y, v - a.vc, d), a.W, a.H), s);
        }
        if constexpr (kBin) {
          ++hist[0][s[0] >> 2];
          ++hist[1][s[1] >> 2];
          ++hist[2][s[2] >> 2];
        } else {
          ++hist[0][s[0]];
          ++hist[1][s[1]];
          ++hist[2][s[2]];
        }
      }
    }
    float hs[3];
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      if constexpr (kK == CaeKernel::Coalesced) {
        hs[ch] = entropy256(hist[ch], c[ch], a);
      } else {  // binned: 64 bins, weights at the bin centre
        float G = 0.0f, S = 0.0f;
        const unsigned* h32 = reinterpret_cast<const unsigned*>(hist[ch]);
        for (int q = 0; q < 16; ++q) {
          const unsigned packed = h32[q];
          if (packed == 0u) continue;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const int cnt = (packed >> (8 * j)) & 0xff;
            if (cnt) add_term(__ldg(a.wbin + cae::binned_weight_index(4 * q + j, c[ch])), cnt, a.inv_n, G, S);
          }
        }
        hs[ch] = finish(G, S, a.normalized);
      }
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
  }
}

// Launch shape of cae_pixels_kernel: 32 x 4 pixel blocks, labels_per_thread labels per grid z.
inline dim3 pixels_block() { return dim3(32, 4); }
inline dim3 pixels_grid(const CaeArgs& a) {
  return dim3((a.rw + 31) / 32, (a.rh + 3) / 4,
              static_cast<unsigned>((a.A + a.labels_per_thread - 1) / a.labels_per_thread));
}

}  // namespace lb::cuda::detail
