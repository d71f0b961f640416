// The algorithm "plenoptic-hex" in the contract: every output of its CPU runner equals the
// CPU passes called directly (render_hex, depth_hex, render_all_in_focus_hex, score); the
// rectangular "plenoptic" refuses a scene with a general grid; bad parameters are one line.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "lightbench/algorithms.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/memory_budget.hpp"
#include "lightbench/plenoptic_hex.hpp"

using namespace lb;

namespace {

std::shared_ptr<PlenopticData> hex_small_data() {
  auto d = std::make_shared<PlenopticData>();
  d->scene = to_scene(generate_hex_scene(hex_generator_preset("hex-small")), "hex-small");
  return d;
}

bool same(const ImageF& a, const ImageF& b) { return a.same_shape(b) && a.data == b.data; }

// What the runner should compute for `v` on the scene, through the passes directly.
struct Reference {
  ImageU8 view, aif;
  ImageF depth;
  DepthScore score;
};
Reference reference(const PlenopticScene& s, const ParamValues& v) {
  const MlaGeometry g = scene_geometry(s);
  const MlaLayout mla(g);
  const HexRunParams p = plenoptic_hex_params(v, g);
  const ImageU8 raw = to_rgba(s.raw);
  Reference r;
  const HexTablesHost rt = build_hex_tables(mla, raw.width, raw.height, p.render.patch, p.render.rings,
                                            p.render.lens_types);
  r.view = render_hex(raw, rt, p.render);
  const HexTablesHost dt = build_hex_tables(mla, raw.width, raw.height, p.depth.patch, p.depth.rings,
                                            p.depth.lens_types);
  r.depth = depth_hex(raw, dt, p.depth);
  r.aif = render_all_in_focus_hex(raw, dt, p.render, r.depth);
  if (!s.truth.empty() && s.truth_patch == p.depth.patch) r.score = score_hex_depth(r.depth, s.truth);
  return r;
}

}  // namespace

TEST_CASE("plenoptic-hex runner: view, depth, aif, error, raw and truth equal the CPU passes; score") {
  auto data = hex_small_data();
  const AlgorithmRegistry reg = make_cpu_registry();
  auto runner = reg.make_runner("plenoptic-hex", BackendKind::Cpu);
  CHECK_THROWS_AS(runner->set_data(std::make_shared<LightFieldData>()), Error);  // wrong kind
  runner->set_data(data);
  const PlenopticScene& s = data->scene;
  for (const ParamValues& v : {ParamValues{{"patch", s.truth_patch}, {"view_x", 2.5}, {"view_y", -1.0}},
                               ParamValues{{"patch", s.truth_patch}, {"lens_types", 0}, {"rings", 2}, {"window", 3}},
                               ParamValues{{"patch", 10}, {"sigma", 3.0}, {"pmin", 5}, {"pmax", 12}}}) {
    CAPTURE(v.at("patch"));
    const Reference ref = reference(s, v);
    HostSurface view(SurfaceFormat::RGBA8), depth(SurfaceFormat::R32F), aif(SurfaceFormat::RGBA8),
        err(SurfaceFormat::R32F);
    runner->run(v, "", "view", view);
    CHECK(view.rgba().data == ref.view.data);
    runner->run(v, "original", "depth", depth);
    CHECK(same(depth.scalar(), ref.depth));
    runner->run(v, "", "aif", aif);
    CHECK(aif.rgba().data == ref.aif.data);
    CHECK(runner->last_variant() == "reference");
    if (v.at("patch") == s.truth_patch) {
      CHECK(runner->scores().at("exact_pct").get<double>() == ref.score.exact_pct);
      CHECK(runner->scores().at("mae").get<double>() == ref.score.mae);
      CHECK(runner->scores().at("scored_pixels").get<std::uint64_t>() == ref.score.pixels);
      // The aif run ("": the default variant) made its own depth map, so that one is scored.
      CHECK(runner->scores().at("scored_with").get<std::string>() == "cpu, original");
      runner->run(v, "", "error", err);
      REQUIRE(err.scalar().same_shape(ref.depth));
      for (std::size_t i = 0; i < ref.depth.data.size(); ++i)
        if (err.scalar().data[i] != std::abs(ref.depth.data[i] - s.truth.data[i])) FAIL("error map differs at " << i);
    } else {
      CHECK(runner->scores().empty());
      // Error map at another M than the truth's: one line.
      CHECK_THROWS_WITH_AS(runner->run(v, "", "error", err), "the ground truth is at M = 8; set patch M to it for "
                                                              "the error map", Error);
    }
  }
  HostSurface raw(SurfaceFormat::RGBA8), truth(SurfaceFormat::R32F);
  runner->run({}, "", "raw", raw);
  CHECK(raw.rgba().data == to_rgba(s.raw).data);
  runner->run({}, "", "truth", truth);
  CHECK(same(truth.scalar(), s.truth));
  for (const char* k : {"hex render/cpu", "hex depth/cpu", "hex aif/cpu"})
    CHECK_MESSAGE(runner->timings().stats(k).count >= 1, k);
  HostSurface out(SurfaceFormat::RGBA8);
  CHECK_THROWS_WITH_AS(runner->run({}, "", "nothing", out), "plenoptic-hex: no output 'nothing'", Error);
  // aif without a depth run first: computed on the way (the key of the last depth differs).
  runner->forget_results();
  runner->run({{"patch", 9}}, "", "aif", out);
  CHECK(out.rgba().data == reference(s, {{"patch", 9}}).aif.data);
}

