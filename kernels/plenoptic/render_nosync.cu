// Plenoptic rendering, NoSync (seed section 4, Fig. 7b): input-side, private double-buffered
// accumulators, no barrier in the loop; with direct 4-byte loads (the seed's kernel, lim 2
// at compile time or any lim at run time) or, the default on sm_90+ for lim 2, with the raw
// staged through shared memory by a producer warp (cp.async + mbarriers). Bit-exact with
// the CPU reference (integer sums, plenoptic_math.hpp).
//
// Instantiations: render_nosync_kernel<LIM = 2, writer>, render_nosync_generic_kernel<writer>
// (run-time lim), render_nosync_staged_kernel<LIM = 2, writer> (sm_90+ body); writer in
// {surface, pitched u32} (6).
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

#include "cuda_check.cuh"
#include "plenoptic/render_async.cuh"
#include "plenoptic/render_input_side.cuh"

namespace lb::cuda::detail {
namespace {

// ---------------------------------------------------------------------------------------
// NoSync (seed Fig. 7b): thread t of a row owns output offset a = t % M of the outputs
// o = p (mod S), p = t / M. It accumulates privately in registers and moves its LOAD
// position instead of a buffer: at step u of a period of S steps it loads group
// g = (p - u) mod S. Contributions of steps u <= p complete the output of the previous
// period ("fin"), the others start the next one ("nxt") -- the seed's double buffer. At the
// end of each period all threads write together: S*M contiguous pixels, thread t -> pixel t.
// No barrier in the loop; the only shared-memory reads are broadcasts of the column table.
// LIM > 0 only (lim fixed at compile time); other lims use render_nosync_generic_kernel.
// ---------------------------------------------------------------------------------------
template <int LIM, class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) render_nosync_kernel(const KParams P, const W out) {
  constexpr int S = 2 * LIM + 1;
  const RenderLayout& L = P.L;
  const int M = L.patch, span = S * M;
  extern __shared__ uint4 smem_nosync[];
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int len = min(P.chunk, L.grid_nx - cs);
  const int Q = (len + S - 1) / S + 1;  // periods; the first only fills the double buffer
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh = carve_input_shared(reinterpret_cast<std::uint32_t*>(smem_nosync), span, P.rows, S);

  const int r = static_cast<int>(threadIdx.x) / span;
  const int t = static_cast<int>(threadIdx.x) - r * span;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;

  setup_input(P, LIM, S, span, cs, ncols, sh);
  __syncthreads();
  if (y >= L.out_h) return;  // no barrier after this point

  RowRegs<S> R;
  R.load(sh, r, S);
  // Per step u of a period: load offset and weight of group g = (p - u) mod S.
  int koff[S];
  std::uint32_t wxu[S], wsu[S];
#pragma unroll
  for (int u = 0; u < S; ++u) {
    const int g = p >= u ? p - u : p - u + S;
    koff[u] = g * M + a - LIM * M;
    wxu[u] = sh.wx[g * M + a];
    wsu[u] = wxu[u] * R.swy;
  }
  std::uint32_t ring[S][S];
#pragma unroll
  for (int u = 0; u < S; ++u) {
    const int c = sh.col[u];
    if (c != kNoColumn) load_column(column_ptr(P, c, koff[u]), R, S, ring[u]);
  }
  uint4 fin = make_uint4(0, 0, 0, 0), nxt = make_uint4(0, 0, 0, 0);
  int x_out = (cs + p - S) * M + a;  // output (q - 1) * S + p of the chunk
  for (int q = 0; q < Q; ++q) {
    const bool more = q + 1 < Q;
#pragma unroll
    for (int u = 0; u < S; ++u) {
      const int c = sh.col[q * S + u];
      if (c != kNoColumn) {  // uniform
        const uint3 s = column_sum(ring[u], R, S);
        if (u <= p) {
          fin.x += s.x * wxu[u]; fin.y += s.y * wxu[u]; fin.z += s.z * wxu[u]; fin.w += wsu[u];
        } else {
          nxt.x += s.x * wxu[u]; nxt.y += s.y * wxu[u]; nxt.z += s.z * wxu[u]; nxt.w += wsu[u];
        }
      }
      if (more) {
        const int cn = sh.col[(q + 1) * S + u];
        if (cn != kNoColumn) load_column(column_ptr(P, cn, koff[u]), R, S, ring[u]);
      }
    }
    // Every thread's "fin" output (period q - 1) is complete: store them together.
    if (q > 0 && (q - 1) * S + p < len) out.put(x_out, y, finish(fin.x, fin.y, fin.z, fin.w, P.reciprocal != 0));
    fin = nxt;
    nxt = make_uint4(0, 0, 0, 0);
    x_out += S * M;
  }
}

// NoSync with run-time lim: same scheme step by step (g counts down, a swap of the two
// accumulators when it reaches 0), loads kGenericPrefetch steps ahead.
template <class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) render_nosync_generic_kernel(const KParams P, const W out) {
  constexpr int MAXR = kMaxRows, PF = kGenericPrefetch;
  const RenderLayout& L = P.L;
  const int lim = L.lim, S = 2 * lim + 1, M = L.patch, span = S * M;
  extern __shared__ uint4 smem_nosync_g[];
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int len = min(P.chunk, L.grid_nx - cs);
  const int T = ((len + S - 1) / S + 1) * S;
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh = carve_input_shared(reinterpret_cast<std::uint32_t*>(smem_nosync_g), span, P.rows, S);

  const int r = static_cast<int>(threadIdx.x) / span;
  const int t = static_cast<int>(threadIdx.x) - r * span;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;

  setup_input(P, lim, S, span, cs, ncols, sh);
  __syncthreads();
  if (y >= L.out_h) return;

  RowRegs<MAXR> R;
  R.load(sh, r, S);
  const int aoff = a - lim * M;
  int g = p;   // group at step t: (p - t) mod S
  int gl = p;  // group of the step being loaded
  std::uint32_t ring[PF][MAXR];
#pragma unroll
  for (int u = 0; u < PF; ++u) {
    const int c = u < T ? sh.col[u] : kNoColumn;
    if (c != kNoColumn) load_column(column_ptr(P, c, gl * M + aoff), R, S, ring[u]);
    gl = gl == 0 ? S - 1 : gl - 1;
  }
  uint4 cur = make_uint4(0, 0, 0, 0), done = make_uint4(0, 0, 0, 0);
  int x_out = (cs + p - S) * M + a;  // output o_rel of the chunk
  int o_rel = p - S;
  int pos = 0;  // step within the period of S steps
  for (int base = 0; base < T; base += PF) {
#pragma unroll
    for (int u = 0; u < PF; ++u) {
      const int tt = base + u;
      if (tt < T) {
        const int c = sh.col[tt];
        if (c != kNoColumn) {
          const uint3 s = column_sum(ring[u], R, S);
          const std::uint32_t wk = sh.wx[g * M + a];
          cur.x += s.x * wk;
          cur.y += s.y * wk;
          cur.z += s.z * wk;
          cur.w += R.swy * wk;
        }
        if (tt + PF < T) {
          const int cn = sh.col[tt + PF];
          if (cn != kNoColumn) load_column(column_ptr(P, cn, gl * M + aoff), R, S, ring[u]);
        }
        gl = gl == 0 ? S - 1 : gl - 1;
        if (g == 0) {  // output complete: park it, open the next one
          done = cur;
          cur = make_uint4(0, 0, 0, 0);
          g = S - 1;
        } else {
          --g;
        }
        if (pos == S - 1) {  // end of a period (uniform): store the parked outputs together
          if (o_rel >= 0 && o_rel < len)
            out.put(x_out, y, finish(done.x, done.y, done.z, done.w, P.reciprocal != 0));
          x_out += S * M;
          o_rel += S;
          pos = 0;
        } else {
          ++pos;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Staged NoSync (Hopper adaptation; the default NoSync path for lim = 2 on sm_90+).
//
// The direct kernels above read the raw with one 4-byte load per thread, pixel and
// vertical neighbour, as the seed does. On an H200 such narrow loads cannot keep enough
// bytes in flight: a plain raster read of exactly the touched pixels with 4-byte loads
// reaches about a quarter of the copy bandwidth, with 16-byte loads about 60 %
// (lb_bench_render --diag, docs/PERFORMANCE.md). The staged kernel keeps the NoSync
// thread mapping and its private double-buffered accumulators, but the raw reaches the
// threads through shared memory: one extra producer warp copies, for each step, the S row
// segments of S*M pixels (16-byte aligned, qmax quads each, 15 for the seed) with 16-byte
// cp.async into a ring of kStagedSteps step buffers; after issuing a step's copies each
// producer lane hands them to the step's "full" mbarrier (cp.async.mbarrier.arrive.noinc:
// the barrier phase completes when every lane's copies have landed). The NoSync threads
// wait on that mbarrier, read their pixels and release the buffer on its "empty" mbarrier,
// every thread arriving for its own reads. (An earlier version let one lane per warp arrive
// after __syncwarp: correct under the memory model, since __syncwarp orders the lanes'
// reads before lane 0's release, but compute-sanitizer's racecheck does not model that
// chain and reported WAR hazards on every reuse of a buffer. Per-thread arrivals are
// racecheck-clean and cost about 2 % on the H100: docs/PERFORMANCE.md.) There is still no
// __syncthreads after the setup: the NoSync threads only wait for data, never for each
// other. (Tried and dropped, slower on the H200: a cp.async.bulk producer with one copy per
// segment, a Sync kernel staged the same way, and NoSync staging a period per barrier. Not
// faster on the H100: two or three producer warps, rings of 6-24 steps, the producer issuing
// 2-8 steps per batch, an L2::128B prefetch, work stealing between blocks, a second phase of
// small tail chunks. Its gap to a raster read of the same quads (~80 % of its speed) is its
// one wave's uneven finish: a block runs at its SM's speed, 34-50 us on the H100, and the
// kernel ends with the slowest SM (`bench render --trace`; docs/perf/history.md).)
//
// The RGBA raw on the device carries replicated border columns (RawDevice pads), so a
// segment is fetched and indexed without clamping. Step buffer layout:
// uint4 [rows][S][qmax] (segment-major), a warp reads consecutive words.
// ---------------------------------------------------------------------------------------

template <int S>
__device__ __forceinline__ void load_row_weights(const InputShared& sh, int r, std::uint32_t (&wlo)[S],
                                                 std::uint32_t (&whi)[S], std::uint32_t& swy) {
  swy = 0;
#pragma unroll
  for (int q = 0; q < S; ++q) {
    wlo[q] = sh.wy[r * S + q];
    whi[q] = wlo[q] << 16;
    swy += wlo[q];
  }
}



#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
// Arrives on `bar` once every cp.async this thread issued before has landed; .noinc: the
// arrival is one of the counts the barrier was initialised with.
__device__ __forceinline__ void cp_async_mbar_arrive_noinc(std::uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}
#endif

constexpr int kLsuItemsPerLane = 8;  // cp.async items per producer lane and step (bound)

template <int LIM, class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) render_nosync_staged_kernel(const KParams P, const W out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int S = 2 * LIM + 1;
  const int NST = P.stages;
  const RenderLayout& L = P.L;
  const int M = L.patch, span = S * M, qmax = staged_quads(span);
  const int seg_quads = qmax, step_quads = P.rows * S * qmax;
  const int consumers = P.rows * span;              // the NoSync threads
  const int consumer_threads = (consumers + 31) / 32 * 32;  // whole warps (idle tail lanes)
  extern __shared__ uint4 smem_nosync_staged[];
  uint4* s_stage = smem_nosync_staged;  // [NST][rows][S][qmax]
  auto* s_full = reinterpret_cast<std::uint64_t*>(s_stage + NST * step_quads);
  std::uint64_t* s_empty = s_full + NST;
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int len = min(P.chunk, L.grid_nx - cs);
  const int Q = (len + S - 1) / S + 1;
  const int T = Q * S;
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh =
      carve_input_shared(reinterpret_cast<std::uint32_t*>(s_empty + NST), span, P.rows, S);
  const int seg0 = LIM * M;
  unsigned long long* const trace =
      P.block_trace ? P.block_trace + 4 * (blockIdx.y * gridDim.x + blockIdx.x) : nullptr;
  if (trace && threadIdx.x == 0) {
    trace[0] = global_timer_ns();
    trace[2] = sm_id();
  }

  setup_input(P, LIM, S, span, cs, ncols, sh);
  if (threadIdx.x == 0) {
    for (int i = 0; i < NST; ++i) {
      mbar_init(s_full + i, 32u);
      mbar_init(s_empty + i, static_cast<unsigned>(consumer_threads));
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (static_cast<int>(threadIdx.x) >= consumer_threads) {
    const int lane = static_cast<int>(threadIdx.x) - consumer_threads;
    if (lane >= 32) return;
    {
      // Producer warp: all 32 lanes copy 16-byte quads (cp.async); the completion of a
      // lane's copies of step t is its arrival on step t's "full" barrier.
      const std::uint32_t* src[kLsuItemsPerLane];
      int dst[kLsuItemsPerLane];
#pragma unroll
      for (int n = 0; n < kLsuItemsPerLane; ++n) {
        const int item = lane + 32 * n;
        if (item < step_quads) {
          const int seg = item / seg_quads, i = item - seg * seg_quads;
          src[n] = P.rgba + sh.roff[seg] + 4 * i;
          dst[n] = item;
        } else {
          src[n] = P.rgba;
          dst[n] = -1;
        }
      }
      int st = 0;  // stage being filled
      unsigned use = 0;
      for (int t = 0; t < T; ++t) {
        if (use > 0) mbar_wait(s_empty + st, (use - 1) & 1u);
        const int c = sh.col[t];
        // Step t loads column cs - LIM - 1 + t; past column cs + len - 1 + LIM (the end of a
        // chunk inside a row) it would feed only the next chunk's outputs: not fetched.
        if (c != kNoColumn && t <= len + 2 * LIM) {
          const int q0 = (c - seg0) >> 2;
          uint4* buf = s_stage + st * step_quads;
#pragma unroll
          for (int n = 0; n < kLsuItemsPerLane; ++n)
            if (dst[n] >= 0) cp_async16(buf + dst[n], src[n] + 4 * q0);
        }
        cp_async_mbar_arrive_noinc(s_full + st);  // the copies' completion publishes step t
        if (++st == NST) {
          st = 0;
          ++use;
        }
      }
      cp_async_wait<0>();
    }
    return;
  }

  // Lanes past the last consumer (when rows*span is not a multiple of 32) run along idle:
  // they arrive on the "empty" barriers too (its count is consumer_threads).
  const bool consumer = static_cast<int>(threadIdx.x) < consumers;
  const int r = consumer ? static_cast<int>(threadIdx.x) / span : 0;
  const int t = consumer ? static_cast<int>(threadIdx.x) - r * span : 0;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;
  const bool row_active = consumer && y < L.out_h;
  std::uint32_t wlo[S], whi[S], swy;
  load_row_weights<S>(sh, r, wlo, whi, swy);
  int ku[S];
  std::uint32_t wxu[S], wsu[S];
#pragma unroll
  for (int u = 0; u < S; ++u) {
    const int g = p >= u ? p - u : p - u + S;
    ku[u] = g * M + a;
    wxu[u] = sh.wx[ku[u]];
    wsu[u] = wxu[u] * swy;
  }
  uint4 fin = make_uint4(0, 0, 0, 0), nxt = make_uint4(0, 0, 0, 0);
  int x_out = (cs + p - S) * M + a;
  int st = 0;
  unsigned parity = 0;
  for (int q = 0; q < Q; ++q) {
#pragma unroll
    for (int u = 0; u < S; ++u) {
      const int c = sh.col[q * S + u];
      mbar_wait(s_full + st, parity);
      if (row_active && c != kNoColumn) {  // uniform per row
        const std::uint32_t* base = reinterpret_cast<const std::uint32_t*>(s_stage + st * step_quads + r * S * seg_quads) +
                                    ((c - seg0) & 3) + ku[u];
        uint3 s3 = make_uint3(0, 0, 0);
#pragma unroll
        for (int qq = 0; qq < S; ++qq) {
          const std::uint32_t v = base[qq * seg_quads * 4];
          s3.x = __dp2a_lo(wlo[qq], v, s3.x);
          s3.y = __dp2a_lo(whi[qq], v, s3.y);
          s3.z = __dp2a_hi(wlo[qq], v, s3.z);
        }
        if (u <= p) {
          fin.x += s3.x * wxu[u]; fin.y += s3.y * wxu[u]; fin.z += s3.z * wxu[u]; fin.w += wsu[u];
        } else {
          nxt.x += s3.x * wxu[u]; nxt.y += s3.y * wxu[u]; nxt.z += s3.z * wxu[u]; nxt.w += wsu[u];
        }
      }
      mbar_arrive(s_empty + st);  // each thread releases its own reads (see above)
      if (++st == NST) {
        st = 0;
        parity ^= 1u;
      }
    }
    if (row_active && q > 0 && (q - 1) * S + p < len)
      out.put(x_out, y, finish(fin.x, fin.y, fin.z, fin.w, P.reciprocal != 0));
    fin = nxt;
    nxt = make_uint4(0, 0, 0, 0);
    x_out += S * M;
  }
  if (trace && threadIdx.x % 32 == 0) atomicMax(trace + 1, global_timer_ns());  // the block ends with its last warp
#endif
}

// Shared memory of the staged NoSync kernel (bytes).
std::size_t staged_shmem(const KParams& P) {
  const int S = 2 * P.L.lim + 1, span = S * P.L.patch;
  const std::size_t tables = input_shared_words(span, P.rows, S, input_columns(P.chunk, S)) * 4;
  const std::size_t step = static_cast<std::size_t>(P.rows) * S * staged_quads(span) * sizeof(uint4);
  return P.stages * step + 2u * P.stages * sizeof(std::uint64_t) + tables;
}

}  // namespace

// Whether the staged NoSync kernel applies: lim = 2, sm_90+, a padded and 16-byte aligned raw,
// the rows of a block (one producer warp more) within its bound and the LSU items per lane,
// shared memory within the device limit. Its rows per block, or 0.
int staged_rows(const KParams& P, const RawDevice& raw, int cc_major, int smem_optin) {
  const int lim = P.L.lim, S = 2 * lim + 1, span = S * P.L.patch;
  if (lim != 2) return 0;
  if (!raw_ready_for_staging(P, raw)) return 0;
  if (cc_major < 9) return 0;
  KParams Pt = P;  // + one producer warp: rows such that the block stays within its bound
  while (Pt.rows > 1 && (Pt.rows * span + 31) / 32 * 32 + 32 > kMaxInputBlock) --Pt.rows;
  if (Pt.rows * S * staged_quads(span) > 32 * kLsuItemsPerLane) return 0;
  if (staged_shmem(Pt) > static_cast<std::size_t>(smem_optin)) return 0;
  return Pt.rows;
}

bool nosync_staged_built() {
  int dev = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  static std::atomic<int> known[64];  // per device: 0 not asked yet, 1 no, 2 yes
  std::atomic<int>* k = dev >= 0 && dev < 64 ? &known[dev] : nullptr;
  if (k && k->load() != 0) return k->load() == 2;
  cudaFuncAttributes a{};
  CUDA_CHECK_THROW(cudaFuncGetAttributes(&a, render_nosync_staged_kernel<2, SurfaceWriter>));
  const bool built = a.ptxVersion >= 90;
  if (k) k->store(built ? 2 : 1);
  return built;
}

template <class W>
void launch_render_nosync_staged(const KParams& Pt, const W& w, cudaStream_t stream) {
  const int S = 2 * Pt.L.lim + 1, span = S * Pt.L.patch;
  const std::size_t shmem = staged_shmem(Pt);
  const dim3 block(static_cast<unsigned>((span * Pt.rows + 31) / 32 * 32 + 32));
  const dim3 grid(static_cast<unsigned>((Pt.L.grid_nx + Pt.chunk - 1) / Pt.chunk),
                  static_cast<unsigned>((Pt.L.out_h + Pt.rows - 1) / Pt.rows));
  allow_dynamic_shared(render_nosync_staged_kernel<2, W>, shmem);
  render_nosync_staged_kernel<2, W><<<grid, block, shmem, stream>>>(Pt, w);
  CUDA_CHECK_LAUNCH();
}
template void launch_render_nosync_staged<SurfaceWriter>(const KParams&, const SurfaceWriter&, cudaStream_t);
template void launch_render_nosync_staged<PitchedWriter<true>>(const KParams&, const PitchedWriter<true>&,
                                                               cudaStream_t);

template <class W>
void launch_render_nosync(const KParams& P, dim3 grid, dim3 block, std::size_t shmem, const W& w,
                          cudaStream_t stream) {
  if (P.L.lim == 2) render_nosync_kernel<2, W><<<grid, block, shmem, stream>>>(P, w);
  else render_nosync_generic_kernel<W><<<grid, block, shmem, stream>>>(P, w);
  CUDA_CHECK_LAUNCH();
}
template void launch_render_nosync<SurfaceWriter>(const KParams&, dim3, dim3, std::size_t, const SurfaceWriter&,
                                                  cudaStream_t);
template void launch_render_nosync<PitchedWriter<true>>(const KParams&, dim3, dim3, std::size_t,
                                                        const PitchedWriter<true>&, cudaStream_t);

}  // namespace lb::cuda::detail
