// The MAD r2c pipeline's fused column pass (kernels/mad/mad_pipeline.hpp, MadColumnPass): the
// log-Gabor products formed from the half spectra and their inverse DFTs along y, in one
// kernel. The row inverses that finish each 2D inverse are a contiguous batched cuFFT 1D.
//
// Why: cuFFT's batched 2D C2C at 1920x1080 ran at 24.8 % of copy (several passes over the 40
// planes), while a contiguous batched 1D transform along either axis runs at copy speed. A
// column transform cannot be contiguous in the row-major planes the statistics read; done
// here, in shared memory, it reads the spectrum columns and writes the planes row-major with
// whole 32-byte sectors, and the products never make a round trip through memory.
//
// Each block: C adjacent columns of one response plane, a Stockham autosort FFT of length h
// (the formulation of Govindaraju et al., SC 2008) in a few stages of radix 2-10, 12, 15 or 16
// (each radix's DFT in registers, composite ones as two smaller DFTs), chosen so that every
// stage is about one round of the block's threads (mad_column_radices). The first stage
// gathers the products from global memory, the last writes the plane row-major (whole
// 32-byte sectors); in between, two shared buffers ([y][c], c fastest), one barrier a stage.
// Twiddles: a table made in double on the host. Measured on the H100 (1920x1080, 40 planes):
// 0.73 ms, where the products kernel and cuFFT's 2D inverses took 0.33 + 1.86.
#include <algorithm>
#include <cmath>
#include <vector>

#include "cuda_check.cuh"
#include "lightbench/fast_div.hpp"
#include "mad/mad_math.hpp"
#include "mad/mad_pipeline.hpp"

