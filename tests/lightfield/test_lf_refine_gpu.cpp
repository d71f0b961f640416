// The light-field refinement on CUDA (normalise, guided filter, WTA + sub-pixel, confidence,
// weighted median; kernels/lightfield/lf_refine.cu, guided_filter.cu) against the CPU reference
// (lf_refine_cpu.cpp) on synthetic light fields of awkward sizes. The raw WTA is the exact
// kernel's and must be identical; the filter runs in float on the GPU and in double on the
// CPU, so near-ties may flip a winner: the bounds are on the share of differing pixels (1 %
// for the labels, 2 % after the median) and on the sub-pixel values where the labels agree.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "gpu_test_util.hpp"
#include "lightfield/guided_filter.hpp"
#include "lightfield/lf_refine_launch.hpp"
#include "lightfield/cae.hpp"
#include "lightfield/cae_cuda.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightfield/lightfield_engine.hpp"
#include "lightfield/lf_refine.hpp"
#include "lightfield/lf_refine_math.hpp"
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
                            weight.as<float>(), paths.as<float>(), out.as<float>(), true, nullptr);
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
      // The winner takes all over the sum (one volume) and over the 4 paths summed on the fly
      // (the refinement's way; staged in shared memory up to 384 labels, per thread beyond):
      // the same bits either way; against the CPU's curve statistics on ref, the same labels
      // and, up to float rounding of the fit (host and device may contract differently),
      // the same sub-pixel disparity and confidence.
      for (const bool wide : {false, true}) {
        std::vector<float> want_l(npx), want_d(npx), want_c(npx);
        for (std::size_t i = 0; i < npx; ++i) {
          const auto at = [&](int a) { return ref[a * npx + i]; };
          const lfr::CurveStats st = lfr::curve_stats(at, c.labels, 1);
          const float off = lfr::subpixel_offset(at, c.labels, st.best, wide);
          want_l[i] = lfr::label_to_disparity(-1.0f, 2.0f, c.labels, static_cast<float>(st.best));
          want_d[i] = lfr::label_to_disparity(-1.0f, 2.0f, c.labels, static_cast<float>(st.best) + off);
          want_c[i] = lfr::confidence(st.min, st.second);
        }
        std::vector<float> first;
        for (const int layers : {1, lfr::kSgmPaths}) {
          DeviceBuffer dl(npx * 4), dd(npx * 4), dconf(npx * 4);
          launch_lf_wta(layers == 1 ? out.as<float>() : paths.as<float>(), true, layers, nullptr,
                        static_cast<long long>(npx), c.labels, -1.0f, 2.0f, true, wide, dl.as<float>(), dd.as<float>(),
                        dconf.as<float>(), nullptr);
          std::vector<float> res(3 * npx);
          CUDA_CHECK_THROW(cudaMemcpy(res.data(), dl.get(), npx * 4, cudaMemcpyDeviceToHost));
          CUDA_CHECK_THROW(cudaMemcpy(res.data() + npx, dd.get(), npx * 4, cudaMemcpyDeviceToHost));
          CUDA_CHECK_THROW(cudaMemcpy(res.data() + 2 * npx, dconf.get(), npx * 4, cudaMemcpyDeviceToHost));
          double dmax = 0, cmax = 0;
          std::size_t labels_differ = 0;
          for (std::size_t i = 0; i < npx; ++i) {
            labels_differ += res[i] != want_l[i];
            dmax = std::max(dmax, static_cast<double>(std::abs(res[npx + i] - want_d[i])));
            cmax = std::max(cmax, static_cast<double>(std::abs(res[2 * npx + i] - want_c[i])));
          }
          INFO("wta over " << layers << " volume(s), " << (wide ? "5-point" : "parabola") << ": max |d| diff " << dmax
                           << ", confidence " << cmax);
          CHECK(labels_differ == 0);
          CHECK(dmax <= 1e-5);
          CHECK(cmax <= 1e-5);
          if (layers == 1)
            first = res;
          else
            CHECK(res == first);
        }
      }
    }
  }
}

