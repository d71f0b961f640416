// `lightbench-cli bench depth`: times the depth variants (Original, Sync, NoSync and a few
// launch shapes) with CUDA events after warm-up, each launch separately on a cold L2; checks
// every variant's map against the Original's, and the Original's against lb::depth_cpu,
// once, outside the timing.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_device.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "plenoptic/depth_launch.hpp"
#include "lightbench/bench/depth.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "timer.hpp"

namespace lb::bench {

namespace {

using cuda::detail::DeviceBuffer;
using cuda::detail::OutputDevice;
using cuda::detail::PitchedBuffer;
using cuda::detail::RawDevice;
using cuda::detail::Stream;

std::uint64_t count_diff(const ImageF& a, const ImageF& b) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) n += a.data[i] != b.data[i];
  return n;
}

}  // namespace

std::vector<DepthBenchVariant> default_depth_variants() {
  using V = RenderVariant;
  return {
      {"original", V::Original, {}},
      {"original tests", V::Original, {0, 0, 0, 1}},
      {"sync", V::Sync, {}},
      {"nosync", V::NoSync, {}},
      {"original block=256", V::Original, {256, 0, 0}},
      {"sync rows=2", V::Sync, {0, 0, 2}},
      {"nosync rows=2", V::NoSync, {0, 0, 2}},
      {"nosync chunk=24", V::NoSync, {0, 24, 0}},
      {"nosync chunk=96", V::NoSync, {0, 96, 0}},
  };
}

