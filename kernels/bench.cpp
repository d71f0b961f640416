// `lightbench-cli bench render`: times the render variants and the copy reference with CUDA
// events, after warm-up, each launch separately, on a cold L2; checks every variant's
// output bit for bit once, outside the timing.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/render_cpu.hpp"
#include "lightbench/render_tables.hpp"
#include "lightbench/timing.hpp"
#include "render_launch.hpp"

namespace lb::cuda {

namespace {

std::string tuning_suffix(const RenderConfig& c, const KernelTuning& t) {
  std::string s;
  if (c.variant == RenderVariant::NoSync && t.direct_loads) s += " direct";
  if (c.variant == RenderVariant::Original) {
    if (t.original_block > 0) s += " block=" + std::to_string(t.original_block);
  } else {
    if (t.chunk > 0) s += " chunk=" + std::to_string(t.chunk);
    if (t.rows > 0) s += " rows=" + std::to_string(t.rows);
  }
  return s;
}

void fill_stats(BenchEntry& e, const std::vector<double>& ms) {
  const TimingStats st = compute_stats(ms, e.bytes);
  e.reps = static_cast<int>(ms.size());
  e.median_ms = st.median_ms;
  e.min_ms = st.min_ms;
  e.max_ms = st.max_ms;
  e.median_gbps = st.median_gbps;
  e.best_gbps = st.min_ms > 0 ? static_cast<double>(e.bytes) / (st.min_ms * 1e6) : 0.0;
}

}  // namespace

BenchReport bench_render(const ImageU8& raw_in, const PlenopticGrid& grid, const RenderParams& params,
                         const std::vector<BenchVariant>& variants, const BenchOptions& options) {
  using namespace detail;
  BenchReport rep;
  rep.device = bench_device("bench render", options.device);
  LB_REQUIRE(!raw_in.empty(), "bench render: raw image is empty");
  rep.options = options;
  rep.options.reps = std::max(50, options.reps);
  rep.options.warmup = std::max(1, options.warmup);

  const RenderTablesHost tables = build_render_tables(grid, params, raw_in.width, raw_in.height);
  const RenderLayout& L = tables.layout;
  const std::uint64_t touched = render_touched_pixels(tables);
  const auto num = bench_num;
  rep.workload = raw_grid_workload(L.raw_w, L.raw_h, grid) + ", M=" + std::to_string(L.patch) + " lim=" + std::to_string(L.lim) + " sigma=" +
                 num(params.sigma) + " view (" + num(params.view_x) + "," + num(params.view_y) +
                 ") -> " + std::to_string(L.out_w) + "x" + std::to_string(L.out_h) + ", " +
                 std::to_string(touched) + " raw pixels touched";

  Stream stream;
  const cudaStream_t s = stream.get();
  const ImageU8 rgba = to_rgba(raw_in);
  const std::size_t W = static_cast<std::size_t>(L.raw_w), H = static_cast<std::size_t>(L.raw_h);

  PitchedBuffer d_rgba, d_rgb, d_out;
  RawDevice raw;
  upload_raw(raw_in, d_rgba, d_rgb, raw, s);

  // Tables, packed into one buffer.
  std::vector<std::uint32_t> pack;
  for (int v : tables.col_start) pack.push_back(static_cast<std::uint32_t>(v));
  for (int v : tables.row_start) pack.push_back(static_cast<std::uint32_t>(v));
  pack.insert(pack.end(), tables.wx.begin(), tables.wx.end());
  pack.insert(pack.end(), tables.wy.begin(), tables.wy.end());
  DeviceBuffer d_tables(pack.size() * 4);
  CUDA_CHECK_THROW(cudaMemcpy(d_tables.get(), pack.data(), pack.size() * 4, cudaMemcpyHostToDevice));
  const auto* tp = d_tables.as<std::uint32_t>();
  TablesDevice dt;
  dt.col_start = reinterpret_cast<const int*>(tp);
  dt.row_start = reinterpret_cast<const int*>(tp + tables.col_start.size());
  dt.wx = tp + tables.col_start.size() + tables.row_start.size();
  dt.wy = dt.wx + tables.wx.size();

  const std::size_t ow = static_cast<std::size_t>(L.out_w), oh = static_cast<std::size_t>(L.out_h);
  d_out.resize(ow * 4, oh);
  OutputDevice out;
  out.kind = OutputDevice::Kind::Pitched;
  out.ptr = d_out.get();
  out.pitch = d_out.pitch();

  DeviceBuffer d_sink(16);  // the diagnostics' read sink

  auto poison = [&] {
    CUDA_CHECK_THROW(cudaMemset2DAsync(d_out.get(), d_out.pitch(), 0xA5, ow * 4, oh, s));
  };
  auto read_out = [&] {
    ImageU8 img(L.out_w, L.out_h, 4);
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(img.data.data(), ow * 4, d_out.get(), d_out.pitch(), ow * 4,
                                       oh, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return img;
  };
  auto run = [&](const BenchVariant& v) {
    launch_render(L, dt, raw, v.config, v.tuning, out, s);
  };

  // Warm-up, then `reps` launches, each between its own event pair; the L2 is flushed
  // before each one (outside the pair). Returns the per-launch times in ms.
  LaunchTimer timer(s, rep.options.warmup, rep.options.reps, rep.options.flush_l2, rep.device.l2_bytes);
  auto time_launches = [&](const std::function<void()>& launch) { return timer.time(launch); };

  // Reference: the plainest exact Original (4-byte input, vector store, integer division).
  BenchVariant ref_variant;
  ref_variant.config.variant = RenderVariant::Original;
  ref_variant.config.original = OriginalSwitches{true, true, false, false};
  poison();
  run(ref_variant);
  const ImageU8 ref = read_out();
  rep.reference = variant_label(ref_variant.config) + " on this device";
  if (options.check_cpu) {
    const ImageU8 cpu = render_cpu(rgba, tables);
    rep.cpu_checked = true;
    rep.cpu_exact = cpu.data == ref.data;
  }

  for (const BenchVariant& v : variants) {
    BenchEntry e;
    e.label = v.label.empty() ? variant_label(v.config) + tuning_suffix(v.config, v.tuning) : v.label;
    e.kernel = kernel_name(v.config);
    const std::uint64_t in_bpp =
        v.config.variant == RenderVariant::Original && !v.config.original.rgba_input ? 3 : 4;
    e.bytes = touched * in_bpp + static_cast<std::uint64_t>(ow) * oh * 4;
    poison();
    run(v);
    const ImageU8 img = read_out();
    e.checked = true;
    for (std::size_t i = 0; i < img.data.size(); i += 4)
      if (std::memcmp(&img.data[i], &ref.data[i], 4) != 0) ++e.mismatches;
    e.exact = e.mismatches == 0;
    fill_stats(e, time_launches([&] { run(v); }));
    rep.entries.push_back(e);
  }

  // Copy reference on a buffer of the raw's RGBA size: bytes = read + write.
  {
    const std::size_t bytes = (W * H * 4 + 15) / 16 * 16;
    DeviceBuffer src(bytes), dst(bytes);
    CUDA_CHECK_THROW(cudaMemset(src.get(), 0x5a, bytes));
    CUDA_CHECK_THROW(cudaMemcpy(src.get(), rgba.data.data(), W * H * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaMemset(dst.get(), 0xA5, bytes));
    BenchEntry& e = rep.copy;
    e.label = "copy (16 B/thread)";
    e.kernel = "copy";
    e.bytes = 2ull * bytes;
    launch_copy(src.get(), dst.get(), bytes, s);
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    std::vector<std::uint8_t> back(W * H * 4);
    CUDA_CHECK_THROW(cudaMemcpy(back.data(), dst.get(), back.size(), cudaMemcpyDeviceToHost));
    e.checked = true;
    e.exact = std::memcmp(back.data(), rgba.data.data(), back.size()) == 0;
    e.mismatches = e.exact ? 0 : 1;
    fill_stats(e, time_launches([&] { launch_copy(src.get(), dst.get(), bytes, s); }));
  }
  if (rep.options.diagnostics) {
    // Touched rows and columns (the sets render_touched_pixels counts), then two raster
    // reads: exactly the touched pixels, and the touched rows over the full width.
    auto touched_set = [](const std::vector<int>& start, int count, int patch, int lim, int size) {
      std::vector<char> hit(static_cast<std::size_t>(size), 0);
      for (int o = 0; o < count; ++o)
        for (int i = -lim; i <= lim; ++i) {
          const int m = o + i;
          if (m < 0 || m >= count) continue;
          for (int a = 0; a < patch; ++a) hit[static_cast<std::size_t>(sample_coord(start[static_cast<std::size_t>(m)], a, i, patch, size))] = 1;
        }
      std::vector<int> list;
      for (int v = 0; v < size; ++v)
        if (hit[static_cast<std::size_t>(v)]) list.push_back(v);
      return list;
    };
    const std::vector<int> rows = touched_set(tables.row_start, L.grid_ny, L.patch, L.lim, L.raw_h);
    const std::vector<int> cols = touched_set(tables.col_start, L.grid_nx, L.patch, L.lim, L.raw_w);
    std::vector<int> all_cols, quads, all_quads;
    for (int c = 0; c < L.raw_w; ++c) all_cols.push_back(c);
    for (int q = 0; q < (L.raw_w + 3) / 4; ++q) all_quads.push_back(q);
    for (int c : cols)
      if (quads.empty() || quads.back() != c / 4) quads.push_back(c / 4);
    auto upload = [](const std::vector<int>& v) {
      DeviceBuffer b(v.size() * 4);
      CUDA_CHECK_THROW(cudaMemcpy(b.get(), v.data(), v.size() * 4, cudaMemcpyHostToDevice));
      return b;
    };
    const DeviceBuffer d_rows = upload(rows), d_cols = upload(cols), d_all = upload(all_cols),
                       d_quads = upload(quads), d_all_quads = upload(all_quads);
    auto diag = [&](const std::string& label, const DeviceBuffer& idx, std::size_t n, bool wide,
                    int column_major = 0) {
      BenchEntry e;
      e.label = label;
      e.kernel = "diag";
      e.bytes = static_cast<std::uint64_t>(rows.size()) * n * (wide ? 16 : 4);
      fill_stats(e, time_launches([&] {
        launch_raster_read(raw.rgba, raw.rgba_pitch, d_rows.as<int>(), static_cast<int>(rows.size()),
                           idx.as<int>(), static_cast<int>(n), wide, column_major,
                           d_sink.as<unsigned>(), s);
      }));
      rep.diagnostics.push_back(e);
    };
    diag("diag: touched pixels, 4 B loads", d_cols, cols.size(), false);
    diag("diag: touched quads, 16 B loads", d_quads, quads.size(), true);
    diag("diag: touched quads, 16 B, column order", d_quads, quads.size(), true, 1);
    diag("diag: touched rows, 4 B loads", d_all, all_cols.size(), false);
    diag("diag: touched rows, 16 B loads", d_all_quads, all_quads.size(), true);
  }
  return rep;
}

}  // namespace lb::cuda
