// `lightbench-cli bench local`: every local stereo variant on each workload, CUDA events
// after warm-up, median of many runs with the pair resident (compute) and with the upload
// of the pair and the download of the map (total); million disparity estimations per
// second (w h ndisp / compute time), fps; exactness against the CPU reference and bad
// pixels (> 1) against the ground truth.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/stereo_local_cuda.hpp"
#include "lightbench/timing.hpp"
#include "render_launch.hpp"  // launch_copy
#include "stereo_local_launch.hpp"

namespace lb::cuda {

using namespace detail;

bool LocalBenchReport::all_exact() const {
  for (const auto& e : entries)
    if (e.checked && !e.exact) return false;
  return true;
}

namespace {

// Times `pass` (queued on s) with an event pair per run: warm-up, then up to reps runs
// (at least 5, stopping past max_seconds). Returns the milliseconds.
template <class F>
std::vector<double> time_runs(F&& pass, cudaStream_t s, const LocalBenchOptions& o) {
  for (int i = 0; i < o.warmup; ++i) pass();
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
  Event a, b;
  std::vector<double> ms;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < o.reps; ++i) {
    CUDA_CHECK_THROW(cudaEventRecord(a.get(), s));
    pass();
    CUDA_CHECK_THROW(cudaEventRecord(b.get(), s));
    CUDA_CHECK_THROW(cudaEventSynchronize(b.get()));
    float t = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t, a.get(), b.get()));
    ms.push_back(t);
    if (ms.size() >= 5 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o.max_seconds)
      break;
  }
  return ms;
}

}  // namespace

LocalBenchReport bench_local_stereo(const std::vector<LocalBenchWorkload>& workloads, const stereo::LocalParams& params,
                                    const LocalBenchOptions& o) {
  std::string why;
  if (!cuda_available(&why)) throw Error("bench local: " + why);
  LB_REQUIRE(o.reps >= 1 && o.warmup >= 0, "bench local: reps >= 1, warmup >= 0");
  const std::vector<std::string> variants = o.variants.empty() ? stereo::local_variants() : o.variants;
  for (const auto& v : variants) (void)parse_local_kernel(v);
  CUDA_CHECK_THROW(cudaSetDevice(o.device));
  LocalBenchReport rep;
  rep.options = o;
  rep.params = params;
  rep.device = device_info(o.device);
  LB_REQUIRE(rep.device.available, "bench local: " + rep.device.why);
  Stream stream;
  const cudaStream_t s = stream.get();
  {
    // Reference bandwidth: a 16-byte copy of 256 MiB (bytes = read + write).
    const std::size_t bytes = std::size_t{256} << 20;
    DeviceBuffer src(bytes), dst(bytes);
    CUDA_CHECK_THROW(cudaMemsetAsync(src.get(), 1, bytes, s));
    LocalBenchOptions co = o;
    co.reps = std::min(o.reps, 30);
    co.warmup = std::max(1, std::min(o.warmup, 3));
    const TimingStats c = compute_stats(time_runs([&] { launch_copy(src.get(), dst.get(), bytes, s); }, s, co), 2 * bytes);
    rep.copy_gbps = c.median_gbps;
  }
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
      LocalBenchEntry e;
      e.workload = wl.name;
      e.variant = vname;
      e.width = W;
      e.height = H;
      e.ndisp = p.ndisp;
      // One checked run outside the timing (the map buffer is poisoned first).
      st.disp.reserve(n * sizeof(float));
      CUDA_CHECK_THROW(cudaMemsetAsync(st.disp.get(), 0xff, n * sizeof(float), s));
      st.compute(k, p.lr_check != 0, v, s);
      st.download(s);
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));
      const float* d = st.host_disp();
      if (o.check_cpu) {
        e.checked = true;
        for (std::size_t i = 0; i < n; ++i) e.mismatches += d[i] != static_cast<float>(ref[i]);
        e.exact = e.mismatches == 0;
      }
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
        e.scored = cnt_all > 0;
        e.bad1_all = cnt_all > 0 ? 100.0 * bad_all / cnt_all : 0.0;
        e.bad1_nonocc = cnt_no > 0 ? 100.0 * bad_no / cnt_no : 0.0;
      }
      const std::vector<double> ms = time_runs([&] { st.compute(k, p.lr_check != 0, v, s); }, s, o);
      const std::vector<double> total = time_runs(
          [&] {
            st.upload(s);
            st.compute(k, p.lr_check != 0, v, s);
            st.download(s);
          },
          s, o);
      const TimingStats a = compute_stats(ms, 0), b = compute_stats(total, 0);
      e.reps = static_cast<int>(ms.size());
      e.median_ms = a.median_ms;
      e.min_ms = a.min_ms;
      e.median_total_ms = b.median_ms;
      const double estimations = static_cast<double>(W) * H * p.ndisp;
      e.mde_per_s = a.median_ms > 0 ? estimations / (a.median_ms * 1e-3) / 1e6 : 0.0;
      e.fps = a.median_ms > 0 ? 1000.0 / a.median_ms : 0.0;
      e.fps_total = b.median_ms > 0 ? 1000.0 / b.median_ms : 0.0;
      e.bytes = local_pass_bytes(W, H, k, p.lr_check != 0, v);
      e.gbps = a.median_ms > 0 ? static_cast<double>(e.bytes) / (a.median_ms * 1e-3) / 1e9 : 0.0;
      rep.entries.push_back(e);
    }
  }
  return rep;
}

