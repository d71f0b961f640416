#pragma once
// Small data sets in their published layouts, written by the tests themselves (save_image,
// save_png16, save_pfm) into a temporary folder: Middlebury 2001 / 2014 scenes, HCI light
// fields, KITTI 2012 / 2015 training folders, TID2013 and KADID-10k databases. Plus a
// snapshot of a folder (names, sizes, times) to check that opening writes nothing.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/stereo_io.hpp"
#include "test_util.hpp"

namespace lbt::ds {

namespace fs = std::filesystem;

using lbt::msg;  // test_util.hpp
inline bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
inline bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }

inline void text(const fs::path& p, const std::string& t) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << t;
}

constexpr int kW = 24, kH = 16;

inline void pair(const fs::path& d, const std::string& l, const std::string& r, int channels = 1) {
  fs::create_directories(d);
  const lb::stereo::StereoPair p = lb::stereo::synthetic_plane_pair(kW, kH, 2, 3u, channels);
  lb::save_image((d / l).string(), p.left);
  lb::save_image((d / r).string(), p.right);
}

// Middlebury 2001: imL/imR, groundtruth.png of value 16 (tsukuba's scale 16: disparity 1).
inline void mb2001(const fs::path& d, bool truth = true) {
  pair(d, "imL.png", "imR.png");
  if (truth) lb::save_image((d / "groundtruth.png").string(), lb::ImageU8(kW, kH, 1, 16));
}

inline const char* kCalib = "cam0=[100 0 12; 0 100 8; 0 0 1]\nbaseline=50\nwidth=24\nheight=16\nndisp=12\n";
// Middlebury 2014: im0/im1, calib.txt (ndisp 12), disp0GT.pfm of 2.
inline void mb2014(const fs::path& d, bool truth = true) {
  pair(d, "im0.png", "im1.png");
  text(d / "calib.txt", kCalib);
  if (truth) lb::save_pfm((d / "disp0GT.pfm").string(), lb::ImageF(kW, kH, 1, 2.0f));
}

// HCI: a 3x3 light field as view_U_V.png + gt_disp_lowres.pfm (0.5), parameters.cfg.
inline void hci(const fs::path& d, bool cfg = true) {
  lb::save_lightfield(d.string(), lb::synthetic_plane_lightfield(10, 8, 3, 3, 0.5f, 1u));
  if (cfg) text(d / "parameters.cfg", "[meta]\nnum_cams_x = 3\nnum_cams_y = 3\ndisp_min = -1\ndisp_max = 1\n");
}

// KITTI: 2012 (image_0/1 grey, disp_occ, disp_noc) or 2015 (image_2/3 colour, disp_occ_0,
// disp_noc_0, obj_map). Frame i's truth: occ = (10 + i) px everywhere but pixel (0, 0) (0 =
// unknown); noc the same except row 1 (occluded: unknown in noc). obj_map: left half
// foreground.
inline void kitti(const fs::path& t, int year, int frames = 2) {
  const bool k15 = year == 2015;
  const std::string l = k15 ? "image_2" : "image_0", r = k15 ? "image_3" : "image_1";
  const std::string occ = k15 ? "disp_occ_0" : "disp_occ", noc = k15 ? "disp_noc_0" : "disp_noc";
  for (const auto& sub : {l, r, occ, noc}) fs::create_directories(t / sub);
  if (k15) fs::create_directories(t / "obj_map");
  for (int i = 0; i < frames; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%06d_10.png", i);
    char name11[32];
    std::snprintf(name11, sizeof name11, "%06d_11.png", i);
    pair(t / "tmp", "l.png", "r.png", k15 ? 3 : 1);
    fs::rename(t / "tmp" / "l.png", t / l / name);
    fs::rename(t / "tmp" / "r.png", t / r / name);
    lb::save_image((t / l / name11).string(), lb::ImageU8(kW, kH, k15 ? 3 : 1, 7));  // no truth: not a scene
    fs::remove_all(t / "tmp");
    lb::ImageU16 o(kW, kH, 1, static_cast<std::uint16_t>((10 + i) * 256));
    o.at(0, 0) = 0;
    lb::save_png16((t / occ / name).string(), o);
    for (int x = 0; x < kW; ++x) o.at(x, 1) = 0;
    lb::save_png16((t / noc / name).string(), o);
    if (k15) {
      lb::ImageU8 m(kW, kH, 1, 0);
      for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW / 2; ++x) m.at(x, y) = 1;
      lb::save_image((t / "obj_map" / name).string(), m);
    }
  }
}

// TID2013: reference_images/I01.BMP, I02.BMP; distorted_images/i01_01_1.bmp, i01_02_1.bmp,
// i02_01_1.bmp (lower case, as published); mos_with_names.txt.
inline void tid(const fs::path& d) {
  fs::create_directories(d / "reference_images");
  fs::create_directories(d / "distorted_images");
  const auto ref = [](int s) { return lb::ImageU8(12, 8, 3, static_cast<std::uint8_t>(s)); };
  lb::save_image((d / "reference_images" / "I01.bmp").string(), ref(10));
  fs::rename(d / "reference_images" / "I01.bmp", d / "reference_images" / "I01.BMP");
  lb::save_image((d / "reference_images" / "I02.bmp").string(), ref(20));
  fs::rename(d / "reference_images" / "I02.bmp", d / "reference_images" / "I02.BMP");
  for (const char* n : {"i01_01_1.bmp", "i01_02_1.bmp", "i02_01_1.bmp"})
    lb::save_image((d / "distorted_images" / n).string(), ref(30));
  text(d / "mos_with_names.txt", "5.51429 i01_01_1.bmp\r\n4.5 I01_02_1.BMP\r\n6.25 i02_01_1.bmp\r\n");
}

// KADID-10k: images/I01.png, I01_01_01.png, I01_01_02.png; dmos.csv with var.
inline void kadid(const fs::path& d) {
  fs::create_directories(d / "images");
  for (const char* n : {"I01.png", "I01_01_01.png", "I01_01_02.png"})
    lb::save_image((d / "images" / n).string(), lb::ImageU8(12, 8, 3, 40));
  text(d / "dmos.csv", "dist_img,ref_img,dmos,var\nI01_01_02.png,I01.png,3.5,0.25\nI01_01_01.png,I01.png,4.57,0.496\n");
}

// Every file under dir with its size and time: equal snapshots = nothing written.
inline std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> snapshot(const fs::path& dir) {
  std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    out[e.path().string()] = {e.is_regular_file() ? e.file_size() : 0, e.last_write_time()};
  return out;
}

}  // namespace lbt::ds
