// The benchmarks (lb_bench) on small workloads: each runs, checks what it says it checks,
// and its JSON keeps every key `lightbench-cli bench <what> --json` has always written
// (scripts and users read them).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "render_block_trace.hpp"
#include "lightbench/bench/depth.hpp"
#include "lightbench/bench/lfdepth.hpp"
#include "lightbench/bench/mad.hpp"
#include "lightbench/bench/render.hpp"
#include "lightbench/bench/stereo_bp.hpp"
#include "lightbench/bench/stereo_bp_like_reference.hpp"
#include "lightbench/bench/stereo_local.hpp"
#include "lightfield/cae_cuda.hpp"
#include "lightbench/generator.hpp"
#include "mad/mad_cuda.hpp"
#include "stereo_bp/stereo_cuda.hpp"
#include "lightbench/stereo_io.hpp"

using namespace lb;
using nlohmann::json;

namespace {

void expect_keys(const json& j, const std::vector<std::string>& keys, const std::string& where) {
  for (const std::string& k : keys) CHECK_MESSAGE(j.contains(k), where << " lacks \"" << k << "\"");
}

// Every row of the array j[table] has the keys.
void expect_row_keys(const json& j, const std::string& table, const std::vector<std::string>& keys) {
  REQUIRE(j.contains(table));
  REQUIRE(j[table].is_array());
  REQUIRE(!j[table].empty());
  for (const json& row : j[table]) expect_keys(row, keys, table + " row " + row.dump());
}

const bench::Table& table(const bench::Report& r, const std::string& key) {
  const bench::Table* t = r.find_table(key);
  REQUIRE(t != nullptr);
  return *t;
}

PlenopticGrid small_grid() {
  PlenopticGrid g;
  g.nx = 11;
  g.ny = 7;
  g.pitch = 19.4;
  g.ox = 1.5;
  g.oy = 0.25;
  return g;
}

// The render benches' small workload: small_grid() over a random RGB raw (seed), patch 10,
// and quick options (10 reps, raised to 50; no L2 flush; with the block trace).
struct SmallRender {
  PlenopticGrid g = small_grid();
  ImageU8 raw;
  RenderParams p;
  bench::RenderBenchOptions opt;
  SmallRender(std::uint64_t seed, int warmup)
      : raw(test::random_raw(test::raw_extent(g.nx, g.pitch, g.ox, 1), test::raw_extent(g.ny, g.pitch, g.oy, 1), 3,
                             seed)) {
    p.patch = 10;
    opt.warmup = warmup;
    opt.reps = 10;
    opt.flush_l2 = false;
    opt.trace = true;
  }
};

}  // namespace

