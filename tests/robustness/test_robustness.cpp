// The robustness suite (issue 10, item 4): lightbench-cli run as a hostile user, over every
// command. The inputs are generated here at test time (no binary files): truncated files of
// each format, lying headers, decompression bombs, wrong formats behind the right extension,
// broken light-field and stereo folders, mismatched MAD sizes, broken scene JSON, extreme
// options, unwritable outputs and a full disk. Each failing case must exit non-zero (no
// signal), print exactly one line naming the problem, leave every pre-existing output file
// byte-identical (a sentinel is put at each output path first), leave no temporary file, stay
// under a memory bound and finish in time. Odd but valid inputs must still work.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "crafted.hpp"
#include "engine/calib_xml.hpp"
#include "engine/hex_test_geometry.hpp"
#include "lightbench/image.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "runner.hpp"

namespace fs = std::filesystem;
using lbr::Bytes;

namespace {

constexpr long kMaxRssMib = 1536;
constexpr int kTimeoutS = 20;

struct Case {
  std::string name;
  std::string args;    // {in}, {out} replaced; split on spaces
  std::string needle;  // failure: the line must contain one of these ("a||b")
  bool ok = false;     // a valid run: exit 0, `files` written
  std::vector<std::string> files;
  std::string skip;  // non-empty: not run, reason printed
  std::vector<std::string> wrap;  // argv prefix (a shell that sets up a full disk)
  std::vector<std::string> absent;  // failure: text the line must not hold
};

Case make_case(const std::string& name, const std::string& args, const std::string& needle) {
  Case c;
  c.name = name;
  c.args = args;
  c.needle = needle;
  return c;
}

struct Suite {
  fs::path root, in;
  std::vector<Case> cases;
  int run = 0, skipped = 0, failed = 0;
  long max_rss_mib = 0;
  double max_seconds = 0, total_seconds = 0;
  std::string max_rss_case, slowest_case;

  Suite() {
    root = fs::temp_directory_path() / ("lightbench-robust-" + std::to_string(getpid()));
    in = root / "in";
    fs::create_directories(in);
  }
  ~Suite() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string p(const std::string& rel) const { return (in / rel).string(); }
  void put(const std::string& rel, const Bytes& b) const {
    fs::create_directories((in / rel).parent_path());
    std::ofstream(in / rel, std::ios::binary) << b;
  }
  void fail(const std::string& name, const std::string& args, const std::string& needle) {
    cases.push_back(make_case(name, args, needle));
  }
  void fail_without(const std::string& name, const std::string& args, const std::string& needle,
                    std::vector<std::string> absent) {
    fail(name, args, needle);
    cases.back().absent = std::move(absent);
  }
  void ok(const std::string& name, const std::string& args, std::vector<std::string> files) {
    Case c = make_case(name, args, "");
    c.ok = true;
    c.files = std::move(files);
    cases.push_back(c);
  }
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
  return s;
}

bool contains_any(const std::string& s, const std::string& alternatives) {
  std::size_t pos = 0;
  for (;;) {
    const std::size_t bar = alternatives.find("||", pos);
    if (s.find(alternatives.substr(pos, bar - pos)) != std::string::npos) return true;
    if (bar == std::string::npos) return false;
    pos = bar + 2;
  }
}

const std::vector<std::string> kOutputOptions = {"--out", "--json", "--error-map", "--aif", "--all-in-focus"};

// Runs one case; returns the reasons it failed (empty: passed).
std::vector<std::string> run_case(Suite& s, const Case& c, std::size_t index) {
  const fs::path out = s.root / "out" / std::to_string(index);
  fs::create_directories(out);
  const std::string args = replace_all(replace_all(c.args, "{in}", s.in.string()), "{out}", out.string());
  std::vector<std::string> argv = c.wrap;
  if (argv.empty()) argv.push_back(LB_CLI_PATH);
  for (auto& a : lbr::split_args(args)) argv.push_back(a);
  // A sentinel at every output path that the case has not made itself (generate's and batch's
  // --out are folders).
  const bool generate = args.rfind("generate", 0) == 0 || args.rfind("batch", 0) == 0;
  for (std::size_t i = 1; i + 1 < argv.size(); ++i) {
    const auto& opt = argv[i];
    const fs::path target = argv[i + 1];
    if (std::find(kOutputOptions.begin(), kOutputOptions.end(), opt) == kOutputOptions.end()) continue;
    if (generate && opt == "--out") continue;
    if (c.ok || target.string().rfind(out.string() + "/", 0) != 0) continue;
    std::error_code ec;
    if (fs::exists(target, ec) || !fs::is_directory(target.parent_path(), ec)) continue;
    std::ofstream(target, std::ios::binary) << "sentinel " << opt << " " << index << "\n";
  }
  const auto before = lbr::snapshot(out);
  const auto r = lbr::run_child(argv, (s.root / ("err-" + std::to_string(index))).string(), kTimeoutS);
  const auto after = lbr::snapshot(out);
  s.total_seconds += r.seconds;
  if (r.maxrss_mib > s.max_rss_mib) s.max_rss_mib = r.maxrss_mib, s.max_rss_case = c.name;
  if (r.seconds > s.max_seconds) s.max_seconds = r.seconds, s.slowest_case = c.name;
  const auto lines = lbr::lines_of(r.err);
  std::vector<std::string> why;
  if (r.hang) why.push_back("hang: killed after " + std::to_string(kTimeoutS) + " s");
  if (r.signal) why.push_back("crash: signal " + std::to_string(r.signal));
  if (r.maxrss_mib > kMaxRssMib) why.push_back("peak memory " + std::to_string(r.maxrss_mib) + " MiB");
  if (c.ok) {
    if (r.exit_code != 0) why.push_back("exit " + std::to_string(r.exit_code) + " for a valid input");
    for (const auto& f : c.files) {
      std::error_code ec;
      const fs::path fp = out / f;
      if (!fs::exists(fp, ec) || (fs::is_regular_file(fp, ec) && fs::file_size(fp, ec) == 0))
        why.push_back("output not written: " + f);
    }
    for (const auto& [name, bytes] : after)
      if (name.find(".tmp-lightbench") != std::string::npos) why.push_back("temporary left: " + name);
  } else {
    if (r.exit_code == 0) why.push_back("exit 0 for a bad input");
    if (!c.wrap.empty()) {  // the full disk: the tmpfs's files were copied back to {out}
      const std::map<std::string, std::string> want = {{"o.png", "sentinel png"}, {"r.json", "sentinel json"}};
      if (after != want) why.push_back("the full disk's files are not exactly the two sentinels");
    }
    if (lines.size() != 1) why.push_back("stderr has " + std::to_string(lines.size()) + " lines, want 1");
    // One clean line (issue 39, item 6): no control byte (ESC, NUL, CR, ...) and no DEL reaches
    // the terminal, whatever the input quoted; only the final newline.
    for (std::size_t i = 0; i < r.err.size(); ++i) {
      const unsigned char b = static_cast<unsigned char>(r.err[i]);
      if ((b < 0x20 && !(b == '\n' && i + 1 == r.err.size())) || b == 0x7f) {
        why.push_back("stderr holds the control byte " + std::to_string(b) + " at " + std::to_string(i));
        break;
      }
    }
    if (!contains_any(r.err, replace_all(replace_all(c.needle, "{in}", s.in.string()), "{out}", out.string())))
      why.push_back("message does not name '" + c.needle + "'");
    for (const auto& a : c.absent)
      if (r.err.find(a) != std::string::npos) why.push_back("message holds '" + a + "'");
    if (c.wrap.empty() && before != after) {
      for (const auto& [name, bytes] : after)
        if (!before.count(name)) why.push_back("new file: " + name);
      for (const auto& [name, bytes] : before) {
        const auto it = after.find(name);
        if (it == after.end()) why.push_back("removed: " + name);
        else if (it->second != bytes) why.push_back("changed: " + name);
      }
    }
  }
  if (!why.empty()) why.push_back("stderr: " + r.err.substr(0, 600));
  return why;
}

void run_all(Suite& s, const char* label) {
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    const Case& c = s.cases[i];
    if (!c.skip.empty()) {
      ++s.skipped;
      std::printf("robustness: skipped '%s': %s\n", c.name.c_str(), c.skip.c_str());
      continue;
    }
    ++s.run;
    const auto why = run_case(s, c, i);
    if (!why.empty()) {
      ++s.failed;
      std::string all;
      for (const auto& w : why) all += "\n  " + w;
      CAPTURE(c.args);
      FAIL_CHECK(c.name << all);
    }
  }
  std::printf("robustness %s: %d cases run, %d skipped, %d failed; %.1f s in the CLI, slowest %.2f s (%s), "
              "peak RSS %ld MiB (%s)\n",
              label, s.run, s.skipped, s.failed, s.total_seconds, s.max_seconds, s.slowest_case.c_str(),
              s.max_rss_mib, s.max_rss_case.c_str());
}

Bytes file_bytes(const fs::path& p) { return lbr::slurp(p.string()); }

lb::ImageU8 noise(int w, int h, int c, unsigned seed) {
  lb::ImageU8 img(w, h, c);
  std::mt19937 rng(seed);
  for (auto& v : img.data) v = static_cast<std::uint8_t>(rng() & 0xff);
  return img;
}

Bytes encode(const Suite& s, const lb::ImageU8& img, const std::string& ext) {
  const std::string tmp = s.p("enc-tmp" + ext);
  lb::save_image(tmp, img);
  const Bytes b = file_bytes(tmp);
  fs::remove(tmp);
  return b;
}

Bytes encode_pfm(const Suite& s, const lb::ImageF& img) {
  const std::string tmp = s.p("enc-tmp.pfm");
  lb::save_pfm(tmp, img);
  const Bytes b = file_bytes(tmp);
  fs::remove(tmp);
  return b;
}

// The valid inputs every case starts from.
void make_base_inputs(Suite& s) {
  lb::save_image(s.p("l.png"), noise(40, 30, 3, 1));
  lb::save_image(s.p("r.png"), noise(40, 30, 3, 2));
  lb::save_image(s.p("m1.png"), noise(40, 40, 1, 3));
  lb::save_image(s.p("m2.png"), noise(40, 40, 1, 4));
  lb::save_image(s.p("raw.png"), noise(64, 64, 3, 5));
  lb::save_pfm(s.p("gt.pfm"), lb::ImageF(40, 30, 1, 2.0f));
  const lb::LightField4D lf = lb::synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  lb::save_lightfield(s.p("lf"), lf);
  // The tiny plenoptic scene (raw.png, truth.pfm, scene.json).
  const auto r = lbr::run_child({LB_CLI_PATH, "generate", "--preset", "tiny", "--out", s.p("g")},
                                (s.root / "err-gen").string(), kTimeoutS);
  REQUIRE(r.exit_code == 0);
}

const std::string kStereo = "stereo --method local --backend cpu ";
const std::string kStereoLR = kStereo + "--ndisp 4 --left {in}/l.png --right {in}/r.png ";
const std::string kMad = "mad --backend cpu ";
const std::string kRender = "render --backend cpu ";
const std::string kRaw = kRender + "--raw {in}/raw.png --pitch 16 ";
const std::string kLf = "lfdepth --backend cpu --views 3 --labels 5 --drange -1,1 --border 0 ";