namespace lb::cuda::detail {

namespace {

constexpr int kColThreads = 512;

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 mul_i(float2 a) { return make_float2(-a.y, a.x); }  // * +i

// Inverse DFTs (exponent +2 pi i m k / R), in place on v[0..R).
__device__ __forceinline__ void idft4(float2& a0, float2& a1, float2& a2, float2& a3) {
  const float2 t0 = cadd(a0, a2), t1 = csub(a0, a2), t2 = cadd(a1, a3), t3 = mul_i(csub(a1, a3));
  a0 = cadd(t0, t2);
  a2 = csub(t0, t2);
  a1 = cadd(t1, t3);
  a3 = csub(t1, t3);
}

__device__ __forceinline__ void idft8(float2* v) {
  float2 e0 = v[0], e1 = v[2], e2 = v[4], e3 = v[6], o0 = v[1], o1 = v[3], o2 = v[5], o3 = v[7];
  idft4(e0, e1, e2, e3);
  idft4(o0, o1, o2, o3);
  constexpr float s = 0.70710678118654752f;
  o1 = cmul(o1, make_float2(s, s));
  o2 = mul_i(o2);
  o3 = cmul(o3, make_float2(-s, s));
  v[0] = cadd(e0, o0);
  v[4] = csub(e0, o0);
  v[1] = cadd(e1, o1);
  v[5] = csub(e1, o1);
  v[2] = cadd(e2, o2);
  v[6] = csub(e2, o2);
  v[3] = cadd(e3, o3);
  v[7] = csub(e3, o3);
}

// exp(+2 pi i t / R), t = 0..R-1, for every radix past the hand-written 2, 4 and 8 (made in
// double by math.cos / math.sin, rounded to float); kRootOff<R> = where radix R's roots start.
// Indexed by compile-time constants only: constant-bank operands, no loads.
__constant__ float2 kRoot[83] = {
    {1.0f, 0.0f}, {-0.49999999999999978f, 0.86602540378443871f}, {-0.50000000000000044f, -0.86602540378443837f},
    {1.0f, 0.0f}, {0.30901699437494745f, 0.95105651629515353f}, {-0.80901699437494734f, 0.58778525229247325f},
    {-0.80901699437494756f, -0.58778525229247303f}, {0.30901699437494723f, -0.95105651629515364f}, {1.0f, 0.0f},
    {0.50000000000000011f, 0.8660254037844386f}, {-0.49999999999999978f, 0.86602540378443871f}, {-1.0f, 0.0f},
    {-0.50000000000000044f, -0.86602540378443837f}, {0.50000000000000011f, -0.8660254037844386f}, {1.0f, 0.0f},
    {0.62348980185873359f, 0.7818314824680298f}, {-0.22252093395631434f, 0.97492791218182362f}, {-0.90096886790241903f, 0.43388373911755823f},
    {-0.90096886790241915f, -0.43388373911755801f}, {-0.22252093395631459f, -0.97492791218182362f}, {0.62348980185873337f, -0.78183148246802991f},
    {1.0f, 0.0f}, {0.76604444311897801f, 0.64278760968653925f}, {0.17364817766693041f, 0.98480775301220802f},
    {-0.49999999999999978f, 0.86602540378443871f}, {-0.93969262078590832f, 0.34202014332566888f}, {-0.93969262078590843f, -0.34202014332566866f},
    {-0.50000000000000044f, -0.86602540378443837f}, {0.17364817766692997f, -0.98480775301220813f}, {0.76604444311897779f, -0.64278760968653958f},
    {1.0f, 0.0f}, {0.80901699437494745f, 0.58778525229247314f}, {0.30901699437494745f, 0.95105651629515353f},
    {-0.30901699437494734f, 0.95105651629515364f}, {-0.80901699437494734f, 0.58778525229247325f}, {-1.0f, 0.0f},
    {-0.80901699437494756f, -0.58778525229247303f}, {-0.30901699437494756f, -0.95105651629515353f}, {0.30901699437494723f, -0.95105651629515364f},
    {0.80901699437494734f, -0.58778525229247336f}, {1.0f, 0.0f}, {0.86602540378443871f, 0.49999999999999994f},
    {0.50000000000000011f, 0.8660254037844386f}, {0.0f, 1.0f}, {-0.49999999999999978f, 0.86602540378443871f},
    {-0.86602540378443871f, 0.49999999999999994f}, {-1.0f, 0.0f}, {-0.86602540378443882f, -0.49999999999999972f},
    {-0.50000000000000044f, -0.86602540378443837f}, {0.0f, -1.0f}, {0.50000000000000011f, -0.8660254037844386f},
    {0.86602540378443837f, -0.50000000000000044f}, {1.0f, 0.0f}, {0.91354545764260087f, 0.40673664307580015f},
    {0.66913060635885824f, 0.74314482547739413f}, {0.30901699437494745f, 0.95105651629515353f}, {-0.10452846326765333f, 0.9945218953682734f},
    {-0.49999999999999978f, 0.86602540378443871f}, {-0.80901699437494734f, 0.58778525229247325f}, {-0.97814760073380569f, 0.20791169081775931f},
    {-0.97814760073380569f, -0.20791169081775907f}, {-0.80901699437494756f, -0.58778525229247303f}, {-0.50000000000000044f, -0.86602540378443837f},
    {-0.10452846326765423f, -0.99452189536827329f}, {0.30901699437494723f, -0.95105651629515364f}, {0.66913060635885846f, -0.74314482547739402f},
    {0.91354545764260098f, -0.40673664307580015f}, {1.0f, 0.0f}, {0.92387953251128674f, 0.38268343236508978f},
    {0.70710678118654757f, 0.70710678118654746f}, {0.38268343236508984f, 0.92387953251128674f}, {0.0f, 1.0f},
    {-0.38268343236508973f, 0.92387953251128674f}, {-0.70710678118654746f, 0.70710678118654757f}, {-0.92387953251128674f, 0.38268343236508989f},
    {-1.0f, 0.0f}, {-0.92387953251128685f, -0.38268343236508967f}, {-0.70710678118654768f, -0.70710678118654746f},
    {-0.38268343236509034f, -0.92387953251128652f}, {0.0f, -1.0f}, {0.38268343236509f, -0.92387953251128663f},
    {0.70710678118654735f, -0.70710678118654768f}, {0.92387953251128652f, -0.38268343236509039f},
};
template <int R> constexpr int kRootOff = R == 3 ? 0 : R == 5 ? 3 : R == 6 ? 8 : R == 7 ? 14 : R == 9 ? 21
                                          : R == 10 ? 30 : R == 12 ? 40 : R == 15 ? 52 : 67;  // 16

template <int R> __device__ __forceinline__ void idft(float2* v);

// Radix 3 and 5 by their symmetric forms (sums and differences of the mirrored inputs: about
// half the multiply-adds of the plain sum).
__device__ __forceinline__ void idft3(float2* v) {
  constexpr float s = 0.86602540378443865f;  // sin(2 pi / 3)
  const float2 t = cadd(v[1], v[2]), d = csub(v[1], v[2]);
  const float2 m = make_float2(fmaf(-0.5f, t.x, v[0].x), fmaf(-0.5f, t.y, v[0].y));
  v[0] = cadd(v[0], t);
  v[1] = make_float2(fmaf(-s, d.y, m.x), fmaf(s, d.x, m.y));
  v[2] = make_float2(fmaf(s, d.y, m.x), fmaf(-s, d.x, m.y));
}

__device__ __forceinline__ void idft5(float2* v) {
  constexpr float c1 = 0.30901699437494742f, c2 = -0.80901699437494742f;  // cos(2 pi k / 5)
  constexpr float s1 = 0.95105651629515357f, s2 = 0.58778525229247313f;   // sin(2 pi k / 5)
  const float2 t1 = cadd(v[1], v[4]), t2 = cadd(v[2], v[3]), t3 = csub(v[1], v[4]), t4 = csub(v[2], v[3]);
  const float2 a1 = make_float2(fmaf(c2, t2.x, fmaf(c1, t1.x, v[0].x)), fmaf(c2, t2.y, fmaf(c1, t1.y, v[0].y)));
  const float2 a2 = make_float2(fmaf(c1, t2.x, fmaf(c2, t1.x, v[0].x)), fmaf(c1, t2.y, fmaf(c2, t1.y, v[0].y)));
  const float2 b1 = make_float2(fmaf(s2, t4.x, s1 * t3.x), fmaf(s2, t4.y, s1 * t3.y));  // s1 t3 + s2 t4
  const float2 b2 = make_float2(fmaf(-s1, t4.x, s2 * t3.x), fmaf(-s1, t4.y, s2 * t3.y));  // s2 t3 - s1 t4
  v[0] = cadd(v[0], cadd(t1, t2));
  v[1] = make_float2(a1.x - b1.y, a1.y + b1.x);  // a1 + i b1
  v[4] = make_float2(a1.x + b1.y, a1.y - b1.x);
  v[2] = make_float2(a2.x - b2.y, a2.y + b2.x);
  v[3] = make_float2(a2.x + b2.y, a2.y - b2.x);
}

// Radix 7: the O(R^2) sum (all indices compile-time).
template <int R>
__device__ __forceinline__ void idft_prime(float2* v) {
  float2 o[R];
#pragma unroll
  for (int k = 0; k < R; ++k) {
    float2 s = v[0];
#pragma unroll
    for (int m = 1; m < R; ++m) {
      const float2 w = kRoot[kRootOff<R> + (m * k) % R];
      s.x += v[m].x * w.x - v[m].y * w.y;
      s.y += v[m].x * w.y + v[m].y * w.x;
    }
    o[k] = s;
  }
#pragma unroll
  for (int k = 0; k < R; ++k) v[k] = o[k];
}

// Composite radices R = A B in registers (Cooley-Tukey, n = n1 + A n2, k = B k1 + k2): B-point
// DFTs over n2, twiddles w_R^(n1 k2), A-point DFTs over n1.
template <int A, int B>
__device__ __forceinline__ void idft_ct(float2* v) {
  constexpr int R = A * B;
  float2 y[A][B];
#pragma unroll
  for (int n1 = 0; n1 < A; ++n1) {
    float2 t[B];
#pragma unroll
    for (int n2 = 0; n2 < B; ++n2) t[n2] = v[n1 + A * n2];
    idft<B>(t);
#pragma unroll
    for (int k2 = 0; k2 < B; ++k2) y[n1][k2] = (n1 * k2) % R == 0 ? t[k2] : cmul(t[k2], kRoot[kRootOff<R> + (n1 * k2) % R]);
  }
#pragma unroll
  for (int k2 = 0; k2 < B; ++k2) {
    float2 t[A];
#pragma unroll
    for (int n1 = 0; n1 < A; ++n1) t[n1] = y[n1][k2];
    idft<A>(t);
#pragma unroll
    for (int k1 = 0; k1 < A; ++k1) v[B * k1 + k2] = t[k1];
  }
}

template <int R>
__device__ __forceinline__ void idft(float2* v) {
  if constexpr (R == 2) {
    const float2 t = v[0];
    v[0] = cadd(t, v[1]);
    v[1] = csub(t, v[1]);
  } else if constexpr (R == 4) {
    idft4(v[0], v[1], v[2], v[3]);
  } else if constexpr (R == 8) {
    idft8(v);
  } else if constexpr (R == 3) {
    idft3(v);
  } else if constexpr (R == 5) {
    idft5(v);
  } else if constexpr (R == 7) {
    idft_prime<7>(v);
  } else if constexpr (R == 6) {
    idft_ct<2, 3>(v);
  } else if constexpr (R == 9) {
    idft_ct<3, 3>(v);
  } else if constexpr (R == 10) {
    idft_ct<2, 5>(v);
  } else if constexpr (R == 12) {
    idft_ct<4, 3>(v);
  } else if constexpr (R == 15) {
    idft_ct<3, 5>(v);
  } else {
    static_assert(R == 16, "unsupported radix");
    idft_ct<4, 4>(v);
  }
}

// Where a stage reads: the products (the first stage: spectrum .* filter straight from global
// memory, no shared-memory round trip) or the shared buffer; where it writes: the shared buffer
// or the output plane (the last stage). Rows are along y, c is the column within the tile.
template <int C>
struct ProductSrc {
  const float2* spec;  // this image's half spectrum
  const float* g;      // this response's filter tile, [y][c]
  int w, wh, h, x0;
  __device__ __forceinline__ float2 operator()(int y, int c) const {
    const int x = x0 + c;
    const float f = __ldg(g + y * C + c);
    if (x < wh) return scale(__ldg(spec + (y * wh + x)), f);  // offsets < 2^31: make() checks
    if (x >= w) return make_float2(0.f, 0.f);
    const float2 m = __ldg(spec + ((y == 0 ? 0 : h - y) * wh + (w - x)));  // conj of the mirrored bin
    return make_float2(m.x * f, -m.y * f);
  }
  static __device__ __forceinline__ float2 scale(float2 v, float f) { return make_float2(v.x * f, v.y * f); }
};
template <int C>
struct SharedSrc {
  const float2* a;
  __device__ __forceinline__ float2 operator()(int y, int c) const { return a[y * C + c]; }
};
template <int C>
struct SharedDst {
  float2* b;
  __device__ __forceinline__ void operator()(int y, int c, float2 v) const { b[y * C + c] = v; }
};
template <int C>
struct PlaneDst {
  float2* o;  // the plane at column x0
  int w, cols;  // cols: the tile's columns inside the image
  __device__ __forceinline__ void operator()(int y, int c, float2 v) const {
    if (c < cols) o[y * w + c] = v;
  }
};

// One Stockham stage of radix R: every butterfly j < n/R of every column c. Twiddles w^r,
// w = exp(2 pi i k / (ns R)), read from the table (one load an element: cheaper to issue than
// the 4 multiply-adds of a power recurrence, and exact); none in the first stage (ns = 1).
template <int R, int C, class Src, class Dst>
__device__ __forceinline__ void stage(Src src, Dst dst, const float2* __restrict__ tw, int n, int ns, FastDiv by_ns) {
  const int nr = n / R, span = n / (ns * R);
  for (int i = threadIdx.x; i < C * nr; i += kColThreads) {
    const int c = i % C, j = i / C, g = by_ns.div(j), k = j - g * ns;
    float2 v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) v[r] = src(j + r * nr, c);
    if (ns > 1) {
      const int e = k * span;  // w = tw[e]
#pragma unroll
      for (int r = 1; r < R; ++r) v[r] = cmul(v[r], __ldg(tw + r * e));
    }
    idft<R>(v);
    const int out = g * ns * R + k;
#pragma unroll
    for (int r = 0; r < R; ++r) dst(out + r * ns, c, v[r]);
  }
}

template <int C, class Src, class Dst>
__device__ __forceinline__ void stage_r(int R, Src src, Dst dst, const float2* tw, int n, int ns, FastDiv d) {
  switch (R) {
    case 16: stage<16, C>(src, dst, tw, n, ns, d); break;
    case 15: stage<15, C>(src, dst, tw, n, ns, d); break;
    case 12: stage<12, C>(src, dst, tw, n, ns, d); break;
    case 10: stage<10, C>(src, dst, tw, n, ns, d); break;
    case 9: stage<9, C>(src, dst, tw, n, ns, d); break;
    case 8: stage<8, C>(src, dst, tw, n, ns, d); break;
    case 7: stage<7, C>(src, dst, tw, n, ns, d); break;
    case 6: stage<6, C>(src, dst, tw, n, ns, d); break;
    case 5: stage<5, C>(src, dst, tw, n, ns, d); break;
    case 4: stage<4, C>(src, dst, tw, n, ns, d); break;
    case 3: stage<3, C>(src, dst, tw, n, ns, d); break;
    default: stage<2, C>(src, dst, tw, n, ns, d); break;
  }
}

struct Radices {
  int count;
  int r[MadColumnPass::kMaxStages];
  FastDiv by_ns[MadColumnPass::kMaxStages];  // by the product of the earlier radices
};

// Plane q of the batch (response r0 + q / 2, image q % 2): columns x0 .. x0 + C - 1 of
// spectrum .* filter, inverted along y, written row-major to resp + q w h. The first stage
// reads the products from global memory (the filter from the pass's tile-major copy), the
// last writes the plane; the stages between go through two shared buffers.
template <int C>
__global__ void __launch_bounds__(kColThreads, 2)
    mad_gabor_column_inverse_kernel(const float2* __restrict__ half, const float* __restrict__ tgabor,
                                    const float2* __restrict__ tw, float2* resp, int w, int h, int r0, Radices rad) {
  extern __shared__ float2 sm[];
  float2* a = sm;
  float2* b = sm + C * h;
  const int q = blockIdx.x, tile = blockIdx.y, x0 = tile * C;
  const int wh = w / 2 + 1;
  const ProductSrc<C> prod{half + (q & 1) * static_cast<size_t>(h) * wh,
                           tgabor + (static_cast<size_t>(r0 + q / 2) * gridDim.y + tile) * C * h, w, wh, h, x0};
  const PlaneDst<C> plane{resp + static_cast<size_t>(q) * w * h + x0, w, min(C, w - x0)};
  stage_r<C>(rad.r[0], prod, SharedDst<C>{a}, tw, h, 1, rad.by_ns[0]);
  __syncthreads();
  int ns = rad.r[0];
  for (int st = 1; st < rad.count - 1; ++st) {
    stage_r<C>(rad.r[st], SharedSrc<C>{a}, SharedDst<C>{b}, tw, h, ns, rad.by_ns[st]);
    __syncthreads();
    float2* t = a;
    a = b;
    b = t;
    ns *= rad.r[st];
  }
  if (rad.count > 1) {
    stage_r<C>(rad.r[rad.count - 1], SharedSrc<C>{a}, plane, tw, h, ns, rad.by_ns[rad.count - 1]);
  } else {  // one stage: its outputs, in a, to the plane
    for (int i = threadIdx.x; i < C * h; i += kColThreads) plane(i / C, i % C, a[i]);
  }
}

// The row-major table (mad::kResponses planes h x w) -> tile-major: plane r, tile t, [y][c], zero past w.
template <int C>
__global__ void mad_tile_gabor_kernel(const float* __restrict__ g, float* tg, int w, int h, int tiles) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t per_plane = static_cast<size_t>(tiles) * h * C;
  if (i >= per_plane * mad::kResponses) return;
  const size_t r = i / per_plane, j = i % per_plane;
  const int t = static_cast<int>(j / (static_cast<size_t>(h) * C)), k = static_cast<int>(j % (static_cast<size_t>(h) * C));
  const int y = k / C, x = t * C + k % C;
  tg[i] = x < w ? g[r * static_cast<size_t>(w) * h + static_cast<size_t>(y) * w + x] : 0.f;
}

