// The algorithm contract (algorithm.hpp) with the CPU runners: each runner's outputs equal
// the CPU reference called directly; tables, run keys, variants and errors behave.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "lightbench/algorithms.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/hci_metrics.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

std::shared_ptr<PlenopticData> small_scene() {
  auto d = std::make_shared<PlenopticData>();
  d->scene = to_scene(generate_scene(generator_preset("small", 3)), "test");
  return d;
}

bool same(const ImageF& a, const ImageF& b) { return a.same_shape(b) && a.data == b.data; }

}  // namespace

TEST_CASE("registry: the six algorithms, lookups and backend choice") {
  const AlgorithmRegistry r = make_cpu_registry();
  REQUIRE(r.all().size() == 6);
  for (const char* id : {"plenoptic", "plenoptic-hex", "lightfield", "stereo-bp", "stereo-local", "mad"}) {
    const AlgorithmSpec& s = r.get(id);
    CHECK(s.cpu != nullptr);
    CHECK(s.cuda == nullptr);  // no CUDA runners until kernels/ registers them
    CHECK(!s.variants.empty());
    CHECK(s.variant(s.default_variant) != nullptr);
    for (const auto& o : s.outputs)
      for (const auto& p : o.params) CHECK_MESSAGE(find_param(s.params(nullptr).infos, p), std::string(s.id + ": " + p));
  }
  CHECK_THROWS_WITH_AS(r.get("sgm"), doctest::Contains("unknown algorithm 'sgm'"), Error);
  std::string why;
  CHECK_FALSE(r.cuda_available(&why));
  CHECK(why.find("no CUDA support") != std::string::npos);
  CHECK(r.choose(BackendRequest::Auto) == BackendKind::Cpu);
  CHECK_THROWS_AS(r.choose(BackendRequest::Cuda), Error);
  CHECK_THROWS_AS(r.make_runner("mad", BackendKind::Cuda), Error);
  CHECK(r.get("plenoptic").resolve_variant("NoSync") == "nosync");
  CHECK(stereo::local_variants() == r.get("stereo-local").variant_names());
  std::vector<std::string> render = {"auto"};  // each output's fastest kernel, the default
  for (RenderVariant v : all_render_variants()) render.emplace_back(to_string(v));
  CHECK(render == r.get("plenoptic").variant_names());
  CHECK(r.get("plenoptic").default_variant == "auto");
  CHECK_THROWS_WITH_AS(r.get("plenoptic").resolve_variant("fast"), doctest::Contains("known: auto, original"), Error);
}

TEST_CASE("registry: a CUDA runner on a chosen device; a device the machine lacks is one line") {
  AlgorithmRegistry r = make_cpu_registry();
  CudaHooks hooks;  // a stand-in for kernels/runners.cpp's: two devices
  hooks.available = [](std::string*) { return true; };
  hooks.describe = [] { return std::string("fake"); };
  hooks.device_count = [] { return 2; };
  r.set_cuda_hooks(hooks);
  int asked = -1;
  const RunnerFactory cpu = r.get("mad").cpu;
  r.add_cuda("mad", [&asked, cpu](int device) {
    asked = device;
    return cpu();
  });
  CHECK(r.cuda_device_count() == 2);
  CHECK(r.make_runner("mad", BackendKind::Cuda, 1) != nullptr);
  CHECK(asked == 1);
  CHECK(r.make_runner("mad", BackendKind::Cuda) != nullptr);
  CHECK(asked == 0);
  CHECK_THROWS_WITH_AS(r.make_runner("mad", BackendKind::Cuda, 2), "device 2: this machine has 2 CUDA devices", Error);
  CHECK_THROWS_AS(r.make_runner("mad", BackendKind::Cuda, -1), Error);
  CHECK(make_cpu_registry().cuda_device_count() == 0);
}