TEST_CASE("bench render: small workload, all variants exact, copy verified, JSON keys") {
  LB_GPU_TEST_GUARD();
  SmallRender w(3, 2);
  const ImageU8& raw = w.raw;
  w.opt.diagnostics = true;
  const bench::Report rep = bench::bench_render(raw, w.g, w.p, bench::default_render_variants(), w.opt);
  REQUIRE(rep.all_exact.has_value());
  CHECK(*rep.all_exact);
  const bench::Table& variants = table(rep, "variants");
  CHECK(variants.rows.size() == bench::default_render_variants().size());
  for (const bench::Row& e : variants.rows) {
    CHECK_MESSAGE(e.exact, e.label);
    CHECK(e.reps == 50);
    CHECK(e.median_ms > 0.0);
    CHECK(e.min_ms <= e.median_ms);
    CHECK(e.median_ms <= e.max_ms);
    CHECK(e.bytes > 0);
    CHECK(e.number("best_gbps") >= e.gbps);
  }
  const bench::Table& copy = table(rep, "copy");
  REQUIRE(copy.rows.size() == 1);
  CHECK(copy.rows[0].exact);
  CHECK(copy.rows[0].bytes >= 2ull * raw.width * raw.height * 4);
  CHECK(rep.copy_gbps == copy.rows[0].gbps);
  CHECK(table(rep, "diagnostics").rows.size() == 5);
  const bench::Table& floor = table(rep, "floor");
  REQUIRE(floor.rows.size() == 1);
  CHECK(floor.rows[0].median_ms > 0.0);
  CHECK(floor.rows[0].bytes == table(rep, "diagnostics").rows[1].bytes);  // the same quads as --diag's
  const std::string text = bench::to_text(rep);
  CHECK(text.find("nosync") != std::string::npos);
  CHECK(text.find("all outputs bit-exact: yes") != std::string::npos);
  CHECK(text.find("fastest: ") != std::string::npos);
  CHECK(text.find("fastest vs the 16-byte read floor: ") != std::string::npos);
  // --trace: the staged NoSync's block timeline (sm_90+; the GPU machine has one).
  const bool staged = rep.device.cc_major >= 9;
  CHECK((text.find("trace (default nosync") != std::string::npos) == staged);
  if (staged) {
    auto num = [&](const char* key) {
      const bench::Field* f = rep.find_field(key);
      REQUIRE_MESSAGE(f != nullptr, key);
      return std::get<double>(f->value);
    };
    const double span = num("trace.span_us");
    CHECK(span > 0.0);
    CHECK(num("trace.block_us_min") <= num("trace.block_us_median"));
    CHECK(num("trace.block_us_median") <= num("trace.block_us_max"));
    CHECK(num("trace.block_us_max") <= span * 1.0001);
    CHECK(num("trace.sm_busy") > 0.0);
    CHECK(num("trace.sm_busy") <= 1.0001);
    CHECK(num("trace.balanced_span_us") <= span * 1.0001);
  }

  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "workload", "reference", "cpu_checked", "cpu_exact", "options", "variants", "copy",
                  "floor", "diagnostics", "all_exact"},
              "bench render");
  expect_keys(j["device"], {"available", "name", "cc", "sm_count", "memory_bytes", "l2_bytes", "peak_gbps", "driver",
                            "runtime"},
              "bench render device");
  expect_keys(j["options"], {"warmup", "reps", "flush_l2"}, "bench render options");
  const std::vector<std::string> entry{"label",       "kernel",    "reps",    "median_ms", "min_ms",    "max_ms",
                                       "bytes",       "median_gbps", "best_gbps", "checked", "exact", "mismatches"};
  expect_row_keys(j, "variants", entry);
  expect_row_keys(j, "diagnostics", entry);
  REQUIRE(j["copy"].is_object());
  expect_keys(j["copy"], entry, "bench render copy");
  CHECK(j["all_exact"] == true);
  CHECK(j["cpu_exact"] == true);
  CHECK(j["options"]["reps"] == 50);
}

TEST_CASE("bench depth: tiny preset, every map identical, scored, JSON keys") {
  LB_GPU_TEST_GUARD();
  GeneratorParams gp = generator_preset("tiny");
  gp.preview_patch = default_depth_params(gp.grid).patch;  // the truth at the depth map's M (as the CLI does)
  const GeneratedScene s = generate_scene(gp);
  const DepthParams params = default_depth_params(s.params.grid);
  bench::DepthBenchOptions opt;
  opt.warmup = 1;
  opt.reps = 50;
  opt.flush_l2 = false;
  const bench::Report rep =
      bench::bench_depth(s.raw, s.params.grid, params, bench::default_depth_variants(), opt, &s.truth);
  REQUIRE(rep.all_exact.has_value());
  CHECK(*rep.all_exact);
  const bench::Table& entries = table(rep, "entries");
  CHECK(entries.rows.size() == bench::default_depth_variants().size());
  CHECK(entries.rows.front().number("speedup") == doctest::Approx(1.0));
  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "workload", "warmup", "reps", "flush_l2", "cpu_checked", "cpu_exact", "exact_pct", "mae",
                  "all_exact", "entries"},
              "bench depth");
  CHECK(j["device"].is_string());
  expect_row_keys(j, "entries",
                  {"label", "kernel", "reps", "median_ms", "min_ms", "max_ms", "bytes", "median_gbps", "speedup",
                   "exact", "mismatches"});
  CHECK(bench::to_text(rep).find("all variants identical") != std::string::npos);
}

