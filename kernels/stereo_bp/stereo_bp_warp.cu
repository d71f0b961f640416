// Belief-propagation stereo, the warp-cooperative variant (beyond the seed): the L values of
// one pixel's messages are spread over a group of G lanes, K consecutive disparities per
// lane (K * G = the next power of two >= L, at least 4), so no thread holds a 4 x L array.
// The message steps of bpm::message (stereo_bp_math.hpp) become, per group:
//   minimum of h            lane minimum, then an xor butterfly;
//   forward prefix minimum  a lane's K values in order, then a shuffle-up scan of the lane
//                           totals (exclusive) merged in;
//   backward suffix minimum the same with shuffle-down;
//   pairwise mean           each lane's K values as a pairwise tree, then an xor butterfly
//                           (the tree the reference fixes: IEEE addition is commutative);
// so the float map equals the CPU reference's bit for bit. Messages are stored as float,
// fp16 or bf16 (BpMsgType; arithmetic in float either way, the data cost stays float).
//
// Layout (pixel-major, unlike the seed variants' disparity-major planes): data cost of a
// level [y][x][Ls] and messages [dir][y][x][Ls], Ls = L rounded up to K, so a lane's K
// values are one aligned vector load; the G lanes of a pixel read G * K * sizeof(T)
// contiguous bytes. Values past L in a vector are padding, masked on load.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "stereo_bp/stereo_bp_math.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"

