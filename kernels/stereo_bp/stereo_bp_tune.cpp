// Auto-tuner of the hybrid BP message kernel (after Grauer-Gray & Cavazos): for the device,
// image size and disparity count, time candidate (block shape, R registers, S shared)
// configurations with CUDA events (median of 3 full runs after a warm-up) and keep the
// fastest. Candidates follow the seed's scheme: up to 12 values in registers first, shared
// memory for a share or all of the rest, then more registers up to 48 (the seed's limit is
// 50; 48 is our largest instance), local memory for what remains; each at three block
// shapes, i.e. at several occupancies (the shared bytes per block set how many blocks fit
// on a multiprocessor; reported per candidate). The winner is cached in memory and in a
// JSON file per key "<generation>|<device>|<w>x<h>|<ndisp>" (auto's: "<generation>|auto|...").
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuda_check.cuh"
#include "lightbench/error.hpp"
#include "lightbench/input_file.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"

namespace lb::cuda {

namespace {
// Part of every cache key: bumped when a kernel's speed or the candidate set changes, so that a
// choice an older build timed is tuned again instead of reused (issue 23's passes made
// warp-fp16 at 900x750x256 1.7x faster; a stale entry may name a loser).
constexpr const char* kTuneGeneration = "g2|";
std::mutex g_mu;
std::map<std::string, BpTuneCandidate> g_memory;
std::string g_path_override;
}  // namespace

std::string bp_tune_cache_path() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_path_override.empty()) return g_path_override;
  if (const char* e = std::getenv("LB_BP_TUNE_CACHE"); e && *e) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/lightbench/bp_tune.json";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/lightbench/bp_tune.json";
  return "bp_tune.json";
}

void set_bp_tune_cache_path(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_path_override = path;
  g_memory.clear();  // a new file: forget what the old one said
}

std::string BpTuneResult::describe() const {
  std::ostringstream o;
  if (best.variant.empty())
    o << "hybrid R=" << best.reg << " S=" << best.shared << " block " << best.block_x << "x" << best.block_y;
  else
    o << best.variant;
  if (best.ms > 0) o << " (" << best.ms << " ms)";
  o << " from " << source;
  if (!tried.empty()) {
    o << "; tried " << tried.size() << ":";
    for (const auto& c : tried) {
      o << " [";
      if (c.variant.empty())
        o << "R" << c.reg << " S" << c.shared;
      else
        o << c.variant;
      o << " " << c.block_x << "x" << c.block_y << " ";
      if (c.ms < 0)
        o << "failed";
      else
        o << c.ms;
      if (!c.note.empty()) o << " " << c.note;
      o << "]";
    }
  }
  return o.str();
}

namespace detail {

namespace {

nlohmann::json to_json(const BpTuneCandidate& c) {
  nlohmann::json j = {{"block_x", c.block_x}, {"block_y", c.block_y}, {"reg", c.reg}, {"shared", c.shared}, {"ms", c.ms}};
  if (!c.variant.empty()) j["variant"] = c.variant;
  return j;
}

// The cache's text, "" when there is none. A path that is not a regular file (a named pipe would
// block the run, a device never ends) or is too large is ignored with a warning (input_file.hpp).
std::string cache_text(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)) || ec) return "";
  try {
    return read_text_file(path, "BP tuning cache", kJsonFileLimit);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "lightbench: warning: ignoring the BP tuning cache: %s\n", safe_line(ex.what()).c_str());
    return "";
  }
}

bool read_file_cache(const std::string& path, const std::string& key, BpTuneCandidate* out) {
  const std::string text = cache_text(path);
  if (text.empty()) return false;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.contains(key)) return false;
    const auto& e = j.at(key);
    out->block_x = e.at("block_x").get<int>();
    out->block_y = e.at("block_y").get<int>();
    out->reg = e.at("reg").get<int>();
    out->shared = e.at("shared").get<int>();
    out->ms = e.value("ms", 0.0);
    out->variant = e.value("variant", std::string());
    return out->block_x > 0 && out->block_y > 0 && out->reg >= 0 && out->shared >= 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "lightbench: warning: ignoring the BP tuning cache %s: %s\n", quote_untrusted(path).c_str(),
                 safe_line(ex.what()).c_str());
    return false;
  }
}

void write_file_cache(const std::string& path, const std::string& key, const BpTuneCandidate& c) {
  try {
    nlohmann::json j = nlohmann::json::object();
    {
      const std::string text = cache_text(path);
      if (!text.empty()) {
        try {
          j = nlohmann::json::parse(text);
          if (!j.is_object()) j = nlohmann::json::object();
        } catch (const std::exception&) {
          j = nlohmann::json::object();
        }
      }
    }
    j[key] = to_json(c);
    const std::filesystem::path p(path);
    std::error_code ec;
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
      std::ofstream f(tmp);
      if (!f) throw std::runtime_error("cannot write " + tmp);
      f << j.dump(2) << "\n";
      if (!f) throw std::runtime_error("write failed");
    }
    std::filesystem::rename(tmp, p);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightbench: warning: could not write the BP tuning cache '%s': %s\n", path.c_str(), e.what());
  }
}

