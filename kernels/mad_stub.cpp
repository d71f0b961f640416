// lb_kernels without CUDA: the MAD entry points of lightbench/mad_cuda.hpp exist and throw.
#include "lightbench/mad_cuda.hpp"

namespace lb::cuda {

namespace {
constexpr const char* kNoCuda = "this build has no CUDA support";
}

std::vector<std::string> mad_stats_variants() { return {"gather", "shared", "shared_nc", "fused"}; }

std::unique_ptr<MadEvaluator> make_mad_cuda(int) { throw Error(std::string("CUDA MAD: ") + kNoCuda); }

std::vector<std::vector<mad_cpu_detail::BlockStatsD>> mad_block_stats_cuda(const std::vector<float>&, int, int, int,
                                                                            const std::string&) {
  throw Error(std::string("CUDA MAD statistics: ") + kNoCuda);
}

}  // namespace lb::cuda