namespace lb::cuda::detail {

namespace {

using namespace lb::stereo::bpm;

constexpr int kWarpBlock = 128;

// ---- storage types ---------------------------------------------------------------------------
template <class T>
struct Msg;
template <>
struct Msg<float> {
  static __device__ float in(float v) { return v; }
  static __device__ float out(float v) { return v; }
};
template <>
struct Msg<__half> {
  static __device__ float in(__half v) { return __half2float(v); }
  static __device__ __half out(float v) { return __float2half_rn(v); }
};
template <>
struct Msg<__nv_bfloat16> {
  static __device__ float in(__nv_bfloat16 v) { return __bfloat162float(v); }
  static __device__ __nv_bfloat16 out(float v) { return __float2bfloat16_rn(v); }
};

// The unsigned type of B bytes (B = 2, 4, 8, 16) for one vector access.
template <int B>
using Bits = std::conditional_t<B == 2, unsigned short,
                                std::conditional_t<B == 4, unsigned, std::conditional_t<B == 8, uint2, uint4>>>;

// K values of T at p (aligned to min(16, K * sizeof(T)) bytes), as floats. __ldg: what one
// half-iteration reads (data cost, the active pixels' incoming messages) it never writes.
template <class T, int K>
__device__ __forceinline__ void load_vec(const T* p, float (&v)[K]) {
  constexpr int B = K * static_cast<int>(sizeof(T));
  constexpr int C = B > 16 ? 16 : B;  // bytes per access
  constexpr int N = C / static_cast<int>(sizeof(T));
#pragma unroll
  for (int c = 0; c < B / C; ++c) {
    const Bits<C> u = __ldg(reinterpret_cast<const Bits<C>*>(p) + c);
    const T* t = reinterpret_cast<const T*>(&u);
#pragma unroll
    for (int i = 0; i < N; ++i) v[c * N + i] = Msg<T>::in(t[i]);
  }
}

template <class T, int K>
__device__ __forceinline__ void store_vec(T* p, const float (&v)[K]) {
  constexpr int B = K * static_cast<int>(sizeof(T));
  constexpr int C = B > 16 ? 16 : B;
  constexpr int N = C / static_cast<int>(sizeof(T));
#pragma unroll
  for (int c = 0; c < B / C; ++c) {
    Bits<C> u;
    T* t = reinterpret_cast<T*>(&u);
#pragma unroll
    for (int i = 0; i < N; ++i) t[i] = Msg<T>::out(v[c * N + i]);
    reinterpret_cast<Bits<C>*>(p)[c] = u;
  }
}

// The lanes of this thread's group of G in its warp (for the *_sync masks).
template <int G>
__device__ __forceinline__ unsigned group_mask() {
  if constexpr (G == 32) {
    return 0xffffffffu;
  } else {
    const unsigned base = (threadIdx.x & 31u) & ~static_cast<unsigned>(G - 1);
    return ((1u << G) - 1u) << base;
  }
}

// ---- kernels -----------------------------------------------------------------------------------
struct WarpMsgArgs {
  int w, h, L, Ls, parity;
  std::size_t dir;  // elements per direction: w * h * Ls
  const float* D;   // [y][x][Ls]
  void* m;          // 4 directions of [y][x][Ls] of T
  float tau_disc;
};

// One checkerboard half-iteration: group g of row y (blockIdx.y) handles x = 2 g + ((y +
// parity) & 1); it reads its data cost and four incoming messages once and sends the four
// messages (bpm::message's steps, see the file comment). kFull: L = K G, every lane's values
// are disparities, so the padding tests (a select per value and step) compile away: the
// kernel is bound by the ALU pipe there (81 % at 900x750x256, ncu).
template <class T, int K, int G, bool kFull>
__global__ void __launch_bounds__(kWarpBlock) bp_warp_msg_kernel(WarpMsgArgs a) {
  const int lane = static_cast<int>(threadIdx.x) & (G - 1);
  const int grp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / G);
  const int y = static_cast<int>(blockIdx.y);
  const int x = 2 * grp + ((y + a.parity) & 1);
  if (x >= a.w) return;  // the whole group: the masks below name only its lanes
  const unsigned mask = group_mask<G>();
  const int d0 = lane * K;
  const bool holds = kFull || d0 < a.L;  // lanes past L take part in the shuffles only
  const auto live = [&](int d) { return kFull || (holds && d < a.L); };
  const std::size_t p = static_cast<std::size_t>(y) * a.w + x;
  T* m = static_cast<T*>(a.m);
  float D[K], M[4][K];
  if (holds) {
    load_vec<float, K>(a.D + p * a.Ls + d0, D);
#pragma unroll
    for (int k = 0; k < 4; ++k) load_vec<T, K>(m + k * a.dir + p * a.Ls + d0, M[k]);
  } else {
#pragma unroll
    for (int j = 0; j < K; ++j) D[j] = M[0][j] = M[1][j] = M[2][j] = M[3][j] = 0.0f;
  }
  const float inf = INFINITY;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int qx = x + (k == 2 ? -1 : k == 3 ? 1 : 0), qy = y + (k == 0 ? -1 : k == 1 ? 1 : 0);
    if (qx < 0 || qy < 0 || qx >= a.w || qy >= a.h) continue;  // uniform in the group
    const int o0 = k == 0 ? 1 : 0, o1 = k <= 1 ? 2 : 1, o2 = k <= 2 ? 3 : 2;
    // h, its minimum, the forward prefix minimum within the lane.
    float v[K];
    float mn = inf, run = inf;
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int d = d0 + j;
      const float hv = live(d) ? h_sum(D[j], M[o0][j], M[o1][j], M[o2][j]) : inf;
      mn = fmin2(hv, mn);
      run = fmin2(fwd_key(hv, d), run);
      v[j] = run;
    }
#pragma unroll
    for (int off = 1; off < G; off <<= 1) mn = fmin2(__shfl_xor_sync(mask, mn, off, G), mn);
    // Forward: the minimum over the lanes before this one, merged into each prefix.
    float incl = run;
#pragma unroll
    for (int off = 1; off < G; off <<= 1) {
      const float t = __shfl_up_sync(mask, incl, off, G);
      if (lane >= off) incl = fmin2(t, incl);
    }
    float before = __shfl_up_sync(mask, incl, 1, G);
    if (lane == 0) before = inf;
    float g = inf;
#pragma unroll
    for (int j = K - 1; j >= 0; --j) {
      const int d = d0 + j;
      const float k2 = live(d) ? bwd_key(fmin2(v[j], before), d) : inf;
      g = fmin2(k2, g);
      v[j] = g;  // the suffix minimum within the lane
    }
    // Backward: the minimum over the lanes after this one.
    incl = g;
#pragma unroll
    for (int off = 1; off < G; off <<= 1) {
      const float t = __shfl_down_sync(mask, incl, off, G);
      if (lane + off < G) incl = fmin2(t, incl);
    }
    float after = __shfl_down_sync(mask, incl, 1, G);
    if (lane == G - 1) after = inf;
    const float cap = add(mn, a.tau_disc);
    float s[K];
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int d = d0 + j;
      v[j] = live(d) ? fmin2(from_bwd(fmin2(v[j], after), d), cap) : 0.0f;
      s[j] = v[j];
    }
    // The pairwise tree: within the lane, then across the lanes.
