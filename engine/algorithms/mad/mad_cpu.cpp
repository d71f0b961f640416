// MAD CPU reference (double, FFTW), step by step per ../shared/specs/mad.md.
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <map>
#include <mutex>

#include "mad/mad_engine.hpp"
#include "mad/mad.hpp"
#include "mad/mad_math.hpp"
#include "lightbench/parallel.hpp"

namespace lb {

// ---------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------
ImageD mad_gray(const ImageU8& img, bool round_gray) {
  LB_REQUIRE(!img.empty(), "mad: empty image");
  ImageD g(img.width, img.height, 1);
  // MATLAB rgb2gray: first row of inv([1 .956 .621; 1 -.272 -.647; 1 -1.106 1.703]), the
  // spec's (0.298936, 0.587043, 0.114021) to full precision.
  constexpr double kr = 0.298936021293775, kg = 0.587043074451121, kb = 0.114020904255103;
  for (std::size_t i = 0; i < img.pixels(); ++i) {
    const std::uint8_t* p = img.data.data() + i * img.channels;
    double v = p[0];
    if (img.channels >= 3) {
      v = kr * p[0] + kg * p[1] + kb * p[2];
      if (round_gray) v = std::min(255.0, std::floor(v + 0.5));
    }
    g.data[i] = v;
  }
  return g;
}

void validate_mad_input(const ImageD& ref, const ImageD& dst, const MadOptions& o, int* w, int* h) {
  LB_REQUIRE(ref.channels == 1 && dst.channels == 1, "mad: expected gray images (1 channel)");
  LB_REQUIRE(ref.width == dst.width && ref.height == dst.height,
             "mad: reference is " + std::to_string(ref.width) + "x" + std::to_string(ref.height) +
                 " but distorted is " + std::to_string(dst.width) + "x" + std::to_string(dst.height) +
                 " (sizes must match)");
  LB_REQUIRE(ref.width >= mad::kMinSize && ref.height >= mad::kMinSize,
             "mad: images are " + std::to_string(ref.width) + "x" + std::to_string(ref.height) +
                 ", MAD needs at least 34x34");
  for (const ImageD* im : {&ref, &dst})
    for (double v : im->data) {
      LB_REQUIRE(std::isfinite(v) && v >= 0.0 && v <= 255.0, "mad: pixel values must be in 0..255");
      LB_REQUIRE(!o.eight_bit || v == std::floor(v),
                 "mad: 8-bit mode needs integer gray values (use eight_bit = false for float input)");
    }
  if (w) *w = ref.width & ~1;
  if (h) *h = ref.height & ~1;
}

namespace {

using cplx = std::complex<double>;
static_assert(sizeof(cplx) == sizeof(fftw_complex));

// FFTW's planner is not thread-safe; executing a plan on other (equally aligned) arrays is.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

struct FftwBuf {
  cplx* p = nullptr;
  std::size_t n = 0;
  explicit FftwBuf(std::size_t count) : p(reinterpret_cast<cplx*>(fftw_malloc(sizeof(cplx) * count))), n(count) {
    if (!p) throw Error("mad: out of memory for FFT buffers");
  }
  ~FftwBuf() { fftw_free(p); }
  FftwBuf(const FftwBuf&) = delete;
  FftwBuf& operator=(const FftwBuf&) = delete;
  fftw_complex* f() { return reinterpret_cast<fftw_complex*>(p); }
};

// Plans and filter tables for one size, made once.
struct SizeCache {
  int w = 0, h = 0;
  fftw_plan fwd = nullptr, inv = nullptr;
  std::vector<double> csf;                  // unshifted layout, M x N
  std::vector<std::vector<double>> gabor;   // 20 filters, unshifted layout
  // Work buffers of the log-Gabor stage (8 responses in flight), kept to avoid page faults.
  std::vector<std::unique_ptr<FftwBuf>> work_a, work_b;
  SizeCache(int w_, int h_) : w(w_), h(h_) {
    const std::size_t n = static_cast<std::size_t>(w) * h;
    FftwBuf a(n), b(n);
    {
      std::lock_guard<std::mutex> lk(planner_mutex());
      fwd = fftw_plan_dft_2d(h, w, a.f(), b.f(), FFTW_FORWARD, FFTW_ESTIMATE);
      inv = fftw_plan_dft_2d(h, w, a.f(), b.f(), FFTW_BACKWARD, FFTW_ESTIMATE);
    }
    if (!fwd || !inv) throw Error("mad: FFTW could not plan a " + std::to_string(w) + "x" + std::to_string(h) + " FFT");
    csf.resize(n);
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) csf[static_cast<std::size_t>(r) * w + c] = mad::csf<double>(r, c, h, w);
    for (int k = 0; k < 2 * mad::kOrients; ++k) {
      work_a.push_back(std::make_unique<FftwBuf>(n));
      work_b.push_back(std::make_unique<FftwBuf>(n));
    }
    gabor.assign(mad::kResponses, std::vector<double>(n));
    parallel_for(mad::kResponses, [&](int k) {
      const int s = k / mad::kOrients, o = k % mad::kOrients;
      auto& g = gabor[k];
      for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) g[static_cast<std::size_t>(r) * w + c] = mad::log_gabor<double>(s, o, r, c, h, w);
    });
  }
  ~SizeCache() {
    std::lock_guard<std::mutex> lk(planner_mutex());
    fftw_destroy_plan(fwd);
    fftw_destroy_plan(inv);
  }
  SizeCache(const SizeCache&) = delete;
  SizeCache& operator=(const SizeCache&) = delete;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Copies the top-left w x h of a plane (drops an odd last row / column).
std::vector<double> take(const ImageD& im, int w, int h) {
  std::vector<double> v(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y)
    std::copy_n(im.row(y), w, v.begin() + static_cast<std::ptrdiff_t>(y) * w);
  return v;
}

// Root mean square over the crop 16..size-18 (rows and columns).
double crop_rms(const std::vector<double>& m, int w, int h) {
  double s = 0;
  std::size_t n = 0;
  for (int y = mad::crop_lo(); y <= mad::crop_hi(h); ++y)
    for (int x = mad::crop_lo(); x <= mad::crop_hi(w); ++x) {
      const double v = m[static_cast<std::size_t>(y) * w + x];
      s += v * v;
      ++n;
    }
  return n ? std::sqrt(s / static_cast<double>(n)) : 0.0;
}

// Expands per-block values to the 4x4 cells at the block corners; other pixels are 0.
ImageD expand_cells(const std::vector<double>& blocks, int w, int h) {
  const int nbx = mad::block_count(w), nby = mad::block_count(h);
  ImageD out(w, h, 1, 0.0);
  for (int y = 0; y < h; ++y) {
    const int by = y / mad::kStride;
    if (by >= nby) continue;
    for (int x = 0; x < w; ++x) {
      const int bx = x / mad::kStride;
      if (bx < nbx) out.data[static_cast<std::size_t>(y) * w + x] = blocks[static_cast<std::size_t>(by) * nbx + bx];
    }
  }
  return out;
}

// MATLAB 'symmetric' border: -1 -> 0, n -> n-1.
inline int reflect(int i, int n) { return i < 0 ? -i - 1 : (i >= n ? 2 * n - i - 1 : i); }

class MadCpu final : public MadEngine {
 public:
  explicit MadCpu(int threads) : threads_(threads) {}
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override {
    return "CPU (" + std::to_string(threads_ > 0 ? threads_ : default_thread_count()) + " threads, double, FFTW)";
  }
  std::vector<std::string> variants() const override { return {"reference"}; }
  std::string default_variant() const override { return "reference"; }

