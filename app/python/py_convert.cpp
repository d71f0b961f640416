#include "py_convert.hpp"

#include <cstring>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace lb::py {

bool as_path(pyb::handle obj, std::string* path) {
  if (pyb::isinstance<pyb::str>(obj)) {
    *path = obj.cast<std::string>();
    return true;
  }
  static const pyb::object path_like = pyb::module_::import("os").attr("PathLike");
  if (pyb::isinstance(obj, path_like)) {
    *path = pyb::str(pyb::module_::import("os").attr("fspath")(obj)).cast<std::string>();
    return true;
  }
  return false;
}

namespace {

// The array's shape as an image: H x W x C (C = 1 for HxW); refuses other ranks and C > 4.
void image_shape(const pyb::array& a, const std::string& role, int* w, int* h, int* c) {
  if (a.ndim() != 2 && a.ndim() != 3)
    throw Error(role + ": expected an image array HxW or HxWxC, got " + std::to_string(a.ndim()) + " dimensions");
  const auto H = a.shape(0), W = a.shape(1), C = a.ndim() == 3 ? a.shape(2) : 1;
  if (H < 1 || W < 1 || H > 65535 || W > 65535)
    throw Error(role + ": image size " + std::to_string(W) + "x" + std::to_string(H) + " out of 1..65535");
  if (C < 1 || C > 4) throw Error(role + ": " + std::to_string(C) + " channels (expected 1..4)");
  *w = static_cast<int>(W);
  *h = static_cast<int>(H);
  *c = static_cast<int>(C);
}

std::string dtype_name(const pyb::array& a) { return pyb::str(a.dtype()).cast<std::string>(); }

}  // namespace

ImageU8 image_u8(pyb::handle obj, const std::string& role, ImageOrigin* origin) {
  std::string path;
  if (as_path(obj, &path)) {
    if (path.empty()) throw Error(role + ": empty path");
    return load_image_8bit(path, origin);  // names the file when it cannot decode it
  }
  if (!pyb::isinstance<pyb::array>(obj) && !pyb::hasattr(obj, "__array__"))
    throw Error(role + ": expected a NumPy array or a file path, got " +
                pyb::str(pyb::type::of(obj).attr("__name__")).cast<std::string>());
  const pyb::array a = pyb::array::ensure(obj);
  if (!a) throw Error(role + ": cannot be read as an array");
  int w = 0, h = 0, c = 0;
  image_shape(a, role, &w, &h, &c);
  ImageU8 img(w, h, c);
  if (pyb::isinstance<pyb::array_t<std::uint8_t>>(a)) {
    const auto v = pyb::array_t<std::uint8_t, pyb::array::c_style | pyb::array::forcecast>::ensure(a);
    std::memcpy(img.data.data(), v.data(), img.data.size());
    if (origin) *origin = ImageOrigin{"", 8, ""};
  } else if (pyb::isinstance<pyb::array_t<std::uint16_t>>(a)) {
    const auto v = pyb::array_t<std::uint16_t, pyb::array::c_style | pyb::array::forcecast>::ensure(a);
    const std::uint16_t* p = v.data();
    for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = to_8bit(p[i]);
    if (origin) *origin = ImageOrigin{"", 16, "v/257"};
  } else {
    throw Error(role + ": expected uint8 or uint16 pixels, got " + dtype_name(a));
  }
  return img;
}

ImageF image_f32(pyb::handle obj, const std::string& role) {
  std::string path;
  if (as_path(obj, &path)) return load_pfm(path);
  const pyb::array a = pyb::array::ensure(obj);
  if (!a) throw Error(role + ": expected a float array HxW or a .pfm path");
  if (a.ndim() != 2) throw Error(role + ": expected a map HxW, got " + std::to_string(a.ndim()) + " dimensions");
  if (!pyb::isinstance<pyb::array_t<float>>(a) && !pyb::isinstance<pyb::array_t<double>>(a))
    throw Error(role + ": expected float32 or float64 values, got " + dtype_name(a));
  int w = 0, h = 0, c = 0;
  image_shape(a, role, &w, &h, &c);
  const auto v = pyb::array_t<float, pyb::array::c_style | pyb::array::forcecast>::ensure(a);
  ImageF img(w, h, 1);
  std::memcpy(img.data.data(), v.data(), img.data.size() * sizeof(float));
  return img;
}

namespace {
template <class T>
pyb::array image_array(const Image<T>& img) {
  std::vector<pyb::ssize_t> shape = {img.height, img.width};
  if (img.channels > 1) shape.push_back(img.channels);
  pyb::array_t<T> a(shape);
  std::memcpy(a.mutable_data(), img.data.data(), img.data.size() * sizeof(T));
  return a;
}
}  // namespace

pyb::array to_array(const ImageU8& img) { return image_array(img); }
pyb::array to_array(const ImageU16& img) { return image_array(img); }
pyb::array to_array(const ImageF& img) { return image_array(img); }

pyb::array to_array(const HostSurface& s) {
  if (s.format() == SurfaceFormat::R32F) return image_array(s.scalar());
  const ImageU8& img = s.rgba();
  pyb::array_t<std::uint8_t> a(std::vector<pyb::ssize_t>{img.height, img.width, img.channels});
  std::memcpy(a.mutable_data(), img.data.data(), img.data.size());
  return a;
}

pyb::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return pyb::none();
    case nlohmann::json::value_t::boolean: return pyb::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return pyb::int_(j.get<long long>());
    case nlohmann::json::value_t::number_unsigned: return pyb::int_(j.get<unsigned long long>());
    case nlohmann::json::value_t::number_float: return pyb::float_(j.get<double>());
    case nlohmann::json::value_t::string: return pyb::str(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      pyb::list l;
      for (const auto& e : j) l.append(to_python(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      pyb::dict d;
      for (const auto& [k, v] : j.items()) d[pyb::str(k)] = to_python(v);
      return d;
    }
    default: return pyb::none();
  }
}

}  // namespace lb::py
