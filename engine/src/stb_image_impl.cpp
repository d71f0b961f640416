// The one translation unit that compiles stb_image (header from Debian's libstb-dev), for BMP
// only: PNG and JPEG are read by libpng and libjpeg-turbo (image_io_png_jpeg.cpp). Every other
// stb format (PNG, JPEG, HDR, GIF, PIC, PSD, TGA, stb's PNM) is left out of the build,
// so a file of those kinds can never reach their loaders (image_io.cpp decides the format by
// its magic bytes before calling here). STB_IMAGE_STATIC keeps every stb symbol local to this
// file: no clash with libstb.a, which the viewer's libimgui.a still needs.
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_BMP
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#include "stb_image_impl.hpp"  // defines kStbMaxDimension
#define STBI_MAX_DIMENSIONS (lb::detail::kStbMaxDimension)

#include <climits>
#include <cstring>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace lb::detail {
namespace {
std::string reason() {
  const char* r = stbi_failure_reason();
  return r && *r ? std::string(r) : std::string("the decoder gave no reason");
}
}  // namespace

bool stb_info(const unsigned char* data, std::size_t size, int& w, int& h, int& channels,
              std::string& why) {
  if (size > static_cast<std::size_t>(INT_MAX)) {
    why = "file larger than 2 GiB";
    return false;
  }
  if (!stbi_info_from_memory(data, static_cast<int>(size), &w, &h, &channels)) {
    why = reason();
    return false;
  }
  return true;
}

bool stb_decode(const unsigned char* data, std::size_t size, ImageU8& out, std::string& why) {
  if (size > static_cast<std::size_t>(INT_MAX)) {
    why = "file larger than 2 GiB";
    return false;
  }
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load_from_memory(data, static_cast<int>(size), &w, &h, &n, 0);
  if (!px) {
    why = reason();
    return false;
  }
  if (w <= 0 || h <= 0 || n < 1 || n > 4) {
    stbi_image_free(px);
    why = "decoder returned an invalid shape";
    return false;
  }
  try {
    out.reset(w, h, n);
  } catch (...) {
    stbi_image_free(px);
    throw;
  }
  std::memcpy(out.data.data(), px, out.data.size());
  stbi_image_free(px);
  return true;
}

}  // namespace lb::detail
