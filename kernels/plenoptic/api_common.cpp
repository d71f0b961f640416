// Parts of the kernels API that need no device: names (and the names of what a render ran),
// default launch shapes, the device description.
#include <sstream>
#include <string>

#include "lightbench/cuda_api.hpp"
#include "plenoptic/render_launch.hpp"

namespace lb::cuda {

KernelTuning default_tuning(RenderVariant v, bool direct_loads) {
  KernelTuning t;
  t.original_block = 128;
  t.direct_loads = direct_loads;
  if (v == RenderVariant::Sync) {
    t.chunk = 48;
    t.rows = 1;
  } else if (v == RenderVariant::Tiled) {  // one output row x 12 micro-image columns
    t.chunk = 12;
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

namespace detail {

RenderKernel render_kernel_asked(const RenderConfig& c, const KernelTuning& t) {
  switch (c.variant) {
    case RenderVariant::Original: return RenderKernel::Original;
    case RenderVariant::Sync: return RenderKernel::Sync;
    case RenderVariant::NoSync: return t.direct_loads ? RenderKernel::NoSyncDirect : RenderKernel::NoSyncStaged;
    case RenderVariant::Tiled: return RenderKernel::Tiled;
  }
  return RenderKernel::Original;
}

std::string render_fallback(const RenderConfig& c, const KernelTuning& t, RenderKernel ran) {
  if (ran == render_kernel_asked(c, t)) return {};
  switch (ran) {
    case RenderKernel::Original: return "original";
    case RenderKernel::Sync: return "sync";
    case RenderKernel::NoSyncDirect: return "direct";
    case RenderKernel::NoSyncStaged: return "staged";
    case RenderKernel::Tiled: return "tiled";
  }
  return "?";
}

std::string render_kernel_name(const RenderConfig& c, const KernelTuning& t, RenderKernel ran) {
  const std::string fallback = render_fallback(c, t, ran);
  return fallback.empty() ? kernel_name(c) : kernel_name(c) + "->" + fallback;
}

}  // namespace detail

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

}  // namespace lb::cuda
