// lightbench-cli generate-stereo: a folder of synthetic rectified stereo scenes in the
// Middlebury 2014 layout (im0.png, im1.png, calib.txt, disp0GT.pfm, mask0nocc.png), so that
// `batch`, `eval` and the viewer's data-set paths can be exercised and timed on any machine
// without copying public data (gpu-check times BP over such a folder of 450x375 pairs).
// Each scene is two fronto-parallel planes over random texture (stereo_io.hpp's synthetic
// pairs); its disparities vary with the scene index so the scenes are not copies.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/memory_budget.hpp"
#include "lightbench/stereo_io.hpp"
#include "option_checks.hpp"

namespace lb::cli {
namespace {

namespace fs = std::filesystem;

// "WxH" with both sides in 16..8192.
void parse_size(const std::string& s, int* w, int* h) {
  int n = 0;
  char x = 0;
  const bool ok = std::sscanf(s.c_str(), "%d%c%d%n", w, &x, h, &n) == 3 && x == 'x' &&
                  n == static_cast<int>(s.size());
  LB_REQUIRE(ok && *w >= 16 && *h >= 16 && *w <= 8192 && *h <= 8192,
             "--size " + quote_untrusted(s, 300) + ": expected WxH with both sides in 16..8192, e.g. 450x375");
}

// mask0nocc.png's code per left pixel: 255 seen in both views, 128 occluded in the right view
// (its match is covered by the front plane, or falls off the right image).
ImageU8 nocc_mask(const ImageF& truth) {
  ImageU8 m(truth.width, truth.height, 1, 255);
  for (int y = 0; y < truth.height; ++y)
    for (int x = 0; x < truth.width; ++x) {
      const float d = truth.at(x, y);
      const int xr = x - static_cast<int>(d);
      if (xr < 0) {
        m.at(x, y) = 128;
        continue;
      }
      // Another left pixel with a larger disparity landing on the same right pixel hides it.
      for (int x2 = x + 1; x2 < truth.width; ++x2)
        if (x2 - static_cast<int>(truth.at(x2, y)) == xr && truth.at(x2, y) > d) {
          m.at(x, y) = 128;
          break;
        }
    }
  return m;
}

std::string calib_text(int w, int h, int ndisp) {
  std::ostringstream c;
  c << "cam0=[1000 0 " << w / 2 << "; 0 1000 " << h / 2 << "; 0 0 1]\n"
    << "cam1=[1000 0 " << w / 2 << "; 0 1000 " << h / 2 << "; 0 0 1]\n"
    << "doffs=0\nbaseline=100\nwidth=" << w << "\nheight=" << h << "\nndisp=" << ndisp
    << "\nisint=0\nvmin=0\nvmax=" << ndisp - 1 << "\ndyavg=0\ndymax=0\n";
  return c.str();
}

}  // namespace

Action add_generate_stereo(CLI::App& app) {
  struct Opts {
    std::string out, size = "450x375";
    int count = 8, ndisp = 64;
    std::uint64_t seed = 1;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--out", o->out, "output folder (one sub-folder per scene: scene_000, scene_001, ...)")->required();
  app.add_option("--count", o->count, "number of scenes")->check(int_in(1, 10000))->capture_default_str();
  app.add_option("--size", o->size, "image size WxH")->capture_default_str();
  app.add_option("--ndisp", o->ndisp, "disparity count written to calib.txt (the planes stay below it)")
      ->check(int_in(8, 1024))
      ->capture_default_str();
  app.add_option("--seed", o->seed, "random seed of the first scene")->check(uint64_any())->capture_default_str();
  return [o] {
    int w = 0, h = 0;
    parse_size(o->size, &w, &h);
    std::error_code ec;
    LB_REQUIRE(!fs::exists(o->out, ec) || fs::is_directory(o->out, ec),
               "--out " + quote_untrusted(o->out, 300) + ": exists and is not a folder");
    check_host_memory("generate-stereo", static_cast<std::uint64_t>(w) * h * 16);
    progress("generate-stereo: " + std::to_string(o->count) + " scenes ...");
    for (int i = 0; i < o->count; ++i) {
      // Back plane in [ndisp/8, ndisp/4), front plane up to ~3/4 of ndisp: both stay below it.
      const int d_back = o->ndisp / 8 + (i * 7) % std::max(1, o->ndisp / 8);
      const int d_front = std::min(o->ndisp - 1, d_back + o->ndisp / 4 + (i * 5) % std::max(1, o->ndisp / 4));
      ImageF truth;
      const auto seed = static_cast<std::uint32_t>(o->seed + static_cast<std::uint64_t>(i));
      const stereo::StereoPair p = stereo::synthetic_two_plane_pair(w, h, d_back, d_front, seed, &truth, 3);
      char name[32];
      std::snprintf(name, sizeof name, "scene_%03d", i);
      const fs::path dir = fs::path(o->out) / name;
      fs::create_directories(dir, ec);
      LB_REQUIRE(!ec, "--out " + quote_untrusted(o->out, 300) + ": cannot create " + dir.string() + " (" + ec.message() + ")");
      save_image((dir / "im0.png").string(), p.left);
      save_image((dir / "im1.png").string(), p.right);
      save_pfm((dir / "disp0GT.pfm").string(), truth);
      save_image((dir / "mask0nocc.png").string(), nocc_mask(truth));
      write_file_atomic((dir / "calib.txt").string(), calib_text(w, h, o->ndisp));
    }
    progress_done();
    std::printf("generated %d stereo scenes of %dx%d (Middlebury 2014 layout, ndisp %d) in %s\n", o->count, w, h,
                o->ndisp, o->out.c_str());
  };
}

}  // namespace lb::cli
