// lightbench-cli generate: a synthetic focused-plenoptic raw with exact ground truth, from a
// bundled preset (assets/plenoptic/<name>.json, or assets/plenoptic_hex/<name>.json for a
// hexagonal multi-focus grid; embedded; --assets DIR or LB_ASSETS_DIR overrides or adds files).
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli_common.hpp"
#include "lightbench/memory_budget.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/scene_file.hpp"

namespace lb::cli {
namespace {

// "tiny | small | seed" from the embedded presets (an override directory is read at run time).
std::string preset_list() {
  std::string s;
  try {
    for (const auto& n : generator_presets()) s += (s.empty() ? "" : " | ") + n;
    for (const auto& n : general_grid_presets()) s += " | " + n;
  } catch (const Error&) {
    s = "a plenoptic asset name";  // a broken LB_ASSETS_DIR is reported when the command runs
  }
  return s;
}

// A hexagonal (general-grid) preset: assets/plenoptic_hex/<name>.json; scene.json holds "mla".
void generate_hex(const std::string& preset, const std::string& out, const std::string& json,
                  std::optional<std::uint64_t> seed, std::optional<int> truth_patch) {
  HexGeneratorParams params = hex_generator_preset(preset, seed);
  if (truth_patch) params.preview_patch = *truth_patch;
  // The RGB raw, its PNG encoding, and the truth and sharp maps (at most 4 raw pixels each).
  check_host_memory("generate", static_cast<std::uint64_t>(params.width) * params.height * 8 * 4);
  progress("generate: " + preset + " ...");
  const HexScene scene = generate_hex_scene(params);
  const std::string path = save_scene(out, scene);
  progress_done();
  std::printf("generated %s: raw %dx%d, %s grid, diameter %g, %zu lens types, truth %dx%d at M=%d -> %s\n",
              preset.c_str(), scene.raw.width, scene.raw.height, to_string(params.mla.kind), params.mla.diameter,
              params.mla.types.size(), scene.truth.width, scene.truth.height, params.preview_patch, path.c_str());
  if (!json.empty()) {
    Report r("generate");
    r.root()["parameters"] = {{"preset", preset}, {"seed", params.seed}, {"truth_patch", params.preview_patch},
                              {"mla", mla_to_json(params.mla)}};
    r.add_output("scene", path, 0, 0);
    r.add_output("raw", out + "/raw.png", scene.raw.width, scene.raw.height);
    r.add_output("truth", out + "/truth.pfm", scene.truth.width, scene.truth.height);
    r.add_output("sharp", out + "/sharp.png", scene.sharp.width, scene.sharp.height);
    r.write(json);
  }
}

}  // namespace

Action add_generate(CLI::App& app) {
  struct Opts {
    std::string preset = "small", out, json, assets;
    std::uint64_t seed = 1;
    int truth_patch = 11;
    CLI::Option *seed_opt = nullptr, *truth_opt = nullptr;  // given on the command line?
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--preset", o->preset, preset_list() + " (seed: the seed paper's 96x72 workload)")
      ->capture_default_str();
  o->seed_opt = app.add_option("--seed", o->seed, "random seed (same seed, same bytes; default: the preset's, 1)")
                    ->check(uint64_any());
  o->truth_opt = app.add_option("--truth-patch", o->truth_patch,
                 "output patch size M of the ground-truth map (default: the preset's, 11)")
                    ->check(int_in(1, kMaxPatch));
  app.add_option("--assets", o->assets, "directory whose plenoptic/NAME.json files replace or add presets");
  app.add_option("--out", o->out, "output directory (raw.png, truth.pfm, scene.json)")->required();
  app.add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (!o->assets.empty()) set_assets_dir(o->assets);
    if (is_hex_preset(o->preset)) {
      generate_hex(o->preset, o->out, o->json, o->seed_opt->count() ? std::optional(o->seed) : std::nullopt,
                   o->truth_opt->count() ? std::optional(o->truth_patch) : std::nullopt);
      return;
    }
    // Absent options keep the preset file's values.
    GeneratorParams params = generator_preset(o->preset);
    if (o->seed_opt->count()) params.seed = o->seed;
    if (o->truth_opt->count()) params.preview_patch = o->truth_patch;
    {
      // The RGB raw, its PNG encoding and the float truth map (memory_budget.hpp).
      const PlenopticGrid& g = params.grid;
      const double raw = std::ceil(g.ox + g.nx * g.pitch) * std::ceil(g.oy + g.ny * g.pitch);
      const double truth = double(g.nx) * g.ny * params.preview_patch * params.preview_patch;
      if (raw >= 0 && truth >= 0 && raw * 8 + truth * 8 < 1.8e19)
        check_host_memory("generate", static_cast<std::uint64_t>(raw * 8 + truth * 8));
    }
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
      r.root()["parameters"] = {{"preset", o->preset}, {"seed", params.seed},
                                {"truth_patch", params.preview_patch}, {"grid", to_json(params.grid)}};
      r.add_output("scene", path, 0, 0);
      r.add_output("raw", o->out + "/raw.png", scene.raw.width, scene.raw.height);
      r.add_output("truth", o->out + "/truth.pfm", scene.truth.width, scene.truth.height);
      r.write(o->json);
    }
  };
}

}  // namespace lb::cli
