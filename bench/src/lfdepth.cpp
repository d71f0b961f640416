// `lightbench-cli bench lfdepth`: every CAE kernel variant at the seed workload (5x5 and
// 9x9 views, 75 labels), CUDA events around each depth pass (cost kernel + winner takes
// all), warm-up, median; exactness against the 256-bin GPU result (coalesced) and accuracy
// against the ground truth.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "bench_device.hpp"
#include "lightfield/cae_launch.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/bench/lfdepth.hpp"
#include "lightfield/cae_cuda.hpp"
#include "lightbench/hci_metrics.hpp"
#include "timer.hpp"

namespace lb::bench {

using cuda::detail::CaeKernel;
using cuda::detail::DeviceBuffer;
using cuda::detail::Stream;

Report bench_lfdepth(const LightField4D& lf, const LfBenchOptions& o) {
  Report rep;
  rep.device = detail::bench_device("bench lfdepth", o.device);
  validate(lf);
  LB_REQUIRE(o.reps >= 1 && o.warmup >= 0, "bench lfdepth: reps >= 1, warmup >= 0");
  rep.keys.label = "variant";
  rep.keys.kernel.clear();
  rep.keys.gbps.clear();
  rep.keys.checked.clear();
  rep.keys.exact = "bit_exact";
  rep.keys.mismatches = "label_mismatches";
  std::ostringstream wl;
  wl << lf.width << "x" << lf.height << " centre view, " << lf.nu << "x" << lf.nv << " views (" << lf.source << "), "
     << o.labels << " labels d in [" << o.dmin << ", " << o.dmax << "], sigma " << o.sigma;
  rep.workload = wl.str();
  rep.fields = {json_field("warmup", std::int64_t{o.warmup}), json_field("reps", std::int64_t{o.reps}),
                json_field("max_seconds", o.max_seconds)};

  Stream stream;
  const cudaStream_t s = stream.get();
  cuda::detail::CaeDeviceLightField dlf;
  dlf.upload(lf, s);
  const CaeRoi roi = resolve_roi({}, lf.width, lf.height);
  const std::size_t npx = static_cast<std::size_t>(roi.w) * roi.h;
  DeviceBuffer d_tables, d_cost, d_maps;
  const std::vector<float> tables = cuda::detail::cae_weight_tables(o.sigma);
  d_tables.allocate(tables.size() * 4);
  CUDA_CHECK_THROW(cudaMemcpy(d_tables.get(), tables.data(), tables.size() * 4, cudaMemcpyHostToDevice));
  d_cost.allocate(npx * static_cast<std::size_t>(o.labels) * 4);
  d_maps.allocate(npx * 12);
  float* d_disp = d_maps.as<float>();
  int* d_label = reinterpret_cast<int*>(d_disp + npx);
  float* d_conf = d_disp + 2 * npx;

  detail::TimerOptions to;
  to.warmup = o.warmup;
  to.reps = o.reps;
  to.max_seconds = o.max_seconds;
  to.min_reps = 5;
  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);
  Table& entries = rep.table("entries");
  for (int n : o.windows) {
    CaeParams p;
    p.views = n;
    p.labels = o.labels;
    p.dmin = o.dmin;
    p.dmax = o.dmax;
    p.sigma = o.sigma;
    (void)angular_window(lf, n);
    auto pass = [&](CaeKernel k) {
      p.method = cuda::detail::cae_kernel_method(k);
      cuda::detail::launch_cae_cost(dlf, p, roi, k, d_tables.as<float>(), d_cost.as<float>(), s);
      cuda::detail::launch_cae_wta(p, roi, d_cost.as<float>(), d_disp, d_label, d_conf, s);
    };
    auto download = [&](std::vector<float>& cost, std::vector<int>& label) {
      cost.resize(npx * static_cast<std::size_t>(o.labels));
      label.resize(npx);
      CUDA_CHECK_THROW(cudaMemcpyAsync(cost.data(), d_cost.get(), cost.size() * 4, cudaMemcpyDeviceToHost, s));
      CUDA_CHECK_THROW(cudaMemcpyAsync(label.data(), d_label, npx * 4, cudaMemcpyDeviceToHost, s));
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    };
    std::vector<float> ref_cost;
    std::vector<int> ref_label;
    std::vector<Row> window;
    std::vector<CaeKernel> kernels;
    for (const std::string& vname : cuda::cae_variants()) {
      const CaeKernel k = cuda::detail::parse_cae_kernel(vname);
      // One checked pass, outside the timing.
      CUDA_CHECK_THROW(cudaMemsetAsync(d_cost.get(), 0xff, d_cost.size(), s));
      pass(k);
      std::vector<float> cost;
      std::vector<int> label;
      ImageF disp(roi.w, roi.h, 1);
      CUDA_CHECK_THROW(cudaMemcpyAsync(disp.data.data(), d_disp, npx * 4, cudaMemcpyDeviceToHost, s));
      download(cost, label);
      Row e;
      e.label = vname;
      e.add(json_field("views", std::int64_t{n}));
      e.add(lead_field("", std::to_string(n) + "x" + std::to_string(n), "window"));
      e.add(field("method", std::string(to_string(p.method)), "method"));
      e.bytes = cuda::detail::cae_cost_bytes(p, roi, lf.width, lf.height, k) + cuda::detail::cae_wta_bytes(p, roi);
      if (k == CaeKernel::Coalesced) {
        ref_cost = cost;
        ref_label = label;
      }
      const HciScore score = lf.has_gt() ? hci_score(disp, lf.gt, 15) : HciScore{};
      // Timing: warm-up, then reps (fewer past the budget), one event pair per pass.
      e.set_times(timer.time([&] { pass(k); }));
      e.add(field("badpix_007", score.badpix_007, "BP0.07", 2));
      e.add(field("badpix_003", score.badpix_003, "BP0.03", 2));
      e.add(field("badpix_001", score.badpix_001, "BP0.01", 2));
      e.add(field("mse_x100", score.mse_x100, "MSEx100", 3));
      window.push_back(e);
      kernels.push_back(k);
    }
    // Exactness vs the 256-bin GPU result (coalesced), now that it is known: a fresh pass
    // per variant (cheap) instead of keeping every cost volume.
    for (std::size_t i = 0; i < window.size(); ++i) {
      Row& e = window[i];
      pass(kernels[i]);
      std::vector<float> cost;
      std::vector<int> label;
      download(cost, label);
      std::uint64_t label_mismatches = 0;
      double max_cost_diff = 0;
      for (std::size_t j = 0; j < npx; ++j) label_mismatches += label[j] != ref_label[j];
      for (std::size_t j = 0; j < cost.size(); ++j)
        max_cost_diff = std::max(max_cost_diff, static_cast<double>(std::fabs(cost[j] - ref_cost[j])));
      e.checked = true;
      e.exact = std::memcmp(cost.data(), ref_cost.data(), cost.size() * 4) == 0 && label == ref_label;
      e.mismatches = label_mismatches;
      e.add(json_field("compared_to", std::string("coalesced (256-bin CAE, GPU)")));
      e.add(field("max_cost_diff", max_cost_diff, "max|dC|"));
      e.add(text_field("speedup", e.median_ms > 0 ? window.front().median_ms / e.median_ms : 0.0, 2));
      entries.rows.push_back(e);
    }
  }
  rep.preamble = {"timing: CUDA events around cost kernel + winner-takes-all, " + std::to_string(o.warmup) +
                  " warm-up passes, up to " + std::to_string(o.reps) + " timed (fewer past " +
                  detail::num(o.max_seconds) + " s), median"};
  rep.notes = {"exact runs " + cuda::detail::exact_dispatch_note(),
               "speedup: over the first variant (baseline) of the same window; exact: costs and labels bit-identical",
               "to coalesced (exact_terms sums the same exact CAE per sample: 'NO' is expected, max|dC| is its float",
               "error; NO (n): n labels differ); BadPix/MSE: HCI protocol (15 px border) against the light field's",
               "ground truth"};
  return rep;
}

}  // namespace lb::bench
