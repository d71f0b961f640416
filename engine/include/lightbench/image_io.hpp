#pragma once
// Image files. 8-bit: PNG, JPG, BMP (read through the project's own build of stb_image,
// engine/src/stb_image_impl.cpp), binary PGM/PPM (P5/P6, read here); PNG/JPG/BMP written
// through stb_image_write, PGM/PPM written here. Float: PFM (Portable Float Map), read and
// written here, gray ("Pf") or RGB ("PF"), either byte order; rows are stored bottom-to-top
// in the file and top-to-bottom in memory. Every failure throws lb::Error naming the file.
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/image.hpp"

namespace lb {

// Decoding limit: an image of more pixels than this is refused, from its header and before
// anything is allocated, with one line naming its size and the limit. 2^27 = 134,217,728
// pixels (about 11585 x 11585; at most 512 MiB of 8-bit RGBA) unless the environment variable
// LB_MAX_PIXELS (a positive whole number) or a loader's max_pixels argument sets another.
// Each side is also limited to 65536 (stb's STBI_MAX_DIMENSIONS) or 65535 (PNM, PFM).
inline constexpr std::uint64_t kDefaultMaxDecodePixels = std::uint64_t{1} << 27;
// LB_MAX_PIXELS when set, else kDefaultMaxDecodePixels; a malformed value throws lb::Error.
std::uint64_t max_decode_pixels();

// The format is decided by the file's first bytes, never by its name: PNG, JPEG, BMP
// (uncompressed or bitfields; not RLE) or binary PNM (P5/P6). Anything else (PFM, HDR, GIF,
// PSD, TIFF, ASCII PNM, ...) is refused naming what its first bytes say it is. Truncated
// files, lying headers and palette indices past the palette are refused, never filled in.
// want_channels 0 keeps the file's channel count; 1, 3 or 4 converts. max_pixels 0: the
// limit of max_decode_pixels().
ImageU8 load_image(const std::string& path, int want_channels = 0, std::uint64_t max_pixels = 0);
// load_image on bytes already in memory (what load_image does after reading the file; the
// fuzz harnesses call it). `name` stands for the file in error messages.
ImageU8 decode_image(const std::vector<unsigned char>& bytes, const std::string& name,
                     int want_channels = 0, std::uint64_t max_pixels = 0);
// Format from the extension (.png .jpg .jpeg .bmp .ppm .pgm). Writes to a temporary file
// and renames it, so an existing file is never left half-written.
void save_image(const std::string& path, const ImageU8& img, int jpeg_quality = 95);

// max_pixels 0: the limit of max_decode_pixels().
ImageF load_pfm(const std::string& path, std::uint64_t max_pixels = 0);
// load_pfm on bytes already in memory; `name` stands for the file in error messages.
ImageF decode_pfm(const std::vector<unsigned char>& bytes, const std::string& name,
                  std::uint64_t max_pixels = 0);
void save_pfm(const std::string& path, const ImageF& img);

// Lower-case extension with the dot, e.g. ".png".
std::string file_extension(const std::string& path);

}  // namespace lb
