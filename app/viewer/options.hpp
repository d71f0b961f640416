#pragma once
// Command line of the viewer. With no arguments it opens the bundled scene (the "small"
// generator preset, made in memory).
#include <cstdint>
#include <optional>
#include <string>

#include "lightbench/algorithm.hpp"  // DataKind

namespace lb::viewer {

struct ViewerOptions {
  // Input: exactly one of raw / scene / preset (default: preset "small").
  std::string raw, scene, preset;
  std::uint64_t seed = 1;
  double pitch = 0;                   // --raw needs it
  std::string offset = "0,0", grid;   // "ox,oy", "NX,NY" (default: as many as fit)
  std::string calib;                  // --calib FILE.xml: the raw's micro-lens calibration
  std::string fit_grid;               // --fit-grid auto | on | off ("" : auto)
  // --drop A,B: after the startup data opened, these files arrive as one drop on the window,
  // handled like a real drop (scripted runs and the headless tests of drops).
  std::string drop;

  // Compute.
  std::string backend = "auto";       // auto | cpu | cuda
  std::string algorithm;              // plenoptic | lightfield ("": plenoptic, or lightfield with --lf)
  std::string lf;                     // 4D light-field folder
  std::string views;                  // "UxV": the plenoptic scene as a light field of U x V views
  std::string stereo;                 // Middlebury stereo folder
  std::string stereo_layout = "auto";  // --layout: the --stereo folder's layout (dataset::parse_layout)
  std::string frame;                  // --frame: the scene of a folder of several (KITTI: 000000_10)
  double gt_scale = 0;                // --gt-scale: its ground truth's scale (0: known by name)
  std::string max_memory, max_device_memory;  // budgets (lightbench/memory_budget.hpp)
  std::string ref, dist;              // MAD: reference and distorted images
  std::string iqa;                    // an IQA database (TID2013, KADID-10k): its pair --frame NAME
  std::string variant;                // a variant of the algorithm ("": its default)
  std::optional<int> patch, lim;
  std::optional<float> sigma;
  std::optional<std::string> view;    // "sx,sy"

  // Window and layout.
  int width = 1600, height = 900;     // --size WxH, or --width / --height
  bool headless = false;              // EGL context and an offscreen framebuffer, no window
  std::string pane1, pane2;           // pane source specs, see pane_source.hpp
  bool diff = false;
  bool signed_diff = false;           // --signed-diff: difference mode with A - B (implies --diff)
  bool unlinked = false;
  std::optional<double> zoom;         // initial zoom (default: fit)
  bool pane_test = false;             // deterministic layout for the GUI smoke test

  // Scripted runs: render `frames` frames, save the window (headless: the offscreen
  // framebuffer) as PNG (+ FILE.json) and exit.
  std::string screenshot;
  int frames = 3;
  // The remote port (remote/remote_server.hpp): --listen [HOST:]PORT ("": none), tev's IPC
  // packets whose images any pane shows as remote:NAME; headless, --until-remote N holds the
  // screenshot until N remote images arrived (at most --remote-timeout S seconds).
  std::string listen;
  int until_remote = 0;
  double remote_timeout = 30;
  // Scripted parameter changes "FRAME:NAME=VALUE;..." (the panel's live parameter NAME set at
  // frame FRAME, as a slider would), e.g. to drive a parameter while a long run is in flight.
  std::string script;
  // Test aid: during the frames, resize the window through extreme sizes (1x1 .. 2600x1500)
  // and iconify / restore it, then return to --size.
  bool resize_test = false;
  // Test aids of the loads off the UI thread (data_loader.hpp): every progress report of a load
  // (a light field's view) sleeps this long; at frame cancel_load the loads in flight are
  // cancelled as the panel's Cancel button does (0: never).
  int load_delay_ms = 0;
  int cancel_load = 0;
  // Soak (--soak N): N random steps through the viewer's own code paths, each checked for
  // GL errors, unreported bad drops and memory growth (soak.hpp); exit code 1 when it fails.
  int soak = 0;
  // --latency-sweep N [--latency-param NAME]: slider-to-pixels latency (latency.hpp).
  int latency_sweep = 0;
  std::string latency_param;
  std::uint64_t soak_seed = 1;
  std::string soak_report;             // JSON report
  double soak_host_mib = 32, soak_device_mib = 16;  // --soak-bound: allowed growth after the warm-up
};

// Parses the command line. Returns -1 to go on, or an exit code (0 after --help, 2 after a
// usage error, which it prints).
int parse_options(int argc, char** argv, ViewerOptions& out);

// The data the command line names, which chooses the algorithm when --algorithm does not:
// --lf a light field, --stereo a stereo pair, --ref / --iqa an image pair, --calib or a
// general-grid --preset a plenoptic scene with a general grid (checked in that order). The
// viewer shows the first entry on that kind of data (a general grid: the general-grid
// algorithm's). Nothing (nullopt): the first entry, or the one --algorithm names.
struct StartupData {
  DataKind kind = DataKind::PlenopticScene;
  bool general_grid = false;
};
std::optional<StartupData> startup_data(const ViewerOptions& o);

// "a,b" -> two numbers; throws lb::Error naming the option.
std::pair<double, double> parse_number_pair(const std::string& option, const std::string& text);

}  // namespace lb::viewer
