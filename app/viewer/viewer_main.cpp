#include "viewer_main.hpp"

#include <cstdio>
#include <exception>

#include "app_window.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/error.hpp"
#include "options.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

int viewer_main(int argc, char** argv) {
  ViewerOptions options;
  if (const int rc = parse_options(argc, argv, options); rc >= 0) return rc;
  try {
    parse_backend_request(options.backend);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightbench: %s\n", safe_line(e.what()).c_str());
    return 2;
  }
  try {
    WindowConfig config;
    config.width = options.width;
    config.height = options.height;
    config.vsync = options.screenshot.empty() && options.soak == 0;
    config.headless = options.headless;
    auto window = open_app_window(config);
    if (options.headless) std::fprintf(stderr, "lightbench: %s\n", window->description().c_str());
    ViewerApp app(*window, options);
    return app.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightbench: %s\n", safe_line(e.what()).c_str());
    return 1;
  }
}

}  // namespace lb::viewer
