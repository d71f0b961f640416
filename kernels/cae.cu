// CAE depth for 4D light fields on CUDA: the seed's kernel variants (baseline, vec, tex,
// coalesced, binned) and the exact occupied-bins CAE; winner takes all; the CUDA estimator.
// See lightbench/cae_cuda.hpp for what each variant does and its tolerance.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "cae_launch.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/cae_cuda.hpp"
#include "lightbench/cae_math.hpp"

namespace lb::cuda {

namespace detail {

namespace {

struct KArgs {
  int W, H, nu;
  int uc, vc, u0, v0, n;
  int rx, ry, rw, rh;
  int A;
  float dmin, dmax, inv_n;
  int normalized;
  int labels_per_thread;
  const float* w256;
  const float* wbin;
  float* cost;
};

// ---- math shared by every kernel (explicit roundings: identical bits in every variant) ---
__device__ __forceinline__ float shear_pos(int x, int du, float d) {
  return __fmaf_rn(static_cast<float>(cae::kShearSign * du), d, static_cast<float>(x));
}
struct Tap {
  int i00, i10, i01, i11;  // pixel indices
  float fx, fy;
};
__device__ __forceinline__ Tap bilinear_tap(float px, float py, int W, int H) {
  px = fminf(fmaxf(px, 0.0f), static_cast<float>(W - 1));
  py = fminf(fmaxf(py, 0.0f), static_cast<float>(H - 1));
  const int x0 = static_cast<int>(px), y0 = static_cast<int>(py);
  const int x1 = min(x0 + 1, W - 1), y1 = min(y0 + 1, H - 1);
  Tap t;
  t.fx = __fsub_rn(px, static_cast<float>(x0));
  t.fy = __fsub_rn(py, static_cast<float>(y0));
  t.i00 = y0 * W + x0;
  t.i10 = y0 * W + x1;
  t.i01 = y1 * W + x0;
  t.i11 = y1 * W + x1;
  return t;
}
__device__ __forceinline__ int lerp_round(float a, float b, float c, float d, float fx, float fy) {
  const float top = __fmaf_rn(fx, __fsub_rn(b, a), a);
  const float bot = __fmaf_rn(fx, __fsub_rn(d, c), c);
  const float v = __fmaf_rn(fy, __fsub_rn(bot, top), top);
  return __float2int_rd(__fadd_rn(v, 0.5f));
}
__device__ __forceinline__ void add_term(float w, int cnt, float inv_n, float& G, float& S) {
  const float g = __fmul_rn(w, __fmul_rn(static_cast<float>(cnt), inv_n));
  G = __fadd_rn(G, g);
  S = __fmaf_rn(g, logf(g), S);
}
__device__ __forceinline__ float finish(float G, float S, int normalized) {
  const float h = -__fdiv_rn(S, G);
  return normalized ? __fadd_rn(h, logf(G)) : h;
}
__device__ __forceinline__ float combine(float hr, float hg, float hb) {
  return __fdiv_rn(__fadd_rn(__fadd_rn(hr, hg), hb), 3.0f);
}
// 256-bin scan of one channel's 8-bit counts (ascending bins).
__device__ __forceinline__ float entropy256(const unsigned char* h, int c, const KArgs& a) {
  float G = 0.0f, S = 0.0f;
  const unsigned* h32 = reinterpret_cast<const unsigned*>(h);
  for (int q = 0; q < 64; ++q) {
    const unsigned packed = h32[q];
    if (packed == 0u) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int cnt = (packed >> (8 * j)) & 0xff;
      if (cnt) add_term(__ldg(a.w256 + abs(4 * q + j - c)), cnt, a.inv_n, G, S);
    }
  }
  return finish(G, S, a.normalized);
}
__device__ __forceinline__ void zero_hist(unsigned char* h, int bytes) {
  uint4* p = reinterpret_cast<uint4*>(h);
  for (int i = 0; i < bytes / 16; ++i) p[i] = make_uint4(0, 0, 0, 0);
}
__device__ __forceinline__ void centre_rgb(const uchar4* rgba, const KArgs& a, int x, int y, int c[3]) {
  const uchar4 cv = rgba[(static_cast<size_t>(a.vc) * a.nu + a.uc) * a.W * a.H + static_cast<size_t>(y) * a.W + x];
  c[0] = cv.x;
  c[1] = cv.y;
  c[2] = cv.z;
}
// Manual bilinear of an RGBA8 view (float per channel, same ops as the scalar path).
__device__ __forceinline__ void sample_rgba(const uchar4* view, const Tap& t, int out[3]) {
  const uchar4 p00 = __ldg(view + t.i00), p10 = __ldg(view + t.i10);
  const uchar4 p01 = __ldg(view + t.i01), p11 = __ldg(view + t.i11);
  out[0] = lerp_round(p00.x, p10.x, p01.x, p11.x, t.fx, t.fy);
  out[1] = lerp_round(p00.y, p10.y, p01.y, p11.y, t.fx, t.fy);
  out[2] = lerp_round(p00.z, p10.z, p01.z, p11.z, t.fx, t.fy);
}

// ---- baseline: thread per (pixel, label), label fastest; scalar per channel, RGB8 -------
__global__ void k_baseline(KArgs a, const unsigned char* __restrict__ rgb) {
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
__global__ void k_vec(KArgs a, const uchar4* __restrict__ rgba, cudaTextureObject_t tex) {
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

// ---- coalesced / binned / exact: 2D pixel blocks (x fastest), labels per grid z ---------
struct Mask256 {
  unsigned long long w[4] = {0, 0, 0, 0};
  __device__ __forceinline__ void set(int i) {
    const unsigned long long bit = 1ull << (i & 63);
    const int q = i >> 6;
#pragma unroll
    for (int k = 0; k < 4; ++k) w[k] |= (q == k) ? bit : 0ull;
  }
};

template <CaeKernel kK>
__global__ void k_pixels(KArgs a, const uchar4* __restrict__ rgba) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;
  const int x = a.rx + px, y = a.ry + py;
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  constexpr int kHistBins = kK == CaeKernel::Binned ? 64 : 256;
  __align__(16) unsigned char hist[3][kHistBins];
  if constexpr (kK == CaeKernel::Exact) zero_hist(&hist[0][0], 3 * kHistBins);  // kept zero
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    if constexpr (kK != CaeKernel::Exact) zero_hist(&hist[0][0], 3 * kHistBins);
    Mask256 m[3];
    // Column-wise angular walk: for each view column u, the views down the column.
    for (int u = a.u0; u < a.u0 + a.n; ++u) {
      const float sx = shear_pos(x, u - a.uc, d);
      for (int v = a.v0; v < a.v0 + a.n; ++v) {
        int s[3];
        sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane,
                    bilinear_tap(sx, shear_pos(y, v - a.vc, d), a.W, a.H), s);
        if constexpr (kK == CaeKernel::Binned) {
          ++hist[0][s[0] >> 2];
          ++hist[1][s[1] >> 2];
          ++hist[2][s[2] >> 2];
        } else {
          ++hist[0][s[0]];
          ++hist[1][s[1]];
          ++hist[2][s[2]];
        }
        if constexpr (kK == CaeKernel::Exact) {
          m[0].set(s[0]);
          m[1].set(s[1]);
          m[2].set(s[2]);
        }
      }
    }
    float hs[3];
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      if constexpr (kK == CaeKernel::Coalesced) {
        hs[ch] = entropy256(hist[ch], c[ch], a);
      } else if constexpr (kK == CaeKernel::Binned) {
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
      } else {  // Exact: occupied bins in ascending order, counts reset behind us
        float G = 0.0f, S = 0.0f;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          unsigned long long bits = m[ch].w[q];
          while (bits) {
            const int i = 64 * q + __ffsll(static_cast<long long>(bits)) - 1;
            bits &= bits - 1;
            const int cnt = hist[ch][i];
            hist[ch][i] = 0;
            add_term(__ldg(a.w256 + abs(i - c[ch])), cnt, a.inv_n, G, S);
          }
        }
        hs[ch] = finish(G, S, a.normalized);
      }
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
  }
}

