// `lightbench-cli bench mad`: the whole MAD metric per backend / variant and the
// local-statistics kernel per variant, at 512x384 (the iqa pairs, or synthetic), 512x512
// and 1920x1080 (synthetic natural-ish image + noise + blur). CUDA events, warm-up, median;
// the statistics kernels' bytes against a copy kernel measured in the same process.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cuda_util.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/mad_cuda.hpp"
#include "lightbench/mad_math.hpp"
#include "mad_launch.hpp"
#include "render_launch.hpp"

namespace lb::cuda {

namespace {

using detail::DeviceBuffer;
using detail::Event;
using detail::Stream;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Natural-ish gray image: octaves of smooth value noise (1/f-like) plus a few hard-edged
// disks, deterministic.
ImageU8 synthetic_image(int w, int h, std::uint64_t seed) {
  std::vector<double> acc(static_cast<std::size_t>(w) * h, 0.0);
  std::uint64_t st = seed * 0x9E3779B97F4A7C15ull + 1;
  auto rnd = [&] {
    st ^= st << 13;
    st ^= st >> 7;
    st ^= st << 17;
    return static_cast<double>(st >> 11) / 9007199254740992.0;
  };
  double amp = 60;
  for (int cell = 128; cell >= 2; cell /= 2, amp *= 0.6) {
    const int gw = w / cell + 2, gh = h / cell + 2;
    std::vector<double> g(static_cast<std::size_t>(gw) * gh);
    for (double& v : g) v = rnd() * 2 - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double fx = double(x) / cell, fy = double(y) / cell;
        const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
        const double tx = fx - ix, ty = fy - iy;
        const double sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
        auto G = [&](int a, int b) { return g[static_cast<std::size_t>(b) * gw + a]; };
        const double v = (G(ix, iy) * (1 - sx) + G(ix + 1, iy) * sx) * (1 - sy) +
                         (G(ix, iy + 1) * (1 - sx) + G(ix + 1, iy + 1) * sx) * sy;
        acc[static_cast<std::size_t>(y) * w + x] += amp * v;
      }
  }
  for (int k = 0; k < 12; ++k) {
    const double cx = rnd() * w, cy = rnd() * h, r = (0.03 + 0.12 * rnd()) * std::min(w, h), d = rnd() * 80 - 40;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r) acc[static_cast<std::size_t>(y) * w + x] += d;
  }
  ImageU8 out(w, h, 1);
  for (std::size_t i = 0; i < acc.size(); ++i)
    out.data[i] = static_cast<std::uint8_t>(std::clamp(std::lround(128 + acc[i]), 0l, 255l));
  return out;
}

struct Workload {
  std::string name;
  ImageD ref, dst;
};

std::vector<Workload> workloads(const MadBenchOptions& o) {
  std::vector<Workload> ws;
  const std::string i03 = o.iqa_dir + "/I03_ref.bmp";
  if (!o.iqa_dir.empty() && std::filesystem::exists(i03)) {
    for (const char* id : {"I03", "I04", "I06"})
      ws.push_back({std::string(id) + " 512x384", mad_gray(load_image(o.iqa_dir + "/" + id + "_ref.bmp")),
                    mad_gray(load_image(o.iqa_dir + "/" + id + "_dist.bmp"))});
  } else {
    const ImageU8 r = synthetic_image(512, 384, 3);
    ws.push_back({"synthetic 512x384", mad_gray(r), mad_gray(distort_blur(distort_noise(r, 5, 1), 0.8))});
  }
  for (auto [w, h] : {std::pair{512, 512}, std::pair{1920, 1080}}) {
    const ImageU8 r = synthetic_image(w, h, static_cast<std::uint64_t>(w));
    ws.push_back({"synthetic " + std::to_string(w) + "x" + std::to_string(h), mad_gray(r),
                  mad_gray(distort_blur(distort_noise(r, 5, 1), 0.8))});
  }
  return ws;
}

}  // namespace

