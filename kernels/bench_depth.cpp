// `lightbench-cli bench depth`: times the depth variants (Original, Sync, NoSync and a few
// launch shapes) with CUDA events after warm-up, each launch separately on a cold L2; checks
// every variant's map against the Original's, and the Original's against lb::depth_cpu,
// once, outside the timing.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "depth_launch.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/plenoptic_depth.hpp"
#include "lightbench/timing.hpp"

namespace lb::cuda {

namespace {
std::uint64_t count_diff(const ImageF& a, const ImageF& b) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) n += a.data[i] != b.data[i];
  return n;
}
}  // namespace

DepthBenchReport bench_depth(const ImageU8& raw_in, const PlenopticGrid& grid, const DepthParams& params,
                             const std::vector<DepthBenchVariant>& variants,
                             const DepthBenchOptions& options, const ImageF* truth) {
  using namespace detail;
  DepthBenchReport rep;
  rep.device = bench_device("bench depth", options.device);
  LB_REQUIRE(!raw_in.empty(), "bench depth: raw image is empty");
  LB_REQUIRE(!variants.empty(), "bench depth: no variants");
  rep.options = options;
  rep.options.reps = std::max(50, options.reps);
  rep.options.warmup = std::max(1, options.warmup);

  const DepthTablesHost tables = build_depth_tables(grid, params, raw_in.width, raw_in.height);
  const DepthLayout& L = tables.layout;
  const std::uint64_t bytes = depth_bytes(tables);
  const auto num = bench_num;
  rep.workload = raw_grid_workload(L.raw_w, L.raw_h, grid) + ", M=" + std::to_string(L.patch) +
                 " P=" + std::to_string(L.pmin) + ".." + std::to_string(L.pmax) + " (" +
                 std::to_string(L.count()) + " sizes) lim=" + std::to_string(L.lim) + " window=" +
                 std::to_string(L.window) + " aperture=" + num(params.aperture) + " -> " + std::to_string(L.out_w) + "x" +
                 std::to_string(L.out_h) + ", " + std::to_string(depth_touched_pixels(tables)) +
                 " raw pixels touched";

  Stream stream;
  const cudaStream_t s = stream.get();
  PitchedBuffer d_rgba, d_rgb, d_out;
  RawDevice raw;
  upload_raw(raw_in, d_rgba, d_rgb, raw, s);

  std::vector<int> pack(tables.col_start);
  pack.insert(pack.end(), tables.row_start.begin(), tables.row_start.end());
  DeviceBuffer d_tables(pack.size() * 4);
  CUDA_CHECK_THROW(cudaMemcpy(d_tables.get(), pack.data(), pack.size() * 4, cudaMemcpyHostToDevice));
  DepthTablesDevice dt;
  dt.col_start = d_tables.as<int>();
  dt.row_start = d_tables.as<int>() + tables.col_start.size();
  DeviceBuffer d_scratch(std::max<std::size_t>(16, depth_scratch_bytes(L)));

  const std::size_t ow = static_cast<std::size_t>(L.out_w), oh = static_cast<std::size_t>(L.out_h);
  d_out.resize(ow * 4, oh);
  OutputDevice out;
  out.kind = OutputDevice::Kind::Pitched;
  out.ptr = d_out.get();
  out.pitch = d_out.pitch();

  auto run = [&](const DepthBenchVariant& v) {
    launch_depth(L, dt, raw, v.variant, v.tuning, d_scratch.as<std::uint32_t>(), out, s);
  };
  auto read_out = [&] {
    ImageF img(L.out_w, L.out_h, 1);
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(img.data.data(), ow * 4, d_out.get(), d_out.pitch(), ow * 4, oh,
                                       cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return img;
  };
  auto poison = [&] { CUDA_CHECK_THROW(cudaMemset2DAsync(d_out.get(), d_out.pitch(), 0xA5, ow * 4, oh, s)); };

  LaunchTimer timer(s, rep.options.warmup, rep.options.reps, rep.options.flush_l2, rep.device.l2_bytes);
  auto time_launches = [&](const DepthBenchVariant& v) { return timer.time([&] { run(v); }); };

  // Reference: the Original at its default shape.
  const DepthBenchVariant ref_variant{"original", RenderVariant::Original, {}};
  poison();
  run(ref_variant);
  const ImageF ref = read_out();
  if (options.check_cpu) {
    const ImageF cpu = depth_cpu(to_rgba(raw_in), tables);
    rep.cpu_checked = true;
    rep.cpu_mismatches = count_diff(cpu, ref);
    rep.cpu_exact = rep.cpu_mismatches == 0;
  }
  if (truth && !truth->empty()) {
    const DepthScore sc = score_depth(ref, *truth);
    rep.scored = true;
    rep.exact_pct = sc.exact_pct;
    rep.mae = sc.mae;
  }
  double original_ms = 0.0;
  for (const DepthBenchVariant& v : variants) {
    DepthBenchEntry e;
    e.label = v.label.empty() ? to_string(v.variant) : v.label;
    e.kernel = std::string("depth/") + to_string(v.variant);
    e.bytes = bytes;
    poison();
    run(v);
    const ImageF img = read_out();
    e.mismatches = count_diff(img, ref);
    e.exact = e.mismatches == 0;
    const TimingStats st = compute_stats(time_launches(v), bytes);
    e.reps = static_cast<int>(st.count);
    e.median_ms = st.median_ms;
    e.min_ms = st.min_ms;
    e.max_ms = st.max_ms;
    e.median_gbps = st.median_gbps;
    if (original_ms == 0.0 && v.variant == RenderVariant::Original && v.tuning.original_block <= 0)
      original_ms = e.median_ms;
    rep.entries.push_back(e);
  }
  for (auto& e : rep.entries) e.speedup = original_ms > 0 && e.median_ms > 0 ? original_ms / e.median_ms : 0.0;
  return rep;
}

}  // namespace lb::cuda
