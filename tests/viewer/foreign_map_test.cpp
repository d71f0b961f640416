// Foreign files in a pane (app/viewer/foreign_map.hpp), without GL: the file=PATH text form,
// maps (PFM, 16-bit KITTI PNG) and images (8-bit PNG, PPM) told apart and read, missing and
// corrupt files refused in one line naming them, and a map's scores equal to eval::evaluate
// on the same file (or a one-line note when the sizes differ or there is no truth).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/test_util.hpp"
#include "foreign_map.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

using namespace lb;
using namespace lb::viewer;

namespace {

std::string error_of(const std::string& path) {
  try {
    load_foreign_file(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

eval::Truth truth_of(const ImageF& g, eval::Protocol p) {
  eval::Truth t;
  t.protocol = p;
  t.stereo.disparity = g;
  return t;
}

}  // namespace

TEST_CASE("file=PATH: the rest of the text is the path") {
  std::string p;
  CHECK(parse_file_spec("file=/a/b,c.pfm", &p));
  CHECK(p == "/a/b,c.pfm");
  CHECK(parse_file_spec("  FILE = x.png ", &p));
  CHECK(p == "x.png");
  CHECK_FALSE(parse_file_spec("output=view,patch=9", &p));
  CHECK_FALSE(parse_file_spec("files=x", &p));
  CHECK_THROWS_AS(parse_file_spec("file=  ", &p), Error);
}

TEST_CASE("maps and images are told apart; missing and corrupt files are one line") {
  lbt::TempDir dir("foreign");
  ImageF m(6, 4, 1, 2.5f);
  m.at(1, 2) = 7.0f;
  m.at(0, 0) = INFINITY;  // invalid estimate: left out of the range
  save_pfm(dir.file("m.pfm"), m);
  const ForeignFile f = load_foreign_file(dir.file("m.pfm"));
  CHECK(f.is_map);
  CHECK(f.lo == 2.5);
  CHECK(f.hi == 7.0);
  CHECK(std::isinf(f.map.at(0, 0)));

  ImageF k(6, 4, 1, 3.0f);
  k.at(2, 1) = std::nanf("");
  dataset::save_kitti_disparity(dir.file("k.png"), k);
  const ForeignFile fk = load_foreign_file(dir.file("k.png"));
  CHECK(fk.is_map);
  CHECK(fk.map.at(0, 0) == 3.0f);
  CHECK(std::isnan(fk.map.at(2, 1)));  // 0 = invalid

  save_image(dir.file("i.png"), ImageU8(5, 3, 3, 90));
  save_image(dir.file("i.ppm"), ImageU8(5, 3, 3, 90));
  for (const char* n : {"i.png", "i.ppm"}) {
    const ForeignFile fi = load_foreign_file(dir.file(n));
    CHECK_FALSE(fi.is_map);
    CHECK(fi.image.channels == 4);
    CHECK(fi.image.at(4, 2, 0) == 90);
  }

  const std::string missing = error_of(dir.file("nope.pfm"));
  CHECK(missing.find("nope.pfm") != std::string::npos);
  CHECK((missing.find("not found") != std::string::npos || missing.find("no such file") != std::string::npos));
  std::ofstream(dir.file("bad.pfm"), std::ios::binary) << "Pf\n6 4\n-1\nshort";
  std::ofstream(dir.file("bad.png"), std::ios::binary) << "\x89PNG\r\n\x1a\n garbage";
  std::ofstream(dir.file("notes.txt")) << "hello";
  for (const char* n : {"bad.pfm", "bad.png", "notes.txt"}) {
    const std::string e = error_of(dir.file(n));
    INFO(n << ": " << e);
    CHECK(e.find(n) != std::string::npos);
    CHECK(e.find('\n') == std::string::npos);
  }
}

TEST_CASE("a map's scores are eval::evaluate's; a size mismatch or no truth is a note") {
  // 40 x 40: HCI leaves 10 x 10 inside its 15-pixel border.
  ImageF g(40, 40, 1, 5.0f), d(40, 40, 1, 5.0f);
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 40; ++x) d.at(x, y) = 5.0f + 0.1f * static_cast<float>((x * 7 + y * 3) % 30);
  g.at(20, 20) = 0.0f;  // unknown truth
  for (eval::Protocol p : {eval::Protocol::Middlebury2003, eval::Protocol::MiddleburyV3, eval::Protocol::Hci}) {
    const eval::Truth t = truth_of(g, p);
    const ForeignScore s = score_foreign(d, &t);
    INFO(eval::to_string(p));
    CHECK(s.scored);
    CHECK(s.scores == eval::evaluate(d, t));
    CHECK(s.protocol == eval::to_string(p));
    CHECK(s.summary.rfind(eval::to_string(p), 0) == 0);
  }
  const eval::Truth t = truth_of(g, eval::Protocol::Middlebury2003);
  const ForeignScore wrong = score_foreign(ImageF(39, 40, 1, 5.0f), &t);
  CHECK_FALSE(wrong.scored);
  CHECK(wrong.note == "not scored: size 39x40 differs from the truth's 40x40");
  const ForeignScore none = score_foreign(d, nullptr);
  CHECK_FALSE(none.scored);
  CHECK(none.note.find("no ground truth") != std::string::npos);
}
