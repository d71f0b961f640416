// `lightbench-cli bench mad`: the whole MAD metric per backend / variant and the
// local-statistics kernel per variant, at 512x384 (the iqa pairs, or synthetic), 512x512
// and 1920x1080 (synthetic). The metric's own timing (CUDA events on the GPU), warm-up,
// median; the statistics kernels' bytes against a copy kernel measured in the same process.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "bench_device.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/bench/mad.hpp"
#include "lightbench/engines/cuda.hpp"
#include "mad/mad_engine.hpp"
#include "mad/mad.hpp"
#include "mad/mad_cuda.hpp"
#include "mad/mad_math.hpp"
#include "lightbench/timing.hpp"
#include "mad/mad_launch.hpp"
#include "mad_workloads.hpp"
#include "bench_kernels.hpp"  // launch_copy
#include "timer.hpp"

namespace lb::bench {

namespace {

using cuda::detail::DeviceBuffer;
using cuda::detail::MadStatsKernel;

Row metric_row(const detail::MadWorkload& wl, const std::string& variant) {
  Row e;
  e.label = variant;
  e.add(lead_field("workload", wl.name, "workload"));
  e.add(lead_field("what", std::string("metric"), "what"));
  e.add(json_field("width", std::int64_t{wl.ref.width}));
  e.add(json_field("height", std::int64_t{wl.ref.height}));
  return e;
}

// The whole metric `runs` times after `warmup` untimed runs; its times are the metric's
// own (MadResult::ms). The engine's timings are cleared after the warm-up, so its
// "mad/stage/..." histories hold exactly the timed runs.
void time_metric(Row& e, MadEngine& ev, const detail::MadWorkload& wl, const std::string& variant, int warmup,
                 int runs) {
  MadOptions mo;
  mo.keep_maps = false;
  for (int k = 0; k < warmup; ++k) ev.run(wl.ref, wl.dst, variant, mo);
  ev.timings().clear();
  std::vector<double> ms;
  double mad = 0;
  for (int k = 0; k < runs; ++k) {
    const MadResult r = ev.run(wl.ref, wl.dst, variant, mo);
    ms.push_back(r.ms);
    mad = r.mad;
  }
  e.set_times(ms);
  e.add(field("mad", mad, "MAD", 6));
  if (ev.kind() == BackendKind::Cuda) {
    const cuda::MadPipelineInfo pi = cuda::mad_pipeline_info(ev, wl.ref.width, wl.ref.height);
    e.add(field("launches", std::int64_t{pi.launches}, "launches"));
    e.add(field("pipeline", pi.describe, "pipeline"));
  }
}

// Every stage of the engine's timed runs (CUDA events between the stages; a stage run once
// per inverse batch is their sum): median, and the bytes it must move at least.
void stage_rows(Table& t, MadEngine& ev, const detail::MadWorkload& wl, const std::string& label) {
  static const char* const order[] = {"upload", "lum",       "fwd",       "csf_fwd", "csf_inv", "detect",
                                      "gabor_fwd", "gabor_mul", "gabor_inv", "gabor_col", "gabor_row", "stats", "combine"};
  for (const char* st : order) {
    const std::vector<TimingSample> hist = ev.timings().history(std::string("mad/stage/") + st);
    if (hist.empty()) continue;
    Row e;
    e.label = label;
    e.add(lead_field("workload", wl.name, "workload"));
    e.add(lead_field("stage", std::string(st), "stage"));
    std::vector<double> ms;
    for (const TimingSample& x : hist) ms.push_back(x.ms);
    e.bytes = hist.back().bytes;
    e.set_times(ms);
    t.rows.push_back(e);
  }
}

}  // namespace

Report bench_mad(const MadBenchOptions& o) {
  Report rep;
  rep.device = detail::bench_device("bench mad", o.device);
  rep.keys.label = "variant";
  rep.keys.kernel.clear();
  rep.keys.gbps = "gbps";
  rep.keys.checked.clear();
  rep.keys.exact.clear();
  rep.keys.mismatches.clear();
  rep.fields = {json_field("warmup", std::int64_t{o.warmup}), json_field("reps", std::int64_t{o.reps})};
  cuda::detail::Stream stream;
  const cudaStream_t s = stream.get();
  detail::TimerOptions to;
  to.warmup = o.warmup;
  to.reps = o.reps;
  to.wait_each = true;  // each launch on its own, as the bench has always timed them
  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);
  // Copy bandwidth: 256 MiB read + written.
  {
    const std::size_t bytes = 256u << 20;
    DeviceBuffer a(bytes), b(bytes);
    CUDA_CHECK_THROW(cudaMemsetAsync(a.get(), 0, bytes, s));
    rep.copy_gbps =
        compute_stats(timer.time([&] { launch_copy(a.get(), b.get(), bytes, s); }), 2 * bytes).median_gbps;
  }
  auto cpu = make_mad_engine_cpu();
  auto gpu = cuda::make_mad_engine_cuda(o.device);
  // The pipelines beside the default (r2c, inverse batch sized to the L2, automatic inverses):
  // the older c2c one, r2c with either inverse forced and r2c with fixed batches, each with
  // fused statistics.
  struct Alt {
    std::string label;
    cuda::MadPipelineOptions p;
    std::unique_ptr<MadEngine> e;
  };
  std::vector<Alt> alts;
  alts.push_back({"cuda-c2c/fused", {true, 0}, nullptr});
  alts.push_back({"cuda-r2c-2d/fused", {false, 0, false, cuda::MadInverse::Cufft2d}, nullptr});
  alts.push_back({"cuda-r2c-col/fused", {false, 0, false, cuda::MadInverse::ColumnPass}, nullptr});
  for (int b : {2, 10, 40}) alts.push_back({"cuda-r2c-b" + std::to_string(b) + "/fused", {false, b}, nullptr});
  alts.push_back({"cuda-r2c-cb/fused", {false, 0, true}, nullptr});
  for (Alt& a : alts) a.e = cuda::make_mad_engine_cuda(o.device, a.p);
  Table& entries = rep.table("entries");
  Table& stages = rep.table("stages");
  for (const detail::MadWorkload& wl : detail::mad_workloads(o.iqa_dir)) {
    const int w = wl.ref.width, h = wl.ref.height;
    if (o.max_pixels > 0 && static_cast<long long>(w) * h > o.max_pixels) continue;
    // Whole metric: CPU reference (a few runs) and every CUDA variant.
    Row ref = metric_row(wl, "cpu/reference");
    time_metric(ref, *cpu, wl, "", 0, 3);
    entries.rows.push_back(ref);
    for (const std::string& v : cuda::mad_stats_variants()) {
      Row e = metric_row(wl, "cuda/" + v);
      time_metric(e, *gpu, wl, v, o.warmup, o.reps);
      entries.rows.push_back(e);
      if (v == gpu->default_variant()) stage_rows(stages, *gpu, wl, "cuda/" + v);
    }
    for (Alt& a : alts) {
      if (!a.e) continue;
      Row e = metric_row(wl, a.label);
      try {
        time_metric(e, *a.e, wl, "fused", o.warmup, o.reps);
      } catch (const Error& err) {  // cuFFT could not link the callbacks: say so, drop the rows
        if (!a.p.callbacks) throw;
        rep.notes.push_back(a.label + ": not measured: " + err.what());
        a.e.reset();
        continue;
      }
      entries.rows.push_back(e);
      if (a.p.c2c || a.p.callbacks || a.p.inverse != cuda::MadInverse::Auto) stage_rows(stages, *a.e, wl, a.label);
    }
    if (wl.name.rfind("I04", 0) == 0 || wl.name.rfind("I06", 0) == 0) continue;  // one stats run per size
    // Statistics kernel alone on 40 planes of that size (float input; fused also on complex).
    const int planes = 2 * mad::kResponses;
    const std::size_t n = static_cast<std::size_t>(w) * h;
    const std::size_t nb = static_cast<std::size_t>(mad::block_count(w)) * mad::block_count(h);
    std::vector<float> host(planes * n);
    std::uint64_t x = 88172645463325252ull;
    for (float& v : host) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      v = static_cast<float>((x >> 40) % 100000) * 1e-3f;
    }
    DeviceBuffer in(planes * n * sizeof(float)), cin(planes * n * sizeof(float2)),
        out(planes * nb * 3 * sizeof(float));
    CUDA_CHECK_THROW(cudaMemcpy(in.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaMemset(cin.get(), 0, planes * n * sizeof(float2)));
    struct K {
      std::string label;
      MadStatsKernel k;
      bool complex_in;
    };
    const K ks[] = {{"gather", MadStatsKernel::Gather, false},
                    {"shared", MadStatsKernel::Shared, false},
                    {"shared_nc", MadStatsKernel::SharedNc, false},
                    {"fused", MadStatsKernel::Fused, false},
                    {"fused (complex |EO|)", MadStatsKernel::Fused, true}};
    for (const K& k : ks) {
      Row e;
      e.label = k.label;
      e.add(lead_field("workload", wl.name, "workload"));
      e.add(lead_field("what", std::string("stats"), "what"));
      e.add(json_field("width", std::int64_t{w}));
      e.add(json_field("height", std::int64_t{h}));
      e.add(json_field("mad", 0.0));
      e.bytes = static_cast<std::uint64_t>(planes) * (n * (k.complex_in ? 8 : 4) + nb * 12);
      e.set_times(timer.time([&] {
        cuda::detail::launch_mad_block_stats(k.k, k.complex_in ? nullptr : in.as<float>(),
                                             k.complex_in ? cin.get() : nullptr, 1.f, w, h, planes, out.as<float>(), s);
      }));
      entries.rows.push_back(e);
    }
  }
  char copy_line[96];
  std::snprintf(copy_line, sizeof copy_line, "copy kernel: %.1f GB/s (read + write)", rep.copy_gbps);
  rep.preamble = {"timing: metric rows: the metric's own time (CUDA events on the GPU, wall clock on the CPU), " +
                      std::to_string(o.warmup) + " warm-up + " + std::to_string(o.reps) +
                      " runs (CPU: 3), median; stats rows: CUDA events around each launch",
                  "cuda/<variant>: the r2c pipeline (inverse batch sized to the L2; the inverses: fused column "
                  "pass + cuFFT rows where two planes overflow half the L2, else cuFFT 2D); cuda-c2c: the older "
                  "pipeline; cuda-r2c-2d / -col: r2c with cuFFT 2D inverses / the column pass; cuda-r2c-b<B>: r2c with B responses per inverse batch; cuda-r2c-cb: r2c with the "
                  "products and |EO| in cuFFT JIT callbacks",
                  "stages: CUDA events between the stages of the same timed runs (upload: not part of the "
                  "metric's time); MB: the bytes the stage must move at least",
                  copy_line};
  return rep;
}

}  // namespace lb::bench
