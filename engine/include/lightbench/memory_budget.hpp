#pragma once
// Memory budgets: every command estimates its host (and, on CUDA, device) need from the input
// headers and options before allocating its big buffers, and refuses with one line when the
// need exceeds the limit:
//   "stereo: needs 7.2 GiB of host memory, limit 4.0 GiB (raise with --max-memory)"
// Host limit: --max-memory SIZE, else env LB_MAX_MEMORY, else half of the physical memory.
// Device limit: --max-device-memory SIZE, else env LB_MAX_DEVICE_MEMORY, else none (the
// device's own memory); every CUDA allocation is counted against it (kernels/cuda_util.hpp),
// so out-of-memory can be forced. The decoding limit LB_MAX_PIXELS (image_io.hpp) is checked
// per image on top of this one. Estimates are upper bounds (tests/engine/test_memory_budget).
#include <cstdint>
#include <string>

namespace lb {

// "512M", "8G", "1.5G", "4096", "2GiB", "100MB" (K, M, G, T: powers of 1024; optional B/iB).
// Throws lb::Error naming `what` (the option or variable) on anything else, zero or overflow.
std::uint64_t parse_memory_size(const std::string& text, const std::string& what);
// "7.2 GiB", "512.0 MiB", "12.0 KiB", "100 B".
std::string format_bytes(std::uint64_t bytes);

// Physical memory (sysconf), 0 when unknown.
std::uint64_t physical_memory_bytes();

// Host limit: set_max_host_memory (0: unset) > LB_MAX_MEMORY > physical / 2 (4 GiB when unknown).
void set_max_host_memory(std::uint64_t bytes);
std::uint64_t max_host_memory();
// Throws "<command>: needs X of host memory, limit Y (raise with --max-memory)" when need > limit.
void check_host_memory(const std::string& command, std::uint64_t need);

// Device limit: set_max_device_memory (0: unset) > LB_MAX_DEVICE_MEMORY > 0 (no limit).
void set_max_device_memory(std::uint64_t bytes);
std::uint64_t max_device_memory();
// With a device limit: throws "<command>: needs X of device memory, limit Y (raise with
// --max-device-memory)" when need > limit. `free_bytes` (when non-zero): the device's free
// memory, also checked.
void check_device_memory(const std::string& command, std::uint64_t need, std::uint64_t free_bytes = 0);
// "out of device memory: allocating 3.1 GiB for <what> (free 1.2 GiB of 80.0 GiB)".
std::string device_oom_message(std::uint64_t bytes, const std::string& what, std::uint64_t free_bytes,
                               std::uint64_t total_bytes);

// Image size from its header only (PNG, JPEG, BMP, PNM, PFM); channels as stored. known is
// false when the header cannot be read (the loader then reports the problem).
struct ImageHeader {
  int width = 0, height = 0, channels = 0;
  bool known = false;
};
ImageHeader probe_image_header(const std::string& path);
// A light-field folder, from its listing and one view's header: image files counted as views
// (an upper bound of what load_lightfield keeps).
struct LightFieldHeader {
  int views = 0, width = 0, height = 0;
  bool known = false;
};
LightFieldHeader probe_lightfield_header(const std::string& dir);

// Bytes of an 8-bit image, of a float image.
inline std::uint64_t u8_bytes(std::uint64_t w, std::uint64_t h, std::uint64_t c) { return w * h * c; }
inline std::uint64_t f32_bytes(std::uint64_t w, std::uint64_t h, std::uint64_t c = 1) { return w * h * c * 4; }

}  // namespace lb
