// ViewerApp, panes: submitting each pane's run when its inputs change and taking finished
// results into the panes' textures (run_worker.hpp), the zoom/pan link, drawing the images
// with GL, the status line and the layout report.
#include <epoxy/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lightbench/error.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

void ViewerApp::sync_views() {
  if (state_.pane_test) {
    // Pane A at 1:1 with the image's top-left pixel on the pane's top-left pixel.
    views_[0].t = {1.0, 0.0, 0.0};
    views_[0].pending = PaneView::Pending::None;
  }
  bool shown[2] = {false, false};
  for (int i = 0; i < 2; ++i) {
    const auto* s = panes_[i].shown;
    if (!s || !s->has_content()) continue;
    shown[i] = true;
    view_track_image(views_[i], s->width(), s->height());
    const gl::PixelRect& r = panes_[i].rect();
    view_resolve(views_[i], r.w, r.h, s->width(), s->height());
  }
  if (state_.linked && !state_.pane_test && shown[0] && shown[1])
    view_follow(views_[1 - leader_], views_[leader_]);
}

std::string ViewerApp::pane_status(ImagePane& pane) {
  const auto* s = pane.shown;
  if (!s || !s->has_content()) return "no image";
  const PaneView& v = views_[pane.index()];
  char buf[256];
  std::snprintf(buf, sizeof buf, "%dx%d %s  zoom %.0f%%", s->width(), s->height(),
                s->format() == SurfaceFormat::R32F ? "R32F" : "RGBA8", v.t.zoom * 100.0);
  std::string out = buf;
  // The data's 16-bit files converted to 8 bits ("16-bit input converted to 8 bits (v/257)").
  if (pane.source.file.empty())
    if (const std::string notes = algorithm().conversion_notes(); !notes.empty()) out += "  " + notes;
  if (!state_.hover_readout || !pane.hover_pixel()) return out;
  const auto [x, y] = *pane.hover_pixel();
  try {
    const bool diff_pane = pane.index() == 1 && state_.diff &&
                           diff_compatible(panes_[0].shown, panes_[1].shown, nullptr);
    const auto val = texel_reader_.read(s->texture(), x, y);
    if (s->format() == SurfaceFormat::R32F)
      std::snprintf(buf, sizeof buf, "  (%d, %d) = %.4g", x, y, val[0]);
    else
      std::snprintf(buf, sizeof buf, "  (%d, %d) = %d %d %d", x, y, int(val[0]), int(val[1]),
                    int(val[2]));
    out += buf;
    if (diff_pane) {
      const auto a = texel_reader_.read(panes_[0].shown->texture(), x, y);
      float e = 0;  // signed: the channel of the largest |A - B|
      const int channels = s->format() == SurfaceFormat::R32F ? 1 : 3;
      for (int c = 0; c < channels; ++c)
        if (std::abs(a[c] - val[c]) > std::abs(e)) e = a[c] - val[c];
      if (state_.signed_diff) std::snprintf(buf, sizeof buf, "  A-B = %g", e);
      else std::snprintf(buf, sizeof buf, "  |A-B| = %g", std::abs(e));
      out += buf;
    }
  } catch (const std::exception& e) {
    out += std::string("  (read-back failed: ") + e.what() + ")";
  }
  return out;
}

void ViewerApp::cancel_pending(ImagePane& pane) {
  if (pane.pending_worker) pane.pending_worker->cancel(pane.index());
  pane.pending_worker.reset();
  pane.pending_key.clear();
}

bool ViewerApp::runs_pending() const {
  return !panes_[0].pending_key.empty() || !panes_[1].pending_key.empty();
}

