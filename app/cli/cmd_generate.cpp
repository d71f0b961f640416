// lightbench-cli generate: a synthetic focused-plenoptic raw with exact ground truth.
#include <cstdio>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/scene_file.hpp"

namespace lb::cli {

Action add_generate(CLI::App& app) {
  struct Opts {
    std::string preset = "small", out, json;
    std::uint64_t seed = 1;
    int truth_patch = 11;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--preset", o->preset, "tiny | small | seed (the seed paper's 96x72 workload)")
      ->capture_default_str();
  app.add_option("--seed", o->seed, "random seed (same seed, same bytes)")->capture_default_str();
  app.add_option("--truth-patch", o->truth_patch, "output patch size M of the ground-truth map")
      ->capture_default_str();
  app.add_option("--out", o->out, "output directory (raw.png, truth.pfm, scene.json)")->required();
  app.add_option("--json", o->json, "write a JSON report");
  return [o] {
    GeneratorParams params = generator_preset(o->preset, o->seed);
    params.preview_patch = o->truth_patch;
    progress("generate: " + o->preset + " ...");
    GeneratedScene scene = generate_scene(params);
    const std::string path = save_scene(o->out, scene);
    progress_done();
    std::printf("generated %s: raw %dx%d, grid %dx%d, pitch %g, truth %dx%d at M=%d -> %s\n",
                o->preset.c_str(), scene.raw.width, scene.raw.height, params.grid.nx,
                params.grid.ny, params.grid.pitch, scene.truth.width, scene.truth.height,
                params.preview_patch, path.c_str());
    if (!o->json.empty()) {
      Report r("generate");
      r.root()["parameters"] = {{"preset", o->preset}, {"seed", o->seed},
                                {"truth_patch", o->truth_patch}, {"grid", to_json(params.grid)}};
      r.add_output("scene", path, 0, 0);
      r.add_output("raw", o->out + "/raw.png", scene.raw.width, scene.raw.height);
      r.add_output("truth", o->out + "/truth.pfm", scene.truth.width, scene.truth.height);
      r.write(o->json);
    }
  };
}

}  // namespace lb::cli
