// The device-side building blocks (kernels/surface_write, lightfield_refocus,
// disparity_score) against the CPU references, on random inputs of awkward sizes (1x1, odd
// widths, sizes that are no multiple of the block), through every kind of output: a CUDA
// array (DeviceTarget::SurfaceObject), a pitched buffer (DeviceTarget::Pitched) and a
// HostSurface (no device writes: the staging + upload_host fallback).
// Exact for every 8-bit image, float map and count (and the refocus's unrounded double sums); HCI MSE x 100 within
// lb::hci::mse_tolerance (same squared errors summed in another order, see hci_math.hpp).
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "lightfield/cae_launch.hpp"
#include "cuda_util.hpp"
#include "device_plane.hpp"
#include "disparity_score.hpp"
#include "gpu_test_util.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/hci_math.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/lightfield.hpp"
#include "lightfield/refocus_math.hpp"
#include "lightbench/stereo_metrics.hpp"
#include "lightfield/lightfield_refocus.hpp"
#include "surface_write.hpp"
#include "random_scoring_inputs.hpp"

using namespace lb;
using namespace lb::cuda::detail;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A pitched device buffer of either format (the public buffer surface is RGBA8 only; a GL
// texture never maps as an R32F pointer, but a DeviceTarget may be one).
class PitchedTestSurface final : public Surface {
 public:
  explicit PitchedTestSurface(SurfaceFormat f) : format_(f) {}
  int width() const override { return w_; }
  int height() const override { return h_; }
  SurfaceFormat format() const override { return format_; }
  void resize(int width, int height) override {
    buf_.resize(static_cast<std::size_t>(width) * 4, static_cast<std::size_t>(height));
    w_ = width;
    h_ = height;
  }
  DeviceTarget map_device(void*) override {
    DeviceTarget t;
    t.kind = DeviceTarget::Kind::Pitched;
    t.ptr = buf_.get();
    t.pitch = buf_.pitch();
    t.width = w_;
    t.height = h_;
    ++maps;
    return t;
  }
  void unmap_device(void*) override { ++unmaps; }
  void upload_host(const ImageU8&) override { throw Error("test surface: no host uploads"); }
  void upload_host(const ImageF&) override { throw Error("test surface: no host uploads"); }
  std::string transport() const override { return "test pitched buffer"; }
  // Synchronises the device first (the writes were enqueued on a non-blocking stream).
  ImageU8 rgba() const {
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    return download(DeviceRgbaPlane{static_cast<const uchar4*>(buf_.get()), buf_.pitch(), w_, h_}, nullptr);
  }
  ImageF scalar() const {
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    return download(DeviceFloatPlane{static_cast<const float*>(buf_.get()), buf_.pitch(), w_, h_}, nullptr);
  }
  int maps = 0, unmaps = 0;

 private:
  SurfaceFormat format_;
  int w_ = 0, h_ = 0;
  PitchedBuffer buf_;
};

// Every output kind of a format, with a name and a read-back.
struct Output {
  std::string name;
  std::unique_ptr<Surface> surface;
  bool device = true;  // takes device writes
};
std::vector<Output> outputs(SurfaceFormat f) {
  std::vector<Output> o;
  o.push_back({"cuda array", cuda::make_cuda_surface(f), true});
  if (f == SurfaceFormat::RGBA8) o.push_back({"cuda buffer", cuda::make_cuda_buffer_surface(), true});
  o.push_back({"pitched", std::make_unique<PitchedTestSurface>(f), true});
  o.push_back({"host", std::make_unique<HostSurface>(f), false});
  return o;
}
ImageU8 read_rgba(Surface& s) {
  if (auto* p = dynamic_cast<PitchedTestSurface*>(&s)) return p->rgba();
  return cuda::read_back_rgba(s);
}
ImageF read_scalar(Surface& s) {
  if (auto* p = dynamic_cast<PitchedTestSurface*>(&s)) return p->scalar();
  return cuda::read_back_scalar(s);
}

bool same_bits(const ImageF& a, const ImageF& b) {
  return a.same_shape(b) && std::memcmp(a.data.data(), b.data.data(), a.size_bytes()) == 0;
}

ImageF random_floats(int w, int h, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> val(-100.0f, 100.0f);
  ImageF img(w, h, 1);
  for (auto& v : img.data) {
    const unsigned r = rng() % 20;
    v = r == 0 ? kNaN : r == 1 ? kInf : r == 2 ? -kInf : val(rng);
  }
  return img;
}

struct Size {
  int w, h;
};
const Size kSizes[] = {{1, 1}, {7, 3}, {33, 9}, {129, 65}, {300, 1}, {1, 77}};

LightField4D random_lf(int w, int h, int nu, int nv, std::uint64_t seed) {
  LightField4D lf;
  lf.nu = nu;
  lf.nv = nv;
  lf.width = w;
  lf.height = h;
  lf.views.reserve(static_cast<std::size_t>(nu) * nv);
  for (int i = 0; i < nu * nv; ++i) lf.views.push_back(lb::test::random_raw(w, h, 3, seed + static_cast<std::uint64_t>(i)));
  return lf;
}

}  // namespace

