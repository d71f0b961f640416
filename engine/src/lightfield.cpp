// 4D light fields: loading (HCI and plain-grid folders), windows, views, refocus, synthetic
// planes. See lightfield.hpp for the layouts and conventions.
#include "lightbench/lightfield.hpp"

#include <cstdio>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "lightfield/cae_math.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "lightbench/cancel.hpp"
#include "lightbench/parallel.hpp"
#include "lightbench/progress.hpp"
#include "lightfield/refocus_math.hpp"

namespace lb {

namespace fs = std::filesystem;

namespace {

bool is_image_ext(const std::string& ext) {
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".ppm";
}

int isqrt_exact(int n) {
  const int r = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
  return r * r == n ? r : -1;
}

// Bilinear sample of channel c at (x, y), clamping the position to the image.
inline double sample_bilinear(const ImageU8& img, double x, double y, int c) {
  x = std::clamp(x, 0.0, static_cast<double>(img.width - 1));
  y = std::clamp(y, 0.0, static_cast<double>(img.height - 1));
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
  const double fx = x - x0, fy = y - y0;
  const double a = img.at(x0, y0, c), b = img.at(x1, y0, c);
  const double cc = img.at(x0, y1, c), d = img.at(x1, y1, c);
  const double top = a + fx * (b - a), bot = cc + fx * (d - cc);
  return top + fy * (bot - top);
}

}  // namespace

void validate(const LightField4D& lf) {
  LB_REQUIRE(lf.nu >= 1 && lf.nv >= 1, "light field: no views");
  LB_REQUIRE(lf.views.size() == static_cast<std::size_t>(lf.nu) * lf.nv,
             "light field: " + std::to_string(lf.views.size()) + " views for a " +
                 std::to_string(lf.nu) + "x" + std::to_string(lf.nv) + " grid");
  LB_REQUIRE(lf.width >= 1 && lf.height >= 1, "light field: empty views");
  for (std::size_t i = 0; i < lf.views.size(); ++i) {
    const ImageU8& v = lf.views[i];
    LB_REQUIRE(v.width == lf.width && v.height == lf.height,
               "light field: view " + std::to_string(i) + " is " + std::to_string(v.width) + "x" +
                   std::to_string(v.height) + ", expected " + std::to_string(lf.width) + "x" +
                   std::to_string(lf.height));
    LB_REQUIRE(v.channels == 3, "light field: view " + std::to_string(i) + " is not RGB8");
  }
  if (lf.has_gt())
    LB_REQUIRE(lf.gt.width == lf.width && lf.gt.height == lf.height && lf.gt.channels == 1,
               "light field: ground truth is " + std::to_string(lf.gt.width) + "x" +
                   std::to_string(lf.gt.height) + "x" + std::to_string(lf.gt.channels) +
                   ", expected " + std::to_string(lf.width) + "x" + std::to_string(lf.height) +
                   " single-channel");
}

// An HCI benchmark folder's parameters.cfg: num_cams_x / num_cams_y ("num_cams_x = 9"
// lines; {0, 0} when there is no such file or it lacks either key) and the scene's disparity
// range (disp_min / disp_max; both or neither). A value out of range is an error: the file is
// there to be trusted.
struct HciCfg {
  int x = 0, y = 0;
  bool has_range = false;
  float disp_min = 0, disp_max = 0;
};
static HciCfg read_hci_cfg(const std::string& dir) {
  HciCfg c;
  const fs::path cfg = fs::path(dir) / "parameters.cfg";
  std::error_code ec;
  if (!fs::exists(cfg, ec)) return c;
  // There: a regular file of at most 1 MiB (a named pipe or a device is refused before opening).
  std::istringstream in(read_text_file(cfg.string(), "light field parameters.cfg", kConfigFileLimit));
  // Whatever follows "num_cams_x =" is checked: a whole number in 1..99, else refused (0, -9, 9.5).
  const std::regex key(R"(\s*num_cams_([xy])\s*=\s*(.*?)\s*\r?)");
  const std::regex disp(R"(\s*disp_(min|max)\s*=\s*(\S*)\s*\r?)");
  bool has_min = false, has_max = false;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, disp)) {
      const std::string v = m[2].str();
      float f = 0;
      std::size_t used = 0;
      try {
        f = std::stof(v, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      LB_REQUIRE(used > 0 && used == v.size() && std::isfinite(f) && std::fabs(f) <= 1000.0f,
                 "light field '" + dir + "': parameters.cfg: disp_" + m[1].str() + " = " + quote_untrusted(v) +
                     " is not a disparity in -1000..1000");
      (m[1].str() == "min" ? c.disp_min : c.disp_max) = f;
      (m[1].str() == "min" ? has_min : has_max) = true;
      continue;
    }
    if (!std::regex_match(line, m, key)) continue;
    const std::string v = m[2].str();
    // A whole number: an optional sign, then digits (no more than fit; 100 stands for "too many").
    const std::size_t sign = !v.empty() && (v[0] == '-' || v[0] == '+') ? 1 : 0;
    const bool whole = v.size() > sign && v.find_first_not_of("0123456789", sign) == std::string::npos;
    LB_REQUIRE(whole, "light field '" + dir + "': parameters.cfg: num_cams_" + m[1].str() + " = " + quote_untrusted(v) +
                          " is not a whole number of views (1..99)");
    const std::string digits = v.substr(sign);
    const std::size_t nz = digits.find_first_not_of('0');
    const int mag = nz == std::string::npos ? 0 : digits.size() - nz > 2 ? 100 : std::stoi(digits.substr(nz));
    const int n = v[0] == '-' ? -mag : mag;
    LB_REQUIRE(n >= 1 && n <= 99, "light field '" + dir + "': parameters.cfg: num_cams_" + m[1].str() + " = " +
                                      escape_untrusted(v) + " is out of range (1..99)");
    (m[1].str() == "x" ? c.x : c.y) = n;
  }
  if (!(c.x > 0 && c.y > 0)) c.x = c.y = 0;
  LB_REQUIRE(has_min == has_max, "light field '" + dir + "': parameters.cfg gives disp_" +
                                     (has_min ? "min" : "max") + " without disp_" + (has_min ? "max" : "min"));
  if (has_min)
    LB_REQUIRE(c.disp_min < c.disp_max, "light field '" + dir + "': parameters.cfg: disp_min " +
                                            std::to_string(c.disp_min) + " is not below disp_max " +
                                            std::to_string(c.disp_max));
  c.has_range = has_min;
  return c;
}

