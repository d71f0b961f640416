// ViewerApp: construction, the frame loop, the UI (panel + image area) and user actions.
// Start-up is in viewer_startup.cpp, the panes' rendering and drawing in viewer_panes.cpp.
#include "viewer_app.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <optional>

#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "param_widgets.hpp"
#include "screenshot.hpp"
#include "side_panel.hpp"
#include "soak.hpp"

namespace lb::viewer {
namespace {

const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);
// A run longer than this (under 10 frames a second) makes sliders apply on release.
constexpr double kLiveRunMs = 100.0;

BackendRequest backend_request(const std::string& s) {
  try {
    return parse_backend_request(s);
  } catch (const std::exception&) {
    return BackendRequest::Auto;  // main() validated it already
  }
}

}  // namespace

ViewerApp::ViewerApp(AppWindow& window, const ViewerOptions& options)
    : window_(window), opt_(options), pool_(backend_request(options.backend)) {
  gl_description_ = gl::context_description();
  state_.pane_test = opt_.pane_test;
  if (!pool_.startup_error().empty()) report(pool_.startup_error());
  DataLoader::set_test_delay_ms(opt_.load_delay_ms);
  algorithms_ = make_algorithms();
  parse_script();
  sweep_.samples = opt_.latency_sweep;
  start_remote();   // --listen: clients may send while the data loads
  apply_options();  // finish_startup() follows when the command line's data is in
  if (opt_.soak > 0) {
    SoakConfig soak;
    soak.steps = opt_.soak;
    soak.seed = opt_.soak_seed;
    soak.report = opt_.soak_report;
    soak.host_bound_mib = opt_.soak_host_mib;
    soak.device_bound_mib = opt_.soak_device_mib;
    soak_ = std::make_unique<SoakDriver>(*this, soak);
  }
}

ViewerApp::~ViewerApp() {
  stop_remote();  // its thread writes remote_images_ and remote_lines_
  // Workers first (they cancel and join), while the GL context and panes still exist.
  for (auto& p : panes_) cancel_pending(p);
  algorithms_.clear();
}

void ViewerApp::parse_script() {
  std::size_t pos = 0;
  const std::string& s = opt_.script;
  while (pos < s.size()) {
    std::size_t end = s.find(';', pos);
    if (end == std::string::npos) end = s.size();
    const std::string item = s.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const auto colon = item.find(':'), eq = item.find('=');
    try {
      if (colon == std::string::npos || eq == std::string::npos || eq < colon) throw Error("");
      ScriptStep st{std::stoi(item.substr(0, colon)), item.substr(colon + 1, eq - colon - 1),
                    std::stod(item.substr(eq + 1))};
      if (st.frame < 1) throw Error("");
      script_.push_back(st);
    } catch (const std::exception&) {
      report("--script: expected FRAME:NAME=VALUE (frame >= 1), got " + quote_untrusted(item));
    }
  }
}

void ViewerApp::report(const std::string& raw_message) {
  // One clean line on the terminal, in the panel and in the sidecar, whatever the message
  // quoted from a file (lb::safe_line: control bytes, NUL and newlines escaped).
  const std::string message = safe_line(raw_message);
  state_.error = message;
  ++reports_;
  // Every error of the session, for the sidecar: a scripted run with any is a failed run.
  if (errors_.size() < 100 && std::find(errors_.begin(), errors_.end(), message) == errors_.end())
    errors_.push_back(message);
  std::fprintf(stderr, "lightbench: %s\n", message.c_str());
}

