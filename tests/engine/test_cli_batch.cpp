// `lightbench-cli batch` on small data sets the test writes (CPU backend, tiny images): maps
// and rows written, scores equal to eval::evaluate's on the written maps, resume (a second
// run skips every scene; a CSV cut short is completed), a failing scene as an error row with
// exit 1, shards merged into the single run's report, IQA correlations, bad options refused
// in one line.
#include <doctest/doctest.h>

#include "cli_datasets.hpp"
#include "cli_runner.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/evaluation.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lbt::cli;

namespace {
const char* kBp = " --backend cpu --ndisp 8 --levels 2 --iterations 2";

// The CSV's lines without the timing columns (the last four).
std::vector<std::string> untimed_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (std::string l : lines) {
    for (int k = 0; k < 4; ++k) l = l.substr(0, l.rfind(','));
    out.push_back(l);
  }
  return out;
}
std::vector<std::string> untimed(const std::string& path) { return untimed_lines(lines_of(path)); }

nlohmann::json without_run(nlohmann::json j) {
  j.erase("run");
  for (auto& s : j["scenes"]) s.erase("timings");
  return j;
}

std::string scene_name(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "s%d", i);
  return buf;
}

void collection(const fs::path& root, int n) {
  for (int i = 0; i < n; ++i) mb2014_scene(root / scene_name(i));
}
}  // namespace

TEST_CASE("batch: stereo-bp over a Middlebury 2014 collection: maps, rows, scores, resume") {
  lbt::TempDir dir("batchcli");
  collection(dir.path / "mb", 3);
  const std::string base = "batch stereo-bp --dataset " + dir.file("mb") + " --out " + dir.file("maps") + kBp +
                           " --csv " + dir.file("b.csv") + " --json " + dir.file("b.json");
  auto r = lbt::run_cli(base);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has(r.output, "scenes/s"));
  // stderr is not a terminal: one line per scene, in the order they finish (the scoring threads
  // may finish them out of order), the count running to 3/3.
  CHECK(has(r.output, "batch: 3/3 s"));
  for (const char* s : {" s0", " s1", " s2"}) CHECK(has(r.output, s));
  const auto csv = lines_of(dir.file("b.csv"));
  REQUIRE(csv.size() == 1 + 3 * 2);
  CHECK(csv[0] ==
        "scene,algorithm,variant,params,mask,bad050,bad100,bad200,bad400,invalid,avgerr,rms,a50,a90,a95,a99,pixels,"
        "map,error,open_ms,compute_ms,score_ms,write_ms");
  CHECK(csv[1].rfind("s0,stereo-bp,,iterations=2;levels=2;ndisp=8,all,", 0) == 0);
  const auto j = lbt::read_json(dir.file("b.json"));
  REQUIRE(j["scenes"].size() == 3);
  CHECK(j["run"]["computed"] == 3);
  CHECK(j["run"].contains("io_share"));
  // The scores are eval::evaluate's on the map written.
  const dataset::Dataset ds = dataset::open_dataset(dir.file("mb"));
  for (int i = 0; i < 3; ++i) {
    const std::string name = scene_name(i);
    CAPTURE(name);
    const ImageF map = load_pfm(dir.file("maps/" + name + ".pfm"));
    const nlohmann::json want = eval::evaluate(map, dataset::open_scene(dataset::select_scene(ds, name)).truth);
    CHECK(j["scenes"][i]["metrics"] == want);
    CHECK(j["scenes"][i]["map"] == name + ".pfm");
  }
  // `eval` of the written maps gives the same metrics.
  auto e = lbt::run_cli("eval --dataset " + dir.file("mb") + " --disp " + dir.file("maps") + " --json " +
                        dir.file("e.json"));
  INFO(e.output);
  REQUIRE(e.status == 0);
  CHECK(lbt::read_json(dir.file("e.json"))["scenes"][1]["metrics"] == j["scenes"][1]["metrics"]);

  // Resume: a second run computes nothing and leaves the same rows.
  r = lbt::run_cli(base);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has(r.output, "0 to run, 3 already in"));
  CHECK(lines_of(dir.file("b.csv")) == csv);
  // A run killed after its first row: the cut scene and the rest are computed again.
  {
    std::ofstream f(dir.file("b.csv"), std::ios::trunc);
    f << csv[0] << "\n" << csv[1] << "\n" << csv[2] << "\n" << csv[3].substr(0, 10);  // s0 whole, a torn row
  }
  r = lbt::run_cli(base);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has(r.output, "2 to run, 1 already in"));
  CHECK(untimed(dir.file("b.csv")) == untimed_lines(csv));
  {
    std::ofstream f(dir.file("b.csv"), std::ios::trunc);
    f << csv[0] << "\n" << csv[1] << "\n";  // half of s0's rows: s0 is run again
  }
  r = lbt::run_cli(base);
  CHECK(has(r.output, "3 to run, 0 already in"));
  CHECK(untimed(dir.file("b.csv")) == untimed_lines(csv));
  // --no-resume starts over.
  r = lbt::run_cli(base + " --no-resume");
  CHECK(has(r.output, "3 to run, 0 already in"));
}