// ---- exact, register variant (n = 3, 5, 7): the n*n samples stay in registers, each
// channel's keys are sorted by a bitonic network (padded to a power of two with 256), and
// the runs of equal keys are the occupied bins in ascending order: the same terms in the
// same order as the 256-bin scan, with no histogram memory at all.
template <int P>
__device__ __forceinline__ void bitonic_sort(int (&k)[P]) {
#pragma unroll
  for (int size = 2; size <= P; size <<= 1)
#pragma unroll
    for (int stride = size / 2; stride > 0; stride >>= 1)
#pragma unroll
      for (int i = 0; i < P; ++i) {
        const int j = i ^ stride;
        if (j > i) {
          const int lo = min(k[i], k[j]), hi = max(k[i], k[j]);
          const bool up = (i & size) == 0;
          k[i] = up ? lo : hi;
          k[j] = up ? hi : lo;
        }
      }
}

template <int N>
__global__ void __launch_bounds__(128) k_exact_reg(KArgs a, const uchar4* __restrict__ rgba) {
  constexpr int NN = N * N;
  constexpr int P = NN <= 16 ? 16 : NN <= 32 ? 32 : 64;
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;
  const int x = a.rx + px, y = a.ry + py;
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    unsigned packed[NN];
#pragma unroll
    for (int uu = 0; uu < N; ++uu) {
      const int u = a.u0 + uu;
      const float sx = shear_pos(x, u - a.uc, d);
#pragma unroll
      for (int vv = 0; vv < N; ++vv) {
        const int v = a.v0 + vv;
        int s[3];
        sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane,
                    bilinear_tap(sx, shear_pos(y, v - a.vc, d), a.W, a.H), s);
        packed[uu * N + vv] = static_cast<unsigned>(s[0]) | (static_cast<unsigned>(s[1]) << 8) |
                              (static_cast<unsigned>(s[2]) << 16);
      }
    }
    float hs[3];
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      int k[P];
#pragma unroll
      for (int j = 0; j < P; ++j) k[j] = j < NN ? static_cast<int>((packed[j < NN ? j : 0] >> (8 * ch)) & 0xff) : 256;
      bitonic_sort<P>(k);
      float G = 0.0f, S = 0.0f;
      int run = 1;
