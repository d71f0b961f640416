#pragma once
// The viewer: owns the window's content (backends, algorithms with their data, two panes, display
// program) and runs the frame loop. Runs only when a pane's inputs change, off the UI thread
// (run_worker.hpp: the frame loop never waits for a run; an idle window renders nothing).
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithm.hpp"
#include "app_window.hpp"
#include "backend_pool.hpp"
#include "colour_bar.hpp"
#include "diff_stats.hpp"
#include "image_pane.hpp"
#include "latency.hpp"
#include "lens_overlay.hpp"
#include "lightbench/gl/image_display.hpp"
#include "lightbench/gl/texture.hpp"
#include "options.hpp"
#include "remote_server.hpp"
#include "viewer_state.hpp"

namespace lb::viewer {

class SoakDriver;

class ViewerApp {
 public:
  ViewerApp(AppWindow& window, const ViewerOptions& options);
  ~ViewerApp();
  ViewerApp(const ViewerApp&) = delete;
  ViewerApp& operator=(const ViewerApp&) = delete;
  // Runs until the window closes (or the screenshot is taken). Returns the exit code.
  int run();

 private:
  friend class SoakDriver;  // --soak drives the app's own state (soak.hpp)
  // Start-up, phase one (before the first frame): the algorithm the command line names, and
  // every section's command-line data started on its loader (the window draws meanwhile).
  void apply_options();
  // Phase two, once those loads are in (run_frames): --views, --variant, the parameters, the
  // panes and zoom named on the command line, which need the data. Frames are counted (for
  // --frames, --script, --drop, --cancel-load, --soak) from here on.
  void finish_startup();
  // After the shown algorithm's data was replaced: fit the panes, and a pane whose output
  // the new data lacks (the plenoptic truth without ground truth) shows its first input.
  void after_data_change();
  // Opens `path` in the first algorithm that opens folders (folder) or files and shows it.
  bool open_in_algorithm(const std::string& path, bool folder);
  // Gives data made by one section (DataRequest::hand_over) to the first algorithm of its
  // kind that takes it (a scene with a micro-lens geometry: the general-grid one).
  void hand_over(const std::shared_ptr<const AlgorithmData>& data);
  // A raw with its calibration .xml (raw "": the plenoptic raw open now) as a scene with that
  // geometry, read on a plenoptic section's loader and handed over when done (viewer_calib.cpp).
  // False (reported) when it cannot even start.
  bool open_calibrated(const std::string& raw, const std::string& calib);
  // Dropped files that are a calibration: a raw and an .xml dropped together, or an .xml
  // alone. True when `paths` was such a drop (and handled).
  bool drop_calibration(const std::vector<std::string>& paths);
  // The lens circles over the panes that show a raw with them on (lens_overlay.hpp).
  void draw_lens_overlays();
  void open_startup_views();  // --views UxV
  void report(const std::string& message);  // red line + stderr
  void handle_drops();
  void handle_actions(const PanelActions& act);
  void handle_keys();
  // The current algorithm's default outputs in both panes (after switching algorithms).
  void show_algorithm_defaults();
  // Keeps the colour images the panes show before switching algorithms (MAD can compare them).
  void remember_pane_images();