// The seed's construction for one block shape and a target of `blocks` resident blocks per
// multiprocessor: 12 values in registers first, shared memory up to that occupancy's share
// of the multiprocessor, more registers up to 48 (the seed: 50), the rest local.
BpTuneCandidate seed_candidate(int L, int bx, int by, int blocks, int smem_sm) {
  BpTuneCandidate c;
  c.block_x = bx;
  c.block_y = by;
  const int threads = bx * by;
  const int r0 = std::min(L, 12);
  const int s_budget = std::max(0, smem_sm / std::max(1, blocks) / (threads * 4) - 1);  // - 1: runtime reserve
  const int s = std::min(L - r0, s_budget);
  const int r = bp_hybrid_reg_floor(std::min(L - s, 48));
  c.reg = r;
  c.shared = std::min(L - r, s);
  c.note = "seed scheme, " + std::to_string(blocks) + " blocks/SM target";
  return c;
}

std::vector<BpTuneCandidate> candidates(int L, std::size_t max_shared, int smem_sm) {
  std::vector<BpTuneCandidate> out;
  for (const int bs : {1, 2, 4, 8})
    for (const auto& shape : {std::pair<int, int>{32, 2}, std::pair<int, int>{32, 4}}) {
      BpTuneCandidate c = seed_candidate(L, shape.first, shape.second, bs, smem_sm);
      const std::size_t bytes = static_cast<std::size_t>(c.shared) * c.block_x * c.block_y * 4;
      if (bytes > max_shared) continue;
      c.note += ", local " + std::to_string(L - c.reg - c.shared);
      out.push_back(c);
    }
  std::vector<int> regs;
  for (int r : {0, 12, 24, 32, 48})
    if (r <= L) regs.push_back(bp_hybrid_reg_floor(r));
  const int shapes[3][2] = {{32, 2}, {32, 4}, {64, 2}};
  for (const auto& sh : shapes)
    for (int r : regs) {
      const int rest = L - r;
      std::vector<int> ss{0, rest / 2, rest};
      std::sort(ss.begin(), ss.end());
      ss.erase(std::unique(ss.begin(), ss.end()), ss.end());
      for (int s : ss) {
        BpTuneCandidate c;
        c.block_x = sh[0];
        c.block_y = sh[1];
        c.reg = r;
        c.shared = s;
        const std::size_t bytes = static_cast<std::size_t>(s) * sh[0] * sh[1] * 4;
        if (bytes > max_shared) continue;
        const int local = L - r - s;
        c.note = "local " + std::to_string(local) + ", " + std::to_string(bytes / 1024) + " KiB shared/block";
        out.push_back(c);
      }
    }
  // Drop duplicates (same shape and split), keeping the first.
  std::vector<BpTuneCandidate> uniq;
  for (const auto& c : out) {
    bool seen = false;
    for (const auto& u : uniq)
      seen = seen || (u.block_x == c.block_x && u.block_y == c.block_y && u.reg == c.reg && u.shared == c.shared);
    if (!seen) uniq.push_back(c);
  }
  return uniq;
}

}  // namespace

namespace {

// r.best for r.key from the memory cache, else from the file cache (entries of "auto" must
// name a variant this build can run for L); false when neither has it.
bool from_cache(BpTuneResult& r, const std::string& path, int L, bool needs_variant) {
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_memory.find(r.key);
    if (it != g_memory.end()) {
      r.best = it->second;
      r.source = "memory cache";
      return true;
    }
  }
  if (!read_file_cache(path, r.key, &r.best)) return false;
  if (needs_variant) {
    if (r.best.variant.empty()) return false;
    try {
      (void)bp_config_of(r.best, L);  // a cache from another version may name what no longer exists
    } catch (const Error&) {
      return false;
    }
  }
  r.source = "file cache " + path;
  std::lock_guard<std::mutex> lock(g_mu);
  g_memory[r.key] = r.best;
  return true;
}