#pragma unroll
      for (int j = 0; j < NN; ++j) {
        if (j + 1 < NN && k[j + 1] == k[j]) {
          ++run;
        } else {
          add_term(__ldg(a.w256 + abs(k[j] - c[ch])), run, a.inv_n, G, S);
          run = 1;
        }
      }
      hs[ch] = finish(G, S, a.normalized);
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
  }
}

__global__ void k_wta(int rw, int rh, int A, float dmin, float dmax, const float* __restrict__ cost,
                      float* disparity, int* label, float* confidence) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= rw || py >= rh) return;
  const size_t plane = static_cast<size_t>(rw) * rh, i = static_cast<size_t>(py) * rw + px;
  float best = INFINITY, sum = 0.0f;
  int best_a = 0;
  for (int a = 0; a < A; ++a) {
    const float c = cost[a * plane + i];
    sum += c;
    if (c < best) {
      best = c;
      best_a = a;
    }
  }
  disparity[i] = cae::label_disparity(dmin, dmax, A, best_a);
  label[i] = best_a;
  confidence[i] = sum / static_cast<float>(A) - best;
}

KArgs make_args(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi, const float* tables,
                float* cost) {
  KArgs a{};
  a.W = lf.width;
  a.H = lf.height;
  a.nu = lf.nu;
  a.uc = lf.nu / 2;
  a.vc = lf.nv / 2;
  a.n = p.views;
  a.u0 = a.uc - p.views / 2;
  a.v0 = a.vc - p.views / 2;
  a.rx = roi.x;
  a.ry = roi.y;
  a.rw = roi.w;
  a.rh = roi.h;
  a.A = p.labels;
  a.dmin = p.dmin;
  a.dmax = p.dmax;
  a.inv_n = 1.0f / static_cast<float>(p.views * p.views);
  a.normalized = p.normalized_log ? 1 : 0;
  a.labels_per_thread = 1;
  a.w256 = tables;
  a.wbin = tables + cae::kBins;
  a.cost = cost;
  return a;
}

}  // namespace

CaeKernel parse_cae_kernel(const std::string& name) {
  for (CaeKernel k : {CaeKernel::Baseline, CaeKernel::Vec, CaeKernel::Tex, CaeKernel::Coalesced,
                      CaeKernel::Binned, CaeKernel::Exact})
    if (name == cae_kernel_name(k)) return k;
  throw Error("--variant '" + name + "': use baseline, vec, tex, coalesced, binned or exact");
}

