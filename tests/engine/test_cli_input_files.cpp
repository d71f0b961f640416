// Special and huge input files, and CSV rows that must never be lost (issue 39, items 4 and
// 5), through lightbench-cli. A named pipe given to `mad --ref`, `eval --scores`, `batch
// --merge`, `batch --csv` (the resume file), a scene's calib.txt or a light field's
// parameters.cfg is refused in one line at once (each run under `timeout`, so a hang fails
// the case instead of hanging the suite); /dev/zero, a folder and a sparse file past the limit
// likewise. CSV fields with quotes, commas and line breaks survive resume and --merge; a
// resume CSV with an unclosed quote or a garbage line in the middle is refused and left
// byte-for-byte as it was.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>

#include "cli_datasets.hpp"
#include "cli_runner.hpp"
#include "lightbench/csv.hpp"
#include "test_util.hpp"

using namespace lbt::cli;

namespace {

struct QuickRun {
  int status = -1;  // 124: killed by timeout
  std::string output;
  double seconds = 0;
};

// lightbench-cli under `timeout`: a run blocked on a named pipe is killed after `limit_s`.
QuickRun run_quick(const std::string& args, int limit_s = 30) {
  const std::string cmd = "timeout -k 5 " + std::to_string(limit_s) + " " + std::string(LB_CLI_PATH) + " " + args +
                          " 2>&1 </dev/null";
  const auto t0 = std::chrono::steady_clock::now();
  const lbt::CliRun c = lbt::run_shell(cmd);
  QuickRun r;
  r.status = c.status;
  r.output = c.output;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// A refusal: exit 1 (not the timeout's 124), one line holding every part, quickly.
void refused(const QuickRun& r, const std::vector<std::string>& parts) {
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(r.seconds < 20);
  for (const auto& p : parts) CHECK(has(r.output, p));
}

void fifo(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::error_code ec;
  fs::remove(p, ec);
  REQUIRE(::mkfifo(p.c_str(), 0600) == 0);
}

void sparse(const fs::path& p, const std::string& head, std::uintmax_t size) {
  text(p, head);
  fs::resize_file(p, size);
}

const char* kLocal = " --backend cpu --ndisp 8";

}  // namespace

TEST_CASE("input files: a named pipe anywhere the CLI reads is refused in one line, at once") {
  lbt::TempDir dir("inputcli");
  fifo(dir.path / "pipe");
  const std::string pipe = dir.file("pipe");
  lb::save_image(dir.file("m.png"), lbt::random_image(40, 40, 1, 3));

  refused(run_quick("mad --backend cpu --ref " + pipe + " --dist " + dir.file("m.png")), {pipe, "named pipe"});
  refused(run_quick("mad --backend cpu --ref " + dir.file("m.png") + " --dist " + pipe), {pipe, "named pipe"});
  refused(run_quick("stereo --method local --backend cpu --ndisp 4 --left " + pipe + " --right " + dir.file("m.png") +
                    " --out " + dir.file("o.pfm")),
          {pipe, "named pipe"});

  tid6(dir.path / "tid");
  refused(run_quick("eval --dataset " + dir.file("tid") + " --scores " + pipe), {"--scores", pipe, "named pipe"});
  refused(run_quick("batch --merge " + pipe + " --csv " + dir.file("m.csv")), {"--merge", pipe, "named pipe"});
  CHECK(!fs::exists(dir.path / "m.csv"));

  // The resume CSV (batch's --csv, read before it is rewritten).
  mb2014_scene(dir.path / "mb" / "s0");
  refused(run_quick("batch stereo-local --dataset " + dir.file("mb") + " --out " + dir.file("maps") + kLocal +
                    " --csv " + pipe),
          {"--csv", pipe, "not a regular file"});

  // A Middlebury 2014 scene's calib.txt, through a compute command and through eval.
  mb2014_scene(dir.path / "pipecalib");
  fifo(dir.path / "pipecalib" / "calib.txt");
  refused(run_quick("stereo --method local --backend cpu --ndisp 4 --scene " + dir.file("pipecalib") + " --out " +
                    dir.file("o.pfm")),
          {"calib.txt", "named pipe"});
  lb::save_pfm(dir.file("d.pfm"), lb::ImageF(kW, kH, 1, 2.0f));
  refused(run_quick("eval --dataset " + dir.file("pipecalib") + " --disp " + dir.file("d.pfm")),
          {"calib.txt", "named pipe"});

  // An HCI light field's parameters.cfg.
  hci(dir.path / "lf");
  fifo(dir.path / "lf" / "parameters.cfg");
  refused(run_quick("lfdepth --backend cpu --lf " + dir.file("lf") + " --views 3 --labels 5 --drange -1,1 --out " +
                    dir.file("d.pfm")),
          {"parameters.cfg", "named pipe"});

  // A Raytrix calibration and a scene file.
  refused(run_quick("render --backend cpu --raw " + dir.file("m.png") + " --calib " + pipe + " --out " +
                    dir.file("v.png")),
          {"calibration '" + pipe + "': is a named pipe"});
  refused(run_quick("render --backend cpu --raw " + pipe + " --calib " + dir.file("m.png") + " --out " +
                    dir.file("v.png")),
          {"raw '" + pipe + "': is a named pipe"});
  refused(run_quick("render --backend cpu --scene " + pipe + " --out " + dir.file("v.png")), {pipe, "named pipe"});
  CHECK(!fs::exists(dir.path / "o.pfm"));
  CHECK(!fs::exists(dir.path / "v.png"));
}

TEST_CASE("input files: /dev/zero, a folder and a sparse file past the limit as CSV or calib.txt") {
  lbt::TempDir dir("inputcli");
  tid6(dir.path / "tid");
  const std::string eval = "eval --dataset " + dir.file("tid") + " --scores ";
  refused(run_quick(eval + "/dev/zero"), {"--scores '/dev/zero'", "character device"});
  refused(run_quick("batch --merge /dev/zero --csv " + dir.file("m.csv")), {"/dev/zero", "character device"});
  fs::create_directories(dir.path / "folder.csv");
  refused(run_quick(eval + dir.file("folder.csv")), {"folder.csv", "is a directory"});
  refused(run_quick("batch --merge " + dir.file("folder.csv") + " --csv " + dir.file("m.csv")),
          {"folder.csv", "is a directory"});
  // 65 MiB of holes: refused by its size, nothing read.
  sparse(dir.path / "big.csv", "name,score\n", 65ull << 20);
  refused(run_quick(eval + dir.file("big.csv")), {"big.csv", "is larger than 64 MiB"});
  refused(run_quick("batch --merge " + dir.file("big.csv") + " --csv " + dir.file("m.csv")),
          {"big.csv", "is larger than 64 MiB"});
  // calib.txt of 2 MiB (a real one is a few hundred bytes).
  mb2014_scene(dir.path / "bigcalib");
  sparse(dir.path / "bigcalib" / "calib.txt", kCalib, 2ull << 20);
  refused(run_quick("stereo --method local --backend cpu --ndisp 4 --scene " + dir.file("bigcalib") + " --out " +
                    dir.file("o.pfm")),
          {"calib.txt", "is larger than 1 MiB"});
  // parameters.cfg of 2 MiB.
  hci(dir.path / "lf");
  sparse(dir.path / "lf" / "parameters.cfg", "num_cams_x = 3\n", 2ull << 20);
  refused(run_quick("lfdepth --backend cpu --lf " + dir.file("lf") + " --views 3 --labels 5 --drange -1,1 --out " +
                    dir.file("d.pfm")),
          {"parameters.cfg", "is larger than 1 MiB"});
  CHECK(!fs::exists(dir.path / "m.csv"));
  CHECK(!fs::exists(dir.path / "o.pfm"));
}

TEST_CASE("batch: rows with quotes, commas and line breaks survive resume and --merge; a broken resume CSV is "
          "refused unchanged") {
  lbt::TempDir dir("inputcli");
  for (int i = 0; i < 2; ++i) mb2014_scene(dir.path / "mb" / ("s" + std::to_string(i)));
  const std::string csv = dir.file("b.csv");
  const std::string base =
      "batch stereo-local --dataset " + dir.file("mb") + " --out " + dir.file("maps") + kLocal + " --csv " + csv;
  auto r = run_quick(base, 120);
  INFO(r.output);
  REQUIRE(r.status == 0);
  lb::csv::Table t = lb::csv::read(csv, "b", lb::csv::Tail::Complete);
  REQUIRE(t.rows.size() >= 2);
  // Rows of another signature, as another tool (or a hand) may leave them: awkward fields.
  const int err = t.column("error");
  REQUIRE(err > 0);
  std::vector<std::string> other = t.rows[0];
  other[1] = "stereo-bp";
  other[3] = "ndisp=8";
  other[static_cast<std::size_t>(err)] = "'im0.png': bad \"magic\", first bytes 00 01\nsecond line";
  std::vector<std::string> other2 = other;
  other2[0] = "s,1";
  other2[static_cast<std::size_t>(err)] = "";
  t.rows.push_back(other);
  t.rows.push_back(other2);
  lbt::spit(csv, lb::csv::text(t));

  // Resume: this signature's scenes are done; the other rows are kept field for field.
  r = run_quick(base, 120);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has(r.output, "0 to run, 2 already in"));
  const lb::csv::Table after = lb::csv::read(csv, "b", lb::csv::Tail::Complete);
  CHECK(after.rows.size() == t.rows.size());
  CHECK(std::count(after.rows.begin(), after.rows.end(), other) == 1);
  CHECK(std::count(after.rows.begin(), after.rows.end(), other2) == 1);