TEST_CASE("device ops: surface writers copy R32F, RGBA8 and RGB8 planes into every output kind") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  PitchedBuffer staging;
  for (const Size sz : kSizes) {
    CAPTURE(sz.w);
    CAPTURE(sz.h);
    // Sources with a pitch wider than a row: a region at (3, 1) of a larger upload.
    const ImageF big_f = random_floats(sz.w + 5, sz.h + 2, static_cast<std::uint64_t>(sz.w * 31 + sz.h));
    const ImageU8 big_rgba = lb::test::random_raw(sz.w + 5, sz.h + 2, 4, 11);
    const ImageU8 big_rgb = lb::test::random_raw(sz.w + 5, sz.h + 2, 3, 12);
    DeviceImage<float> df;
    DeviceImage<uchar4> drgba;
    DeviceImage<Rgb8Pixel> drgb;
    df.upload(big_f, s);
    drgba.upload(big_rgba, s);
    drgb.upload(big_rgb, s);
    auto region = [&](auto plane) {
      using T = std::remove_const_t<std::remove_pointer_t<decltype(plane.ptr)>>;
      const auto* base = reinterpret_cast<const std::uint8_t*>(plane.ptr) + plane.pitch + 3 * sizeof(T);
      return DevicePlane<T>{reinterpret_cast<const T*>(base), plane.pitch, sz.w, sz.h};
    };
    ImageF want_f(sz.w, sz.h, 1);
    ImageU8 want_rgba(sz.w, sz.h, 4), want_rgb(sz.w, sz.h, 4);
    for (int y = 0; y < sz.h; ++y)
      for (int x = 0; x < sz.w; ++x) {
        want_f.at(x, y) = big_f.at(x + 3, y + 1);
        for (int c = 0; c < 4; ++c) want_rgba.at(x, y, c) = big_rgba.at(x + 3, y + 1, c);
        for (int c = 0; c < 3; ++c) want_rgb.at(x, y, c) = big_rgb.at(x + 3, y + 1, c);
        want_rgb.at(x, y, 3) = 255;
      }

    for (Output& o : outputs(SurfaceFormat::R32F)) {
      CAPTURE(o.name);
      CHECK(write_surface_r32f(*o.surface, region(df.plane()), s, &staging) == o.device);
      CHECK(same_bits(read_scalar(*o.surface), want_f));
    }
    for (Output& o : outputs(SurfaceFormat::RGBA8)) {
      CAPTURE(o.name);
      std::string first;
      CHECK(write_surface_rgba8(*o.surface, region(drgba.plane()), s) == o.device);
      CHECK(lb::test::count_mismatches(read_rgba(*o.surface), want_rgba, &first) == 0);
      CHECK(write_surface_rgb8(*o.surface, region(drgb.plane()), s, &staging) == o.device);
      CHECK_MESSAGE(lb::test::count_mismatches(read_rgba(*o.surface), want_rgb, &first) == 0, first);
    }
  }
}

