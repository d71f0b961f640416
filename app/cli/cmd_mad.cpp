// lightbench-cli mad: MAD (Most Apparent Distortion) image quality of a distorted image
// against its reference, on the CPU reference or the CUDA path; optional HI / LO maps.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/mad.hpp"
#include "lightbench/memory_budget.hpp"
#include "lightbench/mad_cuda.hpp"

namespace lb::cli {

namespace {
ImageD load_gray(const std::string& what, const std::string& path) {
  if (!std::filesystem::exists(path)) throw Error(what + " '" + path + "': file not found");
  return mad_gray(load_image(path));  // load_image names the file when it cannot decode it
}

// Colour map (dark blue -> red -> yellow -> white) of a map scaled by its maximum.
ImageU8 colour_map(const ImageD& m) {
  double mx = 0;
  for (double v : m.data) mx = std::max(mx, std::fabs(v));
  static const double stops[5][3] = {{0, 0, 0}, {40, 20, 120}, {200, 30, 60}, {250, 180, 20}, {255, 255, 255}};
  ImageU8 out(m.width, m.height, 3);
  for (std::size_t i = 0; i < m.pixels(); ++i) {
    const double t = mx > 0 ? std::clamp(std::fabs(m.data[i]) / mx, 0.0, 1.0) * 4.0 : 0.0;
    const int k = std::min(3, static_cast<int>(t));
    const double f = t - k;
    for (int c = 0; c < 3; ++c)
      out.data[i * 3 + c] = static_cast<std::uint8_t>(std::lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c])));
  }
  return out;
}

ImageF to_float(const ImageD& m) {
  ImageF f(m.width, m.height, 1);
  for (std::size_t i = 0; i < m.data.size(); ++i) f.data[i] = static_cast<float>(m.data[i]);
  return f;
}
}  // namespace

Action add_mad(CLI::App& app) {
  struct Opts {
    std::string ref, dist, maps, backend = "auto", variant, json;
    int repeat = 1;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--ref", o->ref, "reference image (PNG, BMP, JPG, PGM/PPM; colour -> rgb2gray)")->required();
  app.add_option("--dist", o->dist, "distorted image, same size")->required();
  app.add_option("--maps", o->maps, "folder for the HI and LO maps (PFM raw values + colour-mapped PNG)");
  app.add_option("--backend", o->backend, "auto | cpu | cuda")->capture_default_str();
  app.add_option("--variant", o->variant, "CUDA local-statistics kernel: gather | shared | shared_nc | fused");
  app.add_option("--repeat", o->repeat, "run this many times (timings: median)")->capture_default_str()->check(int_in(1, 10000));
  app.add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->repeat < 1 || o->repeat > 10000) throw Error("--repeat must be in 1..10000");
    const BackendRequest req = parse_backend_request(o->backend);
    if (const ImageHeader hr = probe_image_header(o->ref); hr.known) {
      const ImageHeader hd = probe_image_header(o->dist);
      const bool cuda = builtin_registry().choose(req) == BackendKind::Cuda;
      check_memory("mad", mad_host_bytes(hr.width, hr.height, std::max(hr.channels, hd.known ? hd.channels : 0)),
                   mad_device_bytes(hr.width, hr.height), cuda);
    }
    const ImageD ref = load_gray("--ref", o->ref);
    const ImageD dst = load_gray("--dist", o->dist);
    MadOptions mo;
    validate_mad_input(ref, dst, mo);
    if (!o->maps.empty()) {
      // The folder is made only after computing, but whether it can be is known now: an
      // existing folder must accept the four maps, a new one's parent must accept it.
      std::error_code ec;
      if (std::filesystem::exists(o->maps, ec)) {
        if (!std::filesystem::is_directory(o->maps, ec))
          throw Error("--maps '" + o->maps + "': exists and is not a folder");
        for (const char* f : {"/hi.pfm", "/lo.pfm", "/hi.png", "/lo.png"}) check_output_path(o->maps + f, "--maps");
      } else {
        check_output_path(o->maps, "--maps");
      }
    }
    std::unique_ptr<MadEvaluator> ev;
    std::string reason;
    const BackendKind kind = builtin_registry().choose(req, &reason);  // the registry's choice
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
    if (kind == BackendKind::Cuda) ev = cuda::make_mad_cuda();
#endif
    if (!ev) {
      (void)kind;
      ev = make_mad_cpu();
    }
    if (!o->variant.empty()) {
      const auto vs = ev->variants();
      if (std::find(vs.begin(), vs.end(), o->variant) == vs.end())
        throw Error("--variant '" + o->variant + "' is not a variant of the " + to_string(ev->kind()) +
                    " backend (" + reason + ")");
    }
    MadResult r;
    for (int k = 0; k < o->repeat; ++k) r = ev->run(ref, dst, o->variant, mo);
    std::printf("mad %dx%d%s on %s [%s]: MAD %.4f  d_detect %.4f  d_appear %.6f  (%.3f ms)\n", r.width, r.height,
                r.cropped_odd ? " (odd size: last row/column dropped)" : "", ev->device_name().c_str(),
                r.variant.c_str(), r.mad, r.d_detect, r.d_appear, r.ms);
    if (!o->maps.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(o->maps, ec);
      if (ec) throw Error("--maps '" + o->maps + "': cannot create the folder (" + ec.message() + ")");
      save_pfm(o->maps + "/hi.pfm", to_float(r.hi));
      save_pfm(o->maps + "/lo.pfm", to_float(r.lo));
      save_image(o->maps + "/hi.png", colour_map(r.hi));
      save_image(o->maps + "/lo.png", colour_map(r.lo));
      std::printf("maps -> %s/{hi,lo}.{pfm,png}\n", o->maps.c_str());
    }
    if (!o->json.empty()) {
      Report rep("mad");
      rep.root()["parameters"] = {{"ref", o->ref}, {"dist", o->dist}, {"repeat", o->repeat},
                                  {"size", {r.width, r.height}}, {"cropped_odd", r.cropped_odd}};
      rep.root()["backend"] = to_string(ev->kind());
      rep.root()["device"] = ev->device_name();
      rep.root()["backend_reason"] = reason;
      rep.root()["variant"] = r.variant;
      rep.root()["mad"] = r.mad;
      rep.root()["d_detect"] = r.d_detect;
      rep.root()["d_appear"] = r.d_appear;
      rep.root()["last_ms"] = r.ms;
      if (!o->maps.empty()) {
        rep.add_output("hi", o->maps + "/hi.pfm", r.hi.width, r.hi.height);
        rep.add_output("lo", o->maps + "/lo.pfm", r.lo.width, r.lo.height);
      }
      rep.add_timings(ev->timings());
      rep.write(o->json);
    }
  };
}

}  // namespace lb::cli