TEST_CASE("bench lfdepth: every CAE variant at 3x3, exactness against coalesced, JSON keys") {
  LB_GPU_TEST_GUARD();
  // Larger than twice the HCI score's 15 px border, so the bench can score it.
  const LightField4D lf = synthetic_plane_lightfield(47, 37, 5, 5, 1.0f, 7);
  bench::LfBenchOptions opt;
  opt.windows = {3};
  opt.labels = 9;
  opt.dmin = -2.0f;
  opt.dmax = 2.0f;
  opt.warmup = 1;
  opt.reps = 5;
  const bench::Report rep = bench::bench_lfdepth(lf, opt);
  const bench::Table& entries = table(rep, "entries");
  REQUIRE(entries.rows.size() == cuda::cae_variants().size());
  for (const bench::Row& e : entries.rows) {
    CAPTURE(e.label);
    CHECK(e.reps >= 1);
    CHECK(e.median_ms > 0.0);
    CHECK(e.checked);
    // Bit-identical to coalesced: the 256-bin kernels and every exact kernel but exact_terms
    // (tex: hardware bilinear; binned*: another cost; exact_terms: another float summation).
    const bool identical = e.label != "tex" && e.label.rfind("binned", 0) != 0 && e.label != "exact_terms";
    if (identical) CHECK(e.exact);
  }
  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "workload", "warmup", "reps", "max_seconds", "entries"}, "bench lfdepth");
  expect_row_keys(j, "entries",
                  {"views", "variant", "method", "reps", "median_ms", "min_ms", "max_ms", "bytes", "compared_to",
                   "bit_exact", "label_mismatches", "max_cost_diff", "badpix_007", "badpix_003", "badpix_001",
                   "mse_x100"});
  for (const json& row : j["entries"]) CHECK(row["views"] == 3);
}

TEST_CASE("bench stereo: every variant with timings, CPU agreement and scores, JSON keys") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_bench", ".json");
  cuda::set_bp_tune_cache_path(cache);
  bench::StereoBenchCase c;
  c.name = "synthetic";
  c.pair = stereo::synthetic_two_plane_pair(83, 45, 3, 14, 8u, &c.gt.disparity, 3);
  c.ndisp = 20;
  bench::StereoBenchOptions o;
  o.warmup = 1;
  o.reps = 3;
  const bench::Report rep = bench::bench_stereo({c}, o);
  const bench::Table& entries = table(rep, "entries");
  REQUIRE(entries.rows.size() == cuda::bp_stereo_variants().size());
  const bench::Row* hybrid = nullptr;
  for (const bench::Row& e : entries.rows) {
    CAPTURE(e.label);
    CHECK(e.median_ms > 0.0);
    CHECK(e.number("median_ms_total") > 0.0);
    CHECK(e.checked);
    // Float messages: the CPU's map (the spec's 0.1 % bound asserted); 16-bit messages (and
    // "auto", which may pick them): the documented 2 % bound.
    const bool half = e.label.find("16") != std::string::npos || e.label.rfind("auto ", 0) == 0;
    CHECK(e.mismatches * (half ? 50 : 1000) <= static_cast<std::uint64_t>(83 * 45));
    CHECK(e.number("bad1_all") < 25.0);
    if (e.label.rfind("hybrid", 0) == 0) hybrid = &e;
  }
  REQUIRE(hybrid != nullptr);
  const bench::Field* tuning = hybrid->extra("tuning");
  REQUIRE(tuning != nullptr);
  CHECK(std::get<std::string>(tuning->value).find("hybrid") != std::string::npos);
  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "warmup", "reps", "entries"}, "bench stereo");
  expect_row_keys(j, "entries",
                  {"scene", "width", "height", "ndisp", "variant", "reps", "median_ms", "median_ms_total", "min_ms",
                   "differing_vs_cpu", "tuning", "bad1_nonocc", "bad1_all", "bad1_disc"});
  std::printf("%s", bench::to_text(rep).c_str());
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

