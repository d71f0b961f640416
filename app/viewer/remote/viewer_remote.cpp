// ViewerApp and the remote port (`--listen [HOST:]PORT`, issue 41 item 4): the server started
// when asked (remote_server.hpp), its log lines reported on the UI thread, grab_focus switching
// pane B, the panes that show remote:NAME (a remote image as a foreign map or image, scored
// against the data's truth like a map file: remote_source.hpp), and the headless wait of
// --until-remote N [--remote-timeout S].
#include <chrono>
#include <cstdio>
#include <thread>

#include "remote_source.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

void ViewerApp::start_remote() {
  if (opt_.listen.empty()) return;
  remote_started_ = now_seconds();
  try {
    remote_server_ = std::make_unique<remote::RemoteServer>(
        remote::parse_listen_address(opt_.listen), remote_images_, [this](const std::string& line) {
          std::lock_guard lock(remote_mutex_);
          if (remote_lines_.size() < 1000) remote_lines_.push_back(line);
        });
    std::printf("lightbench: remote port listening on %s\n", remote_server_->address().c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    report(e.what());
  }
}

void ViewerApp::stop_remote() {
  if (remote_server_) remote_server_->stop();
  remote_server_.reset();
}

void ViewerApp::poll_remote() {
  if (!remote_server_) return;
  std::vector<std::string> lines;
  {
    std::lock_guard lock(remote_mutex_);
    lines.swap(remote_lines_);
  }
  for (const std::string& line : lines) report(line);
  // grab_focus: pane B shows the image (once the command line's panes are set up).
  if (startup_pending_) return;
  if (const auto name = remote_images_.take_focus()) {
    PaneSource& s = panes_[1].source;
    s.file = remote::remote_spec(*name);
    s.file_field = s.file;
    s.file_editing = false;
  }
}

bool ViewerApp::remote_waiting() {
  if (opt_.until_remote <= 0 || remote_until_done_) return false;
  if (!remote_server_) {  // it could not listen (reported)
    remote_until_done_ = true;
    return false;
  }
  const std::size_t wanted = static_cast<std::size_t>(opt_.until_remote);
  const std::size_t got = remote_images_.received();
  switch (remote::until_remote(wanted, got, now_seconds() - remote_started_, opt_.remote_timeout)) {
    case remote::UntilRemote::Waiting:
      // Headless frames do not wait for events: no need to draw hundreds a second meanwhile.
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      return true;
    case remote::UntilRemote::TimedOut:
      report(remote::until_remote_message(wanted, got, opt_.remote_timeout));
      break;
    case remote::UntilRemote::Done:
      std::printf("lightbench: %zu remote image(s) arrived\n", got);
      break;
  }
  remote_until_done_ = true;
  return false;
}

void ViewerApp::update_remote(ImagePane& pane, const std::string& name) {
  ImagePane::Foreign& f = pane.foreign;
  const std::string& path = pane.source.file;
  if (pane.file_loader.busy()) pane.file_loader.cancel();  // a file no longer shown
  if (!remote_server_) {
    const std::string why = path + ": the viewer listens on no port (start it with --listen [HOST:]PORT)";
    if (f.loaded != path) {
      f = ImagePane::Foreign{};
      f.loaded = path;
      f.error = why;
      report(std::string("pane ") + (pane.index() == 0 ? "A" : "B") + ": " + why);
    }
    return;
  }
  const auto img = remote_images_.find(name);
  // Loaded again whenever the image changes (its version), as a file is when it is set again.
  const std::string key = path + "\n" + (img ? std::to_string(img->version) : std::string("-"));
  if (f.loaded == key) return;
  const bool same_source = f.loaded.rfind(path + "\n", 0) == 0;
  const int old_w = f.texture ? f.texture->width() : -1, old_h = f.texture ? f.texture->height() : -1;
  f.loaded = key;
  f.error.clear();
  f.score = ForeignScore{};
  f.scored_for = ~std::uint64_t{0};
  if (!img) {
    f.texture.reset();
    f.file = ForeignFile{};
    f.error = "waiting for the remote image " + quote_untrusted(name);
    return;
  }
  f.file = remote::to_foreign_file(*img);
  auto tex = std::make_unique<gl::GlTextureSurface>(f.file.is_map ? SurfaceFormat::R32F : SurfaceFormat::RGBA8);
  tex->set_interop_enabled(false, "pane remote texture");
  if (f.file.is_map) tex->upload_host(f.file.map);
  else tex->upload_host(f.file.image);
  if (!same_source || tex->width() != old_w || tex->height() != old_h)
    views_[pane.index()].pending = PaneView::Pending::Fit;
  f.texture = std::move(tex);
}

nlohmann::json ViewerApp::remote_pane_json(const std::string& name) const {
  const auto img = remote_images_.find(name);
  if (!img) return {{"name", name}, {"received", false}};
  nlohmann::json j = remote::remote_json(*img);
  j["received"] = true;
  return j;
}

}  // namespace lb::viewer
