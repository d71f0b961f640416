// 16-bit images given to inputs that compute on 8-bit values (issue 39, item 3): converted
// as image libraries do, round(v / 257) = (v + 128) / 257, never refused, and told
// (ImageOrigin: bit_depth 16, converted "v/257"). Stereo pairs, the data set openers
// (Middlebury 2001 / 2014, KITTI, IQA, HCI light fields), plenoptic raws: the same images as
// the 8-bit files converted by the rule. Maps keep their full depth (KITTI truth, load_image16),
// and load_image (masks, object maps) still refuses a 16-bit PNG.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <random>

#include "dataset_fixtures.hpp"
#include "lightbench/algorithm.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/stereo_io.hpp"
#include "test_util.hpp"

using namespace lb;
namespace fs = std::filesystem;

namespace {

// A 16-bit image of random samples, with values at the rounding edges (v mod 257 = 128, 129).
ImageU16 wide_image(int w, int h, int c, unsigned seed) {
  ImageU16 img(w, h, c);
  std::mt19937 rng(seed);
  for (auto& v : img.data) v = static_cast<std::uint16_t>(rng() & 0xffff);
  const std::uint16_t edges[] = {0, 128, 129, 257 + 128, 257 + 129, 65535, 65535 - 128, 65535 - 129};
  for (std::size_t i = 0; i < sizeof edges / sizeof edges[0] && i < img.data.size(); ++i) img.data[i] = edges[i];
  return img;
}

// 8 bits made 16 (v * 257 + noise below the rounding step): converts back to `img` exactly.
ImageU16 widen(const ImageU8& img, unsigned seed) {
  ImageU16 w(img.width, img.height, img.channels);
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < img.data.size(); ++i) {
    const int v = img.data[i] * 257 + static_cast<int>(rng() % 257) - 128;
    w.data[i] = static_cast<std::uint16_t>(std::clamp(v, 0, 65535));
  }
  return w;
}

// The rule, written out: round(v / 257) in doubles.
ImageU8 by_rule(const ImageU16& w) {
  ImageU8 n(w.width, w.height, w.channels);
  for (std::size_t i = 0; i < w.data.size(); ++i) n.data[i] = static_cast<std::uint8_t>(std::lround(w.data[i] / 257.0));
  return n;
}

// A random 16-bit PNG at `wide_path`; returns the image converted by the rule.
ImageU8 write_wide(const fs::path& wide_path, int w, int h, int c, unsigned seed) {
  const ImageU16 wide = wide_image(w, h, c, seed);
  save_png16(wide_path.string(), wide);
  return by_rule(wide);
}

// Every 8-bit image file of a folder (recursively) rewritten as a 16-bit PNG of the same name
// that converts back to it exactly (the folder's layout stays, its images become 16-bit).
void widen_folder(const fs::path& dir, const std::vector<std::string>& names) {
  unsigned seed = 1;
  for (const auto& n : names) {
    const fs::path p = dir / n;
    save_png16(p.string(), widen(load_image(p.string()), seed++));
  }
}

bool is16(const ImageOrigin& o) { return o.bit_depth == 16 && o.converted == "v/257"; }
bool is8(const ImageOrigin& o) { return o.bit_depth == 8 && o.converted.empty(); }

}  // namespace