TEST_CASE("bench stereo --like-reference: sizes, reference table, memory floor (host only)") {
  const auto& t = bench::like_reference_table();
  REQUIRE(t.size() == 7);
  CHECK(t.front().size.text() == "192x144x8");
  CHECK(t.back().size.text() == "900x750x256");
  CHECK(t[4].best_ms() == doctest::Approx(2.871));
  CHECK(t[4].best_type() == "bf16");
  CHECK(t[5].single_run);
  CHECK_FALSE(t[5].bf16_ms.has_value());
  CHECK(t[5].best_ms() == doctest::Approx(58.6));
  const stereo::BpParams p = bench::like_reference_params(64);
  CHECK(p.levels == 5);
  CHECK(p.iterations == 7);
  CHECK(p.lambda == doctest::Approx(0.1));
  CHECK(p.tau_data == doctest::Approx(15.0));
  CHECK(p.tau_disc == doctest::Approx(64 / 7.5));
  CHECK(p.sigma == 0.0f);
  const auto sizes = bench::parse_like_reference_sizes("450x375x64,192x144x8");
  REQUIRE(sizes.size() == 2);
  CHECK(sizes[0] == bench::LikeReferenceSize{450, 375, 64});
  CHECK(sizes[1] == bench::LikeReferenceSize{192, 144, 8});
  for (const auto& [bad, needle] : std::vector<std::pair<std::string, std::string>>{
           {"", "empty"},
           {"450x375", "not WIDTHxHEIGHTxDISPARITIES"},
           {"450x375x64,", "'' is not"},
           {"450x375x64x1", "not WIDTHxHEIGHTxDISPARITIES"},
           {"-450x375x64", "not WIDTHxHEIGHTxDISPARITIES"},
           {"450x375x99999999999", "not WIDTHxHEIGHTxDISPARITIES"},
           {"450x375x63", "not a size of the reference"},
           {"192x144x8,192x144x8", "given twice"}}) {
    CAPTURE(bad);
    try {
      (void)bench::parse_like_reference_sizes(bad);
      FAIL("no error");
    } catch (const Error& e) {
      const std::string what = e.what();
      CHECK(what.find("--sizes") != std::string::npos);
      CHECK(what.find(needle) != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
  }
  // One level, one iteration, 4x2 pixels, L = 3, float: 4 active pixels x (8 x 3 x 4 + 3 x 4).
  CHECK(bench::bp_floor_bytes(4, 2, 3, 1, 1, 4) == 4u * (96 + 12));
  // Levels halve rounding up: 3x3 (5 active), 2x2 (2), 1x1 (1); two iterations, bf16.
  CHECK(bench::bp_floor_bytes(3, 3, 2, 3, 2, 2) == 2u * (5 + 2 + 1) * (8 * 2 * 2 + 2 * 4));
  // The estimate for 450x375x64 (float, 5 x 7): ~195 MB per level-0 iteration pair.
  const double mb = static_cast<double>(bench::bp_floor_bytes(450, 375, 64, 5, 7, 4)) / 1e6;
  CHECK(mb > 7 * 0.5 * 450 * 375 * (8 * 64 * 4 + 64 * 4) / 1e6);
  CHECK(mb < 7 * 0.5 * 450 * 375 * (8 * 64 * 4 + 64 * 4) / 1e6 * 1.34);
  CHECK(bench::bp_message_bytes("warp-bf16") == 2);
  CHECK(bench::bp_message_bytes("warp-fp16") == 2);
  CHECK(bench::bp_message_bytes("hybrid:8,0") == 4);
}

TEST_CASE("bench stereo --like-reference: one small size, reference figures, floor, CPU check, JSON keys") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_likeref", ".json");
  cuda::set_bp_tune_cache_path(cache);
  bench::LikeReferenceOptions o;
  o.data = "/nonexistent-lightbench-data";  // synthetic pairs
  o.sizes = {{192, 144, 8}};
  o.warmup = 1;
  o.reps = 3;
  const bench::Report rep = bench::bench_stereo_like_reference(o);
  const bench::Table& entries = table(rep, "entries");
  REQUIRE(entries.rows.size() == 1);
  const bench::Row& e = entries.rows.front();
  CHECK(e.reps == 3);
  CHECK(e.median_ms > 0.0);
  CHECK(e.number("median_ms_total") >= e.median_ms);  // each run: total includes compute
  CHECK(e.number("ref_float_ms") == doctest::Approx(1.132));
  CHECK(e.number("ref_best_ms") == doctest::Approx(0.747));
  CHECK(e.number("speedup_vs_ref_best") == doctest::Approx(0.747 / e.number("median_ms_total")));
  CHECK(e.number("goal_ms") == doctest::Approx(0.747 / 1.5));
  CHECK(e.number("floor_ms") > 0.0);
  CHECK(e.number("pct_of_floor") > 0.0);
  CHECK(rep.copy_gbps > 0.0);
  CHECK(e.number("differing_vs_cpu") * 1000 <= 192.0 * 144.0);
  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "like_reference", "reference", "params", "warmup", "reps", "copy_gbps", "goal_factor",
                  "all_meet_goal", "entries"},
              "bench stereo --like-reference");
  CHECK(j["reference"]["label"] == "reference (cudaBeliefProp) measured on NVIDIA H100 80GB HBM3");
  expect_row_keys(j, "entries",
                  {"scene", "width", "height", "ndisp", "size", "source", "variant", "requested", "reps", "median_ms",
                   "min_ms", "median_ms_total", "min_ms_total", "ref_float_ms", "ref_bf16_ms", "ref_double_ms",
                   "ref_best_ms", "ref_best_type", "ref_single_run", "speedup_vs_ref_best", "goal_ms", "meets_goal",
                   "msg_bytes", "floor_bytes", "floor_ms", "pct_of_floor", "cpu_check", "differing_vs_cpu", "tuning"});
  CHECK(j["entries"][0]["source"] == "synthetic");
  const std::string text = bench::to_text(rep);
  CHECK(text.find("reference (cudaBeliefProp) measured on NVIDIA H100 80GB HBM3") != std::string::npos);
  std::printf("%s", text.c_str());
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

