// Center-biased local stereo: parameters, the CPU reference (separable passes, rows in
// parallel) and a direct O(r^2) version for tests. Arithmetic: stereo_local_math.hpp.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "lightbench/engines/stereo.hpp"
#include "lightbench/parallel.hpp"
#include "stereo_local/stereo_local.hpp"
#include "stereo_local/stereo_local_math.hpp"

namespace lb::stereo {

using namespace local;

// The ranges are describe()'s, the one declaration (check_ranges).
void validate(const LocalParams& p) {
  LocalParams q = p;
  check_ranges(describe(q));
}

void validate(const LocalParams& p, const StereoPair& pair) {
  validate(p);
  LB_REQUIRE(!pair.left.empty() && !pair.right.empty(), "stereo pair: an image is empty");
  LB_REQUIRE(pair.left.width == pair.right.width && pair.left.height == pair.right.height,
             "stereo pair: left is " + std::to_string(pair.left.width) + "x" + std::to_string(pair.left.height) +
                 ", right is " + std::to_string(pair.right.width) + "x" + std::to_string(pair.right.height));
  LB_REQUIRE(pair.left.channels == pair.right.channels && (pair.left.channels == 1 || pair.left.channels >= 3),
             "stereo pair: both images must be gray or both RGB(A)");
}

std::vector<ParamInfo> describe(LocalParams& p) {
  using K = ParamInfo::Kind;
  return {
      {"ndisp", "Disparities", "number of disparities 0..ndisp-1", K::Int, &p.ndisp, 1.0,
       static_cast<double>(kMaxDisp)},
      {"radius", "Radius", "window quadrant radius r (quadrants are (r+1)^2)", K::Int, &p.radius, 0.0,
       static_cast<double>(kMaxRadius)},
      {"gamma", "Gamma", "center bias: w(k) = exp(-k / gamma) (large: a plain box)", K::Float, &p.gamma, 0.1,
       1000.0},
      {"truncation", "Truncation", "cost truncation T (intensity levels)", K::Int, &p.truncation, 1.0,
       static_cast<double>(kMaxTruncation)},
      {"variable_windows", "Variable windows", "1: also the left/right half and full windows", K::Int,
       &p.variable_windows, 0.0, 1.0},
      {"lr_check", "Left-right check", "1: left-right consistency check + fill", K::Int, &p.lr_check, 0.0, 1.0},
  };
}

std::vector<std::string> local_variants() { return {"phase2", "phase3", "phase4", "phase5", "fused", "fused2"}; }
std::string local_timing_key(const std::string& variant) { return "stereo/local/" + variant; }

KernelParams local::kernel_params(const LocalParams& p) {
  validate(p);
  KernelParams k;
  k.radius = p.radius;
  k.ndisp = p.ndisp;
  k.trunc3 = 3u * static_cast<unsigned>(p.truncation);
  k.variable_windows = p.variable_windows;
  k.wsum = 0;
  for (int i = 0; i <= p.radius; ++i) {
    k.w[i] = static_cast<unsigned>(std::lround(kWeightOne * std::exp(-static_cast<double>(i) / p.gamma)));
    k.wsum += k.w[i];
  }
  return k;
}

ImageU8 local_rgb(const ImageU8& img) { return img.channels == 3 ? img : to_rgb(img); }

namespace {

// One aggregation: packed WTA result per pixel, reference `ref`, other image `oth`.
std::vector<int> aggregate(const ImageU8& ref, const ImageU8& oth, int dir, const KernelParams& k, int threads) {
  const int W = ref.width, H = ref.height, r = k.radius;
  const std::size_t n = static_cast<std::size_t>(W) * H;
  std::vector<std::uint64_t> best(n, kNoPacked);
  std::vector<unsigned> cost(n), L(n), R(n);
  for (int d = 0; d < k.ndisp; ++d) {
    parallel_for(
        H,
        [&](int y) {
          const std::uint8_t* a = ref.row(y);
          const std::uint8_t* b = oth.row(y);
          unsigned* c = &cost[static_cast<std::size_t>(y) * W];
          for (int x = 0; x < W; ++x) {
            const int xm = match_x(x, d, dir, W);
            c[x] = pixel_cost(a[3 * x], a[3 * x + 1], a[3 * x + 2], b[3 * xm], b[3 * xm + 1], b[3 * xm + 2], k.trunc3);
          }
          unsigned* l = &L[static_cast<std::size_t>(y) * W];
          unsigned* rr = &R[static_cast<std::size_t>(y) * W];
          for (int x = 0; x < W; ++x) {
            unsigned sl = 0, sr = 0;
            for (int t = 0; t <= r; ++t) {
              sl += k.w[t] * c[clampi(x - t, 0, W - 1)];
              sr += k.w[t] * c[clampi(x + t, 0, W - 1)];
            }
            l[x] = sl;
            rr[x] = sr;
          }
        },
        threads);
    parallel_for(
        H,
        [&](int y) {
          for (int x = 0; x < W; ++x) {
            unsigned ul = 0, dl = 0, ur = 0, dr = 0;
            for (int t = 0; t <= r; ++t) {
              const std::size_t up = static_cast<std::size_t>(clampi(y - t, 0, H - 1)) * W + x;
              const std::size_t dn = static_cast<std::size_t>(clampi(y + t, 0, H - 1)) * W + x;
              ul += k.w[t] * L[up];
              dl += k.w[t] * L[dn];
              ur += k.w[t] * R[up];
              dr += k.w[t] * R[dn];
            }
            const std::size_t i = static_cast<std::size_t>(y) * W + x;
            best[i] = min_packed(best[i], pack(window_key(ul, dl, ur, dr, L[i], R[i], k.variable_windows, k.wsum), d));
          }
        },
        threads);
  }
  std::vector<int> disp(n);
  for (std::size_t i = 0; i < n; ++i) disp[i] = packed_disparity(best[i]);
  return disp;
}

std::vector<int> lr_apply(const std::vector<int>& dl, const std::vector<int>& dr, int W, int H) {
  std::vector<int> out(dl.size());
  for (int y = 0; y < H; ++y) {
    const int* a = &dl[static_cast<std::size_t>(y) * W];
    const int* b = &dr[static_cast<std::size_t>(y) * W];
    for (int x = 0; x < W; ++x) out[static_cast<std::size_t>(y) * W + x] = lr_fill(a, b, W, x);
  }
  return out;
}

// Direct definition: every stream summed over its 2D quadrant with clamped coordinates.
std::vector<int> aggregate_direct(const ImageU8& ref, const ImageU8& oth, int dir, const KernelParams& k) {
  const int W = ref.width, H = ref.height, r = k.radius;
  auto c0 = [&](int x, int y, int d) {
    x = clampi(x, 0, W - 1);
    y = clampi(y, 0, H - 1);
    const int xm = match_x(x, d, dir, W);
    return pixel_cost(ref.at(x, y, 0), ref.at(x, y, 1), ref.at(x, y, 2), oth.at(xm, y, 0), oth.at(xm, y, 1),
                      oth.at(xm, y, 2), k.trunc3);
  };
  std::vector<int> disp(static_cast<std::size_t>(W) * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      std::uint64_t best = kNoPacked;
      for (int d = 0; d < k.ndisp; ++d) {
        unsigned q[4] = {0, 0, 0, 0}, l = 0, rr = 0;  // UL, DL, UR, DR
        for (int j = 0; j <= r; ++j)
          for (int i = 0; i <= r; ++i) {
            const unsigned w = k.w[i] * k.w[j];
            q[0] += w * c0(x - i, y - j, d);
            q[1] += w * c0(x - i, y + j, d);
            q[2] += w * c0(x + i, y - j, d);
            q[3] += w * c0(x + i, y + j, d);
          }
        for (int i = 0; i <= r; ++i) {
          l += k.w[i] * c0(x - i, y, d);
          rr += k.w[i] * c0(x + i, y, d);
        }
        const std::uint64_t key = window_key(q[0], q[1], q[2], q[3], l, rr, k.variable_windows, k.wsum);
        if (key < (best >> kDispBits) || best == kNoPacked) best = pack(key, d);
      }
      disp[static_cast<std::size_t>(y) * W + x] = packed_disparity(best);
    }
  return disp;
}

}  // namespace

std::vector<int> local_disparity_cpu(const StereoPair& pair, const LocalParams& p, int threads) {
  validate(p, pair);
  const KernelParams k = kernel_params(p);
  const ImageU8 l = local_rgb(pair.left), r = local_rgb(pair.right);
  std::vector<int> dl = aggregate(l, r, -1, k, threads);
  if (!p.lr_check) return dl;
  const std::vector<int> dr = aggregate(r, l, +1, k, threads);
  return lr_apply(dl, dr, l.width, l.height);
}

std::vector<int> local_disparity_direct(const StereoPair& pair, const LocalParams& p) {
  validate(p, pair);
  const KernelParams k = kernel_params(p);
  const ImageU8 l = local_rgb(pair.left), r = local_rgb(pair.right);
  std::vector<int> dl = aggregate_direct(l, r, -1, k);
  if (!p.lr_check) return dl;
  const std::vector<int> dr = aggregate_direct(r, l, +1, k);
  return lr_apply(dl, dr, l.width, l.height);
}

namespace {

class CpuLocalStereo final : public StereoEngine<LocalParams> {
 public:
  explicit CpuLocalStereo(int threads) : threads_(threads) {}
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override {
    return "CPU (" + std::to_string(threads_ > 0 ? threads_ : default_thread_count()) + " threads)";
  }
  void set_pair(const StereoPair& pair) override {
    validate(LocalParams{}, pair);
    pair_ = pair;
  }
  bool has_pair() const override { return !pair_.left.empty(); }
  std::vector<std::string> variants() const override { return {"reference"}; }
  std::string default_variant() const override { return "reference"; }
  StereoResult run(const LocalParams& p, const std::string& variant) override {
    LB_REQUIRE(has_pair(), "stereo local: no pair loaded");
    LB_REQUIRE(variant.empty() || variant == "reference",
               "--variant '" + variant + "': the CPU backend has only 'reference' (the kernel variants phase2, "
               "phase3, phase4, phase5, fused need --backend cuda)");
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<int> d = local_disparity_cpu(pair_, p, threads_);
    StereoResult r;
    r.variant = "reference";
    r.disparity = ImageF(pair_.left.width, pair_.left.height, 1);
    for (std::size_t i = 0; i < d.size(); ++i) r.disparity.data[i] = static_cast<float>(d[i]);
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.ms_total = r.ms;
    timings_.record(local_timing_key("reference"), r.ms);
    return r;
  }

 private:
  int threads_;
  StereoPair pair_;
};

}  // namespace

std::unique_ptr<StereoEngine<LocalParams>> make_stereo_local_engine_cpu(int threads) {
  return std::make_unique<CpuLocalStereo>(threads);
}

std::uint64_t local_host_bytes(const LocalParams& p, int w, int h, int channels) {
  (void)p;  // the state is per pixel (no disparity-deep volume on the CPU)
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h);
  // decoded + kept pair, RGB copies, per direction best (8) + cost, L, R (4 each) + disparities,
  // the output float map and its PNG.
  return 4 * n * std::uint64_t(channels) + 2 * 3 * n + 2 * 28 * n + 12 * n;
}

std::uint64_t local_device_bytes(const LocalParams& p, int w, int h) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h);
  return 2 * 4 * n + 2 * 28 * n + 4 * n * std::uint64_t(std::max(p.ndisp, 1)) + 8 * n;
}

}  // namespace lb::stereo
