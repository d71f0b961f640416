// 4D light fields: folder layouts (HCI, view_U_V, numbered), their one-line errors, angular
// windows, view extraction and shift-and-add refocus.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lightbench/algorithms.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
}  // namespace

TEST_CASE("light field: view_U_V round trip with ground truth") {
  lbt::TempDir dir("lf-uv");
  const LightField4D lf = synthetic_plane_lightfield(13, 9, 3, 5, 1.0f, 7);
  save_lightfield(dir.path.string(), lf);
  const LightField4D back = load_lightfield(dir.path.string());
  CHECK(back.layout == "grid-uv");
  CHECK(back.nu == 3);
  CHECK(back.nv == 5);
  CHECK(back.uc() == 1);
  CHECK(back.vc() == 2);
  REQUIRE(back.views.size() == lf.views.size());
  for (std::size_t i = 0; i < lf.views.size(); ++i) CHECK(back.views[i].data == lf.views[i].data);
  REQUIRE(back.has_gt());
  CHECK(back.gt.data == lf.gt.data);
}

TEST_CASE("light field: HCI and numbered layouts") {
  const LightField4D lf = synthetic_plane_lightfield(8, 6, 3, 3, 0.0f, 3);
  {
    lbt::TempDir dir("lf-hci");
    for (int i = 0; i < 9; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "input_Cam%03d.png", i);
      save_image(dir.file(name), lf.views[static_cast<std::size_t>(i)]);
    }
    // 9 input_Cam views without parameters.cfg: not the benchmark's 9 x 9, so refused.
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "HCI folders hold 9x9 = 81"));
    lbt::spit(dir.file("parameters.cfg"), "[extrinsics]\nnum_cams_x = 3\r\nnum_cams_y = 3\n");
    const LightField4D back = load_lightfield(dir.path.string());
    CHECK(back.layout == "hci");
    CHECK(back.nu == 3);
    CHECK(back.nv == 3);
    CHECK_FALSE(back.has_gt());
    CHECK(back.view(2, 1).data == lf.view(2, 1).data);
    lbt::spit(dir.file("parameters.cfg"), "num_cams_x = 4\nnum_cams_y = 3\n");
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "parameters.cfg says 4x3 = 12"));
    lbt::spit(dir.file("parameters.cfg"), "num_cams_x = 0\nnum_cams_y = 3\n");
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "num_cams_x = 0 is out of range"));
    // Every value below 1 is refused as 0 is (-9 used to be ignored: the folder opened as 9 x 9
    // or on the other key), and so is anything but a whole number (issue 39, item 6).
    for (const auto& [cfg, why] : std::vector<std::pair<std::string, std::string>>{
             {"num_cams_x = -9\nnum_cams_y = 3\n", "num_cams_x = -9 is out of range (1..99)"},
             {"num_cams_x = 3\nnum_cams_y = -1\n", "num_cams_y = -1 is out of range"},
             {"num_cams_x = -0\nnum_cams_y = 3\n", "num_cams_x = -0 is out of range"},
             {"num_cams_x = 100\nnum_cams_y = 3\n", "num_cams_x = 100 is out of range"},
             {"num_cams_x = 0003\nnum_cams_y = 99999999999999999999\n", "is out of range"},
             {"num_cams_x = 3\nnum_cams_y = 2.5\n", "num_cams_y = '2.5' is not a whole number"},
             {"num_cams_x = 3e0\nnum_cams_y = 3\n", "num_cams_x = '3e0' is not a whole number"},
             {"num_cams_x = three\nnum_cams_y = 3\n", "num_cams_x = 'three' is not a whole number"},
             {"num_cams_x =\nnum_cams_y = 3\n", "num_cams_x = '' is not a whole number"},
             {"num_cams_x = 3 3\nnum_cams_y = 3\n", "num_cams_x = '3 3' is not a whole number"},
             {"num_cams_x = -\nnum_cams_y = 3\n", "num_cams_x = '-' is not a whole number"},
             {"num_cams_x = \x1b[2J3\nnum_cams_y = 3\n", "num_cams_x = '\\x1b[2J3' is not a whole number"}}) {
      CAPTURE(cfg);
      lbt::spit(dir.file("parameters.cfg"), cfg);
      const std::string m = error_of([&] { load_lightfield(dir.path.string()); });
      CHECK_MESSAGE(contains(m, why), m);
      CHECK(m.find('\x1b') == std::string::npos);
    }
    // A sign and leading zeros on a whole number in range are fine.
    lbt::spit(dir.file("parameters.cfg"), "num_cams_x = +3\nnum_cams_y = 003\n");
    CHECK(load_lightfield(dir.path.string()).nu == 3);
    // disp_min / disp_max (issue 21, item 2): the scene's range, both or neither, min < max.
    CHECK_FALSE(back.has_disp_range());
    lbt::spit(dir.file("parameters.cfg"),
              "[meta]\ndisp_min = -1.5\r\ndisp_max = 2.25\n[extrinsics]\nnum_cams_x = 3\nnum_cams_y = 3\n");
    const LightField4D ranged = load_lightfield(dir.path.string());
    REQUIRE(ranged.has_disp_range());
    CHECK(ranged.disp_min == -1.5f);
    CHECK(ranged.disp_max == 2.25f);
    {
      auto data = std::make_shared<LightFieldData>();
      data->lf = ranged;
      const ParamValues d = lightfield_spec().params(data.get()).defaults;
      CHECK(d.at("dmin") == doctest::Approx(-1.5));
      CHECK(d.at("dmax") == doctest::Approx(2.25));
      data->lf = back;  // no range in the folder: the CAE default
      const ParamValues d0 = lightfield_spec().params(data.get()).defaults;
      CHECK(d0.at("dmin") == doctest::Approx(-3.3));
      CHECK(d0.at("dmax") == doctest::Approx(2.8));
    }
    for (const char* bad : {"num_cams_x = 3\nnum_cams_y = 3\ndisp_min = -1\n",
                            "num_cams_x = 3\nnum_cams_y = 3\ndisp_min = 2\ndisp_max = 1\n",
                            "num_cams_x = 3\nnum_cams_y = 3\ndisp_min = abc\ndisp_max = 1\n",
                            "num_cams_x = 3\nnum_cams_y = 3\ndisp_min = -1e30\ndisp_max = 1\n"}) {
      CAPTURE(bad);
      lbt::spit(dir.file("parameters.cfg"), bad);
      const std::string e = error_of([&] { load_lightfield(dir.path.string()); });
      CHECK(contains(e, "disp_"));
      CHECK(e.find('\n') == std::string::npos);
    }
    std::filesystem::remove(dir.file("parameters.cfg"));
    LightFieldLoadOptions o;  // --grid decides without the file
    o.grid_u = o.grid_v = 3;
    CHECK(load_lightfield(dir.path.string(), o).nu == 3);
  }
  {
    // An HCI folder whose copy stopped after 64 of the 81 views: never an 8 x 8 grid.
    lbt::TempDir dir("lf-hci-64");
    const LightField4D big = synthetic_plane_lightfield(4, 3, 9, 9, 0.0f, 3);
    for (int i = 0; i < 81; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "input_Cam%03d.png", i);
      save_image(dir.file(name), big.views[static_cast<std::size_t>(i)]);
    }
    const LightField4D full = load_lightfield(dir.path.string());
    CHECK(full.nu == 9);
    CHECK(full.nv == 9);
    for (int i = 64; i < 81; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "input_Cam%03d.png", i);
      std::filesystem::remove(dir.file(name));
    }
    const std::string m = error_of([&] { load_lightfield(dir.path.string()); });
    CHECK(contains(m, "64 input_Cam views (0..63)"));
    CHECK(contains(m, "input_Cam64 and later are missing"));
  }
  {
    lbt::TempDir dir("lf-num");
    for (int i = 0; i < 6; ++i) save_image(dir.file(std::to_string(i) + ".png"), lf.views[static_cast<std::size_t>(i)]);
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "not a square count"));
    LightFieldLoadOptions o;
    o.grid_u = 3;
    o.grid_v = 2;
    const LightField4D back = load_lightfield(dir.path.string(), o);
    CHECK(back.layout == "grid-numbered");
    CHECK(back.nu == 3);
    CHECK(back.nv == 2);
    CHECK(back.view(0, 1).data == lf.views[3].data);
    o.grid_u = 4;
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string(), o); }), "does not match 6 views"));
  }
}