  MadResult run(const ImageD& ref_in, const ImageD& dst_in, const std::string& variant,
                const MadOptions& o) override {
    if (!variant.empty() && variant != "reference")
      throw Error("mad: variant '" + variant + "' is a CUDA kernel; the CPU backend runs 'reference'");
    int w = 0, h = 0;
    validate_mad_input(ref_in, dst_in, o, &w, &h);
    const int threads = o.threads > 0 ? o.threads : threads_;
    std::lock_guard<std::mutex> run_lock(run_mu_);  // one run at a time (shared work buffers)
    const auto t_total = std::chrono::steady_clock::now();
    SizeCache& sc = cache(w, h);
    const std::size_t n = static_cast<std::size_t>(w) * h;
    const std::vector<double> ref = take(ref_in, w, h), dst = take(dst_in, w, h);

    MadResult res;
    res.width = w;
    res.height = h;
    res.cropped_odd = w != ref_in.width || h != ref_in.height;
    res.variant = "reference";

    // ---- 1.1-1.2 luminance + CSF ----
    auto t0 = std::chrono::steady_clock::now();
    std::vector<double> filt[2];
    {
      const std::vector<double>* src[2] = {&ref, &dst};
      double lut[256];
      for (int i = 0; i < 256; ++i) lut[i] = mad::luminance<double>(mad::lut_index_8bit(i));
      parallel_for(2, [&](int k) {
        FftwBuf a(n), b(n);
        const auto& s = *src[k];
        for (std::size_t i = 0; i < n; ++i)
          a.p[i] = o.eight_bit ? lut[static_cast<int>(s[i])] : mad::luminance<double>(s[i]);
        fftw_execute_dft(sc.fwd, a.f(), b.f());
        for (std::size_t i = 0; i < n; ++i) b.p[i] *= sc.csf[i];
        fftw_execute_dft(sc.inv, b.f(), a.f());
        filt[k].resize(n);
        const double scale = 1.0 / static_cast<double>(n);
        for (std::size_t i = 0; i < n; ++i) filt[k][i] = a.p[i].real() * scale;
      }, threads);
    }
    timings_.record("mad/csf", ms_since(t0));

    // ---- 1.3-1.6 detection ----
    t0 = std::chrono::steady_clock::now();
    const int nbx = mad::block_count(w), nby = mad::block_count(h);
    std::vector<double> msk(static_cast<std::size_t>(nbx) * nby);
    parallel_for(nby, [&](int by) {
      const double* fr = filt[0].data();
      const double* fd = filt[1].data();
      for (int bx = 0; bx < nbx; ++bx) {
        const int i = by * mad::kStride, j = bx * mad::kStride;
        double se = 0, sr = 0;
        for (int y = i; y < i + 16; ++y)
          for (int x = j; x < j + 16; ++x) {
            const std::size_t p = static_cast<std::size_t>(y) * w + x;
            se += fd[p] - fr[p];
            sr += fr[p];
          }
        const double me = se / 256.0, mean_r = sr / 256.0;
        double ve = 0;
        for (int y = i; y < i + 16; ++y)
          for (int x = j; x < j + 16; ++x) {
            const std::size_t p = static_cast<std::size_t>(y) * w + x;
            const double d = fd[p] - fr[p] - me;
            ve += d * d;
          }
        const double std_e = std::sqrt(ve / 255.0);
        double std_r = INFINITY;
        for (int q = 0; q < 4; ++q) {
          const int y0 = i + (q & 1) * 4, x0 = j + (q >> 1) * 4;
          if (!mad::std_r_candidate_used(y0, x0, q, h, w)) continue;
          double s8 = 0;
          for (int y = y0; y < y0 + 8; ++y)
            for (int x = x0; x < x0 + 8; ++x) s8 += fr[static_cast<std::size_t>(y) * w + x];
          const double m8 = s8 / 64.0;
          double v8 = 0;
          for (int y = y0; y < y0 + 8; ++y)
            for (int x = x0; x < x0 + 8; ++x) {
              const double d = fr[static_cast<std::size_t>(y) * w + x] - m8;
              v8 += d * d;
            }
          std_r = std::min(std_r, std::sqrt(v8 / 63.0));
        }
        msk[static_cast<std::size_t>(by) * nbx + bx] = mad::masking<double>(std_r, mean_r, std_e);
      }
    }, threads);
    // lmse: 16x16 box mean of (ref - dst)^2, offsets -7..+8, symmetric border; separable.
    std::vector<double> err2(n), rows(n);
    for (std::size_t i = 0; i < n; ++i) err2[i] = (ref[i] - dst[i]) * (ref[i] - dst[i]);
    parallel_for(h, [&](int y) {
      for (int x = 0; x < w; ++x) {
        double s = 0;
        for (int d = -7; d <= 8; ++d) s += err2[static_cast<std::size_t>(y) * w + reflect(x + d, w)];
        rows[static_cast<std::size_t>(y) * w + x] = s;
      }
    }, threads);
    ImageD hi = expand_cells(msk, w, h);
    parallel_for(h, [&](int y) {
      for (int x = 0; x < w; ++x) {
        double s = 0;
        for (int d = -7; d <= 8; ++d) s += rows[static_cast<std::size_t>(reflect(y + d, h)) * w + x];
        hi.data[static_cast<std::size_t>(y) * w + x] *= s / 256.0;
      }
    }, threads);
    res.d_detect = 200.0 * crop_rms(hi.data, w, h);
    timings_.record("mad/detect", ms_since(t0));

    // ---- 2 appearance: log-Gabor bank + block statistics, one scale (8 maps) at a time ----
    double gabor_ms = 0, stats_ms = 0;
    FftwBuf spec_ref(n), spec_dst(n);
    t0 = std::chrono::steady_clock::now();
    parallel_for(2, [&](int k) {
      FftwBuf a(n);
      const auto& s = k == 0 ? ref : dst;
      for (std::size_t i = 0; i < n; ++i) a.p[i] = s[i];
      fftw_execute_dft(sc.fwd, a.f(), (k == 0 ? spec_ref : spec_dst).f());
    }, threads);
    gabor_ms += ms_since(t0);
    std::vector<double> lo_blocks(static_cast<std::size_t>(nbx) * nby, 0.0);
    std::vector<std::vector<double>> mags(2 * mad::kOrients, std::vector<double>(n));
    std::vector<std::vector<mad_cpu_detail::BlockStatsD>> st(2 * mad::kOrients);
    for (int s = 0; s < mad::kScales; ++s) {
      t0 = std::chrono::steady_clock::now();
      parallel_for(2 * mad::kOrients, [&](int k) {
        const int orient = k / 2;
        const auto& g = sc.gabor[static_cast<std::size_t>(s * mad::kOrients + orient)];
        const cplx* sp = (k % 2 == 0 ? spec_ref : spec_dst).p;
        FftwBuf& a = *sc.work_a[k];
        FftwBuf& b = *sc.work_b[k];
        for (std::size_t i = 0; i < n; ++i) a.p[i] = sp[i] * g[i];
        fftw_execute_dft(sc.inv, a.f(), b.f());
        const double scale = 1.0 / static_cast<double>(n);
        double* mk = mags[k].data();
        for (std::size_t i = 0; i < n; ++i) {
          const double re = b.p[i].real(), im = b.p[i].imag();
          mk[i] = std::sqrt(re * re + im * im) * scale;  // |EO| (sqrt, not hypot: same to 1 ulp)
        }
      }, threads);
      gabor_ms += ms_since(t0);
      t0 = std::chrono::steady_clock::now();
      parallel_for(2 * mad::kOrients, [&](int k) { st[k] = mad_cpu_detail::block_stats(mags[k].data(), w, h); },
                   threads);
      const double ws = mad::scale_weight<double>(s);
      for (int orient = 0; orient < mad::kOrients; ++orient) {
        const auto& r = st[2 * orient];
        const auto& d = st[2 * orient + 1];
        for (std::size_t b = 0; b < lo_blocks.size(); ++b)
          lo_blocks[b] += ws * mad::appearance_term<double>({r[b].std, r[b].skew, r[b].kurt},
                                                            {d[b].std, d[b].skew, d[b].kurt});
      }
      stats_ms += ms_since(t0);
    }
    timings_.record("mad/gabor", gabor_ms);
    timings_.record("mad/stats/reference", stats_ms);
    ImageD lo = expand_cells(lo_blocks, w, h);
    res.d_appear = crop_rms(lo.data, w, h);

    res.mad = mad::combine(res.d_detect, res.d_appear);
    if (o.keep_maps) {
      res.hi = std::move(hi);
      res.lo = std::move(lo);
    }
    res.ms = ms_since(t_total);
    timings_.record("mad/total", res.ms);
    return res;
  }