void ViewerApp::collect_results() {
  // Every algorithm's workers: results of an algorithm no longer shown are dropped here.
  std::vector<RunWorker*> workers;
  for (auto& a : algorithms_) a->workers(workers);
  for (RunWorker* w : workers) {
    for (RunResult& r : w->take_results()) {
      // Device buffers go back to their worker whatever happens here (freeing one on this
      // thread would synchronize the device with the runs in flight).
      struct Recycle {
        RunWorker* w;
        RunResult& r;
        ~Recycle() { w->recycle(std::move(r.device)); }
      } recycle{w, r};
      if (r.request.pane < 0 || r.request.pane > 1) continue;
      ImagePane& pane = panes_[r.request.pane];
      // Only the pane's latest request counts: a superseded result (cancelled or not) is
      // dropped, so the image always belongs to the last value set.
      if (r.request.key != pane.pending_key || r.cancelled) continue;
      pane.pending_key.clear();
      pane.pending_worker.reset();
      pane.rendered_key = r.request.key;  // also on failure: not retried until the inputs change
      state_.last_run_ms = r.ms;
      if (!r.error.empty()) {
        pane.error = r.error;  // the previous image stays
        report(r.error);
        continue;
      }
      try {
        gl::GlTextureSurface& target = pane.output_for(r.request.format);
        target.set_interop_enabled(state_.use_interop);
        const double copy_start = now_seconds();
        if (r.device) target.write_from(*r.device);
        else if (r.host) target.write_from(*r.host);
        else throw Error("run: no result surface");
        const double ready = copy_start - std::chrono::duration<double>(std::chrono::steady_clock::now() - r.finished).count();
        latency_.accepted(pane.index(), pane.pending_since, r.ms, ready, copy_start, now_seconds());
        pane.computed = &target;
        // Shown from this frame on: the pane's status line, built before update_outputs, then
        // describes the image this frame draws (it said "no image" for the frame of a first result).
        pane.shown = pane.computed;
        if (!pane.error.empty() && state_.error == pane.error) state_.error.clear();
        pane.error.clear();
        algorithm().accept(r);
      } catch (const std::exception& e) {
        pane.error = e.what();
        report(e.what());
      }
    }
  }
}

void ViewerApp::update_outputs() {
  // While the command line's data loads, the panes wait for it (its loader's line says how
  // far it got) rather than compute on the bundled data the panes' settings do not apply to.
  if (startup_pending_) {
    for (ImagePane& pane : panes_) {
      pane.shown = nullptr;
      pane.error = "loading the command line's data ...";
    }
    return;
  }
  Algorithm& algo = algorithm();
  std::vector<AlgorithmOutput> outs = algo.outputs();
  for (ImagePane& pane : panes_) {
    if (!pane.source.file.empty()) {
      cancel_pending(pane);
      update_foreign(pane);
      continue;
    }
    if (pane.foreign.texture || !pane.foreign.loaded.empty()) pane.foreign = ImagePane::Foreign{};
    if (pane.file_loader.busy()) pane.file_loader.cancel();  // a file no longer shown
    const AlgorithmOutput* out = nullptr;
    for (const auto& o : outs)
      if (o.name == pane.source.output) out = &o;
    if (!out) {
      cancel_pending(pane);
      pane.shown = nullptr;
      pane.error = "no output '" + pane.source.output + "' in " + algo.name();
      continue;
    }
    std::string why;
    if (!algo.ready(&why)) {
      cancel_pending(pane);
      pane.shown = nullptr;
      pane.error = why;
      continue;
    }
    if (const gl::GlTextureSurface* tex = algo.input_texture(out->name)) {
      cancel_pending(pane);
      pane.shown = tex;
      pane.error.clear();
      continue;
    }
    // Inputs computed on the host ignore the pane's backend.
    const BackendSlot slot = out->input ? BackendSlot::Cpu : pane.source.backend;
    if (!out->input && !pool_.kind_of(slot, &why)) {
      cancel_pending(pane);
      pane.error = "CUDA backend unavailable: " + why;
      pane.shown = nullptr;
      pane.rendered_key.clear();
      continue;
    }
    char ids[96];
    std::snprintf(ids, sizeof ids, "%llu|%d|%d|%d|", static_cast<unsigned long long>(algo.data_id()),
                  static_cast<int>(slot), algorithm_index_, state_.use_interop ? 1 : 0);
    const std::string key = ids + algo.run_key(pane.source.run, pane.source.output);
    if (key != pane.rendered_key && key != pane.pending_key) {
      // Phase one here (the snapshot), phase two on the runner's worker; a newer key
      // supersedes the pane's request in flight.
      try {
        RunRequest r = algo.request(pool_, slot, pane.source.run, pane.source.output);
        r.pane = pane.index();
        r.key = key;
        r.device = state_.use_interop && r.worker->kind() == BackendKind::Cuda;
        if (pane.pending_worker && pane.pending_worker != r.worker) cancel_pending(pane);
        pane.pending_worker = r.worker;
        pane.pending_key = key;
        pane.pending_since = now_seconds();
        r.worker->submit(std::move(r));
      } catch (const std::exception& e) {
        cancel_pending(pane);
        pane.rendered_key = key;
        pane.error = e.what();  // the previous image stays
        report(e.what());
      }
    }
    pane.shown = pane.computed && pane.computed->has_content() ? pane.computed : nullptr;
  }
}