TEST_CASE("bench local: every variant exact against the CPU, JSON keys") {
  LB_GPU_TEST_GUARD();
  bench::LocalBenchWorkload wl;
  wl.name = "random";
  std::mt19937_64 rng(4);
  wl.pair.right = ImageU8(90, 70, 3);
  for (auto& b : wl.pair.right.data) b = static_cast<std::uint8_t>(rng() & 255);
  wl.pair.left = wl.pair.right;
  for (int y = 0; y < 70; ++y)
    for (int x = 3; x < 90; ++x)
      for (int ch = 0; ch < 3; ++ch) wl.pair.left.at(x, y, ch) = wl.pair.right.at(x - 3, y, ch);
  wl.ndisp = 12;
  wl.truth = ImageF(90, 70, 1, 3.0f);
  bench::LocalBenchOptions o;
  o.warmup = 1;
  o.reps = 5;
  const bench::Report rep = bench::bench_local_stereo({wl}, stereo::LocalParams{}, o);
  const bench::Table& entries = table(rep, "entries");
  REQUIRE(entries.rows.size() == stereo::local_variants().size());
  REQUIRE(rep.all_exact.has_value());
  CHECK(*rep.all_exact);
  CHECK(rep.copy_gbps > 0.0);
  for (const bench::Row& e : entries.rows) {
    CHECK(e.checked);
    CHECK(e.median_ms > 0.0);
    // Upload + compute + download is timed in its own runs: it includes a compute, but its
    // median can dip under the compute-only minimum when the clock varies (it did under
    // compute-sanitizer synccheck), so only a loose relation is checked.
    CHECK(e.number("median_total_ms") >= 0.5 * e.min_ms);
    CHECK(e.number("mde_per_s") > 0.0);
  }
  CHECK(bench::to_text(rep).find("fused") != std::string::npos);
  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "params", "warmup", "reps", "max_seconds", "copy_gbps", "entries"}, "bench local");
  expect_keys(j["params"], {"radius", "gamma", "truncation", "variable_windows", "lr_check"}, "bench local params");
  expect_row_keys(j, "entries",
                  {"workload", "variant", "width", "height", "ndisp", "reps", "median_ms", "min_ms", "median_total_ms",
                   "mde_per_s", "fps", "fps_total", "bytes", "gbps", "checked", "exact", "mismatches", "bad1_nonocc",
                   "bad1_all"});
}