 private:
  SizeCache& cache(int w, int h) {
    std::lock_guard<std::mutex> lk(mu_);
    auto key = std::make_pair(w, h);
    auto it = caches_.find(key);
    if (it == caches_.end()) {
      if (caches_.size() >= 2) caches_.clear();  // bounded: ~0.5 GB per 1080p size
      it = caches_.emplace(key, std::make_unique<SizeCache>(w, h)).first;
    }
    return *it->second;
  }
  int threads_;
  std::mutex mu_, run_mu_;
  std::map<std::pair<int, int>, std::unique_ptr<SizeCache>> caches_;
};

}  // namespace

std::unique_ptr<MadEngine> make_mad_engine_cpu(int threads) { return std::make_unique<MadCpu>(threads); }

MadResult mad_cpu(const ImageD& ref, const ImageD& dst, const MadOptions& o) {
  MadCpu m(o.threads);
  return m.run(ref, dst, "", o);
}

void MadEngine::map_to_surface(bool hi, Surface& out) {
  LB_REQUIRE(has_last_ && !(hi ? last_.hi : last_.lo).empty(), "MAD: no maps computed yet");
  const ImageD& m = hi ? last_.hi : last_.lo;
  ImageF f(m.width, m.height, 1);
  for (std::size_t i = 0; i < m.data.size(); ++i) f.data[i] = static_cast<float>(m.data[i]);
  out.resize(f.width, f.height);
  out.upload_host(f);
}

float MadEngine::map_quantile(bool hi, double q) {
  LB_REQUIRE(has_last_ && !(hi ? last_.hi : last_.lo).empty(), "MAD: no maps computed yet");
  const ImageD& m = hi ? last_.hi : last_.lo;
  std::vector<float> v(m.data.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(m.data[i]);
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(static_cast<double>(v.size()) * q));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return v[k];
}

std::uint64_t mad_host_bytes(int w, int h, int channels) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h);
  // decoded inputs + gray planes (double), CSF + 20 log-Gabor filters (double), 16 complex FFT
  // work planes + the planning pair, ~32 double planes of the stages and the HI/LO maps.
  return 2 * n * (std::uint64_t(channels) + 8) + 8 * n * 21 + 16 * n * 18 + 8 * n * 32;
}

std::uint64_t mad_device_bytes(int w, int h) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h);
  return 8 * n * 21 + 16 * n * 18 + 8 * n * 20;
}

}  // namespace lb
