// Host side of the CAE kernels: variant names and methods, the weight tables, the argument
// block, which kernel family runs for a variant and window (launch_cae_cost), and the
// bytes a pass must move. The kernels: cae_scan.cu, cae_binned.cu, cae_exact_*.cu,
// cae_wta.cu.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_launch.hpp"
#include "lightfield/cae_math.hpp"

namespace lb::cuda::detail {

namespace {

// The kernel that runs for a named variant and window n. exact picks the fastest
// bit-identical exact kernel for the window (below); a kernel that does not cover the window
// runs exact's choice there instead: exact_sort covers n = 3, 5, 7, 9; exact_smem* and
// exact_chan the views and padding within their 32-bit texel offsets (4 G texels); beyond
// both, coalesced's 256-bin scan (any window and size; bit-identical to every exact kernel
// but exact_terms). Measured on an H100 (antinous, 75 labels, docs/PERFORMANCE.md): exact_sort
// is the fastest exact kernel at 3 x 3 (1.25 ms; with the range walks exact_stash 1.39,
// exact_chan 1.56 on an H200 at 01125a1), exact_stash from 5 x 5 to 9 x 9 (2.43 / 3.94 / 5.94
// ms at 581814b against exact_chan's 3.22 / 5.41 / 7.78, 2.91 / 5.08 / 7.54 with its range walk
// (H200), exact_sort's 3.55 / 9.42 / 22.0), exact_chan beyond (not measured
// there: exact_stash's stash grows with the window, 3 blocks per SM at 15 x 15).
constexpr int kExactSortUpTo = 3;
constexpr int kExactStashUpTo = 9;
CaeKernel exact_kernel_for(CaeKernel k, int n, const CaeDeviceLightField& lf) {
  const bool smem_fits = static_cast<std::uint64_t>(lf.nu) * lf.nv * lf.width * lf.height + lf.width + 1 <
                         (std::uint64_t{1} << 32);
  const bool sort_fits = n == 3 || n == 5 || n == 7 || n == 9;
  CaeKernel exact = CaeKernel::Coalesced;
  if (sort_fits && n <= kExactSortUpTo)
    exact = CaeKernel::ExactSort;
  else if (smem_fits)
    exact = n <= kExactStashUpTo ? CaeKernel::ExactStash : CaeKernel::ExactChan;
  else if (sort_fits)
    exact = CaeKernel::ExactSort;
  switch (k) {
    case CaeKernel::Exact: return exact;
    case CaeKernel::ExactSmem:
    case CaeKernel::ExactSmemTable:
    case CaeKernel::ExactTerms:
    case CaeKernel::ExactChan:
    case CaeKernel::ExactStash: return smem_fits ? k : exact;
    case CaeKernel::ExactSort: return sort_fits ? k : exact;
    default: return k;
  }
}

CaeArgs make_args(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi, const float* tables,
                  float* cost) {
  CaeArgs a{};
  a.W = lf.width;
  a.H = lf.height;
  a.nu = lf.nu;
  a.uc = lf.nu / 2;
  a.vc = lf.nv / 2;
  a.n = p.views;
  a.u0 = a.uc - p.views / 2;
  a.v0 = a.vc - p.views / 2;
  a.rx = roi.x;
  a.ry = roi.y;
  a.rw = roi.w;
  a.rh = roi.h;
  a.A = p.labels;
  a.dmin = p.dmin;
  a.dmax = p.dmax;
  a.inv_n = 1.0f / static_cast<float>(p.views * p.views);
  a.normalized = p.normalized_log ? 1 : 0;
  a.labels_per_thread = 1;
  a.terms_k2 = static_cast<float>(-1.0 / (2.0 * std::log(2.0) * static_cast<double>(p.sigma) * p.sigma));
  a.terms_floor2 = static_cast<float>(std::log2(cae::kWeightFloor));
  a.terms_ln_n = static_cast<float>(std::log(static_cast<double>(p.views) * p.views));
  a.w256 = tables;
  a.wbin = tables + cae::kBins;
  a.cost = cost;
  return a;
}

}  // namespace

std::vector<CaeKernel> all_cae_kernels() {
  return {CaeKernel::Baseline,  CaeKernel::Vec,       CaeKernel::Tex,       CaeKernel::Coalesced,
          CaeKernel::Binned,    CaeKernel::BinnedFast, CaeKernel::Exact,     CaeKernel::ExactSmem,
          CaeKernel::ExactSmemTable, CaeKernel::ExactTerms, CaeKernel::ExactSort, CaeKernel::ExactChan, CaeKernel::ExactStash};
}

std::string cae_variant_list() {  // from the one list of kernels: "use a, b, ... or z"
  const std::vector<CaeKernel> all = all_cae_kernels();
  std::string s = "use ";
  for (std::size_t i = 0; i < all.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + cae_kernel_name(all[i]);
  return s;
}

CaeKernel parse_cae_kernel(const std::string& name) {
  for (CaeKernel k : all_cae_kernels())
    if (name == cae_kernel_name(k)) return k;
  throw Error("--variant '" + name + "': " + cae_variant_list());
}

const char* cae_kernel_name(CaeKernel k) {
  switch (k) {
    case CaeKernel::Baseline: return "baseline";
    case CaeKernel::Vec: return "vec";
    case CaeKernel::Tex: return "tex";
    case CaeKernel::Coalesced: return "coalesced";
    case CaeKernel::Binned: return "binned";
    case CaeKernel::BinnedFast: return "binned_fast";
    case CaeKernel::Exact: return "exact";
    case CaeKernel::ExactSmem: return "exact_smem";
    case CaeKernel::ExactSmemTable: return "exact_smem_table";
    case CaeKernel::ExactTerms: return "exact_terms";
    case CaeKernel::ExactSort: return "exact_sort";
    case CaeKernel::ExactChan: return "exact_chan";
    case CaeKernel::ExactStash: return "exact_stash";
  }
  return "?";
}

std::string exact_dispatch_note() {
  std::string sort;
  for (int n = 3; n <= kExactSortUpTo; n += 2)
    sort += (sort.empty() ? "" : ", ") + std::to_string(n) + "x" + std::to_string(n);
  std::string stash;
  for (int n = kExactSortUpTo + 2; n <= kExactStashUpTo; n += 2)
    stash += (stash.empty() ? "" : ", ") + std::to_string(n) + "x" + std::to_string(n);
  return "exact_sort at " + sort + ", exact_stash at " + stash + ", exact_chan at the other windows";
}

CaeMethod cae_kernel_method(CaeKernel k) {
  switch (k) {
    case CaeKernel::Binned:
    case CaeKernel::BinnedFast: return CaeMethod::Binned;
    case CaeKernel::Exact:
    case CaeKernel::ExactSmem:
    case CaeKernel::ExactSmemTable:
    case CaeKernel::ExactTerms:
    case CaeKernel::ExactSort:
    case CaeKernel::ExactChan:
    case CaeKernel::ExactStash: return CaeMethod::Exact;
    default: return CaeMethod::Cae;
  }
}

std::vector<float> cae_weight_tables(float sigma) {
  // The term table of the sorting kernel (kTermTableFloats) is filled on the device.
  std::vector<float> t(cae::kBins + cae::kBinnedWeights + kTermTableFloats, 0.0f);
  const double k = 1.0 / (2.0 * static_cast<double>(sigma) * sigma);
  for (int d = 0; d < cae::kBins; ++d) t[static_cast<std::size_t>(d)] = static_cast<float>(std::max(cae::kWeightFloor, std::exp(-double(d) * d * k)));
  for (int i = 0; i < cae::kBinnedWeights; ++i) {
    const double d = 0.5 * i;
    t[static_cast<std::size_t>(cae::kBins + i)] = static_cast<float>(std::max(cae::kWeightFloor, std::exp(-d * d * k)));
  }
  return t;
}

bool cae_kernel_writes_defocus(CaeKernel k, int n, const CaeDeviceLightField& lf) {
  const CaeKernel run = exact_kernel_for(k, n, lf);
  return run == CaeKernel::ExactChan || run == CaeKernel::ExactStash;
}

void launch_cae_cost(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi, CaeKernel k,
                     float* tables, float* cost, cudaStream_t s, float* defocus) {
  CaeArgs a = make_args(lf, p, roi, tables, cost);
  // The exact kernels' term tables ((n*n + 1) x 256 or x 512 (g, logf g), filled by their
  // launchers) share the room after the weight tables.
  float2* terms = reinterpret_cast<float2*>(tables + cae::kBins + cae::kBinnedWeights);
  const unsigned* rgba32 = lf.rgba.as<unsigned>();
  const CaeKernel run = exact_kernel_for(k, p.views, lf);  // the kernel for this variant and window
  if (defocus && run != CaeKernel::ExactChan && run != CaeKernel::ExactStash)
    throw Error(std::string("CAE: ") + cae_kernel_name(run) + " does not compute the defocus cost");
  a.defocus = defocus;
  switch (run) {
    case CaeKernel::Baseline:
    case CaeKernel::Vec:
    case CaeKernel::Tex:
    case CaeKernel::Coalesced: launch_cae_scan(run, a, lf, s); break;
    case CaeKernel::Binned:
    case CaeKernel::BinnedFast: launch_cae_binned(run, a, lf.rgba.as<uchar4>(), s); break;
    case CaeKernel::ExactSort: launch_cae_exact_sort(a, rgba32, terms, s); break;
    case CaeKernel::ExactSmem: launch_cae_exact_smem(false, a, rgba32, terms, s); break;
    case CaeKernel::ExactSmemTable: launch_cae_exact_smem(true, a, rgba32, terms, s); break;
    case CaeKernel::ExactTerms: launch_cae_exact_terms(a, rgba32, s); break;
    case CaeKernel::ExactChan: launch_cae_exact_chan(a, rgba32, terms, s); break;
    case CaeKernel::ExactStash: launch_cae_exact_stash(a, rgba32, terms, s); break;
    case CaeKernel::Exact: throw Error("CAE: exact resolves to one of its kernels");  // not reached
  }
}

std::uint64_t cae_cost_bytes(const CaeParams& p, const CaeRoi& roi, int width, int height, CaeKernel k) {
  const std::uint64_t bpp = k == CaeKernel::Baseline ? 3 : 4;
  return static_cast<std::uint64_t>(p.views) * p.views * width * height * bpp +
         static_cast<std::uint64_t>(roi.w) * roi.h * p.labels * 4;
}
std::uint64_t cae_wta_bytes(const CaeParams& p, const CaeRoi& roi) {
  return static_cast<std::uint64_t>(roi.w) * roi.h * (static_cast<std::uint64_t>(p.labels) * 4 + 12);
}

}  // namespace lb::cuda::detail
