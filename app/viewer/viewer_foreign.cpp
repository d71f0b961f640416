// ViewerApp, panes that show a file (`--paneN file=PATH`, the pane's "file..." field, a file
// dropped on a pane): another method's disparity map, scored against the data's truth with
// eval::evaluate, or any image. The file is read off the UI thread when the source is set
// (the pane's file_loader, as the data sections read theirs; never again per frame), its
// texture made on the UI thread when it is done; scoring reruns only when the data changes.
#include <memory>

#include "remote_source.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

void ViewerApp::update_foreign(ImagePane& pane) {
  ImagePane::Foreign& f = pane.foreign;
  const std::string& path = pane.source.file;
  if (remote::is_remote_spec(path)) {
    update_remote(pane, remote::remote_name_of(path));  // from the remote port's images
  } else if (f.loaded != path) {
    f.texture.reset();
    f.file = ForeignFile{};
    f.score = ForeignScore{};
    f.scored_for = ~std::uint64_t{0};
    f.error.clear();
    f.loaded = path;  // also on failure: not retried until the source is set again
    const int i = pane.index();
    pane.file_loader.start("'" + path + "'", [this, i, path]() -> DataLoader::Apply {
      auto file = std::make_shared<ForeignFile>(load_foreign_file(path));
      return [this, i, path, file](DataRequest&) {
        ImagePane::Foreign& g = panes_[i].foreign;
        if (g.loaded != path) return;  // the pane moved on meanwhile
        auto tex = std::make_unique<gl::GlTextureSurface>(file->is_map ? SurfaceFormat::R32F : SurfaceFormat::RGBA8);
        tex->set_interop_enabled(false, "pane file texture");
        if (file->is_map) tex->upload_host(file->map);
        else tex->upload_host(file->image);
        g.file = std::move(*file);
        g.texture = std::move(tex);
        views_[i].pending = PaneView::Pending::Fit;
      };
    });
  }
  DataRequest ignored;
  const DataLoader::Outcome out = pane.file_loader.poll(ignored);
  if (out.finished && !out.error.empty()) {
    f.error = out.error;
    report(std::string("pane ") + (pane.index() == 0 ? "A" : "B") + ": " + out.error);
  }
  pane.error = f.error;
  pane.shown = f.texture && f.texture->has_content() ? f.texture.get() : nullptr;
  if (f.texture && f.file.is_map && f.scored_for != algorithm().data_id()) {
    const eval::Truth* truth = algorithm().eval_truth();
    f.score = score_foreign(f.file.map, truth);
    f.scored_for = algorithm().data_id();
    if (!truth)
      for (const AlgorithmOutput& o : algorithm().outputs())
        if (o.name == "truth")  // a truth that is not a disparity (the plenoptic patch sizes)
          f.score.note = std::string("not scored: the ") + to_string(algorithm().data_kind()) +
                         "'s truth has no disparity protocol";
  }
}

nlohmann::json ViewerApp::foreign_json(const ImagePane& pane) const {
  const ImagePane::Foreign& f = pane.foreign;
  nlohmann::json j = {{"path", pane.source.file}, {"error", f.error}};
  if (remote::is_remote_spec(pane.source.file)) j["remote"] = remote_pane_json(remote::remote_name_of(pane.source.file));
  if (!f.texture) return j;
  j["kind"] = f.file.is_map ? "map" : "image";
  j["width"] = f.file.is_map ? f.file.map.width : f.file.image.width;
  j["height"] = f.file.is_map ? f.file.map.height : f.file.image.height;
  if (f.file.is_map) {
    j["range"] = {f.file.lo, f.file.hi};
    j["scored"] = f.score.scored;
    j["protocol"] = f.score.protocol;
    j["scores"] = f.score.scores;
    j["note"] = f.score.note;
  }
  return j;
}

int ViewerApp::pane_at(double x, double y) const {
  for (int i = 0; i < 2; ++i)
    if (panes_[i].contains(x, y)) return i;
  return -1;
}

}  // namespace lb::viewer