void ViewerApp::draw_panes(int fb_w, int fb_h) {
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  sync_views();
  const bool diff_ok = state_.diff && diff_compatible(panes_[0].shown, panes_[1].shown, nullptr);
  for (int i = 0; i < 2; ++i) {
    const ImagePane& pane = panes_[i];
    const gl::PixelRect& r = pane.rect();
    if (r.empty()) continue;
    if (!pane.shown || !pane.shown->has_content()) {
      display_.draw_empty(r, fb_h);
      continue;
    }
    const PaneView& view = views_[i];
    const PaneLook look = pane_look(i);
    if (look.difference && diff_ok) {
      state_.style.diff_max = look.style.diff_max;
      display_.draw_difference(r, fb_h, panes_[0].shown->texture(), pane.shown->texture(), view.t,
                               look.style, state_.signed_diff);
    } else {
      display_.draw(r, fb_h, pane.shown->texture(), view.t, look.style);
    }
  }
  glViewport(0, 0, fb_w, fb_h);
}

std::string ViewerApp::pane_unit(int i) {
  const ImagePane& p = panes_[i];
  if (!p.source.file.empty()) return p.foreign.texture && p.foreign.file.is_map ? "px" : "";
  for (const AlgorithmOutput& o : algorithm().outputs())
    if (o.name == p.source.output) return o.unit;
  return "";
}

ViewerApp::PaneLook ViewerApp::pane_look(int i) {
  PaneLook look;
  const ImagePane& pane = panes_[i];
  gl::DisplayStyle& style = look.style;
  style = state_.style;
  const bool foreign = !pane.source.file.empty();
  if (foreign) {
    if (pane.foreign.texture && pane.foreign.file.is_map) {
      style.range_min = static_cast<float>(pane.foreign.file.lo);
      style.range_max = static_cast<float>(pane.foreign.file.hi);
    }
  } else {
    const DisplayHints hints = algorithm().display(pane.source.output);
    if (hints.has_range) {
      style.range_min = hints.range_min;
      style.range_max = hints.range_max;
    }
    if (hints.micro_grid) {
      const PlenopticGrid& g = hints.grid;
      style.micro_grid = true;
      style.grid_pitch = g.pitch;
      style.grid_ox = g.ox;
      style.grid_oy = g.oy;
      style.grid_nx = g.nx;
      style.grid_ny = g.ny;
    }
  }
  if (!pane.shown || !pane.shown->has_content()) return look;
  ColourBar& bar = look.bar;
  if (i == 1 && state_.diff && diff_compatible(panes_[0].shown, panes_[1].shown, nullptr)) {
    look.difference = true;
    if (state_.auto_diff_max && diff_ && diff_->valid)
      style.diff_max = static_cast<float>(diff_->scalar ? std::max(diff_->max_abs, 1e-6)
                                                        : std::max(diff_->max_abs, 1.0));
    const bool scalar = pane.shown->format() == SurfaceFormat::R32F;
    bar.shown = true;
    bar.map = state_.signed_diff ? ColorMap::Diverging : style.colormap;
    bar.lo = state_.signed_diff ? -style.diff_max : 0.0;
    bar.hi = style.diff_max;
    bar.unit = scalar ? pane_unit(0) : "levels";
    bar.label = state_.signed_diff ? "A - B" : "|A - B|";
    return look;
  }
  if (pane.shown->format() != SurfaceFormat::R32F) return look;
  bar.shown = true;
  bar.map = style.colormap;
  bar.lo = style.range_min;
  bar.hi = style.range_max;
  bar.unit = pane_unit(i);
  return look;
}

