// CAE depth: parameters, the CPU reference (double precision), the CPU estimator.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>

#include "lightfield/cae.hpp"
#include "lightfield/cae_math.hpp"
#include "lightfield/lightfield_engine.hpp"
#include "lightbench/parallel.hpp"

namespace lb {

const char* to_string(CaeMethod m) {
  switch (m) {
    case CaeMethod::Cae: return "cae";
    case CaeMethod::Binned: return "binned";
    case CaeMethod::Exact: return "exact";
  }
  return "?";
}

CaeMethod parse_cae_method(const std::string& s) {
  std::string l = s;
  for (auto& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (l == "cae") return CaeMethod::Cae;
  if (l == "binned") return CaeMethod::Binned;
  if (l == "exact") return CaeMethod::Exact;
  throw Error("--method '" + s + "': use cae, binned or exact");
}

std::vector<CaeMethod> all_cae_methods() { return {CaeMethod::Cae, CaeMethod::Binned, CaeMethod::Exact}; }

// The ranges are describe()'s (check_ranges); what no range can say is checked here.
void validate(const CaeParams& p) {
  CaeParams q = p;
  check_ranges(describe(q));
  LB_REQUIRE(p.views % 2 == 1, "views: the angular window must be odd, got " + std::to_string(p.views));
  LB_REQUIRE(p.dmin < p.dmax, "drange: dmin must be below dmax (got " + std::to_string(p.dmin) + "," +
                                  std::to_string(p.dmax) + ")");
}

void validate(const CaeParams& p, const LightField4D& lf) {
  validate(p);
  validate(lf);
  CaeParams q = p;
  check_ranges(describe(q, &lf));
  (void)angular_window(lf, p.views);
}

double cae_max_abs_disparity(const LightField4D* lf) {
  if (!lf || lf->empty()) return kMaxAbsDisparity;
  const int radius = std::max(1, (std::max(lf->nu, lf->nv) - 1) / 2);
  return std::clamp(std::floor(static_cast<double>(lf->width) / radius), 16.0, kMaxAbsDisparity);
}

std::vector<ParamInfo> describe(CaeParams& p, const LightField4D* lf) {
  const double dlim = cae_max_abs_disparity(lf);
  int max_views = cae::kMaxWindow;
  if (lf && !lf->empty()) {
    const auto sizes = angular_window_sizes(*lf);
    max_views = std::min(max_views, sizes.empty() ? 1 : sizes.back());
  }
  using K = ParamInfo::Kind;
  return {
      {"views", "Angular window", "n x n views around the centre (odd)", K::Int, &p.views, 1.0,
       static_cast<double>(max_views)},
      {"labels", "Labels", "number of disparity labels A", K::Int, &p.labels, 2.0,
       static_cast<double>(cae::kMaxLabels)},
      {"dmin", "Disparity min", "disparity of label 0 (px per view step)", K::Float, &p.dmin, -dlim, dlim},
      {"dmax", "Disparity max", "disparity of label A-1 (px per view step)", K::Float, &p.dmax, -dlim, dlim},
      {"sigma", "Sigma", "Gaussian constraint around the centre intensity", K::Float, &p.sigma, 0.5, 128.0},
  };
}

float cae_label_disparity(const CaeParams& p, int alpha) {
  return cae::label_disparity(p.dmin, p.dmax, p.labels, alpha);
}

CaeRoi resolve_roi(const CaeRoi& roi, int width, int height) {
  // 64-bit arithmetic: x + w (or width - x) of hostile values must not overflow.
  const long long x = roi.x, y = roi.y;
  const long long w = roi.w == 0 ? static_cast<long long>(width) - x : roi.w;
  const long long h = roi.h == 0 ? static_cast<long long>(height) - y : roi.h;
  LB_REQUIRE(x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= width && y + h <= height,
             "crop " + std::to_string(roi.x) + "," + std::to_string(roi.y) + "," + std::to_string(roi.w) +
                 "," + std::to_string(roi.h) + " is not inside the " + std::to_string(width) + "x" +
                 std::to_string(height) + " view");
  CaeRoi r = roi;
  r.w = static_cast<int>(w);
  r.h = static_cast<int>(h);
  return r;
}

namespace {

struct Tables {
  std::array<double, cae::kBins> w{};                // by |i - c|
  std::array<double, cae::kBinnedWeights> wbin{};    // by |8b + 3 - 2c|
};

Tables make_tables(double sigma) {
  Tables t;
  const double k = 1.0 / (2.0 * sigma * sigma);
  for (int d = 0; d < cae::kBins; ++d) t.w[d] = std::max(cae::kWeightFloor, std::exp(-static_cast<double>(d) * d * k));
  for (int i = 0; i < cae::kBinnedWeights; ++i) {
    const double d = 0.5 * i;
    t.wbin[i] = std::max(cae::kWeightFloor, std::exp(-d * d * k));
  }
  return t;
}

// RGB of view at (x, y) bilinear with the position clamped, each channel rounded.
inline void sample_rounded(const ImageU8& img, double x, double y, int out[3]) {
  x = std::clamp(x, 0.0, static_cast<double>(img.width - 1));
  y = std::clamp(y, 0.0, static_cast<double>(img.height - 1));
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
  const double fx = x - x0, fy = y - y0;
  const std::uint8_t* p00 = &img.at(x0, y0);
  const std::uint8_t* p10 = &img.at(x1, y0);
  const std::uint8_t* p01 = &img.at(x0, y1);
  const std::uint8_t* p11 = &img.at(x1, y1);
  for (int c = 0; c < 3; ++c) {
    const double top = p00[c] + fx * (p10[c] - p00[c]);
    const double bot = p01[c] + fx * (p11[c] - p01[c]);
    out[c] = static_cast<int>(std::floor(top + fy * (bot - top) + 0.5));
  }
}

// One entropy term, identical for every method (same order of operations).
inline void add_term(double w, int count, double inv_n, double& G, double& S) {
  const double g = w * (static_cast<double>(count) * inv_n);
  G += g;
  S += g * std::log(g);
}

inline double finish(double G, double S, bool normalized) {
  // -sum (g/G) log g = -S / G; normalised: -sum (g/G) log(g/G) = -S/G + log G.
  return normalized ? -S / G + std::log(G) : -S / G;
}

// The per-pixel worker: all labels of pixel (x, y) into cost[alpha].
class PixelCost {
 public:
  PixelCost(const LightField4D& lf, const CaeParams& p)
      : lf_(lf), p_(p), win_(angular_window(lf, p.views)), t_(make_tables(p.sigma)) {
    n_ = p.views * p.views;
    inv_n_ = 1.0 / n_;
    for (int a = 0; a < p.labels; ++a) d_.push_back(static_cast<double>(cae_label_disparity(p, a)));
  }

  double cost(int x, int y, int alpha) {
    const ImageU8& cv = lf_.centre();
    const int c[3] = {cv.at(x, y, 0), cv.at(x, y, 1), cv.at(x, y, 2)};
    const double d = d_[static_cast<std::size_t>(alpha)];
    // Samples, view order row-major over the window.
    int k = 0;
    for (int v = win_.v0; v < win_.v0 + win_.n; ++v)
      for (int u = win_.u0; u < win_.u0 + win_.n; ++u, ++k) {
        int s[3];
        sample_rounded(lf_.view(u, v), x + cae::kShearSign * (u - lf_.uc()) * d,
                       y + cae::kShearSign * (v - lf_.vc()) * d, s);
        for (int ch = 0; ch < 3; ++ch) samples_[ch][k] = static_cast<std::uint8_t>(s[ch]);
      }
    double H = 0.0;
    for (int ch = 0; ch < 3; ++ch) {
      double G = 0.0, S = 0.0;
      const std::uint8_t* sm = samples_[ch].data();
      switch (p_.method) {
        case CaeMethod::Cae: {
          std::array<int, cae::kBins> h{};
          for (int j = 0; j < n_; ++j) ++h[sm[j]];
          for (int i = 0; i < cae::kBins; ++i)
            if (h[i] > 0) add_term(t_.w[std::abs(i - c[ch])], h[i], inv_n_, G, S);
          break;
        }
        case CaeMethod::Binned: {
          std::array<int, cae::kBinnedBins> h{};
          for (int j = 0; j < n_; ++j) ++h[sm[j] >> 2];
          for (int b = 0; b < cae::kBinnedBins; ++b)
            if (h[b] > 0) add_term(t_.wbin[cae::binned_weight_index(b, c[ch])], h[b], inv_n_, G, S);
          break;
        }
        case CaeMethod::Exact: {
          // Occupied bins only: sort the n samples, walk the runs in ascending order (the
          // order of the 256-bin scan, so the sums are bit-identical).
          std::array<std::uint8_t, cae::kMaxWindow * cae::kMaxWindow> s{};
          std::copy(sm, sm + n_, s.begin());
          std::sort(s.begin(), s.begin() + n_);
          for (int j = 0; j < n_;) {
            int e = j + 1;
            while (e < n_ && s[e] == s[j]) ++e;
            add_term(t_.w[std::abs(static_cast<int>(s[j]) - c[ch])], e - j, inv_n_, G, S);
            j = e;
          }
          break;
        }
      }
      H += finish(G, S, p_.normalized_log);
    }
    return H / 3.0;
  }

 private:
  const LightField4D& lf_;
  const CaeParams& p_;
  AngularWindow win_;
  Tables t_;
  int n_ = 0;
  double inv_n_ = 0.0;
  std::vector<double> d_;
  std::array<std::array<std::uint8_t, cae::kMaxWindow * cae::kMaxWindow>, 3> samples_{};
};

}  // namespace

double cae_cost_cpu(const LightField4D& lf, const CaeParams& p, int x, int y, int alpha) {
  validate(p, lf);
  LB_REQUIRE(x >= 0 && y >= 0 && x < lf.width && y < lf.height && alpha >= 0 && alpha < p.labels,
             "cae_cost_cpu: pixel or label out of range");
  PixelCost pc(lf, p);
  return pc.cost(x, y, alpha);
}

LfDepthResult cae_depth_cpu(const LightField4D& lf, const CaeParams& p, const CaeRunOptions& o) {
  validate(p, lf);
  const auto t0 = std::chrono::steady_clock::now();
  LfDepthResult r;
  r.roi = resolve_roi(o.roi, lf.width, lf.height);
  r.variant = "reference";
  const int W = r.roi.w, H = r.roi.h, A = p.labels;
  r.disparity = ImageF(W, H, 1);
  r.confidence = ImageF(W, H, 1);
  r.labels.assign(static_cast<std::size_t>(W) * H, 0);
  if (o.keep_cost) r.cost.assign(static_cast<std::size_t>(W) * H * A, 0.0f);
  parallel_for(
      H,
      [&](int yy) {
        PixelCost pc(lf, p);
        for (int xx = 0; xx < W; ++xx) {
          double best = std::numeric_limits<double>::infinity(), sum = 0.0;
          int best_a = 0;
          for (int a = 0; a < A; ++a) {
            const double cst = pc.cost(r.roi.x + xx, r.roi.y + yy, a);
            sum += cst;
            if (cst < best) {
              best = cst;
              best_a = a;
            }
            if (o.keep_cost)
              r.cost[(static_cast<std::size_t>(a) * H + yy) * W + xx] = static_cast<float>(cst);
          }
          const std::size_t i = static_cast<std::size_t>(yy) * W + xx;
          r.labels[i] = best_a;
          r.disparity.data[i] = cae_label_disparity(p, best_a);
          r.confidence.data[i] = static_cast<float>(sum / A - best);
        }
      },
      o.threads);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void LightFieldEngine::run_to_surface(const CaeParams& p, const std::string& variant,
                                              Surface& out, const CaeRunOptions& o) {
  last_ = run(p, variant, o);
  has_last_ = true;
  out.resize(last_.disparity.width, last_.disparity.height);
  out.upload_host(last_.disparity);
}

void LightFieldEngine::last_error_to_surface(Surface& out) {
  LB_REQUIRE(has_last_ && host_lf_, "light-field error: no depth computed yet");
  LB_REQUIRE(host_lf_->has_gt(), "this light field has no ground truth");
  const ImageF err = hci_error_map(last_.disparity, host_lf_->gt, last_.roi.x, last_.roi.y);
  out.resize(err.width, err.height);
  out.upload_host(err);
}

HciScore LightFieldEngine::score_last(int border) {
  LB_REQUIRE(has_last_ && host_lf_, "light-field score: no depth computed yet");
  LB_REQUIRE(host_lf_->has_gt(), "this light field has no ground truth");
  return hci_score_region(last_.disparity, host_lf_->gt, last_.roi.x, last_.roi.y, border);
}

void LightFieldEngine::view_to_surface(int u, int v, Surface& out) {
  LB_REQUIRE(host_lf_, "no light field loaded");
  const ImageU8 img = to_rgba(extract_view(*host_lf_, u, v));
  out.resize(img.width, img.height);
  out.upload_host(img);
}

void LightFieldEngine::refocus_to_surface(float disparity, int aperture_radius, Surface& out) {
  LB_REQUIRE(host_lf_, "no light field loaded");
  ImageU8 img;
  {
    ScopedCpuTimer t(timings_, "refocus/cpu", 0);
    img = to_rgba(refocus_cpu(*host_lf_, disparity, aperture_radius));
  }
  out.resize(img.width, img.height);
  out.upload_host(img);
}

namespace {

class CpuLfDepth final : public LightFieldEngine {
 public:
  explicit CpuLfDepth(int threads) : threads_(threads) {}
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override {
    return "CPU (" + std::to_string(threads_ > 0 ? threads_ : default_thread_count()) + " threads)";
  }
  void set_lightfield(const LightField4D& lf) override {
    validate(lf);
    lf_ = lf;
  }
  bool has_lightfield() const override { return !lf_.empty(); }
  std::vector<std::string> variants() const override { return {"reference"}; }
  std::string default_variant(CaeMethod) const override { return "reference"; }
  LfDepthResult run(const CaeParams& p, const std::string& variant, const CaeRunOptions& o) override {
    LB_REQUIRE(has_lightfield(), "lfdepth: no light field loaded");
    LB_REQUIRE(variant.empty() || variant == "reference",
               "--variant '" + variant + "': the CPU backend has only the reference (kernel variants need --backend cuda)");
    CaeRunOptions oo = o;
    if (oo.threads == 0) oo.threads = threads_;
    LfDepthResult r = cae_depth_cpu(lf_, p, oo);
    const std::uint64_t bytes = static_cast<std::uint64_t>(p.views) * p.views * lf_.width * lf_.height * 3 +
                                static_cast<std::uint64_t>(r.roi.w) * r.roi.h * 4;
    timings_.record(std::string("lfdepth/cpu/") + to_string(p.method), r.ms, bytes);
    return r;
  }

 private:
  int threads_;
  LightField4D lf_;
};

}  // namespace

std::unique_ptr<LightFieldEngine> make_lightfield_engine_cpu(int threads) {
  return std::make_unique<CpuLfDepth>(threads);
}

std::uint64_t cae_host_bytes(const CaeParams& p, int views, int w, int h) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h);
  // views loaded and the estimator's copy, one view's decode buffer, the cost volume,
  // disparity + confidence + labels + ground truth + output.
  return 2 * std::uint64_t(views) * 3 * n + 4 * n + 4 * n * std::uint64_t(std::max(p.labels, 1)) + 5 * 4 * n;
}

std::uint64_t cae_device_bytes(const CaeParams& p, int w, int h) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h), views = std::uint64_t(p.views) * std::uint64_t(p.views);
  return views * 4 * n + 4 * n * std::uint64_t(std::max(p.labels, 1)) + 4 * 4 * n;
}

}  // namespace lb