TEST_CASE("light field: loading errors are one line and name the problem") {
  const LightField4D lf = synthetic_plane_lightfield(8, 6, 3, 3, 0.0f, 3);
  CHECK(contains(error_of([] { load_lightfield("/nonexistent/lightbench-lf"); }), "not a directory"));
  {
    lbt::TempDir dir("lf-empty");
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "no views"));
  }
  {
    lbt::TempDir dir("lf-missing");
    for (int i : {0, 1, 2, 4}) save_image(dir.file(std::to_string(i) + ".png"), lf.views[0]);
    const std::string e = error_of([&] { load_lightfield(dir.path.string()); });
    CHECK(contains(e, "view 3 is missing"));
    CHECK(e.find('\n') == std::string::npos);
  }
  {
    lbt::TempDir dir("lf-size");
    save_lightfield(dir.path.string(), lf);
    save_image(dir.file("view_2_2.png"), ImageU8(7, 6, 3));
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "view_2_2.png is 7x6"));
  }
  {
    lbt::TempDir dir("lf-uvgap");
    save_image(dir.file("view_0_0.png"), lf.views[0]);
    save_image(dir.file("view_1_1.png"), lf.views[0]);
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "view_1_0 is missing"));
  }
  {
    lbt::TempDir dir("lf-gt");
    save_lightfield(dir.path.string(), lf);
    save_pfm(dir.file("gt_disp_lowres.pfm"), ImageF(5, 5, 1));
    CHECK(contains(error_of([&] { load_lightfield(dir.path.string()); }), "ground truth is 5x5"));
  }
}