TEST_CASE("device ops: writers check formats and targets, and unmap on every path") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  DeviceImage<float> df;
  df.upload(ImageF(9, 4, 1, 1.5f), s);
  auto rgba = cuda::make_cuda_surface(SurfaceFormat::RGBA8);
  CHECK_THROWS_WITH_AS(write_surface_r32f(*rgba, df.plane(), s), doctest::Contains("must be R32F"), Error);

  PitchedTestSurface p(SurfaceFormat::R32F);
  // A pass that throws: the surface is unmapped all the same.
  CHECK_THROWS_AS(write_surface(p, SurfaceFormat::R32F, 9, 4, s, "test",
                                [](const DeviceTarget&) { throw Error("pass failed"); }),
                  Error);
  CHECK(p.maps == 1);
  CHECK(p.unmaps == 1);

  DeviceTarget none;
  CHECK_THROWS_WITH_AS(write_r32f(none, df.plane(), s), doctest::Contains("takes no device writes"), Error);
  PitchedBuffer small;
  small.resize(8 * 4, 4);
  DeviceTarget t;
  t.kind = DeviceTarget::Kind::Pitched;
  t.ptr = small.get();
  t.pitch = small.pitch();
  t.width = 8;
  t.height = 4;
  CHECK_THROWS_WITH_AS(write_r32f(t, df.plane(), s), doctest::Contains("smaller than the image"), Error);
  t.width = 9;
  t.pitch = 8 * 4;
  CHECK_THROWS_WITH_AS(write_r32f(t, df.plane(), s), doctest::Contains("pitch"), Error);
  // A target larger than the image takes it at (0, 0).
  PitchedBuffer large;
  large.resize(12 * 4, 6);
  t.ptr = large.get();
  t.pitch = large.pitch();
  t.width = 12;
  t.height = 6;
  write_r32f(t, df.plane(), s);
  const ImageF back = download(DeviceFloatPlane{static_cast<const float*>(large.get()), large.pitch(), 9, 4}, s);
  CHECK(same_bits(back, ImageF(9, 4, 1, 1.5f)));
}

TEST_CASE("device ops: light-field refocus on the GPU gives refocus_cpu's bytes") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  struct Case {
    int w, h, nu, nv;
  };
  std::vector<LightField4D> lfs;
  for (const Case c : {Case{1, 1, 1, 1}, Case{7, 5, 3, 3}, Case{33, 17, 5, 5}, Case{31, 9, 4, 3}, Case{65, 40, 9, 9}})
    lfs.push_back(random_lf(c.w, c.h, c.nu, c.nv, static_cast<std::uint64_t>(c.w * 1000 + c.nu)));
  lfs.push_back(synthetic_two_plane_lightfield(96, 64, 9, 9, -0.6f, 1.4f, 5u, 1));  // the viewer's kind
  for (const LightField4D& lf : lfs) {
    DeviceLightField dlf(lf, s);
    const std::size_t pixels = static_cast<std::size_t>(lf.width) * lf.height;
    auto cpu_fetch = [&lf](int u, int v, int x, int y) {
      const std::uint8_t* p = &lf.view(u, v).at(x, y);
      return refocus::Rgb8{p[0], p[1], p[2]};
    };
    CHECK(dlf.nu() == lf.nu);
    CHECK(dlf.width() == lf.width);
    for (float d : {0.0f, 0.37f, -1.25f, 2.0f, 7.5f, 1.4f})
      for (int r : {0, 1, 2, 100}) {
        CAPTURE(lf.width);
        CAPTURE(lf.height);
        CAPTURE(lf.nu);
        CAPTURE(lf.nv);
        CAPTURE(d);
        CAPTURE(r);
        const ImageU8 want = to_rgba(refocus_cpu(lf, d, r));
        for (Output& o : outputs(SurfaceFormat::RGBA8)) {
          CAPTURE(o.name);
          CHECK(refocus_to_surface(dlf, d, r, *o.surface, s) == o.device);
          std::string first;
          CHECK_MESSAGE(lb::test::count_mismatches(read_rgba(*o.surface), want, &first) == 0, first);
        }
        // The unrounded sums, bit for bit: an FMA or a reordering on the device would show
        // here even where it flips no byte.
        DeviceBuffer sums(pixels * 3 * sizeof(double));
        launch_refocus_sums(dlf, d, r, sums.as<double>(), s);
        std::vector<double> got(pixels * 3);
        CUDA_CHECK_THROW(cudaMemcpyAsync(got.data(), sums.get(), got.size() * sizeof(double), cudaMemcpyDeviceToHost, s));
        CUDA_CHECK_THROW(cudaStreamSynchronize(s));
        const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, r);
        std::size_t differ = 0;
        for (int y = 0; y < lf.height; ++y)
          for (int x = 0; x < lf.width; ++x) {
            double acc[3];
            refocus::refocus_sums(cpu_fetch, lf.width, lf.height, ap, d, x, y, acc);
            differ += std::memcmp(acc, &got[(static_cast<std::size_t>(y) * lf.width + x) * 3], sizeof acc) != 0;
          }
        CHECK(differ == 0);
      }
  }
  DeviceLightField dlf(lfs[1], s);
  HostSurface out;
  CHECK_THROWS_WITH_AS(refocus_to_surface(dlf, 0.5f, -1, out, s), doctest::Contains("aperture radius"), Error);
  CHECK_THROWS_WITH_AS(refocus_to_surface(dlf, kNaN, 1, out, s), doctest::Contains("must be finite"), Error);
  DeviceLightField empty;
  CHECK_THROWS_WITH_AS(refocus_to_surface(empty, 0.5f, 1, out, s), doctest::Contains("no light field"), Error);
}

