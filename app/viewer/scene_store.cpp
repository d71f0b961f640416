#include "scene_store.hpp"

#include <algorithm>
#include <cmath>

#include "lightbench/assets.hpp"
#include "lightbench/calibrated_raw.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace lb::viewer {

PlenopticGrid fit_grid(const PlenopticGrid& like, int width, int height) {
  PlenopticGrid g = like;
  if (g.pitch <= 0) return g;
  g.nx = static_cast<int>(std::floor((width - g.ox + 0.5) / g.pitch));
  g.ny = static_cast<int>(std::floor((height - g.oy + 0.5) / g.pitch));
  return g;
}

SceneStore::SceneStore()
    : raw_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      truth_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F)) {
  raw_tex_->set_interop_enabled(false, "scene texture");
  truth_tex_->set_interop_enabled(false, "scene texture");
}

std::vector<std::string> scene_presets() {
  std::vector<std::string> v = generator_presets();
  for (const auto& n : asset_names("plenoptic_hex")) v.push_back(n);
  return v;
}

bool is_general_grid_preset(const std::string& name) {
  if (name.empty()) return false;
  const auto hex = asset_names("plenoptic_hex");
  return std::find(hex.begin(), hex.end(), name) != hex.end();
}

PlenopticScene SceneStore::make_preset(const std::string& preset, std::uint64_t seed) {
  const std::string source = "generated preset '" + preset + "' (seed " + std::to_string(seed) + ")";
  if (is_general_grid_preset(preset))
    return to_scene(generate_hex_scene(hex_generator_preset(preset, seed)), source);
  return to_scene(generate_scene(generator_preset(preset, seed)), source);
}

void SceneStore::generate(const std::string& preset, std::uint64_t seed) { set(make_preset(preset, seed)); }

PlenopticScene SceneStore::read(const std::string& path, const std::optional<PlenopticGrid>& grid,
                                const PlenopticGrid* like) {
  if (file_extension(path) == ".json") return load_scene(path);
  PlenopticScene s;
  s.raw = load_image_8bit(path, &s.raw_origin);  // 16-bit PNG: converted (v/257)
  s.source = path;
  if (grid) {
    s.grid = *grid;
  } else {
    LB_REQUIRE(like != nullptr, "no grid for " + path + ": give --pitch (and --offset, --grid)");
    s.grid = fit_grid(*like, s.raw.width, s.raw.height);
    LB_REQUIRE(s.grid.nx >= 1 && s.grid.ny >= 1,
               path + " (" + describe(s.raw) + ") is smaller than one micro-image of pitch " +
                   std::to_string(like->pitch) + "; set the grid first");
  }
  return s;
}

void SceneStore::open(const std::string& path, const std::optional<PlenopticGrid>& grid) {
  set(read(path, grid, loaded() ? &this->grid() : nullptr));
}

void SceneStore::set(PlenopticScene s) {
  validate(s.grid, s.raw.width, s.raw.height);
  // Build the textures aside first so a failure (e.g. a raw above GL_MAX_TEXTURE_SIZE) leaves
  // the current scene untouched.
  auto raw = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
  raw->set_interop_enabled(false, "scene texture");
  raw->upload_host(s.raw);
  auto truth = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F);
  truth->set_interop_enabled(false, "scene texture");
  float tmin = 0, tmax = 1;
  if (!s.truth.empty()) {
    truth->upload_host(s.truth);
    const auto [lo, hi] = std::minmax_element(s.truth.data.begin(), s.truth.data.end());
    tmin = *lo;
    tmax = *hi > *lo ? *hi : *lo + 1.0f;
  }
  auto data = std::make_shared<PlenopticData>();
  original_grid_ = s.grid;
  if (s.mla) original_geometry_ = *s.mla;
  data->scene = std::move(s);
  data_ = std::move(data);
  raw_tex_ = std::move(raw);
  truth_tex_ = std::move(truth);
  truth_min_ = tmin;
  truth_max_ = tmax;
}

void SceneStore::set_geometry(const MlaGeometry& g) {
  LB_REQUIRE(has_geometry(), "the scene has no micro-lens geometry");
  const ImageU8& raw = scene().raw;
  check_calibration_fits(g, raw.width, raw.height, "the raw", "the geometry");
  auto data = std::make_shared<PlenopticData>();
  data->scene = scene();
  data->scene.mla = g;
  data->scene.grid = PlenopticGrid{1, 1, g.diameter, 0.0, 0.0};  // the placeholder follows the diameter
  validate(data->scene.grid, raw.width, raw.height);
  data_ = std::move(data);
}

void SceneStore::set_grid(const PlenopticGrid& g) {
  LB_REQUIRE(loaded(), "no scene loaded");
  validate(g, scene().raw.width, scene().raw.height);
  const PlenopticGrid& o = scene().grid;
  if (g.nx == o.nx && g.ny == o.ny && g.pitch == o.pitch && g.ox == o.ox && g.oy == o.oy) return;
  // A new data object: runners see a new id and take the scene with this grid.
  auto data = std::make_shared<PlenopticData>();
  data->scene = scene();
  data->scene.grid = g;
  data_ = std::move(data);
}

}  // namespace lb::viewer
