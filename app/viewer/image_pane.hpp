#pragma once
// One image pane: its source, the texture its algorithm output is rendered into, and the
// ImGui part (header with the source editor, the image region that takes zoom / pan input,
// a status line with the pixel under the cursor). The image itself is drawn with GL
// (ImageDisplay) into the region ImGui reserved, before ImGui's own draw data.
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "lightbench/gl/gl_texture_surface.hpp"
#include "lightbench/gl/image_display.hpp"
#include "data_loader.hpp"
#include "foreign_map.hpp"
#include "pane_source.hpp"
#include "pane_view.hpp"
#include "run_worker.hpp"

namespace lb::viewer {

class ImagePane {
 public:
  explicit ImagePane(int index) : index_(index) {}

  int index() const { return index_; }
  PaneSource source;
  // Computed outputs land in one of two textures, by format (colour or scalar).
  gl::GlTextureSurface rgba_out{SurfaceFormat::RGBA8};
  gl::GlTextureSurface scalar_out{SurfaceFormat::R32F};
  gl::GlTextureSurface& output_for(SurfaceFormat f) {
    return f == SurfaceFormat::R32F ? scalar_out : rgba_out;
  }
  gl::GlTextureSurface* computed = nullptr;  // the texture the last run wrote (or null)
  std::string rendered_key;  // key of the image in `computed`
  // The run in flight for this pane (run_worker.hpp): its key and worker, and since when.
  // The pane keeps showing `computed` meanwhile ("computing... N s").
  std::string pending_key;
  std::shared_ptr<RunWorker> pending_worker;
  double pending_since = 0.0;  // seconds on the app's clock
  std::string error;         // last render error of this pane (shown in its status line)

  // Set by the app each frame: the texture shown (computed, or an input's; may be null).
  const gl::GlTextureSurface* shown = nullptr;
  // The colour bar's box drawn over the image this frame (logical pixels x, y, w, h; 0: none).
  float bar_box[4] = {0, 0, 0, 0};

  // source.file's content (viewer_foreign.cpp): loaded once per path (again when the source
  // is set again), scored again whenever the data changes.
  struct Foreign {
    std::string loaded;  // the path `file` holds ("" : none); set on failure too (no retry)
    ForeignFile file;
    std::unique_ptr<gl::GlTextureSurface> texture;
    ForeignScore score;
    std::uint64_t scored_for = ~std::uint64_t{0};  // the data id of `score`
    std::string error;
  } foreign;
  // Reads source.file off the UI thread (data_loader.hpp); the texture is made when it is done.
  DataLoader file_loader;

  // ImGui: header row with the source editor. True when the source changed.
  bool layout_header(const PaneSourceUi& ui);
  // ImGui: reserves the image region of `size` (logical pixels) and handles wheel zoom
  // around the cursor, drag to pan, double-click to fit. fb_scale: framebuffer / logical.
  // Returns true when the user changed the view (zoom, pan, fit) this frame.
  bool layout_image(PaneView& view, float width, float height, float fb_scale, bool hover_enabled);
  // The image pixel under the cursor this frame (none when not hovering the image).
  const std::optional<std::pair<int, int>>& hover_pixel() const { return hover_; }
  bool hovered() const { return hovered_; }

  // Image region in framebuffer pixels (valid after layout_image).
  const gl::PixelRect& rect() const { return rect_; }
  // Whether a point in logical window pixels (ImGui's, GLFW's cursor) lies on the image region.
  std::array<float, 4> logical_rect() const { return {lx_, ly_, lw_, lh_}; }
  bool contains(double x, double y) const {
    return x >= lx_ && y >= ly_ && x < lx_ + lw_ && y < ly_ + lh_;
  }

 private:
  int index_;
  gl::PixelRect rect_;
  float lx_ = 0, ly_ = 0, lw_ = 0, lh_ = 0;
  bool hovered_ = false;
  std::optional<std::pair<int, int>> hover_;
};

}  // namespace lb::viewer
