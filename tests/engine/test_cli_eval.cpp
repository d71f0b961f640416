// `lightbench-cli eval` as a user runs it on small data sets the test writes: its numbers are
// eval::evaluate's (and eval::correlate's) on the same inputs, key names and CSV columns as
// documented, a missing map and a map of the wrong size reported per scene with exit 1.
#include <doctest/doctest.h>

#include <cmath>

#include "cli_datasets.hpp"
#include "cli_runner.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/evaluation.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lbt::cli;

namespace {
// The scene's metrics as the engine gives them.
nlohmann::json expected(const std::string& root, const std::string& scene, const ImageF& map) {
  const dataset::Dataset ds = dataset::open_dataset(root);
  const dataset::OpenedScene sc = dataset::open_scene(dataset::select_scene(ds, scene));
  return eval::evaluate(map, sc.truth);
}
}  // namespace

TEST_CASE("eval: Middlebury 2014 maps scored as eval::evaluate, JSON keys, CSV columns, a missing map") {
  lbt::TempDir dir("evalcli");
  const fs::path root = dir.path / "mb";
  mb2014_scene(root / "alpha");
  mb2014_scene(root / "beta");
  mb2014_scene(root / "gamma");
  fs::create_directories(dir.path / "maps" / "beta");
  const ImageF map = crafted_map();
  save_pfm(dir.file("maps/alpha.pfm"), map);
  save_pfm(dir.file("maps/beta/disp0MINE.pfm"), map);  // a MiddEval3 submission folder
  // gamma has no map.
  const auto r = lbt::run_cli("eval --dataset " + root.string() + " --disp " + dir.file("maps") + " --json " +
                              dir.file("e.json") + " --csv " + dir.file("e.csv") + " --method mine");
  INFO(r.output);
  CHECK(r.status == 1);  // a scene without a map
  CHECK(has(r.output, "gamma"));
  CHECK(has(r.output, "no map (looked for gamma.pfm, gamma.png, gamma/disp0*.pfm"));
  const auto j = lbt::read_json(dir.file("e.json"));
  CHECK(j["layout"] == "middlebury2014");
  CHECK(j["protocol"] == "middlebury-v3");
  CHECK(j["method"] == "mine");
  REQUIRE(j["scenes"].size() == 3);
  const nlohmann::json want = expected(root.string(), "alpha", map);
  CHECK(j["scenes"][0]["scene"] == "alpha");
  CHECK(j["scenes"][0]["metrics"] == want);
  CHECK(j["scenes"][1]["metrics"] == want);
  CHECK(j["scenes"][2]["scene"] == "gamma");
  CHECK(has(j["scenes"][2]["error"].get<std::string>(), "no map"));
  for (const char* k : {"bad050", "bad100", "bad200", "bad400", "invalid", "avgerr", "rms", "a50", "a90", "a95", "a99"}) {
    CAPTURE(k);
    CHECK(want["nonocc"].contains(k));
    CHECK(j["summary"]["all"][k] == want["all"][k]);  // two identical scenes: the mean is theirs
  }
  // Hand check of the crafted map over nonocc: invalid = the NaN pixel, 9 at (10,10) bad.
  CHECK(want["nonocc"]["invalid"].get<double>() > 0.0);
  const auto csv = lines_of(dir.file("e.csv"));
  REQUIRE(csv.size() == 1 + 2 + 2 + 1);
  CHECK(csv[0] == "scene,method,mask,bad050,bad100,bad200,bad400,invalid,avgerr,rms,a50,a90,a95,a99,pixels,error");
  CHECK(csv[1].rfind("alpha,mine,all,", 0) == 0);
  CHECK(csv[2].rfind("alpha,mine,nonocc,", 0) == 0);
  CHECK(csv[5].rfind("gamma,mine,,", 0) == 0);
  CHECK(has(csv[5], "no map"));
}

TEST_CASE("eval: one map for one scene; a map of the wrong size names both sizes") {
  lbt::TempDir dir("evalcli");
  mb2014_scene(dir.path / "one");
  save_pfm(dir.file("good.pfm"), crafted_map());
  auto r = lbt::run_cli("eval --dataset " + dir.file("one") + " --disp " + dir.file("good.pfm") + " --json " +
                        dir.file("e.json"));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(lbt::read_json(dir.file("e.json"))["scenes"][0]["metrics"] ==
        expected(dir.file("one"), "one", crafted_map()));
  save_pfm(dir.file("small.pfm"), crafted_map(10, 12));
  r = lbt::run_cli("eval --dataset " + dir.file("one") + " --disp " + dir.file("small.pfm") + " --csv " +
                   dir.file("e.csv"));
  INFO(r.output);
  // One scene that cannot be scored: a one-line error, nothing written.
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(has(r.output, "is 10x12"));
  CHECK(has(r.output, "is 24x16"));
  CHECK(!fs::exists(dir.file("e.csv")));
  // Usage errors: one line each.
  r = lbt::run_cli("eval --dataset " + dir.file("one"));
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
  r = lbt::run_cli("eval --dataset " + dir.file("nothing") + " --disp " + dir.file("good.pfm"));
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
}

