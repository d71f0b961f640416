#pragma once
// The project's own build of stb_image (engine/src/stb_image_impl.cpp): BMP only
// (PNG, JPEG: libpng, libjpeg-turbo), STBI_MAX_DIMENSIONS = kStbMaxDimension, every symbol static to that file so it never
// clashes with Debian's libstb.a (still linked for stb_image_write, stb_truetype and
// stb_rect_pack). Callers (image_io.cpp) check the header and the pixel budget first.
#include <cstddef>
#include <string>

#include "lightbench/image.hpp"

namespace lb::detail {

// Largest width or height stb accepts (STBI_MAX_DIMENSIONS in stb_image_impl.cpp).
inline constexpr int kStbMaxDimension = 1 << 16;

// Header only, no pixel allocation. False (with a non-empty reason) when stb cannot parse it.
bool stb_info(const unsigned char* data, std::size_t size, int& w, int& h, int& channels,
              std::string& why);

// Decodes to 8 bits per channel keeping the file's channel count (1..4). False (with a
// non-empty reason) on failure; `out` is then untouched.
bool stb_decode(const unsigned char* data, std::size_t size, ImageU8& out, std::string& why);

}  // namespace lb::detail