#pragma unroll
    for (int st = 1; st < K; st <<= 1)
#pragma unroll
      for (int i = 0; i < K; i += 2 * st) s[i] = add(s[i], s[i + st]);
    float sum = s[0];
#pragma unroll
    for (int off = 1; off < G; off <<= 1) sum = add(sum, __shfl_xor_sync(mask, sum, off, G));
    const float mean = divf(sum, static_cast<float>(a.L));
    if (holds) {
#pragma unroll
      for (int j = 0; j < K; ++j) v[j] = sub(v[j], mean);
      store_vec<T, K>(m + opposite(k) * a.dir + (static_cast<std::size_t>(qy) * a.w + qx) * a.Ls + d0, v);
    }
  }
}

// Winner takes all at level 0: the first d minimising D + the four incoming (bpp::wta's sum
// order); lanes reduce (value, index) pairs, ties to the smaller d.
template <class T, int K, int G>
__global__ void __launch_bounds__(kWarpBlock)
    bp_warp_wta_kernel(const float* __restrict__ D, const T* __restrict__ m, std::size_t dir, int n, int L, int Ls,
                       float* __restrict__ out) {
  const int lane = static_cast<int>(threadIdx.x) & (G - 1);
  const long long p = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
  if (p >= n) return;
  const unsigned mask = group_mask<G>();
  const int d0 = lane * K;
  float best = INFINITY;
  int bd = 0x7fffffff;
  if (d0 < L) {
    float v[K], mm[4][K];
    load_vec<float, K>(D + p * Ls + d0, v);
#pragma unroll
    for (int k = 0; k < 4; ++k) load_vec<T, K>(m + k * dir + p * Ls + d0, mm[k]);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      if (d0 + j >= L) break;
      const float b = add(add(add(add(v[j], mm[0][j]), mm[1][j]), mm[2][j]), mm[3][j]);
      if (b < best) best = b, bd = d0 + j;
    }
  }
#pragma unroll
  for (int off = 1; off < G; off <<= 1) {
    const float ob = __shfl_xor_sync(mask, best, off, G);
    const int od = __shfl_xor_sync(mask, bd, off, G);
    if (ob < best || (ob == best && od < bd)) best = ob, bd = od;
  }
  if (lane == 0) out[p] = static_cast<float>(bd);
}

// The per-value passes below run one block row per image row (blockIdx.y) and one thread per
// value of the row (x = e / Ls): 32-bit index arithmetic. One thread per value of the whole
// volume with 64-bit divisions made the message copy-down alone 5.9 ms of 900x750x256's
// ~13 (ncu, H100: 4 launches, at level 0 4 x 173 M values), the data cost 0.8.

// One level-0 data cost (bpp::cost0's arithmetic); padding values (d >= L) are 0.
__device__ __forceinline__ float level0_cost(const float* __restrict__ g, int w, int h, int L, float lambda, float tau,
                                             int x, int y, int d) {
  if (d >= L) return 0.0f;
  const std::size_t p = static_cast<std::size_t>(y) * w + x, plane = static_cast<std::size_t>(w) * h;
  return x - d >= 0 ? data_cost(g[p], g[plane + static_cast<std::size_t>(y) * w + (x - d)], lambda, tau)
                    : data_cost_outside(lambda, tau);
}

