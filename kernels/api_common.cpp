// Parts of the kernels API that need no CUDA (shared by the CUDA build and the stub):
// names, default launch shapes, benchmark variant lists and report formatting.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lightbench/cuda_api.hpp"

namespace lb::cuda {

namespace {

std::string fmt(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

}  // namespace

KernelTuning default_tuning(RenderVariant v, bool direct_loads) {
  KernelTuning t;
  t.original_block = 128;
  t.direct_loads = direct_loads;
  if (v == RenderVariant::Sync) {
    t.chunk = 48;
    t.rows = 1;
  } else if (direct_loads) {
    t.chunk = 50;
    t.rows = 1;
  } else {
    t.chunk = 96;
    t.rows = 2;
  }
  return t;
}

KernelTuning resolve(const KernelTuning& t, RenderVariant v) {
  const KernelTuning d = default_tuning(v, t.direct_loads);
  KernelTuning r = t;
  if (r.original_block <= 0) r.original_block = d.original_block;
  if (r.chunk <= 0) r.chunk = d.chunk;
  if (r.rows <= 0) r.rows = d.rows;
  return r;
}

std::string kernel_name(const RenderConfig& c) {
  return std::string("render/") + to_string(c.variant);
}

std::string variant_label(const RenderConfig& c) {
  if (c.variant != RenderVariant::Original) return to_string(c.variant);
  const OriginalSwitches& s = c.original;
  return std::string("original[") + (s.rgba_input ? "rgba" : "rgb") + "," +
         (s.vector_store ? "vec" : "bytes") + "," + (s.reciprocal ? "rcp" : "div") + "," +
         (s.sync_at_end ? "sync" : "-") + "]";
}

std::string DeviceInfo::describe() const {
  if (!available) return "no CUDA device: " + why;
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << name << " (sm_" << cc_major << cc_minor << ", " << sm_count << " SMs, "
    << static_cast<double>(total_memory) / (1024.0 * 1024.0 * 1024.0) << " GiB, L2 "
    << l2_bytes / (1024.0 * 1024.0) << " MiB";
  if (peak_gbps > 0) {
    s.precision(0);
    s << ", peak " << peak_gbps << " GB/s";
  }
  s << ", driver " << driver << ", runtime " << runtime << ")";
  return s.str();
}

bool BenchReport::all_exact() const {
  if (cpu_checked && !cpu_exact) return false;
  for (const auto& e : entries)
    if (!e.checked || !e.exact) return false;
  return !copy.checked || copy.exact;
}

std::vector<BenchVariant> default_bench_variants() {
  std::vector<BenchVariant> v;
  for (int bits = 15; bits >= 0; --bits) {
    BenchVariant b;
    b.config.variant = RenderVariant::Original;
    b.config.original.rgba_input = bits & 8;
    b.config.original.vector_store = bits & 4;
    b.config.original.reciprocal = bits & 2;
    b.config.original.sync_at_end = bits & 1;
    v.push_back(b);
  }
  for (int i = 0; i < 3; ++i) {  // sync, nosync (staged), nosync direct (the seed's loads)
    BenchVariant b;
    b.config.variant = i == 0 ? RenderVariant::Sync : RenderVariant::NoSync;
    b.tuning.direct_loads = i == 2;
    v.push_back(b);
  }
  return v;
}

std::vector<BenchVariant> tuning_bench_variants() {
  std::vector<BenchVariant> v;
  for (int block : {64, 128, 256, 320, 512}) {
    BenchVariant b;
    b.config.variant = RenderVariant::Original;
    b.tuning.original_block = block;
    v.push_back(b);
  }
  for (int i = 0; i < 3; ++i)
    for (int chunk : {10, 20, 25, 32, 48, 50, 96})
      for (int rows : {1, 2, 3, 4}) {
        const RenderVariant r = i == 0 ? RenderVariant::Sync : RenderVariant::NoSync;
        BenchVariant b;
        b.config.variant = r;
        b.tuning.chunk = chunk;
        b.tuning.rows = rows;
        b.tuning.direct_loads = i == 2;
        v.push_back(b);
      }
  return v;
}

std::string format_bench_report(const BenchReport& r) {
  std::ostringstream o;
  o << "device:    " << r.device.describe() << "\n";
  o << "workload:  " << r.workload << "\n";
  o << "timing:    " << r.options.reps << " launches per variant after " << r.options.warmup
    << " warm-up, CUDA events around each launch, median; L2 "
    << (r.options.flush_l2 ? "flushed before each launch" : "not flushed") << "\n";
  o << "bytes:     touched raw pixels x (4 or 3 B) + output x 4 B; copy: read + write\n";
  o << "reference: " << r.reference;
  if (r.cpu_checked) o << "; vs lb::render_cpu: " << (r.cpu_exact ? "bit-exact" : "MISMATCH");
  o << "\n\n";
  std::size_t wl = 24;
  for (const auto& e : r.entries) wl = std::max(wl, e.label.size());
  for (const auto& e : r.diagnostics) wl = std::max(wl, e.label.size());
  const double copy_gbps = r.copy.median_gbps;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %10s %10s %9s %10s %10s %7s  %s\n", static_cast<int>(wl),
                "variant", "median ms", "min ms", "MB moved", "GB/s med", "GB/s best", "% copy",
                "exact");
  o << line;
  auto row = [&](const BenchEntry& e) {
    std::snprintf(line, sizeof line, "%-*s %10.4f %10.4f %9.1f %10.1f %10.1f %6.1f%%  %s\n",
                  static_cast<int>(wl), e.label.c_str(), e.median_ms, e.min_ms,
                  static_cast<double>(e.bytes) / 1e6, e.median_gbps, e.best_gbps,
                  copy_gbps > 0 ? 100.0 * e.median_gbps / copy_gbps : 0.0,
                  !e.checked ? "-" : e.exact ? "yes" : ("NO (" + std::to_string(e.mismatches) + " px)").c_str());
    o << line;
  };
  for (const auto& e : r.entries) row(e);
  if (r.copy.reps > 0) row(r.copy);
  for (const auto& e : r.diagnostics) row(e);

