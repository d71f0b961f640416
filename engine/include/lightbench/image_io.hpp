#pragma once
// Image files. 8-bit: PNG, JPG, BMP, PGM/PPM (read through stb; PNG/JPG/BMP written
// through stb_image_write, PGM/PPM written here). Float: PFM (Portable Float Map), read and
// written here, gray ("Pf") or RGB ("PF"), either byte order; rows are stored bottom-to-top
// in the file and top-to-bottom in memory. Every failure throws lb::Error naming the file.
#include <string>

#include "lightbench/image.hpp"

namespace lb {

// want_channels 0 keeps the file's channel count; 1, 3 or 4 converts.
ImageU8 load_image(const std::string& path, int want_channels = 0);
// Format from the extension (.png .jpg .jpeg .bmp .ppm .pgm). Writes to a temporary file
// and renames it, so an existing file is never left half-written.
void save_image(const std::string& path, const ImageU8& img, int jpeg_quality = 95);

ImageF load_pfm(const std::string& path);
void save_pfm(const std::string& path, const ImageF& img);

// Lower-case extension with the dot, e.g. ".png".
std::string file_extension(const std::string& path);

}  // namespace lb
