#pragma once
// --screenshot: the framebuffer the frame was drawn into (the window's back buffer, or the
// headless window's offscreen framebuffer) as PNG (glReadPixels, rows flipped) and, next to
// it, FILE.json describing the layout (pane rectangles, image placement, zoom, sources,
// transports, parameters, scores), so tests can find the image pane in the picture.
#include <string>

#include <nlohmann/json.hpp>

namespace lb::viewer {

// Reads fb_w x fb_h of the framebuffer bound for drawing; throws lb::Error on failure.
void save_screenshot(const std::string& png_path, int fb_w, int fb_h, const nlohmann::json& layout);

}  // namespace lb::viewer
