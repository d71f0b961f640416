#include "screenshot.hpp"

#include <fstream>

#include "lightbench/error.hpp"
#include "lightbench/gl/texture.hpp"
#include "lightbench/image_io.hpp"

namespace lb::viewer {

void save_screenshot(const std::string& png_path, int fb_w, int fb_h, const nlohmann::json& layout) {
  glReadBuffer(GL_BACK);
  const ImageU8 img = gl::read_framebuffer(fb_w, fb_h);
  save_image(png_path, img);
  const std::string json_path = png_path + ".json";
  std::ofstream out(json_path);
  LB_REQUIRE(out.good(), "cannot write " + json_path);
  out << layout.dump(2) << "\n";
  LB_REQUIRE(out.good(), "error writing " + json_path);
}

}  // namespace lb::viewer