TEST_CASE("16-bit: (v + 128) / 257 equals round(v / 257) for all 65536 values") {
  int mismatches = 0, halves = 0;
  for (unsigned v = 0; v <= 65535; ++v) {
    const long want = std::lround(v / 257.0);
    // v / 257 is never exactly k + 0.5 (257 is odd): no tie for the rounding to break.
    if (std::fabs(v / 257.0 - std::floor(v / 257.0) - 0.5) < 1e-9) ++halves;
    if (to_8bit(static_cast<std::uint16_t>(v)) != want) ++mismatches;
    if ((v + 128) / 257 != static_cast<unsigned long>(want)) ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(halves == 0);
  CHECK(to_8bit(0) == 0);
  CHECK(to_8bit(128) == 0);
  CHECK(to_8bit(129) == 1);
  CHECK(to_8bit(257) == 1);
  CHECK(to_8bit(65535) == 255);
  // 8 bits widened by 257 (the way 8-bit images become 16-bit) come back exactly.
  for (unsigned v = 0; v <= 255; ++v) CHECK(to_8bit(static_cast<std::uint16_t>(v * 257)) == v);
}

TEST_CASE("16-bit PNG: load_image_8bit converts every layout; load_image still refuses it") {
  lbt::TempDir dir("png16");
  for (int c = 1; c <= 4; ++c) {
    CAPTURE(c);
    const std::string path = dir.file("w" + std::to_string(c) + ".png");
    const ImageU8 want = write_wide(path, 13, 7, c, 10u + c);
    ImageOrigin o;
    const ImageU8 got = load_image_8bit(path, &o);
    CHECK(got.same_shape(want));
    CHECK(got.data == want.data);
    CHECK(o.path == path);
    CHECK(is16(o));
    CHECK(conversion_note(o) == "16-bit input converted to 8 bits (v/257)");
    // Channel conversion after the depth conversion, as for an 8-bit file of those values.
    save_image(dir.file("n.png"), want);
    for (int want_c : {1, 3, 4}) CHECK(load_image_8bit(path, nullptr, want_c).data == load_image(dir.file("n.png"), want_c).data);
    // The bytes in memory: the same.
    const std::vector<unsigned char> bytes = [&] {
      std::ifstream f(path, std::ios::binary);
      return std::vector<unsigned char>(std::istreambuf_iterator<char>(f), {});
    }();
    ImageOrigin mo;
    CHECK(decode_image_8bit(bytes, "mem", &mo).data == want.data);
    CHECK(is16(mo));
    CHECK(mo.path == "mem");
    // load_image (what maps and masks are read with) refuses it, as before.
    const std::string msg = lbt::msg([&] { load_image(path); });
    CHECK(msg.find("16-bit PNG") != std::string::npos);
  }
}

TEST_CASE("16-bit: 8-bit files report bit_depth 8 and no conversion; PNM of maxval > 255 is told") {
  lbt::TempDir dir("png8");
  const ImageU8 img = lbt::random_image(9, 5, 3, 4);
  for (const char* ext : {".png", ".bmp", ".ppm", ".jpg"}) {
    CAPTURE(ext);
    const std::string p = dir.file(std::string("a") + ext);
    save_image(p, img);
    ImageOrigin o;
    o.bit_depth = 99;
    o.converted = "stale";
    const ImageU8 got = load_image_8bit(p, &o);
    CHECK(got.data == load_image(p).data);
    CHECK(is8(o));
    CHECK(o.path == p);
    CHECK(conversion_note(o).empty());
  }
  // P5 of maxval 65535 (big-endian samples): exactly v/257, and said so.
  const ImageU16 wide = wide_image(6, 4, 1, 8);
  std::string pgm = "P5\n6 4\n65535\n";
  for (std::uint16_t v : wide.data) pgm += static_cast<char>(v >> 8), pgm += static_cast<char>(v & 0xff);
  lbt::ds::text(dir.path / "w.pgm", pgm);
  ImageOrigin o;
  CHECK(load_image_8bit(dir.file("w.pgm"), &o).data == by_rule(wide).data);
  CHECK(load_image(dir.file("w.pgm")).data == by_rule(wide).data);  // as before
  CHECK(is16(o));
  // P5 of maxval 1023: 10 bits, scaled by 255 / 1023 (as before), said so.
  std::string p10 = "P5\n2 1\n1023\n";
  p10 += std::string("\x03\xff\x02\x00", 4);
  lbt::ds::text(dir.path / "w10.pgm", p10);
  const ImageU8 ten = load_image_8bit(dir.file("w10.pgm"), &o);
  CHECK(o.bit_depth == 10);
  CHECK(o.converted == "v*255/1023");
  CHECK(ten.data == std::vector<std::uint8_t>{255, 128});
}

TEST_CASE("16-bit: a stereo pair gives the pair converted by the rule, and says so") {
  lbt::TempDir dir("st16");
  for (int c : {1, 3, 4}) {
    CAPTURE(c);
    const ImageU8 l = write_wide(dir.path / "l16.png", 20, 12, c, 1);
    const ImageU8 r = write_wide(dir.path / "r16.png", 20, 12, c, 2);
    save_image(dir.file("l8.png"), l);
    save_image(dir.file("r8.png"), r);
    const stereo::StereoPair p16 = stereo::load_stereo_pair(dir.file("l16.png"), dir.file("r16.png"));
    const stereo::StereoPair p8 = stereo::load_stereo_pair(dir.file("l8.png"), dir.file("r8.png"));
    CHECK(p16.left.same_shape(p8.left));
    CHECK(p16.left.data == p8.left.data);
    CHECK(p16.right.data == p8.right.data);
    CHECK(is16(p16.left_origin));
    CHECK(is16(p16.right_origin));
    CHECK(p16.left_origin.path == dir.file("l16.png"));
    CHECK(is8(p8.left_origin));
    CHECK(is8(p8.right_origin));
  }
  // One of each: the note names the converted one.
  write_wide(dir.path / "l16.png", 20, 12, 1, 1);
  save_image(dir.file("r8.png"), lbt::random_image(20, 12, 1, 3));
  StereoData d;
  d.pair = stereo::load_stereo_pair(dir.file("l16.png"), dir.file("r8.png"));
  const auto in = data_inputs(d);
  REQUIRE(in.size() == 2);
  CHECK(in[0].role == "left");
  CHECK(is16(in[0].origin));
  CHECK(in[1].role == "right");
  CHECK(is8(in[1].origin));
  CHECK(conversion_notes(d) == "left: 16-bit input converted to 8 bits (v/257)");
  d.pair = stereo::load_stereo_pair(dir.file("l16.png"), dir.file("l16.png"));
  CHECK(conversion_notes(d) == "16-bit input converted to 8 bits (v/257)");
  // A pair made in memory has no files.
  d.pair = stereo::synthetic_plane_pair(8, 8, 1, 1u);
  CHECK(data_inputs(d).empty());
  CHECK(conversion_notes(d).empty());
}

TEST_CASE("16-bit: the data set openers convert images and keep maps at full depth") {
  using namespace lbt::ds;
  using namespace lb::dataset;
  lbt::TempDir dir("ds16");
  // The same data set twice, 8-bit and 16-bit: every opened image equal, the 16-bit told.
  auto both = [&](const std::string& name, const std::function<void(const fs::path&)>& make,
                  const std::vector<std::string>& images, const std::function<void(const OpenedScene&, const OpenedScene&)>& cmp) {
    CAPTURE(name);
    const fs::path a = dir.path / (name + "8"), b = dir.path / (name + "16");
    make(a);
    make(b);
    widen_folder(b, images);
    const Dataset da = open_dataset(a.string()), db = open_dataset(b.string());
    REQUIRE(da.scenes.size() == db.scenes.size());
    for (std::size_t i = 0; i < da.scenes.size(); ++i) cmp(open_scene(da.scenes[i], 16), open_scene(db.scenes[i], 16));
  };
  auto stereo_cmp = [](const OpenedScene& a, const OpenedScene& b) {
    const auto& sa = static_cast<const StereoData&>(*a.data);
    const auto& sb = static_cast<const StereoData&>(*b.data);
    CHECK(sa.pair.left.data == sb.pair.left.data);
    CHECK(sa.pair.right.data == sb.pair.right.data);
    CHECK(is8(sa.pair.left_origin));
    CHECK(is16(sb.pair.left_origin));
    CHECK(is16(sb.pair.right_origin));
    CHECK(sa.gt.disparity.data == sb.gt.disparity.data);  // the truth: as it was
    CHECK(a.has_truth == b.has_truth);
  };
  both("mb2001", [](const fs::path& d) { mb2001(d); }, {"imL.png", "imR.png"}, stereo_cmp);
  both("mb2014", [](const fs::path& d) { mb2014(d); }, {"im0.png", "im1.png"}, stereo_cmp);
  both("kitti", [](const fs::path& d) { kitti(d, 2015, 1); }, {"image_2/000000_10.png", "image_3/000000_10.png"},
       [&](const OpenedScene& a, const OpenedScene& b) {
         stereo_cmp(a, b);
         // The 16-bit truth (value / 256) at full depth: 10 px, not 10 * 256 / 257.
         const auto& sb = static_cast<const StereoData&>(*b.data);
         CHECK(sb.gt.disparity.at(5, 5) == 10.0f);
         CHECK(a.truth.obj_map.data == b.truth.obj_map.data);
       });
  both("kadid", [](const fs::path& d) { kadid(d); }, {"images/I01.png", "images/I01_01_01.png", "images/I01_01_02.png"},
       [](const OpenedScene& a, const OpenedScene& b) {
         const auto& pa = static_cast<const ImagePairData&>(*a.data);
         const auto& pb = static_cast<const ImagePairData&>(*b.data);
         CHECK(pa.reference.data == pb.reference.data);
         CHECK(pa.distorted.data == pb.distorted.data);
         CHECK(is8(pa.reference_origin));
         CHECK(is16(pb.reference_origin));
         CHECK(is16(pb.distorted_origin));
         CHECK(data_inputs(pb).size() == 2);
         CHECK(data_inputs(pb)[1].role == "distorted");
       });
  both("hci", [](const fs::path& d) { hci(d); },
       {"view_0_0.png", "view_1_0.png", "view_2_0.png", "view_0_1.png", "view_1_1.png", "view_2_1.png", "view_0_2.png",
        "view_1_2.png", "view_2_2.png"},
       [](const OpenedScene& a, const OpenedScene& b) {
         const auto& la = static_cast<const LightFieldData&>(*a.data).lf;
         const auto& lb_ = static_cast<const LightFieldData&>(*b.data).lf;
         REQUIRE(la.views.size() == lb_.views.size());
         for (std::size_t i = 0; i < la.views.size(); ++i) CHECK(la.views[i].data == lb_.views[i].data);
         CHECK(la.gt.data == lb_.gt.data);
         CHECK(is8(la.views_origin));
         CHECK(is16(lb_.views_origin));
         CHECK(lb_.views_origin.path == lb_.source);
         const auto in = data_inputs(static_cast<const LightFieldData&>(*b.data));
         REQUIRE(in.size() == 1);
         CHECK(in[0].role == "views");
       });
}

TEST_CASE("16-bit: one 16-bit view makes the light field's origin 16-bit") {
  lbt::TempDir dir("lf16");
  save_lightfield(dir.path.string(), synthetic_plane_lightfield(10, 8, 3, 3, 0.5f, 1u));
  const LightField4D a = load_lightfield(dir.path.string());
  widen_folder(dir.path, {"view_2_1.png"});
  const LightField4D b = load_lightfield(dir.path.string());
  for (std::size_t i = 0; i < a.views.size(); ++i) CHECK(a.views[i].data == b.views[i].data);
  CHECK(is8(a.views_origin));
  CHECK(is16(b.views_origin));
  CHECK(b.views_origin.path == dir.path.string());
}

TEST_CASE("16-bit: a plenoptic scene's raw is converted") {
  lbt::TempDir dir("raw16");
  const std::string json = save_scene(dir.path.string(), generate_scene(generator_preset("tiny", 1)));
  const PlenopticScene a = load_scene(json);
  CHECK(is8(a.raw_origin));
  widen_folder(dir.path, {"raw.png"});
  const PlenopticScene b = load_scene(json);
  CHECK(a.raw.data == b.raw.data);
  CHECK(is16(b.raw_origin));
  PlenopticData d;
  d.scene = b;
  REQUIRE(data_inputs(d).size() == 1);
  CHECK(data_inputs(d)[0].role == "raw");
  CHECK(conversion_notes(d) == "16-bit input converted to 8 bits (v/257)");
}
