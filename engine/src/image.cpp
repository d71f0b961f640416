#include "lightbench/image.hpp"

namespace lb {

ImageU8 to_rgba(const ImageU8& in) {
  if (in.channels == 4) return in;
  ImageU8 out(in.width, in.height, 4, 255);
  const std::size_t n = in.pixels();
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) {
      // Gray and gray+alpha replicate the first channel.
      const int src = in.channels >= 3 ? c : 0;
      out.data[i * 4 + c] = in.data[i * in.channels + src];
    }
  }
  return out;
}

ImageU8 to_rgb(const ImageU8& in) {
  if (in.channels == 3) return in;
  ImageU8 out(in.width, in.height, 3);
  const std::size_t n = in.pixels();
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c)
      out.data[i * 3 + c] = in.data[i * in.channels + (in.channels >= 3 ? c : 0)];
  return out;
}

std::string describe(const ImageU8& img) {
  static const char* names[] = {"", "gray8", "gray-alpha8", "RGB8", "RGBA8"};
  return std::to_string(img.width) + "x" + std::to_string(img.height) + " " +
         names[img.channels < 0 || img.channels > 4 ? 0 : img.channels];
}

}  // namespace lb