// A coarse pixel's value: fine(x, y) summed over the existing pixels of its 2x2 block in raster
// order (bpp::pyramid's).
template <class Fine>
__device__ __forceinline__ float block_sum(const Fine& fine, int fw, int fh, int cx, int cy) {
  const int x0 = 2 * cx, y0 = 2 * cy;
  const bool x1 = x0 + 1 < fw, y1 = y0 + 1 < fh;
  float v = add(0.0f, fine(x0, y0));
  if (x1) v = add(v, fine(x0 + 1, y0));
  if (y1) v = add(v, fine(x0, y0 + 1));
  if (x1 && y1) v = add(v, fine(x0 + 1, y0 + 1));
  return v;
}

// Level-0 data cost; padding values are 0.
__global__ void bp_warp_cost0_kernel(const float* __restrict__ g, int w, int h, int L, int Ls, float lambda, float tau,
                                     float* __restrict__ D) {
  const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (e >= w * Ls) return;
  const int x = e / Ls, d = e - x * Ls;
  D[(static_cast<std::size_t>(y) * w + x) * Ls + d] = level0_cost(g, w, h, L, lambda, tau, x, y, d);
}

// Level 0's data cost and level 1's in one pass: thread (coarse pixel, d) computes the costs
// of the existing fine pixels of its 2x2 block, writes them to level 0 and their block_sum to
// level 1: level 0's volume is written once and never read back for the pyramid.
__global__ void bp_warp_cost01_kernel(const float* __restrict__ g, int w, int h, int L, int Ls, float lambda, float tau,
                                      float* __restrict__ D0, int cw, float* __restrict__ D1) {
  const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), cy = static_cast<int>(blockIdx.y);
  if (e >= cw * Ls) return;
  const int cx = e / Ls, d = e - cx * Ls;
  const auto cost = [&](int x, int y) {
    const float v = level0_cost(g, w, h, L, lambda, tau, x, y, d);
    D0[(static_cast<std::size_t>(y) * w + x) * Ls + d] = v;
    return v;
  };
  D1[(static_cast<std::size_t>(cy) * cw + cx) * Ls + d] = block_sum(cost, w, h, cx, cy);
}

// Coarse data cost (bpp::pyramid).
__global__ void bp_warp_pyramid_kernel(const float* __restrict__ f, int fw, int fh, float* __restrict__ c, int cw,
                                       int ch, int Ls) {
  const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (e >= cw * Ls) return;
  const int x = e / Ls, d = e - x * Ls;
  const auto fine = [&](int fx, int fy) { return f[(static_cast<std::size_t>(fy) * fw + fx) * Ls + d]; };
  c[(static_cast<std::size_t>(y) * cw + x) * Ls + d] = block_sum(fine, fw, fh, x, y);
}

// Fine pixel (x, y) starts with its parent's messages (4 directions, all values), moved as
// raw bits in units V (upp units a pixel: 16 bytes where a pixel's values allow); direction
// blockIdx.z.
template <class V>
__global__ void bp_warp_copy_down_kernel(const V* __restrict__ mc, int cw, int ch, V* __restrict__ mf, int fw, int fh,
                                         int upp) {
  const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  const int k = static_cast<int>(blockIdx.z), n = fw * upp;
  if (e >= n) return;
  const int x = e / upp, q = e - x * upp;
  mf[(static_cast<std::size_t>(k) * fh + y) * n + e] =
      mc[((static_cast<std::size_t>(k) * ch + y / 2) * cw + x / 2) * upp + q];
}

unsigned blocks_for(long long n, int b = 256) { return static_cast<unsigned>((n + b - 1) / b); }

