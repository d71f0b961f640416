#include <doctest/doctest.h>

#include <set>

#include "lightbench/generator.hpp"
#include "lightbench/scene_file.hpp"
#include "test_util.hpp"

using namespace lb;

TEST_CASE("generator: same seed, same bytes; any thread count") {
  const auto p = generator_preset("tiny", 42);
  const auto a = generate_scene(p, 1);
  const auto b = generate_scene(p, 3);
  CHECK(a.raw.data == b.raw.data);
  CHECK(a.truth.data == b.truth.data);
  const auto c = generate_scene(generator_preset("tiny", 43), 2);
  CHECK(c.raw.data != a.raw.data);
}

TEST_CASE("generator: sizes, vignetting and ground truth") {
  const auto p = generator_preset("tiny", 1);
  const auto s = generate_scene(p);
  // ceil(ox + NX*D) x ceil(oy + NY*D)
  CHECK(s.raw.width == 484);   // 0.75 + 14*34.5 = 483.75
  CHECK(s.raw.height == 347);  // 1.25 + 10*34.5 = 346.25
  CHECK(s.raw.channels == 3);
  CHECK(s.truth.width == 14 * 11);
  CHECK(s.truth.height == 10 * 11);
  std::set<float> values(s.truth.data.begin(), s.truth.data.end());
  CHECK(values == std::set<float>{8.0f, 12.0f});
  // The foreground rectangle covers s in [3,10) x [2,8): output pixel centres map there.
  CHECK(s.truth.at(6 * 11, 5 * 11) == 12.0f);
  CHECK(s.truth.at(1 * 11, 1 * 11) == 8.0f);
  // Vignetting: a micro-image corner is dark, its centre is not.
  const int cx = static_cast<int>(0.75 + 5 * 34.5 + 17), cy = static_cast<int>(1.25 + 5 * 34.5 + 17);
  const int kx = static_cast<int>(0.75 + 5 * 34.5 + 1), ky = static_cast<int>(1.25 + 5 * 34.5 + 1);
  int centre = 0, corner = 0;
  for (int c = 0; c < 3; ++c) {
    centre += s.raw.at(cx, cy, c);
    corner += s.raw.at(kx, ky, c);
  }
  CHECK(corner == 0);
  CHECK(centre > 30);
}

TEST_CASE("generator rejects nonsense and unknown presets") {
  CHECK_THROWS_AS(generator_preset("huge"), Error);
  auto p = generator_preset("tiny");
  p.planes.clear();
  CHECK_THROWS_WITH_AS(generate_scene(p), doctest::Contains("plane"), Error);
  p = generator_preset("tiny");
  p.grid.pitch = 1.0;
  CHECK_THROWS_AS(generate_scene(p), Error);
}

TEST_CASE("scene files round-trip") {
  lbt::TempDir dir("scene");
  auto g = generate_scene(generator_preset("tiny", 5));
  const std::string json = save_scene(dir.path.string(), g);
  const PlenopticScene s = load_scene(json);
  CHECK(s.raw.data == g.raw.data);
  CHECK(s.truth.data == g.truth.data);
  CHECK(s.grid.pitch == g.params.grid.pitch);
  CHECK(s.grid.nx == g.params.grid.nx);
  CHECK(s.truth_patch == 11);
  lbt::write_bytes(dir.file("broken.json"), {'{', '"'});
  CHECK_THROWS_WITH_AS(load_scene(dir.file("broken.json")), doctest::Contains("JSON"), Error);
}
