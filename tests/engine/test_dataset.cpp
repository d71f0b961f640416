// Data sets (dataset.hpp): layouts detected from the files present (single Middlebury 2001 /
// 2014 and HCI scenes, collections), --layout, select_scene, open_scene's data and truth, and
// the one-line refusals (empty folder, mixed collection, unknown layout, malformed calib.txt,
// missing right image), with nothing written; a 16-bit left image converted (v/257). KITTI: test_dataset_kitti.cpp;
// IQA: test_dataset_iqa.cpp.
#include <doctest/doctest.h>

#include <cmath>

#include "dataset_fixtures.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/hci_metrics.hpp"
#include "shared_data.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::dataset;
using namespace lbt::ds;

TEST_CASE("dataset: layout names, aliases, data kinds; an unknown --layout lists the known ones") {
  Layout l = Layout::Kitti;
  CHECK_FALSE(parse_layout("auto", &l));
  CHECK_FALSE(parse_layout("", &l));
  CHECK(l == Layout::Kitti);  // untouched
  const std::pair<const char*, Layout> cases[] = {
      {"middlebury2001", Layout::Middlebury2001}, {"Middlebury2006", Layout::Middlebury2001},
      {"middlebury2014", Layout::Middlebury2014}, {"eval3", Layout::Middlebury2014},
      {"kitti", Layout::Kitti},                   {"KITTI2015", Layout::Kitti},
      {"hci", Layout::Hci},                       {"tid2013", Layout::Tid2013},
      {"kadid10k", Layout::Kadid10k},             {"kadid-10k", Layout::Kadid10k}};
  for (const auto& [name, want] : cases) {
    REQUIRE(parse_layout(name, &l));
    CHECK(l == want);
  }
  for (Layout x : {Layout::Middlebury2001, Layout::Middlebury2014, Layout::Kitti, Layout::Hci, Layout::Tid2013,
                   Layout::Kadid10k}) {
    REQUIRE(parse_layout(to_string(x), &l));
    CHECK(l == x);
  }
  CHECK(data_kind(Layout::Kitti) == DataKind::StereoPair);
  CHECK(data_kind(Layout::Middlebury2014) == DataKind::StereoPair);
  CHECK(data_kind(Layout::Hci) == DataKind::LightField);
  CHECK(data_kind(Layout::Tid2013) == DataKind::ImagePair);
  CHECK(data_kind(Layout::Kadid10k) == DataKind::ImagePair);

  const std::string m = msg([&] { parse_layout("middlebury1999", &l); });
  CHECK(one_line(m));
  for (const char* k : {"'middlebury1999'", "middlebury2001", "middlebury2014", "kitti", "hci", "tid2013", "kadid10k"})
    CHECK_MESSAGE(has(m, k), m);
  lbt::TempDir dir("ds-layout");
  mb2001(dir.path / "tsukuba");
  CHECK(has(msg([&] { open_dataset(dir.path.string(), "bogus"); }), "'bogus'"));
}

TEST_CASE("dataset: single scenes of each scene layout, their data and truth") {
  lbt::TempDir dir("ds-single");
  SUBCASE("Middlebury 2001: tsukuba's published scale 16 and ndisp 16") {
    mb2001(dir.path / "tsukuba");
    const Dataset ds = open_dataset((dir.path / "tsukuba").string());
    CHECK(ds.layout == Layout::Middlebury2001);
    REQUIRE(ds.scenes.size() == 1);
    CHECK(ds.scenes[0].name == "tsukuba");
    const OpenedScene o = open_scene(ds.scenes[0]);
    REQUIRE(o.data->kind() == DataKind::StereoPair);
    const auto& st = static_cast<const StereoData&>(*o.data);
    CHECK(st.ndisp_hint == 16);
    CHECK(st.pair.left.width == kW);
    REQUIRE(o.has_truth);
    CHECK(o.truth.protocol == eval::Protocol::Middlebury2003);
    CHECK(o.truth.stereo.disparity.at(3, 3) == 1.0f);  // 16 / 16
    CHECK(has(o.truth_path, "groundtruth.png"));
    CHECK(open_scene(ds.scenes[0], 8.0).truth.stereo.disparity.at(3, 3) == 2.0f);  // --gt-scale
    for (const char* tail : {"/", "/."})  // the folder's own name, however it is written
      CHECK(open_dataset((dir.path / "tsukuba").string() + tail).scenes.at(0).name == "tsukuba");
    CHECK(select_scene(ds, "tsukuba").path == (dir.path / "tsukuba").string());
  }
  SUBCASE("Middlebury 2014: calib.txt's ndisp, PFM truth, the v3 protocol") {
    mb2014(dir.path / "Adirondack");
    const Dataset ds = open_dataset((dir.path / "Adirondack").string());
    CHECK(ds.layout == Layout::Middlebury2014);
    const OpenedScene o = open_scene(ds.scenes.at(0));
    CHECK(static_cast<const StereoData&>(*o.data).ndisp_hint == 12);
    CHECK(o.truth.protocol == eval::Protocol::MiddleburyV3);
    CHECK(o.truth.stereo.disparity.at(5, 5) == 2.0f);
  }
  SUBCASE("HCI: views + parameters.cfg, centre-view truth, the default border") {
    hci(dir.path / "plane");
    const Dataset ds = open_dataset((dir.path / "plane").string());
    CHECK(ds.layout == Layout::Hci);
    const OpenedScene o = open_scene(ds.scenes.at(0));
    REQUIRE(o.data->kind() == DataKind::LightField);
    const auto& lf = static_cast<const LightFieldData&>(*o.data).lf;
    CHECK(lf.nu == 3);
    CHECK(lf.disp_max == 1.0f);
    CHECK(o.truth.protocol == eval::Protocol::Hci);
    CHECK(o.truth.border == hci_default_border(lf.width, lf.height));  // 15 from 60 px up
    CHECK(o.truth.stereo.disparity.at(2, 2) == 0.5f);
    CHECK(has(o.truth_path, "gt_disp_lowres.pfm"));
  }
  SUBCASE("a scene without truth opens with has_truth false") {
    mb2001(dir.path / "mine", false);
    const OpenedScene o = open_scene(open_dataset((dir.path / "mine").string()).scenes.at(0));
    CHECK_FALSE(o.has_truth);
    CHECK(o.truth.stereo.disparity.empty());
  }
}

