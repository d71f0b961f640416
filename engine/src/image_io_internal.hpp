#pragma once
// Internal to engine/src: the pieces of the image readers shared by image_io.cpp (format
// sniffing, PNG / JPEG / BMP checks, stb) and image_io_netpbm.cpp (PNM and PFM).
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/image.hpp"

namespace lb::image_io_detail {

[[noreturn]] inline void io_fail(const std::string& path, const std::string& why) {
  throw Error("'" + path + "': " + why);
}

// Reads the whole file. A regular file larger than any image of `max_pixels` pixels can be
// (16 bytes a pixel plus 64 MiB of metadata) is refused before it is read.
std::vector<unsigned char> read_file(const std::string& path, std::uint64_t max_pixels);
// The pixel budget: max_pixels, or max_decode_pixels() when 0.
std::uint64_t pixel_limit(std::uint64_t max_pixels);
// Throws (naming the path) when a w x h header exceeds the budget, before any allocation.
void check_pixels(const std::string& path, std::uint64_t w, std::uint64_t h, std::uint64_t limit);
std::uint32_t le32(const unsigned char* p);
// Binary PNM (P5 / P6, maxval up to 65535, scaled to 8 bits) from the file's bytes.
ImageU8 decode_pnm(const std::string& path, const std::vector<unsigned char>& bytes, std::uint64_t limit);

}  // namespace lb::image_io_detail