TEST_CASE("light field: angular windows and views") {
  const LightField4D lf = synthetic_plane_lightfield(6, 5, 9, 9, 0.0f, 1);
  CHECK(angular_window_sizes(lf) == std::vector<int>{1, 3, 5, 7, 9});
  const AngularWindow w = angular_window(lf, 5);
  CHECK(w.u0 == 2);
  CHECK(w.v0 == 2);
  CHECK_THROWS_AS(angular_window(lf, 4), Error);
  CHECK_THROWS_AS(angular_window(lf, 11), Error);
  const LightField4D c = crop_views(lf, 3);
  CHECK(c.nu == 3);
  CHECK(c.centre().data == lf.centre().data);
  CHECK(c.view(0, 0).data == lf.view(3, 3).data);
  CHECK(extract_view(lf, 8, 0).data == lf.view(8, 0).data);
  CHECK_THROWS_AS(extract_view(lf, 9, 0), Error);
}

TEST_CASE("refocus: the plane's disparity is sharp, the centre view comes back") {
  const float d = 2.0f;
  const LightField4D lf = synthetic_plane_lightfield(40, 30, 5, 5, d, 11);
  const ImageU8 sharp = refocus_cpu(lf, d, 2, 2);
  const ImageU8 blurred = refocus_cpu(lf, 0.0f, 2, 2);
  const ImageU8 centre_only = refocus_cpu(lf, 0.0f, 0, 2);
  CHECK(centre_only.data == lf.centre().data);
  long diff_sharp = 0, diff_blur = 0;
  for (int y = 5; y < 25; ++y)
    for (int x = 5; x < 35; ++x)
      for (int c = 0; c < 3; ++c) {
        diff_sharp += std::abs(sharp.at(x, y, c) - lf.centre().at(x, y, c));
        diff_blur += std::abs(blurred.at(x, y, c) - lf.centre().at(x, y, c));
      }
  CHECK(diff_sharp == 0);  // integer disparity: every view shows the same texel
  CHECK(diff_blur > 1000);
}

