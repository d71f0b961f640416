// Memory budget (memory_budget.hpp): sizes, limits, header probes; the CLI refuses a run past
// --max-memory with one line and no output; the estimates bound the measured peak RSS.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_runner.hpp"
#include "lightfield/cae.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "mad/mad.hpp"
#include "lightbench/memory_budget.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_local/stereo_local.hpp"
#include "test_util.hpp"

using namespace lb;
using lbt::run_cli;

TEST_CASE("parse_memory_size: bytes and K/M/G/T suffixes; anything else is refused naming the option") {
  CHECK(parse_memory_size("4096", "--max-memory") == 4096u);
  CHECK(parse_memory_size("512M", "--max-memory") == (512ull << 20));
  CHECK(parse_memory_size("8G", "--max-memory") == (8ull << 30));
  CHECK(parse_memory_size("8g", "--max-memory") == (8ull << 30));
  CHECK(parse_memory_size("2GiB", "--max-memory") == (2ull << 30));
  CHECK(parse_memory_size("100MB", "--max-memory") == (100ull << 20));
  CHECK(parse_memory_size("1.5G", "--max-memory") == (3ull << 29));
  CHECK(parse_memory_size("1T", "x") == (1ull << 40));
  for (const char* bad : {"", "0", "-1", "12X", "1.5", "G", ".5G", "1..5G", "1e9", " 1G", "1G ", "99999999999T",
                          "0.1"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parse_memory_size(bad, "--max-memory"), doctest::Contains("--max-memory expects a size"),
                         Error);
  }
}

TEST_CASE("format_bytes") {
  CHECK(format_bytes(100) == "100 B");
  CHECK(format_bytes(512ull << 20) == "512.0 MiB");
  CHECK(format_bytes((7ull << 30) + (1ull << 29)) == "7.5 GiB");
}

TEST_CASE("host limit: set > LB_MAX_MEMORY > half the physical memory; the refusal is one line") {
  unsetenv("LB_MAX_MEMORY");
  set_max_host_memory(0);
  const std::uint64_t phys = physical_memory_bytes();
  CHECK(phys > 0);
  CHECK(max_host_memory() == phys / 2);
  setenv("LB_MAX_MEMORY", "3G", 1);
  CHECK(max_host_memory() == (3ull << 30));
  set_max_host_memory(1ull << 20);
  CHECK(max_host_memory() == (1ull << 20));
  CHECK_THROWS_WITH_AS(check_host_memory("stereo", 2ull << 20),
                       "stereo: needs 2.0 MiB of host memory, limit 1.0 MiB (raise with --max-memory)", Error);
  CHECK_NOTHROW(check_host_memory("stereo", 1ull << 20));
  set_max_host_memory(0);
  setenv("LB_MAX_MEMORY", "lots", 1);
  CHECK_THROWS_WITH_AS(max_host_memory(), doctest::Contains("LB_MAX_MEMORY expects a size"), Error);
  unsetenv("LB_MAX_MEMORY");
}

TEST_CASE("device limit: none by default; LB_MAX_DEVICE_MEMORY; the out-of-memory line") {
  unsetenv("LB_MAX_DEVICE_MEMORY");
  set_max_device_memory(0);
  CHECK(max_device_memory() == 0);
  CHECK_NOTHROW(check_device_memory("mad", 1ull << 40));
  setenv("LB_MAX_DEVICE_MEMORY", "1M", 1);
  CHECK(max_device_memory() == (1ull << 20));
  CHECK_THROWS_WITH_AS(check_device_memory("mad", 2ull << 20),
                       "mad: needs 2.0 MiB of device memory, limit 1.0 MiB (raise with --max-device-memory)", Error);
  unsetenv("LB_MAX_DEVICE_MEMORY");
  CHECK(device_oom_message(3ull << 30, "the BP pyramid", 1ull << 30, 80ull << 30) ==
        "out of device memory: allocating 3.0 GiB for the BP pyramid (free 1.0 GiB of 80.0 GiB)");
}

