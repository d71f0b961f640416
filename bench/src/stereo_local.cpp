// `lightbench-cli bench local`: every local stereo variant on each workload, CUDA events
// after warm-up, median of many runs with the pair resident (compute) and with the upload
// of the pair and the download of the map (total); million disparity estimations per
// second (w h ndisp / compute time), fps; exactness against the CPU reference and bad
// pixels (> 1) against the ground truth.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench_device.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/bench/stereo_local.hpp"
#include "lightbench/timing.hpp"
#include "bench_kernels.hpp"  // launch_copy
#include "stereo_local/stereo_local_launch.hpp"
#include "timer.hpp"

namespace lb::bench {

using namespace cuda::detail;

namespace {

// Reference bandwidth: a 16-byte copy of 256 MiB (bytes = read + write), GB/s.
double copy_gbps(const LocalBenchOptions& o, int l2_bytes, cudaStream_t s) {
  const std::size_t bytes = std::size_t{256} << 20;
  DeviceBuffer src(bytes), dst(bytes);
  CUDA_CHECK_THROW(cudaMemsetAsync(src.get(), 1, bytes, s));
  detail::TimerOptions to;
  to.reps = std::min(o.reps, 30);
  to.warmup = std::max(1, std::min(o.warmup, 3));
  to.max_seconds = o.max_seconds;
  detail::LaunchTimer timer(s, to, l2_bytes);
  return compute_stats(timer.time([&] { launch_copy(src.get(), dst.get(), bytes, s); }), 2 * bytes).median_gbps;
}

}  // namespace

Report bench_local_stereo(const std::vector<LocalBenchWorkload>& workloads, const stereo::LocalParams& params,
                          const LocalBenchOptions& o) {
  LB_REQUIRE(o.reps >= 1 && o.warmup >= 0, "bench local: reps >= 1, warmup >= 0");
  const std::vector<std::string> variants = o.variants.empty() ? stereo::local_variants() : o.variants;
  for (const auto& v : variants) (void)parse_local_kernel(v);
  Report rep;
  rep.device = detail::bench_device("bench local", o.device);
  rep.keys.label = "variant";
  rep.keys.kernel.clear();
  rep.keys.max_ms.clear();
  rep.keys.gbps = "gbps";
  rep.fields = {json_field("params.radius", std::int64_t{params.radius}),
                json_field("params.gamma", static_cast<double>(params.gamma)),
                json_field("params.truncation", std::int64_t{params.truncation}),
                json_field("params.variable_windows", std::int64_t{params.variable_windows}),
                json_field("params.lr_check", std::int64_t{params.lr_check}),
                json_field("warmup", std::int64_t{o.warmup}),
                json_field("reps", std::int64_t{o.reps}),
                json_field("max_seconds", o.max_seconds)};
  Stream stream;
  const cudaStream_t s = stream.get();
  rep.copy_gbps = copy_gbps(o, rep.device.l2_bytes, s);
  detail::TimerOptions to;
  to.warmup = o.warmup;
  to.reps = o.reps;
  to.max_seconds = o.max_seconds;
  to.min_reps = 5;
  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);
  Table& entries = rep.table("entries");
  bool all_exact = true;
  for (const LocalBenchWorkload& wl : workloads) {
    stereo::LocalParams p = params;
    p.ndisp = wl.ndisp;
    const stereo::local::KernelParams k = stereo::local::kernel_params(p);
    stereo::validate(p, wl.pair);
    LocalDeviceState st;
    st.set_pair(wl.pair, s);
    const int W = st.width, H = st.height;
    const std::size_t n = static_cast<std::size_t>(W) * H;
    std::vector<int> ref;
    if (o.check_cpu) ref = stereo::local_disparity_cpu(wl.pair, p);
    for (const std::string& vname : variants) {
      const LocalKernel v = parse_local_kernel(vname);
      Row e;
      e.label = vname;
      e.add(lead_field("workload", wl.name, "workload"));
      e.add(json_field("width", std::int64_t{W}));
      e.add(json_field("height", std::int64_t{H}));
      e.add(lead_field("", std::to_string(W) + "x" + std::to_string(H), "size"));
      e.add(lead_field("ndisp", std::int64_t{p.ndisp}, "L"));
      // One checked run outside the timing (the map buffer is poisoned first).
      st.disp.reserve(n * sizeof(float));
      CUDA_CHECK_THROW(cudaMemsetAsync(st.disp.get(), 0xff, n * sizeof(float), s));
      st.compute(k, p.lr_check != 0, v, s);
      st.download(s);
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));
      const float* d = st.host_disp();
      if (o.check_cpu) {
        std::uint64_t differing = 0;
        for (std::size_t i = 0; i < n; ++i) differing += d[i] != static_cast<float>(ref[i]);
        e.set_check(differing);
        all_exact = all_exact && e.exact;
      }
      bool scored = false;
      double bad1_all = 0, bad1_nonocc = 0;
      if (!wl.truth.empty()) {
        LB_REQUIRE(wl.truth.width == W && wl.truth.height == H, "bench local: ground truth size differs from the pair");
        double bad_all = 0, cnt_all = 0, bad_no = 0, cnt_no = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const float t = wl.truth.data[i];
          if (t <= 0.0f) continue;
          const bool bad = std::fabs(d[i] - t) > 1.0f;
          cnt_all += 1;
          bad_all += bad;
          if (wl.mask_nonocc.empty() || wl.mask_nonocc.data[i] == 255) {
            cnt_no += 1;
            bad_no += bad;
          }
        }
        scored = cnt_all > 0;
        bad1_all = cnt_all > 0 ? 100.0 * bad_all / cnt_all : 0.0;
        bad1_nonocc = cnt_no > 0 ? 100.0 * bad_no / cnt_no : 0.0;
      }
      e.bytes = local_pass_bytes(W, H, k, p.lr_check != 0, v);
      e.set_times(timer.time([&] { st.compute(k, p.lr_check != 0, v, s); }));
      const TimingStats total = compute_stats(timer.time([&] {
                                                st.upload(s);
                                                st.compute(k, p.lr_check != 0, v, s);
                                                st.download(s);
                                              }),
                                              0);
      const double estimations = static_cast<double>(W) * H * p.ndisp;
      e.add(field("median_total_ms", total.median_ms, "total ms", 4));
      e.add(field("mde_per_s", e.median_ms > 0 ? estimations / (e.median_ms * 1e-3) / 1e6 : 0.0, "Mde/s", 0));
      e.add(field("fps", e.median_ms > 0 ? 1000.0 / e.median_ms : 0.0, "fps", 1));
      e.add(field("fps_total", total.median_ms > 0 ? 1000.0 / total.median_ms : 0.0, "fps total", 1));
      if (scored) {
        e.add(field("bad1_nonocc", bad1_nonocc, "bad1 nonocc%", 2));
        e.add(field("bad1_all", bad1_all, "bad1 all%", 2));
      }
      entries.rows.push_back(e);
    }
  }
  rep.all_exact = all_exact;
  char copy_line[96];
  std::snprintf(copy_line, sizeof copy_line, "copy kernel: %.0f GB/s (read + write)", rep.copy_gbps);
  rep.preamble = {"parameters: r " + std::to_string(params.radius) + ", gamma " + detail::num(params.gamma) + ", T " +
                      std::to_string(params.truncation) + ", variable windows " +
                      std::to_string(params.variable_windows) + ", lr check " + std::to_string(params.lr_check),
                  "timing: CUDA events, " + std::to_string(o.warmup) + " warm-up runs, up to " +
                      std::to_string(o.reps) + " timed (fewer past " + detail::num(o.max_seconds) +
                      " s), median; compute = pair resident, total = + upload of the pair + download of the map",
                  copy_line};
  rep.notes = {"Mde/s: million disparity estimations per second (w x h x ndisp / compute median); seed anchors:",
               "129 fps at 450x375x60 (GeForce 8800 GT, phase 5), 605 Mde/s (GeForce 7900, Lu et al.);",
               "GB/s: global bytes a pass must move (planes between the kernels; fused: images + result) / median;",
               "exact: map identical to the CPU reference (else the number of differing pixels);",
               "bad1: % of pixels with known truth where |d - truth| > 1 (non-occluded / all)"};
  return rep;
}

}  // namespace lb::bench