void ViewerApp::handle_drops() {
  auto paths = window_.take_dropped_paths();
  if (soak_)
    for (auto& p : soak_->take_drops()) paths.push_back(std::move(p));
  if (!scripted_drop_done_ && !opt_.drop.empty()) {  // --drop: once, as one drop
    scripted_drop_done_ = true;
    for (std::size_t a = 0; a <= opt_.drop.size();) {
      const std::size_t b = std::min(opt_.drop.find(',', a), opt_.drop.size());
      if (b > a) paths.push_back(opt_.drop.substr(a, b - a));
      a = b + 1;
    }
  }
  if (paths.empty()) return;
  if (drop_calibration(paths)) return;  // a raw with its .xml, or an .xml for the open raw
  const std::string& path = paths.back();  // several files dropped: the last one
  // A map or image file dropped on a pane becomes that pane's source; a folder (a data set)
  // or a scene.json, or a file dropped elsewhere, opens as data as before.
  double x = 0, y = 0;
  const int pane = window_.drop_position(&x, &y) ? pane_at(x, y) : -1;
  if (pane >= 0 && !std::filesystem::is_directory(path) && file_extension(path) != ".json") {
    panes_[pane].source.file = path;
    panes_[pane].source.file_field = path;
    panes_[pane].source.file_editing = false;
    panes_[pane].foreign.loaded.clear();
    return;
  }
  PanelActions act;
  act.open_path = path;
  handle_actions(act);
}

void ViewerApp::poll_loads() {
  for (int i = 0; i < static_cast<int>(algorithms_.size()); ++i) {
    DataRequest req;
    const DataLoader::Outcome out = algorithms_[i]->loader().poll(req);
    if (!out.finished) continue;
    if (!out.error.empty()) {
      report(out.error);  // the algorithm's previous data stays
      continue;
    }
    if (!req.error.empty()) report(req.error);  // applied, with a note (the bundled data instead)
    if (req.hand_over) {
      hand_over(req.hand_over);
    } else if (req.replaced) {
      state_.error.clear();
      if (i == algorithm_index_) after_data_change();
    }
  }
}

bool ViewerApp::loads_pending() const {
  for (const auto& a : algorithms_)
    if (a->loader().busy()) return true;
  for (const auto& p : panes_)
    if (p.file_loader.busy()) return true;
  return false;
}

bool ViewerApp::open_in_algorithm(const std::string& path, bool folder) {
  try {
    // A folder goes to the algorithm of its data's kind when its layout is detected
    // (dataset::open_dataset: a stereo folder to stereo, a light field to the light field);
    // otherwise to the first that opens folders, which says what is wrong with it.
    std::optional<DataKind> kind;
    if (folder) {
      try {
        kind = dataset::data_kind(dataset::open_dataset(path).layout);
      } catch (const std::exception&) {
      }
    }
    // A file goes to the shown algorithm when it opens files (the general-grid one keeps its
    // calibration for the new raw), else to the first that does.
    int opener = !folder && algorithm().opens_files() ? algorithm_index_ : -1;
    for (int i = 0; i < static_cast<int>(algorithms_.size()) && opener < 0; ++i)
      if (folder ? algorithms_[i]->opens_folders() && (!kind || algorithms_[i]->data_kind() == *kind)
                 : algorithms_[i]->opens_files())
        opener = i;
    for (int i = 0; i < static_cast<int>(algorithms_.size()) && opener < 0; ++i)
      if (folder && algorithms_[i]->opens_folders()) opener = i;
    LB_REQUIRE(opener >= 0,
               std::string("no algorithm opens ") + (folder ? "folders" : "files") + " (" + path + ")");
    if (folder) algorithms_[opener]->open_folder(path);
    else algorithms_[opener]->open_file(path);
    algorithm_index_ = opener;
    state_.error.clear();
    return true;
  } catch (const std::exception& e) {
    report(e.what());  // the algorithm's previous data stays
    return false;
  }
}

void ViewerApp::hand_over(const std::shared_ptr<const AlgorithmData>& data) {
  try {
    int taker = -1;
    for (int i = 0; i < static_cast<int>(algorithms_.size()) && taker < 0; ++i)
      if (algorithms_[i]->data_kind() == data->kind() && algorithms_[i]->takes(*data)) taker = i;
    LB_REQUIRE(taker >= 0, std::string("no algorithm runs on a ") + to_string(data->kind()));
    algorithms_[taker]->take_data(data);
    algorithm_index_ = taker;
    state_.error.clear();
    after_data_change();
  } catch (const std::exception& e) {
    report(e.what());  // the algorithm's previous data stays
  }
}

