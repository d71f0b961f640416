// lightbench-cli output handling: every option and output path is checked before computing,
// a failing run replaces nothing and leaves no temporary file, and concurrent runs writing
// the same --out/--json leave whole files that match each other.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_runner.hpp"
#include "lightbench/image.hpp"
#include "lightbench/colormap.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;

namespace {

using lbt::slurp;
using lbt::spit;
using lbt::temps_in;

// A failing run: non-zero exit, one line naming `needle`.
void check_fails(const lbt::CliRun& r, const std::string& needle) {
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(r.output.find(needle) != std::string::npos);
  CHECK(r.output.find("Success") == std::string::npos);
}

// Runs the CLI keeping only stderr (a run that fails late has printed its summary on stdout).
lbt::CliRun run_stderr(const std::string& shell_cmd) {
  lbt::CliRun r;
  FILE* p = popen((shell_cmd + " 2>&1 >/dev/null").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) r.output += buf;
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// A small stereo pair (the local method on it takes milliseconds) with ground truth.
struct Pair {
  lbt::TempDir dir{"cli-out-pair"};
  std::string args;
  Pair() {
    // Unrelated noise: the disparity map then depends on every parameter (ndisp included).
    const lb::ImageU8 l = lbt::random_image(48, 32, 1, 3);
    const lb::ImageU8 r = lbt::random_image(48, 32, 1, 4);
    lb::save_image(dir.file("l.png"), l);
    lb::save_image(dir.file("r.png"), r);
    lb::ImageF gt(48, 32, 1);
    for (auto& v : gt.data) v = 2.0f;
    lb::save_pfm(dir.file("gt.pfm"), gt);
    args = "stereo --method local --backend cpu --left " + dir.file("l.png") + " --right " +
           dir.file("r.png") + " --ndisp 8";
  }
};

}  // namespace

TEST_CASE("cli outputs: bad output paths fail before computing and replace nothing") {
  Pair pair;
  lbt::TempDir dir("cli-out");
  const std::string out = dir.file("d.pfm"), json = dir.file("r.json");
  spit(out, "precious out");
  spit(json, "precious json");
  const std::string base = pair.args + " --out " + out;

  SUBCASE("--out is a directory") {
    fs::create_directories(dir.path / "dir.pfm");
    check_fails(lbt::run_cli(pair.args + " --out " + dir.file("dir.pfm") + " --json " + json),
                "is a directory");
  }
  SUBCASE("--json is a directory") {
    fs::create_directories(dir.path / "j");
    check_fails(lbt::run_cli(base + " --json " + dir.file("j")), "--json '" + dir.file("j") + "'");
  }
  SUBCASE("--json under /proc") {
    check_fails(lbt::run_cli(base + " --json /proc/lightbench-report.json"),
                "/proc/lightbench-report.json");
  }
  SUBCASE("--json in a missing directory") {
    check_fails(lbt::run_cli(base + " --json " + dir.file("no/such/r.json")), "does not exist");
  }
  SUBCASE("--error-map with an extension we do not write") {
    check_fails(lbt::run_cli(base + " --gt " + pair.dir.file("gt.pfm") + " --json " + json +
                             " --error-map " + dir.file("e.tiff")),
                "--error-map");
    CHECK(!fs::exists(dir.file("e.tiff")));
  }
  SUBCASE("--error-map in a directory that does not exist") {
    check_fails(lbt::run_cli(base + " --gt " + pair.dir.file("gt.pfm") + " --json " + json +
                             " --error-map " + dir.file("none/e.png")),
                "--error-map");
  }
  SUBCASE("an error found while computing (--error-map without ground truth)") {
    check_fails(lbt::run_cli(base + " --json " + json + " --error-map " + dir.file("e.png")),
                "--error-map");
  }
  SUBCASE("lfdepth --border negative") {
    check_fails(lbt::run_cli("lfdepth --lf " + dir.file("missing") + " --out " + out +
                             " --border -3 --json " + json),
                "--border");
  }
  CHECK(slurp(out) == "precious out");
  CHECK(slurp(json) == "precious json");
  CHECK(temps_in(dir.path) == 0);
}

TEST_CASE("cli outputs: errors found after computing (lfdepth scoring) replace nothing") {
  lbt::TempDir dir("cli-out-late");
  lb::LightField4D lf = lb::synthetic_plane_lightfield(31, 23, 5, 5, 1.0f, 11u);
  lb::save_lightfield(dir.file("lf"), lf);
  lb::ImageF nan_gt(31, 23, 1, std::numeric_limits<float>::quiet_NaN());
  lb::save_pfm(dir.file("nan.pfm"), nan_gt);
  lb::save_pfm(dir.file("one.pfm"), lb::ImageF(31, 23, 1, 1.0f));
  const std::string out = dir.file("d.pfm"), json = dir.file("r.json");
  spit(out, "precious out");
  spit(json, "precious json");
  const std::string cli = std::string(LB_CLI_PATH) + " ";
  const std::string base = "lfdepth --lf " + dir.file("lf") +
                           " --views 5 --labels 9 --drange -2,2 --backend cpu --out " + out + " --json " + json;
  SUBCASE("an all-NaN ground truth") {
    // Refused before computing (the truth is checked first) or after: either way nothing is replaced.
    check_fails(run_stderr(cli + base + " --gt " + dir.file("nan.pfm")), "no valid");
  }
  SUBCASE("a border larger than the image") {
    check_fails(run_stderr(cli + base + " --gt " + dir.file("one.pfm") + " --border 100"),
                "border");
  }
  CHECK(slurp(out) == "precious out");
  CHECK(slurp(json) == "precious json");
  CHECK(temps_in(dir.path) == 0);
}

TEST_CASE("cli outputs: a valid run still writes --out, --json and --error-map") {
  Pair pair;
  lbt::TempDir dir("cli-out-ok");
  spit(dir.file("d.pfm"), "old");
  const auto r = lbt::run_cli(pair.args + " --gt " + pair.dir.file("gt.pfm") + " --out " +
                              dir.file("d.pfm") + " --json " + dir.file("r.json") +
                              " --error-map " + dir.file("e.png"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(lb::load_pfm(dir.file("d.pfm")).width == 48);
  CHECK(lb::load_image(dir.file("e.png")).width == 48);
  CHECK(lbt::read_json(dir.file("r.json"))["command"] == "stereo");
  CHECK(temps_in(dir.path) == 0);
}

TEST_CASE("cli outputs: a map written as PNG goes through the shared colour map; the report has its range") {
  Pair pair;
  lbt::TempDir dir("cli-out-colour");
  const auto a = lbt::run_cli(pair.args + " --out " + dir.file("d.pfm"));
  const auto b = lbt::run_cli(pair.args + " --out " + dir.file("d.png") + " --json " + dir.file("r.json"));
  INFO(a.output << b.output);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  // Stereo: gray, 0 black and ndisp - 1 = 7 white, in px (colormap.hpp's Gray).
  const auto j = lbt::read_json(dir.file("r.json"));
  const auto& c = j["outputs"][0]["colour"];
  CHECK(c["map"] == "gray");
  CHECK(c["min"] == 0.0);
  CHECK(c["max"] == 7.0);
  CHECK(c["unit"] == "px");
  const lb::ImageF d = lb::load_pfm(dir.file("d.pfm"));
  const lb::ImageU8 png = lb::load_image(dir.file("d.png"));
  long off = 0;
  for (int y = 0; y < d.height; ++y)
    for (int x = 0; x < d.width; ++x) off += png.at(x, y, 0) != lb::colormap::apply(lb::ColorMap::Gray, d.at(x, y), 0, 7)[0];
  CHECK(off == 0);
}

TEST_CASE("cli outputs: a read-only directory") {
  if (geteuid() == 0) {
    MESSAGE("skipped: running as root, permissions do not stop writes");
    return;
  }
  Pair pair;
  lbt::TempDir dir("cli-out-ro");
  spit(dir.file("d.pfm"), "precious");
  fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
  const auto r = lbt::run_cli(pair.args + " --out " + dir.file("d.pfm"));
  fs::permissions(dir.path, fs::perms::owner_all);
  check_fails(r, dir.file("d.pfm"));
  CHECK(slurp(dir.file("d.pfm")) == "precious");
  CHECK(temps_in(dir.path) == 0);
}

TEST_CASE("cli outputs: out of space while writing keeps the old files") {
  Pair pair;
  lbt::TempDir dir("cli-out-full");
  spit(dir.file("d.png"), "precious png");
  spit(dir.file("r.json"), "precious json");
  // A file-size limit of 0 makes every write fail (EFBIG) as on a full disk. The run's normal
  // summary on stdout is dropped: the error is the one line on stderr.
  const std::string cmd = "sh -c \"trap '' XFSZ; ulimit -f 0; exec " + std::string(LB_CLI_PATH) + " " +
                          pair.args + " --out " + dir.file("d.png") + " --json " + dir.file("r.json") +
                          "\"";
  const lbt::CliRun r = run_stderr(cmd);
  check_fails(r, "File too large");
  CHECK(slurp(dir.file("d.png")) == "precious png");
  CHECK(slurp(dir.file("r.json")) == "precious json");
  CHECK(temps_in(dir.path) == 0);
}

TEST_CASE("cli outputs: concurrent runs on the same --out/--json stay whole and consistent") {
  Pair pair;
  lbt::TempDir dir("cli-out-conc");
  const int kProcs = 4, kRounds = 6;
  // Each process uses its own --ndisp; the reference output of each is made first.
  std::map<int, std::string> expected;
  for (int k = 0; k < kProcs; ++k) {
    const int nd = 4 + 4 * k;
    const std::string o = dir.file("ref" + std::to_string(nd) + ".pfm");
    std::string args = pair.args;
    args.replace(args.find("--ndisp 8"), 9, "--ndisp " + std::to_string(nd));
    REQUIRE(lbt::run_cli(args + " --out " + o).status == 0);
    expected[nd] = slurp(o);
  }
  for (int a = 4; a < 4 + 4 * kProcs; a += 4)
    for (int b = a + 4; b < 4 + 4 * kProcs; b += 4) REQUIRE(expected[a] != expected[b]);

  const std::string out = dir.file("same.pfm"), json = dir.file("same.json");
  std::vector<pid_t> kids;
  for (int k = 0; k < kProcs; ++k) {
    const int nd = 4 + 4 * k;
    std::string args = pair.args;
    args.replace(args.find("--ndisp 8"), 9, "--ndisp " + std::to_string(nd));
    const std::string cmd = std::string(LB_CLI_PATH) + " " + args + " --out " + out + " --json " + json +
                            " > /dev/null 2>&1";
    const pid_t pid = fork();
    if (pid == 0) {
      int bad = 0;
      for (int i = 0; i < kRounds; ++i) bad += std::system(cmd.c_str()) != 0;
      _exit(bad ? 1 : 0);
    }
    kids.push_back(pid);
  }
  // Check the pair while they run, under the same directory lock the writers take for their
  // renames, and once more at the end.
  auto check_pair = [&] {
    const int fd = open(dir.path.c_str(), O_RDONLY | O_DIRECTORY);
    REQUIRE(fd >= 0);
    flock(fd, LOCK_SH);
    const bool have = fs::exists(out) && fs::exists(json);
    const std::string o = have ? slurp(out) : "", j = have ? slurp(json) : "";
    flock(fd, LOCK_UN);
    close(fd);
    if (!have) return 0;
    const auto rep = nlohmann::json::parse(j);
    const int nd = rep["parameters"]["ndisp"].get<int>();
    REQUIRE(expected.count(nd) == 1);
    CHECK(o == expected[nd]);
    return 1;
  };
  int checks = 0;
  for (int alive = kProcs; alive > 0;) {
    checks += check_pair();
    for (auto& pid : kids) {
      int st = 0;
      if (pid > 0 && waitpid(pid, &st, WNOHANG) == pid) {
        CHECK((WIFEXITED(st) && WEXITSTATUS(st) == 0));
        pid = -1;
        --alive;
      }
    }
    usleep(2000);
  }
  CHECK(check_pair() == 1);
  MESSAGE("checked the --out/--json pair " << checks << " times while " << kProcs << " x " << kRounds
                                           << " runs wrote it");
  CHECK(temps_in(dir.path) == 0);
}