TEST_CASE("dataset: a folder of scene folders, sorted, unrecognisable ones skipped; select_scene") {
  lbt::TempDir dir("ds-coll");
  for (const char* n : {"venus", "tsukuba", "cones", "teddy", "sawtooth", "map"}) mb2001(dir.path / n);
  fs::create_directories(dir.path / "notes");  // nothing recognisable: skipped
  text(dir.path / "notes" / "readme.txt", "hi");
  text(dir.path / "README", "a collection");
  mb2001(dir.path / "broken");  // kept: fails when opened (no scale known for 'broken')
  const Dataset ds = open_dataset(dir.path.string());
  CHECK(ds.layout == Layout::Middlebury2001);
  REQUIRE(ds.scenes.size() == 7);
  CHECK(ds.scenes[0].name == "broken");
  CHECK(ds.scenes[1].name == "cones");
  CHECK(ds.scenes[6].name == "venus");
  CHECK(select_scene(ds, "teddy").name == "teddy");
  CHECK(select_scene(ds, "TEDDY").name == "teddy");  // ignoring case when unique
  const std::string m = msg([&] { select_scene(ds, "art"); });
  CHECK(one_line(m));
  CHECK(has(m, "'art'"));
  CHECK(has(m, "7 middlebury2001 scenes"));
  CHECK(has(m, "broken, cones, map, sawtooth, teddy, ..."));
  CHECK_FALSE(has(m, "venus"));
  CHECK(has(msg([&] { open_scene(select_scene(ds, "broken")); }), "--gt-scale"));

  // HCI and 2014 collections.
  lbt::TempDir lf("ds-coll-lf");
  hci(lf.path / "b");
  hci(lf.path / "a", false);
  const Dataset l = open_dataset(lf.path.string());
  CHECK(l.layout == Layout::Hci);
  REQUIRE(l.scenes.size() == 2);
  CHECK(l.scenes[0].name == "a");
}

TEST_CASE("dataset: --layout picks one layout of an ambiguous scene or a mixed collection") {
  lbt::TempDir dir("ds-force");
  const fs::path both = dir.path / "both";
  mb2001(both);
  mb2014(both);
  const std::string m = msg([&] { open_dataset(both.string()); });
  CHECK(one_line(m));
  CHECK(has(m, "imL.png"));
  CHECK(has(m, "im0.png"));
  CHECK(has(m, "--layout"));
  const Dataset a = open_dataset(both.string(), "middlebury2014");
  CHECK(a.scenes.at(0).layout == Layout::Middlebury2014);
  CHECK(static_cast<const StereoData&>(*open_scene(a.scenes[0]).data).ndisp_hint == 12);
  const Dataset b = open_dataset(both.string(), "middlebury2001");
  CHECK(open_scene(b.scenes.at(0), 16).truth.protocol == eval::Protocol::Middlebury2003);

  // A light field of numbered views (no HCI marker) is a scene only when forced.
  lbt::TempDir num("ds-force-num");
  lb::save_image((num.path / "0.png").string(), lb::ImageU8(6, 4, 3, 1));
  CHECK(has(msg([&] { open_dataset(num.path.string()); }), "nothing recognisable"));
  CHECK(open_dataset(num.path.string(), "hci").scenes.size() == 1);
  CHECK(has(msg([&] { open_dataset(num.path.string(), "middlebury2014"); }), "no middlebury2014 scene"));
}