void ViewerApp::handle_actions(const PanelActions& act) {
  // A folder is the data of the algorithm that opens folders (the 4D light field), a file
  // that of the one that opens files (the plenoptic scene): open it there and show that
  // algorithm.
  if (!act.calib_path.empty())
    open_calibrated(act.open_path, act.calib_path);
  else if (!act.open_path.empty() && std::filesystem::is_directory(act.open_path))
    open_in_algorithm(act.open_path, true);
  else if (!act.open_path.empty())
    open_in_algorithm(act.open_path, false);  // the load's end fits the panes (poll_loads)
  if (!act.data_error.empty()) report(act.data_error);
  if (act.hand_over) hand_over(act.hand_over);
  if (act.data_replaced) {
    state_.error.clear();
    after_data_change();
  }
  for (auto& v : views_) {
    if (act.fit) v.pending = PaneView::Pending::Fit;
    if (act.one_to_one) v.pending = PaneView::Pending::OneToOne;
  }
}

void ViewerApp::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || state_.pane_test) return;
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
  const bool any_hovered = panes_[0].hovered() || panes_[1].hovered();
  for (int i = 0; i < 2; ++i) {
    // The hovered pane (or both when none is hovered).
    if (any_hovered && !panes_[i].hovered()) continue;
    if (pressed(GLFW_KEY_F)) views_[i].pending = PaneView::Pending::Fit;
    if (pressed(GLFW_KEY_1)) views_[i].pending = PaneView::Pending::OneToOne;
    if (any_hovered) leader_ = i;
  }
  if (pressed(GLFW_KEY_D)) state_.diff = !state_.diff;
  if (pressed(GLFW_KEY_L)) state_.linked = !state_.linked;
}

void ViewerApp::remember_pane_images() {
  // Colour images only (MAD compares images); a scalar pane leaves its slot as it was.
  if (shown_algorithm_ < 0 || shown_algorithm_ >= static_cast<int>(algorithms_.size())) return;
  if (algorithms_[shown_algorithm_]->data_kind() == DataKind::ImagePair) return;
  bool any = false;
  for (int i = 0; i < 2; ++i) {
    const auto* s = panes_[i].shown;
    if (!s || !s->has_content() || s->format() != SurfaceFormat::RGBA8) continue;
    try {
      pane_images_[i] = to_rgb(s->texture().read_rgba());
      any = true;
    } catch (const std::exception& e) {
      report(std::string("reading pane ") + (i == 0 ? "A" : "B") + " back: " + e.what());
    }
  }
  if (any)
    pane_images_source_ = "panes of " + algorithms_[shown_algorithm_]->name() + ": A " +
                          describe(panes_[0].source, *algorithms_[shown_algorithm_]) + " vs B " +
                          describe(panes_[1].source, *algorithms_[shown_algorithm_]);
}

void ViewerApp::show_algorithm_defaults() {
  shown_algorithm_ = algorithm_index_;
  const auto [a, b] = algorithm().default_panes();
  panes_[0].source = PaneSource{};
  panes_[1].source = PaneSource{};
  panes_[0].source.output = a;
  panes_[1].source.output = b;
  for (auto& p : panes_) {
    cancel_pending(p);
    p.rendered_key.clear();
    p.computed = nullptr;
    p.error.clear();
  }
  if (!opt_.zoom)
    for (auto& v : views_) v.pending = PaneView::Pending::Fit;
}

