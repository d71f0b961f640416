// CUDA-GL interop: a headless EGL context on the CUDA backend's GPU, a GlTextureSurface
// registered with CUDA (SurfaceLoadStore), every render variant written by the CUDA backend
// straight into the texture, read back with glGetTexImage and compared with lb::render_cpu
// bit for bit; also across resizes (re-registration). Skips (exit 77) without a CUDA device
// or an EGL device for it; with LB_REQUIRE_GPU=1 it fails instead.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "lightbench/algorithms.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/engines/select_backend.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/gl/gl_texture_surface.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "lightbench/runners.hpp"
#include "skip.hpp"

namespace {

lb::ImageU8 reference(const lb::GeneratedScene& s, const lb::RenderParams& p) {
  return lb::render_cpu(lb::to_rgba(s.raw), lb::build_render_tables(s.params.grid, p, s.raw.width,
                                                                    s.raw.height));
}

}  // namespace

TEST_CASE("CUDA backend writes a registered GL texture; equals the CPU reference") {
  lb::BackendChoice choice = lb::select_backend(lb::BackendRequest::Cuda);
  REQUIRE(choice.backend);
  REQUIRE(choice.backend->kind() == lb::BackendKind::Cuda);
  MESSAGE("backend: " << choice.reason);
  lb::PlenopticEngine& cuda = *choice.backend;

  for (const char* preset : {"tiny", "small"}) {
    const lb::GeneratedScene scene = lb::generate_scene(lb::generator_preset(preset, 3));
    cuda.set_raw(scene.raw);
    lb::gl::GlTextureSurface surf;
    const lb::PlenopticGrid& g = scene.params.grid;
    struct Case {
      int patch, lim;
      float vx, vy;
    };
    // Patch sizes change the texture size: each change re-registers the texture.
    const Case cases[] = {{11, 2, 0, 0}, {7, 1, 3.5f, -2}, {14, 3, -4, 1.25f}, {11, 2, 0, 0}};
    for (const Case& k : cases) {
      lb::RenderParams p = lb::default_render_params(g);
      p.patch = k.patch;
      p.lim = k.lim;
      p.view_x = k.vx;
      p.view_y = k.vy;
      const lb::ImageU8 want = reference(scene, p);
      for (lb::RenderVariant v : lb::all_render_variants()) {
        lb::RenderConfig cfg;
        cfg.variant = v;
        cuda.render(g, p, cfg, surf);
        cuda.synchronize();
        INFO(preset << " patch " << k.patch << " lim " << k.lim << " view " << k.vx << ","
                    << k.vy << " variant " << lb::to_string(v) << ": " << surf.transport());
        CHECK(surf.last_write_was_interop());
        CHECK(surf.transport() == "CUDA-GL interop");
        const lb::ImageU8 got = surf.texture().read_rgba();
        REQUIRE(got.same_shape(want));
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < got.data.size(); ++i) mismatches += got.data[i] != want.data[i];
        CHECK(mismatches == 0);
      }
    }
  }
}

TEST_CASE("depth (R32F) and all-in-focus (RGBA8) through interop equal the CPU reference") {
  // The viewer's plenoptic depth and all-in-focus panes on CUDA: depth() into a registered
  // R32F texture, then render_all_in_focus() from the depth map kept on the device.
  lb::BackendChoice choice = lb::select_backend(lb::BackendRequest::Cuda);
  lb::PlenopticEngine& cuda = *choice.backend;
  const lb::GeneratedScene scene = lb::generate_scene(lb::generator_preset("small", 2));
  const lb::PlenopticGrid& g = scene.params.grid;
  cuda.set_raw(scene.raw);
  const lb::ImageU8 rgba = lb::to_rgba(scene.raw);
  lb::gl::GlTextureSurface depth_tex(lb::SurfaceFormat::R32F), aif_tex(lb::SurfaceFormat::RGBA8);
  for (int window : {1, 3}) {
    lb::DepthParams d = lb::default_depth_params(g);
    d.window = window;
    lb::RenderParams r = lb::default_render_params(g);
    r.patch = d.patch;
    r.lim = d.lim;
    const lb::ImageF want_depth =
        lb::depth_cpu(rgba, lb::build_depth_tables(g, d, scene.raw.width, scene.raw.height));
    const lb::ImageU8 want_aif = lb::render_all_in_focus(rgba, g, r, want_depth, d.patch);
    for (lb::RenderVariant v : lb::all_render_variants()) {
      INFO("window " << window << " variant " << lb::to_string(v));
      cuda.depth(g, d, lb::DepthConfig{v}, depth_tex);
      cuda.render_all_in_focus(g, r, d, aif_tex);
      cuda.synchronize();
      CHECK(depth_tex.last_write_was_interop());
      CHECK(aif_tex.last_write_was_interop());
      CHECK(depth_tex.texture().read_scalar().data == want_depth.data);
      CHECK(aif_tex.texture().read_rgba().data == want_aif.data);
    }
  }
}

