// lightbench-cli render: one view of a focused-plenoptic raw on the chosen backend.
#include <cstdio>

#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_depth.hpp"
#include "plenoptic_options.hpp"

namespace lb::cli {

Action add_render(CLI::App& app) {
  struct Opts {
    PlenopticOptions in;
    std::string backend = "auto", variant = "nosync", out, json;
    int repeat = 1;
    bool rgb_input = false, byte_stores = false, divide = false, sync_at_end = false;
  };
  auto o = std::make_shared<Opts>();
  o->in.add_input(app);
  o->in.add_render(app);
  app.add_option("--backend", o->backend, "auto | cpu | cuda (auto: CUDA when usable)")
      ->capture_default_str();
  app.add_option("--variant", o->variant, "original | sync | nosync (CUDA kernels)")
      ->capture_default_str();
  app.add_flag("--rgb-input", o->rgb_input, "Original: read packed 3-byte RGB, not RGBA8");
  app.add_flag("--byte-stores", o->byte_stores, "Original: one store per channel, not one 4-byte store");
  app.add_flag("--divide", o->divide, "Original: integer division, not the reciprocal multiply");
  app.add_flag("--sync-at-end", o->sync_at_end, "Original: barrier at the end of each neighbour loop");
  app.add_option("--repeat", o->repeat, "render this many times (timings: median)")
      ->capture_default_str()->check(int_in(1, 100000));
  app.add_option("--out", o->out, "output image (.png .jpg .bmp .ppm)")->required();
  app.add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->repeat < 1 || o->repeat > 100000) throw Error("--repeat must be in 1..100000");
    // Check the output's extension before any work, so a typo costs nothing.
    const std::string ext = file_extension(o->out);
    if (ext != ".png" && ext != ".jpg" && ext != ".jpeg" && ext != ".bmp" && ext != ".ppm")
      throw Error("--out '" + o->out + "': use .png, .jpg, .bmp or .ppm");
    RenderConfig config;
    config.variant = parse_render_variant(o->variant);
    config.original = {!o->rgb_input, !o->byte_stores, !o->divide, o->sync_at_end};
    BackendChoice choice = select_backend(parse_backend_request(o->backend));
    const PlenopticScene scene = o->in.load();
    const RenderParams params = o->in.render_params(scene.grid);
    {
      const std::uint64_t need =
          render_host_bytes(scene.grid, params.patch, scene.raw.width, scene.raw.height, scene.raw.channels);
      check_memory("render", need, need, choice.backend->kind() == BackendKind::Cuda);
    }
    choice.backend->set_raw(scene.raw);
    HostSurface surface;
    for (int k = 0; k < o->repeat; ++k) {
      if (o->repeat > 1) progress("render " + std::to_string(k + 1) + "/" + std::to_string(o->repeat));
      choice.backend->render(scene.grid, params, config, surface);
    }
    choice.backend->synchronize();
    progress_done();
    save_image(o->out, to_rgb(surface.rgba()));
    std::printf("rendered %dx%d (M=%d, view %g,%g, lim %d) on %s [%s] -> %s\n", surface.width(),
                surface.height(), params.patch, params.view_x, params.view_y, params.lim,
                choice.backend->device_name().c_str(),
                choice.backend->kind() == BackendKind::Cuda ? to_string(config.variant) : "reference",
                o->out.c_str());
    if (!o->json.empty()) {
      Report r("render");
      r.root()["parameters"] = {{"source", scene.source}, {"grid", to_json(scene.grid)},
                                {"render", to_json(params)}, {"variant", to_string(config.variant)},
                                {"original_switches", {{"rgba_input", config.original.rgba_input},
                                                       {"vector_store", config.original.vector_store},
                                                       {"reciprocal", config.original.reciprocal},
                                                       {"sync_at_end", config.original.sync_at_end}}},
                                {"repeat", o->repeat}};
      r.set_backend(*choice.backend, choice.reason);
      r.add_output("view", o->out, surface.width(), surface.height());
      r.add_timings(choice.backend->timings());
      r.write(o->json);
    }
  };
}

}  // namespace lb::cli
