// exact_chan (kernels/lightfield/cae_exact_chan.cu) and exact_stash (cae_exact_stash.cu: its texels
// loaded once per label): the CAE one channel at a time, and the raw defocus cost they write
// in the same pass. The cost volume must equal coalesced's bit for bit (the
// 256-bin scan), the defocus volume defocus_cost_cpu's (lfr::defocus_raw, radius 0), on
// awkward sizes, every window the light field holds, regions off the origin; and the whole
// refinement must not change when the defocus cue comes from the CAE pass.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "lightfield/cae_launch.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "gpu_test_util.hpp"
#include "lightfield/cae.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightfield/lightfield_engine.hpp"
#include "lightfield/lf_refine.hpp"
#include "lightbench/lightfield.hpp"

using namespace lb;

namespace {

// Costs of kernel k against coalesced's (bit for bit) and its defocus volume against
// defocus_cost_cpu's; prints and checks the counts of differing values.
void check_chan_kernel(const LightField4D& lf, const lb::cuda::detail::CaeDeviceLightField& dlf,
                       lb::cuda::detail::CaeKernel k, const CaeParams& p, const CaeRoi& roi, const char* what) {
  using namespace lb::cuda::detail;
  cudaStream_t s = nullptr;
  const std::vector<float> t = cae_weight_tables(p.sigma);
  DeviceBuffer tables(t.size() * 4);
  CUDA_CHECK_THROW(cudaMemcpy(tables.get(), t.data(), t.size() * 4, cudaMemcpyHostToDevice));
  const std::size_t vol = static_cast<std::size_t>(roi.w) * roi.h * p.labels;
  DeviceBuffer ref(vol * 4), cost(vol * 4), def(vol * 4);
  launch_cae_cost(dlf, p, roi, CaeKernel::Coalesced, tables.as<float>(), ref.as<float>(), s);
  launch_cae_cost(dlf, p, roi, k, tables.as<float>(), cost.as<float>(), s, def.as<float>());
  std::vector<float> r(vol), c(vol), d(vol);
  CUDA_CHECK_THROW(cudaMemcpy(r.data(), ref.get(), vol * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK_THROW(cudaMemcpy(c.data(), cost.get(), vol * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK_THROW(cudaMemcpy(d.data(), def.get(), vol * 4, cudaMemcpyDeviceToHost));
  const std::vector<float> dc = defocus_cost_cpu(lf, p, roi, 0);
  std::size_t cost_differ = 0, def_differ = 0;
  for (std::size_t i = 0; i < vol; ++i) {
    cost_differ += std::memcmp(&r[i], &c[i], 4) != 0;
    def_differ += std::memcmp(&dc[i], &d[i], 4) != 0;
  }
  std::printf("%s %s %dx%d views, roi %dx%d at (%d,%d): %zu costs, %zu defocus values of %zu differ\n",
              cae_kernel_name(k), what, p.views, p.views, roi.w, roi.h, roi.x, roi.y, cost_differ, def_differ, vol);
  INFO(cae_kernel_name(k) << " " << what << " " << p.views << "x" << p.views << " views, roi " << roi.w << "x" << roi.h
                          << " at " << roi.x << "," << roi.y);
  CHECK(cost_differ == 0);
  CHECK(def_differ == 0);
  // Only exact_chan and exact_stash write the defocus volume: another kernel refuses in one line.
  CHECK_THROWS_AS(launch_cae_cost(dlf, p, roi, CaeKernel::Coalesced, tables.as<float>(), ref.as<float>(), s,
                                  def.as<float>()),
                  Error);
}

CaeParams exact_params(int n, int labels) {
  CaeParams p;
  p.views = n;
  p.labels = labels;
  p.dmin = -2.3f;
  p.dmax = 2.1f;
  p.method = CaeMethod::Exact;
  return p;
}

}  // namespace

TEST_CASE("cae gpu: exact_chan's and exact_stash's cost and defocus volumes bit-identical to coalesced and the CPU") {
  LB_GPU_TEST_GUARD();
  using namespace lb::cuda::detail;
  const LightField4D lf = synthetic_two_plane_lightfield(61, 37, 9, 9, -1.0f, 1.2f, 9u, 1);
  CaeDeviceLightField dlf;
  dlf.upload(lf, nullptr);
  for (const CaeKernel k : {CaeKernel::ExactChan, CaeKernel::ExactStash})
    for (const int n : {1, 3, 5, 7, 9})
      for (const CaeRoi roi : {CaeRoi{0, 0, 61, 37}, CaeRoi{2, 3, 55, 31}})
        check_chan_kernel(lf, dlf, k, exact_params(n, 13), roi, "two planes");
}

// The walks over each channel's level range (cae_chan_sampling.cuh) at the ends of the range:
// views of texels 0 and 255 among random ones, so that a pixel's samples span words 0 .. 63
// (the loads ahead of the walk clamped at word 63), and views of one level, 0 or 255 (a range
// of one word, at either end).
TEST_CASE("cae gpu: exact_chan's and exact_stash's level-range walks at the ends of the level range") {
  LB_GPU_TEST_GUARD();
  using namespace lb::cuda::detail;
  for (const int kind : {0, 1, 2}) {
    LightField4D lf;
    lf.nu = lf.nv = 9;
    lf.width = 43;
    lf.height = 21;
    lf.layout = "memory";
    lf.source = "synthetic level extremes";
    for (int k = 0; k < lf.nu * lf.nv; ++k) {
      ImageU8 v = test::random_raw(lf.width, lf.height, 3, 700u + static_cast<std::uint64_t>(k));
      for (std::uint8_t& b : v.data)
        b = kind == 1 ? 0 : kind == 2 ? 255 : b < 85 ? 0 : b < 170 ? 255 : b;
      lf.views.push_back(std::move(v));
    }
    CaeDeviceLightField dlf;
    dlf.upload(lf, nullptr);
    const char* what = kind == 0 ? "levels 0 and 255" : kind == 1 ? "all level 0" : "all level 255";
    for (const CaeKernel k : {CaeKernel::ExactChan, CaeKernel::ExactStash})
      for (const int n : {3, 9})
        check_chan_kernel(lf, dlf, k, exact_params(n, 11), CaeRoi{1, 2, 41, 19}, what);
  }
}

TEST_CASE("lf refine gpu: the fused defocus cue (exact_chan) gives the refinement of the separate one") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_lightfield_engine_cuda();
  const LightField4D lf = synthetic_two_plane_lightfield(67, 45, 9, 9, -1.0f, 1.2f, 5u, 1);
  gpu->set_lightfield(lf);
  for (const bool fusion : {true, false})
    for (const int n : {5, 9}) {
      CaeParams p;
      p.views = n;
      p.labels = 33;
      p.dmin = -2.0f;
      p.dmax = 2.0f;
      p.method = CaeMethod::Exact;
      LfRefineParams rp;
      rp.mode = LfRefineMode::Subpixel;
      rp.radius = 4;
      rp.defocus_weight = 0.5f;
      rp.confidence_fusion = fusion;
      const CaeRoi roi{0, 0, lf.width, lf.height};
      const ImageF guide = lf_refine_guide(lf.centre(), roi, rp.color_guide);
      LfDepthResult ra, rb;
      bool dev_a = false, dev_b = false;
      // exact_smem_table: the separate defocus kernel; exact_chan: the cue from the CAE pass.
      const LfRefineResult a = run_refined(*gpu, lf, p, "exact_smem_table", {}, rp, guide, &ra, &dev_a);
      const LfRefineResult b = run_refined(*gpu, lf, p, "exact_chan", {}, rp, guide, &rb, &dev_b);
      INFO(n << "x" << n << (fusion ? " confidence fusion" : " fixed blend"));
      CHECK(dev_a);
      CHECK(dev_b);
      CHECK(ra.labels == rb.labels);
      CHECK(a.filtered.data == b.filtered.data);
      CHECK(a.refined.data == b.refined.data);
      CHECK(a.confidence.data == b.confidence.data);
      std::printf("refine %dx%d %s: defocus %.3f ms separate, %.3f ms box only (fused)\n", n, n,
                  fusion ? "confidence" : "fixed", a.defocus_ms, b.defocus_ms);
    }
}