Report bench_depth(const ImageU8& raw_in, const PlenopticGrid& grid, const DepthParams& params,
                   const std::vector<DepthBenchVariant>& variants, const DepthBenchOptions& options,
                   const ImageF* truth) {
  Report rep;
  rep.device = detail::bench_device("bench depth", options.device);
  LB_REQUIRE(!raw_in.empty(), "bench depth: raw image is empty");
  LB_REQUIRE(!variants.empty(), "bench depth: no variants");
  rep.keys.checked.clear();  // every map is checked; the JSON has only exact / mismatches
  detail::TimerOptions to;
  to.reps = std::max(50, options.reps);
  to.warmup = std::max(1, options.warmup);
  to.flush_l2 = options.flush_l2;

  const DepthTablesHost tables = build_depth_tables(grid, params, raw_in.width, raw_in.height);
  const DepthLayout& L = tables.layout;
  const std::uint64_t bytes = depth_bytes(tables);
  rep.workload = detail::raw_grid_workload(L.raw_w, L.raw_h, grid) + ", M=" + std::to_string(L.patch) +
                 " P=" + std::to_string(L.pmin) + ".." + std::to_string(L.pmax) + " (" + std::to_string(L.count()) +
                 " sizes) lim=" + std::to_string(L.lim) + " window=" + std::to_string(L.window) +
                 " aperture=" + detail::num(params.aperture) + " -> " + std::to_string(L.out_w) + "x" +
                 std::to_string(L.out_h) + ", " + std::to_string(depth_touched_pixels(tables)) + " raw pixels touched";

  Stream stream;
  const cudaStream_t s = stream.get();
  PitchedBuffer d_rgba, d_rgb, d_out;
  RawDevice raw;
  cuda::detail::upload_raw(raw_in, d_rgba, d_rgb, raw, s);

  const std::vector<std::uint64_t> pack = cuda::detail::pack_depth_tables(tables);
  DeviceBuffer d_tables(pack.size() * 8);
  CUDA_CHECK_THROW(cudaMemcpy(d_tables.get(), pack.data(), pack.size() * 8, cudaMemcpyHostToDevice));
  const cuda::detail::DepthTablesDevice dt = cuda::detail::depth_tables_on_device(d_tables.get(), tables);
  DeviceBuffer d_scratch(std::max<std::size_t>(16, cuda::detail::depth_scratch_bytes(L)));

  const std::size_t ow = static_cast<std::size_t>(L.out_w), oh = static_cast<std::size_t>(L.out_h);
  d_out.resize(ow * 4, oh);
  OutputDevice out;
  out.kind = OutputDevice::Kind::Pitched;
  out.ptr = d_out.get();
  out.pitch = d_out.pitch();

  auto run = [&](const DepthBenchVariant& v) {
    cuda::detail::launch_depth(L, dt, raw, v.variant, v.tuning, d_scratch.as<std::uint32_t>(), out, s);
  };
  auto read_out = [&] {
    ImageF img(L.out_w, L.out_h, 1);
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(img.data.data(), ow * 4, d_out.get(), d_out.pitch(), ow * 4, oh,
                                       cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return img;
  };
  auto poison = [&] { CUDA_CHECK_THROW(cudaMemset2DAsync(d_out.get(), d_out.pitch(), 0xA5, ow * 4, oh, s)); };

  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);

  // Reference: the Original at its default shape.
  const DepthBenchVariant ref_variant{"original", RenderVariant::Original, {}};
  poison();
  run(ref_variant);
  const ImageF ref = read_out();
  bool cpu_checked = false, cpu_exact = false;
  std::uint64_t cpu_mismatches = 0;
  if (options.check_cpu) {
    cpu_checked = true;
    cpu_mismatches = count_diff(depth_cpu(to_rgba(raw_in), tables), ref);
    cpu_exact = cpu_mismatches == 0;
  }
  rep.fields = {json_field("warmup", std::int64_t{to.warmup}), json_field("reps", std::int64_t{to.reps}),
                json_field("flush_l2", to.flush_l2), json_field("cpu_checked", cpu_checked),
                json_field("cpu_exact", cpu_exact)};
  std::string score_line;
  if (truth && !truth->empty()) {
    const DepthScore sc = score_depth(ref, *truth);
    rep.fields.push_back(json_field("exact_pct", sc.exact_pct));
    rep.fields.push_back(json_field("mae", sc.mae));
    char line[128];
    std::snprintf(line, sizeof line, "ground truth: %.2f %% exact, MAE %.4f patch sizes", sc.exact_pct, sc.mae);
    score_line = line;
  }

  Table& entries = rep.table("entries");
  double original_ms = 0.0;
  bool all_exact = !cpu_checked || cpu_exact;
  for (const DepthBenchVariant& v : variants) {
    Row e;
    e.label = v.label.empty() ? to_string(v.variant) : v.label;
    e.kernel = std::string("depth/") + to_string(v.variant);
    e.bytes = bytes;
    poison();
    run(v);
    e.set_check(count_diff(read_out(), ref));
    all_exact = all_exact && e.exact;
    e.set_times(timer.time([&] { run(v); }));
    if (original_ms == 0.0 && v.variant == RenderVariant::Original && v.tuning.original_block <= 0)
      original_ms = e.median_ms;
    entries.rows.push_back(e);
  }
  for (Row& e : entries.rows)
    e.add(field("speedup", original_ms > 0 && e.median_ms > 0 ? original_ms / e.median_ms : 0.0, "speedup", 2));
  rep.all_exact = all_exact;

  rep.preamble = {"timing: CUDA events, " + std::to_string(to.warmup) + " warm-up + " + std::to_string(to.reps) +
                  " timed launches per variant, median" + (to.flush_l2 ? ", L2 flushed before each" : "") +
                  "; exact: map identical to the original's"};
  if (cpu_checked)
    rep.notes.push_back("original vs CPU reference (lb::depth_cpu, full map): " +
                        (cpu_exact ? std::string("identical")
                                   : "DIFFERENT (" + std::to_string(cpu_mismatches) + " px)"));
  if (!score_line.empty()) rep.notes.push_back(score_line);
  rep.notes.push_back(all_exact ? "all variants identical" : "MISMATCH");
  return rep;
}

}  // namespace lb::bench