TEST_CASE("probe_image_header reads sizes from headers only (PNG, PPM, PGM, PFM, BMP, JPG)") {
  lbt::TempDir dir("budget-probe");
  save_image(dir.file("a.png"), lbt::random_image(37, 21, 3, 1));
  save_image(dir.file("b.ppm"), lbt::random_image(12, 9, 3, 2));
  save_image(dir.file("c.pgm"), lbt::random_image(5, 6, 1, 3));
  save_image(dir.file("d.bmp"), lbt::random_image(8, 4, 3, 4));
  save_image(dir.file("e.jpg"), lbt::random_image(16, 16, 3, 5));
  save_pfm(dir.file("f.pfm"), ImageF(7, 3, 1));
  struct C { const char* f; int w, h, c; };
  for (const C& c : {C{"a.png", 37, 21, 3}, C{"b.ppm", 12, 9, 3}, C{"c.pgm", 5, 6, 1}, C{"d.bmp", 8, 4, 3},
                     C{"e.jpg", 16, 16, 3}, C{"f.pfm", 7, 3, 1}}) {
    CAPTURE(c.f);
    const ImageHeader h = probe_image_header(dir.file(c.f));
    CHECK(h.known);
    CHECK(h.width == c.w);
    CHECK(h.height == c.h);
    CHECK(h.channels == c.c);
  }
  lbt::spit(dir.file("junk.png"), "not an image");
  CHECK_FALSE(probe_image_header(dir.file("junk.png")).known);
  CHECK_FALSE(probe_image_header(dir.file("missing.png")).known);
}

namespace {

// The refusal: exit != 0, exactly one line naming the command, the need and the limit, no output.
void check_refused(const std::string& args, const std::string& command, const std::string& out) {
  CAPTURE(args);
  const lbt::CliRun r = run_cli(args);
  CHECK(r.status != 0);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(r.output.find("lightbench-cli: error: " + command + ": needs ") != std::string::npos);
  CHECK(r.output.find("of host memory, limit 4.0 KiB (raise with --max-memory)") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

struct Inputs {
  lbt::TempDir dir{"budget"};
  Inputs() {
    save_image(dir.file("l.png"), lbt::random_image(320, 240, 3, 1));
    save_image(dir.file("r.png"), lbt::random_image(320, 240, 3, 2));
    save_image(dir.file("ref.png"), lbt::random_image(256, 256, 1, 3));
    save_image(dir.file("dst.png"), lbt::random_image(256, 256, 1, 4));
    save_lightfield(dir.file("lf"), synthetic_plane_lightfield(96, 80, 9, 9, 1.0f, 5u));
    REQUIRE(run_cli("generate --preset tiny --out " + dir.file("scene")).status == 0);
  }
};

}  // namespace

TEST_CASE("a tiny --max-memory (4K) refuses every command before computing, one line, no output") {
  Inputs in;
  const std::string lim = " --max-memory 4K";
  const std::string o = in.dir.file("out");
  check_refused("stereo --left " + in.dir.file("l.png") + " --right " + in.dir.file("r.png") +
                    " --backend cpu --ndisp 32 --out " + o + ".png" + lim,
                "stereo", o + ".png");
  check_refused("stereo --method local --left " + in.dir.file("l.png") + " --right " + in.dir.file("r.png") +
                    " --backend cpu --out " + o + ".pfm" + lim,
                "stereo", o + ".pfm");
  check_refused("mad --ref " + in.dir.file("ref.png") + " --dist " + in.dir.file("dst.png") +
                    " --backend cpu --json " + o + ".json" + lim,
                "mad", o + ".json");
  check_refused("lfdepth --lf " + in.dir.file("lf") + " --backend cpu --out " + o + "2.pfm" + lim, "lfdepth",
                o + "2.pfm");
  // Before the command too (a global option).
  check_refused("--max-memory 4K render --scene " + in.dir.file("scene/scene.json") + " --backend cpu --out " + o +
                    "3.png",
                "render", o + "3.png");
  check_refused("depth --scene " + in.dir.file("scene/scene.json") + " --backend cpu --out " + o + "4.pfm" + lim,
                "depth", o + "4.pfm");
  // The environment variable, and a malformed value.
  setenv("LB_MAX_MEMORY", "4096", 1);
  check_refused("stereo --left " + in.dir.file("l.png") + " --right " + in.dir.file("r.png") +
                    " --backend cpu --out " + o + "5.png",
                "stereo", o + "5.png");
  setenv("LB_MAX_MEMORY", "lots", 1);
  lbt::CliRun r = run_cli("mad --ref " + in.dir.file("ref.png") + " --dist " + in.dir.file("dst.png"));
  CHECK(r.status != 0);
  CHECK(r.output == "lightbench-cli: error: LB_MAX_MEMORY expects a size in bytes or with K, M, G, T (e.g. 512M, "
                    "8G), got 'lots'\n");
  unsetenv("LB_MAX_MEMORY");
  r = run_cli("mad --ref " + in.dir.file("ref.png") + " --dist " + in.dir.file("dst.png") + " --max-memory 12Q");
  CHECK(r.status != 0);
  CHECK(r.output.find("--max-memory expects a size") != std::string::npos);
  CHECK(lbt::count_lines(r.output) == 1);
  // A generous limit runs.
  r = run_cli("mad --ref " + in.dir.file("ref.png") + " --dist " + in.dir.file("dst.png") +
              " --backend cpu --max-memory 8G");
  CHECK(r.status == 0);
}

namespace {

// Runs the CLI as a child and returns its peak RSS in bytes (ru_maxrss of that child).
std::uint64_t peak_rss(const std::string& args, int* status) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::vector<std::string> words;
    std::istringstream ss(args);
    for (std::string w; ss >> w;) words.push_back(w);
    std::vector<char*> argv;
    std::string exe = LB_CLI_PATH;
    argv.push_back(exe.data());
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout)) _exit(126);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int st = 0;
  rusage ru{};
  REQUIRE(wait4(pid, &st, 0, &ru) == pid);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
}

}  // namespace