TEST_CASE("interop switched off falls back to host upload with the same result") {
  lb::BackendChoice choice = lb::select_backend(lb::BackendRequest::Cuda);
  const lb::GeneratedScene scene = lb::generate_scene(lb::generator_preset("tiny", 5));
  choice.backend->set_raw(scene.raw);
  lb::gl::GlTextureSurface surf;
  surf.set_interop_enabled(false);
  const lb::RenderParams p = lb::default_render_params(scene.params.grid);
  choice.backend->render(scene.params.grid, p, {}, surf);
  choice.backend->synchronize();
  CHECK_FALSE(surf.last_write_was_interop());
  CHECK(surf.transport().find("host upload") == 0);
  CHECK(surf.texture().read_rgba().data == reference(scene, p).data);
}

namespace {

struct OutputCase {
  const char* algorithm;
  const char* output;
  const char* variant;
  lb::ParamValues params;
  // Largest allowed |CUDA - CPU| per value (0: bit-identical) and share of values that may
  // exceed it (CAE: float vs the double reference, documented in cae_cuda.hpp).
  double tol = 0.0;
  double max_share = 0.0;
  bool relative = false;  // tol is relative to the reference map's largest |value|
};

std::shared_ptr<const lb::AlgorithmData> data_for(const std::string& algorithm) {
  if (algorithm == "plenoptic") {
    auto d = std::make_shared<lb::PlenopticData>();
    d->scene = lb::to_scene(lb::generate_scene(lb::generator_preset("small", 4)), "interop test");
    return d;
  }
  if (algorithm == "plenoptic-hex") {  // hexagonal, three lens types (issue 22)
    auto d = std::make_shared<lb::PlenopticData>();
    d->scene = lb::to_scene(lb::generate_hex_scene(lb::hex_generator_preset("hex-small")), "interop test");
    return d;
  }
  if (algorithm == "lightfield") {
    auto d = std::make_shared<lb::LightFieldData>();
    d->lf = lb::synthetic_two_plane_lightfield(97, 61, 5, 5, -1.0f, 1.3f, 7, 2);
    return d;
  }
  if (algorithm == "mad") {
    auto d = std::make_shared<lb::ImagePairData>();
    const lb::GeneratedScene s = lb::generate_scene(lb::generator_preset("tiny", 2));
    const lb::RenderParams p = lb::default_render_params(s.params.grid);
    d->reference = lb::to_rgb(lb::render_cpu(lb::to_rgba(s.raw), lb::build_render_tables(s.params.grid, p,
                                                                                      s.raw.width, s.raw.height)));
    d->distorted = d->reference;
    for (std::size_t i = 0; i < d->distorted.data.size(); i += 7) d->distorted.data[i] ^= 0x15;
    return d;
  }
  auto d = std::make_shared<lb::StereoData>();  // a textured plane at disparity 3, odd size
  const int w = 131, h = 77;
  d->pair.left = lb::ImageU8(w, h, 3);
  d->pair.right = lb::ImageU8(w, h, 3);
  std::uint32_t x = 12345;
  std::vector<std::uint8_t> tex(static_cast<std::size_t>(w + 8) * h * 3);
  for (auto& b : tex) b = static_cast<std::uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
  for (int yy = 0; yy < h; ++yy)
    for (int xx = 0; xx < w; ++xx)
      for (int c = 0; c < 3; ++c) {
        d->pair.left.at(xx, yy, c) = tex[(static_cast<std::size_t>(yy) * (w + 8) + xx + 3) * 3 + c];
        d->pair.right.at(xx, yy, c) = tex[(static_cast<std::size_t>(yy) * (w + 8) + xx) * 3 + c];
      }
  d->gt.disparity = lb::ImageF(w, h, 1, 3.0f);
  return d;
}

// The CPU runner's output (host) vs the CUDA runner's output written into a registered GL
// texture, read back through GL.
void compare_through_interop(const OutputCase& c) {
  const lb::AlgorithmRegistry& reg = lb::builtin_registry();
  const lb::AlgorithmSpec& spec = reg.get(c.algorithm);
  const lb::OutputInfo* info = spec.output(c.output);
  REQUIRE(info != nullptr);
  const auto data = data_for(c.algorithm);
  auto cpu = reg.make_runner(c.algorithm, lb::BackendKind::Cpu);
  auto cuda = reg.make_runner(c.algorithm, lb::BackendKind::Cuda);
  cpu->set_data(data);
  cuda->set_data(data);
  lb::HostSurface want(info->format);
  cpu->run(c.params, c.variant, c.output, want);
  lb::gl::GlTextureSurface tex(info->format);
  cuda->run(c.params, c.variant, c.output, tex);
  cuda->synchronize();
  // plenoptic's auto: the depth from the Original (its fastest), the view from Tiled.
  if (std::string(c.algorithm) == "plenoptic" && std::string(c.variant) == "auto")
    CHECK(cuda->timings().stats(std::string(c.output) == "view" ? "render/tiled" : "depth/original").count >= 1);
  const std::string name = std::string(c.algorithm) + " / " + c.output + " / " + c.variant;
  INFO(name << ": " << tex.transport());
  CHECK(tex.last_write_was_interop());
  CHECK(tex.transport() == "CUDA-GL interop");
  std::size_t n = 0, over = 0;
  double worst = 0;
  if (info->format == lb::SurfaceFormat::RGBA8) {
    const lb::ImageU8 got = tex.texture().read_rgba();
    REQUIRE(got.same_shape(want.rgba()));
    n = got.data.size();
    for (std::size_t i = 0; i < n; ++i) {
      const double d = std::abs(static_cast<double>(got.data[i]) - want.rgba().data[i]);
      worst = std::max(worst, d);
      over += d > c.tol;
    }
  } else {
    const lb::ImageF got = tex.texture().read_scalar();
    REQUIRE(got.same_shape(want.scalar()));
    n = got.data.size();
    double scale = 1.0;
    if (c.relative) {
      scale = 0.0;
      for (float v : want.scalar().data) scale = std::max(scale, std::abs(static_cast<double>(v)));
    }
    const double tol = c.tol * scale;
    for (std::size_t i = 0; i < n; ++i) {
      const float a = got.data[i], b = want.scalar().data[i];
      const double d = (std::isnan(a) && std::isnan(b)) ? 0.0 : std::abs(static_cast<double>(a) - b);
      worst = std::max(worst, std::isnan(d) ? 1e30 : d);
      over += !(d <= tol);
    }
  }
  MESSAGE(name << ": " << over << " of " << n
                      << " values beyond " << c.tol << ", worst " << worst);
  CHECK(static_cast<double>(over) <= c.max_share * static_cast<double>(n));
  // Scores computed where the output is (device) equal the CPU runner's.
  const nlohmann::json a = cpu->scores(), b = cuda->scores();
  for (const char* key : {"exact_pct", "badpix_007", "bad1_all", "bad1_nonocc"})
    if (a.contains(key) && b.contains(key) && c.tol == 0.0) CHECK(a.at(key).get<double>() == b.at(key).get<double>());
}

}  // namespace

