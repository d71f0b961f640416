#pragma once
// Host images: interleaved channels, rows top to bottom, no padding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/error.hpp"

namespace lb {

template <class T>
struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<T> data;

  Image() = default;
  Image(int w, int h, int c, T fill = T{}) { reset(w, h, c, fill); }

  void reset(int w, int h, int c, T fill = T{}) {
    LB_REQUIRE(w >= 0 && h >= 0 && c >= 1 && c <= 4, "image: invalid size or channel count");
    width = w;
    height = h;
    channels = c;
    data.assign(static_cast<std::size_t>(w) * h * c, fill);
  }
  bool empty() const { return width == 0 || height == 0; }
  std::size_t pixels() const { return static_cast<std::size_t>(width) * height; }
  std::size_t size_bytes() const { return data.size() * sizeof(T); }
  std::size_t index(int x, int y, int c = 0) const {
    return (static_cast<std::size_t>(y) * width + x) * channels + c;
  }
  T& at(int x, int y, int c = 0) { return data[index(x, y, c)]; }
  const T& at(int x, int y, int c = 0) const { return data[index(x, y, c)]; }
  T* row(int y) { return data.data() + static_cast<std::size_t>(y) * width * channels; }
  const T* row(int y) const { return data.data() + static_cast<std::size_t>(y) * width * channels; }
  bool same_shape(const Image& o) const {
    return width == o.width && height == o.height && channels == o.channels;
  }
};

using ImageU8 = Image<std::uint8_t>;
using ImageF = Image<float>;
using ImageU16 = Image<std::uint16_t>;

// Where an 8-bit input came from (load_image_8bit, lightbench/image_io.hpp): what its file
// held and what was done to its samples; the CLI's JSON reports it (inputs[i].bit_depth,
// inputs[i].converted) and the viewer's data lines say it.
struct ImageOrigin {
  std::string path;       // the file ("" for data made in memory)
  int bit_depth = 8;      // bits per sample in the file: 8, 16 (16-bit PNG), a PNM's maxval's bits
  std::string converted;  // how its samples became 8 bits: "" (taken as they are), "v/257"
                          // (16-bit: round(v / 257)), "v*255/M" (a PNM of another maxval M)
  bool was_converted() const { return !converted.empty(); }
};

// Channel conversions (RGB <-> RGBA, gray -> RGB). Alpha added is 255.
ImageU8 to_rgba(const ImageU8& in);
ImageU8 to_rgb(const ImageU8& in);
// One-line description, e.g. "1056x792 RGBA8".
std::string describe(const ImageU8& img);

}  // namespace lb