// The fusion straight into the semi-global input (launch_lf_fuse_pixel_major) against the
// label-major fusion (launch_lf_fuse) followed by the host's weight, transposition and WTA
// confidence of its output: the same functions on the same values, so the same bits. Random
// curves with flat ones among them (the flat branches), pixel counts that leave a partial last
// block, labels from 1 to the largest the staged kernel takes.
TEST_CASE("lf refine gpu: fusion into the pixel-major semi-global input bit-identical") {
  LB_GPU_TEST_GUARD();
  using namespace lb::cuda::detail;
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  CHECK(lf_fuse_pixel_major_pixels(75) > 0);
  CHECK(lf_fuse_pixel_major_pixels(1024) == 0);
  struct Case { int w, h, labels; };
  const int widest = [] {
    int l = 1;
    while (lf_fuse_pixel_major_pixels(l + 1) > 0) ++l;
    return l;
  }();
  for (const Case c : {Case{67, 45, 75}, Case{37, 23, 33}, Case{5, 7, 1}, Case{64, 2, 2}, Case{29, 31, 97},
                       Case{13, 11, widest}}) {
    const std::size_t npx = static_cast<std::size_t>(c.w) * c.h, vol = npx * c.labels;
    std::vector<float> cost(vol), def(vol);
    for (std::size_t i = 0; i < npx; ++i) {
      const bool flat_c = u01(rng) < 0.05f, flat_d = u01(rng) < 0.05f;
      for (int a = 0; a < c.labels; ++a) {
        cost[a * npx + i] = flat_c ? 0.5f : u01(rng);
        def[a * npx + i] = flat_d ? 0.25f : u01(rng);
      }
    }
    DeviceBuffer dc(vol * 4), dd(vol * 4), pm(vol * 4), conf(npx * 4);
    for (const bool weighted : {false, true}) {
      CUDA_CHECK_THROW(cudaMemcpy(dc.get(), cost.data(), vol * 4, cudaMemcpyHostToDevice));
      CUDA_CHECK_THROW(cudaMemcpy(dd.get(), def.data(), vol * 4, cudaMemcpyHostToDevice));
      launch_lf_fuse_pixel_major(dc.as<float>(), dd.as<float>(), 0.3f, static_cast<long long>(npx), c.labels, weighted,
                                 pm.as<float>(), conf.as<float>(), nullptr);
      launch_lf_fuse(dc.as<float>(), dd.as<float>(), 0.3f, static_cast<long long>(npx), c.labels, nullptr);
      std::vector<float> fused(vol), got(vol), got_conf(npx);
      CUDA_CHECK_THROW(cudaMemcpy(fused.data(), dc.get(), vol * 4, cudaMemcpyDeviceToHost));
      CUDA_CHECK_THROW(cudaMemcpy(got.data(), pm.get(), vol * 4, cudaMemcpyDeviceToHost));
      CUDA_CHECK_THROW(cudaMemcpy(got_conf.data(), conf.get(), npx * 4, cudaMemcpyDeviceToHost));
      std::size_t differ = 0, conf_differ = 0;
      for (std::size_t i = 0; i < npx; ++i) {
        const auto at = [&](int a) { return fused[a * npx + i]; };
        const float wgt = weighted ? lfr::sgm_data_weight(at, c.labels) : 1.0f;
        for (int a = 0; a < c.labels; ++a) differ += got[i * c.labels + a] != (weighted ? at(a) * wgt : at(a));
        const lfr::CurveStats f = lfr::curve_stats(at, c.labels, 1);
        conf_differ += got_conf[i] != lfr::confidence(f.min, f.second);
      }
      INFO(c.w << "x" << c.h << " L=" << c.labels << (weighted ? " weighted" : ""));
      CHECK(differ == 0);
      CHECK(conf_differ == 0);
    }
  }
  DeviceBuffer small(4 * 4);
  // Summed volumes are pixel-major (the semi-global paths): a label-major request is refused.
  CHECK_THROWS_WITH_AS(launch_lf_wta(small.as<float>(), false, lfr::kSgmPaths, nullptr, 1, 1, 0.0f, 1.0f, false, false,
                                     nullptr, small.as<float>(), nullptr, nullptr),
                       doctest::Contains("pixel-major"), lb::Error);
  CHECK_THROWS_WITH_AS(launch_lf_fuse_pixel_major(small.as<float>(), small.as<float>(), 0.3f, 1, 1024, false,
                                                  small.as<float>(), small.as<float>(), nullptr),
                       doctest::Contains("too many labels"), lb::Error);
}

