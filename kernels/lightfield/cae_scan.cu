// CAE cost kernels, the seed's steps on the 256-bin histogram: baseline, vec, tex (one
// thread per (pixel, label)) and coalesced (2D pixel blocks, cae_pixels.cuh). What each
// variant does and its tolerance: lightfield/cae_cuda.hpp.
#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_pixels.cuh"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

namespace {

// ---- baseline: thread per (pixel, label), label fastest; scalar per channel, RGB8 -------
__global__ void cae_baseline_kernel(CaeArgs a, const unsigned char* __restrict__ rgb) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long total = static_cast<long long>(a.rw) * a.rh * a.A;
  if (t >= total) return;
  const int label = static_cast<int>(t % a.A);
  const int pix = static_cast<int>(t / a.A);
  const int px = pix % a.rw, py = pix / a.rw, x = a.rx + px, y = a.ry + py;
  const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  const unsigned char* cview = rgb + (static_cast<size_t>(a.vc) * a.nu + a.uc) * plane * 3;
  __align__(16) unsigned char hist[256];
  float hs[3];
  for (int ch = 0; ch < 3; ++ch) {
    const int c = cview[(static_cast<size_t>(y) * a.W + x) * 3 + ch];
    zero_hist(hist, 256);
    for (int v = a.v0; v < a.v0 + a.n; ++v)
      for (int u = a.u0; u < a.u0 + a.n; ++u) {
        const Tap tp = bilinear_tap(shear_pos(x, u - a.uc, d), shear_pos(y, v - a.vc, d), a.W, a.H);
        const unsigned char* view = rgb + (static_cast<size_t>(v) * a.nu + u) * plane * 3;
        const int i = lerp_round(view[tp.i00 * 3 + ch], view[tp.i10 * 3 + ch], view[tp.i01 * 3 + ch],
                                 view[tp.i11 * 3 + ch], tp.fx, tp.fy);
        ++hist[i];
      }
    hs[ch] = entropy256(hist, c, a);
  }
  a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
}

// ---- vec / tex: thread per (pixel, label), label fastest; RGB at once -------------------
template <bool kTex>
__global__ void cae_vec_kernel(CaeArgs a, const uchar4* __restrict__ rgba, cudaTextureObject_t tex) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long total = static_cast<long long>(a.rw) * a.rh * a.A;
  if (t >= total) return;
  const int label = static_cast<int>(t % a.A);
  const int pix = static_cast<int>(t / a.A);
  const int px = pix % a.rw, py = pix / a.rw, x = a.rx + px, y = a.ry + py;
  const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  __align__(16) unsigned char hist[3][256];
  zero_hist(&hist[0][0], 768);
  for (int v = a.v0; v < a.v0 + a.n; ++v)
    for (int u = a.u0; u < a.u0 + a.n; ++u) {
      const float sx = shear_pos(x, u - a.uc, d), sy = shear_pos(y, v - a.vc, d);
      int s[3];
      if constexpr (kTex) {
        const float4 f = tex2DLayered<float4>(tex, sx + 0.5f, sy + 0.5f, v * a.nu + u);
        s[0] = __float2int_rd(__fmaf_rn(f.x, 255.0f, 0.5f));
        s[1] = __float2int_rd(__fmaf_rn(f.y, 255.0f, 0.5f));
        s[2] = __float2int_rd(__fmaf_rn(f.z, 255.0f, 0.5f));
      } else {
        sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane, bilinear_tap(sx, sy, a.W, a.H), s);
      }
      ++hist[0][s[0]];
      ++hist[1][s[1]];
      ++hist[2][s[2]];
    }
  const float h0 = entropy256(hist[0], c[0], a), h1 = entropy256(hist[1], c[1], a),
              h2 = entropy256(hist[2], c[2], a);
  a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(h0, h1, h2);
}

}  // namespace

void launch_cae_scan(CaeKernel k, CaeArgs a, const CaeDeviceLightField& lf, cudaStream_t s) {
  if (k == CaeKernel::Coalesced) {
    cae_pixels_kernel<CaeKernel::Coalesced><<<pixels_grid(a), pixels_block(), 0, s>>>(a, lf.rgba.as<uchar4>());
  } else {
    const long long total = static_cast<long long>(a.rw) * a.rh * a.A;
    const int block = 128;
    const unsigned grid = static_cast<unsigned>((total + block - 1) / block);
    if (k == CaeKernel::Baseline) cae_baseline_kernel<<<grid, block, 0, s>>>(a, lf.rgb.as<unsigned char>());
    else if (k == CaeKernel::Vec) cae_vec_kernel<false><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>(), 0);
    else if (k == CaeKernel::Tex)
      cae_vec_kernel<true><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>(), static_cast<cudaTextureObject_t>(lf.tex));
    else
      throw Error(std::string("CAE scan kernels: no ") + cae_kernel_name(k));
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
