// `lightbench-cli bench stereo`: every BP CUDA variant and the tuned hybrid on each case;
// CUDA events around upload (pinned) / compute / download; warm-up, median of the reps;
// pixels differing from the CPU reference; Middlebury bad pixels when truth exists.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/stereo_bp.hpp"
#include "stereo_bp_launch.hpp"

namespace lb::cuda {

using namespace detail;

namespace {
double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}
}  // namespace

StereoBenchReport bench_stereo(const std::vector<StereoBenchCase>& cases, const StereoBenchOptions& o) {
  std::string why;
  if (!cuda_available(&why)) throw Error("bench stereo: " + why);
  LB_REQUIRE(o.reps >= 1 && o.warmup >= 0, "bench stereo: reps >= 1, warmup >= 0");
  CUDA_CHECK_THROW(cudaSetDevice(o.device));
  StereoBenchReport rep;
  rep.options = o;
  rep.device = device_info(o.device);
  LB_REQUIRE(rep.device.available, "bench stereo: " + rep.device.why);
  Stream stream;
  const cudaStream_t s = stream.get();
  BpDevice dev;
  Event e0, e1, e2, e3;
  for (const StereoBenchCase& cs : cases) {
    stereo::BpParams p = o.params;
    p.ndisp = cs.ndisp;
    stereo::validate(p, cs.pair);
    dev.set_pair(cs.pair);
    const ImageF ref = stereo::bp_stereo_cpu(cs.pair, p);
    for (const std::string& vname : bp_stereo_variants()) {
      StereoBenchEntry e;
      e.scene = cs.name;
      e.width = cs.pair.left.width;
      e.height = cs.pair.left.height;
      e.ndisp = p.ndisp;
      BpConfig c;
      bool fallback = false;
      dev.upload(s);
      if (!bp_parse_variant(vname, p.ndisp, &c, &fallback)) {
        const BpTuneResult t = bp_autotune(dev, p, rep.device.name, s);
        c.store = BpStore::Hybrid;
        c.reg = t.best.reg;
        c.shared = t.best.shared;
        c.block_x = t.best.block_x;
        c.block_y = t.best.block_y;
        e.tuning = t.describe();
      }
      bp_fit_config(c, p.ndisp, dev.max_shared_bytes());
      e.variant = fallback ? "registers->local" : (c.store == BpStore::Hybrid ? "hybrid:" + std::to_string(c.reg) + "," + std::to_string(c.shared) : vname);
      for (int i = 0; i < o.warmup; ++i) {
        dev.upload(s);
        dev.compute(p, c, s);
        dev.download(s);
      }
      std::vector<double> ms, total;
      for (int i = 0; i < o.reps; ++i) {
        CUDA_CHECK_THROW(cudaEventRecord(e0.get(), s));
        dev.upload(s);
        CUDA_CHECK_THROW(cudaEventRecord(e1.get(), s));
        dev.compute(p, c, s);
        CUDA_CHECK_THROW(cudaEventRecord(e2.get(), s));
        dev.download(s);
        CUDA_CHECK_THROW(cudaEventRecord(e3.get(), s));
        CUDA_CHECK_THROW(cudaEventSynchronize(e3.get()));
        float a = 0, b = 0;
        CUDA_CHECK_THROW(cudaEventElapsedTime(&a, e1.get(), e2.get()));
        CUDA_CHECK_THROW(cudaEventElapsedTime(&b, e0.get(), e3.get()));
        ms.push_back(a);
        total.push_back(b);
      }
      e.reps = o.reps;
      e.median_ms = median_of(ms);
      e.median_ms_total = median_of(total);
      e.min_ms = *std::min_element(ms.begin(), ms.end());
      ImageF map;
      dev.copy_map(map);
      for (std::size_t i = 0; i < map.data.size(); ++i) e.differing_vs_cpu += map.data[i] != ref.data[i];
      if (!cs.gt.empty()) {
        e.scored = true;
        e.score = stereo::score_stereo(map, cs.gt);
      }
      rep.entries.push_back(e);
    }
  }
  return rep;
}

std::string format_stereo_bench_report(const StereoBenchReport& r) {
  std::ostringstream out;
  out << "device: " << r.device.describe() << "\n";
  out << "BP: levels " << r.options.params.levels << ", iterations " << r.options.params.iterations << ", lambda "
      << r.options.params.lambda << ", tau_data " << r.options.params.tau_data << ", tau_disc "
      << r.options.params.tau_disc << ", sigma " << r.options.params.sigma << "\n";
  out << "timing: CUDA events, " << r.options.warmup << " warm-up runs, median of " << r.options.reps
      << "; ms = compute on the device, total = upload (pinned) + compute + download\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-18s %-9s %4s %-20s %9s %9s %9s %8s %8s %8s %8s\n", "scene", "size", "L",
                "variant", "ms", "total_ms", "min_ms", "!=cpu", "nonocc%", "all%", "disc%");
  out << line;
  for (const auto& e : r.entries) {
    const std::string size = std::to_string(e.width) + "x" + std::to_string(e.height);
    std::snprintf(line, sizeof line, "%-18s %-9s %4d %-20s %9.3f %9.3f %9.3f %8llu", e.scene.c_str(), size.c_str(),
                  e.ndisp, e.variant.c_str(), e.median_ms, e.median_ms_total, e.min_ms,
                  static_cast<unsigned long long>(e.differing_vs_cpu));
    out << line;
    if (e.scored) {
      std::snprintf(line, sizeof line, " %8.2f %8.2f %8.2f\n", e.score.nonocc.percent, e.score.all.percent,
                    e.score.disc.percent);
      out << line;
    } else {
      out << "        -        -        -\n";
    }
  }
  for (const auto& e : r.entries)
    if (!e.tuning.empty()) out << "tuning " << e.scene << " L=" << e.ndisp << ": " << e.tuning << "\n";
  out << "anchors (H100 PCIe, incl. transfers): tsukuba 0.92 ms, venus 1.38 ms, 450x375 L=64 5.84 ms\n";
  return out.str();
}

std::string stereo_bench_report_json(const StereoBenchReport& r) {
  nlohmann::json j;
  j["device"] = r.device.describe();
  j["warmup"] = r.options.warmup;
  j["reps"] = r.options.reps;
  j["entries"] = nlohmann::json::array();
  for (const auto& e : r.entries) {
    nlohmann::json x = {{"scene", e.scene},           {"width", e.width},
                        {"height", e.height},         {"ndisp", e.ndisp},
                        {"variant", e.variant},       {"reps", e.reps},
                        {"median_ms", e.median_ms},   {"median_ms_total", e.median_ms_total},
                        {"min_ms", e.min_ms},         {"differing_vs_cpu", e.differing_vs_cpu},
                        {"tuning", e.tuning}};
    if (e.scored) {
      x["bad1_nonocc"] = e.score.nonocc.percent;
      x["bad1_all"] = e.score.all.percent;
      x["bad1_disc"] = e.score.disc.percent;
    }
    j["entries"].push_back(x);
  }
  return j.dump(2);
}

}  // namespace lb::cuda