LightField4D load_lightfield(const std::string& dir, const LightFieldLoadOptions& opt) {
  std::error_code ec;
  LB_REQUIRE(fs::is_directory(dir, ec), "light field '" + dir + "': not a directory");
  const std::regex hci(R"(input_Cam(\d+)\.(png|jpg|jpeg|bmp|ppm))", std::regex::icase);
  const std::regex uv(R"(view_(\d+)_(\d+)\.(png|jpg|jpeg|bmp|ppm))", std::regex::icase);
  const std::regex numbered(R"((\d+)\.(png|jpg|jpeg|bmp|ppm))", std::regex::icase);
  std::map<int, std::string> by_index_hci, by_index_num;
  std::map<std::pair<int, int>, std::string> by_uv;
  // An angular index: digits only (the regexes), at most kMaxIndex (no overflow).
  constexpr int kMaxIndex = 99999;
  auto index = [&](const std::string& digits, const std::string& name) {
    const std::size_t nz = digits.find_first_not_of('0');
    LB_REQUIRE(nz == std::string::npos || digits.size() - nz <= 5,
               "light field '" + dir + "': " + name + ": view index out of range (0.." + std::to_string(kMaxIndex) + ")");
    return nz == std::string::npos ? 0 : std::stoi(digits.substr(nz));
  };
  // Two files for one view (input_Cam1.png and input_Cam001.png, or .png and .jpg): which one?
  auto put = [&](auto& map, const auto& key, const fs::path& path) {
    const auto [it, fresh] = map.emplace(key, path.string());
    LB_REQUIRE(fresh, "light field '" + dir + "': " + fs::path(it->second).filename().string() + " and " +
                          path.filename().string() + " are the same view");
  };
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (!is_image_ext(file_extension(name))) continue;
    std::smatch m;
    if (std::regex_match(name, m, hci)) {
      put(by_index_hci, index(m[1].str(), name), e.path());
    } else if (std::regex_match(name, m, uv)) {
      put(by_uv, std::pair<int, int>{index(m[1].str(), name), index(m[2].str(), name)}, e.path());
    } else if (std::regex_match(name, m, numbered)) {
      put(by_index_num, index(m[1].str(), name), e.path());
    }
  }
  LB_REQUIRE(!ec, "light field '" + dir + "': " + ec.message());
  LB_REQUIRE(!by_index_hci.empty() + !by_uv.empty() + !by_index_num.empty() <= 1,
             "light field '" + dir + "': mixes view layouts (input_CamNNN, view_U_V, NNN files); keep one");

  LightField4D lf;
  lf.source = dir;
  std::vector<std::string> files;
  auto from_index = [&](const std::map<int, std::string>& m, const char* what, bool hci_layout) {
    // Every index 0 .. highest must be there: a gap names the first missing view.
    const int n = m.rbegin()->first + 1;
    for (int i = 0; i < n; ++i)
      LB_REQUIRE(m.count(i), "light field '" + dir + "': " + what + " view " + std::to_string(i) +
                                 " is missing (found " + std::to_string(m.size()) + " of " + std::to_string(n) +
                                 " views 0.." + std::to_string(n - 1) + ")");
    if (opt.grid_u > 0 || opt.grid_v > 0) {
      LB_REQUIRE(opt.grid_u > 0 && opt.grid_v > 0 && opt.grid_u * opt.grid_v == n,
                 "light field '" + dir + "': grid " + std::to_string(opt.grid_u) + "x" +
                     std::to_string(opt.grid_v) + " does not match " + std::to_string(n) + " views");
      lf.nu = opt.grid_u;
      lf.nv = opt.grid_v;
    } else if (hci_layout) {
      // The HCI benchmark names its views input_Cam000 .. input_Cam080 (9 x 9) and states the
      // grid in parameters.cfg. A folder whose views simply stop early (64 of 81 copied) looks
      // like a complete 8 x 8 grid, so the count alone never decides the grid here: it comes
      // from parameters.cfg, from --grid, or is the benchmark's 9 x 9.
      const HciCfg hc = read_hci_cfg(dir);
      const int cx = hc.x, cy = hc.y;
      const int gx = cx > 0 ? cx : 9, gy = cy > 0 ? cy : 9;
      LB_REQUIRE(gx * gy == n,
                 "light field '" + dir + "': " + std::to_string(n) + " input_Cam views (0.." + std::to_string(n - 1) +
                     ") but " + (cx > 0 ? "parameters.cfg says " : "HCI folders hold ") + std::to_string(gx) + "x" +
                     std::to_string(gy) + " = " + std::to_string(gx * gy) +
                     (n < gx * gy ? ": input_Cam" + std::to_string(n) + " and later are missing" : "") +
                     (cx > 0 ? "" : " (another grid: parameters.cfg with num_cams_x/num_cams_y, or --grid UxV)"));
      lf.nu = gx;
      lf.nv = gy;
    } else {
      const int r = isqrt_exact(n);
      LB_REQUIRE(r > 0, "light field '" + dir + "': " + std::to_string(n) +
                            " views is not a square count; give the grid (--grid UxV)");
      lf.nu = lf.nv = r;
    }
    for (const auto& [i, f] : m) files.push_back(f);
  };
  if (!by_index_hci.empty()) {
    lf.layout = "hci";
    from_index(by_index_hci, "input_Cam", true);
  } else if (!by_uv.empty()) {
    lf.layout = "grid-uv";
    int mu = 0, mv = 0;
    for (const auto& [k, f] : by_uv) {
      mu = std::max(mu, k.first + 1);
      mv = std::max(mv, k.second + 1);
    }
    for (int v = 0; v < mv; ++v)
      for (int u = 0; u < mu; ++u) {
        auto it = by_uv.find({u, v});
        LB_REQUIRE(it != by_uv.end(), "light field '" + dir + "': view_" + std::to_string(u) + "_" +
                                          std::to_string(v) + " is missing (grid " +
                                          std::to_string(mu) + "x" + std::to_string(mv) + ")");
        files.push_back(it->second);
      }
    if (opt.grid_u > 0 || opt.grid_v > 0)
      LB_REQUIRE(opt.grid_u == mu && opt.grid_v == mv,
                 "light field '" + dir + "': grid " + std::to_string(opt.grid_u) + "x" + std::to_string(opt.grid_v) +
                     " does not match the " + std::to_string(mu) + "x" + std::to_string(mv) + " view_U_V views");
    lf.nu = mu;
    lf.nv = mv;
  } else if (!by_index_num.empty()) {
    lf.layout = "grid-numbered";
    from_index(by_index_num, "numbered", false);
  } else {
    throw Error("light field '" + dir +
                "': no views (expected input_CamNNN.png, view_U_V.png or NNN.png)");
  }

  lf.views.resize(files.size());
  std::vector<ImageOrigin> origins(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    // Between files: a cancelled load stops here, and a watcher learns how far it got.
    throw_if_cancelled();
    report_progress(static_cast<double>(i) / static_cast<double>(files.size()),
                    "view " + std::to_string(i + 1) + " of " + std::to_string(files.size()));
    lf.views[i] = load_image_8bit(files[i], &origins[i], 3);  // 16-bit PNG: v/257
    if (i == 0) {
      lf.width = lf.views[0].width;
      lf.height = lf.views[0].height;
    }
    LB_REQUIRE(lf.views[i].width == lf.width && lf.views[i].height == lf.height,
               "light field '" + dir + "': " + fs::path(files[i]).filename().string() + " is " +
                   std::to_string(lf.views[i].width) + "x" + std::to_string(lf.views[i].height) +
                   ", the first view is " + std::to_string(lf.width) + "x" +
                   std::to_string(lf.height));
  }
  lf.views_origin = deepest_origin(origins, dir);
  if (opt.load_gt) {
    for (const char* name : {"gt_disp_lowres.pfm", "gt_disp.pfm", "disparity.pfm"}) {
      const fs::path p = fs::path(dir) / name;
      if (fs::is_regular_file(p, ec)) {
        lf.gt = load_pfm(p.string());
        if (lf.gt.channels != 1)
          throw Error("light field '" + dir + "': " + name + " is not a single-channel PFM");
        break;
      }
    }
  }
  if (const HciCfg hc = read_hci_cfg(dir); hc.has_range) {
    lf.disp_min = hc.disp_min;
    lf.disp_max = hc.disp_max;
  }
  validate(lf);
  return lf;
}