MadBenchReport bench_mad(const MadBenchOptions& o) {
  MadBenchReport rep;
  rep.options = o;
  rep.device = device_info(o.device);
  if (!rep.device.available) throw Error("bench mad: " + rep.device.why);
  CUDA_CHECK_THROW(cudaSetDevice(o.device));
  Stream stream;
  const cudaStream_t s = stream.get();
  Event e0, e1;
  auto time_launch = [&](auto&& launch) {
    for (int k = 0; k < o.warmup; ++k) launch();
    std::vector<double> ms;
    for (int k = 0; k < o.reps; ++k) {
      CUDA_CHECK_THROW(cudaEventRecord(e0.get(), s));
      launch();
      CUDA_CHECK_THROW(cudaEventRecord(e1.get(), s));
      CUDA_CHECK_THROW(cudaEventSynchronize(e1.get()));
      float t = 0;
      CUDA_CHECK_THROW(cudaEventElapsedTime(&t, e0.get(), e1.get()));
      ms.push_back(t);
    }
    return ms;
  };
  // Copy bandwidth: 256 MiB read + written.
  {
    const std::size_t bytes = 256u << 20;
    DeviceBuffer a(bytes), b(bytes);
    CUDA_CHECK_THROW(cudaMemsetAsync(a.get(), 0, bytes, s));
    const auto ms = time_launch([&] { detail::launch_copy(a.get(), b.get(), bytes, s); });
    rep.copy_gbps = 2.0 * bytes / (median(ms) * 1e6);
  }
  auto cpu = make_mad_cpu();
  auto gpu = make_mad_cuda(o.device);
  MadOptions mo;
  mo.keep_maps = false;
  for (const Workload& wl : workloads(o)) {
    const int w = wl.ref.width, h = wl.ref.height;
    // Whole metric: CPU reference (a few runs) and every CUDA variant.
    {
      MadBenchEntry e{wl.name, "metric", "cpu/reference", w, h};
      std::vector<double> ms;
      for (int k = 0; k < 3; ++k) {
        const MadResult r = cpu->run(wl.ref, wl.dst, "", mo);
        ms.push_back(r.ms);
        e.mad = r.mad;
      }
      e.reps = 3;
      e.median_ms = median(ms);
      e.min_ms = *std::min_element(ms.begin(), ms.end());
      e.max_ms = *std::max_element(ms.begin(), ms.end());
      rep.entries.push_back(e);
    }
    for (const std::string& v : mad_stats_variants()) {
      MadBenchEntry e{wl.name, "metric", "cuda/" + v, w, h};
      for (int k = 0; k < o.warmup; ++k) gpu->run(wl.ref, wl.dst, v, mo);
      std::vector<double> ms;
      for (int k = 0; k < o.reps; ++k) {
        const MadResult r = gpu->run(wl.ref, wl.dst, v, mo);
        ms.push_back(r.ms);
        e.mad = r.mad;
      }
      e.reps = o.reps;
      e.median_ms = median(ms);
      e.min_ms = *std::min_element(ms.begin(), ms.end());
      e.max_ms = *std::max_element(ms.begin(), ms.end());
      rep.entries.push_back(e);
    }
    if (wl.name.rfind("I04", 0) == 0 || wl.name.rfind("I06", 0) == 0) continue;  // one stats run per size
    // Statistics kernel alone on 40 planes of that size (float input; fused also on complex).
    const int planes = 2 * mad::kResponses;
    const std::size_t n = static_cast<std::size_t>(w) * h;
    const std::size_t nb = static_cast<std::size_t>(mad::block_count(w)) * mad::block_count(h);
    std::vector<float> host(planes * n);
    std::uint64_t x = 88172645463325252ull;
    for (float& v : host) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      v = static_cast<float>((x >> 40) % 100000) * 1e-3f;
    }
    DeviceBuffer in(planes * n * sizeof(float)), cin(planes * n * sizeof(float2)), out(planes * nb * 3 * sizeof(float));
    CUDA_CHECK_THROW(cudaMemcpy(in.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaMemset(cin.get(), 0, planes * n * sizeof(float2)));
    struct K {
      std::string label;
      detail::MadStatsKernel k;
      bool complex_in;
    };
    const K ks[] = {{"gather", detail::MadStatsKernel::Gather, false},
                    {"shared", detail::MadStatsKernel::Shared, false},
                    {"shared_nc", detail::MadStatsKernel::SharedNc, false},
                    {"fused", detail::MadStatsKernel::Fused, false},
                    {"fused (complex |EO|)", detail::MadStatsKernel::Fused, true}};
    for (const K& k : ks) {
      MadBenchEntry e{wl.name, "stats", k.label, w, h};
      const auto ms = time_launch([&] {
        detail::launch_mad_block_stats(k.k, k.complex_in ? nullptr : in.as<float>(), k.complex_in ? cin.get() : nullptr,
                                       1.f, w, h, planes, out.as<float>(), s);
      });
      e.reps = o.reps;
      e.median_ms = median(ms);
      e.min_ms = *std::min_element(ms.begin(), ms.end());
      e.max_ms = *std::max_element(ms.begin(), ms.end());
      e.bytes = static_cast<std::uint64_t>(planes) * (n * (k.complex_in ? 8 : 4) + nb * 12);
      e.gbps = e.bytes / (e.median_ms * 1e6);
      rep.entries.push_back(e);
    }
  }
  return rep;
}

std::string format_mad_bench_report(const MadBenchReport& r) {
  std::ostringstream os;
  char line[512];
  os << "bench mad on " << r.device.describe() << "\n";
  std::snprintf(line, sizeof line, "copy kernel: %.1f GB/s (read + write)\n", r.copy_gbps);
  os << line;
  std::snprintf(line, sizeof line, "%-20s %-7s %-22s %6s %10s %10s %10s %9s %7s %12s\n", "workload", "what", "variant",
                "reps", "median ms", "min ms", "max ms", "GB/s", "% copy", "MAD");
  os << line;
  for (const MadBenchEntry& e : r.entries) {
    std::snprintf(line, sizeof line, "%-20s %-7s %-22s %6d %10.4f %10.4f %10.4f %9s %7s %12s\n", e.workload.c_str(),
                  e.what.c_str(), e.variant.c_str(), e.reps, e.median_ms, e.min_ms, e.max_ms,
                  e.bytes ? std::to_string(static_cast<int>(std::lround(e.gbps))).c_str() : "",
                  e.bytes ? std::to_string(static_cast<int>(std::lround(100 * e.gbps / r.copy_gbps))).c_str() : "",
                  e.what == "metric" ? std::to_string(e.mad).c_str() : "");
    os << line;
  }
  return os.str();
}

std::string mad_bench_report_json(const MadBenchReport& r) {
  nlohmann::json j;
  j["device"] = r.device.describe();
  j["copy_gbps"] = r.copy_gbps;
  j["warmup"] = r.options.warmup;
  j["reps"] = r.options.reps;
  j["entries"] = nlohmann::json::array();
  for (const MadBenchEntry& e : r.entries)
    j["entries"].push_back({{"workload", e.workload}, {"what", e.what}, {"variant", e.variant}, {"width", e.width},
                            {"height", e.height}, {"reps", e.reps}, {"median_ms", e.median_ms}, {"min_ms", e.min_ms},
                            {"max_ms", e.max_ms}, {"bytes", e.bytes}, {"gbps", e.gbps}, {"mad", e.mad}});
  return j.dump();
}

}  // namespace lb::cuda