  // --merge reads them back alike.
  r = run_quick("batch --merge " + csv + " --csv " + dir.file("m.csv"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const lb::csv::Table merged = lb::csv::read(dir.file("m.csv"), "m", lb::csv::Tail::Complete);
  CHECK(merged.rows == after.rows);

  // An unclosed quote in the middle, rows of another signature after it: refused in one line,
  // the file left byte for byte (it used to be read as a torn tail, the rows after it lost).
  // The quote runs to the next quote of the file (text after it) or to the end (never closed).
  const std::string good = lbt::slurp(csv);
  const std::size_t second = good.find('\n', good.find('\n') + 1) + 1;  // after the header and row 1
  std::string broken = good;
  broken.insert(second, "s0,stereo-bp,,ndisp=8,\"unclosed\n");
  lbt::spit(csv, broken);
  r = run_quick(base, 120);
  refused(r, {"--csv", "b.csv", "text after the closing quote of field 5 (its quote opened on line 3)"});
  CHECK(lbt::slurp(csv) == broken);
  lb::csv::Table plain = t;  // other signatures, no quote anywhere after the broken row
  plain.rows.pop_back();
  plain.rows.back()[static_cast<std::size_t>(err)] = "";
  plain.rows.back()[0] = "s1";
  const std::string plain_text = lb::csv::text(plain);
  REQUIRE(plain_text.find('"') == std::string::npos);
  broken = plain_text;
  broken.insert(plain_text.find('\n', plain_text.find('\n') + 1) + 1, "s0,stereo-bp,,ndisp=8,\"unclosed\n");
  lbt::spit(csv, broken);
  r = run_quick(base, 120);
  refused(r, {"--csv", "b.csv", "line 3: the quote that opens field 5 is never closed"});
  CHECK(lbt::slurp(csv) == broken);
  r = run_quick("batch --merge " + csv + " --csv " + dir.file("m2.csv"));
  refused(r, {"--merge", "b.csv", "never closed"});
  CHECK(!fs::exists(dir.path / "m2.csv"));

  // A garbage line in the middle: the same.
  broken = good;
  broken.insert(second, "this is not a row\n");
  lbt::spit(csv, broken);
  r = run_quick(base, 120);
  refused(r, {"--csv", "b.csv", "1 field"});
  CHECK(lbt::slurp(csv) == broken);

  // A row torn by a kill at the end (no line break) is still dropped and run again.
  lbt::spit(csv, good + "s1,stereo-local,,nd");
  r = run_quick(base, 120);
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(lb::csv::read(csv, "b", lb::csv::Tail::Complete).rows.size() == after.rows.size());
}