TEST_CASE("run keys depend only on the parameters an output declares") {
  const AlgorithmSpec s = lightfield_spec();
  ParamValues a{{"u", 1}, {"views", 5}}, b{{"u", 2}, {"views", 5}};
  CHECK(run_key(s, "depth", a, "exact") == run_key(s, "depth", b, "exact"));  // the view does not matter
  CHECK(run_key(s, "view", a, "exact") != run_key(s, "view", b, "exact"));
  CHECK(run_key(s, "view", a, "exact") == run_key(s, "view", a, "binned"));  // no variant in a view
  CHECK(run_key(s, "depth", a, "exact") != run_key(s, "depth", a, "binned"));
}

TEST_CASE("plenoptic runner: view, depth, aif and error equal the CPU reference; score") {
  auto data = small_scene();
  auto runner = make_cpu_registry().make_runner("plenoptic", BackendKind::Cpu);
  CHECK_THROWS_AS(runner->set_data(std::make_shared<LightFieldData>()), Error);  // wrong kind
  runner->set_data(data);
  const PlenopticGrid& g = data->scene.grid;
  ParamValues v{{"patch", data->scene.truth_patch}, {"view_x", 1.5}};
  HostSurface view(SurfaceFormat::RGBA8);
  runner->run(v, "original", "view", view);
  RenderParams rp = default_render_params(g);
  rp.patch = data->scene.truth_patch;
  rp.view_x = 1.5f;
  const ImageU8 ref = render_cpu(to_rgba(data->scene.raw), build_render_tables(g, rp, data->scene.raw.width,
                                                                              data->scene.raw.height));
  CHECK(view.rgba().data == ref.data);

  HostSurface depth(SurfaceFormat::R32F), err(SurfaceFormat::R32F);
  runner->run(v, "", "depth", depth);
  DepthParams dp = default_depth_params(g);
  dp.patch = rp.patch;
  const ImageF dref = depth_cpu(to_rgba(data->scene.raw), build_depth_tables(g, dp, data->scene.raw.width,
                                                                             data->scene.raw.height));
  CHECK(same(depth.scalar(), dref));
  const DepthScore sc = score_depth(dref, data->scene.truth);
  CHECK(runner->scores().at("exact_pct").get<double>() == sc.exact_pct);
  runner->run(v, "", "error", err);
  REQUIRE(err.scalar().same_shape(dref));
  for (std::size_t i = 0; i < dref.data.size(); i += 97)
    CHECK(err.scalar().data[i] == std::abs(dref.data[i] - data->scene.truth.data[i]));

  HostSurface aif(SurfaceFormat::RGBA8);
  runner->run(v, "", "aif", aif);
  RenderParams ar = rp;
  ar.lim = dp.lim;
  CHECK(aif.rgba().data == render_all_in_focus(to_rgba(data->scene.raw), g, ar, dref, dp.patch).data);
  // The runner's timings are its backend's (the viewer's timings table reads them).
  for (const char* k : {"render/cpu", "depth/cpu", "aif/cpu"}) CHECK_MESSAGE(runner->timings().stats(k).count >= 1, k);
  // Error map at another M than the truth's: a clear error.
  CHECK_THROWS_WITH_AS(runner->run({{"patch", data->scene.truth_patch + 1}}, "", "error", err),
                       doctest::Contains("ground truth is at M"), Error);
  CHECK_THROWS_AS(runner->run(v, "", "nothing", err), Error);
}