TEST_CASE("estimates bound the measured peak RSS (child ru_maxrss <= estimate + fixed overhead)") {
  Inputs in;
  int st = 0;
  // The fixed overhead: the binary, its libraries and allocator (a run that allocates nothing big).
  const std::uint64_t base = peak_rss("--version", &st);
  const std::uint64_t overhead = base + (24ull << 20);
  MESSAGE("baseline RSS " << format_bytes(base));
  struct Case {
    std::string name, args;
    std::uint64_t estimate;
  };
  stereo::BpParams bp;
  bp.ndisp = 48;
  stereo::LocalParams local;
  local.ndisp = 48;
  CaeParams cp;
  const std::string o = in.dir.file("o");
  const std::vector<Case> cases = {
      {"stereo bp", "stereo --backend cpu --ndisp 48 --left " + in.dir.file("l.png") + " --right " +
                        in.dir.file("r.png") + " --out " + o + "1.png",
       stereo::bp_host_bytes(bp, 320, 240, 3)},
      {"stereo local", "stereo --backend cpu --method local --ndisp 48 --lr-check 1 --left " + in.dir.file("l.png") +
                           " --right " + in.dir.file("r.png") + " --out " + o + "2.png",
       stereo::local_host_bytes(local, 320, 240, 3)},
      {"mad", "mad --backend cpu --ref " + in.dir.file("ref.png") + " --dist " + in.dir.file("dst.png"),
       mad_host_bytes(256, 256, 1)},
      // The CAE's own estimate: the raw map (lfdepth's default is the refined one).
      {"lfdepth", "lfdepth --backend cpu --refine none --lf " + in.dir.file("lf") + " --out " + o + "3.pfm",
       cae_host_bytes(cp, 81, 96, 80)},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::uint64_t rss = peak_rss(c.args, &st);
    CHECK(st == 0);
    MESSAGE(c.name << ": peak RSS " << format_bytes(rss) << " (above baseline "
                   << format_bytes(rss > base ? rss - base : 0) << "), estimate " << format_bytes(c.estimate));
    CHECK(rss <= c.estimate + overhead);   // an upper bound ...
    CHECK(c.estimate <= 2 * rss + overhead);  // ... within about 2x
  }
}