void ViewerApp::layout_image_area(float x, float width, float height, float fb_scale) {
  ImGui::SetNextWindowPos(ImVec2(x, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar |
                                 ImGuiWindowFlags_NoScrollWithMouse |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4, 4));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  if (ImGui::Begin("##images", nullptr, flags)) {
    std::string cuda_why;
    const bool cuda_ok = pool_.cuda_possible(&cuda_why);
    PaneSourceUi ui{&algorithm(), cuda_ok, cuda_why};
    const float gap = 6.0f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float col_w = std::max(1.0f, std::floor((avail.x - gap) / 2.0f));
    const float line = ImGui::GetFrameHeightWithSpacing();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    for (int i = 0; i < 2; ++i) {
      ImagePane& pane = panes_[i];
      ImGui::SetCursorScreenPos(ImVec2(origin.x + i * (col_w + gap), origin.y));
      ImGui::BeginChild(i == 0 ? "##paneA" : "##paneB", ImVec2(col_w, std::max(1.0f, avail.y)), false,
                        ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar |
                            ImGuiWindowFlags_NoScrollWithMouse);
      if (pane.layout_header(ui)) {
        pane.rendered_key.clear();
        pane.foreign.loaded.clear();  // a file set again is read again
      }
      // A foreign map's scores take a line under the status line.
      const bool score_line = !pane.source.file.empty() && pane.foreign.texture && pane.foreign.file.is_map;
      const float image_h = std::max(1.0f, avail.y - (score_line ? 3.0f : 2.0f) * line - 4.0f);
      if (pane.layout_image(views_[i], col_w, image_h, fb_scale, state_.hover_readout))
        leader_ = i;
      if (!pane.pending_key.empty()) {
        // A run in flight: the last image stays until its result arrives.
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "computing... %.0f s",
                           std::floor(now_seconds() - pane.pending_since));
        ImGui::SameLine();
      }
      status_drawn_[i] = pane.error.empty() ? pane_status(pane) : pane.error;
      if (!pane.error.empty()) ImGui::PushStyleColor(ImGuiCol_Text, kRed);
      ImGui::TextUnformatted(status_drawn_[i].c_str());
      if (!pane.error.empty()) ImGui::PopStyleColor();
      if (i == 1 && state_.diff) {
        ImGui::SameLine();
        ImGui::TextDisabled(!(diff_ && diff_->valid) ? "[difference: n/a]"
                            : state_.signed_diff   ? "[difference A-B]"
                                                   : "[difference |A-B|]");
      }
      if (score_line) {
        // The foreign map's scores against the truth (or why there are none), as the
        // panel shows the algorithm's own; the full set in the tooltip and the sidecar.
        const ForeignScore& sc = pane.foreign.score;
        if (sc.scored) ImGui::TextUnformatted(sc.summary.c_str());
        else ImGui::TextDisabled("%s", sc.note.c_str());
        if (sc.scored && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sc.scores.dump(2).c_str());
      }
      ImGui::EndChild();
    }
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
}

void ViewerApp::build_ui(int fb_w, int fb_h) {
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const float w = io.DisplaySize.x, h = io.DisplaySize.y;
  (void)fb_w;
  (void)fb_h;
  state_.panel_width = std::min(w, std::min(420.0f, std::max(200.0f, w * 0.4f)));

  diff_ = state_.diff ? &diff_cache_.get(panes_[0].shown, panes_[1].shown) : nullptr;
  SidePanelContext ctx{state_, pool_, algorithms_, algorithm_index_, panes_, diff_,
                       gl_description_};
  // Sliders follow the drag while a run keeps the frame rate; past that, they apply on release.
  set_apply_on_release(state_.last_run_ms > kLiveRunMs);
  const PanelActions act = draw_side_panel(ctx, h);
  // An algorithm chosen in the panel gets its panes before the pane headers are drawn: a
  // pane source of the previous algorithm (its variant index, its output) means nothing to
  // the new one (a variant index past the new one's list read past the end of it).
  if (algorithm_index_ != shown_algorithm_) {
    remember_pane_images();
    show_algorithm_defaults();
  }
  layout_image_area(state_.panel_width, std::max(1.0f, w - state_.panel_width), h, scale);
  handle_keys();
  handle_actions(act);
  if (algorithm_index_ != shown_algorithm_) {
    remember_pane_images();
    show_algorithm_defaults();
  }
  if (algorithm().data_kind() == DataKind::ImagePair && algorithm().take_compare_request()) {
    try {
      LB_REQUIRE(!pane_images_[0].empty() && !pane_images_[1].empty(),
                 "compare the panes: show two colour outputs in another algorithm's panes first");
      auto pair = std::make_shared<ImagePairData>();
      pair->reference = pane_images_[0];
      pair->distorted = pane_images_[1];
      pair->source = pane_images_source_;
      algorithm().take_data(pair);
      state_.error.clear();
    } catch (const std::exception& e) {
      report(e.what());
    }
  }
  if (act.interop_toggled)
    for (auto& p : panes_) p.rendered_key.clear();
}

