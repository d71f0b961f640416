#pragma once
// TEMPORARY (issue 20), for app/ only: app/cli and app/viewer still drive the engines by
// their old names until the CLI driver and the generic viewer adapter land. CMake force-
// includes this header into the app targets (lb_engine_app_compat, engine/CMakeLists.txt).
// Remove this file and those link lines when app/ is off the engines.
#include <memory>

#include "lightbench/engines/lightfield.hpp"
#include "lightbench/engines/mad.hpp"
#include "lightbench/engines/plenoptic.hpp"
#include "lightbench/engines/select_backend.hpp"
#include "lightbench/engines/stereo.hpp"
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
#include "lightbench/engines/cuda.hpp"
#endif

namespace lb {
using ComputeBackend = PlenopticEngine;                // TEMPORARY alias (app/)
using LightFieldDepthEstimator = LightFieldEngine;     // TEMPORARY alias (app/)
using MadEvaluator = MadEngine;                        // TEMPORARY alias (app/)
inline std::unique_ptr<PlenopticEngine> make_cpu_backend(int threads = 0) {  // TEMPORARY
  return make_plenoptic_engine_cpu(threads);
}
inline std::unique_ptr<LightFieldEngine> make_lf_depth_cpu(int threads = 0) {  // TEMPORARY
  return make_lightfield_engine_cpu(threads);
}
inline std::unique_ptr<MadEngine> make_mad_cpu(int threads = 0) {  // TEMPORARY
  return make_mad_engine_cpu(threads);
}
namespace stereo {
template <class P>
using StereoMatcher = StereoEngine<P>;  // TEMPORARY alias (app/)
inline std::unique_ptr<StereoEngine<BpParams>> make_bp_stereo_cpu(int threads = 0) {  // TEMPORARY
  return make_stereo_bp_engine_cpu(threads);
}
inline std::unique_ptr<StereoEngine<LocalParams>> make_local_stereo_cpu(int threads = 0) {  // TEMPORARY
  return make_stereo_local_engine_cpu(threads);
}
}  // namespace stereo
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
namespace cuda {
inline std::unique_ptr<PlenopticEngine> make_cuda_backend(int device = 0) {  // TEMPORARY
  return make_plenoptic_engine_cuda(device);
}
inline std::unique_ptr<LightFieldEngine> make_lf_depth_cuda(int device = 0) {  // TEMPORARY
  return make_lightfield_engine_cuda(device);
}
inline std::unique_ptr<MadEngine> make_mad_cuda(int device = 0) {  // TEMPORARY
  return make_mad_engine_cuda(device);
}
inline std::unique_ptr<stereo::StereoEngine<stereo::BpParams>> make_bp_stereo_cuda(int device = 0) {  // TEMPORARY
  return make_stereo_bp_engine_cuda(device);
}
inline std::unique_ptr<stereo::StereoEngine<stereo::LocalParams>> make_local_stereo_cuda(int device = 0) {  // TEMPORARY
  return make_stereo_local_engine_cuda(device);
}
}  // namespace cuda
#endif
}  // namespace lb
