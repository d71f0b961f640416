#pragma once
// Internal to engine/src: the pieces of the image readers shared by image_io.cpp (format
// sniffing, PNG / JPEG / BMP checks, stb) and image_io_netpbm.cpp (PNM and PFM).
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/image.hpp"

namespace lb::image_io_detail {

// The path quoted as untrusted text (a name from a folder listing or a scene file may hold
// control bytes): 'path' for every ordinary name.
[[noreturn]] inline void io_fail(const std::string& path, const std::string& why) {
  throw Error(quote_untrusted(path, 300) + ": " + why);
}

// Reads the whole file. A regular file larger than any image of `max_pixels` pixels can be
// (16 bytes a pixel plus 64 MiB of metadata) is refused before it is read.
std::vector<unsigned char> read_file(const std::string& path, std::uint64_t max_pixels);
// The pixel budget: max_pixels, or max_decode_pixels() when 0.
std::uint64_t pixel_limit(std::uint64_t max_pixels);
// Throws (naming the path) when a w x h header exceeds the budget, before any allocation.
void check_pixels(const std::string& path, std::uint64_t w, std::uint64_t h, std::uint64_t limit);
std::uint32_t le32(const unsigned char* p);
// Binary PNM (P5 / P6, maxval up to 65535, scaled to 8 bits) from the file's bytes;
// *maxval (when given) receives the file's maxval.
ImageU8 decode_pnm(const std::string& path, const std::vector<unsigned char>& bytes, std::uint64_t limit,
                   long* maxval = nullptr);

// PNG through libpng (image_io_png_jpeg.cpp): 8-bit samples; a 16-bit file is refused in one
// line. Palette indices are checked against the palette; tRNS becomes an alpha channel.
ImageU8 decode_png(const std::string& path, const std::vector<unsigned char>& bytes, std::uint64_t limit);
// Full depth: 16-bit samples as they are, 8-bit (and lower) samples widened unscaled;
// *bit_depth (when given) is the file's depth (1, 2, 4, 8 or 16).
ImageU16 decode_png16(const std::string& path, const std::vector<unsigned char>& bytes,
                      std::uint64_t limit, int* bit_depth);
// A 16-bit PNG of 1..4 channels, in memory.
std::string encode_png16(const std::string& path, const ImageU16& img);
// JPEG through libjpeg-turbo: grey or RGB; corrupt, cut or bomb files refused.
ImageU8 decode_jpeg(const std::string& path, const std::vector<unsigned char>& bytes, std::uint64_t limit);
// Header only (no pixel allocation): PNG's IHDR or JPEG's frame header. False when unreadable.
bool png_jpeg_info(const unsigned char* d, std::size_t n, int& w, int& h, int& channels);

}  // namespace lb::image_io_detail