bool ViewerApp::resize_step(int frame) {
  static const int sizes[][2] = {{1, 1}, {64, 48}, {300, 200}, {2600, 1500}, {120, 900}, {900, 60}};
  constexpr int n = static_cast<int>(std::size(sizes));
  const int k = frame - 1;
  int w = 0, h = 0;
  window_.framebuffer_size(&w, &h);
  if (k <= n + 3) std::fprintf(stderr, "resize test: frame %d drawn at %dx%d\n", frame, w, h);
  if (k < n) window_.set_size(sizes[k][0], sizes[k][1]);
  else if (k == n) window_.iconify(true);
  else if (k == n + 1) window_.iconify(false);
  else if (k == n + 2) window_.set_size(opt_.width, opt_.height);
  return k >= n + 3;  // a frame drawn at the size again
}

int ViewerApp::run() {
  if (!soak_) return run_frames();
  // A soak names the step whose frame threw and still writes its report.
  try {
    return run_frames();
  } catch (const std::exception& e) {
    soak_->frame_threw(e.what());
    return soak_->finish();
  }
}

double ViewerApp::now_seconds() const {
  using clock = std::chrono::steady_clock;
  static const clock::time_point t0 = clock::now();
  return std::chrono::duration<double>(clock::now() - t0).count();
}

void ViewerApp::apply_script(int frame) {
  for (const ScriptStep& st : script_) {
    if (st.frame != frame) continue;
    const auto params = algorithm().live_params();
    const ParamInfo* p = find_param(params, st.name);
    if (!p) {
      report("--script: " + algorithm().name() + " has no parameter " + quote_untrusted(st.name));
      continue;
    }
    set_param_value(*p, st.value);
    std::fprintf(stderr, "lightbench: frame %d: %s = %g\n", frame, st.name.c_str(), st.value);
  }
}

nlohmann::json ViewerApp::frames_json() const {
  std::vector<double> t = frame_ms_;
  std::sort(t.begin(), t.end());
  auto pct = [&](double q) {
    if (t.empty()) return 0.0;
    const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(t.size()))) - 1;
    return t[std::min(i, t.size() - 1)];
  };
  return {{"count", t.size()},
          {"p50_ms", pct(0.50)},
          {"p99_ms", pct(0.99)},
          {"max_ms", t.empty() ? 0.0 : t.back()},
          {"busy", busy_frames_},
          {"loading", loading_frames_}};
}

