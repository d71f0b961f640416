#pragma once
// One headless viewer run with its screenshot and the screenshot's layout sidecar read back
// (the viewer tests' common step).
#include <filesystem>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "headless_process.hpp"
#include "lightbench/image.hpp"
#include "lightbench/image_io.hpp"

namespace lb::test {

struct Shot {
  int rc = -1;
  std::string log;
  nlohmann::json layout;  // the screenshot's sidecar (empty when the run wrote none)
  lb::ImageU8 png;        // RGB
};

// Runs `exe --headless --backend cpu --size SIZE ARGS --screenshot OUT_BASE.png`, its log in
// OUT_BASE.log.
inline Shot run_shot(const std::string& exe, const std::string& out_base, const std::string& args,
                     const std::string& size = "960x600") {
  namespace fs = std::filesystem;
  Shot s;
  const std::string png = out_base + ".png";
  fs::remove(png);
  fs::remove(png + ".json");
  const std::string cmd = quoted(exe) + " --headless --backend cpu --size " + size + " " + args + " --screenshot " + quoted(png);
  MESSAGE("running: " << cmd);
  const auto r = run_logged(cmd, out_base + ".log");
  s.rc = r.rc;
  s.log = r.log;
  if (fs::exists(png) && fs::exists(png + ".json")) {
    s.png = lb::load_image(png, 3);
    s.layout = read_json(png + ".json");
  }
  return s;
}

}  // namespace lb::test
