#pragma once
// Slider-to-pixels latency (issue 23): from the frame in which a parameter changed (the
// pane's request is submitted in that same frame, after the panel) to the end of the frame
// that shows its result, with its parts:
//   compute  the run's wall time on its worker (RunResult::ms: upload, kernels, sync)
//   copy     the result into the pane's texture (interop map + device copy, or a host upload)
//   draw     from after the copy to the end of the frame (panes, ImGui, swap, glFinish)
//   queue    from the change to the run's start on its worker (queued behind other runs)
//   pickup   from the run's end to the copy (the UI thread noticing the result)
// `--latency-sweep N [--latency-param NAME]` (headless or not) changes one parameter of the
// current algorithm N times (after 2 warm-up changes), each once both panes show its result,
// and reports the figures of every pane result (a change that reruns both panes gives two
// samples) in the screenshot's sidecar ("latency", with every sample in "samples") and on
// stdout (without the samples).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::viewer {

class LatencyProbe {
 public:
  // A pane's result reached its texture: submitted at `submitted` (seconds, the app's clock),
  // computed in compute_ms, finished on its worker at `ready`, copied from copy_start to copy_end.
  void accepted(int pane, double submitted, double compute_ms, double ready, double copy_start, double copy_end);
  // The frame ended at `now` (after swap; the sweep also waits for glFinish): every result
  // accepted in it is on screen. Returns how many samples it completed.
  int frame_presented(double now);
  struct Sample {
    int pane;
    double total_ms, compute_ms, copy_ms, draw_ms, queue_ms, pickup_ms;
  };
  const std::vector<Sample>& samples() const { return samples_; }
  void clear() { samples_.clear(); }
  // {count, total / compute / copy / draw / queue / pickup: {p50_ms, p99_ms, max_ms}}.
  nlohmann::json report() const;
  // Every sample in the order completed: [{pane, total_ms, compute_ms, copy_ms, draw_ms,
  // queue_ms, pickup_ms}] (us resolution), so that one slow frame can be traced to its part.
  nlohmann::json samples_json() const;

 private:
  struct Open {
    int pane;
    double submitted, compute_ms, ready, copy_start, copy_end;
  };
  std::vector<Open> open_;
  std::vector<Sample> samples_;
};

// The sweep's parameter changes: alternates between the value at the start and a
// neighbouring value (the next integer, or 1 / 16 of the range for a float, inside the range).
struct LatencySweep {
  int samples = 0;           // wanted (after the warm-up)
  int warmup = 2;
  std::string param;         // "" until chosen
  double a = 0.0, b = 0.0;   // the two values
  int changes = 0;           // made so far
  bool waiting = false;      // a change is not on screen yet
  bool done() const { return changes >= samples + warmup && !waiting; }
};

// p-th percentile (nearest rank) of values (copied and sorted); 0 when empty.
double percentile(std::vector<double> values, double p);

}  // namespace lb::viewer