// The box pass with the cues' ranges (launch_lf_box_ranges) and the filters normalising as
// they read, against the box pass, the normalisation pass and the filters on the normalised
// volumes: the boxed volume and the ranges (against lfr::curve_range on the host) bit for
// bit; the filtered volumes within 1e-4 (the on-the-fly normalisation's fast division is
// within 2 ulp of the pass's, ~1e-7 on [0, 1], which the filter at eps 1e-4 amplifies by at
// most 1 / (2 sqrt(eps)) = 50; an indexing or range bug moves values by 0.01 .. 1), radii 1
// and 2, both guides, odd sizes.
TEST_CASE("lf refine gpu: ranges pass and normalising filters against the normalisation pass") {
  LB_GPU_TEST_GUARD();
  using namespace lb::cuda::detail;
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  struct Case { int w, h, labels, radius, gc; };
  for (const Case c : {Case{67, 45, 13, 1, 3}, Case{37, 23, 5, 2, 1}, Case{130, 9, 7, 1, 1}, Case{3, 40, 4, 2, 3}}) {
    const std::size_t npx = static_cast<std::size_t>(c.w) * c.h, vol = npx * c.labels;
    std::vector<float> raw(vol), cost(vol), guide(c.gc * npx);
    for (auto& v : raw) v = 255.0f * u01(rng);
    for (std::size_t i = 0; i < npx; ++i) {
      const bool flat = u01(rng) < 0.05f;  // flat curves: the normalisation's 0 branch
      for (int a = 0; a < c.labels; ++a) cost[a * npx + i] = flat ? 1.5f : 3.0f * u01(rng);
    }
    for (auto& v : guide) v = u01(rng);
    DeviceBuffer d_raw(vol * 4), d_cost(vol * 4), d_box(vol * 4), d_g(guide.size() * 4), d_rng(4 * npx * 4),
        out_a(2 * vol * 4), out_b(2 * vol * 4), scratch(std::max(guided_filter_rgb_scratch_bytes(c.w, c.h, c.labels),
                                                                 guided_filter_scratch_bytes(c.w, c.h, c.labels)));
    CUDA_CHECK_THROW(cudaMemcpy(d_g.get(), guide.data(), guide.size() * 4, cudaMemcpyHostToDevice));
    auto filter = [&](const float* src, int r, float* dst, const float* lo) {
      const float* hi = lo ? lo + npx : nullptr;
      if (c.gc == 3)
        launch_guided_filter_rgb(d_g.as<float>(), c.w, c.h, src, c.labels, r, 1e-4f, dst, scratch.as<float>(), nullptr,
                                 lo, hi);
      else
        launch_guided_filter(d_g.as<float>(), c.w, c.h, src, c.labels, r, 1e-4f, dst, scratch.as<float>(), nullptr, lo,
                             hi);
    };
    auto upload = [&](DeviceBuffer& d, const std::vector<float>& h) {
      CUDA_CHECK_THROW(cudaMemcpy(d.get(), h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    };
    auto download = [&](const float* d, std::size_t n) {
      std::vector<float> h(n);
      CUDA_CHECK_THROW(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
      return h;
    };
    // A: box, normalise both in place, filter.
    upload(d_raw, raw);
    upload(d_cost, cost);
    launch_lf_defocus_box(c.w, c.h, c.labels, c.radius, d_box.as<float>(), d_raw.as<float>(), nullptr);
    const std::vector<float> box_a = download(d_box.as<float>(), vol);
    launch_lf_normalize(d_cost.as<float>(), d_box.as<float>(), 0.5f, true, static_cast<long long>(npx), c.labels,
                        nullptr);
    filter(d_cost.as<float>(), 6, out_a.as<float>(), nullptr);
    filter(d_box.as<float>(), 2, out_a.as<float>() + vol, nullptr);
    // B: the ranges pass, the filters normalising.
    upload(d_raw, raw);
    upload(d_cost, cost);
    launch_lf_box_ranges(d_raw.as<float>(), d_cost.as<float>(), c.w, c.h, c.labels, c.radius, d_box.as<float>(),
                         d_rng.as<float>(), nullptr);
    const std::vector<float> box_b = download(d_box.as<float>(), vol), ranges = download(d_rng.as<float>(), 4 * npx);
    filter(d_cost.as<float>(), 6, out_b.as<float>(), d_rng.as<float>());
    filter(d_box.as<float>(), 2, out_b.as<float>() + vol, d_rng.as<float>() + 2 * npx);
    std::size_t range_differ = 0;
    for (std::size_t i = 0; i < npx; ++i) {
      float mn, mx, dn, dx;
      lfr::curve_range([&](int a) { return cost[a * npx + i]; }, c.labels, mn, mx);
      lfr::curve_range([&](int a) { return box_a[a * npx + i]; }, c.labels, dn, dx);
      range_differ += (ranges[i] != mn) + (ranges[npx + i] != mx) + (ranges[2 * npx + i] != dn) +
                      (ranges[3 * npx + i] != dx);
    }
    INFO(c.w << "x" << c.h << " L=" << c.labels << " box radius " << c.radius << " guide " << c.gc);
    CHECK(box_a == box_b);
    CHECK(range_differ == 0);
    const std::vector<float> fa = download(out_a.as<float>(), 2 * vol), fb = download(out_b.as<float>(), 2 * vol);
    double worst = 0;
    for (std::size_t i = 0; i < fa.size(); ++i) worst = std::max(worst, static_cast<double>(std::abs(fa[i] - fb[i])));
    std::printf("ranges pass %dx%d L=%d r=%d guide %d: filtered max |diff| %.3g\n", c.w, c.h, c.labels, c.radius, c.gc,
                worst);
    CHECK(worst <= 1e-4);
  }
  DeviceBuffer small(4 * 4);
  CHECK_THROWS_AS(launch_lf_box_ranges(small.as<float>(), small.as<float>(), 1, 1, 1, 3, small.as<float>(),
                                       small.as<float>(), nullptr),
                  lb::Error);
  // One range plane without the other is refused before anything is queued.
  DeviceBuffer gs(guided_filter_rgb_scratch_bytes(1, 1, 1));
  CHECK_THROWS_WITH_AS(launch_guided_filter(small.as<float>(), 1, 1, small.as<float>(), 1, 1, 1e-4f, small.as<float>(),
                                            gs.as<float>(), nullptr, small.as<float>(), nullptr),
                       doctest::Contains("both range planes"), lb::Error);
}
