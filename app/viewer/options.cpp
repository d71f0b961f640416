#include "options.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <tuple>

#include "lightbench/calibrated_raw.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/dataset.hpp"
#include "scene_store.hpp"
#include "lightbench/stereo_io.hpp"
#include "remote_server.hpp"

namespace lb::viewer {

std::pair<double, double> parse_number_pair(const std::string& option, const std::string& text) {
  const auto comma = text.find_first_of(",x");
  try {
    if (comma == std::string::npos) throw std::invalid_argument("no separator");
    std::size_t u = 0, v = 0;
    const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
    const double x = std::stod(a, &u), y = std::stod(b, &v);
    if (u != a.size() || v != b.size()) throw std::invalid_argument("trailing text");
    return {x, y};
  } catch (const std::exception&) {
    throw Error(option + " expects two numbers like 12,34, got " + quote_untrusted(text));
  }
}

namespace {

// The algorithms, their variants (with notes) and outputs, from the registry: every
// registered algorithm, the test build's example included, is listed with no edit here.
std::string algorithms_help() {
  std::string h = "Algorithms (--algorithm ID; stereo-bp and stereo-local share the entry 'stereo', "
                  "their outputs prefixed bp / local):\n";
  for (const AlgorithmSpec& s : builtin_registry().all()) {
    h += "\n  " + s.id + ": " + s.name + " (data: " + to_string(s.data) + ")\n    variants:";
    for (const VariantInfo& v : s.variants)
      h += "\n      " + v.name + (v.name == s.default_variant ? " (default)" : "") + ": " + v.note;
    h += "\n    outputs:";
    for (const OutputInfo& out : s.outputs)
      h += "\n      " + out.name + ": " + out.label + (out.input ? " (input)" : "") +
           (out.needs_truth ? " (with ground truth)" : "");
    h += "\n    parameters (--paneN NAME=VALUE, --script FRAME:NAME=VALUE):";
    for (const ParamInfo& p : s.params(nullptr).infos) h += " " + p.name;
    h += "\n";
  }
  return h;
}

}  // namespace

int parse_options(int argc, char** argv, ViewerOptions& o) {
  CLI::App app{"lightbench viewer: interactive GPU image-processing algorithms (focused-plenoptic rendering "
               "and depth, 4D light-field refocus and CAE depth, stereo BP and local windows, MAD image "
               "quality, and any algorithm registered with LB_REGISTER_ALGORITHM). With no arguments it "
               "opens the bundled scenes."};
  app.footer(algorithms_help());
  app.add_option("--raw", o.raw, "open a raw focused-plenoptic image (PNG, JPG, BMP, PPM)");
  app.add_option("--scene", o.scene, "open a scene.json written by `lightbench-cli generate`");
  app.add_option("--preset", o.preset,
                 "generate a synthetic scene: tiny | small | seed, or hex-small (hexagonal grid, plenoptic-hex)");
  app.add_option("--seed", o.seed, "generator seed")->capture_default_str();
  app.add_option("--pitch", o.pitch, "micro-image pitch D in pixels (needed with --raw)");
  app.add_option("--offset", o.offset, "grid offset ox,oy in pixels")->capture_default_str();
  app.add_option("--grid", o.grid, "micro-images NX,NY (default: as many as fit)");
  app.add_option("--calib", o.calib,
                 "with --raw: its micro-lens calibration (Raytrix RayCalibData .xml); opens in the general-grid "
                 "algorithm plenoptic-hex");
  app.add_option("--fit-grid", o.fit_grid,
                 "with --calib: fit the grid's offset to the raw: auto (when it clearly helps), on, off");
  app.add_option("--drop", o.drop,
                 "FILE[,FILE]: drop these files on the window once the startup data is open, as one drop (a raw "
                 "with its .xml, an .xml for the open raw, a map or a folder): for scripts and tests");
  app.add_option("--backend", o.backend, "auto | cpu | cuda")->capture_default_str();
  app.add_option("--algorithm", o.algorithm, "an algorithm id (see below; default: plenoptic, or the one whose data is given)");
  app.add_option("--lf", o.lf, "open a 4D light-field folder (HCI input_CamNNN.png, view_U_V.png, NNN.png)");
  app.add_option("--views", o.views,
                 "UxV: open the plenoptic scene (--raw, --scene, --preset) as a light field of U x V perspective "
                 "views at --patch (the Scene header's 'open as light field' button)");
  app.add_option("--stereo", o.stereo,
                 "open a stereo folder: Middlebury 2001-2006 (imL/imR or view1/view5, groundtruth.png or disp1.png, "
                 "masks), 2014/2021/MiddEval3 (im0/im1, calib.txt, disp0GT.pfm, mask0nocc.png), a KITTI 2012/2015 "
                 "training folder (--frame NAME) or a folder of scene folders (--frame NAME)");
  app.add_option("--layout", o.stereo_layout,
                 "the --stereo folder's layout: auto (from the files present), middlebury2001, middlebury2014, kitti");
  app.add_option("--frame", o.frame,
                 "the scene of a --stereo folder of several: a KITTI frame (000000_10) or a scene folder's name; "
                 "the pair of an --iqa database: the distorted image's file name (default: the first)");
  app.add_option("--gt-scale", o.gt_scale,
                 "the --stereo folder's ground-truth scale (value / scale = disparity; tsukuba 16 and venus 8 "
                 "are known by name)");
  app.add_option("--max-memory", o.max_memory, "host memory a run may allocate, e.g. 512M, 8G (default: half of RAM)");
  app.add_option("--max-device-memory", o.max_device_memory, "device memory a CUDA run may allocate (default: no limit)");
  app.add_option("--ref", o.ref, "MAD: reference image");
  app.add_option("--dist", o.dist, "MAD: distorted image (default: generated from --ref)");
  app.add_option("--iqa", o.iqa,
                 "MAD: an IQA database (TID2013: reference_images/, distorted_images/, mos_with_names.txt; "
                 "KADID-10k: images/, dmos.csv); --frame NAME picks the distorted image (default: the first)");
  app.add_option("--variant", o.variant,
                 "kernel variant of the algorithm (see below; stereo: bp/NAME or local/NAME)");
  app.add_option("--patch", o.patch, "output patch size M");
  app.add_option("--view", o.view, "perspective shift sx,sy in raw pixels");
  app.add_option("--lim", o.lim, "range limit of neighbour micro-images");
  app.add_option("--sigma", o.sigma, "Gaussian weight sigma in raw pixels");
  std::string size;
  std::optional<int> width, height;
  app.add_option("--size", size, "window size WxH (default 1600x900)");
  app.add_option("--width", width, "window width in pixels (instead of --size)");
  app.add_option("--height", height, "window height in pixels (instead of --size)");
  app.add_flag("--headless", o.headless,
               "no window: an EGL context on a device (no display needed) and an offscreen "
               "framebuffer of the window size; needs --screenshot");
  app.add_option("--pane1", o.pane1,
                 "left pane source, e.g. output=view,backend=cpu,variant=sync,patch=9 (outputs and "
                 "parameters: see below), or file=PATH: another method's disparity map (.pfm, 16-bit KITTI .png; "
                 "scored against the truth) or any image");
  app.add_option("--pane2", o.pane2, "right pane source (same syntax)");
  app.add_flag("--diff", o.diff, "start in difference mode (right pane shows |left - right|)");
  app.add_flag("--signed-diff", o.signed_diff,
               "start in signed difference mode (right pane shows left - right through a diverging map; implies --diff)");
  app.add_flag("--unlinked", o.unlinked, "do not link zoom/pan of the two panes");
  app.add_option("--zoom", o.zoom, "initial zoom (screen pixels per image pixel; default: fit)");
  app.add_flag("--pane-test", o.pane_test,
               "deterministic layout for tests: left pane at 1:1 with the image at its top-left "
               "corner, no hover read-outs");
  app.add_option("--screenshot", o.screenshot,
                 "render --frames frames, save the window (headless: the offscreen framebuffer) "
                 "to this PNG (and FILE.json with the pane layout) and exit");
  app.add_flag("--resize-test", o.resize_test,
               "test aid: resize (down to 1x1) and iconify the window during the frames");
  app.add_option("--load-delay-ms", o.load_delay_ms,
                 "test aid: a load's every progress step (a light field's view) sleeps this long")
      ->check(CLI::Range(0, 60000));
  app.add_option("--cancel-load", o.cancel_load,
                 "test aid: at this frame cancel the loads in flight, as the panel's Cancel button")
      ->check(CLI::Range(0, 1000000));
  std::optional<long long> soak;
  std::optional<std::uint64_t> soak_seed;
  app.add_option("--soak", soak,
                 "soak test: N random steps (parameters, algorithms, variants, backends, panes, "
                 "zoom, window sizes, bad dropped files), checking GL errors, error messages and "
                 "memory growth; exit code 1 when it fails");
  app.add_option("--soak-seed", soak_seed, "random seed of --soak (default 1)");
  app.add_option("--soak-report", o.soak_report, "write the --soak report (JSON) to this file");
  std::string soak_bound;
  app.add_option("--soak-bound", soak_bound,
                 "HOST,DEVICE: live-heap and device-memory growth in MiB allowed after the --soak warm-up; RSS may grow twice HOST (default 32,16)");
  std::optional<int> until_remote;
  std::optional<double> remote_timeout;
  app.add_option("--listen", o.listen,
                 "accept tev's IPC packets (lightbench.viewer.Client, tevclient) on [HOST:]PORT (host 127.0.0.1 "
                 "unless given; tev's port is 14158): their images are the pane sources remote:NAME");
  app.add_option("--until-remote", until_remote,
                 "with --screenshot: keep running until N images arrived on --listen's port (at most "
                 "--remote-timeout S seconds, default 30), then take it");
  app.add_option("--remote-timeout", remote_timeout, "seconds --until-remote waits at most (default 30)");
  app.add_option("--frames", o.frames,
                 "frames to render before --screenshot (it then waits for the runs in flight, drawing on)")
      ->capture_default_str();
  app.add_option("--latency-sweep", o.latency_sweep,
                 "measure slider-to-pixels latency: change one parameter of the algorithm N times (after 2 "
                 "warm-up changes), each once the last change is on screen; figures in the screenshot's sidecar "
                 "(\"latency\") and on stdout");
  app.add_option("--latency-param", o.latency_param,
                 "the parameter --latency-sweep changes (default: the first that changes what a pane shows)");
  app.add_option("--script", o.script,
                 "parameter changes during the frames: FRAME:NAME=VALUE;... sets the panel's live parameter "
                 "NAME at frame FRAME, as a slider would (runs in flight are superseded)");
  // CLI11's messages echo option values: one clean line (lb::safe_line), then its hint.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return safe_line(e.what()) + "\nRun with --help for more information.\n";
  });
  try {
    app.parse(argc, argv);
    if (!size.empty()) {
      if (width || height) throw Error("give --size WxH or --width / --height, not both");
      double w = 0, h = 0;
      try {
        std::tie(w, h) = parse_number_pair("--size", size);
      } catch (const Error&) {
        w = h = 0;
      }
      if (w < 64 || h < 64 || w > 16384 || h > 16384 || w != static_cast<int>(w) ||
          h != static_cast<int>(h))
        throw Error("--size expects WxH with 64..16384 pixels per side, got " + quote_untrusted(size));
      o.width = static_cast<int>(w);
      o.height = static_cast<int>(h);
    }
    auto set_side = [](const char* flag, const std::optional<int>& value, int& out) {
      if (!value) return;
      if (*value < 64 || *value > 16384)
        throw Error(std::string(flag) + " expects 64..16384 pixels, got " + std::to_string(*value));
      out = *value;
    };
    set_side("--width", width, o.width);
    set_side("--height", height, o.height);
    if (soak) {
      if (*soak < 1 || *soak > 100000000)
        throw Error("--soak expects 1..100000000 steps, got " + std::to_string(*soak));
      if (!o.screenshot.empty()) throw Error("give --soak N or --screenshot FILE, not both");
      o.soak = static_cast<int>(*soak);
    }
    if (!soak && (soak_seed || !o.soak_report.empty() || !soak_bound.empty()))
      throw Error(std::string(soak_seed ? "--soak-seed" : !o.soak_report.empty() ? "--soak-report" : "--soak-bound") +
                  " needs --soak N");
    if (!soak_bound.empty()) {
      const auto [h, d] = parse_number_pair("--soak-bound", soak_bound);
      if (!(h >= 0 && h <= 1e6 && d >= 0 && d <= 1e6))
        throw Error("--soak-bound expects HOST,DEVICE MiB in 0..1000000, got " + quote_untrusted(soak_bound));
      o.soak_host_mib = h;
      o.soak_device_mib = d;
    }
    if (soak_seed) o.soak_seed = *soak_seed;
    if (o.latency_sweep < 0 || o.latency_sweep > 100000)
      throw Error("--latency-sweep expects 1..100000 changes, got " + std::to_string(o.latency_sweep));
    if (!o.latency_param.empty() && o.latency_sweep == 0) throw Error("--latency-param needs --latency-sweep N");
    if (o.latency_sweep > 0 && o.screenshot.empty())
      throw Error("--latency-sweep reports in the screenshot's sidecar: give --screenshot FILE");
    // Headless there is nothing to look at and no way to close: a run must be scripted.
    if (o.headless && o.screenshot.empty() && !soak)
      throw Error("--headless renders offscreen: give --screenshot FILE (after --frames N frames) or --soak N");
    if (o.frames < 1) throw Error("--frames must be at least 1");
    if (!o.listen.empty()) (void)remote::parse_listen_address(o.listen);
    if (until_remote) {
      if (o.listen.empty()) throw Error("--until-remote N waits for images sent to the remote port: give --listen [HOST:]PORT");
      if (*until_remote < 1 || *until_remote > 1000000)
        throw Error("--until-remote expects 1..1000000 images, got " + std::to_string(*until_remote));
      if (o.screenshot.empty()) throw Error("--until-remote holds the screenshot: give --screenshot FILE");
      o.until_remote = *until_remote;
    }
    if (remote_timeout) {
      if (!until_remote) throw Error("--remote-timeout needs --until-remote N");
      if (!(*remote_timeout > 0 && *remote_timeout <= 86400))
        throw Error("--remote-timeout expects seconds in (0, 86400], got " + std::to_string(*remote_timeout));
      o.remote_timeout = *remote_timeout;
    }
    if (!o.raw.empty() + !o.scene.empty() + !o.preset.empty() > 1)
      throw Error("give at most one of --raw, --scene and --preset");
    if (o.gt_scale < 0) throw Error("--gt-scale must be positive");
    if (!o.frame.empty() && o.stereo.empty() && o.iqa.empty())
      throw Error("--frame picks a scene of --stereo DIR or a pair of --iqa DIR: give one of them");
    if (!o.iqa.empty() && (!o.ref.empty() || !o.dist.empty()))
      throw Error("--iqa opens a database's pair: not with --ref / --dist");
    dataset::Layout forced;
    if (dataset::parse_layout(o.stereo_layout, &forced) && dataset::data_kind(forced) != DataKind::StereoPair)
      throw Error("--layout " + o.stereo_layout + " is not a stereo layout (middlebury2001, middlebury2014, kitti)");
    if (!o.max_memory.empty()) set_max_host_memory(parse_memory_size(o.max_memory, "--max-memory"));
    if (!o.max_device_memory.empty())
      set_max_device_memory(parse_memory_size(o.max_device_memory, "--max-device-memory"));
    if (!o.calib.empty() && o.raw.empty())
      throw Error("--calib " + quote_untrusted(o.calib, 300) + " needs --raw FILE (the raw image it calibrates)");
    if (!o.calib.empty() && (o.pitch > 0 || !o.grid.empty() || o.offset != "0,0"))
      throw Error("--pitch / --offset / --grid apply to a raw without --calib (the calibration has the grid)");
    if (!o.fit_grid.empty() && o.calib.empty()) throw Error("--fit-grid applies to --calib only");
    if (!o.fit_grid.empty()) (void)parse_calib_fit(o.fit_grid, "--fit-grid");
    if (!o.raw.empty() && o.pitch <= 0 && o.calib.empty())
      throw Error("--raw needs --pitch D (the micro-image pitch in pixels) or --calib FILE.xml");
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const Error& e) {
    std::fprintf(stderr, "lightbench: %s\n", safe_line(e.what()).c_str());
    return 2;
  }
  return -1;
}

std::optional<StartupData> startup_data(const ViewerOptions& o) {
  if (!o.lf.empty()) return StartupData{DataKind::LightField, false};
  if (!o.stereo.empty()) return StartupData{DataKind::StereoPair, false};
  if (!o.ref.empty() || !o.iqa.empty()) return StartupData{DataKind::ImagePair, false};
  if (!o.calib.empty() || is_general_grid_preset(o.preset)) return StartupData{DataKind::PlenopticScene, true};
  return std::nullopt;
}

}  // namespace lb::viewer