TEST_CASE("light-field runner: depth, error, view and refocus equal the CPU reference") {
  auto data = std::make_shared<LightFieldData>();
  data->lf = synthetic_two_plane_lightfield(37, 29, 5, 5, -0.8f, 1.1f, 4, 1);
  auto runner = make_cpu_registry().make_runner("lightfield", BackendKind::Cpu);
  runner->set_data(data);
  const ParamValues v{{"views", 3}, {"labels", 11}, {"dmin", -1.5}, {"dmax", 1.5}, {"u", 0}, {"v", 4},
                      {"refocus", 0.5}, {"aperture", 1}};
  HostSurface depth(SurfaceFormat::R32F), err(SurfaceFormat::R32F), view(SurfaceFormat::RGBA8),
      refocus(SurfaceFormat::RGBA8);
  runner->run(v, "binned", "depth", depth);
  CaeParams cp;
  cp.views = 3;
  cp.labels = 11;
  cp.dmin = -1.5f;
  cp.dmax = 1.5f;
  cp.method = CaeMethod::Binned;
  const LfDepthResult r = cae_depth_cpu(data->lf, cp);
  CHECK(same(depth.scalar(), r.disparity));
  CHECK(runner->scores().at("mse_x100").get<double>() ==
        hci_score(r.disparity, data->lf.gt, std::min(15, 29 / 4)).mse_x100);
  runner->run(v, "binned", "error", err);
  CHECK(same(err.scalar(), hci_error_map(r.disparity, data->lf.gt)));
  runner->run(v, "binned", "view", view);
  CHECK(view.rgba().data == to_rgba(data->lf.view(0, 4)).data);
  runner->run(v, "binned", "refocus", refocus);
  CHECK(refocus.rgba().data == to_rgba(refocus_cpu(data->lf, 0.5f, 1)).data);
  CHECK(cae_variant_method("exact_smem") == CaeMethod::Exact);
  // Timings: the estimator's depth pass and refocus, then each host refinement step.
  CHECK(runner->timings().stats("lfdepth/cpu/binned").count >= 1);
  CHECK(runner->timings().stats("refocus/cpu").count == 1);
  HostSurface refined(SurfaceFormat::R32F);
  runner->run(v, "binned", "refined", refined);
  for (const char* k : {"lfdepth/refine/normalize", "lfdepth/refine/guided filter", "lfdepth/refine/semi-global",
                        "lfdepth/refine/wta + subpixel"})
    CHECK_MESSAGE(runner->timings().stats(k).count == 1, k);
}

TEST_CASE("stereo runners: disparity and error map equal the CPU references; scores") {
  auto data = std::make_shared<StereoData>();
  data->pair.left = lbt::random_image(41, 23, 3, 5);
  data->pair.right = lbt::random_image(41, 23, 3, 6);
  data->gt.disparity = ImageF(41, 23, 1, 2.0f);
  const AlgorithmRegistry reg = make_cpu_registry();
  auto bp = reg.make_runner("stereo-bp", BackendKind::Cpu);
  bp->set_data(data);
  HostSurface d(SurfaceFormat::R32F), e(SurfaceFormat::RGBA8);
  const ParamValues v{{"ndisp", 8}, {"levels", 2}, {"iterations", 3}};
  bp->run(v, "", "disparity", d);
  const stereo::BpParams p = stereo_bp_params(v);
  CHECK(p.ndisp == 8);
  const ImageF ref = stereo::bp_stereo_cpu(data->pair, p);
  CHECK(same(d.scalar(), ref));
  bp->run(v, "", "error", e);
  CHECK(e.rgba().data == to_rgba(stereo::stereo_error_map(ref, data->gt, 1.0, 7.0f)).data);
  CHECK(bp->scores().at("bad1_all").get<double>() == stereo::score_stereo(ref, data->gt).all.percent);
  CHECK(bp->timings().stats("stereo/bp/cpu").count >= 1);

  auto local = reg.make_runner("stereo-local", BackendKind::Cpu);
  local->set_data(data);
  const ParamValues lv{{"ndisp", 5}, {"radius", 3}};
  local->run(lv, "phase2", "disparity", d);
  const stereo::LocalParams lp = stereo_local_params(lv);
  const auto ld = stereo::local_disparity_cpu(data->pair, lp);
  REQUIRE(d.scalar().data.size() == ld.size());
  for (std::size_t i = 0; i < ld.size(); ++i) CHECK(d.scalar().data[i] == static_cast<float>(ld[i]));
  CHECK(local->timings().stats("stereo/local/reference").count >= 1);
  CHECK_THROWS_WITH_AS(local->run({{"ndisp", 0}}, "", "disparity", d), doctest::Contains("'ndisp' = 0 is outside"),
                       Error);
  CHECK_THROWS_AS(local->run({{"radius", std::nan("")}}, "", "disparity", d), Error);
}

