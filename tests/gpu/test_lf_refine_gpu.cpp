// The light-field refinement on CUDA (normalise, guided filter, WTA + sub-pixel, confidence,
// weighted median; kernels/lf_refine.cu, guided_filter.cu) against the CPU reference
// (lf_refine_cpu.cpp) on synthetic light fields of awkward sizes. The raw WTA is the exact
// kernel's and must be identical; the filter runs in float on the GPU and in double on the
// CPU, so near-ties may flip a winner: the bounds are on the share of differing pixels (1 %
// for the labels, 2 % after the median) and on the sub-pixel values where the labels agree.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "gpu_test_util.hpp"
#include "lf_refine_launch.hpp"
#include "lightbench/cae.hpp"
#include "lightbench/cae_cuda.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/engines/lightfield.hpp"
#include "lightbench/lf_refine.hpp"
#include "lightbench/lightfield.hpp"

using namespace lb;

TEST_CASE("lf refine gpu: every mode against the CPU reference (awkward sizes)") {
  LB_GPU_TEST_GUARD();
  struct Case {
    int w, h, n, labels, radius;
    LfRefineMode mode;
    bool color;
    float defocus_weight;
    bool fusion = true;  // confidence fusion (else the fixed blend)
    bool wide = true;    // 5-point sub-pixel fit (else the parabola)
    bool sgm = true;     // semi-global aggregation
  };
  auto cpu = make_lightfield_engine_cpu();
  auto gpu = cuda::make_lightfield_engine_cuda();
  for (const Case c : {Case{67, 45, 5, 33, 4, LfRefineMode::Subpixel, false, 0.0f},
                       Case{67, 45, 5, 33, 4, LfRefineMode::Subpixel, true, 0.3f, false},
                       Case{67, 45, 5, 33, 4, LfRefineMode::Subpixel, true, 0.5f},
                       Case{53, 31, 5, 21, 100, LfRefineMode::Filter, true, 0.0f},
                       Case{53, 31, 5, 21, 100, LfRefineMode::Filter, false, 0.7f, false},
                       Case{53, 31, 5, 21, 100, LfRefineMode::Filter, false, 0.7f},
                       Case{71, 39, 3, 17, 6, LfRefineMode::Full, false, 0.0f},
                       Case{71, 39, 3, 17, 6, LfRefineMode::Full, true, 0.3f, false},
                       Case{71, 39, 3, 17, 6, LfRefineMode::Full, true, 0.5f},
                       Case{40, 40, 5, 2, 2, LfRefineMode::Subpixel, true, 1.0f},
                       Case{40, 40, 5, 2, 2, LfRefineMode::Subpixel, true, 1.0f, false},
                       Case{33, 17, 5, 5, 3, LfRefineMode::Subpixel, false, 0.5f},
                       Case{67, 45, 5, 33, 4, LfRefineMode::Subpixel, true, 0.5f, true, false},
                       Case{71, 39, 3, 17, 6, LfRefineMode::Full, false, 0.5f, true, false},
                       Case{40, 40, 5, 4, 2, LfRefineMode::Subpixel, true, 0.5f},
                       Case{67, 45, 5, 33, 4, LfRefineMode::Subpixel, true, 0.5f, true, true, false},
                       Case{71, 39, 3, 17, 6, LfRefineMode::Full, false, 0.5f, true, true, false},
                       Case{53, 31, 5, 21, 100, LfRefineMode::Filter, false, 0.0f, true, true, false},
                       Case{40, 40, 5, 2, 2, LfRefineMode::Subpixel, true, 1.0f, false, true, false}}) {
    const LightField4D lf = synthetic_two_plane_lightfield(c.w, c.h, c.n, c.n, -1.0f, 1.2f, 5u, 1);
    CaeParams p;
    p.views = c.n;
    p.labels = c.labels;
    p.dmin = -2.0f;
    p.dmax = 2.0f;
    p.method = CaeMethod::Exact;
    LfRefineParams rp;
    rp.mode = c.mode;
    rp.radius = c.radius;
    rp.median_radius = 3;
    rp.median_iterations = 2;
    rp.color_guide = c.color;
    rp.defocus_weight = c.defocus_weight;
    rp.confidence_fusion = c.fusion;
    rp.subpixel_wide = c.wide;
    rp.semi_global = c.sgm;
    rp.defocus_filter_radius = c.radius / 2 + 1;
    const CaeRoi roi{0, 0, c.w, c.h};
    const ImageF guide = lf_refine_guide(lf.centre(), roi, c.color);
    cpu->set_lightfield(lf);
    gpu->set_lightfield(lf);
    LfDepthResult rc, rg;
    bool dev_c = true, dev_g = false;
    const LfRefineResult a = run_refined(*cpu, lf, p, "", {}, rp, guide, &rc, &dev_c);
    const LfRefineResult b = run_refined(*gpu, lf, p, "exact", {}, rp, guide, &rg, &dev_g);
    CHECK_FALSE(dev_c);
    CHECK(dev_g);
    CHECK(rc.disparity.data == rg.disparity.data);
    std::size_t lab = 0, ref = 0, sub_far = 0;
    double conf_diff = 0;
    for (std::size_t i = 0; i < a.filtered.data.size(); ++i) {
      const bool same = a.filtered.data[i] == b.filtered.data[i];
      lab += !same;
      ref += std::abs(a.refined.data[i] - b.refined.data[i]) > 1e-3f;
      if (same && c.mode == LfRefineMode::Subpixel) sub_far += std::abs(a.refined.data[i] - b.refined.data[i]) > 1e-3f;
      if (same) conf_diff = std::max(conf_diff, static_cast<double>(std::abs(a.confidence.data[i] - b.confidence.data[i])));
    }
    const std::size_t n = a.filtered.data.size();
    std::printf("lf refine gpu %dx%d L=%d r=%d %s %s defocus %.1f %s: %zu labels differ, %zu refined > 1e-3, conf "
                "max diff %.2g; gpu ms defocus %.3f normalize %.3f filter %.3f fuse %.3f sgm %.3f wta %.3f median %.3f\n",
                c.w, c.h, c.labels, c.radius, to_string(c.mode), c.color ? "rgb" : "gray", c.defocus_weight,
                std::string(c.fusion ? (c.wide ? "confidence lsq5" : "confidence parabola") : "fixed").append(c.sgm ? " sgm" : "").c_str(),
                lab, ref, conf_diff, b.defocus_ms, b.normalize_ms, b.filter_ms, b.fuse_ms, b.aggregate_ms, b.wta_ms,
                b.median_ms);
    INFO(c.w << "x" << c.h << " L=" << c.labels << " " << to_string(c.mode) << (c.color ? " rgb" : " gray")
              << " defocus " << c.defocus_weight << (c.fusion ? " confidence" : " fixed") << (c.sgm ? " sgm" : ""));
    CHECK(lab * 100 <= n);
    CHECK(ref * 50 <= n);
    CHECK(sub_far * 200 <= n);
    CHECK(conf_diff < 5e-3);
    CHECK(b.filter_ms > 0.0);
  }
}

