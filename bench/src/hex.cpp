// `lb_bench_hex`: times the general-grid passes (kernels/hex_*.cu, driven directly through
// hex_launch.hpp) per variant with CUDA events after warm-up, each launch on a cold L2; checks
// each output once, outside the timing, against the CPU reference (or the first variant's);
// then the copy kernel and the rectangular seed workload's NoSync render in the same run, so
// that ns per output pixel and % of the copy bandwidth compare like for like.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench_device.hpp"
#include "bench_kernels.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "device_plane.hpp"
#include "plenoptic_hex/hex_launch.hpp"
#include "lightbench/bench/hex.hpp"
#include "plenoptic_hex/hex_depth_math.hpp"
#include "plenoptic/render_tables.hpp"
#include "plenoptic/render_launch.hpp"
#include "timer.hpp"

namespace lb::bench {

namespace {

using cuda::detail::DeviceBuffer;
using cuda::detail::HexRawDevice;
using cuda::detail::HexTablesDevice;
using cuda::detail::HexVariant;
using cuda::detail::PitchedBuffer;
using cuda::detail::Stream;

std::string fmt(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

std::uint64_t count_diff_rgba(const ImageU8& a, const ImageU8& b) {
  if (!a.same_shape(b)) return a.pixels() + 1;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.data.size(); i += 4) n += std::memcmp(&a.data[i], &b.data[i], 4) != 0;
  return n;
}
std::uint64_t count_diff_f(const ImageF& a, const ImageF& b) {
  if (!a.same_shape(b)) return a.pixels() + 1;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) n += a.data[i] != b.data[i];
  return n;
}

// A pitched device image of w x h 4-byte pixels and its download.
struct DevOut {
  PitchedBuffer buf;
  int w = 0, h = 0;
  void allocate(int width, int height) {
    w = width;
    h = height;
    buf.resize(static_cast<std::size_t>(w) * 4, static_cast<std::size_t>(h), "a bench output");
  }
  DeviceTarget target() const {
    DeviceTarget t;
    t.kind = DeviceTarget::Kind::Pitched;
    t.ptr = buf.get();
    t.pitch = buf.pitch();
    t.width = w;
    t.height = h;
    return t;
  }
  void poison(cudaStream_t s) {
    CUDA_CHECK_THROW(cudaMemset2DAsync(buf.get(), buf.pitch(), 0xA5, static_cast<std::size_t>(w) * 4,
                                       static_cast<std::size_t>(h), s));
  }
  template <class Img>
  Img read(int channels, cudaStream_t s) const {
    Img img(w, h, channels);
    const std::size_t row = static_cast<std::size_t>(w) * 4;
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(img.data.data(), row, buf.get(), buf.pitch(), row, static_cast<std::size_t>(h),
                                       cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return img;
  }
};

// ns per output pixel, output pixels and touched pixels as extras.
void add_pixel_fields(Row& e, std::uint64_t out_px, std::uint64_t touched) {
  e.add(field("out_px", out_px, "out px"));
  e.add(field("ns_per_px", out_px ? e.median_ms * 1e6 / static_cast<double>(out_px) : 0.0, "ns/px", 3));
  e.add(field("touched", touched, "touched"));
}

// The seed workload (bench_render_main.cpp's): a random 7176 x 5382 RGB raw, grid 96 x 72,
// D = 74.75, M = 11, lim = 2, sigma 15, the NoSync render at its default shape.
Row time_seed_nosync(detail::LaunchTimer& timer, cudaStream_t s) {
  PlenopticGrid grid;
  grid.nx = 96;
  grid.ny = 72;
  grid.pitch = 74.75;
  const ImageU8 raw_in = bench_random_raw(7176, 5382, 2016);
  const RenderParams params;
  const RenderTablesHost tables = build_render_tables(grid, params, raw_in.width, raw_in.height);
  const RenderLayout& L = tables.layout;
  const std::uint64_t touched = render_touched_pixels(tables);
  PitchedBuffer d_rgba, d_rgb, d_out;
  cuda::detail::RawDevice raw;
  cuda::detail::upload_raw(raw_in, d_rgba, d_rgb, raw, s);
  std::vector<std::uint32_t> pack;
  for (int v : tables.col_start) pack.push_back(static_cast<std::uint32_t>(v));
  for (int v : tables.row_start) pack.push_back(static_cast<std::uint32_t>(v));
  pack.insert(pack.end(), tables.wx.begin(), tables.wx.end());
  pack.insert(pack.end(), tables.wy.begin(), tables.wy.end());
  DeviceBuffer d_tables(pack.size() * 4);
  CUDA_CHECK_THROW(cudaMemcpyAsync(d_tables.get(), pack.data(), pack.size() * 4, cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
  const auto* tp = d_tables.as<std::uint32_t>();
  cuda::detail::TablesDevice dt;
  dt.col_start = reinterpret_cast<const int*>(tp);
  dt.row_start = reinterpret_cast<const int*>(tp + tables.col_start.size());
  dt.wx = tp + tables.col_start.size() + tables.row_start.size();
  dt.wy = dt.wx + tables.wx.size();
  const std::size_t ow = static_cast<std::size_t>(L.out_w), oh = static_cast<std::size_t>(L.out_h);
  d_out.resize(ow * 4, oh);
  cuda::detail::OutputDevice out;
  out.kind = cuda::detail::OutputDevice::Kind::Pitched;
  out.ptr = d_out.get();
  out.pitch = d_out.pitch();
  RenderConfig cfg;
  cfg.variant = RenderVariant::NoSync;
  const cuda::KernelTuning tuning{};
  Row e;
  e.label = "seed workload: nosync (7176x5382, 96x72 D=74.75 M=11 lim=2)";
  e.kernel = "render/nosync";
  e.bytes = touched * 4 + static_cast<std::uint64_t>(ow) * oh * 4;
  e.set_times(timer.time([&] { cuda::detail::launch_render(L, dt, raw, cfg, tuning, out, s); }));
  add_pixel_fields(e, static_cast<std::uint64_t>(ow) * oh, touched);
  return e;
}

// The copy reference on a buffer of `bytes` (read + write), verified once.
Row time_copy(detail::LaunchTimer& timer, std::size_t raw_bytes, cudaStream_t s) {
  const std::size_t bytes = (raw_bytes + 15) / 16 * 16;
  DeviceBuffer src(bytes), dst(bytes);
  CUDA_CHECK_THROW(cudaMemsetAsync(src.get(), 0x5a, bytes, s));
  CUDA_CHECK_THROW(cudaMemsetAsync(dst.get(), 0xA5, bytes, s));
  Row e;
  e.label = "copy (16 B/thread)";
  e.kernel = "copy";
  e.bytes = 2ull * bytes;
  launch_copy(src.get(), dst.get(), bytes, s);
  std::vector<std::uint8_t> back(bytes);
  CUDA_CHECK_THROW(cudaMemcpyAsync(back.data(), dst.get(), bytes, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
  e.set_check(std::all_of(back.begin(), back.end(), [](std::uint8_t v) { return v == 0x5a; }) ? 0 : 1);
  e.set_times(timer.time([&] { launch_copy(src.get(), dst.get(), bytes, s); }));
  return e;
}

}  // namespace

ImageU8 bench_random_raw(int width, int height, std::uint64_t seed) {
  ImageU8 raw(width, height, 3);
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < raw.data.size(); i += 8) {
    std::uint64_t v = rng();
    for (std::size_t b = 0; b < 8 && i + b < raw.data.size(); ++b, v >>= 8)
      raw.data[i + b] = static_cast<std::uint8_t>(v);
  }
  return raw;
}

Report bench_hex(const ImageU8& raw_in, const MlaGeometry& geometry, const HexRunParams& params,
                 const HexBenchOptions& options) {
  Report rep;
  rep.device = detail::bench_device("bench hex", options.device);
  rep.device_fields = true;
  LB_REQUIRE(!raw_in.empty(), "bench hex: the raw is empty");
  LB_REQUIRE(!options.variants.empty(), "bench hex: no variants");
  std::vector<HexVariant> variants;
  for (const std::string& v : options.variants) variants.push_back(cuda::detail::parse_hex_variant(v));
  const MlaLayout layout(geometry);
  validate(params.render, geometry);
  validate(params.depth, geometry);
  const HexRenderParams& rp = params.render;
  const HexDepthParams& dp = params.depth;
  detail::TimerOptions to;
  to.reps = std::max(20, options.reps);
  to.warmup = std::max(1, options.warmup);
  to.flush_l2 = options.flush_l2;

  const HexTablesHost rt = build_hex_tables(layout, raw_in.width, raw_in.height, rp.patch, rp.rings, rp.lens_types);
  const HexTablesHost dt = build_hex_tables(layout, raw_in.width, raw_in.height, dp.patch, dp.rings, dp.lens_types);
  Stream stream;
  const cudaStream_t s = stream.get();
  const ImageU8 rgba = to_rgba(raw_in);
  cuda::detail::DeviceImage<uchar4> d_raw;
  d_raw.upload(rgba, s);
  const HexRawDevice raw{reinterpret_cast<const std::uint8_t*>(d_raw.data()), d_raw.pitch(), rgba.width, rgba.height};
  HexTablesDevice d_rt, d_dt;
  cuda::detail::upload_hex_tables(rt, d_rt, s);
  cuda::detail::upload_hex_tables(dt, d_dt, s);
  const hex::HexLayout& RL = d_rt.layout;
  const hex::HexLayout& DL = d_dt.layout;
  const float inv2s2 = hex_inv2s2(rp.sigma);
  const float ap2 = cuda::detail::hex_aperture2(DL, dp.aperture);
  const std::uint64_t render_px = static_cast<std::uint64_t>(RL.out_w) * RL.out_h;
  const std::uint64_t depth_px = static_cast<std::uint64_t>(DL.out_w) * DL.out_h;
  const std::uint64_t touched_render = cuda::detail::hex_touched_render(d_rt, raw, RL.patch, s);
  const std::uint64_t touched_depth = cuda::detail::hex_touched_depth(d_dt, raw, dp.pmin, dp.pmax, ap2, s);
  const std::uint64_t touched_aif = cuda::detail::hex_touched_render(d_dt, raw, dp.pmax, s);
  const std::size_t scratch_bytes = cuda::detail::hex_depth_scratch_bytes(DL, dp.pmin, dp.pmax, dp.window);
  DeviceBuffer scratch(std::max<std::size_t>(16, scratch_bytes), "the depth cost volume");
  DevOut render_out, depth_out, aif_out;
  render_out.allocate(RL.out_w, RL.out_h);
  depth_out.allocate(DL.out_w, DL.out_h);
  aif_out.allocate(DL.out_w, DL.out_h);
  const auto num = detail::num;
  rep.workload = "raw " + std::to_string(raw_in.width) + "x" + std::to_string(raw_in.height) + ", " +
                 to_string(geometry.kind) + " grid D=" + num(geometry.diameter) + " rotation " +
                 num(geometry.rotation) + ", " + std::to_string(geometry.types.size()) + " lens types; render M=" +
                 std::to_string(rp.patch) + " rings=" + std::to_string(rp.rings) +
                 " lens_types=" + std::to_string(rp.lens_types) + " sigma=" + num(rp.sigma) + " -> " +
                 std::to_string(RL.out_w) + "x" + std::to_string(RL.out_h) + "; depth P=" + std::to_string(dp.pmin) +
                 ".." + std::to_string(dp.pmax) + " rings=" + std::to_string(dp.rings) +
                 " window=" + std::to_string(dp.window) + " aperture=" + num(dp.aperture) +
                 " truncate=" + std::to_string(dp.truncate);

  auto run_render = [&](HexVariant v) {
    cuda::detail::launch_hex_render(v, d_rt, raw, RL.patch, rp.view_x, rp.view_y, inv2s2, render_out.target(), s);
  };
  auto run_depth = [&](HexVariant v) {
    cuda::detail::launch_hex_depth(v, d_dt, raw, dp.pmin, dp.pmax, ap2, hex::pair_cap(dp.truncate), dp.window,
                                   scratch.as<std::uint32_t>(),
                                   static_cast<float*>(depth_out.buf.get()), depth_out.buf.pitch(), s);
  };
  auto run_aif = [&](HexVariant v) {
    cuda::detail::launch_hex_aif(v, d_dt, raw, static_cast<const float*>(depth_out.buf.get()), depth_out.buf.pitch(),
                                 rp.view_x, rp.view_y, inv2s2, aif_out.target(), s);
  };

  // References: the CPU passes (outside any timing), else the first variant's outputs.
  std::optional<ImageU8> ref_render, ref_aif;
  std::optional<ImageF> ref_depth;
  if (options.check_cpu) {
    ref_render = render_hex(rgba, rt, rp);
    ref_depth = depth_hex(rgba, dt, dp);
    ref_aif = render_all_in_focus_hex(rgba, dt, rp, *ref_depth);
  }
  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);
  bool all_exact = true;
  Table& passes = rep.table("passes");
  for (HexVariant v : variants) {
    const std::string vn = cuda::detail::to_string(v);
    Row r;
    r.label = "render " + vn;
    r.kernel = "hex render/" + vn;
    r.bytes = touched_render * 4 + render_px * 4;
    render_out.poison(s);
    run_render(v);
    const ImageU8 img = render_out.read<ImageU8>(4, s);
    if (!ref_render) ref_render = img;
    r.set_check(count_diff_rgba(img, *ref_render));
    r.set_times(timer.time([&] { run_render(v); }));
    add_pixel_fields(r, render_px, touched_render);
    passes.rows.push_back(r);

    Row d;
    d.label = "depth " + vn;
    d.kernel = "hex depth/" + vn;
    d.bytes = touched_depth * 4 + depth_px * 4 + 2 * scratch_bytes;
    depth_out.poison(s);
    run_depth(v);
    const ImageF map = depth_out.read<ImageF>(1, s);
    if (!ref_depth) ref_depth = map;
    d.set_check(count_diff_f(map, *ref_depth));
    d.set_times(timer.time([&] { run_depth(v); }));
    add_pixel_fields(d, depth_px, touched_depth);
    passes.rows.push_back(d);

    // All-in-focus on the reference depth map (every variant renders the same map).
    Row a;
    a.label = "aif " + vn;
    a.kernel = "hex aif/" + vn;
    a.bytes = touched_aif * 4 + depth_px * 8;
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(depth_out.buf.get(), depth_out.buf.pitch(), ref_depth->data.data(),
                                       static_cast<std::size_t>(DL.out_w) * 4, static_cast<std::size_t>(DL.out_w) * 4,
                                       static_cast<std::size_t>(DL.out_h), cudaMemcpyHostToDevice, s));
    aif_out.poison(s);
    run_aif(v);
    const ImageU8 aimg = aif_out.read<ImageU8>(4, s);
    if (!ref_aif) ref_aif = aimg;
    a.set_check(count_diff_rgba(aimg, *ref_aif));
    a.set_times(timer.time([&] { run_aif(v); }));
    add_pixel_fields(a, depth_px, touched_aif);
    passes.rows.push_back(a);
    all_exact = all_exact && r.exact && d.exact && a.exact;
  }

  Row copy = time_copy(timer, rgba.data.size(), s);
  all_exact = all_exact && copy.exact;
  rep.copy_gbps = copy.gbps;
  Table& ct = rep.table("copy");
  ct.single = true;
  ct.rows.push_back(copy);
  std::optional<Row> seed;
  if (options.seed_workload) {
    seed = time_seed_nosync(timer, s);
    rep.table("seed").rows.push_back(*seed);
  }
  rep.all_exact = all_exact;
  rep.fields = {json_field("cpu_checked", options.check_cpu), json_field("options.warmup", std::int64_t{to.warmup}),
                json_field("options.reps", std::int64_t{to.reps}), json_field("options.flush_l2", to.flush_l2)};
  rep.preamble = {
      "timing: " + std::to_string(to.reps) + " launches per row after " + std::to_string(to.warmup) +
          " warm-up, CUDA events around each launch, median; L2 " +
          (to.flush_l2 ? "flushed before each" : "not flushed"),
      "bytes: distinct raw pixels read x 4 B + output x 4 B (depth: + cost volume written and read when window > 1; "
      "aif: + depth map read); copy: read + write",
      std::string("check: ") + (options.check_cpu ? "every output vs the CPU reference (render_hex, depth_hex, "
                                                    "render_all_in_focus_hex)"
                                                  : "every output vs the first variant's")};

  // Summary and the rows for docs/PERFORMANCE.md.
  const double cg = rep.copy_gbps;
  auto pct = [&](const Row& e) { return cg > 0 ? 100.0 * e.gbps / cg : 0.0; };
  std::vector<std::string>& n = rep.notes;
  n.push_back("copy bandwidth: " + fmt(cg, 1) + " GB/s (median)");
  const Row* best_render = nullptr;
  for (const Row& e : passes.rows)
    if (e.kernel.rfind("hex render/", 0) == 0 && (!best_render || e.median_ms < best_render->median_ms))
      best_render = &e;
  if (best_render && seed) {
    const double hex_ns = best_render->number("ns_per_px"), seed_ns = seed->number("ns_per_px");
    n.push_back("issue 22 goal (hex render per output pixel <= seed NoSync): " + best_render->label + " " +
                fmt(hex_ns, 3) + " ns/px vs seed nosync " + fmt(seed_ns, 3) + " ns/px (x" +
                fmt(seed_ns > 0 ? hex_ns / seed_ns : 0.0, 2) + ") -> " + (hex_ns <= seed_ns ? "MET" : "NOT MET"));
  }
  n.push_back(
      "docs/PERFORMANCE.md rows (| pass | variant | us | output px | ns/px | touched px | MB | GB/s | % copy |):");
  auto md = [&](const Row& e, const std::string& pass) {
    n.push_back("| " + pass + " | " + e.label + " | " + fmt(e.median_ms * 1000.0, 1) + " | " +
                std::to_string(static_cast<std::uint64_t>(e.number("out_px"))) + " | " + fmt(e.number("ns_per_px"), 3) +
                " | " + std::to_string(static_cast<std::uint64_t>(e.number("touched"))) + " | " +
                fmt(static_cast<double>(e.bytes) / 1e6, 1) + " | " + fmt(e.gbps, 1) + " | " + fmt(pct(e), 1) + " |");
  };
  for (const Row& e : passes.rows) md(e, "hex " + e.label.substr(0, e.label.find(' ')));
  if (seed) md(*seed, "rect render (seed)");
  n.push_back("| copy | " + copy.label + " | " + fmt(copy.median_ms * 1000.0, 1) + " | | | | " +
              fmt(static_cast<double>(copy.bytes) / 1e6, 1) + " | " + fmt(copy.gbps, 1) + " | 100.0 |");
  n.push_back(std::string("all outputs bit-exact: ") + (all_exact ? "yes" : "NO"));
  return rep;
}

}  // namespace lb::bench