template <int C>
void set_smem(std::size_t bytes) {
  CUDA_CHECK_THROW(cudaFuncSetAttribute(mad_gabor_column_inverse_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes)));
}

// Every way of writing m as a product of supported radices (non-increasing), into `best` when
// it costs less: the rounds of the block's threads over the stages' butterflies (a round per
// kColThreads butterflies, at least one a stage: a barrier and a pass over shared memory), then
// the most balanced (largest smallest radix).
void search_radices(int m, int cols_n, int max_r, std::vector<int>& cur, std::vector<int>& best, double& best_cost) {
  if (m == 1) {
    double cost = 0;
    for (int r : cur) cost += (cols_n / r + kColThreads - 1) / kColThreads;
    const int lo = *std::min_element(cur.begin(), cur.end());
    cost -= lo * 1e-3;  // tie-break: balanced
    if (best.empty() || cost < best_cost) {
      best = cur;
      best_cost = cost;
    }
    return;
  }
  if (static_cast<int>(cur.size()) >= MadColumnPass::kMaxStages) return;
  for (int r : {16, 15, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2})
    if (r <= max_r && m % r == 0) {
      cur.push_back(r);
      search_radices(m / r, cols_n, r, cur, best, best_cost);
      cur.pop_back();
    }
}

}  // namespace