TEST_CASE("device ops: refocus reads the CAE estimator's copy of the views (same layout)") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  const LightField4D lf = random_lf(21, 13, 5, 5, 4242);
  CaeDeviceLightField cae;
  cae.upload(lf, s);
  const LightFieldViews shared{cae.rgba.as<const uchar4>(), cae.nu, cae.nv, cae.width, cae.height};
  HostSurface out;
  CHECK_FALSE(refocus_to_surface(shared, 0.6f, 2, out, s));
  std::string first;
  CHECK_MESSAGE(lb::test::count_mismatches(out.rgba(), to_rgba(refocus_cpu(lf, 0.6f, 2)), &first) == 0, first);
}

TEST_CASE("device ops: every light-field view to every output kind") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  const LightField4D lf = random_lf(13, 7, 4, 3, 99);
  DeviceLightField dlf(lf, s);
  for (Output& o : outputs(SurfaceFormat::RGBA8))
    for (int v = 0; v < lf.nv; ++v)
      for (int u = 0; u < lf.nu; ++u) {
        CAPTURE(o.name);
        CAPTURE(u);
        CAPTURE(v);
        CHECK(view_to_surface(dlf, u, v, *o.surface, s) == o.device);
        std::string first;
        CHECK_MESSAGE(lb::test::count_mismatches(read_rgba(*o.surface), to_rgba(lf.view(u, v)), &first) == 0, first);
      }
  HostSurface out;
  CHECK_THROWS_WITH_AS(view_to_surface(dlf, 4, 0, out, s), doctest::Contains("outside the 4x3 light field"), Error);
}

namespace {

// Truth in [-2, 2] with NaN / inf sprinkled (gw x gh); an estimate of w x h for the region
// at (ox, oy) that misses it by up to `spread`, with its own NaN.
void random_hci(int w, int h, int gw, int gh, int ox, int oy, std::uint64_t seed, float spread, ImageF& disp,
                ImageF& gt) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> val(-2.0f, 2.0f), noise(-spread, spread);
  gt = ImageF(gw, gh, 1);
  for (auto& g : gt.data) {
    const unsigned r = rng() % 50;
    g = r == 0 ? kNaN : r == 1 ? kInf : r == 2 ? -kInf : val(rng);
  }
  disp = ImageF(w, h, 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float g = gt.at(ox + x, oy + y);
      disp.at(x, y) = rng() % 40 == 0 ? kNaN : (std::isfinite(g) ? g : 0.0f) + noise(rng);
    }
}