void save_lightfield(const std::string& dir, const LightField4D& lf) {
  validate(lf);
  std::error_code ec;
  fs::create_directories(dir, ec);
  LB_REQUIRE(fs::is_directory(dir, ec), "light field '" + dir + "': cannot create the directory");
  for (int v = 0; v < lf.nv; ++v)
    for (int u = 0; u < lf.nu; ++u)
      save_image((fs::path(dir) / ("view_" + std::to_string(u) + "_" + std::to_string(v) + ".png"))
                     .string(),
                 lf.view(u, v));
  if (lf.has_gt()) save_pfm((fs::path(dir) / "gt_disp_lowres.pfm").string(), lf.gt);
}

AngularWindow angular_window(const LightField4D& lf, int n) {
  LB_REQUIRE(n >= 1 && n % 2 == 1, "views: the angular window must be odd (1, 3, 5, 7, 9 ...), got " +
                                       std::to_string(n));
  const int h = n / 2;
  LB_REQUIRE(lf.uc() - h >= 0 && lf.uc() + h < lf.nu && lf.vc() - h >= 0 && lf.vc() + h < lf.nv,
             "views: a " + std::to_string(n) + "x" + std::to_string(n) + " window does not fit the " +
                 std::to_string(lf.nu) + "x" + std::to_string(lf.nv) + " light field");
  return {n, lf.uc() - h, lf.vc() - h};
}