std::vector<int> mad_column_radices(int n, int cols) {
  // Measured on the H100 at 1920 x 1080 (4 columns, 512 threads): 9.10.12 (every stage one
  // round of the threads) 0.733 ms, 12.10.9 0.789, 6.12.15 0.836, 15.12.6 0.867, 8.9.15 0.843:
  // fewest rounds first, then ascending (the first stage, which gathers the products from
  // global memory, and the last, which writes the plane, get the most threads).
  std::vector<int> cur, best;
  double cost = 0;
  if (n >= 2) search_radices(n, cols * n, 16, cur, best, cost);
  std::sort(best.begin(), best.end());
  return best;
}

std::unique_ptr<MadColumnPass> MadColumnPass::make(int w, int h, const float* gabor, cudaStream_t s, int columns) {
  if (static_cast<long long>(w) * h >= (1ll << 31)) return nullptr;  // 32-bit offsets in a plane
  int dev = 0, optin = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  // Columns per block: 4 (a 32-byte sector of each output row; two buffers of 4 x 1080 take
  // 69 KB: 2 blocks of 512 threads an SM, also the register limit); fewer would waste write
  // sectors. 8 (64-byte segments, twice the shared memory) is kept for the tests: at 1080 it
  // does not fit twice, and at 512x384 it was within noise.
  int c = columns == 0 ? 4 : columns;
  if (c != 4 && c != 8) throw Error("MAD column pass: columns per block must be 4 or 8");
  const std::vector<int> rad = mad_column_radices(h, c);
  if (rad.empty()) return nullptr;
  const std::size_t smem = 2 * static_cast<std::size_t>(c) * h * sizeof(float2);
  if (smem > static_cast<std::size_t>(optin) / 2) return nullptr;  // at least 2 blocks an SM
  auto p = std::unique_ptr<MadColumnPass>(new MadColumnPass());
  p->w_ = w;
  p->h_ = h;
  p->cols_ = c;
  p->smem_ = smem;
  p->radices_ = rad;
  std::vector<float2> tw(h);
  for (int k = 0; k < h; ++k) {
    const double t = 2.0 * M_PI * k / h;
    tw[k] = make_float2(static_cast<float>(std::cos(t)), static_cast<float>(std::sin(t)));
  }
  p->tw_.allocate(h * sizeof(float2), "the MAD column twiddles");
  CUDA_CHECK_THROW(cudaMemcpy(p->tw_.get(), tw.data(), h * sizeof(float2), cudaMemcpyHostToDevice));
  const int tiles = (w + c - 1) / c;
  const std::size_t tiled = static_cast<std::size_t>(mad::kResponses) * tiles * h * c;
  p->tg_.allocate(tiled * sizeof(float), "the MAD tiled log-Gabor table");
  const unsigned blocks = static_cast<unsigned>((tiled + 255) / 256);
  if (c == 8) {
    set_smem<8>(smem);
    mad_tile_gabor_kernel<8><<<blocks, 256, 0, s>>>(gabor, p->tg_.as<float>(), w, h, tiles);
  } else {
    set_smem<4>(smem);
    mad_tile_gabor_kernel<4><<<blocks, 256, 0, s>>>(gabor, p->tg_.as<float>(), w, h, tiles);
  }
  CUDA_CHECK_LAUNCH();
  return p;
}