// Times every candidate (3 runs after a warm-up), keeps the fastest in r and both caches.
// Every candidate failed: the first one's error (an out-of-memory line names the need).
void tune(BpTuneResult& r, std::vector<BpTuneCandidate> cands, BpDevice& dev, const stereo::BpParams& p,
          const std::string& path, cudaStream_t s) {
  double best = -1;
  std::string first_failure;
  for (BpTuneCandidate c : cands) {
    BpConfig cfg = bp_config_of(c, p.ndisp);
    (void)bp_fit_config(cfg, p.ndisp, dev.max_shared_bytes());
    std::string why;
    c.ms = bp_time_config(dev, p, cfg, 3, s, &why);
    if (c.ms < 0 && first_failure.empty()) first_failure = why;
    r.tried.push_back(c);
    if (c.ms > 0 && (best < 0 || c.ms < best)) {
      best = c.ms;
      r.best = c;
    }
  }
  if (best <= 0) throw Error(first_failure.empty() ? "BP auto-tuner: every candidate failed on this device" : first_failure);
  r.source = "tuned (" + std::to_string(r.tried.size()) + " candidates)";
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_memory[r.key] = r.best;
  }
  write_file_cache(path, r.key, r.best);
}

}  // namespace

BpTuneResult bp_autotune(BpDevice& dev, const stereo::BpParams& p, const std::string& device_name, cudaStream_t s) {
  BpTuneResult r;
  r.key = kTuneGeneration + device_name + "|" + std::to_string(dev.width()) + "x" + std::to_string(dev.height()) +
          "|" + std::to_string(p.ndisp);
  const std::string path = bp_tune_cache_path();
  if (from_cache(r, path, p.ndisp, false)) return r;
  // Per-SM shared memory: how many blocks of a candidate fit (its occupancy limit).
  int dev_id = 0, smem_sm = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev_id));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev_id));
  const std::size_t tune_shared = std::min<std::size_t>(dev.max_shared_bytes(), 96 * 1024);
  std::vector<BpTuneCandidate> cands = candidates(p.ndisp, tune_shared, smem_sm);
  for (BpTuneCandidate& c : cands) {
    const std::size_t bytes = static_cast<std::size_t>(c.shared) * c.block_x * c.block_y * 4;
    if (bytes > 0) c.note += ", <= " + std::to_string(smem_sm / static_cast<int>(bytes)) + " blocks/SM by shared";
  }
  tune(r, std::move(cands), dev, p, path, s);
  return r;
}

BpConfig bp_config_of(const BpTuneCandidate& c, int L) {
  BpConfig cfg;
  if (c.variant.empty()) {
    cfg.store = BpStore::Hybrid;
    cfg.reg = c.reg;
    cfg.shared = c.shared;
  } else {
    bool fallback = false;
    LB_REQUIRE(bp_parse_variant(c.variant, L, &cfg, &fallback), "BP tuner: '" + c.variant + "' is not a concrete variant");
  }
  cfg.block_x = c.block_x;
  cfg.block_y = c.block_y;
  return cfg;
}

BpTuneResult bp_autotune_any(BpDevice& dev, const stereo::BpParams& p, const std::string& device_name,
                             bool float_only, cudaStream_t s, bool sixteen_only) {
  BpTuneResult r;
  r.key = std::string(kTuneGeneration) + (float_only ? "auto:float|" : sixteen_only ? "auto:16|" : "auto|") +
          device_name + "|" +
          std::to_string(dev.width()) + "x" + std::to_string(dev.height()) + "|" + std::to_string(p.ndisp);
  const std::string path = bp_tune_cache_path();
  if (from_cache(r, path, p.ndisp, true)) return r;
  const int L = p.ndisp;
  std::vector<BpTuneCandidate> cands;
  auto add = [&](const std::string& v, int bx, int by, const std::string& note) {
    BpTuneCandidate c;
    c.variant = v;
    c.block_x = bx;
    c.block_y = by;
    c.note = note;
    cands.push_back(c);
  };
  for (const char* t : {"", "-fp16", "-bf16"}) {
    if (float_only && *t) continue;
    if (sixteen_only && !*t) continue;
    for (int g : bp_warp_lane_options(L))
      add(std::string("warp") + t + ":" + std::to_string(g), 32, 4, std::to_string(bp_warp_span(L) / g) + " values per lane");
  }
  if (sixteen_only) {  // the seed schemes store float messages
    tune(r, std::move(cands), dev, p, path, s);
    return r;
  }
  const auto& regs = bp_register_instances();
  if (std::find(regs.begin(), regs.end(), L) != regs.end()) add("registers", 32, 4, "");
  {
    int dev_id = 0, smem_sm = 0;
    CUDA_CHECK_THROW(cudaGetDevice(&dev_id));
    CUDA_CHECK_THROW(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev_id));
    BpTuneCandidate h = seed_candidate(L, 32, 4, 2, smem_sm);
    h.variant = "hybrid:" + std::to_string(h.reg) + "," + std::to_string(h.shared);
    if (static_cast<std::size_t>(h.shared) * 32 * 4 * 4 <= dev.max_shared_bytes()) cands.push_back(h);
  }
  tune(r, std::move(cands), dev, p, path, s);
  return r;
}

}  // namespace detail
}  // namespace lb::cuda
