// `lightbench-cli bench render`: times the render variants and the copy reference with CUDA
// events, after warm-up, each launch separately, on a cold L2; checks every variant's
// output bit for bit once, outside the timing.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_device.hpp"
#include "bench_kernels.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/bench/render.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "render_block_trace.hpp"
#include "plenoptic/render_launch.hpp"
#include "timer.hpp"

namespace lb::bench {

namespace {

using cuda::detail::DeviceBuffer;
using cuda::detail::OutputDevice;
using cuda::detail::PitchedBuffer;
using cuda::detail::RawDevice;
using cuda::detail::Stream;
using cuda::detail::TablesDevice;

std::string tuning_suffix(const RenderConfig& c, const cuda::KernelTuning& t) {
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

// Times, bytes / median and bytes / min ("best_gbps").
void set_times(Row& r, const std::vector<double>& ms) {
  r.set_times(ms);
  r.add(field("best_gbps", r.min_ms > 0 ? static_cast<double>(r.bytes) / (r.min_ms * 1e6) : 0.0, "GB/s best", 1));
}

std::string fmt(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

// The summary lines after the table (scripts/gpu-check prints them): copy bandwidth, the
// fastest variant, the fastest input-side variant (sync, nosync) against the fastest
// output-side one (the Originals, tiled).
std::vector<std::string> summary(const Report& rep) {
  const Row* best = nullptr;
  const Row* best_orig = nullptr;
  const Row* best_input = nullptr;
  for (const Row& e : rep.find_table("variants")->rows) {
    if (!best || e.median_ms < best->median_ms) best = &e;
    // Output-side: the Originals and Tiled (also where Tiled ran the Original).
    if (e.kernel == "render/original" || e.kernel.rfind("render/tiled", 0) == 0) {
      if (!best_orig || e.median_ms < best_orig->median_ms) best_orig = &e;
    } else if (!best_input || e.median_ms < best_input->median_ms) {
      best_input = &e;
    }
  }
  std::vector<std::string> n;
  const double copy = rep.copy_gbps;
  if (copy > 0) n.push_back("copy bandwidth: " + fmt(copy, 1) + " GB/s (median)");
  if (best)
    n.push_back("fastest: " + best->label + " " + fmt(best->median_ms * 1000.0, 1) + " us, " + fmt(best->gbps, 1) +
                " GB/s = " + fmt(copy > 0 ? 100.0 * best->gbps / copy : 0.0, 1) + "% of copy");
  if (best_orig && best_input)
    n.push_back("input-side vs output-side: " + best_input->label + " " + fmt(best_input->median_ms * 1000.0, 1) +
                " us vs " + best_orig->label + " " + fmt(best_orig->median_ms * 1000.0, 1) + " us (x" +
                fmt(best_orig->median_ms / best_input->median_ms, 2) + ")");
  // The render row's goal: the fastest variant's time against the floor's (floor / it).
  const Table* floor = rep.find_table("floor");
  if (best && floor && !floor->rows.empty() && best->median_ms > 0)
    n.push_back("fastest vs the 16-byte read floor: " + best->label + " " + fmt(best->median_ms * 1000.0, 1) +
                " us, floor " + fmt(floor->rows[0].median_ms * 1000.0, 1) + " us = " +
                fmt(100.0 * floor->rows[0].median_ms / best->median_ms, 1) + "% of the floor's speed");
  n.push_back(std::string("all outputs bit-exact: ") + (*rep.all_exact ? "yes" : "NO"));
  return n;
}

// Raster reads of the touched pixel set, to tell the render's own cost from the cost of the
// reads it needs (docs/PERFORMANCE.md): the touched rows (the set render_touched_pixels
// counts) and, per row, the touched columns, their 16-byte quads, or the full width.
class TouchedReads {
 public:
  TouchedReads(const RenderTablesHost& tables, const RawDevice& raw, detail::LaunchTimer& timer, cudaStream_t s)
      : raw_(raw), timer_(timer), s_(s) {
    const RenderLayout& L = tables.layout;
    auto touched_set = [](const std::vector<int>& start, int count, int patch, int lim, int size) {
      std::vector<char> hit(static_cast<std::size_t>(size), 0);
      for (int o = 0; o < count; ++o)
        for (int i = -lim; i <= lim; ++i) {
          const int m = o + i;
          if (m < 0 || m >= count) continue;
          for (int a = 0; a < patch; ++a)
            hit[static_cast<std::size_t>(sample_coord(start[static_cast<std::size_t>(m)], a, i, patch, size))] = 1;
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
    d_rows_ = upload(rows);
    d_cols_ = upload(cols);
    d_all_ = upload(all_cols);
    d_quads_ = upload(quads);
    d_all_quads_ = upload(all_quads);
  }
  // The floor the render row is measured against: the touched quads with 16-byte loads.
  Row floor_row() { return read("floor: touched quads, 16 B loads", d_quads_, true); }
  // --diag: all five reads.
  void diagnostics(Table& diag) {
    diag.rows.push_back(read("diag: touched pixels, 4 B loads", d_cols_, false));
    diag.rows.push_back(read("diag: touched quads, 16 B loads", d_quads_, true));
    diag.rows.push_back(read("diag: touched quads, 16 B, column order", d_quads_, true, 1));
    diag.rows.push_back(read("diag: touched rows, 4 B loads", d_all_, false));
    diag.rows.push_back(read("diag: touched rows, 16 B loads", d_all_quads_, true));
  }

 private:
  static DeviceBuffer upload(const std::vector<int>& v) {
    DeviceBuffer b(v.size() * 4);
    CUDA_CHECK_THROW(cudaMemcpy(b.get(), v.data(), v.size() * 4, cudaMemcpyHostToDevice));
    return b;
  }
  // One raster read: the touched rows, in each the columns (or quads) listed in idx.
  Row read(const std::string& label, const DeviceBuffer& idx, bool wide, int column_major = 0) {
    const int n_rows = static_cast<int>(d_rows_.size() / 4), n = static_cast<int>(idx.size() / 4);
    Row e;
    e.label = label;
    e.kernel = "diag";
    e.bytes = static_cast<std::uint64_t>(n_rows) * static_cast<std::uint64_t>(n) * (wide ? 16 : 4);
    set_times(e, timer_.time([&] {
      launch_raster_read(raw_.rgba, raw_.rgba_pitch, d_rows_.as<int>(), n_rows, idx.as<int>(), n, wide, column_major,
                         d_sink_.as<unsigned>(), s_);
    }));
    return e;
  }
  const RawDevice& raw_;
  detail::LaunchTimer& timer_;
  cudaStream_t s_;
  DeviceBuffer d_rows_, d_cols_, d_all_, d_quads_, d_all_quads_, d_sink_{16};
};

// --trace: the default NoSync's blocks, launch by launch (untimed: %globaltimer per block).
// Its one wave ends with its slowest block; the notes say how unevenly the blocks finish.
void trace_blocks(std::vector<std::string>& notes, std::vector<Field>& fields,
                  const std::vector<RenderBenchVariant>& variants, const RenderLayout& L, const TablesDevice& dt,
                  const RawDevice& raw, const OutputDevice& out, cudaStream_t s) {
  const auto it = std::find_if(variants.begin(), variants.end(), [](const RenderBenchVariant& v) {
    return v.config.variant == RenderVariant::NoSync && !v.tuning.direct_loads && v.tuning.chunk == 0 &&
           v.tuning.rows == 0;
  });
  if (it == variants.end()) {
    notes.push_back("trace: no default NoSync among the variants; nothing traced");
    return;
  }
  const int max_blocks = L.grid_nx * L.out_h;  // any launch shape
  DeviceBuffer d_trace(static_cast<std::size_t>(max_blocks) * 4 * sizeof(std::uint64_t));
  std::vector<std::uint64_t> words(static_cast<std::size_t>(max_blocks) * 4);
  constexpr int kLaunches = 9;
  std::vector<BlockTraceStats> runs;
  for (int i = 0; i < 3 + kLaunches; ++i) {
    CUDA_CHECK_THROW(cudaMemsetAsync(d_trace.get(), 0, d_trace.size(), s));
    cuda::detail::launch_render(L, dt, raw, it->config, it->tuning, out, s, d_trace.as<unsigned long long>());
    CUDA_CHECK_THROW(cudaMemcpyAsync(words.data(), d_trace.get(), d_trace.size(), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    if (i >= 3) runs.push_back(block_trace_stats(words, max_blocks));  // after 3 warm-up launches
  }
  if (runs.front().blocks == 0) {
    notes.push_back("trace: the default NoSync is not the staged kernel here (it needs sm_90+); nothing traced");
    return;
  }
  auto med = [&](double BlockTraceStats::*f) {
    std::vector<double> v;
    for (const BlockTraceStats& r : runs) v.push_back(r.*f);
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const BlockTraceStats& a = runs.front();
  notes = {
      "trace (default nosync, " + std::to_string(kLaunches) + " launches, medians): " +
          std::to_string(a.blocks) + " blocks on " + std::to_string(a.sms) + " SMs, first start to last end " +
          fmt(med(&BlockTraceStats::span_us), 1) + " us",
      "  block durations " + fmt(med(&BlockTraceStats::dur_min_us), 1) + " / " +
          fmt(med(&BlockTraceStats::dur_p50_us), 1) + " / " + fmt(med(&BlockTraceStats::dur_max_us), 1) +
          " us (min / median / max); sd of the SMs' mean durations " +
          fmt(med(&BlockTraceStats::between_sm_sd_us), 2) + " us, within an SM " +
          fmt(med(&BlockTraceStats::within_sm_sd_us), 2) + " us",
      "  SMs busy " + fmt(100.0 * med(&BlockTraceStats::sm_busy), 1) +
          " % of that span; every SM at its own rate to a common end: " +
          fmt(med(&BlockTraceStats::balanced_span_us), 1) + " us"};
  fields.push_back(json_field("trace.span_us", med(&BlockTraceStats::span_us)));
  fields.push_back(json_field("trace.block_us_min", med(&BlockTraceStats::dur_min_us)));
  fields.push_back(json_field("trace.block_us_median", med(&BlockTraceStats::dur_p50_us)));
  fields.push_back(json_field("trace.block_us_max", med(&BlockTraceStats::dur_max_us)));
  fields.push_back(json_field("trace.between_sm_sd_us", med(&BlockTraceStats::between_sm_sd_us)));
  fields.push_back(json_field("trace.within_sm_sd_us", med(&BlockTraceStats::within_sm_sd_us)));
  fields.push_back(json_field("trace.sm_busy", med(&BlockTraceStats::sm_busy)));
  fields.push_back(json_field("trace.balanced_span_us", med(&BlockTraceStats::balanced_span_us)));
}

}  // namespace

Report bench_render(const ImageU8& raw_in, const PlenopticGrid& grid, const RenderParams& params,
                    const std::vector<RenderBenchVariant>& variants, const RenderBenchOptions& options) {
  Report rep;
  rep.device = detail::bench_device("bench render", options.device);
  rep.device_fields = true;
  LB_REQUIRE(!raw_in.empty(), "bench render: raw image is empty");
  detail::TimerOptions to;
  to.reps = std::max(50, options.reps);
  to.warmup = std::max(1, options.warmup);
  to.flush_l2 = options.flush_l2;

  const RenderTablesHost tables = build_render_tables(grid, params, raw_in.width, raw_in.height);
  const RenderLayout& L = tables.layout;
  const std::uint64_t touched = render_touched_pixels(tables);
  const auto num = detail::num;
  rep.workload = detail::raw_grid_workload(L.raw_w, L.raw_h, grid) + ", M=" + std::to_string(L.patch) +
                 " lim=" + std::to_string(L.lim) + " sigma=" + num(params.sigma) + " view (" + num(params.view_x) +
                 "," + num(params.view_y) + ") -> " + std::to_string(L.out_w) + "x" + std::to_string(L.out_h) + ", " +
                 std::to_string(touched) + " raw pixels touched";

  Stream stream;
  const cudaStream_t s = stream.get();
  const ImageU8 rgba = to_rgba(raw_in);
  const std::size_t W = static_cast<std::size_t>(L.raw_w), H = static_cast<std::size_t>(L.raw_h);

  PitchedBuffer d_rgba, d_rgb, d_out;
  RawDevice raw;
  cuda::detail::upload_raw(raw_in, d_rgba, d_rgb, raw, s);

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

  auto poison = [&] { CUDA_CHECK_THROW(cudaMemset2DAsync(d_out.get(), d_out.pitch(), 0xA5, ow * 4, oh, s)); };
  auto read_out = [&] {
    ImageU8 img(L.out_w, L.out_h, 4);
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(img.data.data(), ow * 4, d_out.get(), d_out.pitch(), ow * 4, oh,
                                       cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return img;
  };
  auto run = [&](const RenderBenchVariant& v) {
    return cuda::detail::launch_render(L, dt, raw, v.config, v.tuning, out, s);
  };

  detail::LaunchTimer timer(s, to, rep.device.l2_bytes);

  // Reference: the plainest exact Original (4-byte input, vector store, integer division).
  RenderBenchVariant ref_variant;
  ref_variant.config.variant = RenderVariant::Original;
  ref_variant.config.original = OriginalSwitches{true, true, false, false};
  poison();
  run(ref_variant);
  const ImageU8 ref = read_out();
  const std::string reference = cuda::variant_label(ref_variant.config) + " on this device";
  bool cpu_checked = false, cpu_exact = false;
  if (options.check_cpu) {
    cpu_checked = true;
    cpu_exact = render_cpu(rgba, tables).data == ref.data;
  }

  bool all_exact = !cpu_checked || cpu_exact;
  Table& entries = rep.table("variants");
  for (const RenderBenchVariant& v : variants) {
    Row e;
    e.label = v.label.empty() ? cuda::variant_label(v.config) + tuning_suffix(v.config, v.tuning) : v.label;
    const std::uint64_t in_bpp = v.config.variant == RenderVariant::Original && !v.config.original.rgba_input ? 3 : 4;
    e.bytes = touched * in_bpp + static_cast<std::uint64_t>(ow) * oh * 4;
    poison();
    // The kernel that ran: "render/tiled", or "render/tiled->original" where it fell back.
    e.kernel = cuda::detail::render_kernel_name(v.config, v.tuning, run(v));
    const ImageU8 img = read_out();
    std::uint64_t differing = 0;
    for (std::size_t i = 0; i < img.data.size(); i += 4)
      if (std::memcmp(&img.data[i], &ref.data[i], 4) != 0) ++differing;
    e.set_check(differing);
    all_exact = all_exact && e.exact;
    set_times(e, timer.time([&] { run(v); }));
    entries.rows.push_back(e);
  }

  std::vector<std::string> trace_notes;
  std::vector<Field> trace_fields;
  if (options.trace) trace_blocks(trace_notes, trace_fields, variants, L, dt, raw, out, s);

  // Copy reference on a buffer of the raw's RGBA size: bytes = read + write.
  {
    const std::size_t bytes = (W * H * 4 + 15) / 16 * 16;
    DeviceBuffer src(bytes), dst(bytes);
    // On the benchmark's stream: `s` does not wait for the legacy default stream, so a plain
    // cudaMemset (asynchronous) could still be filling dst while the copy runs.
    CUDA_CHECK_THROW(cudaMemsetAsync(src.get(), 0x5a, bytes, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(src.get(), rgba.data.data(), W * H * 4, cudaMemcpyHostToDevice, s));
    CUDA_CHECK_THROW(cudaMemsetAsync(dst.get(), 0xA5, bytes, s));
    Row e;
    e.label = "copy (16 B/thread)";
    e.kernel = "copy";
    e.bytes = 2ull * bytes;
    launch_copy(src.get(), dst.get(), bytes, s);
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    std::vector<std::uint8_t> back(W * H * 4);
    CUDA_CHECK_THROW(cudaMemcpyAsync(back.data(), dst.get(), back.size(), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    e.set_check(std::memcmp(back.data(), rgba.data.data(), back.size()) == 0 ? 0 : 1);
    all_exact = all_exact && e.exact;
    set_times(e, timer.time([&] { launch_copy(src.get(), dst.get(), bytes, s); }));
    rep.copy_gbps = e.gbps;
    Table& copy = rep.table("copy");
    copy.single = true;
    copy.rows.push_back(e);
  }
  {
    TouchedReads reads(tables, raw, timer, s);
    Table& floor = rep.table("floor");
    floor.single = true;
    floor.rows.push_back(reads.floor_row());
    Table& diag = rep.table("diagnostics");  // always in the JSON (empty without --diag)
    if (options.diagnostics) reads.diagnostics(diag);
  }

  rep.all_exact = all_exact;
  rep.fields = {json_field("reference", reference),       json_field("cpu_checked", cpu_checked),
                json_field("cpu_exact", cpu_exact),       json_field("options.warmup", std::int64_t{to.warmup}),
                json_field("options.reps", std::int64_t{to.reps}), json_field("options.flush_l2", to.flush_l2)};
  rep.preamble = {
      "timing: " + std::to_string(to.reps) + " launches per variant after " + std::to_string(to.warmup) +
          " warm-up, CUDA events around each launch, median; L2 " +
          (to.flush_l2 ? "flushed before each launch" : "not flushed"),
      "bytes: touched raw pixels x (4 or 3 B) + output x 4 B; copy: read + write",
      "reference: " + reference +
          (cpu_checked ? std::string("; vs lb::render_cpu: ") + (cpu_exact ? "bit-exact" : "MISMATCH") : "")};
  rep.fields.insert(rep.fields.end(), trace_fields.begin(), trace_fields.end());
  rep.notes = summary(rep);
  rep.notes.insert(rep.notes.end(), trace_notes.begin(), trace_notes.end());
  return rep;
}

}  // namespace lb::bench
