// lb_kernels without CUDA: the local stereo entry points of lightbench/stereo_local_cuda.hpp
// exist and throw.
#include "lightbench/stereo_local_cuda.hpp"

namespace lb::cuda {

namespace {
constexpr const char* kNoCuda = "this build has no CUDA support";
}

std::unique_ptr<stereo::StereoMatcher<stereo::LocalParams>> make_local_stereo_cuda(int) {
  throw Error(std::string("CUDA local stereo: ") + kNoCuda);
}

}  // namespace lb::cuda