int ViewerApp::run_frames() {
  const bool scripted = !opt_.screenshot.empty();
  int last_script_frame = 0;
  for (const ScriptStep& st : script_) last_script_frame = std::max(last_script_frame, st.frame);
  int frame = 0, quiet_frames = 0, resize_frame = 0;
  // Frames ended with no run in flight: the screenshot waits for 2, so that one whole frame
  // (its status lines, zoom and colour bars built before the draw) follows the last result.
  int settled_frames = 0;
  bool minimised = false, resize_done = false;
  double frame_start = -1.0;
  while (!window_.should_close()) {
    if (soak_ && !startup_pending_ && !soak_->before_frame()) return soak_->finish();
    // Sleep while nothing happens; a few frames after any input let ImGui settle. While a
    // run is in flight frames keep coming (the "computing" badge, its result), at most about
    // 60 a second so a headless loop leaves the cores to the run.
    // A load in flight (data_loader.hpp) keeps frames coming too: its progress, then its data.
    const bool in_flight = runs_pending() || loads_pending();
    const bool busy = scripted || soak_ || quiet_frames < 3 || in_flight;
    if (in_flight && frame_start >= 0.0) {
      // ... but a finished run wakes the loop at once (its result is drawn now, not at the
      // next 60 Hz tick: slider-to-pixels latency).
      const double wait = 1.0 / 60.0 - (now_seconds() - frame_start);
      if (wait > 0) wait_for_result(wait);
    }
    window_.process_events(minimised ? 0.1 : (busy ? 0.0 : 0.25));
    if (window_.take_activity()) quiet_frames = 0;
    if (!startup_pending_) handle_drops();  // a drop waits for the command line's data

    int fb_w = 0, fb_h = 0;
    window_.framebuffer_size(&fb_w, &fb_h);
    minimised = fb_w <= 0 || fb_h <= 0;
    if (minimised) continue;

    const double t = now_seconds();
    // Frame times start to start, from the third frame on: the first ones compile the
    // display shaders and build ImGui's font atlas (one-off costs, not the frame rate).
    if (frame_start >= 0.0 && frame >= 2) frame_ms_.push_back((t - frame_start) * 1000.0);
    frame_start = t;
    if (in_flight) ++busy_frames_;
    if (loads_pending()) ++loading_frames_;
    if (!startup_pending_) apply_script(frame + 1);
    if (!startup_pending_ && opt_.cancel_load > 0 && frame + 1 == opt_.cancel_load) {
      for (auto& a : algorithms_) a->loader().cancel();  // as the panel's Cancel button
      std::fprintf(stderr, "lightbench: frame %d: loads cancelled\n", frame + 1);
    }
    if (!startup_pending_) latency_step();
    poll_loads();
    poll_remote();
    if (startup_pending_ && !loads_pending()) finish_startup();
    collect_results();
    window_.begin_imgui_frame();
    build_ui(fb_w, fb_h);
    update_outputs();
    // The colour bars after update_outputs: they describe what draw_panes draws this frame.
    draw_lens_overlays();  // under the colour bars
    for (ImagePane& p : panes_) {
      const auto [x, y, w, h] = p.logical_rect();
      draw_colour_bar(pane_look(p.index()).bar, x, y, w, h, p.bar_box);
    }
    ImGui::Render();
    try {
      draw_panes(fb_w, fb_h);
    } catch (const std::exception& e) {
      report(std::string("drawing: ") + e.what());
    }
    window_.render_imgui();
    if (startup_pending_) continue;  // frames count from the end of the start-up
    if (soak_) soak_->after_frame();
    ++frame;
    ++quiet_frames;
    // The resize test starts once the panes have their first images (runs are off the UI
    // thread), so it resizes panes with content, and the screenshot waits for its end.
    if (opt_.resize_test && !resize_done && (resize_frame > 0 || !runs_pending()))
      resize_done = resize_step(++resize_frame);
    // The screenshot waits for the runs in flight (frames go on meanwhile), so the image and
    // the sidecar belong to the final parameters.
    // --until-remote N: it waits for the remote images too (2 frames after they are in).
    settled_frames = runs_pending() || loads_pending() || remote_waiting() ? 0 : settled_frames + 1;
    if (scripted && frame >= std::max(opt_.frames, last_script_frame + 1) && settled_frames >= 2 &&
        (!opt_.resize_test || resize_done) && (sweep_.samples <= 0 || sweep_.done())) {
      try {
        nlohmann::json layout = layout_json(fb_w, fb_h);
        layout["errors"] = errors_;
        layout["frames"] = frames_json();
        if (opt_.latency_sweep > 0) {
          layout["latency"] = latency_json();
          nlohmann::json summary = layout["latency"];
          summary.erase("samples");  // in the sidecar only
          std::printf("lightbench: latency %s %s: %s\n", algorithm().id().c_str(), sweep_.param.c_str(),
                      summary.dump().c_str());
        }
        save_screenshot(opt_.screenshot, fb_w, fb_h, layout);
        std::printf("lightbench: screenshot %s (%dx%d, %d frames)\n", opt_.screenshot.c_str(),
                    fb_w, fb_h, frame);
        // Honest scripted runs: data that could not be opened (the bundled data shown
        // instead), a failed run or a bad option fail the run; the screenshot and the
        // sidecar's "errors" still say what was shown and why.
        if (!errors_.empty()) {
          std::fprintf(stderr, "lightbench: %zu error(s) during the run, exit code 1\n", errors_.size());
          return 1;
        }
        return 0;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "lightbench: screenshot failed: %s\n", safe_line(e.what()).c_str());
        return 1;
      }
    }
    window_.swap();
    latency_frame_end();
  }
  return 0;
}

}  // namespace lb::viewer