  // Summary: best variant overall, best Original, best input-side.
  const BenchEntry* best = nullptr;
  const BenchEntry* best_orig = nullptr;
  const BenchEntry* best_input = nullptr;
  for (const auto& e : r.entries) {
    if (!best || e.median_ms < best->median_ms) best = &e;
    if (e.kernel == "render/original") {
      if (!best_orig || e.median_ms < best_orig->median_ms) best_orig = &e;
    } else if (!best_input || e.median_ms < best_input->median_ms) {
      best_input = &e;
    }
  }
  o << "\n";
  if (r.copy.reps > 0) o << "copy bandwidth: " << fmt(copy_gbps, 1) << " GB/s (median)\n";
  if (best)
    o << "fastest: " << best->label << " " << fmt(best->median_ms * 1000.0, 1) << " us, "
      << fmt(best->median_gbps, 1) << " GB/s = "
      << fmt(copy_gbps > 0 ? 100.0 * best->median_gbps / copy_gbps : 0.0, 1) << "% of copy\n";
  if (best_orig && best_input)
    o << "input-side vs Original: " << best_input->label << " "
      << fmt(best_input->median_ms * 1000.0, 1) << " us vs " << best_orig->label << " "
      << fmt(best_orig->median_ms * 1000.0, 1) << " us (x"
      << fmt(best_orig->median_ms / best_input->median_ms, 2) << ")\n";
  o << "all outputs bit-exact: " << (r.all_exact() ? "yes" : "NO") << "\n";
  return o.str();
}

std::string bench_report_json(const BenchReport& r) {
  using nlohmann::json;
  auto entry = [](const BenchEntry& e) {
    return json{{"label", e.label},         {"kernel", e.kernel},       {"reps", e.reps},
                {"median_ms", e.median_ms}, {"min_ms", e.min_ms},       {"max_ms", e.max_ms},
                {"bytes", e.bytes},         {"median_gbps", e.median_gbps},
                {"best_gbps", e.best_gbps}, {"checked", e.checked},     {"exact", e.exact},
                {"mismatches", e.mismatches}};
  };
  json j;
  j["device"] = {{"available", r.device.available}, {"name", r.device.name},
                 {"cc", std::to_string(r.device.cc_major) + "." + std::to_string(r.device.cc_minor)},
                 {"sm_count", r.device.sm_count},   {"memory_bytes", r.device.total_memory},
                 {"l2_bytes", r.device.l2_bytes},   {"peak_gbps", r.device.peak_gbps},
                 {"driver", r.device.driver},       {"runtime", r.device.runtime}};
  j["workload"] = r.workload;
  j["reference"] = r.reference;
  j["cpu_checked"] = r.cpu_checked;
  j["cpu_exact"] = r.cpu_exact;
  j["options"] = {{"warmup", r.options.warmup}, {"reps", r.options.reps},
                  {"flush_l2", r.options.flush_l2}};
  j["variants"] = json::array();
  for (const auto& e : r.entries) j["variants"].push_back(entry(e));
  j["copy"] = entry(r.copy);
  j["diagnostics"] = json::array();
  for (const auto& e : r.diagnostics) j["diagnostics"].push_back(entry(e));
  j["all_exact"] = r.all_exact();
  return j.dump(2);
}

}  // namespace lb::cuda