// The defocus cost volume on the device against defocus_cost_cpu: bit-identical before the
// box mean (radius 0: the raw term is the same once-rounded float arithmetic), within
// float rounding after it (relative 1e-5), on a region of an awkward size.
TEST_CASE("lf refine gpu: defocus cost volume against the CPU reference") {
  LB_GPU_TEST_GUARD();
  using namespace lb::cuda::detail;
  const LightField4D lf = synthetic_two_plane_lightfield(61, 37, 5, 5, -1.0f, 1.2f, 9u, 1);
  CaeParams p;
  p.labels = 13;
  p.dmin = -2.0f;
  p.dmax = 2.0f;
  const CaeRoi roi{2, 3, 55, 31};
  const std::size_t vol = static_cast<std::size_t>(roi.w) * roi.h * p.labels;
  cudaStream_t s = nullptr;
  DeviceLightField dlf(lf, s);
  DeviceBuffer out(vol * 4), tmp(vol * 4);
  // The window of 3 x 3 views sits inside the 5 x 5 grid: the float copy holds only the
  // window's views, indexed from its first.
  for (const int nviews : {5, 3})
  for (const bool from_float : {false, true}) {
    p.views = nviews;
    DeviceBuffer views_f(lf_views_float_bytes(dlf, p.views));
    launch_lf_views_to_float(dlf, p.views, views_f.as<float4>(), s);
    for (const int r : {0, 1, 4}) {
      launch_lf_defocus(dlf, from_float ? views_f.as<float4>() : nullptr, p.views, p.dmin, p.dmax, p.labels, roi.x,
                        roi.y, roi.w, roi.h, r, out.as<float>(), tmp.as<float>(), s);
      std::vector<float> got(vol);
      CUDA_CHECK_THROW(cudaMemcpy(got.data(), out.get(), vol * 4, cudaMemcpyDeviceToHost));
      const std::vector<float> ref = defocus_cost_cpu(lf, p, roi, r);
      double worst = 0;
      for (std::size_t i = 0; i < vol; ++i)
        worst = std::max(worst, std::abs(static_cast<double>(ref[i]) - got[i]) / (1.0 + std::abs(ref[i])));
      std::printf("defocus cost gpu %dx%d views, radius %d from %s: max relative diff %.3g\n", nviews, nviews, r,
                  from_float ? "float" : "bytes", worst);
      INFO(nviews << "x" << nviews << " views, radius " << r << (from_float ? " float views" : " byte views"));
      if (r == 0)
        CHECK(got == ref);
      else
        CHECK(worst < 1e-5);
    }
  }
}

