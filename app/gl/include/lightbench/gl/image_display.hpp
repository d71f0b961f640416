#pragma once
// Draws a texture into a rectangle of the current framebuffer with a zoom/pan transform,
// through shaders/image.frag: colour images with exposure, scalar images through a colour
// map, or the heat-mapped absolute difference of two textures.
#include "lightbench/colormap.hpp"
#include "lightbench/gl/shader.hpp"
#include "lightbench/gl/texture.hpp"

namespace lb::gl {

// Screen position (pane pixels, top-left origin) of image point (u, v) is offset + zoom * (u, v).
struct ViewTransform {
  double zoom = 1.0;
  double offset_x = 0.0, offset_y = 0.0;
};

// A rectangle in framebuffer pixels, top-left origin.
struct PixelRect {
  int x = 0, y = 0, w = 0, h = 0;
  bool empty() const { return w <= 0 || h <= 0; }
};

using ColorMap = lb::ColorMap;  // lightbench/colormap.hpp: the shader's maps are the host's

struct DisplayStyle {
  float exposure_ev = 0.0f;        // colour images: factor 2^ev
  ColorMap colormap = ColorMap::Turbo;
  float range_min = 0.0f, range_max = 1.0f;  // scalar images
  float diff_max = 8.0f;           // difference: error at the top of the map (8-bit levels)
  bool pixel_grid = false;         // outline pixels (only drawn when zoom >= 12)
  // Micro-image grid overlay (for the raw image).
  bool micro_grid = false;
  double grid_pitch = 0.0, grid_ox = 0.0, grid_oy = 0.0;
  int grid_nx = 0, grid_ny = 0;
};

class ImageDisplay {
 public:
  ImageDisplay();  // compiles the program (throws lb::Error)
  ~ImageDisplay();
  ImageDisplay(const ImageDisplay&) = delete;
  ImageDisplay& operator=(const ImageDisplay&) = delete;

  // framebuffer_height converts the top-left rect to GL's bottom-left convention.
  void draw(const PixelRect& rect, int framebuffer_height, const Texture& tex,
            const ViewTransform& view, const DisplayStyle& style);
  // |a - b| heat map (or, signed, a - b through the diverging map over +-diff_max); a and b
  // must have the same size and format.
  void draw_difference(const PixelRect& rect, int framebuffer_height, const Texture& a,
                       const Texture& b, const ViewTransform& view, const DisplayStyle& style,
                       bool signed_difference = false);
  // Only the background (no image yet).
  void draw_empty(const PixelRect& rect, int framebuffer_height);

 private:
  void draw_impl(const PixelRect& rect, int fb_h, const Texture* a, const Texture* b, int mode,
                 const ViewTransform& view, const DisplayStyle& style);
  Program program_;
  GLuint vao_ = 0;
};

}  // namespace lb::gl