void MadColumnPass::run(const float2* half, float2* resp, int r0, int planes, cudaStream_t s) const {
  Radices rad{static_cast<int>(radices_.size()), {}, {}};
  int ns = 1;
  for (std::size_t i = 0; i < radices_.size(); ++i) {
    rad.r[i] = radices_[i];
    rad.by_ns[i] = fast_div(ns);
    ns *= radices_[i];
  }
  const dim3 grid(planes, (w_ + cols_ - 1) / cols_);  // a tile's planes in a row: its spectrum stays in L2
  if (cols_ == 8)
    mad_gabor_column_inverse_kernel<8>
        <<<grid, kColThreads, smem_, s>>>(half, tg_.as<float>(), tw_.as<float2>(), resp, w_, h_, r0, rad);
  else
    mad_gabor_column_inverse_kernel<4>
        <<<grid, kColThreads, smem_, s>>>(half, tg_.as<float>(), tw_.as<float2>(), resp, w_, h_, r0, rad);
  CUDA_CHECK_LAUNCH();
}

std::string MadColumnPass::describe() const {
  std::string r;
  for (int x : radices_) r += (r.empty() ? "" : "x") + std::to_string(x);
  return std::to_string(cols_) + " columns a block, radices " + r;
}

}  // namespace lb::cuda::detail
