#pragma once
// The open scene (raw image, grid, optional ground truth) and its display textures.
// Loading is all-or-nothing: a bad file or grid throws lb::Error and the previous scene
// stays as it was.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lightbench/gl/gl_texture_surface.hpp"
#include "lightbench/algorithm.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/scene_file.hpp"

namespace lb::viewer {

class SceneStore {
 public:
  SceneStore();

  // A generator preset, made in memory (the bundled scene is preset "small"; a hexagonal
  // preset, "hex-small", gives a scene with a micro-lens geometry).
  void generate(const std::string& preset, std::uint64_t seed);
  // scene.json (from `lightbench-cli generate`) or a raw image. For a raw image the grid is
  // `grid` when given, else the current grid's pitch and offset with as many micro-images as
  // fit the new raw.
  void open(const std::string& path, const std::optional<PlenopticGrid>& grid = std::nullopt);
  // Installs a scene (validates its grid first).
  void set(PlenopticScene scene);

  // The reading and making behind generate() and open(), touching no store: the viewer runs
  // them on its data loader's thread (data_loader.hpp) and set()s the scene on the UI thread.
  // `like`: the grid a raw without one fits (nullptr: none, the raw is refused).
  static PlenopticScene make_preset(const std::string& preset, std::uint64_t seed);
  static PlenopticScene read(const std::string& path, const std::optional<PlenopticGrid>& grid,
                             const PlenopticGrid* like);

  bool loaded() const { return data_ != nullptr; }
  // The scene with the grid in use (the panel edits it).
  const PlenopticScene& scene() const { return data_->scene; }
  // The scene as the plenoptic runners take it; a new object (and id) with every scene or grid.
  const std::shared_ptr<const PlenopticData>& data() const { return data_; }
  std::uint64_t id() const { return data_ ? data_->id : 0; }
  const PlenopticGrid& grid() const { return data_->scene.grid; }
  // The grid the scene came with.
  const PlenopticGrid& original_grid() const { return original_grid_; }
  // Validates against the raw; throws lb::Error and keeps the old grid when invalid.
  void set_grid(const PlenopticGrid& g);
  // A scene with a micro-lens geometry (mla): the geometry in use, and the one it came with.
  bool has_geometry() const { return data_ && data_->scene.mla.has_value(); }
  const MlaGeometry& geometry() const { return *data_->scene.mla; }
  const MlaGeometry& original_geometry() const { return original_geometry_; }
  // A new geometry for the raw (a new data object); throws lb::Error naming the problem when no
  // whole lens fits the raw, keeping the old one.
  void set_geometry(const MlaGeometry& g);

  const gl::GlTextureSurface& raw_texture() const { return *raw_tex_; }
  const gl::GlTextureSurface* truth_texture() const {
    return has_truth() ? truth_tex_.get() : nullptr;
  }
  bool has_truth() const { return data_ && !data_->scene.truth.empty(); }
  float truth_min() const { return truth_min_; }
  float truth_max() const { return truth_max_; }

 private:
  std::shared_ptr<const PlenopticData> data_;
  PlenopticGrid original_grid_;
  MlaGeometry original_geometry_;
  std::unique_ptr<gl::GlTextureSurface> raw_tex_, truth_tex_;
  float truth_min_ = 0, truth_max_ = 1;
};

// The generator presets the viewer offers: the rectangular ones, then the hexagonal ones.
std::vector<std::string> scene_presets();
// Whether `name` is a generator preset of a general (hexagonal) micro-lens grid.
bool is_general_grid_preset(const std::string& name);

// Keeps pitch and offset; as many micro-images as fit a width x height raw.
PlenopticGrid fit_grid(const PlenopticGrid& like, int width, int height);

}  // namespace lb::viewer
