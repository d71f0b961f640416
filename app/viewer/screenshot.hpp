#pragma once
// --screenshot: the window's framebuffer as PNG (glReadPixels, rows flipped) and, next to
// it, FILE.json describing the layout (pane rectangles, image placement, zoom, sources,
// parameters), so tests can find the image pane in the picture.
#include <string>

#include <nlohmann/json.hpp>

namespace lb::viewer {

// Reads the current (back) framebuffer of fb_w x fb_h; throws lb::Error on failure.
void save_screenshot(const std::string& png_path, int fb_w, int fb_h, const nlohmann::json& layout);

}  // namespace lb::viewer