std::string format_local_bench_report(const LocalBenchReport& r) {
  std::ostringstream out;
  out << "device: " << r.device.describe() << "\n";
  out << "parameters: r " << r.params.radius << ", gamma " << r.params.gamma << ", T " << r.params.truncation
      << ", variable windows " << r.params.variable_windows << ", lr check " << r.params.lr_check << "\n";
  out << "timing: CUDA events, " << r.options.warmup << " warm-up runs, up to " << r.options.reps
      << " timed (fewer past " << r.options.max_seconds << " s), median; compute = pair resident, "
      << "total = + upload of the pair + download of the map\n";
  char line[512];
  std::snprintf(line, sizeof line, "copy kernel: %.0f GB/s (read + write)\n", r.copy_gbps);
  out << line;
  std::snprintf(line, sizeof line, "%-18s %-8s %5s %10s %10s %10s %9s %8s %9s %8s %6s %-7s %9s %9s\n", "workload",
                "variant", "reps", "median_ms", "min_ms", "total_ms", "Mde/s", "fps", "fps_tot", "GB/s", "%copy",
                "vs_cpu", "bad1_noc", "bad1_all");
  out << line;
  for (const auto& e : r.entries) {
    const std::string wl = e.workload + " " + std::to_string(e.width) + "x" + std::to_string(e.height) + "x" +
                           std::to_string(e.ndisp);
    std::string check = "-", bad_no = "-", bad_all = "-";
    if (e.checked) check = e.exact ? std::string("exact") : std::string("!") + std::to_string(e.mismatches);
    char num[32];
    if (e.scored) {
      std::snprintf(num, sizeof num, "%.2f", e.bad1_nonocc);
      bad_no = num;
      std::snprintf(num, sizeof num, "%.2f", e.bad1_all);
      bad_all = num;
    }
    std::snprintf(line, sizeof line,
                  "%-18s %-8s %5d %10.4f %10.4f %10.4f %9.0f %8.1f %9.1f %8.1f %6.1f %-7s %9s %9s\n", wl.c_str(),
                  e.variant.c_str(), e.reps, e.median_ms, e.min_ms, e.median_total_ms, e.mde_per_s, e.fps, e.fps_total,
                  e.gbps, r.copy_gbps > 0 ? 100.0 * e.gbps / r.copy_gbps : 0.0, check.c_str(), bad_no.c_str(),
                  bad_all.c_str());
    out << line;
  }
  out << "Mde/s: million disparity estimations per second (w x h x ndisp / compute median); seed anchors:\n"
         "129 fps at 450x375x60 (GeForce 8800 GT, phase 5), 605 Mde/s (GeForce 7900, Lu et al.);\n"
         "GB/s: global bytes a pass must move (planes between the kernels; fused: images + result) / median;\n"
         "vs_cpu: map identical to the CPU reference (else the number of differing pixels);\n"
         "bad1: % of pixels with known truth where |d - truth| > 1 (non-occluded / all)\n";
  return out.str();
}

std::string local_bench_report_json(const LocalBenchReport& r) {
  nlohmann::json j;
  j["device"] = r.device.describe();
  j["params"] = {{"radius", r.params.radius}, {"gamma", r.params.gamma}, {"truncation", r.params.truncation},
                 {"variable_windows", r.params.variable_windows}, {"lr_check", r.params.lr_check}};
  j["warmup"] = r.options.warmup;
  j["reps"] = r.options.reps;
  j["max_seconds"] = r.options.max_seconds;
  j["copy_gbps"] = r.copy_gbps;
  j["entries"] = nlohmann::json::array();
  for (const auto& e : r.entries) {
    nlohmann::json x = {{"workload", e.workload}, {"variant", e.variant},   {"width", e.width},
                        {"height", e.height},     {"ndisp", e.ndisp},       {"reps", e.reps},
                        {"median_ms", e.median_ms}, {"min_ms", e.min_ms},   {"median_total_ms", e.median_total_ms},
                        {"mde_per_s", e.mde_per_s}, {"fps", e.fps},         {"fps_total", e.fps_total}, {"bytes", e.bytes}, {"gbps", e.gbps},
                        {"checked", e.checked},   {"exact", e.exact},       {"mismatches", e.mismatches}};
    if (e.scored) {
      x["bad1_nonocc"] = e.bad1_nonocc;
      x["bad1_all"] = e.bad1_all;
    }
    j["entries"].push_back(x);
  }
  return j.dump(2);
}

}  // namespace lb::cuda