TEST_CASE("bench mad: metric and statistics rows, JSON keys") {
  LB_GPU_TEST_GUARD();
  bench::MadBenchOptions o;
  o.warmup = 1;
  o.reps = 2;
  // scripts/gpu-sanitize sets LB_UNDER_SANITIZER: racecheck needs minutes per 1920x1080
  // metric, so there only the first size runs (the kernels are the same at every size).
  const bool sanitizer = std::getenv("LB_UNDER_SANITIZER") != nullptr;
  if (sanitizer) o.max_pixels = 512 * 384;
  const bench::Report rep = bench::bench_mad(o);  // synthetic 512x384, 512x512, 1920x1080
  const bench::Table& entries = table(rep, "entries");
  // Per size: the CPU reference, every CUDA variant on the metric, the other pipelines (c2c,
  // r2c with the 2D inverses and with the column pass forced, with batches 2, 10, 40, and with
  // callbacks unless cuFFT cannot link them: a note), five statistics rows.
  const std::size_t sizes = sanitizer ? 1 : 3;
  std::size_t cb_rows = 0;
  for (const bench::Row& e : entries.rows) cb_rows += e.label == "cuda-r2c-cb/fused";
  for (const std::string& n : rep.notes) MESSAGE(n);
  CHECK((cb_rows == sizes || (cb_rows == 0 && rep.notes.size() == 1)));
  CHECK(entries.rows.size() == sizes * (1 + cuda::mad_stats_variants().size() + 6 + 5) + cb_rows);
  // Stages of the default and of r2c with either inverse forced (upload, lum, fwd, csf_inv,
  // detect, gabor_mul + gabor_inv or gabor_col + gabor_row, stats, combine), of c2c (upload,
  // csf_fwd, csf_inv, detect, gabor_fwd, gabor_mul, gabor_inv, stats, combine) and of the
  // callbacks (r2c less gabor_mul) per size.
  const bench::Table& stages = table(rep, "stages");
  CHECK(stages.rows.size() == sizes * 36 + cb_rows * 8);
  std::size_t col_rows = 0;
  for (const bench::Row& e : stages.rows) {
    const bench::Field* st = e.extra("stage");
    col_rows += st && bench::value_text(st->value) == "gabor_col";
  }
  CHECK(col_rows == sizes + (sanitizer ? 0 : 1));  // the forced column pass per size; the default at 1920x1080
  for (const bench::Row& e : stages.rows) {
    CAPTURE(e.label);
    CHECK(e.reps == o.reps);
    CHECK(e.median_ms > 0.0);
    CHECK(e.bytes > 0);
  }
  for (const bench::Row& e : entries.rows)
    if (e.label.rfind("cuda", 0) == 0 && e.bytes == 0) CHECK(e.number("launches") >= 9);  // 9: callbacks
  CHECK(rep.copy_gbps > 0.0);
  for (const bench::Row& e : entries.rows) {
    CAPTURE(e.label);
    CHECK(e.median_ms > 0.0);
    if (e.bytes == 0) CHECK(e.number("mad") > 0.0);  // metric rows
  }
  const json j = json::parse(bench::to_json(rep));
  expect_keys(j, {"device", "copy_gbps", "warmup", "reps", "entries"}, "bench mad");
  expect_row_keys(j, "entries",
                  {"workload", "what", "variant", "width", "height", "reps", "median_ms", "min_ms", "max_ms", "bytes",
                   "gbps", "mad"});
  expect_row_keys(j, "stages", {"workload", "stage", "variant", "reps", "median_ms", "bytes", "gbps"});
}

TEST_CASE("bench render trace: without the default NoSync among the variants, nothing traced, said so") {
  LB_GPU_TEST_GUARD();
  const SmallRender w(5, 1);
  bench::RenderBenchVariant v;  // NoSync, chunks of 3: not the default shape
  v.config.variant = RenderVariant::NoSync;
  v.tuning.chunk = 3;
  const bench::Report rep = bench::bench_render(w.raw, w.g, w.p, {v}, w.opt);
  CHECK(rep.find_field("trace.span_us") == nullptr);
  CHECK(bench::to_text(rep).find("trace: no default NoSync among the variants; nothing traced") != std::string::npos);
}

TEST_CASE("bench render trace: statistics of a made-up block timeline") {
  // Two SMs: SM 3 runs two 10 us blocks, SM 7 two 20 us blocks (one starting 2 us late).
  const std::vector<std::uint64_t> words = {
      1000, 11000, 3, 0,   // SM 3
      1000, 11000, 3, 0,   // SM 3
      1000, 21000, 7, 0,   // SM 7
      3000, 21000, 7, 0,   // SM 7: 18 us
      0,    0,     0, 0};  // no record (ignored)
  const bench::BlockTraceStats st = bench::block_trace_stats(words, 5);
  CHECK(st.blocks == 4);
  CHECK(st.sms == 2);
  CHECK(st.span_us == doctest::Approx(20.0));
  CHECK(st.dur_min_us == doctest::Approx(10.0));
  CHECK(st.dur_max_us == doctest::Approx(20.0));
  CHECK(st.between_sm_sd_us == doctest::Approx(4.5));  // SM means 10 and 19
  CHECK(st.within_sm_sd_us == doctest::Approx(0.5));   // 0 and 1
  CHECK(st.sm_busy == doctest::Approx((10.0 + 20.0) / 40.0));
  CHECK(st.balanced_span_us == doctest::Approx(4.0 / (2.0 / 10.0 + 2.0 / 20.0)));
  CHECK(bench::block_trace_stats({0, 0, 0, 0}, 1).blocks == 0);
}
