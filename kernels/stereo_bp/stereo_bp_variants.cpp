// BP's CUDA variants: one row each, {what the spec lists, how a request for it becomes the
// message kernels' config} (lightbench/variant_table.hpp, stereo_bp_launch.hpp). The registry
// lists them as the spec's variants (stereo_bp_cuda_variants); the CUDA engine and the tuner
// resolve a request through its row (bp_parse_variant). A variant = its kernels (stereo_bp.cu,
// stereo_bp_warp.cu) + its row here.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/error.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"

namespace lb::cuda {
namespace detail {
namespace {

void no_options(const std::string& request, const std::string& options) {
  if (!options.empty())
    throw Error("--variant '" + request + "': this variant takes no options (use it without ':" + options + "')");
}

// auto, auto:float and plain hybrid: the tuner picks the config on the device.
bool tuned(const std::string& request, const std::string& options, int, BpConfig*, bool*) {
  if (request.rfind("hybrid", 0) != 0) no_options(request, options);
  return false;
}
bool hybrid(const std::string& request, const std::string& options, int L, BpConfig* cfg, bool* fallback) {
  if (options.empty()) return tuned(request, options, L, cfg, fallback);
  int r = -1, s = -1;
  char tail = 0;
  if (std::sscanf(options.c_str(), "%d,%d%c", &r, &s, &tail) != 2 || r < 0 || s < 0)
    throw Error("--variant '" + request + "': use hybrid:R,S with R, S >= 0 (values in registers, shared)");
  cfg->store = BpStore::Hybrid;
  cfg->reg = r;
  cfg->shared = s;
  return true;
}
bool local(const std::string& request, const std::string& options, int, BpConfig* cfg, bool*) {
  no_options(request, options);
  cfg->store = BpStore::Local;
  return true;
}
// Registers where L has an instance, else the local array (*fallback set).
bool registers(const std::string& request, const std::string& options, int L, BpConfig* cfg, bool* fallback) {
  no_options(request, options);
  const auto& v = bp_register_instances();
  const bool have = std::find(v.begin(), v.end(), L) != v.end();
  cfg->store = have ? BpStore::Registers : BpStore::Local;
  *fallback = !have;
  return true;
}
bool shared(const std::string& request, const std::string& options, int L, BpConfig* cfg, bool*) {
  no_options(request, options);
  cfg->store = BpStore::Shared;
  cfg->shared = L;
  return true;
}
// warp, warp-fp16, warp-bf16 [:G lanes per pixel].
template <BpMsgType M>
bool warp(const std::string& request, const std::string& options, int L, BpConfig* cfg, bool*) {
  cfg->store = BpStore::Warp;
  cfg->msg = M;
  const std::vector<int> opts = bp_warp_lane_options(L);
  std::string list;
  for (int g : opts) list += (list.empty() ? "" : ", ") + std::to_string(g);
  if (options.empty()) {
    cfg->lanes = bp_warp_default_lanes(L);
    return true;
  }
  int g = -1;
  char tail = 0;
  if (std::sscanf(options.c_str(), "%d%c", &g, &tail) != 1)
    throw Error("--variant '" + request + "': use warp, warp-fp16 or warp-bf16, optionally with :G (lanes per pixel: " +
                list + " for " + std::to_string(L) + " disparities)");
  if (std::find(opts.begin(), opts.end(), g) == opts.end())
    throw Error("--variant '" + request + "': " + std::to_string(g) + " lanes per pixel do not fit " +
                std::to_string(L) + " disparities (use " + list + ")");
  cfg->lanes = g;
  return true;
}

}  // namespace

const VariantTable<BpLaunch>& stereo_bp_variant_table() {
  static const VariantTable<BpLaunch> table(
      "stereo-bp",
      {{{"auto", "", true, "the fastest of the kernels and message types below, tuned per device and size"}, {tuned}},
       {{"auto:float", "", true, "the fastest with float messages (bit-identical to the CPU reference)"}, {tuned}},
       {{"warp", "", true, "one pixel's disparities across the lanes of a (sub-)warp, any L (warp:G)"},
        {warp<BpMsgType::F32>}},
       {{"warp-fp16", "", true, "warp, messages stored as fp16 (float arithmetic)"}, {warp<BpMsgType::F16>}},
       {{"warp-bf16", "", true, "warp, messages stored as bf16 (float arithmetic)"}, {warp<BpMsgType::BF16>}},
       {{"registers", "", true, "messages unrolled into registers (L instances; else local)"}, {registers}},
       {{"hybrid", "", true, "R values in registers, S in shared memory (auto-tuned; hybrid:R,S)"}, {hybrid}},
       {{"shared", "", true, "a shared-memory slice per thread"}, {shared}},
       {{"local", "", true, "messages in a local-memory array, any L"}, {local}}});
  return table;
}

bool bp_parse_variant(const std::string& name, int L, BpConfig* cfg, bool* fallback) {
  *fallback = false;
  // A row's whole name ("auto:float"), else "row:options" ("warp-bf16:32", "hybrid:12,20").
  const VariantTable<BpLaunch>& t = stereo_bp_variant_table();
  std::string row = name, options;
  bool whole = false;
  for (const auto& r : t.rows()) whole = whole || r.info.name == name;
  const auto colon = name.find(':');
  if (!whole && colon != std::string::npos) {
    row = name.substr(0, colon);
    options = name.substr(colon + 1);
  }
  BpConfig c;
  if (!t.at(row).resolve(name, options, L, &c, fallback)) return false;
  *cfg = c;
  return true;
}

}  // namespace detail

std::vector<VariantInfo> stereo_bp_cuda_variants() { return detail::stereo_bp_variant_table().infos(); }

}  // namespace lb::cuda