// The semi-global step on the device against semi_global_cpu: the same once-rounded float
// steps and the same order of the paths' sum, so the same bits (in the device's pixel-major
// layout), on random volumes of awkward
// sizes (one row, one label, more labels than a block's threads), both guides.
TEST_CASE("lf refine gpu: semi-global aggregation bit-identical to the CPU") {
  LB_GPU_TEST_GUARD();
  using namespace lb::cuda::detail;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  struct Case { int w, h, labels, gc; };
  for (const Case c : {Case{67, 45, 75, 3}, Case{37, 23, 33, 1}, Case{64, 1, 2, 3}, Case{1, 50, 5, 1},
                       Case{29, 31, 300, 3}, Case{19, 11, 1, 1}, Case{13, 9, 1024, 1},
                       // the warp-per-line kernel's widest (4 labels a lane), a partial last
                       // lane, and the first count past it (the block kernel)
                       Case{23, 17, 128, 3}, Case{17, 19, 97, 3}, Case{21, 13, 129, 1}}) {
    const std::size_t npx = static_cast<std::size_t>(c.w) * c.h, vol = npx * c.labels;
    std::vector<float> cost(vol);
    for (auto& v : cost) v = u01(rng);
    ImageF guide(c.w, c.h, c.gc);
    for (auto& v : guide.data) v = u01(rng) < 0.6f ? 0.25f : u01(rng);
    std::vector<float> planes(guide.data.size());
    for (std::size_t i = 0; i < npx; ++i)
      for (int k = 0; k < c.gc; ++k) planes[k * npx + i] = guide.data[i * c.gc + k];
    DeviceBuffer dc(vol * 4), dg(planes.size() * 4), paths((4 * vol + 2 * npx) * 4), out(vol * 4), weight(npx * 4);
    CUDA_CHECK_THROW(cudaMemcpy(dc.get(), cost.data(), vol * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaMemcpy(dg.get(), planes.data(), planes.size() * 4, cudaMemcpyHostToDevice));
    for (const bool weighted : {false, true})
    for (const float p2 : {0.0f, 3.0f}) {
      launch_lf_semi_global(dc.as<float>(), dg.as<float>(), c.gc, c.w, c.h, c.labels, 0.1f, p2, 0.01f, weighted,
                            weight.as<float>(), paths.as<float>(), out.as<float>(), nullptr);
      std::vector<float> got(vol);
      CUDA_CHECK_THROW(cudaMemcpy(got.data(), out.get(), vol * 4, cudaMemcpyDeviceToHost));
      const std::vector<float> ref = semi_global_cpu(cost, c.w, c.h, c.labels, guide, 0.1f, p2, 0.01f, weighted);
      std::size_t differ = 0;  // got is pixel-major, ref label-major
      for (std::size_t i = 0; i < npx; ++i)
        for (int a = 0; a < c.labels; ++a) differ += got[i * c.labels + a] != ref[a * npx + i];
      std::printf("semi-global gpu %dx%d L=%d guide %d P2 %.1f%s: %zu of %zu values differ\n", c.w, c.h, c.labels,
                  c.gc, p2, weighted ? " weighted" : "", differ, vol);
      INFO(c.w << "x" << c.h << " L=" << c.labels << " gc=" << c.gc << " P2 " << p2 << (weighted ? " weighted" : ""));
      CHECK(differ == 0);
    }
  }
}
