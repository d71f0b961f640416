// The CUDA side of the registry: the device hooks, and each algorithm's CUDA runner
// (kernels/<id>/<id>_cuda_runner.cpp, listed by the generated builtin_cuda_runners.cpp), its
// runner over its CUDA engine, which writes its outputs from device memory into any lb::Surface
// (a registered GL texture receives them through CUDA-GL interop).
#include "bandwidth.hpp"
#include "builtin_cuda.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/runners.hpp"

namespace lb::cuda {

void register_runners(AlgorithmRegistry& r) {
  CudaHooks hooks;
  hooks.available = [](std::string* why) { return device_available(why); };
  hooks.describe = [] {  // as the CUDA backends name themselves: "NVIDIA H100 80GB HBM3 (sm_90)"
    const DeviceInfo d = device_info();
    return d.name + " (sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ")";
  };
  hooks.device_count = [] { return device_count(); };
  hooks.flush_l2 = [](int device) { detail::flush_l2(device); };
  r.set_cuda_hooks(std::move(hooks));
  // Each engine takes its device and selects it before every call (batch --devices runs one
  // runner per device, each on its own thread).
  // The spec's CUDA variants are its kernels' table (kernels/<id>/<id>_variants.cpp).
  for (const BuiltinCuda& b : builtin_cuda_runners()) {
    if (b.variants) r.add_cuda(b.spec().id, b.runner, b.variants());
    else r.add_cuda(b.spec().id, b.runner);
  }
}

}  // namespace lb::cuda
