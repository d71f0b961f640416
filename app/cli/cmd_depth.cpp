// lightbench-cli depth: depth map of a focused-plenoptic raw by SAD over candidate patch
// sizes (CPU reference or a CUDA variant), optionally an all-in-focus render, and the score
// against the generator's ground truth when the scene has one.
#include <cstdio>

#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/depth_math.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_depth.hpp"
#include "lightbench/cuda_api.hpp"
#include "plenoptic_options.hpp"

namespace lb::cli {

namespace {
bool is_8bit_image(const std::string& ext) {
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".ppm";
}
}  // namespace

Action add_depth(CLI::App& app) {
  struct Opts {
    PlenopticOptions in;
    std::string backend = "auto", variant = "nosync", out, aif, json;
    int pmin = -1, pmax = -1, window = 1, repeat = 1;
    float aperture = DepthParams{}.aperture;
  };
  auto o = std::make_shared<Opts>();
  o->in.add_input(app);
  o->in.add_render(app);  // --patch M (output grid), --lim; --view/--sigma: the all-in-focus render
  app.add_option("--pmin", o->pmin, "smallest candidate patch size (default 7)")->check(int_in(1, kMaxPatch));
  app.add_option("--pmax", o->pmax, "largest candidate patch size (default 14)")->check(int_in(1, kMaxPatch));
  app.add_option("--window", o->window, "k x k box aggregation of the costs (odd, 1: none)")
      ->capture_default_str()->check(int_in(1, kMaxDepthWindow));
  app.add_option("--aperture", o->aperture, "samples count within aperture * D/2 of their micro-image centre")
      ->capture_default_str()->check(real_in(0.1, 1.5));
  app.add_option("--backend", o->backend, "auto | cpu | cuda (auto: CUDA when usable)")
      ->capture_default_str();
  app.add_option("--variant", o->variant, "original | sync | nosync (CUDA kernels)")
      ->capture_default_str();
  app.add_option("--repeat", o->repeat, "run this many times (timings: median)")->capture_default_str()->check(int_in(1, 100000));
  app.add_option("--out", o->out, "depth map: .pfm (chosen patch size per pixel) or .png/.jpg/.bmp/.ppm "
                                  "(colour-mapped pmin..pmax)")->required();
  app.add_option("--aif,--all-in-focus", o->aif,
                 "also write the all-in-focus render, each pixel at its own patch size (.png .jpg .bmp .ppm; "
                 "computed by the same backend as the depth map)");
  app.add_option("--json", o->json, "write a JSON report (with exact_pct and mae when the scene has ground truth)");
  return [o] {
    if (o->repeat < 1 || o->repeat > 100000) throw Error("--repeat must be in 1..100000");
    const std::string ext = file_extension(o->out);
    if (ext != ".pfm" && !is_8bit_image(ext))
      throw Error("--out '" + o->out + "': use .pfm, .png, .jpg, .bmp or .ppm");
    if (!o->aif.empty() && !is_8bit_image(file_extension(o->aif)))
      throw Error("--aif '" + o->aif + "': use .png, .jpg, .bmp or .ppm");
    DepthConfig config;
    config.variant = parse_render_variant(o->variant);
    BackendChoice choice = select_backend(parse_backend_request(o->backend));

    // A preset is generated here with its ground truth at the requested output patch size.
    PlenopticScene scene;
    if (!o->in.preset.empty() && o->in.raw.empty() && o->in.scene.empty()) {
      GeneratorParams gp = generator_preset(o->in.preset, o->in.seed);
      gp.preview_patch = o->in.patch != -1 ? o->in.patch : default_depth_params(gp.grid).patch;
      if (gp.preview_patch < 1 || gp.preview_patch > kMaxPatch)
        throw Error("output patch size M=" + std::to_string(gp.preview_patch) + " out of range");
      scene = to_scene(generate_scene(gp), "preset " + o->in.preset);
      validate(scene.grid, scene.raw.width, scene.raw.height);
    } else {
      scene = o->in.load();
    }
    DepthParams params = default_depth_params(scene.grid);
    if (o->in.patch != -1) params.patch = o->in.patch;
    if (o->in.lim != -1) params.lim = o->in.lim;
    if (o->pmin != -1) params.pmin = o->pmin;
    if (o->pmax != -1) params.pmax = o->pmax;
    params.window = o->window;
    params.aperture = o->aperture;
    validate(params, scene.grid);
    {
      const std::uint64_t need =
          depth_host_bytes(params, scene.grid, scene.raw.width, scene.raw.height, scene.raw.channels);
      check_memory("depth", need, need, choice.backend->kind() == BackendKind::Cuda);
    }

    choice.backend->set_raw(scene.raw);
    HostSurface surface(SurfaceFormat::R32F);
    for (int k = 0; k < o->repeat; ++k) {
      if (o->repeat > 1) progress("depth " + std::to_string(k + 1) + "/" + std::to_string(o->repeat));
      choice.backend->depth(scene.grid, params, config, surface);
    }
    choice.backend->synchronize();
    progress_done();
    const ImageF& depth = surface.scalar();
    if (ext == ".pfm") save_pfm(o->out, depth);
    else save_image(o->out, to_rgb(colorize_depth(depth, params.pmin, params.pmax)));
    ImageU8 aif;
    RenderParams rp;
    if (!o->aif.empty()) {
      rp = o->in.render_params(scene.grid);  // view, lim, sigma (its patch is ignored)
      rp.lim = params.lim;
      // On the backend that made the map (CUDA: from the map still on the device).
      HostSurface aif_surface(SurfaceFormat::RGBA8);
      choice.backend->render_all_in_focus(scene.grid, rp, params, aif_surface);
      choice.backend->synchronize();
      aif = aif_surface.rgba();
      save_image(o->aif, to_rgb(aif));
    }
    const bool scored = !scene.truth.empty() && scene.truth_patch == params.patch;
    DepthScore score;
    if (scored) score = score_depth(depth, scene.truth);
    std::printf("depth %dx%d (M=%d, P=%d..%d, lim %d, window %d) on %s [%s] -> %s", depth.width,
                depth.height, params.patch, params.pmin, params.pmax, params.lim, params.window,
                choice.backend->device_name().c_str(),
                choice.backend->kind() == BackendKind::Cuda ? to_string(config.variant) : "reference",
                o->out.c_str());
    if (scored) std::printf(" (ground truth: %.2f %% exact, MAE %.4f)", score.exact_pct, score.mae);
    std::printf("\n");
    if (!o->json.empty()) {
      Report r("depth");
      r.root()["parameters"] = {{"source", scene.source},
                                {"grid", to_json(scene.grid)},
                                {"depth", {{"patch", params.patch}, {"pmin", params.pmin},
                                           {"pmax", params.pmax}, {"lim", params.lim},
                                           {"window", params.window}, {"aperture", params.aperture}}},
                                {"variant", to_string(config.variant)},
                                {"repeat", o->repeat}};
      r.set_backend(*choice.backend, choice.reason);
      r.add_output("depth", o->out, depth.width, depth.height);
      if (!o->aif.empty()) {
        r.add_output("all_in_focus", o->aif, aif.width, aif.height);
        r.root()["parameters"]["all_in_focus"] = to_json(rp);
      }
      r.add_timings(choice.backend->timings());
      if (scored) {
        r.root()["exact_pct"] = score.exact_pct;
        r.root()["mae"] = score.mae;
        r.root()["scored_pixels"] = score.pixels;
      } else {
        r.root()["ground_truth"] = scene.truth.empty()
                                       ? "none"
                                       : "truth at M=" + std::to_string(scene.truth_patch) +
                                             " does not match the output patch size";
      }
      r.write(o->json);
    }
  };
}

}  // namespace lb::cli
