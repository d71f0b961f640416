// lb_kernels without CUDA: the CPU backend is the only one; everything that needs a device
// throws lb::Error naming why. Same API as the CUDA build (lightbench/cuda_api.hpp).
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"

namespace lb {

namespace {
constexpr const char* kNoCuda = "this build has no CUDA support";
}

bool cuda_available(std::string* why) {
  if (why) *why = "built without CUDA";
  return false;
}

BackendChoice select_backend(BackendRequest request) {
  if (request == BackendRequest::Cuda) throw Error(std::string("--backend cuda: ") + kNoCuda);
  return {make_cpu_backend(), request == BackendRequest::Cpu ? "CPU: requested"
                                                             : "CPU: built without CUDA"};
}

namespace cuda {

DeviceInfo device_info(int device) {
  DeviceInfo d;
  d.index = device;
  d.why = "built without CUDA";
  return d;
}

std::unique_ptr<ComputeBackend> make_cuda_backend(int) {
  throw Error(std::string("CUDA backend: ") + kNoCuda);
}
void set_kernel_tuning(ComputeBackend&, const KernelTuning&) {
  throw Error(std::string("set_kernel_tuning: ") + kNoCuda);
}
std::unique_ptr<Surface> make_cuda_surface(SurfaceFormat) {
  throw Error(std::string("CUDA surface: ") + kNoCuda);
}
std::unique_ptr<Surface> make_cuda_buffer_surface() {
  throw Error(std::string("CUDA surface: ") + kNoCuda);
}

ImageU8 read_back_rgba(Surface& s) {
  auto* h = dynamic_cast<HostSurface*>(&s);
  LB_REQUIRE(h != nullptr && h->format() == SurfaceFormat::RGBA8,
             std::string("read back: not an RGBA8 host surface and ") + kNoCuda);
  return h->rgba();
}
ImageF read_back_scalar(Surface& s) {
  auto* h = dynamic_cast<HostSurface*>(&s);
  LB_REQUIRE(h != nullptr && h->format() == SurfaceFormat::R32F,
             std::string("read back: not an R32F host surface and ") + kNoCuda);
  return h->scalar();
}

}  // namespace cuda
}  // namespace lb