  void build_ui(int fb_w, int fb_h);
  void layout_image_area(float x, float width, float height, float fb_scale);
  std::string pane_status(ImagePane& pane);
  // Runs (run_worker.hpp): submits what changed, takes finished results to the panes.
  void update_outputs();
  void collect_results();
  void cancel_pending(ImagePane& pane);
  bool runs_pending() const;  // a pane waits for a run
  // Loads off the UI thread (data_loader.hpp): applies every section's finished load (its new
  // data, a hand-over, its error reported); loads_pending: one queued, in flight or unapplied.
  void poll_loads();
  bool loads_pending() const;
  double now_seconds() const;
  // --script: the parameter changes due at `frame`.
  void apply_script(int frame);
  void parse_script();
  // The sidecar's "frames": frame times and how many were drawn while a run was in flight.
  nlohmann::json frames_json() const;
  // --latency-sweep (viewer_latency.cpp): the next parameter change at the frame's start, and
  // at its end the samples of the results it showed; the sidecar's "latency" block.
  void latency_step();
  void latency_frame_end();
  nlohmann::json latency_json() const;
  void draw_panes(int fb_w, int fb_h);
  // How pane i is drawn this frame: its display style, whether it shows the difference, and
  // its colour bar (scalar panes and the difference).
  struct PaneLook {
    gl::DisplayStyle style;
    bool difference = false;
    ColourBar bar;
  };
  PaneLook pane_look(int i);
  std::string pane_unit(int i);  // the unit of pane i's values ("" : none or colour)
  // A pane showing a file (viewer_foreign.cpp): loads it once, scores a map against the
  // data's truth whenever the data changes, and shows it.
  void update_foreign(ImagePane& pane);
  nlohmann::json foreign_json(const ImagePane& pane) const;
  // The remote port (--listen; remote/viewer_remote.cpp): started with the app, its log lines
  // reported and grab_focus applied each frame, a pane showing remote:NAME updated whenever
  // the image changes (as a foreign file, scored the same way), and --until-remote's wait
  // (true while the screenshot must wait; reports the timeout).
  void start_remote();
  void stop_remote();
  void poll_remote();
  bool remote_waiting();
  void update_remote(ImagePane& pane, const std::string& name);
  nlohmann::json remote_pane_json(const std::string& name) const;
  // The pane whose image region holds a point in logical window pixels; -1: none.
  int pane_at(double x, double y) const;
  nlohmann::json layout_json(int fb_w, int fb_h);
  bool resize_step(int frame);  // true once the window is back at its size
  int run_frames();  // run()'s frame loop

  Algorithm& algorithm() { return *algorithms_[algorithm_index_]; }
  // Resolves pending fits, follows image size changes and applies the zoom/pan link.
  void sync_views();

  AppWindow& window_;
  ViewerOptions opt_;
  ViewerState state_;
  BackendPool pool_;
  std::vector<std::unique_ptr<Algorithm>> algorithms_;
  int algorithm_index_ = 0;
  int shown_algorithm_ = -1;  // the algorithm the panes were last set up for
  std::array<ImageU8, 2> pane_images_;  // see remember_pane_images()
  std::string pane_images_source_;
  std::array<ImagePane, 2> panes_{ImagePane(0), ImagePane(1)};
  std::array<PaneView, 2> views_;
  int leader_ = 0;  // the pane whose view the other follows when linked
  gl::ImageDisplay display_;
  gl::TexelReader texel_reader_;
  DiffStatsCache diff_cache_;
  const DiffStats* diff_ = nullptr;
  std::string gl_description_;
  int reports_ = 0;                    // report() calls (the soak checks bad drops)
  std::vector<std::string> errors_;    // distinct reported errors (the sidecar's "errors")
  std::unique_ptr<SoakDriver> soak_;  // --soak N
  std::array<LensOverlayCache, 2> lens_cache_;  // per pane: the lenses of the geometry drawn
  std::array<int, 2> lenses_drawn_{};           // per pane: circles drawn last frame (sidecar)
  std::array<std::string, 2> status_drawn_;     // per pane: its status line as drawn last frame (sidecar)
  std::vector<double> frame_ms_;       // every drawn frame's time (start to start)
  int busy_frames_ = 0;                // frames drawn while a run (or a load) was in flight
  int loading_frames_ = 0;             // frames drawn while a data load was in flight
  bool scripted_drop_done_ = false;    // --drop handed over
  bool startup_pending_ = true;       // phase two of the start-up not done yet
  struct ScriptStep {
    int frame;
    std::string name;
    double value;
  };
  std::vector<ScriptStep> script_;  // --script
  LatencyProbe latency_;             // the panes' results: slider-to-pixels (latency.hpp)
  LatencySweep sweep_;               // --latency-sweep N
  // The remote port (--listen): the images, the lines its thread logged, the server.
  remote::RemoteImages remote_images_;
  std::mutex remote_mutex_;
  std::vector<std::string> remote_lines_;
  std::unique_ptr<remote::RemoteServer> remote_server_;
  double remote_started_ = 0;       // now_seconds() when it started listening
  bool remote_until_done_ = false;  // --until-remote: arrived or timed out
};

}  // namespace lb::viewer
