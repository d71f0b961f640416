// lb_kernels without CUDA: the CAE entry points of lightbench/cae_cuda.hpp exist and throw.
#include "lightbench/cae_cuda.hpp"

namespace lb::cuda {

namespace {
constexpr const char* kNoCuda = "this build has no CUDA support";
}

std::vector<std::string> cae_variants() {
  return {"baseline",   "vec",        "tex",        "coalesced",  "binned",        "binned_fast",      "exact",
          "exact_smem", "exact_smem_table", "exact_terms", "exact_sort"};
}

CaeMethod cae_variant_method(const std::string& v) {
  if (v == "binned" || v == "binned_fast") return CaeMethod::Binned;
  if (v == "exact" || v == "exact_smem" || v == "exact_smem_table" || v == "exact_terms" || v == "exact_sort")
    return CaeMethod::Exact;
  if (v == "baseline" || v == "vec" || v == "tex" || v == "coalesced") return CaeMethod::Cae;
  throw Error("--variant '" + v +
              "': use baseline, vec, tex, coalesced, binned, binned_fast, exact, exact_smem, exact_smem_table, exact_terms "
              "or exact_sort");
}

std::uint64_t cae_log_mismatches(int) { throw Error(std::string("cae_log_mismatches: ") + kNoCuda); }

std::unique_ptr<LightFieldDepthEstimator> make_lf_depth_cuda(int) {
  throw Error(std::string("CUDA light-field depth: ") + kNoCuda);
}

}  // namespace lb::cuda