void check_same_score(const HciScore& got, const HciScore& want) {
  CHECK(got.pixels == want.pixels);
  CHECK(got.border == want.border);
  CHECK(got.badpix_007 == want.badpix_007);  // exact counts, the same formula
  CHECK(got.badpix_003 == want.badpix_003);
  CHECK(got.badpix_001 == want.badpix_001);
  CHECK(std::fabs(got.mse_x100 - want.mse_x100) <= hci::mse_tolerance(want.mse_x100, want.pixels));
}

}  // namespace

TEST_CASE("device ops: HCI error map and scores equal the CPU's") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  struct Case {
    int w, h, gw, gh, ox, oy, border;
  };
  // 1x1; odd sizes; a region inside a larger truth; more pixels than 1024 blocks of 256
  // threads (the grid-stride loop).
  for (const Case c : {Case{1, 1, 1, 1, 0, 0, 0}, Case{37, 21, 37, 21, 0, 0, 3}, Case{40, 30, 71, 55, 9, 20, 15},
                       Case{301, 257, 301, 257, 0, 0, 15}, Case{701, 513, 701, 513, 0, 0, 15}}) {
    for (float spread : {0.0f, 0.05f, 0.3f}) {
      CAPTURE(c.w);
      CAPTURE(c.h);
      CAPTURE(c.ox);
      CAPTURE(spread);
      ImageF disp, gt;
      random_hci(c.w, c.h, c.gw, c.gh, c.ox, c.oy, static_cast<std::uint64_t>(c.w * 7 + c.oy), spread, disp, gt);
      if (c.w == 1) gt.at(0, 0) = 0.5f, disp.at(0, 0) = 0.45f;  // one finite pixel to score
      DeviceHciTruth dgt(gt, s);
      DeviceImage<float> dd;
      dd.upload(disp, s);
      check_same_score(hci_score_region_device(dd.plane(), dgt, c.ox, c.oy, c.border, s),
                       hci_score_region(disp, gt, c.ox, c.oy, c.border));
      if (c.ox == 0 && c.w == c.gw && c.h == c.gh)
        check_same_score(hci_score_device(dd.plane(), dgt, c.border, s), hci_score(disp, gt, c.border));
      const ImageF want = hci_error_map(disp, gt, c.ox, c.oy);
      for (Output& o : outputs(SurfaceFormat::R32F)) {
        CAPTURE(o.name);
        CHECK(hci_error_map_to_surface(dd.plane(), dgt, c.ox, c.oy, *o.surface, s) == o.device);
        CHECK(same_bits(read_scalar(*o.surface), want));
      }
    }
  }
}

TEST_CASE("device ops: HCI scoring errors are the CPU's") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  ImageF gt(20, 20, 1, 1.0f);
  gt.at(10, 10) = kNaN;
  DeviceHciTruth dgt(gt, s);
  DeviceImage<float> dd;
  dd.upload(ImageF(8, 8, 1, 1.0f), s);
  CHECK_THROWS_WITH_AS(hci_score_region_device(dd.plane(), dgt, 15, 0, 0, s), doctest::Contains("is not inside"), Error);
  CHECK_THROWS_WITH_AS(hci_score_device(dd.plane(), dgt, 0, s), doctest::Contains("vs ground truth"), Error);
  CHECK_THROWS_WITH_AS(hci_score_region_device(dd.plane(), dgt, 0, 0, 10, s), doctest::Contains("no pixel left"), Error);
  CHECK_THROWS_WITH_AS(hci_score_region_device(dd.plane(), dgt, 0, 0, -1, s), doctest::Contains("border"), Error);
  // Every evaluated pixel non-finite: nothing to score, as on the CPU.
  ImageF one(1, 1, 1, kNaN);
  DeviceHciTruth dnan(one, s);
  DeviceImage<float> d1;
  d1.upload(ImageF(1, 1, 1, 0.0f), s);
  CHECK_THROWS_WITH_AS(hci_score_device(d1.plane(), dnan, 0, s), doctest::Contains("no pixel left"), Error);
}

