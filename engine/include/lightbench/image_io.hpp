#pragma once
// Image files. 8-bit: PNG (read by libpng), JPEG (libjpeg-turbo), BMP (the project's own
// build of stb_image, engine/src/stb_image_impl.cpp), binary PGM/PPM (P5/P6, read here);
// PNG/JPG/BMP written through stb_image_write, PGM/PPM written here. 16-bit: PNG, read
// (load_image16) and written (save_png16) by libpng; the 8-bit readers refuse a 16-bit PNG
// in one line rather than cut it to 8 bits, and load_image_8bit (for inputs that compute on
// 8-bit values) converts it, round(v / 257). Float: PFM (Portable Float Map), read and
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
// Each side is also limited to 65536 (PNG, BMP; JPEG: 65500) or 65535 (PNM, PFM).
inline constexpr std::uint64_t kDefaultMaxDecodePixels = std::uint64_t{1} << 27;
// LB_MAX_PIXELS when set, else kDefaultMaxDecodePixels; a malformed value throws lb::Error.
std::uint64_t max_decode_pixels();

// The format is decided by the file's first bytes, never by its name: PNG, JPEG, BMP
// (uncompressed or bitfields; not RLE) or binary PNM (P5/P6). Anything else (PFM, HDR, GIF,
// PSD, TIFF, ASCII PNM, ...) is refused naming what its first bytes say it is. Truncated
// files, lying headers and palette indices past the palette are refused, never filled in.
// want_channels 0 keeps the file's channel count; 1, 3 or 4 converts. max_pixels 0: the
// limit of max_decode_pixels(). A 16-bit PNG is refused ("16-bit PNG (grey, WxH): this input
// takes 8-bit images ..."): read it with load_image16 (a map) or load_image_8bit (an
// image computed on as 8-bit values).
ImageU8 load_image(const std::string& path, int want_channels = 0, std::uint64_t max_pixels = 0);
// load_image on bytes already in memory (what load_image does after reading the file; the
// fuzz harnesses call it). `name` stands for the file in error messages.
ImageU8 decode_image(const std::vector<unsigned char>& bytes, const std::string& name,
                     int want_channels = 0, std::uint64_t max_pixels = 0);

// ---- 16-bit images where 8-bit values are computed on (issue 39, item 3); ImageOrigin: image.hpp. ----
// The rule image libraries use for 16 -> 8 bits: round(v / 257), as an exact integer
// ((v + 128) / 257 equals round(v / 257.0) for all 65536 values; tests/engine/test_image_io.cpp).
inline std::uint8_t to_8bit(std::uint16_t v) { return static_cast<std::uint8_t>((v + 128u) / 257u); }
// One line for a status line or log, "" for an 8-bit file taken as it is, else e.g.
// "16-bit input converted to 8 bits (v/257)".
std::string conversion_note(const ImageOrigin& origin);
// The origin that tells a set of files (a light field's views): the deepest file's, with the
// folder (or whatever `path` names) as its path.
ImageOrigin deepest_origin(const std::vector<ImageOrigin>& files, const std::string& path);

// For inputs that compute on 8-bit values (stereo pairs, MAD's reference and distorted images,
// light-field views, a plenoptic raw, IQA data sets): load_image, except that a 16-bit PNG is
// converted to 8 bits by to_8bit (round(v / 257)) instead of refused; *origin (when given)
// says what the file held and what was done. A PNM of maxval > 255 is scaled as load_image
// does (for maxval 65535 that is exactly v/257). Maps (disparity, truth, masks) are not read
// this way: they keep their depth (load_image16, load_pfm).
ImageU8 load_image_8bit(const std::string& path, ImageOrigin* origin = nullptr, int want_channels = 0,
                        std::uint64_t max_pixels = 0);
ImageU8 decode_image_8bit(const std::vector<unsigned char>& bytes, const std::string& name,
                          ImageOrigin* origin = nullptr, int want_channels = 0, std::uint64_t max_pixels = 0);

// Full depth: a PNG of 1..16 bits per sample (grey, grey+alpha, RGB, RGBA, palette), its
// values unscaled (an 8-bit sample of 200 is 200); *bit_depth (when given) receives the
// file's depth, 16 or 8 (or 1, 2, 4). Any other format is refused in one line. The same
// checks and limits as load_image.
ImageU16 load_image16(const std::string& path, std::uint64_t max_pixels = 0, int* bit_depth = nullptr);
ImageU16 decode_image16(const std::vector<unsigned char>& bytes, const std::string& name,
                        std::uint64_t max_pixels = 0, int* bit_depth = nullptr);
// A 16-bit PNG (1..4 channels; `path` must end in .png), written atomically; read back by
// load_image16 exactly.
void save_png16(const std::string& path, const ImageU16& img);

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
