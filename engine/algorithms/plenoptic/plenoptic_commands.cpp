// The plenoptic module's documented CLI commands: render and depth, with the Original kernel's
// switches and --view as legacy aliases
// (AlgorithmSpec::commands; the CLI generates the subcommands, docs/CLI.md documents them).
#include "lightbench/cli_commands.hpp"

namespace lb {
namespace {
const char* const kImageExts = "(.png .jpg .bmp .ppm)";

// `--view SX,SY`: render, depth (the all-in-focus render's shift).
ParamAlias view_pair() { return {"--view", {"view_x", "view_y"}, "perspective shift sx,sy in raw pixels", {}, ""}; }
}  // namespace

std::vector<CommandDef> plenoptic_commands() {
  std::vector<CommandDef> v;
  {
    CommandDef c;
    c.name = "render";
    c.help = "render a view from a focused-plenoptic raw";
    c.methods = {{"", "plenoptic", ""}};
    c.primary = "view";
    c.aliases = {view_pair(),
                 {"--rgb-input", {"rgba_input"}, "Original: read packed 3-byte RGB, not RGBA8", 0.0, ""},
                 {"--byte-stores", {"vector_store"}, "Original: one store per channel, not one 4-byte store", 0.0, ""},
                 {"--divide", {"reciprocal"}, "Original: integer division, not the reciprocal multiply", 0.0, ""},
                 {"--sync-at-end", {"sync_at_end"}, "Original: barrier at the end of each neighbour loop", 1.0, ""}};
    c.outputs = {{{"--out"}, "view", std::string("output image ") + kImageExts + "; with --views: a folder", true, {}, ""}};
    c.view_grid = true;
    c.general_grid_algorithm = "plenoptic-hex";
    c.json_groups = {{"render", {"patch", "view_x", "view_y", "lim", "sigma", "rings", "lens_types"}},
                     {"original_switches", {"rgba_input", "vector_store", "reciprocal", "sync_at_end"}}};
    v.push_back(c);
  }

  {
    CommandDef c;
    c.name = "depth";
    c.help = "depth map of a focused-plenoptic raw by SAD over patch sizes";
    c.methods = {{"", "plenoptic", ""}};
    c.primary = "depth";
    c.aliases = {view_pair()};
    c.outputs = {{{"--out"}, "depth", "depth map: .pfm (patch size per pixel) or .png/.jpg/.bmp/.ppm (colour-mapped)",
                  true, {}, ""},
                 {{"--aif", "--all-in-focus"}, "aif",
                  std::string("also the all-in-focus render, each pixel at its own patch size ") + kImageExts, false,
                  {}, "all_in_focus"}};
    c.general_grid_algorithm = "plenoptic-hex";
    c.json_groups = {{"depth", {"patch", "pmin", "pmax", "lim", "window", "aperture", "rings", "lens_types", "truncate"}}};
    c.png = {{"depth", "pmin", "pmax", 0.0, true}};
    v.push_back(c);
  }
  return v;
}

}  // namespace lb