std::vector<int> angular_window_sizes(const LightField4D& lf) {
  std::vector<int> out;
  const int h = std::min({lf.uc(), lf.nu - 1 - lf.uc(), lf.vc(), lf.nv - 1 - lf.vc()});
  for (int k = 0; k <= h; ++k) out.push_back(2 * k + 1);
  return out;
}

LightField4D crop_views(const LightField4D& lf, int n) {
  const AngularWindow w = angular_window(lf, n);
  LightField4D out;
  out.nu = out.nv = n;
  out.width = lf.width;
  out.height = lf.height;
  out.gt = lf.gt;
  out.source = lf.source;
  out.layout = lf.layout;
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u) out.views.push_back(lf.view(w.u0 + u, w.v0 + v));
  return out;
}

ImageU8 extract_view(const LightField4D& lf, int u, int v) {
  LB_REQUIRE(u >= 0 && u < lf.nu && v >= 0 && v < lf.nv,
             "view (" + std::to_string(u) + "," + std::to_string(v) + ") is outside the " +
                 std::to_string(lf.nu) + "x" + std::to_string(lf.nv) + " light field");
  return lf.view(u, v);
}

ImageU8 refocus_cpu(const LightField4D& lf, float disparity, int aperture_radius, int threads) {
  validate(lf);
  LB_REQUIRE(aperture_radius >= 0, "refocus: the aperture radius must be >= 0");
  LB_REQUIRE(std::isfinite(disparity), "refocus: the disparity must be finite");
  // The per-pixel math is refocus_math.hpp's, shared with the CUDA kernel (same bytes).
  const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, aperture_radius);
  auto fetch = [&lf](int u, int v, int x, int y) {
    const std::uint8_t* p = &lf.view(u, v).at(x, y);
    return refocus::Rgb8{p[0], p[1], p[2]};
  };
  ImageU8 out(lf.width, lf.height, 3);
  parallel_for(
      lf.height,
      [&](int y) {
        for (int x = 0; x < lf.width; ++x) {
          const refocus::Rgb8 c = refocus::refocus_pixel(fetch, lf.width, lf.height, ap, disparity, x, y);
          std::uint8_t* o = &out.at(x, y);
          o[0] = c.r;
          o[1] = c.g;
          o[2] = c.b;
        }
      },
      threads);
  return out;
}