const char* cae_kernel_name(CaeKernel k) {
  switch (k) {
    case CaeKernel::Baseline: return "baseline";
    case CaeKernel::Vec: return "vec";
    case CaeKernel::Tex: return "tex";
    case CaeKernel::Coalesced: return "coalesced";
    case CaeKernel::Binned: return "binned";
    case CaeKernel::Exact: return "exact";
  }
  return "?";
}

CaeMethod cae_kernel_method(CaeKernel k) {
  return k == CaeKernel::Binned ? CaeMethod::Binned : k == CaeKernel::Exact ? CaeMethod::Exact : CaeMethod::Cae;
}

CaeDeviceLightField::~CaeDeviceLightField() { release(); }

void CaeDeviceLightField::release() {
  if (tex) CUDA_CHECK_PRINT(cudaDestroyTextureObject(static_cast<cudaTextureObject_t>(tex)));
  tex = 0;
  if (array) CUDA_CHECK_PRINT(cudaFreeArray(array));
  array = nullptr;
  nu = nv = width = height = 0;
}

void CaeDeviceLightField::upload(const LightField4D& lf, cudaStream_t s) {
  validate(lf);
  release();
  const std::size_t plane = static_cast<std::size_t>(lf.width) * lf.height;
  const std::size_t nviews = lf.views.size();
  std::vector<unsigned char> h_rgb(plane * 3 * nviews), h_rgba(plane * 4 * nviews);
  for (std::size_t k = 0; k < nviews; ++k) {
    const ImageU8& v = lf.views[k];
    std::memcpy(h_rgb.data() + k * plane * 3, v.data.data(), plane * 3);
    unsigned char* o = h_rgba.data() + k * plane * 4;
    for (std::size_t i = 0; i < plane; ++i) {
      o[4 * i] = v.data[3 * i];
      o[4 * i + 1] = v.data[3 * i + 1];
      o[4 * i + 2] = v.data[3 * i + 2];
      o[4 * i + 3] = 255;
    }
  }
  rgb.reserve(h_rgb.size());
  rgba.reserve(h_rgba.size());
  CUDA_CHECK_THROW(cudaMemcpyAsync(rgb.get(), h_rgb.data(), h_rgb.size(), cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaMemcpyAsync(rgba.get(), h_rgba.data(), h_rgba.size(), cudaMemcpyHostToDevice, s));
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  CUDA_CHECK_THROW(cudaMalloc3DArray(&array, &desc,
                                     make_cudaExtent(static_cast<std::size_t>(lf.width),
                                                     static_cast<std::size_t>(lf.height), nviews),
                                     cudaArrayLayered));
  cudaMemcpy3DParms cp{};
  cp.srcPtr = make_cudaPitchedPtr(h_rgba.data(), static_cast<std::size_t>(lf.width) * 4,
                                  static_cast<std::size_t>(lf.width), static_cast<std::size_t>(lf.height));
  cp.dstArray = array;
  cp.extent = make_cudaExtent(static_cast<std::size_t>(lf.width), static_cast<std::size_t>(lf.height), nviews);
  cp.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK_THROW(cudaMemcpy3DAsync(&cp, s));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = array;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = 0;
  cudaTextureObject_t t = 0;
  CUDA_CHECK_THROW(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  tex = static_cast<unsigned long long>(t);
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // host staging buffers go away
  nu = lf.nu;
  nv = lf.nv;
  width = lf.width;
  height = lf.height;
}

std::vector<float> cae_weight_tables(float sigma) {
  std::vector<float> t(cae::kBins + cae::kBinnedWeights);
  const double k = 1.0 / (2.0 * static_cast<double>(sigma) * sigma);
  for (int d = 0; d < cae::kBins; ++d) t[static_cast<std::size_t>(d)] = static_cast<float>(std::max(cae::kWeightFloor, std::exp(-double(d) * d * k)));
  for (int i = 0; i < cae::kBinnedWeights; ++i) {
    const double d = 0.5 * i;
    t[static_cast<std::size_t>(cae::kBins + i)] = static_cast<float>(std::max(cae::kWeightFloor, std::exp(-d * d * k)));
  }
  return t;
}

void launch_cae_cost(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi, CaeKernel k,
                     const float* tables, float* cost, cudaStream_t s) {
  KArgs a = make_args(lf, p, roi, tables, cost);
  if (k == CaeKernel::Baseline || k == CaeKernel::Vec || k == CaeKernel::Tex) {
    const long long total = static_cast<long long>(roi.w) * roi.h * p.labels;
    const int block = 128;
    const unsigned grid = static_cast<unsigned>((total + block - 1) / block);
    if (k == CaeKernel::Baseline)
      k_baseline<<<grid, block, 0, s>>>(a, lf.rgb.as<unsigned char>());
    else if (k == CaeKernel::Vec)
      k_vec<false><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>(), 0);
    else
      k_vec<true><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>(), static_cast<cudaTextureObject_t>(lf.tex));
  } else {
    // Exact (mask kernel, n >= 9) keeps its counts zero across labels: several labels per
    // thread amortise the one zeroing; the 256-bin kernels zero per label anyway.
    const bool reg = k == CaeKernel::Exact && (p.views == 3 || p.views == 5 || p.views == 7);
    a.labels_per_thread = k == CaeKernel::Exact && !reg ? 8 : 1;
    const dim3 block(32, 4);
    const dim3 grid((roi.w + 31) / 32, (roi.h + 3) / 4,
                    static_cast<unsigned>((p.labels + a.labels_per_thread - 1) / a.labels_per_thread));
    if (k == CaeKernel::Coalesced)
      k_pixels<CaeKernel::Coalesced><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>());
    else if (k == CaeKernel::Binned)
      k_pixels<CaeKernel::Binned><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>());
    else if (reg && p.views == 3)
      k_exact_reg<3><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>());
    else if (reg && p.views == 5)
      k_exact_reg<5><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>());
    else if (reg && p.views == 7)
      k_exact_reg<7><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>());
    else
      k_pixels<CaeKernel::Exact><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>());
  }
  CUDA_CHECK_LAUNCH();
}

