// The documented commands as rows: which algorithm, which output --out names, and the
// legacy flags kept as aliases (docs/CLI.md, "aliases"). Nothing here computes or parses.
#include "command_defs.hpp"

namespace lb::cli {

namespace {
const char* const kImageExts = "(.png .jpg .bmp .ppm)";

// `--view SX,SY`: render, depth (the all-in-focus render's shift).
ParamAlias view_pair() { return {"--view", {"view_x", "view_y"}, "perspective shift sx,sy in raw pixels", {}, ""}; }
}  // namespace

std::vector<CommandDef> legacy_commands() {
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
  {
    CommandDef c;
    c.name = "lfdepth";
    c.help = "depth of a 4D light field (views folder) by constrained angular entropy";
    c.methods = {{"cae", "lightfield", "coalesced"}, {"binned", "lightfield", "binned"}, {"exact", "lightfield", "exact"}};
    c.default_method = "cae";
    c.method_help = "CAE method: cae | binned | exact (each a family of --variant)";
    c.primary = "depth";
    c.primary_if_param = "refine_mode";
    c.primary_if_output = "refined";
    c.aliases = {{"--drange", {"dmin", "dmax"}, "disparity range MIN,MAX (px)", {}, ""},
                 {"--normalized-log", {"normalized_log"}, "entropy with log(g/|g|) instead of the spec's log(g)", 1.0,
                  ""},
                 {"--refine", {"refine_mode"},
                  "refinement after the cost: none (the raw WTA map) | filter | subpixel (default) | full", {}, "none"},
                 {"--fusion", {"fusion_confidence"}, "how the defocus cost joins the CAE cost: confidence | fixed", {},
                  ""},
                 {"--subpixel-fit", {"subpixel_wide"}, "sub-pixel fit: lsq5 | parabola", {}, ""},
                 {"--sgm", {"semi_global"}, "semi-global aggregation before the WTA: on | off", {}, ""},
                 {"--sgm-data", {"sgm_weighted"}, "semi-global data term: weighted | plain", {}, ""},
                 {"--gf-guide", {"gf_color"}, "guide of the filter and the median: rgb | gray", {}, ""}};
    c.outputs = {{{"--out"}, "", "disparity map (.pfm): the refined one (the raw WTA map with --refine none)", true,
                  {}, "disparity"},
                 {{"--raw-out"}, "depth", "the unrefined (exact WTA) map as well (.pfm)", false, {}, "raw_disparity"},
                 {{"--confidence"}, "confidence", "refinement confidence in [0, 1] (.pfm)", false, {}, ""}};
    // The documented keys of "refine": the parameters under their legacy names, the backend,
    // and each step's time (the runner's timing rows).
    c.json_groups = {{"/refine",
                      {"mode=refine_mode", "backend=$backend", "defocus_weight", "defocus_radius",
                       "fusion=fusion_confidence", "subpixel_fit=subpixel_wide", "defocus_filter_radius",
                       "sgm=semi_global", "sgm_data=sgm_weighted", "sgm_p1", "sgm_p2", "sgm_edge",
                       "gf_guide=gf_color", "gf_radius", "gf_eps", "median_radius", "median_sigma",
                       "median_iterations", "defocus_ms=@lfdepth/refine/defocus cost",
                       "normalize_ms=@lfdepth/refine/normalize", "filter_ms=@lfdepth/refine/guided filter",
                       "fuse_ms=@lfdepth/refine/fuse", "aggregate_ms=@lfdepth/refine/semi-global",
                       "wta_ms=@lfdepth/refine/wta + subpixel", "median_ms=@lfdepth/refine/weighted median"}}};
    c.displaced_scores_key = "unrefined";
    c.max_repeat = 10000;
    v.push_back(c);
  }
  {
    CommandDef c;
    c.name = "stereo";
    c.help = "disparity of a rectified stereo pair (belief propagation or local windows)";
    c.methods = {{"bp", "stereo-bp", ""}, {"local", "stereo-local", ""}};
    c.default_method = "bp";
    c.method_help = "bp (hierarchical belief propagation) | local (center-biased windows)";
    c.primary = "disparity";
    c.outputs = {{{"--out"}, "disparity", "disparity map: .png (scaled for viewing) or .pfm (exact)", true, {}, ""},
                 {{"--error-map"}, "error", "with ground truth: wrong pixels in red (.png)", false, {}, ""}};
    c.png = {{"disparity", "", "ndisp", -1.0, false}};  // 0 black, ndisp - 1 white
    c.max_repeat = 10000;
    v.push_back(c);
  }
  {
    CommandDef c;
    c.name = "mad";
    c.help = "MAD image quality (Most Apparent Distortion) of a distorted image vs its reference";
    c.methods = {{"", "mad", ""}};
    c.primary = "hi";
    c.outputs = {{{"--maps"}, "", "folder for the HI and LO maps (PFM raw values + colour-mapped PNG)", false,
                  {"hi", "lo"}, ""}};
    c.max_repeat = 10000;
    v.push_back(c);
  }
  return v;
}

CommandDef generic_command(const AlgorithmSpec& spec) {
  CommandDef c;
  c.name = spec.id;
  c.help = spec.name + " (generated from its spec)";
  c.methods = {{"", spec.id, ""}};
  for (const auto& o : spec.outputs)
    if (!o.input && !o.needs_truth) {
      c.primary = o.name;
      break;
    }
  c.generic = true;
  return c;
}

}  // namespace lb::cli