LightField4D synthetic_plane_lightfield(int width, int height, int nu, int nv, float disparity,
                                        unsigned seed, int smooth) {
  LB_REQUIRE(width >= 1 && height >= 1 && nu >= 1 && nv >= 1, "synthetic light field: bad size");
  const int margin = static_cast<int>(std::ceil(std::fabs(disparity) * std::max(nu, nv))) + 2;
  const int tw = width + 2 * margin, th = height + 2 * margin;
  ImageU8 tex(tw, th, 3);
  std::mt19937 rng(seed);
  for (auto& b : tex.data) b = static_cast<std::uint8_t>(rng() & 0xff);
  for (int pass = 0; pass < smooth; ++pass) {  // 3x3 box blur
    ImageU8 t2 = tex;
    for (int y = 0; y < th; ++y)
      for (int x = 0; x < tw; ++x)
        for (int c = 0; c < 3; ++c) {
          int s = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              s += tex.at(std::clamp(x + dx, 0, tw - 1), std::clamp(y + dy, 0, th - 1), c);
          t2.at(x, y, c) = static_cast<std::uint8_t>((s + 4) / 9);
        }
    tex = std::move(t2);
  }
  LightField4D lf;
  lf.nu = nu;
  lf.nv = nv;
  lf.width = width;
  lf.height = height;
  lf.layout = "memory";
  lf.source = "synthetic plane d=" + std::to_string(disparity);
  lf.views.resize(static_cast<std::size_t>(nu) * nv);
  for (int v = 0; v < nv; ++v)
    for (int u = 0; u < nu; ++u) {
      ImageU8 img(width, height, 3);
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
          // The centre point x shows in view (u, v) at x + kShearSign * d * (u - uc).
          const double sx = x + margin - cae::kShearSign * static_cast<double>(disparity) * (u - lf.uc());
          const double sy = y + margin - cae::kShearSign * static_cast<double>(disparity) * (v - lf.vc());
          for (int c = 0; c < 3; ++c)
            img.at(x, y, c) = static_cast<std::uint8_t>(std::clamp(std::floor(sample_bilinear(tex, sx, sy, c) + 0.5), 0.0, 255.0));
        }
      lf.view(u, v) = std::move(img);
    }
  lf.gt = ImageF(width, height, 1, disparity);
  return lf;
}

LightField4D synthetic_two_plane_lightfield(int width, int height, int nu, int nv, float d_back,
                                            float d_front, unsigned seed, int smooth) {
  LightField4D back = synthetic_plane_lightfield(width, height, nu, nv, d_back, seed, smooth);
  const LightField4D front = synthetic_plane_lightfield(width, height, nu, nv, d_front, seed + 7919u, smooth);
  // The front square: the middle half of the centre view. View (u, v) pixel x shows the
  // front plane's point at centre position x - kShearSign * d_front * (u - uc).
  const double x0 = width / 4.0, x1 = width - width / 4.0, y0 = height / 4.0, y1 = height - height / 4.0;
  for (int v = 0; v < nv; ++v)
    for (int u = 0; u < nu; ++u) {
      ImageU8& out = back.view(u, v);
      const ImageU8& f = front.view(u, v);
      const double sx = -cae::kShearSign * static_cast<double>(d_front) * (u - back.uc());
      const double sy = -cae::kShearSign * static_cast<double>(d_front) * (v - back.vc());
      for (int y = 0; y < height; ++y) {
        const double cy = y + sy;
        if (cy < y0 || cy >= y1) continue;
        for (int x = 0; x < width; ++x) {
          const double cx = x + sx;
          if (cx < x0 || cx >= x1) continue;
          for (int c = 0; c < 3; ++c) out.at(x, y, c) = f.at(x, y, c);
        }
      }
    }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (x >= x0 && x < x1 && y >= y0 && y < y1) back.gt.at(x, y) = d_front;
  char name[96];
  std::snprintf(name, sizeof name, "synthetic two planes, d = %g (back) / %g (square)", d_back, d_front);
  back.source = name;
  return back;
}

}  // namespace lb