void launch_cae_wta(const CaeParams& p, const CaeRoi& roi, const float* cost, float* disparity, int* label,
                    float* confidence, cudaStream_t s) {
  const dim3 block(32, 8), grid((roi.w + 31) / 32, (roi.h + 7) / 8);
  k_wta<<<grid, block, 0, s>>>(roi.w, roi.h, p.labels, p.dmin, p.dmax, cost, disparity, label, confidence);
  CUDA_CHECK_LAUNCH();
}

std::uint64_t cae_cost_bytes(const CaeParams& p, const CaeRoi& roi, int width, int height, CaeKernel k) {
  const std::uint64_t bpp = k == CaeKernel::Baseline ? 3 : 4;
  return static_cast<std::uint64_t>(p.views) * p.views * width * height * bpp +
         static_cast<std::uint64_t>(roi.w) * roi.h * p.labels * 4;
}
std::uint64_t cae_wta_bytes(const CaeParams& p, const CaeRoi& roi) {
  return static_cast<std::uint64_t>(roi.w) * roi.h * (static_cast<std::uint64_t>(p.labels) * 4 + 12);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------
std::vector<std::string> cae_variants() { return {"baseline", "vec", "tex", "coalesced", "binned", "exact"}; }

CaeMethod cae_variant_method(const std::string& variant) {
  return detail::cae_kernel_method(detail::parse_cae_kernel(variant));
}

namespace {

using namespace detail;

class CudaLfDepth final : public LightFieldDepthEstimator {
 public:
  explicit CudaLfDepth(int device) : device_(device) {
    std::string why;
    if (!cuda_available(&why)) throw Error("CUDA light-field depth: " + why);
    CUDA_CHECK_THROW(cudaSetDevice(device));
    info_ = device_info(device);
    stream_ = std::make_unique<Stream>();
    e0_ = std::make_unique<Event>();
    e1_ = std::make_unique<Event>();
    e2_ = std::make_unique<Event>();
  }
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return info_.name; }
  void set_lightfield(const LightField4D& lf) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    lf_.upload(lf, stream_->get());
  }
  bool has_lightfield() const override { return !lf_.empty(); }
  std::vector<std::string> variants() const override { return cae_variants(); }
  std::string default_variant(CaeMethod m) const override {
    return m == CaeMethod::Binned ? "binned" : m == CaeMethod::Exact ? "exact" : "coalesced";
  }
  LfDepthResult run(const CaeParams& p, const std::string& variant_in, const CaeRunOptions& o) override {
    LB_REQUIRE(has_lightfield(), "lfdepth: no light field loaded");
    validate(p);
    LB_REQUIRE(p.views <= lf_.nu && p.views <= lf_.nv && (p.views / 2) <= lf_.nu / 2 &&
                   lf_.nu / 2 + p.views / 2 < lf_.nu && lf_.nv / 2 + p.views / 2 < lf_.nv,
               "views: a " + std::to_string(p.views) + "x" + std::to_string(p.views) +
                   " window does not fit the " + std::to_string(lf_.nu) + "x" + std::to_string(lf_.nv) +
                   " light field");
    const std::string variant = variant_in.empty() ? default_variant(p.method) : variant_in;
    const CaeKernel k = parse_cae_kernel(variant);
    LB_REQUIRE(cae_kernel_method(k) == p.method,
               "--variant " + variant + " computes the " + to_string(cae_kernel_method(k)) +
                   " cost, not --method " + to_string(p.method));
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    LfDepthResult r;
    r.roi = resolve_roi(o.roi, lf_.width, lf_.height);
    r.variant = variant;
    const cudaStream_t s = stream_->get();
    if (tables_sigma_ != p.sigma) {
      const std::vector<float> t = cae_weight_tables(p.sigma);
      tables_.reserve(t.size() * 4);
      CUDA_CHECK_THROW(cudaMemcpyAsync(tables_.get(), t.data(), t.size() * 4, cudaMemcpyHostToDevice, s));
      tables_sigma_ = p.sigma;
    }
    const std::size_t npx = static_cast<std::size_t>(r.roi.w) * r.roi.h;
    cost_.reserve(npx * p.labels * 4);
    maps_.reserve(npx * 12);
    float* d_disp = maps_.as<float>();
    int* d_label = reinterpret_cast<int*>(d_disp + npx);
    float* d_conf = d_disp + 2 * npx;
    CUDA_CHECK_THROW(cudaEventRecord(e0_->get(), s));
    launch_cae_cost(lf_, p, r.roi, k, tables_.as<float>(), cost_.as<float>(), s);
    CUDA_CHECK_THROW(cudaEventRecord(e1_->get(), s));
    launch_cae_wta(p, r.roi, cost_.as<float>(), d_disp, d_label, d_conf, s);
    CUDA_CHECK_THROW(cudaEventRecord(e2_->get(), s));
    r.disparity = ImageF(r.roi.w, r.roi.h, 1);
    r.confidence = ImageF(r.roi.w, r.roi.h, 1);
    r.labels.resize(npx);
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.disparity.data.data(), d_disp, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.labels.data(), d_label, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.confidence.data.data(), d_conf, npx * 4, cudaMemcpyDeviceToHost, s));
    if (o.keep_cost) {
      r.cost.resize(npx * p.labels);
      CUDA_CHECK_THROW(cudaMemcpyAsync(r.cost.data(), cost_.get(), r.cost.size() * 4, cudaMemcpyDeviceToHost, s));
    }
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    float t_cost = 0, t_wta = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t_cost, e0_->get(), e1_->get()));
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t_wta, e1_->get(), e2_->get()));
    timings_.record("lfdepth/" + variant, t_cost, cae_cost_bytes(p, r.roi, lf_.width, lf_.height, k));
    timings_.record("lfdepth/wta", t_wta, cae_wta_bytes(p, r.roi));
    r.ms = static_cast<double>(t_cost) + t_wta;
    return r;
  }

 private:
  int device_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  CaeDeviceLightField lf_;
  DeviceBuffer tables_, cost_, maps_;
  float tables_sigma_ = -1.0f;
  std::unique_ptr<Event> e0_, e1_, e2_;
};

}  // namespace

std::unique_ptr<LightFieldDepthEstimator> make_lf_depth_cuda(int device) {
  return std::make_unique<CudaLfDepth>(device);
}

}  // namespace lb::cuda