// A bad image file fed to one of the commands (rotating over render, stereo, mad, depth).
void bad_image(Suite& s, const std::string& name, const Bytes& bytes, int k) {
  s.put(name, bytes);
  const std::string f = "{in}/" + name;
  std::string args;
  switch (k % 5) {
    case 0: args = kRender + "--raw " + f + " --pitch 8 --out {out}/o.png"; break;
    case 1: args = kStereo + "--left " + f + " --right {in}/r.png --out {out}/o.pfm --json {out}/r.json"; break;
    case 2: args = kMad + "--ref {in}/m1.png --dist " + f + " --json {out}/r.json"; break;
    case 3: args = "depth --backend cpu --raw " + f + " --pitch 8 --out {out}/o.pfm"; break;
    default: args = kStereo + "--left {in}/l.png --right " + f + " --out {out}/o.png --error-map {out}/e.png"; break;
  }
  s.fail(name, args, name);
}

void add_decode_cases(Suite& s) {
  int k = 0;
  // Truncated files of every format, at several lengths.
  const lb::ImageU8 img = noise(24, 20, 3, 7);
  const std::vector<std::pair<std::string, Bytes>> formats = {
      {"png", encode(s, img, ".png")}, {"jpg", encode(s, img, ".jpg")}, {"bmp", encode(s, img, ".bmp")},
      {"ppm", encode(s, img, ".ppm")}, {"pgm", encode(s, noise(24, 20, 1, 8), ".pgm")},
      {"pfm", encode_pfm(s, lb::ImageF(24, 20, 3, 0.5f))}};
  for (const auto& [ext, b] : formats)
    for (const std::size_t len : {std::size_t{0}, std::size_t{3}, std::size_t{20}, b.size() / 2, b.size() - 1})
      bad_image(s, "trunc" + std::to_string(len) + "." + ext, b.substr(0, len), k++);
  // Lying headers.
  const Bytes row(64, '\0');
  for (const auto& [tag, w, h] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t>>{
           {"w0", 0, 4}, {"h0", 4, 0}, {"wneg", 0x80000000u, 4}, {"hmax", 4, 0xffffffffu},
           {"overflow", 0x10000u, 0x10001u}, {"16k", 16000, 16000}})
    bad_image(s, "png_" + tag + ".png", lbr::png_bomb(w, h, 8, 0, 64), k++);
  bad_image(s, "png_depth7.png", lbr::make_png(2, 2, 7, 0, row), k++);
  bad_image(s, "png_color5.png", lbr::make_png(2, 2, 8, 5, row), k++);
  bad_image(s, "png_palette_missing.png", lbr::make_png(2, 2, 8, 3, row), k++);
  bad_image(s, "png_palette_index_out_of_range.png", lbr::make_png(2, 2, 8, 3, Bytes("\x00\x05\x09\xff", 4), "\x10\x20\x30"), k++);
  bad_image(s, "png_idat_garbage.png", [] {
    Bytes b = lbr::png_header(16, 16, 8, 2);
    lbr::png_chunk(b, "IDAT", Bytes("\x78\x01\xff\xff\xff\xff garbage deflate", 22));
    lbr::png_chunk(b, "IEND", {});
    return b;
  }(), k++);
  bad_image(s, "png_no_idat.png", lbr::png_header(4, 4, 8, 0) + Bytes("\0\0\0\0IEND\xae\x42\x60\x82", 12), k++);
  // Decompression bombs: tiny zlib streams behind headers that claim 16000 x 16000.
  bad_image(s, "bomb_png_16k.png", lbr::png_bomb(16000, 16000, 8, 2, 1 << 20), k++);
  bad_image(s, "bomb_png_16k_grey.png", lbr::png_bomb(16000, 16000, 8, 0, 1 << 20), k++);
  bad_image(s, "bomb_pgm_16k.pgm", "P5\n16000 16000\n255\n" + Bytes(100, '\0'), k++);
  bad_image(s, "bomb_ppm_huge.ppm", "P6\n99999999999 99999999999\n255\n" + Bytes(100, '\0'), k++);
  // BMP headers that lie.
  auto bmp = [&](const std::string& tag, lbr::Bmp b) { bad_image(s, "bmp_" + tag + ".bmp", lbr::make_bmp(b), k++); };
  bmp("16k_118_bytes", {16000, 16000, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("w_int_min", {INT32_MIN, 4, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("h_int_min", {4, INT32_MIN, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("w0", {0, 4, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("bpp0", {4, 4, 0, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("bpp7", {4, 4, 7, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("1bpp_truncated", {1000, 1000, 1, 0, 40, 1, {0, 0xffffff}, {}, Bytes(56, '\0'), -1});
  bmp("bitfields_truncated", {1000, 1000, 32, 3, 40, 1, {}, {0xff0000, 0xff00, 0xff}, Bytes(50, '\0'), -1});
  bmp("offset_past_end", {4, 4, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), 1 << 30});
  bmp("header_size_huge", {4, 4, 24, 0, 0x7fffffff, 1, {}, {}, Bytes(64, '\0'), -1});
  bmp("rle8_garbage", {16, 16, 8, 1, 40, 1, std::vector<std::uint32_t>(256, 0), {}, Bytes(10, '\x7f'), -1});
  // PNM / PFM headers that lie.
  bad_image(s, "pgm_w0.pgm", "P5\n0 4\n255\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pgm_wneg.pgm", "P5\n-4 4\n255\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pgm_maxval0.pgm", "P5\n4 4\n0\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pgm_maxval65536.pgm", "P5\n4 4\n65536\n" + Bytes(32, '\0'), k++);
  bad_image(s, "pgm_int_overflow.pgm", "P5\n4294967297 1\n255\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pgm_ascii_p2.pgm", "P2\n2 2\n255\n0 1 2 3\n", k++);
  bad_image(s, "pgm_no_space.pgm", "P54 4 255" + Bytes(16, '\0'), k++);
  bad_image(s, "pfm_w0.pfm", "Pf\n0 4\n-1.0\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pfm_scale_nan.pfm", "Pf\n2 2\nnan\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pfm_scale0.pfm", "Pf\n2 2\n0\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pfm_huge.pfm", "PF\n100000 100000\n-1.0\n" + Bytes(16, '\0'), k++);
  bad_image(s, "pfm_overflow.pfm", "Pf\n4294967296 4294967296\n-1.0\n" + Bytes(16, '\0'), k++);
  // Wrong formats behind the right extension.
  bad_image(s, "hdr_named.png", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n" + Bytes(12, '\x02'), k++);
  bad_image(s, "gif_named.png", Bytes("GIF89a\x02\x00\x02\x00\x80\x00\x00", 13) + Bytes(20, '\0'), k++);
  bad_image(s, "psd_named.png", Bytes("8BPS\x00\x01", 6) + Bytes(40, '\0'), k++);
  bad_image(s, "text_named.png", "hello, I am not an image\n", k++);
  bad_image(s, "pic_named.jpg", Bytes("\x53\x80\xf6\x34", 4) + Bytes(100, '\0'), k++);
  bad_image(s, "tga_named.bmp", Bytes("\0\0\x02\0\0\0\0\0\0\0\0\0\x02\0\x02\0\x18\0", 18) + Bytes(12, 'x'), k++);
  bad_image(s, "jpeg_soi_only.jpg", Bytes("\xff\xd8\xff\xd9", 4), k++);
  bad_image(s, "zeros.png", Bytes(4096, '\0'), k++);
  // Not files at all.
  fs::create_directories(s.in / "folder.png");
  s.fail("folder as image", kStereo + "--left {in}/folder.png --right {in}/r.png --out {out}/o.pfm", "folder.png");
  s.fail("missing image", kMad + "--ref {in}/nope.png --dist {in}/m2.png --json {out}/r.json", "nope.png");
  // Files without a size: were read to the end (/dev/zero: until std::bad_alloc).
  s.fail("/dev/zero as image", kStereo + "--left /dev/zero --right {in}/r.png --out {out}/o.pfm", "/dev/zero");
  s.fail("/dev/zero as ground truth", kStereoLR + "--gt /dev/zero --out {out}/o.pfm", "/dev/zero");
  s.fail("/dev/urandom as image", kMad + "--ref /dev/urandom --dist {in}/m2.png", "/dev/urandom");
  s.fail("/dev/null as image", kRender + "--raw /dev/null --pitch 8 --out {out}/o.png", "/dev/null");
}

void add_folder_cases(Suite& s) {
  const lb::LightField4D lf = lb::synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  auto lf_copy = [&](const std::string& name) {
    lb::save_lightfield(s.p(name), lf);
    return s.in / name;
  };
  const std::string out = " --out {out}/o.pfm --json {out}/r.json";
  fs::remove(lf_copy("lf_missing") / "view_1_1.png");
  s.fail("light field: missing view", kLf + "--lf {in}/lf_missing" + out, "view_1_1||missing");
  lb::save_image((lf_copy("lf_odd") / "view_2_0.png").string(), noise(20, 17, 3, 9));
  s.fail("light field: odd-size view", kLf + "--lf {in}/lf_odd" + out, "view_2_0");
  std::ofstream(lf_copy("lf_unreadable") / "view_0_2.png") << "not a png";
  s.fail("light field: unreadable view", kLf + "--lf {in}/lf_unreadable" + out, "view_0_2");
  fs::remove(lf_copy("lf_dirview") / "view_1_2.png");
  fs::create_directories(s.in / "lf_dirview" / "view_1_2.png");
  s.fail("light field: a view that is a folder", kLf + "--lf {in}/lf_dirview" + out, "view_1_2");
  const auto extra = lf_copy("lf_extra");
  lb::save_image((extra / "view_3_0.png").string(), lf.views[0]);
  s.fail("light field: one view past the grid", kLf + "--lf {in}/lf_extra" + out, "lf_extra");
  fs::create_directories(s.in / "lf_empty");
  s.fail("light field: empty folder", kLf + "--lf {in}/lf_empty" + out, "lf_empty");
  s.put("lf_file", "I am a file");
  s.fail("light field: a file instead of a folder", kLf + "--lf {in}/lf_file" + out, "lf_file");
  s.fail("light field: no such folder", kLf + "--lf {in}/lf_nothing" + out, "lf_nothing");
  s.put("lf_gt_bad/gt_disp_lowres.pfm", "Pf\n3 3\n-1.0\n");
  for (const auto& v : fs::directory_iterator(s.in / "lf"))
    if (v.path().filename() != "gt_disp_lowres.pfm") fs::copy_file(v.path(), s.in / "lf_gt_bad" / v.path().filename());
  s.fail("light field: truncated ground truth in the folder", kLf + "--lf {in}/lf_gt_bad" + out, "gt_disp_lowres.pfm");
  lb::save_pfm(s.p("gt_small.pfm"), lb::ImageF(5, 5, 1, 0.0f));
  s.fail("light field: --gt of another size", kLf + "--lf {in}/lf --gt {in}/gt_small.pfm" + out, "gt_small.pfm");
  s.fail("light field: --gt missing", kLf + "--lf {in}/lf --gt {in}/gt_nope.pfm" + out, "gt_nope.pfm");
  // Stereo folders.
  auto st = [&](const std::string& name, bool l, bool r, int rw) {
    fs::create_directories(s.in / name);
    if (l) lb::save_image(s.p(name + "/imL.png"), noise(40, 30, 1, 1));
    if (r) lb::save_image(s.p(name + "/imR.png"), noise(rw, 30, 1, 2));
  };
  const std::string sout = " --ndisp 4 --out {out}/o.pfm --json {out}/r.json";
  st("st_no_right", true, false, 40);
  s.fail("stereo folder: missing imR.png", kStereo + "--scene {in}/st_no_right" + sout, "imR.png");
  st("st_sizes", true, true, 38);
  s.fail("stereo folder: imL and imR sizes differ", kStereo + "--scene {in}/st_sizes" + sout, "size||38");
  st("st_gt", true, true, 40);
  lb::save_image(s.p("st_gt/groundtruth.png"), noise(10, 10, 1, 3));
  s.fail("stereo folder: ground truth of another size", kStereo + "--scene {in}/st_gt --gt-scale 4" + sout,
         "groundtruth.png");
  st("st_mask", true, true, 40);
  lb::save_image(s.p("st_mask/groundtruth.png"), noise(40, 30, 1, 3));
  lb::save_image(s.p("st_mask/mask_nonocc.png"), noise(12, 30, 1, 3));
  s.fail("stereo folder: mask of another size", kStereo + "--scene {in}/st_mask --gt-scale 4" + sout, "mask_nonocc");
  fs::create_directories(s.in / "st_empty");
  s.fail("stereo folder: empty", kStereo + "--scene {in}/st_empty" + sout, "imL.png");
  s.fail("stereo folder: a file", kStereo + "--scene {in}/lf_file" + sout, "lf_file");
  // Middlebury 2014 folders (issue 21, item 2): im0/im1 + calib.txt.
  auto st14 = [&](const std::string& name, const std::string& calib) {
    fs::create_directories(s.in / name);
    lb::save_image(s.p(name + "/im0.png"), noise(40, 30, 1, 1));
    lb::save_image(s.p(name + "/im1.png"), noise(40, 30, 1, 2));
    s.put(name + "/calib.txt", calib);
  };
  const std::string calib_ok = "cam0=[10 0 20; 0 10 15; 0 0 1]\ndoffs=0\nbaseline=1\nwidth=40\nheight=30\nndisp=4\n";
  st14("st14_garbled", "cam0=[10 0 20; 0 10 15; 0 0 1]\nwidth 40\nheight=30\nndisp=4\n");
  s.fail("stereo 2014: calib.txt line without '='", kStereo + "--scene {in}/st14_garbled" + sout, "calib.txt");
  st14("st14_negndisp", "width=40\nheight=30\nndisp=-64\n");
  s.fail("stereo 2014: negative ndisp", kStereo + "--scene {in}/st14_negndisp" + sout, "ndisp");
  st14("st14_hugew", "width=4000000000\nheight=30\nndisp=4\n");
  s.fail("stereo 2014: huge width", kStereo + "--scene {in}/st14_hugew" + sout, "width");
  st14("st14_wrongw", "width=4000\nheight=30\nndisp=4\n");
  s.fail("stereo 2014: calib.txt size not the images'", kStereo + "--scene {in}/st14_wrongw" + sout, "4000x30");
  st14("st14_cam", "cam0=[1 2 3; nan 5 6; 7 8 9]\nwidth=40\nheight=30\nndisp=4\n");
  s.fail("stereo 2014: cam0 with nan", kStereo + "--scene {in}/st14_cam" + sout, "cam0");
  st14("st14_big", Bytes(1 << 17, 'x'));
  s.fail("stereo 2014: calib.txt of 128 KiB", kStereo + "--scene {in}/st14_big" + sout, "calib.txt");
  st14("st14_nocalib", calib_ok);
  fs::remove(s.in / "st14_nocalib" / "calib.txt");
  s.fail("stereo 2014: no calib.txt", kStereo + "--scene {in}/st14_nocalib" + sout, "calib.txt");
  st14("st14_noright", calib_ok);
  fs::remove(s.in / "st14_noright" / "im1.png");
  s.fail("stereo 2014: missing im1.png", kStereo + "--scene {in}/st14_noright" + sout, "im1.png");
  st14("st14_both", calib_ok);
  lb::save_image(s.p("st14_both/imL.png"), noise(40, 30, 1, 1));
  s.fail("stereo: both layouts in one folder", kStereo + "--scene {in}/st14_both" + sout, "holds both");
  st14("st14_gt", calib_ok);
  lb::save_pfm(s.p("st14_gt/disp0GT.pfm"), lb::ImageF(7, 30, 1, 2.0f));
  s.fail("stereo 2014: disp0GT.pfm of another size", kStereo + "--scene {in}/st14_gt" + sout, "disp0GT.pfm");
  st14("st14_mask", calib_ok);
  lb::save_pfm(s.p("st14_mask/disp0GT.pfm"), lb::ImageF(40, 30, 1, 2.0f));
  lb::save_image(s.p("st14_mask/mask0nocc.png"), noise(40, 3, 1, 3));
  s.fail("stereo 2014: mask0nocc.png of another size", kStereo + "--scene {in}/st14_mask" + sout, "mask0nocc");
  s.fail("stereo: unknown --layout", kStereo + "--scene {in}/st14_both --layout kitty2015" + sout, "kitty2015");
  lb::save_image(s.p("r_narrow.png"), noise(39, 30, 3, 2));
  s.fail("stereo: --left and --right sizes differ", kStereo + "--left {in}/l.png --right {in}/r_narrow.png" + sout,
         "size||39");
  s.fail("stereo: --gt of another size", kStereoLR + "--gt {in}/gt_small.pfm --out {out}/o.pfm", "gt_small.pfm");
  lb::save_pfm(s.p("gt_rgb.pfm"), lb::ImageF(40, 30, 3, 2.0f));
  s.fail("stereo: a 3-channel PFM as --gt", kStereoLR + "--gt {in}/gt_rgb.pfm --out {out}/o.pfm", "gt_rgb.pfm");
  s.fail("lfdepth: --drange 0,0", kLf + "--lf {in}/lf --drange 0,0 --out {out}/o.pfm", "drange");
  // A failing run creates no --maps folder.
  s.fail("mad: a failing run with --maps", kMad + "--ref {in}/nope.png --dist {in}/m2.png --maps {out}/maps", "nope.png");
  // MAD sizes.
  lb::save_image(s.p("m_small.png"), noise(33, 33, 1, 1));
  lb::save_image(s.p("m_41.png"), noise(41, 40, 1, 1));
  lb::save_image(s.p("m_1x1.png"), noise(1, 1, 1, 1));
  s.fail("mad: sizes differ", kMad + "--ref {in}/m1.png --dist {in}/m_41.png --json {out}/r.json", "41||size");
  s.fail("mad: 33x33 too small", kMad + "--ref {in}/m_small.png --dist {in}/m_small.png --json {out}/r.json", "34");
  s.fail("mad: 1x1", kMad + "--ref {in}/m_1x1.png --dist {in}/m_1x1.png --json {out}/r.json", "34");
  s.fail("mad: --maps is a file", kMad + "--ref {in}/m1.png --dist {in}/m2.png --maps {in}/lf_file", "lf_file");
}

void add_scene_cases(Suite& s) {
  const std::string good = lbr::slurp(s.p("g/scene.json"));
  const nlohmann::json j = nlohmann::json::parse(good);
  auto scene = [&](const std::string& tag, const std::string& text, const std::string& needle, int k) {
    s.put("g/scene_" + tag + ".json", text);  // next to the raw and truth it names
    const std::string cmd = k % 2 ? "depth --backend cpu --out {out}/o.pfm" : kRender + "--out {out}/o.png";
    s.fail("scene: " + tag, cmd + " --scene {in}/g/scene_" + tag + ".json", needle);
  };
  int k = 0;
  scene("empty", "", "scene_empty.json", k++);
  scene("truncated", good.substr(0, good.size() / 2), "scene_truncated.json", k++);
  scene("array", "[1, 2, 3]", "scene_array.json", k++);
  scene("null", "null", "scene_null.json", k++);
  scene("text", "hello", "scene_text.json", k++);
  scene("deep", std::string(100000, '[') + std::string(100000, ']'), "scene_deep.json", k++);
  auto field = [&](const std::string& tag, const std::string& key, const nlohmann::json& v) {
    nlohmann::json b = j;
    b["grid"][key] = v;
    scene(tag, b.dump(), key, k++);
  };
  field("pitch0", "pitch", 0);
  field("pitch_neg", "pitch", -34.5);
  field("pitch_1e308", "pitch", 1e308);
  field("nx_1e9", "nx", 1000000000);
  field("nx_int_min", "nx", -2147483648LL);
  field("ny_zero", "ny", 0);
  field("ox_string", "ox", "1");
  nlohmann::json nogrid = j;
  nogrid.erase("grid");
  scene("no_grid", nogrid.dump(), "grid", k++);
  s.fail("scene: no such file", kRender + "--scene {in}/no_scene.json --out {out}/o.png", "no_scene.json");
}

void add_option_cases(Suite& s) {
  const std::string rout = " --out {out}/o.png --json {out}/r.json";
  const std::vector<std::string> bad_numbers = {"-1", "nan", "inf", "1e308", "-2147483648", "2147483648", "abc", "''"};
  // Every numeric option of every command, at the values no option accepts.
  struct Opt {
    std::string base, opt;
    std::vector<std::string> values;
  };
  const std::vector<Opt> opts = {
      {kRaw + rout, "--patch", {"-1", "nan", "1e308", "2147483648", "0"}},
      {kRaw + rout, "--lim", {"-1", "inf", "2147483647"}},
      {kRaw + rout, "--sigma", {"-inf", "nan", "-1"}},
      {kRaw + rout, "--view", {"-2147483648,0", "nan,0", "1e308,1e308"}},
      {kRaw + rout, "--repeat", {"0", "-1", "2147483648"}},
      {kRender + "--raw {in}/raw.png" + rout, "--pitch", {"0", "-16", "inf", "1e308"}},
      {kRaw + rout, "--grid", {"0,0", "-1,4", "2147483647,2147483647", "4"}},
      {"depth --backend cpu --preset tiny --out {out}/o.pfm", "--pmin", {"-1", "nan", "1e308"}},
      {"depth --backend cpu --preset tiny --out {out}/o.pfm", "--pmax", {"-inf", "2147483648"}},
      {"depth --backend cpu --preset tiny --out {out}/o.pfm", "--window", {"-1", "2147483647", "nan"}},
      {"depth --backend cpu --preset tiny --out {out}/o.pfm", "--aperture", {"-1", "nan"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--labels", {"0", "-1", "2147483648", "nan"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--views", {"0", "-2147483648", "4"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--drange", {"nan,1", "1,-1", "-inf,inf", "1e308,-1e308", "1"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--sigma", {"-1", "nan"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--crop", {"0,0,0,0", "0,0,100000,100000", "-2147483648,0,1,1", "0,0,5"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--border", {"2147483647", "nan"}},
      {kLf + "--lf {in}/lf --out {out}/o.pfm", "--refine", {"graphcut", ""}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--gf-radius", {"-1", "257", "nan"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--gf-eps", {"0", "-1", "nan", "inf"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--gf-guide", {"hsv", ""}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--defocus-weight", {"-0.1", "1.5", "nan"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--defocus-radius", {"-1", "33", "2147483648"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--fusion", {"average", ""}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--subpixel-fit", {"cubic", "5", ""}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--defocus-filter-radius", {"-1", "257", "nan"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--sgm", {"yes", "1", ""}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--sgm-data", {"confidence", ""}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--sgm-p1", {"-0.1", "101", "nan"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--sgm-p2", {"-1", "inf", "nan"}},
      {kLf + "--lf {in}/lf --refine subpixel --out {out}/o.pfm", "--sgm-edge", {"0", "-1", "11", "nan"}},
      {kLf + "--lf {in}/lf --refine full --out {out}/o.pfm", "--median-radius", {"-1", "33"}},
      {kLf + "--lf {in}/lf --refine full --out {out}/o.pfm", "--median-sigma", {"0", "nan"}},
      {kLf + "--lf {in}/lf --refine full --out {out}/o.pfm", "--median-iterations", {"-1", "17"}},
      {kStereoLR + "--out {out}/o.pfm", "--ndisp", {"0", "-1", "2147483648", "100000"}},
      {kStereoLR + "--out {out}/o.pfm", "--radius", {"-1", "nan", "2147483647"}},
      {kStereoLR + "--out {out}/o.pfm", "--gamma", {"-1", "nan", "inf"}},
      {kStereoLR + "--out {out}/o.pfm", "--truncation", {"-1", "nan"}},
      {kStereoLR + "--out {out}/o.pfm", "--variable-windows", {"2", "-1"}},
      {kStereoLR + "--out {out}/o.pfm", "--lr-check", {"2"}},
      {kStereoLR + "--out {out}/o.pfm", "--gt-scale", {"0", "-1", "inf"}},
      {"stereo --method bp --backend cpu --ndisp 4 --left {in}/l.png --right {in}/r.png --out {out}/o.pfm", "--levels",
       {"0", "-1", "2147483647"}},
      {"stereo --method bp --backend cpu --ndisp 4 --left {in}/l.png --right {in}/r.png --out {out}/o.pfm",
       "--iterations", {"-1", "2147483648"}},
      {"stereo --method bp --backend cpu --ndisp 4 --left {in}/l.png --right {in}/r.png --out {out}/o.pfm", "--lambda",
       {"nan", "-inf"}},
      {"stereo --method bp --backend cpu --ndisp 4 --left {in}/l.png --right {in}/r.png --out {out}/o.pfm",
       "--tau-data", {"nan", "-1"}},
      {"stereo --method bp --backend cpu --ndisp 4 --left {in}/l.png --right {in}/r.png --out {out}/o.pfm",
       "--tau-disc", {"inf"}},
      {kMad + "--ref {in}/m1.png --dist {in}/m2.png --json {out}/r.json", "--repeat", {"0", "nan", "-2147483648"}},
      {"generate --preset tiny --out {out}/g", "--seed", {"-1", "nan", "1e308", "18446744073709551616"}},
      {"generate --preset tiny --out {out}/g", "--truth-patch", {"0", "-1", "2147483648"}},
  };
  for (const auto& o : opts)
    for (const auto& v : o.values) {
      // The option, or the parameter it sets ("radius: must be in 0..32").
      std::string param = o.opt.substr(2);
      std::replace(param.begin(), param.end(), '-', '_');
      std::string needle = o.opt + "||" + param + ":||" + param + " ";
      s.fail(o.opt + " " + v, o.base + " " + o.opt + " " + v, needle);
    }
  // Names and enumerations.
  s.fail("render --backend", kRaw + "--backend gpu9" + rout, "--backend");
  s.fail("render --variant", kRaw + "--variant fastest" + rout, "fastest");
  s.fail("stereo --method", kStereoLR + "--method magic --out {out}/o.pfm", "--method");
  s.fail("stereo --variant", kStereoLR + "--variant nope --out {out}/o.pfm", "nope");
  s.fail("lfdepth --method", kLf + "--lf {in}/lf --method x --out {out}/o.pfm", "--method");
  s.fail("mad --variant", kMad + "--ref {in}/m1.png --dist {in}/m2.png --variant zzz", "--variant");
  s.fail("generate --preset", "generate --preset ../../etc/passwd --out {out}/g", "passwd");
  s.fail("render --preset", kRender + "--preset nonexistent" + rout, "nonexistent");
  s.fail("unknown option", kRaw + "--frobnicate 3" + rout, "--frobnicate");
  // The generated options (the contract's parameter and output names) and the one CPU rule.
  s.fail("render --view-x nan", kRaw + "--view-x nan" + rout, "--view-x");
  s.fail("render --view-x past the pitch", kRaw + "--view-x 1e9" + rout, "--view-x");
  s.fail("render --rgba-input 2", kRaw + "--rgba-input 2" + rout, "--rgba-input");
  s.fail("lfdepth --refine-mode 7", kLf + "--lf {in}/lf --refine-mode 7 --out {out}/o.pfm", "--refine-mode");
  s.fail("lfdepth --semi-global maybe", kLf + "--lf {in}/lf --semi-global maybe --out {out}/o.pfm", "--semi-global");
  s.fail("lfdepth --refine bogus", kLf + "--lf {in}/lf --refine bogus --out {out}/o.pfm", "--refine");
  s.fail("lfdepth --u past the grid", kLf + "--lf {in}/lf --u 99 --out {out}/o.pfm", "--u");
  s.fail("stereo --lr-check 2", kStereoLR + "--lr-check 2 --out {out}/o.pfm", "--lr-check");
  s.fail("stereo --error-map without truth", kStereoLR + "--out {out}/o.pfm --error-map {out}/e.png", "ground truth");
  s.fail("stereo --truth without truth", kStereoLR + "--out {out}/o.pfm --truth {out}/t.pfm", "ground truth");
  s.fail("render --depth .txt", kRaw + "--depth {out}/d.txt" + rout, "--depth");
  s.fail("render: a kernel on the CPU", kRaw + "--variant sync" + rout, "CUDA kernel");
  s.fail("stereo: a kernel on the CPU", kStereoLR + "--variant phase2 --out {out}/o.pfm", "CUDA kernel");
  s.fail("render --crop outside", kRaw + "--crop 0,0,99999,1" + rout, "not inside");
  s.fail("render --repeat 0", kRaw + "--repeat 0" + rout, "--repeat");
  s.fail("stereo-bp: no --left", "stereo-bp --backend cpu --right {in}/r.png --disparity {out}/o.pfm", "--left");
  s.fail("option without value", kRaw + "--out", "--out");
  // bench <algorithm> (the only bench: the kernel-level ones are gone, issue 40): each bad
  // option named in one line, the CUDA-only options refused on the CPU.
  for (const auto& [args, opt] : std::vector<std::pair<std::string, std::string>>{
           {"bench plenoptic --reps -1", "--reps"},
           {"bench plenoptic --warmup nan", "--warmup"},
           {"bench stereo-bp --reps 2147483648", "--reps"},
           {"bench mad --warmup inf", "--warmup"},
           {"bench plenoptic-hex --device -1", "--device"},
           {"bench lightfield --workload antinous --backend cpu --cold-l2", "--cold-l2: the L2 is a CUDA device's"},
           {"bench plenoptic --backend cpu --floor", "--floor: the cpu runner has no floor"},
           {"bench stereo-bp --workload nope", "no workload 'nope'"},
           {"bench render --reps 5", "unknown command 'bench render'"},
           {"bench mad-kernels", "unknown command 'bench mad-kernels'"},
           {"bench frob", "unknown command 'bench frob'"}})
    s.fail(args, args + " --json {out}/r.json", opt);
}

void add_output_cases(Suite& s) {
  const std::string st = kStereoLR;
  s.fail("--out is a folder", st + "--out {out}", "{out}");
  s.fail("--out under a missing folder", st + "--out {out}/missing/o.pfm", "missing");
  s.fail("--out under /proc", st + "--out /proc/lightbench-robust.pfm", "/proc");
  s.fail("--out with a bad extension", st + "--out {out}/o.txt", "o.txt");
  s.fail("--out empty", st + "--out ''", "--out");
  s.fail("--json is a folder", st + "--out {out}/o.pfm --json {in}", "{in}");
  s.fail("--json under /proc", st + "--out {out}/o.pfm --json /proc/self/lightbench.json", "/proc");
  s.fail("--error-map bad extension", st + "--gt {in}/gt.pfm --out {out}/o.pfm --error-map {out}/e.txt", "e.txt");
  s.fail("--error-map under a missing folder", st + "--gt {in}/gt.pfm --out {out}/o.pfm --error-map {out}/x/e.png", "x/e.png");
  s.fail("render --out .pfm", kRaw + "--out {out}/o.gif", "o.gif");
  s.fail("depth --aif bad extension", "depth --backend cpu --preset tiny --out {out}/o.pfm --aif {out}/a.tif", "a.tif");
  s.fail("lfdepth --out folder", kLf + "--lf {in}/lf --out {in}/lf", "{in}/lf");
  s.fail("mad --json under /proc", kMad + "--ref {in}/m1.png --dist {in}/m2.png --json /proc/x.json", "/proc");
  s.fail("generate --out is a file", "generate --preset tiny --out {in}/lf_file", "lf_file");
  s.fail("generate --out under /proc", "generate --preset tiny --out /proc/lb", "/proc");
  if (geteuid() == 0) {
    Case c = make_case("--out in a read-only folder", "", "");
    c.skip = "running as root: permissions do not stop writes";
    s.cases.push_back(c);
  } else {
    fs::create_directories(s.in / "ro");
    fs::permissions(s.in / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    s.fail("--out in a read-only folder", st + "--out {in}/ro/o.pfm", "ro/o.pfm");
  }
}

// A full disk: a 256 KiB tmpfs in a private mount namespace, filled up, holding the sentinels.
// The run's files are copied out of the namespace for the checks.
void add_full_disk_case(Suite& s) {
  Case c = make_case("full disk (tmpfs)", "", "No space left on device||space");
  const auto probe = lbr::run_child({"/usr/bin/unshare", "-rm", "/bin/sh", "-c",
                                     "mkdir -p " + s.p("probe") + " && mount -t tmpfs -o size=64k tmpfs " + s.p("probe")},
                                    (s.root / "err-probe").string(), kTimeoutS);
  if (probe.exit_code != 0) {
    c.skip = "cannot mount a tmpfs (unshare -rm: " + lbr::lines_of(probe.err + " exit").front() + ")";
    s.cases.push_back(c);
    return;
  }
  // The script runs the CLI with the case's arguments ("$@"), then copies the tmpfs out to {out}.
  const std::string script =
      "set -e; d=$(mktemp -d); mount -t tmpfs -o size=256k tmpfs \"$d\"; "
      "printf 'sentinel png' > \"$d/o.png\"; printf 'sentinel json' > \"$d/r.json\"; "
      "dd if=/dev/zero of=\"$d/fill\" bs=4k 2>/dev/null || true; out=\"$1\"; shift; "
      "set +e; \"$@\" --out \"$d/o.png\" --json \"$d/r.json\"; rc=$?; rm -f \"$d/fill\"; "
      "cp -a \"$d/.\" \"$out/\"; exit $rc";
  c.wrap = {"/usr/bin/unshare", "-rm", "/bin/sh", "-c", script, "sh"};
  // {out} receives the copy; the sentinels are expected back unchanged (checked in the test).
  c.args = "{out} " + std::string(LB_CLI_PATH) + " " + kStereoLR;
  s.cases.push_back(c);
}

// One case per defect of issue 10's "Why" (the GPU ones aside), named after it.
void add_regression_cases(Suite& s) {
  const std::string why = "why: ";
  // Crashes.
  s.fail(why + "lfdepth --crop 2147483647,0,10,10 segfaulted (x + w overflow in resolve_roi)",
         kLf + "--lf {in}/lf --crop 2147483647,0,10,10 --out {out}/o.pfm", "crop");
  // Hangs, and memory taken from tiny files.
  s.put("why_hdr60.png", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16 +X 16\n" + Bytes(12, '\x02'));
  s.fail(why + "a 60-byte Radiance HDR named .png hung stb's HDR loader",
         kStereo + "--left {in}/why_hdr60.png --right {in}/r.png --out {out}/o.pfm", "why_hdr60.png");
  s.put("why_zero16k.png", lbr::png_bomb(16000, 16000, 8, 0, 4u << 20));
  s.fail(why + "an all-zero 16000x16000 PNG fed to stereo --method local ran past 60 s at 7 GB",
         kStereo + "--left {in}/why_zero16k.png --right {in}/why_zero16k.png --out {out}/o.pfm", "why_zero16k.png");
  s.put("why_bmp118.bmp", lbr::make_bmp({16000, 16000, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1}));
  s.fail_without(why + "a 118-byte BMP claiming 16k^2 allocated gigabytes (and said 18446743970630336566 bytes)",
                 kMad + "--ref {in}/why_bmp118.bmp --dist {in}/m2.png", "why_bmp118.bmp", {"bad_alloc", "18446743"});
  // Wrong results with exit 0.
  s.put("why_bitfields118.bmp", lbr::make_bmp({1000, 1000, 32, 3, 40, 1, {}, {0xff0000, 0xff00, 0xff}, Bytes(52, '\0'), -1}));
  s.fail(why + "a BMP with bitfields truncated to 118 bytes decoded as 1000^2 zeros",
         kRender + "--raw {in}/why_bitfields118.bmp --pitch 8 --out {out}/o.png", "why_bitfields118.bmp");
  s.put("why_1bpp118.bmp", lbr::make_bmp({1000, 1000, 1, 0, 40, 1, {0, 0xffffff}, {}, Bytes(56, '\0'), -1}));
  s.fail(why + "a 1 bpp BMP truncated to 118 bytes decoded as 1000^2 zeros",
         kRender + "--raw {in}/why_1bpp118.bmp --pitch 8 --out {out}/o.png", "why_1bpp118.bmp");
  s.put("why_palette.png", lbr::make_png(40, 40, 8, 3, Bytes(1600, '\x07'), "\x10\x20\x30\x40\x50\x60"));
  s.fail(why + "a palette PNG with out-of-range indices put uninitialised bytes in the output",
         kMad + "--ref {in}/why_palette.png --dist {in}/m2.png --json {out}/r.json", "why_palette.png");
  lb::save_pfm(s.p("why_gt_nan.pfm"), lb::ImageF(40, 30, 1, std::nanf("")));
  lb::save_pfm(s.p("why_gt_neg.pfm"), lb::ImageF(40, 30, 1, -1.0f));
  s.fail(why + "an all-NaN stereo ground truth reported bad pixels 0.00 % over 0 pixels",
         kStereoLR + "--gt {in}/why_gt_nan.pfm --out {out}/o.pfm --json {out}/r.json", "no valid");
  s.fail(why + "an all-negative stereo ground truth reported bad pixels 0.00 %",
         kStereoLR + "--gt {in}/why_gt_neg.pfm --out {out}/o.pfm --json {out}/r.json", "no valid");
  lb::LightField4D nan_lf = lb::synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  nan_lf.gt = lb::ImageF(21, 17, 1, std::nanf(""));
  lb::save_lightfield(s.p("why_lf_nan"), nan_lf);
  s.fail(why + "an all-NaN light-field truth was scored 0 % (and replaced --out first)",
         kLf + "--lf {in}/why_lf_nan --out {out}/o.pfm --json {out}/r.json", "no valid");
  const lb::LightField4D lf99 = lb::synthetic_plane_lightfield(9, 7, 9, 9, 0.5f, 3u);
  fs::create_directories(s.in / "why_lf_64of81");
  for (int i = 0; i < 64; ++i)
    lb::save_image(s.p("why_lf_64of81/input_Cam" + std::to_string(1000 + i).substr(1) + ".png"), lf99.views[static_cast<std::size_t>(i)]);
  s.fail(why + "a light-field folder holding 64 of 81 views was treated as an 8x8 grid",
         kLf + "--lf {in}/why_lf_64of81 --grid 9x9 --out {out}/o.pfm", "9x9||81||64");
  s.fail(why + "--lim -1 silently meant the default", kRaw + "--lim -1 --out {out}/o.png", "--lim");
  s.fail(why + "--seed -1 wrapped to 2^64-1", "generate --preset tiny --seed -1 --out {out}/g", "--seed");
  nlohmann::json j = nlohmann::json::parse(lbr::slurp(s.p("g/scene.json")));
  j["grid"]["nx"] = 4294967297ull;
  s.put("g/why_nx.json", j.dump());
  s.fail(why + "a scene's nx of 2^32+1 wrapped to 1", kRender + "--scene {in}/g/why_nx.json --out {out}/o.png", "nx");
  s.fail(why + "--grid was ignored where it did not fit", kRender + "--preset tiny --grid 3,3 --out {out}/o.png", "--grid");
  // Output lost or corrupted.
  s.fail(why + "an --error-map with a bad extension was found after --out was replaced",
         kStereoLR + "--gt {in}/gt.pfm --out {out}/o.pfm --error-map {out}/e.jpgx", "e.jpgx");
  s.fail(why + "a --json path that is a folder was found after --out was replaced",
         kStereoLR + "--out {out}/o.pfm --json {in}/lf", "{in}/lf");
  s.fail(why + "a --json path under /proc was found after --out was replaced",
         kStereoLR + "--out {out}/o.pfm --json /proc/why.json", "/proc/why.json");
  s.fail(why + "a late --border check came after --out was replaced",
         kLf + "--lf {in}/lf --border 100000 --out {out}/o.pfm --json {out}/r.json", "border");
  add_full_disk_case(s);  // "on a full disk, PNG output exited 0 with a truncated file"
  s.cases.back().name = why + "on a full disk, PNG output exited 0 with a truncated file (and left *.tmp-lightbench)";
  // Unclear messages.
  s.fail_without(why + "'cannot replace file: Success' when --out is a folder", kStereoLR + "--out {out}", "{out}",
                 {"Success"});
  s.put("why_empty.png", "");
  s.fail_without(why + "'not a readable image ()'", kStereo +
                 "--left {in}/why_empty.png --right {in}/r.png --out {out}/o.pfm", "why_empty.png", {"()"});
  s.fail_without(why + "'grid -2147483648x-2147483648' for a NaN offset",
                 kRender + "--raw {in}/raw.png --pitch 16 --offset nan,0 --out {out}/o.png", "--offset", {"-2147483648"});
  s.fail_without(why + "'A subcommand is required' for a mistyped subcommand", "rendr --out {out}/o.png", "rendr",
                 {"A subcommand is required"});
  // Undefined behaviour (checked by the sanitizer build of this suite).
  s.put("why_bmp_int_min.bmp", lbr::make_bmp({4, INT32_MIN, 24, 0, 40, 1, {}, {}, Bytes(64, '\0'), -1}));
  s.fail(why + "negation of INT_MIN in the BMP check", kRender + "--raw {in}/why_bmp_int_min.bmp --pitch 8 --out {out}/o.png",
         "why_bmp_int_min.bmp");
  s.fail(why + "signed overflow in resolve_roi", kLf + "--lf {in}/lf --crop 0,2147483647,10,2147483647 --out {out}/o.pfm", "crop");
  s.fail(why + "NaN converted to int in plenoptic_options", kRaw + "--view nan,nan --out {out}/o.png", "--view");
  s.fail(why + "1e302 converted to int in plenoptic_options", kRaw + "--patch 1e302 --out {out}/o.png", "--patch");
}

// Defects this suite found while their fixes were in other slices: the memory budget
// (--max-memory) and one path named by two output options.
void add_found_defect_cases(Suite& s) {
  // 8000 x 8000 grey, all zero: a 400 KB PNG within the pixel limit (2^27). Measured before
  // any budget: stereo local 57 s at 2.1 GB, mad > 60 s at > 9 GB, stereo bp > 60 s at > 7 GB.
  s.put("budget_8k.png", lbr::png_bomb(8000, 8000, 8, 0, 8001ull * 8000));
  s.fail("budget: 8000^2 zero PNG to stereo --method local",
         kStereo + "--max-memory 1G --ndisp 4 --left {in}/budget_8k.png --right {in}/budget_8k.png --out {out}/o.pfm", "--max-memory");
  s.fail("budget: 8000^2 zero PNG to stereo --method bp",
         "stereo --method bp --backend cpu --max-memory 1G --ndisp 4 --left {in}/budget_8k.png --right {in}/budget_8k.png --out {out}/o.pfm",
         "--max-memory");
  s.fail("budget: 8000^2 zero PNG to mad", kMad + "--max-memory 1G --ref {in}/budget_8k.png --dist {in}/budget_8k.png --json {out}/r.json",
         "--max-memory");
  // Two outputs on one path: exit 0 and the later write silently wins (the PFM is lost).
  s.fail("--out and --json on one path", kStereoLR + "--out {out}/o.pfm --json {out}/o.pfm", "the same file as --out");
  s.fail("--out and --aif on one path", "depth --backend cpu --preset tiny --out {out}/o.png --aif {out}/o.png", "the same file as --out");
}

// Odd but valid inputs: each must still work (exit 0, output written).
void add_valid_cases(Suite& s) {
  auto grey16 = [](int w, int h) {
    Bytes rows;
    for (int i = 0; i < w * h; ++i) rows += {static_cast<char>(i * 7), static_cast<char>(i * 13)};
    return lbr::make_png(w, h, 16, 0, rows);
  };
  auto rgb16 = [](int w, int h) {
    Bytes rows;
    for (int i = 0; i < w * h * 3; ++i) rows += {static_cast<char>(i * 5), static_cast<char>(i * 3)};
    return lbr::make_png(w, h, 16, 2, rows);
  };
  auto palette = [](int w, int h) {
    Bytes rows, plte;
    for (int i = 0; i < w * h; ++i) rows += static_cast<char>(i % 16);
    for (int i = 0; i < 16; ++i) plte += {static_cast<char>(i * 16), static_cast<char>(255 - i * 16), static_cast<char>(i * 9)};
    return lbr::make_png(w, h, 8, 3, rows, plte);
  };
  auto grey_alpha = [](int w, int h) {
    Bytes rows;
    for (int i = 0; i < w * h; ++i) rows += {static_cast<char>(i * 11), static_cast<char>(200)};
    return lbr::make_png(w, h, 8, 4, rows);
  };
  auto pnm65535 = [](const std::string& magic, int w, int h, int c) {
    Bytes b = magic + "\n" + std::to_string(w) + " " + std::to_string(h) + "\n65535\n";
    for (int i = 0; i < w * h * c; ++i) b += {static_cast<char>(i * 3), static_cast<char>(i * 17)};
    return b;
  };
  auto pfm = [](int w, int h, bool little) {
    Bytes b = "Pf\n" + std::to_string(w) + " " + std::to_string(h) + (little ? "\n-1.0\n" : "\n1.0\n");
    for (int i = 0; i < w * h; ++i) {
      const float v = 1.0f + static_cast<float>(i % 3);
      std::uint32_t u;
      std::memcpy(&u, &v, 4);
      if (little) lbr::put_le32(b, u);
      else lbr::put_be32(b, u);
    }
    return b;
  };
  s.put("v_g16.png", grey16(40, 40));
  s.put("v_pal.png", palette(40, 40));
  s.put("v_ga.png", grey_alpha(40, 40));
  s.put("v_65535.pgm", pnm65535("P5", 40, 40, 1));
  s.put("v_odd1.png", grey_alpha(35, 37));
  s.put("v_odd2.png", palette(35, 37));
  s.put("v_l65535.ppm", pnm65535("P6", 40, 30, 3));
  s.put("v_r16.png", rgb16(40, 30));
  s.put("v_gt_le.pfm", pfm(40, 30, true));
  s.put("v_gt_be.pfm", pfm(40, 30, false));
  s.put("v_1x1.png", grey16(1, 1));
  s.put("v_2x2.png", palette(2, 2));
  s.put("v_2x2b.png", palette(2, 2).replace(0, 0, ""));
  s.put("v_3x3.png", grey_alpha(3, 3));
  // 16-bit PNGs: the 8-bit algorithms convert them, round(v / 257), as image libraries do
  // (issue 39; they used to be refused).
  s.ok("mad: 16-bit grey vs palette", kMad + "--ref {in}/v_g16.png --dist {in}/v_pal.png --json {out}/r.json", {"r.json"});
  s.ok("mad: grey+alpha vs PGM 65535", kMad + "--ref {in}/v_ga.png --dist {in}/v_65535.pgm --json {out}/r.json", {"r.json"});
  s.ok("mad: odd sizes 35x37", kMad + "--ref {in}/v_odd1.png --dist {in}/v_odd2.png --json {out}/r.json", {"r.json"});
  s.ok("stereo: PPM 65535 vs 16-bit RGB, little-endian PFM truth",
       kStereo + "--ndisp 4 --left {in}/v_l65535.ppm --right {in}/v_r16.png --gt {in}/v_gt_le.pfm --out {out}/o.pfm --error-map {out}/e.png",
       {"o.pfm", "e.png"});
  s.put("v_r8.png", palette(40, 30));
  s.ok("stereo: PPM 65535 vs palette PNG, little-endian PFM truth",
       kStereo + "--ndisp 4 --left {in}/v_l65535.ppm --right {in}/v_r8.png --gt {in}/v_gt_le.pfm --out {out}/o.pfm --error-map {out}/e.png",
       {"o.pfm", "e.png"});
  s.ok("stereo: big-endian PFM truth", kStereoLR + "--gt {in}/v_gt_be.pfm --out {out}/o.png --json {out}/r.json", {"o.png", "r.json"});
  {
    fs::create_directories(s.in / "v_st14");
    lb::save_image(s.p("v_st14/im0.png"), noise(40, 30, 1, 1));
    lb::save_image(s.p("v_st14/im1.png"), noise(40, 30, 1, 2));
    s.put("v_st14/calib.txt", "cam0=[10 0 20; 0 10 15; 0 0 1]\r\nwidth=40\r\nheight=30\r\nndisp=4\r\nisint=0\r\n");
    lb::ImageF gt(40, 30, 1, 2.0f);
    for (int x = 0; x < 40; ++x) gt.at(x, 0) = INFINITY;
    lb::save_pfm(s.p("v_st14/disp0GT.pfm"), gt);
    lb::ImageU8 m(40, 30, 1, 255);
    m.at(3, 3) = 128;
    m.at(4, 4) = 0;
    lb::save_image(s.p("v_st14/mask0nocc.png"), m);
  }
  s.ok("stereo: Middlebury 2014 folder (CRLF calib.txt, inf truth, mask0nocc)",
       kStereo + "--scene {in}/v_st14 --out {out}/o.pfm --json {out}/r.json", {"o.pfm", "r.json"});
  s.ok("stereo: 2x2 pair", kStereo + "--ndisp 1 --left {in}/v_2x2.png --right {in}/v_2x2b.png --out {out}/o.pfm", {"o.pfm"});
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) s.put("lf_1x1/view_" + std::to_string(u) + "_" + std::to_string(v) + ".png", grey16(1, 1));
  s.ok("lfdepth: 1x1 views (16-bit)", kLf + "--lf {in}/lf_1x1 --out {out}/o.pfm", {"o.pfm"});
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) s.put("lf_1x1b/view_" + std::to_string(u) + "_" + std::to_string(v) + ".png", palette(1, 1));
  s.ok("lfdepth: 1x1 views (palette)", kLf + "--lf {in}/lf_1x1b --out {out}/o.pfm", {"o.pfm"});
  s.ok("render: 2x2 raw", kRender + "--raw {in}/v_2x2.png --pitch 2 --patch 1 --out {out}/o.png", {"o.png"});
  s.ok("render: 3x3 grey+alpha raw", kRender + "--raw {in}/v_3x3.png --pitch 2 --patch 2 --out {out}/o.png", {"o.png"});
  const lb::LightField4D odd = lb::synthetic_plane_lightfield(7, 5, 3, 3, 0.5f, 3u);
  lb::save_lightfield(s.p("lf_7x5"), odd);
  s.ok("lfdepth: 7x5 views", kLf + "--lf {in}/lf_7x5 --out {out}/o.pfm --json {out}/r.json", {"o.pfm", "r.json"});
  fs::create_directories(s.in / "lf_mixed");
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v)
      lb::save_image(s.p("lf_mixed/view_" + std::to_string(u) + "_" + std::to_string(v) + ".png"),
                     noise(21, 17, (u + v) % 2 ? 1 : 3, static_cast<unsigned>(u * 3 + v)));
  s.ok("lfdepth: grey and RGB views mixed", kLf + "--lf {in}/lf_mixed --out {out}/o.pfm", {"o.pfm"});
  s.ok("mad: --maps folder created", kMad + "--ref {in}/m1.png --dist {in}/m2.png --maps {out}/maps", {"maps/hi.pfm", "maps/lo.png"});
  s.ok("lfdepth: the base light field", kLf + "--lf {in}/lf --out {out}/o.pfm", {"o.pfm"});
  s.ok("lfdepth: refined, every output",
       kLf + "--lf {in}/lf --refine full --gf-radius 40 --defocus-radius 8 --confidence {out}/c.pfm "
             "--raw-out {out}/r.pfm --out {out}/o.pfm --json {out}/j.json",
       {"o.pfm", "c.pfm", "r.pfm", "j.json"});
  s.ok("lfdepth: refined with a fixed blend",
       kLf + "--lf {in}/lf --refine subpixel --fusion fixed --defocus-weight 1 --out {out}/o.pfm", {"o.pfm"});
  s.ok("lfdepth: refined without the semi-global step",
       kLf + "--lf {in}/lf --refine full --sgm off --out {out}/o.pfm", {"o.pfm"});
  s.ok("lfdepth: refined, semi-global with free jumps and a plain data term",
       kLf + "--lf {in}/lf --refine subpixel --sgm-data plain --sgm-p1 0 --sgm-p2 0 --sgm-edge 0.5 --out {out}/o.pfm",
       {"o.pfm"});
  s.ok("lfdepth: refined with the 3-point parabola",
       kLf + "--lf {in}/lf --refine full --subpixel-fit parabola --out {out}/o.pfm", {"o.pfm"});
  s.ok("generate: tiny", "generate --preset tiny --seed 3 --out {out}/g", {"g/raw.png", "g/scene.json"});
  s.ok("render: tiny scene", kRender + "--scene {in}/g/scene.json --out {out}/o.png", {"o.png"});
  s.ok("depth: tiny scene", "depth --backend cpu --scene {in}/g/scene.json --out {out}/o.pfm --aif {out}/a.png", {"o.pfm", "a.png"});
}

}  // namespace


// Data sets, `eval` and `batch` (issue 21): broken folders of each layout, maps of the wrong kind
// or size, bad shard / device / merge options. Each a one-line refusal with nothing written.
void add_dataset_cases(Suite& s) {
  const auto r = lbr::run_child({LB_CLI_PATH, "generate-stereo", "--out", s.p("ds"), "--count", "2", "--size",
                                 "40x30", "--ndisp", "16"},
                                (s.root / "err-genst").string(), kTimeoutS);
  REQUIRE(r.exit_code == 0);
  const std::string ds = " --dataset {in}/ds";
  const std::string js = " --json {out}/r.json --csv {out}/r.csv";
  s.fail("eval: no such data set", "eval --dataset {in}/nope --disp {in}/gt.pfm" + js, "nope");
  s.fail("eval: a file as the data set", "eval --dataset {in}/l.png --disp {in}/gt.pfm" + js, "l.png");
  s.fail("eval: a folder holding no data set", "eval --dataset {in}/g --disp {in}/gt.pfm" + js,
         "g||scene||layout");
  s.fail("eval: an 8-bit PNG as a map (scale unknown)", "eval --dataset {in}/ds/scene_000 --disp {in}/l.png" + js,
         "l.png");
  s.put("corrupt.pfm", "Pf\n40 30\n-1.0\nshort");
  s.fail("eval: a truncated PFM map", "eval --dataset {in}/ds/scene_000 --disp {in}/corrupt.pfm" + js, "corrupt.pfm");
  s.fail("eval: unknown --layout", "eval --dataset {in}/ds --layout kitty --disp {in}/gt.pfm" + js, "kitty");
  // A Middlebury 2014 scene with a malformed calib.txt, and one with a truth of another size.
  fs::create_directories(s.in / "ds_badcalib");
  fs::copy(s.in / "ds" / "scene_000", s.in / "ds_badcalib" / "scene_000", fs::copy_options::recursive);
  std::ofstream(s.in / "ds_badcalib" / "scene_000" / "calib.txt") << "width=40\nheight=thirty\nndisp=16\n";
  s.fail("eval: malformed calib.txt", "eval --dataset {in}/ds_badcalib/scene_000 --disp {in}/gt.pfm" + js,
         "calib.txt||thirty");
  fs::copy(s.in / "ds" / "scene_001", s.in / "ds_badgt", fs::copy_options::recursive);
  lb::save_pfm((s.in / "ds_badgt" / "disp0GT.pfm").string(), lb::ImageF(39, 30, 1, 3.0f));
  s.fail("stereo: disp0GT.pfm of another size through --scene", kStereo + "--scene {in}/ds_badgt --out {out}/o.pfm",
         "disp0GT.pfm");
  // KITTI: an 8-bit disparity truth is refused (its value / 256 would be wrong).
  for (const char* d : {"image_0", "image_1", "disp_occ"}) fs::create_directories(s.in / "kitti/training" / d);
  lb::save_image(s.p("kitti/training/image_0/000000_10.png"), noise(40, 30, 1, 11));
  lb::save_image(s.p("kitti/training/image_1/000000_10.png"), noise(40, 30, 1, 12));
  lb::save_image(s.p("kitti/training/disp_occ/000000_10.png"), noise(40, 30, 1, 13));
  s.fail("stereo: KITTI truth of 8 bits", kStereo + "--scene {in}/kitti/training --frame 000000_10 --out {out}/o.pfm",
         "000000_10.png");
  s.fail("stereo: KITTI unknown --frame", kStereo + "--scene {in}/kitti/training --frame 999999_10 --out {out}/o.pfm",
         "999999_10");
  // batch options.
  const std::string bp = "batch stereo-local --backend cpu";
  s.fail("batch: no such data set", bp + " --dataset {in}/nope --out {out}/maps --csv {out}/b.csv", "nope");
  s.fail("batch: --shard 2/2", bp + ds + " --out {out}/maps --csv {out}/b.csv --shard 2/2", "--shard");
  s.fail("batch: --shard 1/0", bp + ds + " --out {out}/maps --csv {out}/b.csv --shard 1/0", "--shard");
  s.fail("batch: --shard x", bp + ds + " --out {out}/maps --csv {out}/b.csv --shard x", "--shard");
  s.fail("batch: --devices on the CPU backend", bp + ds + " --out {out}/maps --csv {out}/b.csv --devices 0,1",
         "--devices");
  s.fail("batch: --out is a file", bp + ds + " --out {in}/l.png --csv {out}/b.csv", "l.png");
  s.fail("batch: a light-field algorithm on stereo scenes",
         "batch lightfield --backend cpu" + ds + " --out {out}/maps --csv {out}/b.csv", "stereo||light");
  s.put("torn.csv", "scene,algorithm\n\"unclosed,x\n");
  s.fail("batch --merge: a malformed CSV", "batch --merge {in}/torn.csv --csv {out}/m.csv", "torn.csv");
  s.fail("batch --merge: no such file", "batch --merge {in}/nope.csv --csv {out}/m.csv", "nope.csv");
}

// Raytrix calibrations (issue 22): every broken or inconsistent RayCalibData file, given with
// a raw to render / depth, is one line naming the file; nothing is written.
void add_calib_cases(Suite& s) {
  const lb::MlaGeometry g = lb::test::three_type_hex(16.0, 8.5, 8.5);
  const std::string good = lbt::calib_xml_of(g);
  auto swap = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  const std::vector<std::pair<std::string, std::string>> files = {
      {"empty", ""},
      {"text", "not xml at all"},
      {"truncated", good.substr(0, good.size() / 2)},
      {"wrong_root", "<Calibration></Calibration>"},
      {"no_diameter", swap("<diameter units=\"pix\">16</diameter>", "")},
      {"diameter_nan", swap("<diameter units=\"pix\">16</diameter>", "<diameter>nan</diameter>")},
      {"diameter_huge", swap("<diameter units=\"pix\">16</diameter>", "<diameter>1e308</diameter>")},
      {"diameter_neg", swap("<diameter units=\"pix\">16</diameter>", "<diameter>-16</diameter>")},
      {"lens_too_big", swap("<diameter units=\"pix\">16</diameter>", "<diameter>4000</diameter>")},
      {"offset_text", swap("<x>8.5</x>", "<x>left</x>")},
      {"deep", std::string(50000, '<') + std::string(50000, '>')},
      {"binary", Bytes(4096, '\xff')},
  };
  int k = 0;
  for (const auto& [tag, text] : files) {
    const std::string name = "calib_" + tag + ".xml";
    s.put(name, text);
    const std::string cmd = k++ % 2 ? "depth --backend cpu --out {out}/o.pfm" : kRender + "--out {out}/o.png";
    s.fail("calib: " + tag, cmd + " --raw {in}/g/raw.png --calib {in}/" + name, name);
  }
  s.fail("calib: no such file", kRender + "--raw {in}/g/raw.png --calib {in}/nope.xml --out {out}/o.png", "nope.xml");
  s.put("calib_good.xml", good);
  s.fail("calib: without --raw", kRender + "--calib {in}/calib_good.xml --out {out}/o.png", "--raw");
  s.fail("calib: --lim on a hexagonal grid",
         kRender + "--raw {in}/g/raw.png --calib {in}/calib_good.xml --lim 2 --out {out}/o.png", "--lim");
  s.fail("calib: bad --fit-grid",
         kRender + "--raw {in}/g/raw.png --calib {in}/calib_good.xml --fit-grid maybe --out {out}/o.png", "--fit-grid");
}

// Control bytes in files (issue 39, item 6): calib.txt, parameters.cfg, a scene JSON and a
// Raytrix XML whose keys and values hold ESC [2J (clears the terminal) and NUL (cut the message
// at it): the message is one line with every such byte escaped (run_case checks that stderr
// holds no byte below 0x20 but the final newline), and the text after the NUL, with the reason,
// is all there (the needles). HCI num_cams_x = -9 is refused as 0 is.
void add_control_byte_cases(Suite& s) {
  const std::string clear = std::string("\x1b[2J") + '\0';  // ESC [ 2 J NUL
  const std::string sout = " --ndisp 4 --out {out}/o.pfm --json {out}/r.json";
  auto st14 = [&](const std::string& name, const std::string& calib) {
    fs::create_directories(s.in / name);
    lb::save_image(s.p(name + "/im0.png"), noise(40, 30, 1, 1));
    lb::save_image(s.p(name + "/im1.png"), noise(40, 30, 1, 2));
    s.put(name + "/calib.txt", calib);
  };
  st14("ctl_calib_value", "width=40\nheight=30\nndisp=" + clear + "after-nul\n");
  s.fail("control bytes: calib.txt value", kStereo + "--scene {in}/ctl_calib_value" + sout,
         "ndisp = '\\x1b[2J\\x00after-nul' is not a number");
  st14("ctl_calib_width", "width=4" + clear + "0\nheight=30\nndisp=4\n");
  s.fail("control bytes: calib.txt whole number", kStereo + "--scene {in}/ctl_calib_width" + sout,
         "width = '4\\x1b[2J\\x000' is not a number");
  st14("ctl_calib_key", "width=40\nheight=30\nndisp=4\ncam0=[1 0 2; 0 1 " + clear + "x; 0 0 1]\n");
  s.fail("control bytes: calib.txt cam0", kStereo + "--scene {in}/ctl_calib_key" + sout,
         "cam0 = '\\x1b[2J\\x00x' is not a number");
  // A key holding the bytes is not a key calib.txt has: its width, height and ndisp are missing.
  st14("ctl_calib_keyonly", "wid" + clear + "th=40\nheight=30\nndisp=4\n");
  s.fail("control bytes: calib.txt key", kStereo + "--scene {in}/ctl_calib_keyonly" + sout, "missing width");
  // parameters.cfg of an HCI folder (input_CamNNN.png views).
  const lb::LightField4D lf = lb::synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  auto hci = [&](const std::string& name, const std::string& cfg) {
    fs::create_directories(s.in / name);
    for (int i = 0; i < 9; ++i) {
      char file[32];
      std::snprintf(file, sizeof file, "input_Cam%03d.png", i);
      lb::save_image((s.in / name / file).string(), lf.views[static_cast<std::size_t>(i)]);
    }
    s.put(name + "/parameters.cfg", cfg);
  };
  const std::string out = " --out {out}/o.pfm --json {out}/r.json";
  hci("ctl_cfg_cams", "[extrinsics]\nnum_cams_x = " + clear + "3 after-nul\nnum_cams_y = 3\n");
  s.fail("control bytes: parameters.cfg num_cams_x", kLf + "--lf {in}/ctl_cfg_cams" + out,
         "num_cams_x = '\\x1b[2J\\x003 after-nul' is not a whole number");
  hci("ctl_cfg_disp", "num_cams_x = 3\nnum_cams_y = 3\ndisp_min = -1" + clear + "after-nul\ndisp_max = 1\n");
  s.fail("control bytes: parameters.cfg disp_min", kLf + "--lf {in}/ctl_cfg_disp" + out,
         "disp_min = '-1\\x1b[2J\\x00after-nul' is not a disparity");
  hci("ctl_cfg_key", "num_cams_x = 3\nnum_cams_y = 3\n" + clear + "disp_min = -1\ndisp_max = 1\n");
  s.fail("control bytes: parameters.cfg key (disp_min unread: disp_max alone)", kLf + "--lf {in}/ctl_cfg_key" + out,
         "gives disp_max without disp_min");
  // HCI num_cams: every value below 1 refused, as 0 always was; a fraction too.
  hci("ctl_cfg_neg", "num_cams_x = -9\nnum_cams_y = 3\n");
  s.fail("parameters.cfg: num_cams_x = -9", kLf + "--lf {in}/ctl_cfg_neg" + out, "num_cams_x = -9 is out of range");
  hci("ctl_cfg_zero", "num_cams_x = 3\nnum_cams_y = 0\n");
  s.fail("parameters.cfg: num_cams_y = 0", kLf + "--lf {in}/ctl_cfg_zero" + out, "num_cams_y = 0 is out of range");
  hci("ctl_cfg_frac", "num_cams_x = 3\nnum_cams_y = 2.5\n");
  s.fail("parameters.cfg: num_cams_y = 2.5", kLf + "--lf {in}/ctl_cfg_frac" + out, "num_cams_y = '2.5' is not a whole number");
  // A scene JSON: a string holding the bytes (JSON escapes them) names the raw; raw bytes in
  // the file make it invalid JSON (the parser quotes what it read).
  s.put("g/scene_ctl_raw.json", "{\"grid\": {\"nx\": 14, \"ny\": 10, \"pitch\": 34.5}, \"raw\": \"x\\u001b[2J\\u0000after-nul.png\"}");
  s.fail("control bytes: scene JSON string", kRender + "--scene {in}/g/scene_ctl_raw.json --out {out}/o.png",
         "x\\x1b[2J\\x00after-nul.png'");
  s.put("g/scene_ctl_bytes.json", "{\"grid\": {\"nx\": \"" + clear + "after-nul\"}}");
  s.fail("control bytes: scene JSON with raw bytes", kRender + "--scene {in}/g/scene_ctl_bytes.json --out {out}/o.png",
         "scene_ctl_bytes.json");
  s.put("g/scene_ctl_field.json", "{\"grid\": {\"nx\": \"\\u001b[2J\\u0000after-nul\", \"ny\": 10, \"pitch\": 34.5}, \"raw\": \"raw.png\"}");
  s.fail("control bytes: scene JSON field value", kRender + "--scene {in}/g/scene_ctl_field.json --out {out}/o.png",
         "after-nul\" is not an integer");
  // A Raytrix XML: an element's text and an attribute.
  const std::string good = lbt::calib_xml_of(lb::test::three_type_hex(16.0, 8.5, 8.5));
  auto swap = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  s.put("calib_ctl_text.xml", swap("<diameter units=\"pix\">16</diameter>", "<diameter units=\"pix\">1\x1b[2J6</diameter>"));
  s.fail("control bytes: XML element text", kRender + "--raw {in}/g/raw.png --calib {in}/calib_ctl_text.xml --out {out}/o.png",
         "is not a number ('1\\x1b[2J6')");
  s.put("calib_ctl_units.xml", swap("<diameter units=\"pix\">", "<diameter units=\"p\x1b[2Jx\">"));
  s.fail("control bytes: XML attribute", kRender + "--raw {in}/g/raw.png --calib {in}/calib_ctl_units.xml --out {out}/o.png",
         "has units 'p\\x1b[2Jx', expected 'pix'");
  // An option value echoed back: control bytes from the command line.
  s.fail("control bytes: an option value", kRender + "--raw {in}/g/raw.png --pitch 34.5 --view 1,\x1b[2J --out {out}/o.png",
         "--view");
}

// Special and huge input files, broken CSVs (issue 39, items 4 and 5): a named pipe wherever
// a file is read (it used to block the open forever), /dev/zero as a CSV (it used to grow to
// 8.5 GB), a folder, sparse files past the text limits, and CSVs whose rows would be lost
// (an unclosed quote in the middle, a garbage line): each one line, at once, nothing written.
// Uses {in}/ds of add_dataset_cases.
void add_input_file_cases(Suite& s) {
  const fs::path sp = s.in / "special";
  fs::create_directories(sp);
  REQUIRE(::mkfifo((sp / "pipe").c_str(), 0600) == 0);
  // A TID2013-like database of two pairs, for eval --scores.
  fs::create_directories(s.in / "tid" / "reference_images");
  fs::create_directories(s.in / "tid" / "distorted_images");
  lb::save_image(s.p("tid/reference_images/I01.bmp"), noise(40, 40, 3, 21));
  lb::save_image(s.p("tid/distorted_images/i01_01_1.bmp"), noise(40, 40, 3, 22));
  lb::save_image(s.p("tid/distorted_images/i01_01_2.bmp"), noise(40, 40, 3, 23));
  s.put("tid/mos_with_names.txt", "5.1 i01_01_1.bmp\n4.2 i01_01_2.bmp\n");
  // A Middlebury 2014 scene whose calib.txt is a named pipe, one whose calib.txt is 2 MiB; a
  // light field whose parameters.cfg is a named pipe, one whose parameters.cfg is 2 MiB.
  fs::copy(s.in / "ds" / "scene_000", sp / "pipecalib", fs::copy_options::recursive);
  fs::remove(sp / "pipecalib" / "calib.txt");
  REQUIRE(::mkfifo((sp / "pipecalib" / "calib.txt").c_str(), 0600) == 0);
  fs::copy(s.in / "ds" / "scene_000", sp / "bigcalib", fs::copy_options::recursive);
  fs::resize_file(sp / "bigcalib" / "calib.txt", 2u << 20);
  fs::copy(s.in / "lf", sp / "pipecfg", fs::copy_options::recursive);
  REQUIRE(::mkfifo((sp / "pipecfg" / "parameters.cfg").c_str(), 0600) == 0);
  fs::copy(s.in / "lf", sp / "bigcfg", fs::copy_options::recursive);
  s.put("special/bigcfg/parameters.cfg", "num_cams_x = 3\n");
  fs::resize_file(sp / "bigcfg" / "parameters.cfg", 2u << 20);
  s.put("special/big.csv", "name,score\n");
  fs::resize_file(sp / "big.csv", 65u << 20);  // sparse: no disk used
  fs::create_directories(sp / "folder.csv");

  const std::string pipe = "{in}/special/pipe";
  const std::string scores = "eval --dataset {in}/tid --json {out}/r.json --scores ";
  const std::string merge = "batch --merge ";
  const std::string local = "batch stereo-local --backend cpu --dataset {in}/ds --out {out}/maps ";
  s.fail("named pipe: mad --ref", kMad + "--ref " + pipe + " --dist {in}/m2.png --json {out}/r.json", "named pipe");
  s.fail("named pipe: stereo --left", kStereo + "--left " + pipe + " --right {in}/r.png --out {out}/o.pfm",
         "named pipe");
  s.fail("named pipe: eval --scores", scores + pipe, "named pipe");
  s.fail("named pipe: batch --merge", merge + pipe + " --csv {out}/m.csv", "named pipe");
  s.fail("named pipe: the resume --csv", local + "--csv " + pipe, "not a regular file");
  s.fail("named pipe: calib.txt", kStereo + "--scene {in}/special/pipecalib --out {out}/o.pfm", "named pipe");
  s.fail("named pipe: eval over calib.txt", "eval --dataset {in}/special/pipecalib --disp {in}/gt.pfm --json {out}/r.json",
         "named pipe");
  s.fail("named pipe: parameters.cfg", kLf + "--lf {in}/special/pipecfg --out {out}/o.pfm", "named pipe");
  s.fail("named pipe: Raytrix calibration", kRender + "--raw {in}/g/raw.png --calib " + pipe + " --out {out}/o.png",
         "named pipe");
  s.fail("named pipe: scene file", kRender + "--scene " + pipe + " --out {out}/o.png", "named pipe");
  s.fail("/dev/zero: eval --scores", scores + "/dev/zero", "character device");
  s.fail("/dev/zero: batch --merge", merge + "/dev/zero --csv {out}/m.csv", "character device");
  s.fail("/dev/zero: Raytrix calibration", kRender + "--raw {in}/g/raw.png --calib /dev/zero --out {out}/o.png",
         "character device");
  s.fail("/dev/zero: scene file", kRender + "--scene /dev/zero --out {out}/o.png", "character device");
  // A scene file naming a device or a named pipe as its raw or truth (was read to the end).
  {
    nlohmann::json j = nlohmann::json::parse(lbr::slurp(s.p("g/scene.json")));
    j["raw"] = "/dev/zero";
    s.put("g/scene_raw_devzero.json", j.dump());
    s.fail("/dev/zero: a scene's raw", kRender + "--scene {in}/g/scene_raw_devzero.json --out {out}/o.png",
           "character device");
    j["raw"] = (sp / "pipe").string();
    s.put("g/scene_raw_pipe.json", j.dump());
    s.fail("named pipe: a scene's raw", kRender + "--scene {in}/g/scene_raw_pipe.json --out {out}/o.png", "named pipe");
  }
  s.fail("a folder: eval --scores", scores + "{in}/special/folder.csv", "is a directory");
  s.fail("a folder: batch --merge", merge + "{in}/special/folder.csv --csv {out}/m.csv", "is a directory");
  s.fail("65 MiB: eval --scores", scores + "{in}/special/big.csv", "larger than 64 MiB");
  s.fail("65 MiB: batch --merge", merge + "{in}/special/big.csv --csv {out}/m.csv", "larger than 64 MiB");
  s.fail("2 MiB: calib.txt", kStereo + "--scene {in}/special/bigcalib --out {out}/o.pfm", "larger than 1 MiB");
  s.fail("2 MiB: parameters.cfg", kLf + "--lf {in}/special/bigcfg --out {out}/o.pfm", "larger than 1 MiB");
  // CSVs that would lose rows: refused, never read as a torn tail.
  const std::string head = "scene,algorithm,variant,params,mask,bad050,map,error,open_ms,compute_ms,score_ms,write_ms\n";
  const std::string row = "scene_000,stereo-bp,,ndisp=8,,,,,1,2,3,4\n";
  s.put("special/unclosed.csv", head + row + "scene_000,stereo-bp,,\"ndisp=8\n" + row + row);
  s.put("special/garbage.csv", head + row + "garbage\n" + row);
  s.put("special/quote_inside.csv", head + "scene\"000,stereo-bp,,ndisp=8,,,,,1,2,3,4\n");
  s.fail("CSV: an unclosed quote in the middle (--merge)", merge + "{in}/special/unclosed.csv --csv {out}/m.csv",
         "never closed");
  s.fail("CSV: a garbage line in the middle (--merge)", merge + "{in}/special/garbage.csv --csv {out}/m.csv",
         "line 3: 1 field");
  s.fail("CSV: a quote inside an unquoted field (--merge)", merge + "{in}/special/quote_inside.csv --csv {out}/m.csv",
         "quote inside");
  s.put("special/scores_unclosed.csv", "name,score\ni01_01_1.bmp,\"1\ni01_01_2.bmp,2\n");
  s.fail("CSV: an unclosed quote in --scores", scores + "{in}/special/scores_unclosed.csv", "never closed");
}

TEST_CASE("robustness: bad inputs, options and outputs over every command") {
  Suite s;
  make_base_inputs(s);
  add_decode_cases(s);
  add_folder_cases(s);
  add_scene_cases(s);
  add_option_cases(s);
  add_output_cases(s);
  add_regression_cases(s);
  add_found_defect_cases(s);
  add_dataset_cases(s);
  add_calib_cases(s);
  add_control_byte_cases(s);
  add_input_file_cases(s);
  CHECK(s.cases.size() >= 120);
  run_all(s, "bad inputs");
}

TEST_CASE("robustness: odd but valid inputs still work") {
  Suite s;
  make_base_inputs(s);
  add_valid_cases(s);
  run_all(s, "valid inputs");
}

// Issue 10: "four concurrent runs writing the same --out/--json corrupted 3 PFMs in 80 rounds,
// and one JSON described a different run than the PFM" (the temp name was fixed and shared).
TEST_CASE("robustness: why: concurrent runs on one --out/--json leave whole files of one run") {
  Suite s;
  make_base_inputs(s);
  const int kProcs = 4, kRounds = 4;
  auto args = [&](int ndisp, const std::string& out, const std::string& json) {
    std::vector<std::string> a = {LB_CLI_PATH};
    for (auto& t : lbr::split_args(kStereo + "--left " + s.p("l.png") + " --right " + s.p("r.png") + " --ndisp " +
                                   std::to_string(ndisp) + " --out " + out + " --json " + json))
      a.push_back(t);
    return a;
  };
  // The output of each run alone.
  std::vector<std::string> ref(kProcs);
  for (int i = 0; i < kProcs; ++i) {
    const std::string o = s.p("ref" + std::to_string(i) + ".pfm");
    REQUIRE(lbr::run_child(args(2 + i, o, o + ".json"), s.p("ref.err"), kTimeoutS).exit_code == 0);
    ref[static_cast<std::size_t>(i)] = lbr::slurp(o);
  }
  const fs::path dir = s.root / "out" / "concurrent";
  fs::create_directories(dir);
  const std::string out = (dir / "o.pfm").string(), json = (dir / "r.json").string();
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> threads;
    std::vector<int> codes(kProcs, -1);
    for (int i = 0; i < kProcs; ++i)
      threads.emplace_back([&, i, argv = args(2 + i, out, json), err = s.p("c.err" + std::to_string(i))] {
        codes[static_cast<std::size_t>(i)] = lbr::run_child(argv, err, kTimeoutS).exit_code;
      });
    for (auto& t : threads) t.join();
    for (int c : codes) CHECK(c == 0);
    const auto j = nlohmann::json::parse(lbr::slurp(json));
    const int ndisp = j.at("parameters").at("ndisp").get<int>();
    REQUIRE(ndisp >= 2);
    REQUIRE(ndisp < 2 + kProcs);
    CHECK(lbr::slurp(out) == ref[static_cast<std::size_t>(ndisp - 2)]);  // whole, and of the JSON's run
    CHECK(fs::directory_iterator(dir) != fs::directory_iterator());
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
    CHECK(files == 2);  // no temporary left
  }
}