TEST_CASE("two-plane light field: the square occludes the background in every view") {
  const int w = 64, h = 48, n = 5;
  const float db = -1.0f, df = 2.0f;
  const LightField4D lf = synthetic_two_plane_lightfield(w, h, n, n, db, df, 3u, 1);
  const LightField4D back = synthetic_plane_lightfield(w, h, n, n, db, 3u, 1);
  const LightField4D front = synthetic_plane_lightfield(w, h, n, n, df, 3u + 7919u, 1);
  REQUIRE(lf.gt.width == w);
  CHECK(lf.gt.at(0, 0) == db);
  CHECK(lf.gt.at(w / 2, h / 2) == df);
  CHECK(lf.gt.at(w / 4 - 1, h / 2) == db);
  CHECK(lf.gt.at(w / 4, h / 2) == df);
  // Centre of the square, shifted by the front disparity, shows the front plane in view (u, v);
  // a corner pixel far from the square shows the background.
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u) {
      const int x = static_cast<int>(w / 2 - df * (u - 2)), y = static_cast<int>(h / 2 - df * (v - 2));
      CHECK(lf.view(u, v).at(x, y, 0) == front.view(u, v).at(x, y, 0));
      CHECK(lf.view(u, v).at(1, 1, 1) == back.view(u, v).at(1, 1, 1));
    }
}

TEST_CASE("load_lightfield: incomplete, duplicated or mixed folders and an unfitting grid are refused (issue 10)") {
  const LightField4D lf = synthetic_plane_lightfield(9, 7, 3, 3, 0.5f, 2u);
  auto numbered = [&](const lbt::TempDir& dir, int skip) {
    for (int i = 0; i < 9; ++i)
      if (i != skip) save_image(dir.file(std::to_string(i) + ".png"), lf.views[static_cast<std::size_t>(i)]);
  };
  auto message = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  {
    lbt::TempDir dir("lf-gap");  // 8 of 9: view 4 missing
    numbered(dir, 4);
    const std::string m = message([&] { load_lightfield(dir.path.string()); });
    CHECK(m.find("view 4 is missing (found 8 of 9") != std::string::npos);
  }
  {
    lbt::TempDir dir("lf-dup");  // 4.png and 004.png are the same view
    numbered(dir, -1);
    save_image(dir.file("004.png"), lf.views[4]);
    const std::string m = message([&] { load_lightfield(dir.path.string()); });
    CHECK(m.find("are the same view") != std::string::npos);
  }
  {
    lbt::TempDir dir("lf-mixed");
    numbered(dir, -1);
    save_image(dir.file("input_Cam000.png"), lf.views[0]);
    const std::string m = message([&] { load_lightfield(dir.path.string()); });
    CHECK(m.find("mixes view layouts") != std::string::npos);
  }
  {
    lbt::TempDir dir("lf-big");  // an index that does not fit an int
    save_image(dir.file("99999999999.png"), lf.views[0]);
    const std::string m = message([&] { load_lightfield(dir.path.string()); });
    CHECK(m.find("view index out of range") != std::string::npos);
  }
  {
    lbt::TempDir dir("lf-uv");
    save_lightfield(dir.path.string(), lf);
    LightFieldLoadOptions o;
    o.grid_u = 9;
    o.grid_v = 1;
    const std::string m = message([&] { load_lightfield(dir.path.string(), o); });
    CHECK(m.find("does not match the 3x3") != std::string::npos);
    o.grid_u = o.grid_v = 3;
    CHECK(load_lightfield(dir.path.string(), o).nu == 3);
  }
}
