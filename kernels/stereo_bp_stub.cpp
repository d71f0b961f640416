// lb_kernels without CUDA: the BP stereo entry points of lightbench/stereo_cuda.hpp exist and
// throw (or report nothing).
#include <cstdlib>

#include "lightbench/stereo_cuda.hpp"

namespace lb::cuda {

namespace {
constexpr const char* kNoCuda = "this build has no CUDA support";
}

std::vector<std::string> bp_stereo_variants() { return {"local", "registers", "shared", "hybrid"}; }
std::vector<int> bp_register_counts() { return {16, 20, 21, 32, 48, 60, 64, 128}; }

std::unique_ptr<stereo::StereoMatcher<stereo::BpParams>> make_bp_stereo_cuda(int) {
  throw Error(std::string("CUDA BP stereo: ") + kNoCuda);
}

std::string BpTuneResult::describe() const { return {}; }
std::string bp_tune_cache_path() { return {}; }
void set_bp_tune_cache_path(const std::string&) {}

}  // namespace lb::cuda
