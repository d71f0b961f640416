// IQA databases (dataset.hpp): TID2013 (mos_with_names.txt, names matched ignoring case:
// i01_01_1.bmp -> reference_images/I01.BMP) and KADID-10k (dmos.csv); items as image pairs
// with their scores and no truth; malformed lines and missing files refused in one line naming
// the file and line, nothing written.
#include <doctest/doctest.h>

#include "dataset_fixtures.hpp"
#include "lightbench/dataset.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::dataset;
using namespace lbt::ds;

TEST_CASE("dataset: TID2013, items sorted by name, case-insensitive references, MOS") {
  lbt::TempDir dir("ds-tid");
  tid(dir.path);
  const Dataset ds = open_dataset(dir.path.string());
  CHECK(ds.layout == Layout::Tid2013);
  CHECK_FALSE(ds.is_dmos);
  REQUIRE(ds.scenes.size() == 3);
  CHECK(ds.scenes[0].name == "i01_01_1.bmp");
  CHECK(ds.scenes[0].mos == doctest::Approx(5.51429));
  CHECK(ds.scenes[1].name == "i01_02_1.bmp");  // listed as I01_02_1.BMP: the name on disk
  CHECK(ds.scenes[1].mos == 4.5);
  CHECK(ds.scenes[2].mos == 6.25);
  CHECK(has(ds.scenes[0].reference, "reference_images/I01.BMP"));
  CHECK(has(ds.scenes[2].reference, "I02.BMP"));
  CHECK(has(ds.scenes[0].path, "distorted_images/i01_01_1.bmp"));
  const OpenedScene o = open_scene(ds.scenes[2]);
  CHECK_FALSE(o.has_truth);
  REQUIRE(o.data->kind() == DataKind::ImagePair);
  const auto& p = static_cast<const ImagePairData&>(*o.data);
  CHECK(p.reference.at(0, 0, 0) == 20);
  CHECK(p.distorted.at(0, 0, 0) == 30);
  CHECK(has(p.source, "I02.BMP"));
  CHECK(open_dataset(dir.path.string(), "tid2013").scenes.size() == 3);
}

TEST_CASE("dataset: KADID-10k, DMOS, header with or without var") {
  lbt::TempDir dir("ds-kadid");
  kadid(dir.path);
  Dataset ds = open_dataset(dir.path.string());
  CHECK(ds.layout == Layout::Kadid10k);
  CHECK(ds.is_dmos);
  REQUIRE(ds.scenes.size() == 2);
  CHECK(ds.scenes[0].name == "I01_01_01.png");
  CHECK(ds.scenes[0].mos == 4.57);
  CHECK(ds.scenes[1].mos == 3.5);
  CHECK(has(ds.scenes[0].reference, "images/I01.png"));
  CHECK(static_cast<const ImagePairData&>(*open_scene(ds.scenes[1]).data).reference.width == 12);
  text(dir.path / "dmos.csv", "\xEF\xBB\xBF" "dist_img,ref_img,dmos\r\ni01_01_01.PNG,I01.png,2\r\n\r\n");
  ds = open_dataset(dir.path.string(), "kadid10k");
  REQUIRE(ds.scenes.size() == 1);
  CHECK(ds.scenes[0].name == "I01_01_01.png");
  CHECK(ds.scenes[0].mos == 2.0);
}