TEST_CASE("plenoptic-hex spec: outputs, variants, value names, data-dependent ranges and defaults") {
  const AlgorithmSpec s = make_cpu_registry().get("plenoptic-hex");
  CHECK(s.name == "plenoptic (any micro-lens grid): render & depth");
  CHECK(s.data == DataKind::PlenopticScene);
  CHECK(s.variant_names() == std::vector<std::string>{"original", "smem-tables", "pruned"});
  CHECK(s.default_variant == "original");
  CHECK(s.value_name("lens_types", 0) == "all");
  CHECK(s.value_name("lens_types", 1) == "in focus");
  CHECK(s.output("depth")->unit == "patch");
  CHECK(s.output("truth")->needs_truth);
  CHECK(s.output("raw")->input);
  auto data = hex_small_data();
  CHECK(s.outputs_for(data.get()).size() == 6);
  const ParamTable t = s.params(data.get());
  // D = 24: patch sizes up to 23; three types with ranges: in focus by default.
  CHECK(find_param(t.infos, "patch")->max == 23);
  CHECK(find_param(t.infos, "view_x")->max == 12);
  CHECK(t.defaults.at("lens_types") == kLensTypesAll);
  CHECK(t.defaults.at("patch") == 11);
  CHECK(t.defaults.at("sigma") == doctest::Approx(24.0 / 7.0));
  // The rectangular scene: its pitch sets the ranges.
  auto rect = std::make_shared<PlenopticData>();
  rect->scene = to_scene(generate_scene(generator_preset("small", 3)), "small");
  CHECK(find_param(s.params(rect.get()).infos, "patch")->max == 43);  // pitch 44.75
  // Depth follows render's patch, rings and lens types.
  const HexRunParams p = plenoptic_hex_params({{"patch", 9}, {"rings", 2}, {"lens_types", 0}},
                                              scene_geometry(data->scene));
  CHECK(p.depth.patch == 9);
  CHECK(p.depth.rings == 2);
  CHECK(p.depth.lens_types == 0);
  const ParamValues all = complete_params(s, *data, {{"patch", 9}});
  CHECK_NOTHROW(s.validate(all, *data));
}

TEST_CASE("plenoptic-hex runner: bad parameters and data are one line naming the problem") {
  auto data = hex_small_data();
  auto runner = make_cpu_registry().make_runner("plenoptic-hex", BackendKind::Cpu);
  HostSurface out(SurfaceFormat::RGBA8), depth(SurfaceFormat::R32F);
  CHECK_THROWS_WITH_AS(runner->run({}, "", "view", out), "plenoptic-hex: no scene loaded", Error);
  runner->set_data(data);
  CHECK_THROWS_WITH_AS(runner->run({{"patch", 30}}, "", "view", out), doctest::Contains("'patch'"), Error);
  CHECK_THROWS_WITH_AS(runner->run({{"lens_types", 2}}, "", "view", out), doctest::Contains("'lens_types'"), Error);
  CHECK_THROWS_WITH_AS(runner->run({{"sigma", 0.1}}, "", "view", out), doctest::Contains("'sigma'"), Error);
  CHECK_THROWS_WITH_AS(runner->run({{"pmin", 12}, {"pmax", 9}}, "", "depth", depth),
                       doctest::Contains("pmin 12 is larger than pmax 9"), Error);
  CHECK_THROWS_WITH_AS(runner->run({{"window", 4}}, "", "depth", depth), doctest::Contains("window: must be odd, got 4"),
                       Error);
  // rings 0 renders (the nearest lens) but cannot compare neighbours.
  CHECK_NOTHROW(runner->run({{"rings", 0}}, "", "view", out));
  CHECK_THROWS_WITH_AS(runner->run({{"rings", 0}}, "", "depth", depth), doctest::Contains("rings: depth compares neighbours"),
                       Error);
  CHECK_THROWS_WITH_AS(runner->run({}, "sync", "view", out), doctest::Contains("unknown variant 'sync'"), Error);
  // A scene whose grid holds no whole lens.
  auto tiny = std::make_shared<PlenopticData>();
  tiny->scene = data->scene;
  tiny->scene.raw = ImageU8(10, 10, 3);
  tiny->scene.truth = ImageF();
  CHECK_THROWS_WITH_AS(runner->set_data(tiny), doctest::Contains("no whole lens inside the 10x10 raw"), Error);
  // The memory budget refuses before the run.
  set_max_host_memory(1024);
  CHECK_THROWS_WITH_AS(runner->run({}, "", "view", out), doctest::Contains("plenoptic-hex: needs"), Error);
  set_max_host_memory(0);
}

TEST_CASE("plenoptic runner refuses a general grid; plenoptic-hex runs a rectangular one") {
  auto data = hex_small_data();
  auto rect = make_cpu_registry().make_runner("plenoptic", BackendKind::Cpu);
  CHECK_THROWS_WITH_AS(rect->set_data(data),
                       "this raw's micro-lens grid is hexagonal, 3 lens types: run the algorithm plenoptic-hex", Error);
  auto rot = std::make_shared<PlenopticData>();
  rot->scene = data->scene;
  rot->scene.mla->rotation = 0.2;
  rot->scene.mla->types.resize(1);
  rot->scene.mla->sub_grid_base = {1.0, -1.7320508075688772};
  CHECK_THROWS_WITH_AS(rect->set_data(rot), doctest::Contains("hexagonal, rotated by 11.459"), Error);
  CHECK(mla_grid_summary(to_mla_geometry(PlenopticGrid{2, 2, 20.0, 0.0, 0.0})) == "rectangular");
}
