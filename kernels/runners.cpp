// The CUDA runner factories of the built-in algorithms: each algorithm's runner (engine/src/
// algorithms/) over its CUDA engine, which writes its outputs from device memory into any
// lb::Surface (a registered GL texture receives them through CUDA-GL interop).
#include "lightbench/engines/cuda.hpp"
#include "lightbench/engines/lightfield.hpp"
#include "lightbench/engines/mad.hpp"
#include "lightbench/engines/plenoptic.hpp"
#include "lightbench/engines/plenoptic_hex.hpp"
#include "lightbench/engines/stereo.hpp"
#include "lightbench/runners.hpp"

#include "lightbench/cae_cuda.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/mad_cuda.hpp"
#include "lightbench/stereo_cuda.hpp"
#include "lightbench/stereo_local_cuda.hpp"

namespace lb::cuda {

void register_runners(AlgorithmRegistry& r) {
  CudaHooks hooks;
  hooks.available = [](std::string* why) { return device_available(why); };
  hooks.describe = [] {  // as the CUDA backends name themselves: "NVIDIA H100 80GB HBM3 (sm_90)"
    const DeviceInfo d = device_info();
    return d.name + " (sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ")";
  };
  hooks.device_count = [] { return device_count(); };
  r.set_cuda_hooks(std::move(hooks));
  // Each engine takes its device and selects it before every call (batch --devices runs one
  // runner per device, each on its own thread).
  r.add_cuda("plenoptic", [](int d) { return make_plenoptic_runner(make_plenoptic_engine_cuda(d)); });
  r.add_cuda("plenoptic-hex", [](int d) { return make_hex_runner(make_hex_engine_cuda(d)); });
  r.add_cuda("lightfield", [](int d) { return make_lightfield_runner(make_lightfield_engine_cuda(d)); });
  r.add_cuda("stereo-bp", [](int d) { return make_stereo_bp_runner(make_stereo_bp_engine_cuda(d)); });
  r.add_cuda("stereo-local", [](int d) { return make_stereo_local_runner(make_stereo_local_engine_cuda(d)); });
  r.add_cuda("mad", [](int d) { return make_mad_runner(make_mad_engine_cuda(d)); });
}

}  // namespace lb::cuda