TEST_CASE("dataset: refusals in one line, naming the folder or file, with nothing written") {
  lbt::TempDir dir("ds-bad");
  auto refused = [&](const fs::path& d, const std::string& part, const std::string& force = "auto") {
    const auto before = snapshot(dir.path);
    const std::string m = msg([&] {
      const Dataset ds = open_dataset(d.string(), force);
      for (const auto& s : ds.scenes) open_scene(s);
    });
    CHECK_MESSAGE(one_line(m), m);
    CHECK_MESSAGE(has(m, part), m);
    CHECK(snapshot(dir.path) == before);
  };
  SUBCASE("empty folder") {
    fs::create_directories(dir.path / "empty");
    refused(dir.path / "empty", "nothing recognisable");
    refused(dir.path / "empty", "imL.png");  // says what was expected
    refused(dir.path / "nowhere", "no such folder");
  }
  SUBCASE("mixed collection names two examples") {
    mb2001(dir.path / "set" / "tsukuba");
    mb2014(dir.path / "set" / "Adirondack");
    refused(dir.path / "set", "'Adirondack' is middlebury2014, 'tsukuba' is middlebury2001");
  }
  SUBCASE("missing right image") {
    mb2001(dir.path / "tsukuba");
    fs::remove(dir.path / "tsukuba" / "imR.png");
    refused(dir.path / "tsukuba", "imR.png is missing");
  }
  SUBCASE("malformed calib.txt") {
    mb2014(dir.path / "Piano");
    text(dir.path / "Piano" / "calib.txt", "width=24\nheight=16\nndisp=twelve\n");
    refused(dir.path / "Piano", "calib.txt");
    refused(dir.path / "Piano", "'twelve' is not a number");
  }
  SUBCASE("wrong-size truth") {
    mb2014(dir.path / "Piano");
    lb::save_pfm((dir.path / "Piano" / "disp0GT.pfm").string(), lb::ImageF(kW + 1, kH, 1, 1.0f));
    refused(dir.path / "Piano", "disp0GT.pfm' is 25x16, the pair is 24x16");
  }
  SUBCASE("a 16-bit left image is converted to 8 bits, round(v / 257), and said so (issue 39)") {
    mb2014(dir.path / "Piano");
    lb::save_png16((dir.path / "Piano" / "im0.png").string(), lb::ImageU16(kW, kH, 1, 1000));
    const OpenedScene o = open_scene(open_dataset((dir.path / "Piano").string()).scenes.at(0));
    const auto& p = static_cast<const StereoData&>(*o.data).pair;
    CHECK(p.left.at(3, 2) == 4);  // round(1000 / 257) = round(3.89)
    CHECK(p.left_origin.bit_depth == 16);
    CHECK(p.left_origin.converted == "v/257");
    CHECK(p.right_origin.bit_depth == 8);
  }
  SUBCASE("a light field with a view missing") {
    hci(dir.path / "lf");
    fs::remove(dir.path / "lf" / "view_1_1.png");
    refused(dir.path / "lf", "lf");
  }
  SUBCASE("a forced layout that is not there") {
    mb2001(dir.path / "tsukuba");
    refused(dir.path / "tsukuba", "not a KITTI training folder", "kitti");
    refused(dir.path / "tsukuba", "mos_with_names.txt is missing", "tid2013");
  }
}

// The shared data as published: ../shared/data/stereo is a collection of two 2001 scenes,
// antinous an HCI light field (input_CamNNN.png, gt_disp_lowres.pfm).
TEST_CASE("dataset: the shared Middlebury scenes and HCI light field (when the data is present)") {
  const fs::path stereo = lb_shared_data_dir() + "/stereo", lf = lb_shared_data_dir() + "/lightfield4d/antinous";
  if (!fs::exists(stereo / "tsukuba") || !fs::exists(lf)) {
    MESSAGE("SKIPPED: no shared data at " << lb_shared_data_dir());
    return;
  }
  const Dataset ds = open_dataset(stereo.string());
  CHECK(ds.layout == Layout::Middlebury2001);
  REQUIRE(ds.scenes.size() >= 2);
  const OpenedScene t = open_scene(select_scene(ds, "tsukuba"));
  CHECK(static_cast<const StereoData&>(*t.data).ndisp_hint == 16);
  CHECK(t.truth.stereo.disparity.width == 384);
  CHECK_FALSE(t.truth.stereo.mask_disc.empty());
  const Dataset h = open_dataset(lf.string());
  CHECK(h.layout == Layout::Hci);
  CHECK(h.scenes.at(0).name == "antinous");
  const OpenedScene a = open_scene(h.scenes[0]);
  CHECK(a.has_truth);
  CHECK(static_cast<const LightFieldData&>(*a.data).lf.nu == 9);
  CHECK(has(a.truth_path, "gt_disp_lowres.pfm"));
}