TEST_CASE("batch: a failing scene is an error row, the rest go on, exit 1; shards merge into the single run") {
  lbt::TempDir dir("batchcli");
  collection(dir.path / "mb", 4);
  text(dir.path / "mb" / "s1" / "im1.png", "not a png");  // s1's right image is broken
  const std::string base = "batch stereo-bp --dataset " + dir.file("mb") + " --out " + dir.file("maps") + kBp;
  auto r = lbt::run_cli(base + " --csv " + dir.file("all.csv") + " --json " + dir.file("all.json"));
  INFO(r.output);
  CHECK(r.status == 1);
  const auto csv = lines_of(dir.file("all.csv"));
  REQUIRE(csv.size() == 1 + 3 * 2 + 1);
  CHECK(csv[3].rfind("s1,stereo-bp,", 0) == 0);
  CHECK(has(csv[3], "im1.png"));
  const auto j = lbt::read_json(dir.file("all.json"));
  CHECK(j["failed"] == 1);
  CHECK(j["scenes"][1].contains("error"));
  CHECK(fs::exists(dir.file("maps/s3.pfm")));
  CHECK(!fs::exists(dir.file("maps/s1.pfm")));

  // Shards 0/2 and 1/2, then --merge: the single run's rows and report (timings aside).
  r = lbt::run_cli(base + " --shard 0/2 --csv " + dir.file("a.csv") + " --json " + dir.file("a.json"));
  CHECK(r.status == 0);  // s0, s2
  r = lbt::run_cli(base + " --shard 1/2 --csv " + dir.file("b.csv"));
  CHECK(r.status == 1);  // s1 (broken), s3
  CHECK(lines_of(dir.file("a.csv")).size() == 1 + 2 * 2);
  r = lbt::run_cli("batch --merge " + dir.file("b.csv") + " " + dir.file("a.csv") + " --csv " + dir.file("m.csv") +
                   " --json " + dir.file("m.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(untimed(dir.file("m.csv")) == untimed(dir.file("all.csv")));
  CHECK(without_run(lbt::read_json(dir.file("m.json"))) == without_run(j));
  // A shard merged twice is identical: accepted; a differing duplicate is refused.
  r = lbt::run_cli("batch --merge " + dir.file("a.csv") + " " + dir.file("a.csv") + " --csv " + dir.file("m2.csv"));
  CHECK(r.status == 0);
  auto lines = lines_of(dir.file("a.csv"));
  lines[1][lines[1].find(",all,") + 5] = '7';  // another bad050
  {
    std::ofstream f(dir.file("c.csv"));
    for (const auto& l : lines) f << l << "\n";
  }
  r = lbt::run_cli("batch --merge " + dir.file("a.csv") + " " + dir.file("c.csv") + " --csv " + dir.file("m3.csv"));
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(has(r.output, "differs"));
}

TEST_CASE("batch: KITTI maps written as PFM and 16-bit PNG that eval reads back") {
  lbt::TempDir dir("batchcli");
  kitti(dir.path / "training", 2015, 2);
  auto r = lbt::run_cli("batch stereo-local --dataset " + dir.file("training") + " --out " + dir.file("maps") +
                        " --backend cpu --ndisp 8 --radius 2 --csv " + dir.file("k.csv") + " --json " +
                        dir.file("k.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(fs::exists(dir.file("maps/000001_10.pfm")));
  REQUIRE(fs::exists(dir.file("maps/000001_10.png")));
  const auto j = lbt::read_json(dir.file("k.json"));
  CHECK(j["scenes"][0]["metrics"]["noc"].contains("d1_all"));
  CHECK(lines_of(dir.file("k.csv")).size() == 1 + 2 * 2);
}

TEST_CASE("batch: mad over an IQA database gives every pair's MAD and the correlations with MOS") {
  lbt::TempDir dir("batchcli");
  tid6(dir.path / "tid");
  auto r = lbt::run_cli("batch mad --dataset " + dir.file("tid") + " --backend cpu --csv " + dir.file("m.csv") +
                        " --json " + dir.file("m.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("m.json"));
  REQUIRE(j["scenes"].size() == 6);
  std::vector<double> score, mos;
  for (const auto& s : j["scenes"]) {
    CHECK(s["score"].get<double>() > 0.0);
    score.push_back(s["score"]);
    mos.push_back(s["mos"]);
  }
  const eval::IqaCorrelation c = eval::correlate(score, mos);
  CHECK(j["correlation"]["srocc"].get<double>() == doctest::Approx(c.srocc));
  CHECK(j["correlation"]["srocc"].get<double>() < 0.0);  // MAD rises as MOS falls
  CHECK(lines_of(dir.file("m.csv"))[0] ==
        "scene,algorithm,variant,params,mask,score,mos,map,error,open_ms,compute_ms,score_ms,write_ms");
}

TEST_CASE("batch: bad --shard, --device, --devices and a data set of the wrong kind refused in one line") {
  lbt::TempDir dir("batchcli");
  collection(dir.path / "mb", 1);
  tid6(dir.path / "tid");
  const std::string base = "batch stereo-bp --dataset " + dir.file("mb") + " --out " + dir.file("maps") + kBp;
  for (const char* bad : {" --shard 2/2", " --shard 1", " --shard a/b", " --shard 0/0", " --devices 0,0",
                                 " --devices 0,x", " --device 3", " --devices 0,1", " --device 0 --devices 0,1"}) {
    CAPTURE(bad);
    const auto r = lbt::run_cli(base + bad);
    CHECK(r.status == 1);
    CHECK(lbt::count_lines(r.output) == 1);
  }
  auto r = lbt::run_cli(base + " --shard 2/2");
  CHECK(has(r.output, "0..1"));
  r = lbt::run_cli(base + " --devices 0,1");
  CHECK(has(r.output, "--devices needs the CUDA backend"));
  r = lbt::run_cli(base + " --device 3");
  CHECK(has(r.output, "--device"));
  r = lbt::run_cli("batch stereo-bp --dataset " + dir.file("tid") + " --out " + dir.file("maps"));
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(has(r.output, "tid2013"));
  CHECK(!fs::exists(dir.file("maps")));
}

TEST_CASE("batch: lightfield over HCI light fields, scored with the run's border like lfdepth's metrics") {
  lbt::TempDir dir("batchcli");
  hci(dir.path / "lf" / "a");
  hci(dir.path / "lf" / "b");
  auto r = lbt::run_cli("batch lightfield --dataset " + dir.file("lf") + " --out " + dir.file("maps") +
                        " --backend cpu --labels 9 --json " + dir.file("l.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("l.json"));
  REQUIRE(j["scenes"].size() == 2);
  CHECK(j["scenes"][0]["metrics"]["all"].contains("badpix_007"));
  // lfdepth on the same field: the same map, the same metrics.
  r = lbt::run_cli("lfdepth --lf " + dir.file("lf/a") + " --backend cpu --labels 9 --out " + dir.file("a.pfm") +
                   " --json " + dir.file("a.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto a = lbt::read_json(dir.file("a.json"));
  CHECK(a["protocol"] == "hci");
  CHECK(a["metrics"] == j["scenes"][0]["metrics"]);
  CHECK(lbt::read_bytes(dir.file("a.pfm")) == lbt::read_bytes(dir.file("maps/a.pfm")));
}
