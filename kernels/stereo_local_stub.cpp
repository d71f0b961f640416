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

bool LocalBenchReport::all_exact() const { return false; }

LocalBenchReport bench_local_stereo(const std::vector<LocalBenchWorkload>&, const stereo::LocalParams&,
                                    const LocalBenchOptions&) {
  throw Error(std::string("bench local: ") + kNoCuda);
}
std::string format_local_bench_report(const LocalBenchReport&) { return {}; }
std::string local_bench_report_json(const LocalBenchReport&) { return "{}"; }

}  // namespace lb::cuda
