// The light-field module's documented CLI command: lfdepth, its legacy flags and the "refine"
// report group
// (AlgorithmSpec::commands; the CLI generates the subcommands, docs/CLI.md documents them).
#include "lightbench/cli_commands.hpp"

namespace lb {

std::vector<CommandDef> lightfield_commands() {
  std::vector<CommandDef> v;
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
  return v;
}

}  // namespace lb