nlohmann::json ViewerApp::layout_json(int fb_w, int fb_h) {
  using nlohmann::json;
  Algorithm& algo = algorithm();
  json j = json::object();
  // The algorithms' data blocks first (the plenoptic "scene"), whichever is shown.
  for (const auto& a : algorithms_) j.update(a->data_json());
  j["framebuffer"] = {{"width", fb_w}, {"height", fb_h}};
  j["window"] = window_.description();
  j["backend"] = {{"kind", to_string(pool_.selected())},
                  {"device", pool_.device_name()},
                  {"reason", pool_.reason()}};
  j["algorithm"] = algo.name();
  j["results"] = algo.results_json();
  // Every output the algorithm offers now, so a test can show each of them in turn.
  j["outputs"] = json::array();
  for (const AlgorithmOutput& o : algo.outputs()) j["outputs"].push_back({{"name", o.name}, {"input", o.input}});
  j["difference"] = state_.diff;
  j["signed_difference"] = state_.signed_diff;
  if (state_.diff && diff_ && diff_->valid)
    j["difference_stats"] = {{"max_abs", diff_->max_abs},       {"mean_abs", diff_->mean_abs},
                             {"min_signed", diff_->min_signed}, {"max_signed", diff_->max_signed},
                             {"differing", diff_->differing},   {"pixels", diff_->pixels}};
  // The timings table's rows ("CPU/lfdepth/refine/guided filter"), so a test can see that
  // every algorithm's runs reach it.
  std::vector<TimingSource> sources;
  algo.timing_sources(sources);
  j["timings"] = json::array();
  for (const TimingSource& s : sources)
    for (const std::string& k : s.registry->kernels()) {
      const TimingStats st = s.registry->stats(k);
      j["timings"].push_back({{"name", s.prefix + "/" + k}, {"device", s.device}, {"samples", st.count},
                              {"median_ms", st.median_ms}});
    }
  for (int i = 0; i < 2; ++i) {
    ImagePane& p = panes_[i];
    const PaneView& v = views_[i];
    const gl::PixelRect& r = p.rect();
    json pj = {{"index", i},
               {"source", describe(p.source, algo)},
               {"output", p.source.output},
               {"rect", {r.x, r.y, r.w, r.h}},
               {"error", p.error},
               {"status", status_drawn_[i]},  // the status line the screenshot's frame drew
               {"computing", !p.pending_key.empty()}};
    if (p.shown && p.shown->has_content()) {
      pj["image"] = {{"width", p.shown->width()},
                     {"height", p.shown->height()},
                     {"origin", {r.x + v.t.offset_x, r.y + v.t.offset_y}},
                     {"zoom", v.t.zoom}};
      pj["transport"] = p.shown->transport();
    }
    if (lenses_drawn_[i] > 0) pj["lenses_drawn"] = lenses_drawn_[i];  // the lens overlay's circles
    const PaneLook look = pane_look(i);
    if (look.style.micro_grid) pj["micro_grid"] = true;  // the micro-image grid over the image
    pj["colour_bar"] = to_json(look.bar);
    if (!pj["colour_bar"].is_null()) {
      // Where it covers the image, in framebuffer pixels as "rect" (0 x 0: not drawn, too small).
      const float s = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
      pj["colour_bar"]["box"] = {std::lround(p.bar_box[0] * s), std::lround(p.bar_box[1] * s),
                                 std::lround(p.bar_box[2] * s), std::lround(p.bar_box[3] * s)};
    }
    if (!p.source.file.empty()) {
      pj["output"] = "file";
      pj["file"] = foreign_json(p);
      j["panes"].push_back(pj);
      continue;
    }
    if (!is_input_output(algo, p.source.output)) {
      pj["params"] = algo.run_json(p.source.run);
      pj["backend"] = to_string(p.source.backend);
    }
    j["panes"].push_back(pj);
  }
  j["error"] = state_.error;
  return j;
}

}  // namespace lb::viewer
