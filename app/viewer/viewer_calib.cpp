// ViewerApp: raws opened with their calibration (.xml): the Scene header's calibration field,
// --raw --calib at start-up (the section does that), and drops; and the lens overlay.
#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "lightbench/calibrated_raw.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

namespace {
bool is_xml(const std::string& p) { return file_extension(p) == ".xml"; }
}  // namespace

bool ViewerApp::open_calibrated(const std::string& raw, const std::string& calib) {
  try {
    // The shown algorithm's plenoptic scene (and its section's loader, whose panel shows the
    // load), else the first one's.
    SpecAlgorithm* opener = algorithm().data_kind() == DataKind::PlenopticScene ? &algorithm() : nullptr;
    for (const auto& a : algorithms_)
      if (!opener && a->data_kind() == DataKind::PlenopticScene) opener = a.get();
    LB_REQUIRE(opener != nullptr, "calibration '" + calib + "': no plenoptic algorithm to open it in");
    // raw "": the raw open now (immutable data: read on the loader's thread as it is).
    const std::shared_ptr<const AlgorithmData> cur = raw.empty() ? opener->data() : nullptr;
    LB_REQUIRE(!raw.empty() || cur != nullptr, "calibration '" + calib + "': no plenoptic raw is open to apply it to");
    // Read and fitted off the UI thread (data_loader.hpp), handed over on it.
    opener->loader().start("calibration '" + calib + "'", [raw, calib, cur]() -> DataLoader::Apply {
      CalibInfo info;
      PlenopticScene s;
      if (cur) {
        const PlenopticScene& open = data_as<PlenopticData>(*cur, DataKind::PlenopticScene).scene;
        lb::require_regular_file(calib, "calibration");  // a named pipe is refused before opening
        // The raw's own name (a calibrated scene's source is "raw + xml (...)").
        const std::string name = open.source.substr(0, open.source.find(" + "));
        s = calibrated_scene(open.raw, load_raytrix_calibration(calib), CalibFit::Auto, name, calib, &info);
      } else {
        s = load_calibrated_raw(raw, calib, CalibFit::Auto, &info);
      }
      s.source += calib_fit_note(info);
      auto d = std::make_shared<PlenopticData>();
      d->scene = std::move(s);
      return [d](DataRequest& req) {  // to the general-grid algorithm (ViewerApp::hand_over)
        req.replaced = false;
        req.hand_over = d;
      };
    });
    return true;
  } catch (const std::exception& e) {
    report(e.what());  // the scenes stay as they were
    return false;
  }
}

bool ViewerApp::drop_calibration(const std::vector<std::string>& paths) {
  const auto xmls = std::count_if(paths.begin(), paths.end(), is_xml);
  if (xmls == 0) return false;
  if (paths.size() == 1) {
    open_calibrated("", paths[0]);  // an .xml alone: for the raw open now
    return true;
  }
  if (paths.size() == 2 && xmls == 1) {
    const std::string& xml = is_xml(paths[0]) ? paths[0] : paths[1];
    const std::string& raw = is_xml(paths[0]) ? paths[1] : paths[0];
    open_calibrated(raw, xml);
    return true;
  }
  report("dropped " + std::to_string(paths.size()) + " files with " + std::to_string(xmls) +
         " .xml: drop a raw with its calibration .xml (two files), or one .xml for the open raw");
  return true;
}

void ViewerApp::draw_lens_overlays() {
  const float fb_scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  for (int i = 0; i < 2; ++i) {
    ImagePane& p = panes_[i];
    lenses_drawn_[i] = 0;
    if (!p.source.file.empty() || !p.shown || !p.shown->has_content()) continue;
    if (state_.diff && i == 1) continue;  // the difference image is not the raw
    const DisplayHints hints = algorithm().display(p.source.output);
    if (!hints.lens_overlay) continue;
    lenses_drawn_[i] = draw_lens_overlay(hints.lenses, p.shown->width(), p.shown->height(), p.rect(), views_[i].t, fb_scale,
                      lens_cache_[i]);
  }
}

}  // namespace lb::viewer
