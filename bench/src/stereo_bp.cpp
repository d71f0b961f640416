// `lightbench-cli bench stereo`: every BP CUDA variant and the tuned hybrid on each case;
// CUDA events around the compute (pair on the device) and around upload (pinned) + compute
// + download; warm-up, median of the reps; pixels differing from the CPU reference;
// Middlebury bad pixels when truth exists.
#include <cuda_runtime_api.h>

#include "bench_device.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/bench/stereo_bp.hpp"
#include "stereo_bp/stereo_cuda.hpp"
#include "lightbench/stereo_metrics.hpp"
#include "lightbench/timing.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"
#include "timer.hpp"

namespace lb::bench {

using namespace cuda::detail;

Report bench_stereo(const std::vector<StereoBenchCase>& cases, const StereoBenchOptions& o) {
  LB_REQUIRE(o.reps >= 1 && o.warmup >= 0, "bench stereo: reps >= 1, warmup >= 0");
  Report rep;
  rep.device = detail::bench_device("bench stereo", o.device);
  rep.keys.label = "variant";
  rep.keys.kernel.clear();
  rep.keys.max_ms.clear();
  rep.keys.bytes.clear();
  rep.keys.gbps.clear();
  rep.keys.checked.clear();
  rep.keys.exact.clear();
  rep.keys.mismatches = "differing_vs_cpu";
  rep.fields = {json_field("warmup", std::int64_t{o.warmup}), json_field("reps", std::int64_t{o.reps})};
  Stream stream;
  const cudaStream_t s = stream.get();
  detail::TimerOptions to;
  to.warmup = o.warmup;
  to.reps = o.reps;
  to.wait_each = true;  // a BP run is dozens of launches: time them as one run sees them
  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);
  BpDevice dev;
  Table& entries = rep.table("entries");
  for (const StereoBenchCase& cs : cases) {
    stereo::BpParams p = o.params;
    p.ndisp = cs.ndisp;
    stereo::validate(p, cs.pair);
    dev.set_pair(cs.pair);
    const ImageF ref = stereo::bp_stereo_cpu(cs.pair, p);
    for (const std::string& vname : cuda::bp_stereo_variants()) {
      Row e;
      e.add(lead_field("scene", cs.name, "scene"));
      e.add(json_field("width", std::int64_t{cs.pair.left.width}));
      e.add(json_field("height", std::int64_t{cs.pair.left.height}));
      e.add(lead_field("", std::to_string(cs.pair.left.width) + "x" + std::to_string(cs.pair.left.height), "size"));
      e.add(lead_field("ndisp", std::int64_t{p.ndisp}, "L"));
      BpConfig c;
      bool fallback = false;
      std::string tuning;
      dev.upload(s);
      if (!bp_parse_variant(vname, p.ndisp, &c, &fallback)) {
        const cuda::BpTuneResult t = bp_is_auto(vname)
                                         ? bp_autotune_any(dev, p, rep.device.name, vname == "auto:float", s)
                                         : bp_autotune(dev, p, rep.device.name, s);
        c = bp_config_of(t.best, p.ndisp);
        tuning = t.describe();
      }
      bp_fit_config(c, p.ndisp, dev.max_shared_bytes());
      e.label = fallback ? "registers->local" : bp_is_auto(vname) ? vname + " -> " + c.name() : c.name();
      // The pair is on the device (uploaded above): compute alone, then with the transfers.
      e.set_times(timer.time([&] { dev.compute(p, c, s); }));
      const std::vector<double> total = timer.time([&] {
        dev.upload(s);
        dev.compute(p, c, s);
        dev.download(s);
      });
      e.add(field("median_ms_total", compute_stats(total, 0).median_ms, "total ms", 4));
      ImageF map;
      dev.copy_map(map);
      std::uint64_t differing = 0;
      for (std::size_t i = 0; i < map.data.size(); ++i) differing += map.data[i] != ref.data[i];
      e.set_check(differing);
      e.add(json_field("tuning", tuning));
      if (!cs.gt.empty()) {
        const stereo::StereoScore score = stereo::score_stereo(map, cs.gt);
        e.add(field("bad1_nonocc", score.nonocc.percent, "nonocc%", 2));
        e.add(field("bad1_all", score.all.percent, "all%", 2));
        e.add(field("bad1_disc", score.disc.percent, "disc%", 2));
      }
      if (!tuning.empty()) rep.notes.push_back("tuning " + cs.name + " L=" + std::to_string(p.ndisp) + ": " + tuning);
      entries.rows.push_back(e);
    }
  }
  const stereo::BpParams& bp = o.params;
  rep.preamble = {"BP: levels " + std::to_string(bp.levels) + ", iterations " + std::to_string(bp.iterations) +
                      ", lambda " + detail::num(bp.lambda) + ", tau_data " + detail::num(bp.tau_data) +
                      ", tau_disc " + detail::num(bp.tau_disc) + ", sigma " + detail::num(bp.sigma),
                  "timing: CUDA events, " + std::to_string(o.warmup) + " warm-up runs, median of " +
                      std::to_string(o.reps) + "; ms = compute on the device, total = upload (pinned) + compute + "
                      "download (timed separately)"};
  rep.notes.push_back("exact: map identical to the CPU reference (else the number of differing pixels);");
  rep.notes.push_back("bad pixels (> 1): % of non-occluded / all / near-discontinuity pixels with known truth;");
  rep.notes.push_back("the reference implementation at equal settings (5 levels x 7 iterations, one H100): "
                      "docs/PERFORMANCE.md");
  return rep;
}

}  // namespace lb::bench
