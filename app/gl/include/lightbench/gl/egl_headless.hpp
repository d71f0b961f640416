#pragma once
// A headless OpenGL context: EGL on a device (EGL_PLATFORM_DEVICE_EXT) with a small pbuffer
// surface, loaded through libepoxy. For tests and the GPU machine, which have no display.
// On the NVIDIA driver the EGL device of a given CUDA device is picked (EGL_NV_device_cuda),
// so CUDA-GL interop sees the same GPU as the CUDA backend.
#include <memory>
#include <string>

namespace lb::gl {

class HeadlessContext {
 public:
  struct Options {
    int cuda_device = -1;         // >= 0: prefer the EGL device exposing this CUDA device
    bool require_cuda_device = false;  // only accept NVIDIA devices (EGL_NV_device_cuda)
    int pbuffer_width = 16, pbuffer_height = 16;
  };

  // Creates the context and makes it current. Returns nullptr and sets *why (one line naming
  // every device tried) when no EGL device can give an OpenGL >= 3.3 context.
  static std::unique_ptr<HeadlessContext> create(const Options& opt, std::string* why);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  void make_current();
  // "EGL device 0 (NVIDIA, CUDA device 0): OpenGL 4.5 ... / NVIDIA H100 ..."
  const std::string& description() const { return description_; }
  int cuda_device() const { return cuda_device_; }  // CUDA ordinal of the device, -1 if unknown

 private:
  HeadlessContext() = default;
  void* display_ = nullptr;
  void* surface_ = nullptr;
  void* context_ = nullptr;
  int cuda_device_ = -1;
  std::string description_;
};

}  // namespace lb::gl
