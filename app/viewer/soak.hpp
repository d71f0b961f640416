#pragma once
// Soak mode (`lightbench --soak N [--soak-seed S] [--soak-report FILE]`): N random steps
// through the viewer's own code paths, one step per frame of ViewerApp::run():
//   param      a live parameter of the current algorithm (ParamInfo table) set to its min,
//              its max or a random value in range
//   algorithm  another algorithm (the first steps visit each one)
//   variant    another variant of the current algorithm
//   backend    a pane's backend slot (selected | cpu | cuda when CUDA is usable), and the
//              CUDA-GL interop switch when CUDA is usable
//   pane       a pane's output (any output of the algorithm) and variant, or difference mode
//   view       zoom / pan / fit / 1:1 of the panes
//   resize     the window (headless: the offscreen framebuffer) from 1x1 to 2600x1500
//   drop       a bad path dropped on the window (missing file, corrupt PNG, a text file
//              named .png, a light-field folder with a missing view); it goes through
//              ViewerApp::handle_drops() like a real drop and must be reported
//   render     nothing changes: one more frame
// After each frame: glGetError (any error fails) and the app's error line (a bad drop must
// add a report). Host RSS (/proc/self/statm, after malloc_trim) and device memory in use
// (lb::cuda::device_memory, when CUDA is usable) are sampled at the start, every K steps and
// at the end, with the live heap (mallinfo2: what malloc has handed out); after the warm-up
// (half of the steps, and every algorithm visited) they must stay flat: end - baseline within
// 32 MiB (live heap), 64 MiB (host RSS) and 16 MiB (device), where the baseline is
// the highest sample of the warm-up and the end is sampled after the last step restored the
// start window size; a run that ends within
// its warm-up reports memory without judging it. An exception escaping a frame fails the
// soak naming the step (LB_SOAK_TRACE=1 prints every step). Writes a JSON report
// (--soak-report) and prints one summary line; exit code 0 when it passed, 1 when not.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::viewer {

class ViewerApp;

struct SoakConfig {
  int steps = 0;
  std::uint64_t seed = 1;
  std::string report;             // JSON report path ("": none)
  double host_bound_mib = 32.0;   // allowed live-heap growth after the warm-up (RSS: twice)
  double device_bound_mib = 16.0; // allowed device-memory growth after the warm-up
};

// Host resident set size in bytes (/proc/self/statm); 0 when unreadable.
std::uint64_t host_rss_bytes();

class SoakDriver {
 public:
  SoakDriver(ViewerApp& app, SoakConfig config);
  ~SoakDriver();
  SoakDriver(const SoakDriver&) = delete;
  SoakDriver& operator=(const SoakDriver&) = delete;

  // Before a frame: applies the next step. False when all steps are done.
  bool before_frame();
  // Paths the current step drops on the window (ViewerApp::handle_drops takes them).
  std::vector<std::string> take_drops();
  // After the frame was drawn: checks GL errors and the error state, samples memory.
  void after_frame();
  // Final sample, report and summary line. Returns the exit code.
  int finish();
  // An exception escaped the frame of the current step: a failure naming the step.
  void frame_threw(const std::string& what);

 private:
  struct Sample {
    int step;
    std::uint64_t rss;
    std::int64_t device;  // -1: not sampled
    std::uint64_t heap;   // bytes malloc holds for live allocations (mallinfo2)
  };
  void sample(int step);
  void make_bad_inputs();
  std::uint64_t pick(std::uint64_t n);  // uniform in [0, n)
  double uniform(double lo, double hi);
  std::string step_param();
  std::string step_algorithm(int index);
  std::string step_variant();
  std::string step_backend();
  std::string step_pane();
  std::string step_view();
  std::string step_resize();
  std::string step_drop();
  bool device_sampling();

  ViewerApp& app_;
  SoakConfig cfg_;
  std::mt19937_64 rng_;
  int step_ = 0;            // steps applied so far
  int sample_every_ = 1;
  int warmup_ = 0;          // baseline taken after this many steps (and every algorithm seen)
  std::vector<bool> visited_;
  bool have_baseline_ = false;
  Sample baseline_{0, 0, -1, 0};
  std::vector<Sample> samples_;
  std::uint64_t rss_peak_ = 0, heap_peak_ = 0;
  std::int64_t device_peak_ = -1;
  std::map<std::string, int> counts_;
  std::map<std::string, double> seconds_;  // frame time per step kind
  std::map<std::string, double> algo_seconds_;  // frame time per algorithm shown
  std::chrono::steady_clock::time_point step_t0_;
  std::string current_kind_;
  std::string detail_;      // what the current step did (for failures and LB_SOAK_TRACE=1)
  bool trace_ = false;
  std::vector<std::string> drops_;
  bool drop_pending_check_ = false;
  int reports_before_ = 0;
  int gl_errors_ = 0;
  int errors_shown_ = 0;
  int drops_unreported_ = 0;
  std::vector<std::string> failures_;
  std::filesystem::path bad_dir_;
  std::vector<std::string> bad_paths_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace lb::viewer