TEST_CASE("eval: KITTI 2015 frames matched by file name, d1 over noc / occ with fg / bg") {
  lbt::TempDir dir("evalcli");
  const fs::path t = dir.path / "training";
  kitti(t, 2015, 2);
  fs::create_directories(dir.path / "maps");
  ImageF m0(kW, kH, 1, 10.0f), m1(kW, kH, 1, 11.0f);
  for (int x = 0; x < kW; ++x) m1.at(x, 4) = 20.0f;  // one row of outliers
  dataset::save_kitti_disparity(dir.file("maps/000000_10.png"), m0);
  dataset::save_kitti_disparity(dir.file("maps/000001_10.png"), m1);
  const auto r = lbt::run_cli("eval --dataset " + t.string() + " --disp " + dir.file("maps") + " --json " +
                              dir.file("e.json") + " --csv " + dir.file("e.csv"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("e.json"));
  CHECK(j["protocol"] == "kitti");
  REQUIRE(j["scenes"].size() == 2);
  CHECK(j["scenes"][1]["scene"] == "000001_10");
  const ImageF back = dataset::load_disparity_map(dir.file("maps/000001_10.png"));
  CHECK(j["scenes"][1]["metrics"] == expected(t.string(), "000001_10", back));
  CHECK(j["scenes"][0]["metrics"]["noc"]["d1_all"].get<double>() == 0.0);
  CHECK(j["scenes"][1]["metrics"]["occ"]["d1_all"].get<double>() > 0.0);
  for (const char* k : {"d1_all", "d1_bg", "d1_fg"}) CHECK(j["scenes"][1]["metrics"]["noc"].contains(k));
  CHECK(lines_of(dir.file("e.csv"))[0] == "scene,method,mask,d1_all,d1_bg,d1_fg,invalid,pixels,error");
}

TEST_CASE("eval: an IQA method's scores against TID2013 MOS (srocc, krocc, plcc as eval::correlate)") {
  lbt::TempDir dir("evalcli");
  tid6(dir.path / "tid");
  const dataset::Dataset ds = dataset::open_dataset(dir.file("tid"));
  REQUIRE(ds.scenes.size() == 6);
  std::string csv = "name,score\n";
  std::vector<double> obj, mos;
  for (std::size_t i = 0; i < ds.scenes.size(); ++i) {
    const double s = 10.0 + 3.0 * std::sin(static_cast<double>(i)) - ds.scenes[i].mos;
    csv += ds.scenes[i].name + "," + std::to_string(s) + "\n";
    obj.push_back(std::stod(std::to_string(s)));
    mos.push_back(ds.scenes[i].mos);
  }
  text(dir.path / "scores.csv", csv);
  const auto r = lbt::run_cli("eval --dataset " + dir.file("tid") + " --scores " + dir.file("scores.csv") +
                              " --json " + dir.file("e.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has(r.output, "srocc"));
  const auto j = lbt::read_json(dir.file("e.json"));
  const eval::IqaCorrelation c = eval::correlate(obj, mos);
  CHECK(j["srocc"].get<double>() == doctest::Approx(c.srocc).epsilon(1e-12));
  CHECK(j["krocc"].get<double>() == doctest::Approx(c.krocc).epsilon(1e-12));
  CHECK(j["plcc"].get<double>() == doctest::Approx(c.plcc).epsilon(1e-12));
  CHECK(j["summary"].contains("logistic"));
  // A name that is not in the database: one line.
  text(dir.path / "bad.csv", csv + "zz.bmp,1\n");
  const auto b = lbt::run_cli("eval --dataset " + dir.file("tid") + " --scores " + dir.file("bad.csv"));
  CHECK(b.status == 1);
  CHECK(lbt::count_lines(b.output) == 1);
  CHECK(has(b.output, "zz.bmp"));
}

TEST_CASE("compute commands: --scene through the data-set layouts (KITTI --frame), 'metrics' = eval's numbers") {
  lbt::TempDir dir("evalcli");
  const fs::path t = dir.path / "training";
  kitti(t, 2012, 2);
  // Several frames and no --frame: one line listing them.
  auto r = lbt::run_cli("stereo-bp --scene " + t.string() + " --backend cpu --ndisp 8 --levels 2 --disparity " +
                        dir.file("d.pfm"));
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(has(r.output, "--frame"));
  CHECK(has(r.output, "000001_10"));
  r = lbt::run_cli("stereo --scene " + t.string() + " --frame 000001 --backend cpu --ndisp 8 --levels 2 --out " +
                   dir.file("d.pfm") + " --json " + dir.file("r.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("r.json"));
  CHECK(j["parameters"]["layout"] == "kitti");
  CHECK(j["parameters"]["frame"] == "000001_10");
  CHECK(j["protocol"] == "kitti");
  REQUIRE(j.contains("metrics"));
  CHECK(j["metrics"] == expected(t.string(), "000001_10", load_pfm(dir.file("d.pfm"))));
  // `eval` of the written map: the same numbers.
  fs::create_directories(dir.path / "maps");
  fs::copy_file(dir.file("d.pfm"), dir.file("maps/000001_10.pfm"));
  save_pfm(dir.file("maps/000000_10.pfm"), ImageF(kW, kH, 1, 10.0f));
  r = lbt::run_cli("eval --dataset " + t.string() + " --disp " + dir.file("maps") + " --json " + dir.file("e.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(lbt::read_json(dir.file("e.json"))["scenes"][1]["metrics"] == j["metrics"]);
  // A Middlebury 2014 scene: metrics over nonocc / all beside the runner's bad1 scores.
  mb2014_scene(dir.path / "mb");
  r = lbt::run_cli("stereo-local --scene " + dir.file("mb") + " --backend cpu --ndisp 8 --radius 2 --disparity " +
                   dir.file("m.pfm") + " --json " + dir.file("m.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto m = lbt::read_json(dir.file("m.json"));
  CHECK(m.contains("bad1_all"));
  CHECK(m["metrics"] == expected(dir.file("mb"), "mb", load_pfm(dir.file("m.pfm"))));
}