namespace {

using lbt::random_estimate;
using lbt::random_stereo;

void check_same_region(const stereo::BadPixels& got, const stereo::BadPixels& want) {
  CHECK(got.pixels == want.pixels);
  CHECK(got.bad == want.bad);
  CHECK(got.percent == want.percent);
}

}  // namespace

TEST_CASE("device ops: stereo error map and scores equal the CPU's") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  struct Case {
    int w, h, mc;
    bool empty_masks, one_empty;
  };
  for (const Case c : {Case{1, 1, 1, false, false}, Case{17, 5, 1, false, true}, Case{33, 31, 3, false, false},
                       Case{64, 48, 1, true, false}, Case{384, 288, 4, false, false}, Case{701, 513, 1, false, true}}) {
    stereo::StereoGroundTruth gt = random_stereo(c.w, c.h, static_cast<std::uint64_t>(c.w + 5 * c.mc), c.mc, c.empty_masks);
    if (c.one_empty) gt.mask_disc = ImageU8();
    const ImageF disp = random_estimate(gt.disparity, static_cast<std::uint64_t>(c.h));
    DeviceStereoTruth dgt(gt, s);
    DeviceImage<float> dd;
    dd.upload(disp, s);
    for (double t : {1.0, 0.5}) {
      CAPTURE(c.w);
      CAPTURE(c.h);
      CAPTURE(t);
      const stereo::StereoScore want = stereo::score_stereo(disp, gt, t);
      const stereo::StereoScore got = score_stereo_device(dd.plane(), dgt, t, s);
      CHECK(got.threshold == want.threshold);
      check_same_region(got.nonocc, want.nonocc);
      check_same_region(got.all, want.all);
      check_same_region(got.disc, want.disc);
      for (float max_disp : {0.0f, 15.0f, -3.0f, 0.3f}) {
        CAPTURE(max_disp);
        const ImageU8 want_map = to_rgba(stereo::stereo_error_map(disp, gt, t, max_disp));
        for (Output& o : outputs(SurfaceFormat::RGBA8)) {
          CAPTURE(o.name);
          CHECK(stereo_error_map_to_surface(dd.plane(), dgt, t, max_disp, *o.surface, s) == o.device);
          std::string first;
          CHECK_MESSAGE(lb::test::count_mismatches(read_rgba(*o.surface), want_map, &first) == 0, first);
        }
      }
    }
  }
}

TEST_CASE("device ops: stereo scoring of empty regions and mismatched sizes") {
  LB_GPU_TEST_GUARD();
  Stream stream;
  const cudaStream_t s = stream.get();
  stereo::StereoGroundTruth gt;
  gt.disparity = ImageF(9, 5, 1, 4.0f);
  gt.mask_nonocc = ImageU8(9, 5, 1, 0);  // selects nothing
  gt.mask_all = ImageU8(9, 5, 1, 255);
  DeviceStereoTruth dgt(gt, s);
  DeviceImage<float> dd;
  dd.upload(ImageF(9, 5, 1, 6.0f), s);
  const stereo::StereoScore got = score_stereo_device(dd.plane(), dgt, 1.0, s);
  CHECK(got.nonocc.pixels == 0);
  CHECK(got.nonocc.percent == 0.0);
  CHECK(got.all.pixels == 45);
  CHECK(got.all.bad == 45);
  CHECK(got.disc.pixels == 45);  // empty mask: every known pixel
  DeviceImage<float> wrong_size;
  wrong_size.upload(ImageF(8, 5, 1, 6.0f), s);
  CHECK_THROWS_WITH_AS(score_stereo_device(wrong_size.plane(), dgt, 1.0, s), doctest::Contains("ground truth is 9x5"),
                       Error);
  stereo::StereoGroundTruth bad = gt;
  bad.mask_disc = ImageU8(3, 3, 1, 255);
  DeviceStereoTruth d2;
  CHECK_THROWS_WITH_AS(d2.upload(bad, s), doctest::Contains("mask disc"), Error);
}
