#include "plenoptic_options.hpp"

#include <algorithm>
#include <cmath>

#include "cli_common.hpp"
#include "option_checks.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace lb::cli {

void PlenopticOptions::add_input(CLI::App& app) {
  app.add_option("--raw", raw, "raw focused-plenoptic image (PNG, JPG, BMP, PPM)");
  app.add_option("--scene", scene, "scene.json written by `generate` (raw + grid + truth)");
  app.add_option("--preset", preset,
                 "generate a synthetic scene in memory: tiny | small | seed (rectangular grids), hex-small "
                 "(hexagonal three-type grid)");
  app.add_option("--seed", seed, "seed for --preset")->capture_default_str()->check(uint64_any());
  app.add_option("--pitch", pitch, "micro-image pitch D in pixels (may be non-integer)")
      ->check(real_in(2.0, 4096.0));
  app.add_option("--offset", offset, "grid offset ox,oy in pixels")->capture_default_str();
  app.add_option("--grid", grid, "micro-images NX,NY (default: as many as fit)");
  app.add_option("--calib", calib,
                 "with --raw: its micro-lens calibration (Raytrix RayCalibData .xml: hexagonal or rectangular grid, "
                 "lens types); replaces --pitch/--offset/--grid and runs the general-grid algorithm");
  app.add_option("--fit-grid", fit_grid,
                 "with --calib: fit the grid's offset to the raw: auto (keep the fit when it clearly raises the "
                 "lens-border contrast), on, off (the file's offset); default auto");
}

bool PlenopticOptions::general_grid() const { return !calib.empty() || (!preset.empty() && is_hex_preset(preset)); }

void PlenopticOptions::add_render(CLI::App& app) {
  app.add_option("--patch", patch, "output patch size M (default 11)")->check(int_in(1, kMaxPatch));
  app.add_option("--view", view, "perspective shift sx,sy in raw pixels")->capture_default_str();
  app.add_option("--lim", lim, "range limit of neighbour micro-images (default 2)")
      ->check(int_in(0, kMaxLim));
  app.add_option("--sigma", sigma, "Gaussian weight sigma in pixels (default D/5)")
      ->check(real_in(0.5, 1000.0));
}

