// CUDA-GL interop: a headless EGL context on the CUDA backend's GPU, a GlTextureSurface
// registered with CUDA (SurfaceLoadStore), every render variant written by the CUDA backend
// straight into the texture, read back with glGetTexImage and compared with lb::render_cpu
// bit for bit; also across resizes (re-registration). Skips (exit 77) without a CUDA device
// or an EGL device for it; with LB_REQUIRE_GPU=1 it fails instead.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <memory>

#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/gl/gl_texture_surface.hpp"
#include "lightbench/plenoptic_depth.hpp"
#include "lightbench/render_cpu.hpp"
#include "lightbench/render_tables.hpp"
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
  lb::ComputeBackend& cuda = *choice.backend;

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
  lb::ComputeBackend& cuda = *choice.backend;
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