TEST_CASE("MAD runner: HI / LO maps and scores of the CPU reference") {
  auto data = std::make_shared<ImagePairData>();
  data->reference = lbt::random_image(40, 36, 1, 8);
  data->distorted = lbt::random_image(40, 36, 1, 9);
  auto runner = make_cpu_registry().make_runner("mad", BackendKind::Cpu);
  runner->set_data(data);
  HostSurface hi(SurfaceFormat::R32F);
  runner->run({}, "", "hi", hi);
  const MadResult r = mad_cpu(mad_gray(data->reference), mad_gray(data->distorted));
  CHECK(runner->scores().at("mad").get<double>() == r.mad);
  CHECK(runner->timings().stats("mad/total").count >= 1);
  REQUIRE(hi.scalar().data.size() == r.hi.data.size());
  for (std::size_t i = 0; i < r.hi.data.size(); i += 13) CHECK(hi.scalar().data[i] == static_cast<float>(r.hi.data[i]));
  auto bad = std::make_shared<ImagePairData>();
  bad->reference = data->reference;
  CHECK_THROWS_AS(runner->set_data(bad), Error);  // incomplete pair
}

TEST_CASE("variant_for: one rule for every algorithm; a kernel's name on the CPU is an error") {
  const AlgorithmRegistry r = make_cpu_registry();
  for (const AlgorithmSpec& s : r.all()) {
    CAPTURE(s.id);
    CHECK(s.variant_for(BackendKind::Cpu, "") == "");
    CHECK(s.variant_for(BackendKind::Cpu, "reference") == "");
    CHECK(s.variant_for(BackendKind::Cpu, "auto") == "");
    CHECK(s.variant_for(BackendKind::Cuda, "") == s.default_variant);
    for (const auto& v : s.variants) {
      if (v.name == "auto" || v.name == "reference") continue;
      if (v.name == s.default_variant) {  // the same request as none
        CHECK(s.variant_for(BackendKind::Cpu, v.name) == "");
        continue;
      }
      CHECK_THROWS_WITH_AS(s.variant_for(BackendKind::Cpu, v.name), doctest::Contains("is a CUDA kernel"), Error);
      CHECK(s.variant_for(BackendKind::Cuda, v.name) == v.name);
    }
    CHECK_THROWS_WITH_AS(s.variant_for(BackendKind::Cpu, "zzz"), doctest::Contains("unknown variant 'zzz'"), Error);
  }
}

TEST_CASE("value names: each names the values of its parameter's range; value_name maps back") {
  const AlgorithmRegistry r = make_cpu_registry();
  for (const AlgorithmSpec& s : r.all())
    for (const auto& [param, names] : s.value_names) {
      CAPTURE(s.id + ": " + param);
      const ParamTable table = s.params(nullptr);
      const ParamInfo* p = find_param(table.infos, param);
      REQUIRE(p != nullptr);
      CHECK(static_cast<double>(names.size()) == p->max - p->min + 1);
      for (std::size_t i = 0; i < names.size(); ++i) CHECK(s.value_name(param, p->min + static_cast<double>(i)) == names[i]);
    }
  const AlgorithmSpec& lf = r.get("lightfield");
  CHECK(lf.value_name("refine_mode", 2) == "subpixel");
  CHECK(lf.value_name("semi_global", 0) == "off");
  CHECK(lf.value_name("views", 5) == "");
}

TEST_CASE("specs validate a complete parameter set: complete_params fills the defaults for the data") {
  auto d = small_scene();
  const AlgorithmSpec s = plenoptic_spec();
  const ParamValues v = complete_params(s, *d, {{"patch", 9}});
  CHECK(v.at("patch") == 9);
  CHECK(v.count("pmin") == 1);
  CHECK_NOTHROW(s.validate(v, *d));
  ParamValues bad = v;
  bad["view_x"] = 1e6;
  CHECK_THROWS_AS(s.validate(bad, *d), Error);
}