TEST_CASE("dataset: IQA score files parsed line by line, each problem in one line") {
  auto tid_err = [](const std::string& t) { return msg([&] { parse_tid2013_mos(t, "mos.txt"); }); };
  auto kad_err = [](const std::string& t) { return msg([&] { parse_kadid_dmos(t, "dmos.csv"); }); };
  const auto e = parse_tid2013_mos("\n 1.5   i12_24_5.bmp \n", "m");
  REQUIRE(e.size() == 1);
  CHECK(e[0].reference == "I12");
  CHECK(e[0].line == 2);
  CHECK(e[0].score == 1.5);
  const std::pair<std::string, std::string> tid_bad[] = {
      {"abc i01_01_1.bmp\n", "mos.txt: line 1: the MOS 'abc' is not a number"},
      {"5.1x i01_01_1.bmp\n", "'5.1x' is not a number"},
      {"nan i01_01_1.bmp\n", "'nan' is not a number"},
      {"5 i01_01_1.bmp\n4\n", "line 2: expected 'MOS name'"},
      {"5 a b\n", "line 1: expected 'MOS name'"},
      {"5 ../i01_01_1.bmp\n", "is not a plain file name"},
      {"5 reference.bmp\n", "'reference.bmp' is not a TID2013 name"},
      {"5 i01_01_1.bmp\n6 I01_01_1.BMP\n", "line 2: 'I01_01_1.BMP' is listed twice (first on line 1)"},
      {"\n\n", "mos.txt: no entry"}};
  for (const auto& [t, part] : tid_bad) {
    const std::string m = tid_err(t);
    CHECK_MESSAGE(one_line(m), m);
    CHECK_MESSAGE(has(m, part), m);
  }
  const std::pair<std::string, std::string> kad_bad[] = {
      {"", "dmos.csv: empty"},
      {"dist,ref,score\n", "line 1: the header is 'dist,ref,score'"},
      {"dist_img,ref_img,dmos,var\na.png,b.png,3\n", "line 2: 3 fields, the header has 4"},
      {"dist_img,ref_img,dmos\na.png,b.png,three\n", "line 2: dmos 'three' is not a number"},
      {"dist_img,ref_img,dmos,var\na.png,b.png,3,x\n", "var 'x' is not a number"},
      {"dist_img,ref_img,dmos\na.png,,3\n", "ref_img '' is not a plain file name"},
      {"dist_img,ref_img,dmos\na.png,b.png,3,\n", "4 fields"},
      {"dist_img,ref_img,dmos\n", "dmos.csv: no entry"}};
  for (const auto& [t, part] : kad_bad) {
    const std::string m = kad_err(t);
    CHECK_MESSAGE(one_line(m), m);
    CHECK_MESSAGE(has(m, part), m);
  }
}

TEST_CASE("dataset: broken IQA folders refused in one line naming the file, nothing written") {
  lbt::TempDir dir("ds-iqabad");
  auto refused = [&](const fs::path& d, const std::string& part) {
    const auto before = snapshot(dir.path);
    const std::string m = msg([&] {
      const Dataset ds = open_dataset(d.string());
      for (const auto& s : ds.scenes) open_scene(s);
    });
    CHECK_MESSAGE(one_line(m), m);
    CHECK_MESSAGE(has(m, part), m);
    CHECK(snapshot(dir.path) == before);
  };
  const fs::path t = dir.path / "tid", k = dir.path / "kadid";
  tid(t);
  kadid(k);
  SUBCASE("TID2013: a non-number MOS") {
    text(t / "mos_with_names.txt", "5 i01_01_1.bmp\nfive i01_02_1.bmp\n");
    refused(t, "mos_with_names.txt");
    refused(t, "line 2: the MOS 'five' is not a number");
  }
  SUBCASE("TID2013: a distorted image listed but missing") {
    fs::remove(t / "distorted_images" / "i01_02_1.bmp");
    refused(t, "line 2: 'I01_02_1.BMP' is not in distorted_images/");
  }
  SUBCASE("TID2013: a reference missing") {
    fs::remove(t / "reference_images" / "I02.BMP");
    refused(t, "line 3: its reference 'I02' is not in reference_images/");
  }
  SUBCASE("TID2013: a folder missing") {
    fs::remove_all(t / "reference_images");
    refused(t, "reference_images is missing");
  }
  SUBCASE("TID2013: a 16-bit distorted image is converted to 8 bits (issue 39)") {
    save_png16((t / "distorted_images" / "x.png").string(), ImageU16(12, 8, 3, 500));
    fs::rename(t / "distorted_images" / "x.png", t / "distorted_images" / "i01_01_1.bmp");
    const OpenedScene o = open_scene(open_dataset(t.string()).scenes.at(0));
    const auto& p = static_cast<const ImagePairData&>(*o.data);
    CHECK(p.distorted.at(0, 0, 0) == 2);  // round(500 / 257) = round(1.95)
    CHECK(p.distorted_origin.bit_depth == 16);
    CHECK(p.distorted_origin.converted == "v/257");
    CHECK(p.reference_origin.converted.empty());
  }
  SUBCASE("TID2013: sizes differ") {
    save_image((t / "distorted_images" / "i02_01_1.bmp").string(), ImageU8(10, 8, 3, 1));
    refused(t, "i02_01_1.bmp' is 10x8, its reference");
  }
  SUBCASE("KADID-10k: a malformed line") {
    text(k / "dmos.csv", "dist_img,ref_img,dmos,var\nI01_01_01.png;I01.png;4;0\n");
    refused(k, "dmos.csv");
    refused(k, "line 2: 1 fields, the header has 4");
  }
  SUBCASE("KADID-10k: a file referenced but missing") {
    fs::remove(k / "images" / "I01.png");
    refused(k, "its reference 'I01.png' is not in images/");
  }
  SUBCASE("KADID-10k: images/ missing") {
    fs::remove_all(k / "images");
    refused(k, "images is missing");
  }
}
