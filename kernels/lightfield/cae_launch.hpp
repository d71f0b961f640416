#pragma once
// Internal to lb_kernels: the CAE kernels' variants, device data and launchers, used by the
// CUDA estimator (cae_estimator.cpp) and the benchmark (bench/src/lfdepth.cpp). The kernels
// live in one .cu file per family (cae_kernels.hpp); launch_cae_cost picks one.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_util.hpp"
#include "lightfield/cae.hpp"
#include "lightbench/lightfield.hpp"

namespace lb::cuda::detail {

// In bench order. binned_fast: binned with the conversion-free sampling of exact (a fair
// baseline for exact); exact: exact_sort or exact_smem_table, whichever is faster at the
// window.
enum class CaeKernel {
  Baseline,
  Vec,
  Tex,
  Coalesced,
  Binned,
  BinnedFast,
  Exact,  // picks ExactSort or ExactSmemTable by window
  ExactSmem,
  ExactSmemTable,
  ExactTerms,  // exact CAE summed per sample: not bit-identical to coalesced
  ExactSort,
  ExactChan,  // one channel at a time; with ExactStash the only kernels that also write the defocus cost
  ExactStash  // exact_chan loading the texels once per label
};
std::vector<CaeKernel> all_cae_kernels();
std::string cae_variant_list();                       // "use baseline, vec, ..."
CaeKernel parse_cae_kernel(const std::string& name);  // throws lb::Error
const char* cae_kernel_name(CaeKernel k);
CaeMethod cae_kernel_method(CaeKernel k);
// Which kernel the "exact" variant runs at which window, in words (for reports).
std::string exact_dispatch_note();

// The light field resident on the device: packed RGB8, RGBA8 and a layered uchar4 array
// with a bilinear texture object (one layer per view).
class CaeDeviceLightField {
 public:
  CaeDeviceLightField() = default;
  ~CaeDeviceLightField();
  CaeDeviceLightField(const CaeDeviceLightField&) = delete;
  CaeDeviceLightField& operator=(const CaeDeviceLightField&) = delete;
  void upload(const LightField4D& lf, cudaStream_t s);
  bool empty() const { return nu == 0; }
  int nu = 0, nv = 0, width = 0, height = 0;
  DeviceBuffer rgb, rgba;
  cudaArray_t array = nullptr;
  std::size_t array_bytes = 0;  // counted against the device limit (cuda_util.hpp)
  unsigned long long tex = 0;  // cudaTextureObject_t
  std::uint64_t bytes_per_view_rgba() const { return static_cast<std::uint64_t>(width) * height * 4; }

 private:
  void release();
};

// Weight tables in float: w by |i - c| (256), the binned weights (512), then room for the
// term table of exact_sort or exact_smem ((n*n + 1) x 256 or x 512 float2, n up to 15,
// filled on the device by launch_cae_cost, hence the non-const tables pointer there).
constexpr std::size_t kTermTableFloats = (15 * 15 + 1) * 512 * 2;
std::vector<float> cae_weight_tables(float sigma);

// Cost volume [label][roi.h][roi.w] for the resolved roi; tables = cae_weight_tables on the
// device. defocus (may be null): also the raw defocus volume (lfr::defocus_raw, same layout),
// which only exact_chan and exact_stash compute (cae_kernel_writes_defocus; lb::Error for
// another kernel).
// Launch errors throw.
void launch_cae_cost(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi,
                     CaeKernel k, float* tables, float* cost, cudaStream_t s, float* defocus = nullptr);
// Whether variant k at window n runs a kernel that can write the defocus volume in its pass.
bool cae_kernel_writes_defocus(CaeKernel k, int n, const CaeDeviceLightField& lf);
// Winner takes all: first minimum over labels -> disparity, label, confidence (mean - min).
void launch_cae_wta(const CaeParams& p, const CaeRoi& roi, const float* cost, float* disparity,
                    int* label, float* confidence, cudaStream_t s);
// Bytes a cost pass must move at least: the window's views (RGBA8) once, the cost volume
// written; WTA: the cost volume read, three maps written.
std::uint64_t cae_cost_bytes(const CaeParams& p, const CaeRoi& roi, int width, int height, CaeKernel k);
std::uint64_t cae_wta_bytes(const CaeParams& p, const CaeRoi& roi);

}  // namespace lb::cuda::detail