// Level k + 1's messages (mc, cw x ch) to level k's pixels (mf, fw x fh): in the widest unit
// that divides a pixel's Ls values (16 bytes at 8 or more fp16 values).
template <class T>
void copy_down(const T* mc, int cw, int ch, T* mf, int fw, int fh, int Ls, cudaStream_t s) {
  const int bytes = Ls * static_cast<int>(sizeof(T));
  auto go = [&](auto unit) {
    using V = decltype(unit);
    const int upp = bytes / static_cast<int>(sizeof(V));
    bp_warp_copy_down_kernel<V>
        <<<dim3(blocks_for(static_cast<long long>(fw) * upp), static_cast<unsigned>(fh), 4), 256, 0, s>>>(
            reinterpret_cast<const V*>(mc), cw, ch, reinterpret_cast<V*>(mf), fw, fh, upp);
  };
  if (bytes % 16 == 0)
    go(uint4{});
  else if (bytes % 8 == 0)
    go(uint2{});
  else if (bytes % 4 == 0)
    go(0u);
  else
    go(static_cast<unsigned short>(0));
  CUDA_CHECK_LAUNCH();
}

// ---- one run -----------------------------------------------------------------------------------
template <class T, int K, int G>
void run_t(const float* gray, int w0, int h0, const stereo::BpParams& p, DeviceBuffer& data, DeviceBuffer& msg,
           float* map, cudaStream_t s) {
  const int L = p.ndisp;
  const int Ls = (L + K - 1) / K * K;
  std::vector<int> W{w0}, H{h0};
  std::vector<std::size_t> off{0};
  for (int k = 1; k < p.levels; ++k) {
    off.push_back(off.back() + static_cast<std::size_t>(W.back()) * H.back() * Ls);
    W.push_back((W.back() + 1) / 2);
    H.push_back((H.back() + 1) / 2);
  }
  const std::size_t dtotal = off.back() + static_cast<std::size_t>(W.back()) * H.back() * Ls;
  const std::size_t set = 4 * static_cast<std::size_t>(w0) * h0 * Ls;  // elements of one message set
  data.reserve(dtotal * sizeof(float));
  msg.reserve(2 * set * sizeof(T));
  LB_REQUIRE(h0 <= 65535, "stereo bp: warp variant: image height " + std::to_string(h0) + " exceeds 65535");
  float* D = data.as<float>();
  LB_REQUIRE(static_cast<long long>(w0) * Ls <= 0x7fffffffLL, "stereo bp: warp variant: image too wide");
  if (p.levels > 1)  // levels 0 and 1 in one pass
    bp_warp_cost01_kernel<<<dim3(blocks_for(static_cast<long long>(W[1]) * Ls), static_cast<unsigned>(H[1])), 256, 0,
                            s>>>(gray, w0, h0, L, Ls, p.lambda, p.tau_data, D, W[1], D + off[1]);
  else
    bp_warp_cost0_kernel<<<dim3(blocks_for(static_cast<long long>(w0) * Ls), static_cast<unsigned>(h0)), 256, 0, s>>>(
        gray, w0, h0, L, Ls, p.lambda, p.tau_data, D);
  CUDA_CHECK_LAUNCH();
  for (int k = 2; k < p.levels; ++k) {
    bp_warp_pyramid_kernel<<<dim3(blocks_for(static_cast<long long>(W[k]) * Ls), static_cast<unsigned>(H[k])), 256, 0,
                             s>>>(D + off[k - 1], W[k - 1], H[k - 1], D + off[k], W[k], H[k], Ls);
    CUDA_CHECK_LAUNCH();
  }
  T* m0 = msg.as<T>();
  for (int k = p.levels - 1; k >= 0; --k) {
    T* m = m0 + (k % 2) * set;
    const std::size_t dir = static_cast<std::size_t>(W[k]) * H[k] * Ls;
    if (k == p.levels - 1) {
      CUDA_CHECK_THROW(cudaMemsetAsync(m, 0, 4 * dir * sizeof(T), s));
    } else {
      copy_down(m0 + ((k + 1) % 2) * set, W[k + 1], H[k + 1], m, W[k], H[k], Ls, s);
    }
    WarpMsgArgs a{W[k], H[k], L, Ls, 0, dir, D + off[k], m, p.tau_disc};
    const long long threads = static_cast<long long>((W[k] + 1) / 2) * G;
    const dim3 grid(blocks_for(threads, kWarpBlock), static_cast<unsigned>(H[k]));
    const bool full = L == K * G;
    for (int t = 0; t < p.iterations; ++t) {
      a.parity = t & 1;
      if (full) bp_warp_msg_kernel<T, K, G, true><<<grid, kWarpBlock, 0, s>>>(a);
      else bp_warp_msg_kernel<T, K, G, false><<<grid, kWarpBlock, 0, s>>>(a);
      CUDA_CHECK_LAUNCH();
    }
  }
  const long long n = static_cast<long long>(w0) * h0;
  bp_warp_wta_kernel<T, K, G>
      <<<blocks_for(n * G, kWarpBlock), kWarpBlock, 0, s>>>(D, m0, set / 4, static_cast<int>(n), L, Ls, map);
  CUDA_CHECK_LAUNCH();
}