TEST_CASE("every algorithm's CUDA outputs reach a registered GL texture and equal the CPU runner's") {
  const lb::ParamValues lf{{"views", 5}, {"labels", 33}, {"dmin", -1.6}, {"dmax", 1.9}, {"u", 1}, {"v", 3},
                           {"refocus", 1.3}, {"aperture", 2}};
  const lb::ParamValues bp{{"ndisp", 16}, {"levels", 3}, {"iterations", 4}};
  const lb::ParamValues local{{"ndisp", 16}, {"radius", 5}};
  const OutputCase cases[] = {
      {"plenoptic", "view", "nosync", {}},
      {"plenoptic", "depth", "sync", {}},
      {"plenoptic", "aif", "original", {}},
      {"plenoptic", "error", "nosync", {}},
      {"plenoptic", "depth", "auto", {}},
      {"plenoptic", "view", "auto", {}},
      // General grid at the truth's M = 8 (the depth is scored on both sides).
      {"plenoptic-hex", "view", "original", {}},
      {"plenoptic-hex", "depth", "original", {{"patch", 8}, {"window", 3}}},
      {"plenoptic-hex", "aif", "original", {{"patch", 8}}},
      {"plenoptic-hex", "error", "original", {{"patch", 8}}},
      {"lightfield", "view", "exact", lf},
      {"lightfield", "refocus", "exact", lf},
      // CAE in float on the GPU vs the double reference: a few labels may differ (cae_cuda.hpp).
      {"lightfield", "depth", "exact", lf, 1e-6, 0.02},
      {"lightfield", "error", "binned", lf, 1e-6, 0.02},
      {"stereo-bp", "disparity", "registers", bp},
      {"stereo-bp", "error", "local", bp},
      {"stereo-local", "disparity", "fused", local},
      {"stereo-local", "error", "phase2", local},
      // MAD in float (cuFFT) vs double (FFTW): within 1e-3 of the map's largest value.
      {"mad", "hi", "fused", {}, 1e-3, 0.001, true},
      {"mad", "lo", "shared_nc", {}, 1e-3, 0.001, true},
  };
  for (const auto& c : cases) compare_through_interop(c);
}

int main(int argc, char** argv) {
  const bool require = lb::test::gpu_required();
  std::string why;
  if (!lb::cuda_available(&why)) return lb::test::skip("no CUDA device: " + why, require);
  const lb::cuda::DeviceInfo info = lb::cuda::device_info(0);
  lb::gl::HeadlessContext::Options opt;
  opt.cuda_device = info.index;
  opt.require_cuda_device = true;
  auto ctx = lb::gl::HeadlessContext::create(opt, &why);
  if (!ctx) return lb::test::skip("no EGL device for the CUDA GPU: " + why, require);
  std::printf("CUDA: %s\nGL: %s\n", info.describe().c_str(), ctx->description().c_str());
  doctest::Context dc;
  dc.applyCommandLine(argc, argv);
  return dc.run();
}
