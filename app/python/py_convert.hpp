#pragma once
// NumPy arrays and Python objects <-> the engine's images, surfaces and JSON (the Python
// module's one conversion layer). Every refusal is an lb::Error naming the argument.
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "lightbench/image.hpp"
#include "lightbench/surface.hpp"

namespace lb::py {
namespace pyb = pybind11;

// An 8-bit image from a NumPy array (HxW or HxWxC, C in 1..4; uint8, or uint16 taken to 8 bits
// as the CLI takes a 16-bit PNG: round(v / 257)) or from a path (str / os.PathLike: read as the
// CLI reads it). *origin says which (path, depth, conversion).
ImageU8 image_u8(pyb::handle obj, const std::string& role, ImageOrigin* origin = nullptr);
// A float map from a float32/float64 HxW array or a .pfm path.
ImageF image_f32(pyb::handle obj, const std::string& role);
// Whether obj is a path (str or os.PathLike); *path receives it.
bool as_path(pyb::handle obj, std::string* path);

// Arrays that own a copy of the data: uint8 HxW / HxWxC, uint16, float32 HxW.
pyb::array to_array(const ImageU8& img);
pyb::array to_array(const ImageU16& img);
pyb::array to_array(const ImageF& img);
// A surface's pixels: R32F -> float32 HxW, RGBA8 -> uint8 HxWx4.
pyb::array to_array(const HostSurface& s);

// JSON <-> Python (dict, list, str, int, float, bool, None).
pyb::object to_python(const nlohmann::json& j);

}  // namespace lb::py