template <class T>
void run_type(int K, int G, const float* gray, int w, int h, const stereo::BpParams& p, DeviceBuffer& data,
              DeviceBuffer& msg, float* map, cudaStream_t s) {
#define LB_BP_WARP(KK, GG)                                 \
  if (K == KK && G == GG) {                                \
    run_t<T, KK, GG>(gray, w, h, p, data, msg, map, s);    \
    return;                                                \
  }
  LB_BP_WARP(1, 4) LB_BP_WARP(1, 8) LB_BP_WARP(1, 16) LB_BP_WARP(1, 32)
  LB_BP_WARP(2, 4) LB_BP_WARP(2, 8) LB_BP_WARP(2, 16) LB_BP_WARP(2, 32)
  LB_BP_WARP(4, 4) LB_BP_WARP(4, 8) LB_BP_WARP(4, 16) LB_BP_WARP(4, 32)
  LB_BP_WARP(8, 4) LB_BP_WARP(8, 8) LB_BP_WARP(8, 16) LB_BP_WARP(8, 32)
  // Past 256 disparities (512, 1024 values per pixel): a whole warp, 16 or 32 values a lane
  // (more registers than the budget holds at 32: the spills are correct, only slower).
  LB_BP_WARP(16, 32) LB_BP_WARP(32, 32)
#undef LB_BP_WARP
  LB_THROW("warp: no instance for " + std::to_string(K) + " values x " + std::to_string(G) + " lanes");
}

}  // namespace

int bp_warp_span(int L) {
  int P = 4;
  while (P < L) P *= 2;
  return P;
}

std::vector<int> bp_warp_lane_options(int L) {
  const int P = bp_warp_span(L);
  std::vector<int> g;
  for (const int G : {4, 8, 16, 32})
    if (P % G == 0 && P / G <= 8) g.push_back(G);
  if (g.empty()) g.push_back(32);  // past 256: the whole warp, P / 32 = 16 or 32 values a lane
  return g;
}

// What the tuner picked most on an H100 (docs/PERFORMANCE.md): 4 values per lane up to 32
// disparities, 8 beyond (fewer shuffles per value, 8 pixels per warp at 64); past 256 the
// whole warp.
int bp_warp_default_lanes(int L) {
  const int P = bp_warp_span(L);
  return P <= 32 ? std::max(4, P / 4) : std::min(32, P / 8);
}

void bp_warp_run(const float* gray, int w, int h, const stereo::BpParams& p, const BpConfig& c, DeviceBuffer& data,
                 DeviceBuffer& msg, float* map, cudaStream_t s) {
  const int G = c.lanes > 0 ? c.lanes : bp_warp_default_lanes(p.ndisp);
  const int K = bp_warp_span(p.ndisp) / G;
  switch (c.msg) {
    case BpMsgType::F32: run_type<float>(K, G, gray, w, h, p, data, msg, map, s); break;
    case BpMsgType::F16: run_type<__half>(K, G, gray, w, h, p, data, msg, map, s); break;
    case BpMsgType::BF16: run_type<__nv_bfloat16>(K, G, gray, w, h, p, data, msg, map, s); break;
  }
}

}  // namespace lb::cuda::detail