PlenopticScene PlenopticOptions::load(int truth_patch) const {
  if (!calib.empty() && raw.empty())
    throw Error("--calib " + quote_untrusted(calib, 300) + " needs --raw FILE (the raw image it calibrates)");
  const int sources = !raw.empty() + !scene.empty() + !preset.empty();
  if (sources != 1) throw Error("give exactly one of --raw, --scene or --preset");
  // The grid of a scene file or preset is its own: --grid / --offset would be ignored.
  if (raw.empty() && !grid.empty())
    throw Error("--grid " + quote_untrusted(grid, 300) + " applies to --raw only (the " + (scene.empty() ? "preset" : "scene file") +
                " has its own grid)");
  if (raw.empty() && offset != "0,0")
    throw Error("--offset " + quote_untrusted(offset, 300) + " applies to --raw only (the " + (scene.empty() ? "preset" : "scene file") +
                " has its own grid)");
  if (!fit_grid.empty() && calib.empty()) throw Error("--fit-grid applies to --calib only");
  calib_info_ = CalibInfo{};
  if (!calib.empty()) {
    // The calibration is the whole grid: the rectangular grid's flags would contradict it.
    if (raw.empty()) throw Error("--calib " + quote_untrusted(calib, 300) + " needs --raw FILE (the raw image it calibrates)");
    if (pitch > 0) throw Error("--pitch applies to a raw without --calib (the calibration has the lens diameter)");
    if (offset != "0,0") throw Error("--offset applies to a raw without --calib (the calibration has the offset)");
    if (!grid.empty()) throw Error("--grid applies to a raw without --calib (the calibration has the lens grid)");
    const CalibFit fit = parse_calib_fit(fit_grid.empty() ? "auto" : fit_grid, "--fit-grid");
    PlenopticScene s = load_calibrated_raw(raw, calib, fit, &calib_info_);
    validate(s.grid, s.raw.width, s.raw.height);
    return s;
  }
  PlenopticScene s;
  if (!preset.empty() && is_hex_preset(preset)) {
    if (pitch > 0) throw Error("--pitch applies to --raw only (the preset has its own grid)");
    HexGeneratorParams hp = hex_generator_preset(preset, seed);
    // The truth at the requested M, else at the depth's default M (scored as it is).
    hp.preview_patch = truth_patch != -1 ? truth_patch : default_truth_patch(hp);
    if (hp.preview_patch < 1 || hp.preview_patch > kMaxPatch)
      throw Error("--patch " + std::to_string(hp.preview_patch) + " out of range 1.." + std::to_string(kMaxPatch));
    s = to_scene(generate_hex_scene(hp), "preset " + preset);
    validate(s.grid, s.raw.width, s.raw.height);
    return s;
  }
  if (!scene.empty()) {
    s = load_scene(scene);
  } else if (!preset.empty()) {
    GeneratorParams gp = generator_preset(preset, seed);
    gp.preview_patch = truth_patch != -1 ? truth_patch : default_truth_patch(gp);
    if (gp.preview_patch < 1 || gp.preview_patch > kMaxPatch)
      throw Error("--patch " + std::to_string(gp.preview_patch) + " out of range 1.." + std::to_string(kMaxPatch));
    s = to_scene(generate_scene(gp), "preset " + preset);
  } else {
    if (pitch <= 0) throw Error("--raw needs --pitch D (the micro-image pitch in pixels) or --calib FILE.xml");
    s.raw = load_image_8bit(raw, &s.raw_origin);  // 16-bit PNG: converted, v/257
    s.source = raw;
    const auto [ox, oy] = parse_pair("--offset", offset);
    if (!std::isfinite(ox) || !std::isfinite(oy) || ox < 0 || oy < 0 || ox >= s.raw.width || oy >= s.raw.height)
      throw Error("--offset expects two finite numbers in 0..(raw size) (raw is " + std::to_string(s.raw.width) +
                  "x" + std::to_string(s.raw.height) + "), got " + quote_untrusted(offset));
    s.grid.pitch = pitch;
    s.grid.ox = ox;
    s.grid.oy = oy;
    if (grid.empty()) {
      s.grid.nx = static_cast<int>(std::floor((s.raw.width - ox + 0.5) / pitch));
      s.grid.ny = static_cast<int>(std::floor((s.raw.height - oy + 0.5) / pitch));
    } else {
      const auto [gx, gy] = parse_pair("--grid", grid);
      if (gx != std::floor(gx) || gy != std::floor(gy) || gx < 1 || gy < 1 || gx > 1e5 || gy > 1e5)
        throw Error("--grid expects two positive integers NX,NY, got " + quote_untrusted(grid));
      s.grid.nx = static_cast<int>(gx);
      s.grid.ny = static_cast<int>(gy);
    }
  }
  // Explicit grid flags override a scene's grid.
  if (!raw.empty() || pitch > 0) {
    if (pitch > 0) s.grid.pitch = pitch;
  }
  validate(s.grid, s.raw.width, s.raw.height);
  return s;
}

RenderParams PlenopticOptions::render_params(const PlenopticGrid& g) const {
  RenderParams p = default_render_params(g);
  if (patch != -1) p.patch = patch;
  if (lim != -1) p.lim = lim;
  if (sigma != -1) p.sigma = sigma;
  const auto [sx, sy] = parse_pair("--view", view);
  if (!std::isfinite(sx) || !std::isfinite(sy) || std::fabs(sx) > 1e6 || std::fabs(sy) > 1e6)
    throw Error("--view expects two finite numbers SX,SY (raw pixels), got " + quote_untrusted(view));
  p.view_x = static_cast<float>(sx);
  p.view_y = static_cast<float>(sy);
  validate(p, g);
  return p;
}

}  // namespace lb::cli
