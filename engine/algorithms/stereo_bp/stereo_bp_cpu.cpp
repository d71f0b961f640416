// Hierarchical belief propagation stereo: parameters, preprocessing, the multithreaded CPU
// reference, the straightforward single-threaded version for tests, the CPU matcher.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>

#include "lightbench/engines/stereo.hpp"
#include "lightbench/parallel.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_bp/stereo_bp_math.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb::stereo {

using namespace bpm;
static_assert(kBpMaxDisp == bpm::kMaxDisp, "one disparity limit for the CPU and the kernels");

int bp_max_ndisp(int width) { return width > 0 ? std::min(kBpMaxDisp, width) : kBpMaxDisp; }

void validate(const BpParams& p) {
  BpParams q = p;
  check_ranges(describe(q));
}

void validate(const BpParams& p, const StereoPair& pair) {
  validate(pair);
  BpParams q = p;
  check_ranges(describe(q, pair.left.width));
}

std::vector<ParamInfo> describe(BpParams& p, int width) {
  using K = ParamInfo::Kind;
  const double max_ndisp = bp_max_ndisp(width);
  return {
      {"levels", "Levels", "pyramid levels K", K::Int, &p.levels, 1.0, static_cast<double>(kBpMaxLevels)},
      {"iterations", "Iterations", "message passing iterations per level T", K::Int, &p.iterations, 0.0, 50.0},
      {"lambda", "Lambda", "weight of the data cost", K::Float, &p.lambda, 0.001, 1.0},
      {"tau_data", "Data truncation", "truncation of the data cost (gray levels)", K::Float, &p.tau_data, 1.0,
       255.0},
      {"tau_disc", "Disc. truncation",
       "truncation of the smoothness cost (disparity steps; the reference's ndisp / 7.5 fits any ndisp)", K::Float,
       &p.tau_disc, 0.1, max_ndisp},
      {"sigma", "Smoothing sigma", "Gaussian smoothing of the inputs (0: none)", K::Float, &p.sigma, 0.0,
       static_cast<double>(kBpMaxSigma)},
      {"ndisp", "Disparities", "number of disparity values L (0 .. L-1), up to the image width", K::Int, &p.ndisp,
       2.0, max_ndisp},
  };
}

std::vector<float> bp_gaussian_taps(float sigma) {
  if (sigma <= 0.0f) return {1.0f};
  const int len = static_cast<int>(std::ceil(sigma * 4.0f)) + 1;
  std::vector<double> m(static_cast<std::size_t>(len));
  double sum = 0;
  for (int i = 0; i < len; ++i) {
    m[static_cast<std::size_t>(i)] = std::exp(-0.5 * (i / double(sigma)) * (i / double(sigma)));
    sum += (i == 0 ? 1.0 : 2.0) * m[static_cast<std::size_t>(i)];
  }
  std::vector<float> t(static_cast<std::size_t>(len));
  for (int i = 0; i < len; ++i) t[static_cast<std::size_t>(i)] = static_cast<float>(m[static_cast<std::size_t>(i)] / sum);
  return t;
}

ImageF bp_preprocess(const ImageU8& img, float sigma) {
  const int w = img.width, h = img.height;
  ImageF g(w, h, 1);
  for (std::size_t i = 0; i < g.pixels(); ++i) {
    const std::uint8_t* px = &img.data[i * static_cast<std::size_t>(img.channels)];
    g.data[i] = img.channels >= 3 ? gray(px[0], px[1], px[2]) : static_cast<float>(px[0]);
  }
  const std::vector<float> taps = bp_gaussian_taps(sigma);
  if (taps.size() == 1) return g;
  const int n = static_cast<int>(taps.size());
  ImageF t(w, h, 1), out(w, h, 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      t.at(x, y) = convolve_even(taps.data(), n, [&](int i) { return g.at(std::clamp(x + i, 0, w - 1), y); });
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out.at(x, y) = convolve_even(taps.data(), n, [&](int i) { return t.at(x, std::clamp(y + i, 0, h - 1)); });
  return out;
}

namespace {

// One pyramid level: data cost and the four incoming message arrays, [y][x][d].
struct Level {
  int w = 0, h = 0, L = 0;
  std::vector<float> data;
  std::array<std::vector<float>, 4> in;
  void alloc(int ww, int hh, int ll) {
    w = ww, h = hh, L = ll;
    const std::size_t n = static_cast<std::size_t>(w) * h * L;
    data.assign(n, 0.0f);
    for (auto& m : in) m.assign(n, 0.0f);
  }
  std::size_t at(int x, int y) const { return (static_cast<std::size_t>(y) * w + x) * L; }
};

std::vector<Level> build_levels(const StereoPair& pair, const BpParams& p, int threads) {
  const ImageF gl = bp_preprocess(pair.left, p.sigma), gr = bp_preprocess(pair.right, p.sigma);
  const int L = p.ndisp;
  std::vector<Level> lv(static_cast<std::size_t>(p.levels));
  lv[0].alloc(gl.width, gl.height, L);
  const float outside = data_cost_outside(p.lambda, p.tau_data);
  parallel_for(
      gl.height,
      [&](int y) {
        for (int x = 0; x < gl.width; ++x) {
          float* D = &lv[0].data[lv[0].at(x, y)];
          for (int d = 0; d < L; ++d)
            D[d] = x - d >= 0 ? data_cost(gl.at(x, y), gr.at(x - d, y), p.lambda, p.tau_data) : outside;
        }
      },
      threads);
  for (std::size_t k = 1; k < lv.size(); ++k) {
    const Level& f = lv[k - 1];
    Level& c = lv[k];
    c.alloc((f.w + 1) / 2, (f.h + 1) / 2, L);
    parallel_for(
        c.h,
        [&](int y) {
          for (int x = 0; x < c.w; ++x) {
            float* D = &c.data[c.at(x, y)];
            for (int yy = 2 * y; yy < std::min(2 * y + 2, f.h); ++yy)
              for (int xx = 2 * x; xx < std::min(2 * x + 2, f.w); ++xx) {
                const float* s = &f.data[f.at(xx, yy)];
                for (int d = 0; d < L; ++d) D[d] = add(D[d], s[d]);
              }
          }
        },
        threads);
  }
  return lv;
}

constexpr int kDx[4] = {0, 0, -1, 1}, kDy[4] = {-1, 1, 0, 0};  // neighbour of direction k

void iterate_level(Level& lv, const BpParams& p, int threads) {
  const int L = lv.L;
  for (int t = 0; t < p.iterations; ++t) {
    parallel_for(
        lv.h,
        [&](int y) {
          for (int x = (y + t) & 1; x < lv.w; x += 2) {
            const std::size_t i = lv.at(x, y);
            const float* D = &lv.data[i];
            for (int k = 0; k < 4; ++k) {
              const int qx = x + kDx[k], qy = y + kDy[k];
              if (qx < 0 || qy < 0 || qx >= lv.w || qy >= lv.h) continue;
              int o[3], n = 0;
              for (int j = 0; j < 4; ++j)
                if (j != k) o[n++] = j;
              const float *a = &lv.in[o[0]][i], *b = &lv.in[o[1]][i], *c = &lv.in[o[2]][i];
              float* out = &lv.in[opposite(k)][lv.at(qx, qy)];
              // The kernels' message code, all values in the (local) array.
              message<0, 0>([&](int d) { return h_sum(D[d], a[d], b[d], c[d]); },
                            [&](int d, float v) { out[d] = v; }, L, 0, nullptr, 0, p.tau_disc);
            }
          }
        },
        threads);
  }
}

void copy_down(const Level& c, Level& f, int threads) {
  parallel_for(
      f.h,
      [&](int y) {
        for (int x = 0; x < f.w; ++x)
          for (int k = 0; k < 4; ++k)
            std::copy_n(&c.in[k][c.at(x / 2, y / 2)], f.L, &f.in[k][f.at(x, y)]);
      },
      threads);
}

ImageF wta(const Level& lv, int threads) {
  ImageF out(lv.w, lv.h, 1);
  parallel_for(
      lv.h,
      [&](int y) {
        for (int x = 0; x < lv.w; ++x) {
          const std::size_t i = lv.at(x, y);
          float best = std::numeric_limits<float>::infinity();
          int bd = 0;
          for (int d = 0; d < lv.L; ++d) {
            const float b = add(add(add(add(lv.data[i + d], lv.in[0][i + d]), lv.in[1][i + d]), lv.in[2][i + d]),
                                lv.in[3][i + d]);
            if (b < best) best = b, bd = d;
          }
          out.at(x, y) = static_cast<float>(bd);
        }
      },
      threads);
  return out;
}

}  // namespace

ImageF bp_stereo_cpu(const StereoPair& pair, const BpParams& p, int threads) {
  validate(p, pair);
  std::vector<Level> lv = build_levels(pair, p, threads);
  for (int k = p.levels - 1; k >= 0; --k) {
    if (k < p.levels - 1) copy_down(lv[static_cast<std::size_t>(k + 1)], lv[static_cast<std::size_t>(k)], threads);
    iterate_level(lv[static_cast<std::size_t>(k)], p, threads);
  }
  return wta(lv[0], threads);
}

// ---- the straightforward version: one thread, plain loops, O(L^2) messages -------------
ImageF bp_stereo_naive(const StereoPair& pair, const BpParams& p) {
  validate(p, pair);
  const ImageF gl = bp_preprocess(pair.left, p.sigma), gr = bp_preprocess(pair.right, p.sigma);
  const int L = p.ndisp;
  // cost[k][y][x][d], msg[k][dir][y][x][d] as nested vectors.
  using Vol = std::vector<std::vector<std::vector<float>>>;  // [y][x][d]
  auto make = [&](int w, int h) { return Vol(static_cast<std::size_t>(h), std::vector<std::vector<float>>(static_cast<std::size_t>(w), std::vector<float>(static_cast<std::size_t>(L), 0.0f))); };
  std::vector<Vol> cost;
  std::vector<std::array<Vol, 4>> msg;
  std::vector<int> W, H;
  W.push_back(gl.width);
  H.push_back(gl.height);
  cost.push_back(make(W[0], H[0]));
  for (int y = 0; y < H[0]; ++y)
    for (int x = 0; x < W[0]; ++x)
      for (int d = 0; d < L; ++d)
        cost[0][y][x][d] = x - d >= 0 ? p.lambda * std::min(std::fabs(gl.at(x, y) - gr.at(x - d, y)), p.tau_data)
                                      : p.lambda * p.tau_data;
  for (int k = 1; k < p.levels; ++k) {
    W.push_back((W[k - 1] + 1) / 2);
    H.push_back((H[k - 1] + 1) / 2);
    cost.push_back(make(W[k], H[k]));
    for (int y = 0; y < H[k - 1]; ++y)
      for (int x = 0; x < W[k - 1]; ++x)
        for (int d = 0; d < L; ++d) cost[k][y / 2][x / 2][d] += cost[k - 1][y][x][d];
  }
  for (int k = 0; k < p.levels; ++k) msg.push_back({make(W[k], H[k]), make(W[k], H[k]), make(W[k], H[k]), make(W[k], H[k])});
  const int dx[4] = {0, 0, -1, 1}, dy[4] = {-1, 1, 0, 0};
  for (int k = p.levels - 1; k >= 0; --k) {
    if (k < p.levels - 1)
      for (int y = 0; y < H[k]; ++y)
        for (int x = 0; x < W[k]; ++x)
          for (int j = 0; j < 4; ++j) msg[k][j][y][x] = msg[k + 1][j][y / 2][x / 2];
    for (int t = 0; t < p.iterations; ++t)
      for (int y = 0; y < H[k]; ++y)
        for (int x = 0; x < W[k]; ++x) {
          if ((x + y + t) % 2 != 0) continue;
          for (int s = 0; s < 4; ++s) {  // send to the neighbour in direction s
            const int qx = x + dx[s], qy = y + dy[s];
            if (qx < 0 || qy < 0 || qx >= W[k] || qy >= H[k]) continue;
            std::vector<float> hv(static_cast<std::size_t>(L)), m(static_cast<std::size_t>(L));
            for (int d = 0; d < L; ++d) {
              float v = cost[k][y][x][d];
              for (int j = 0; j < 4; ++j)
                if (j != s) v += msg[k][j][y][x][d];
              hv[d] = v;
            }
            for (int d = 0; d < L; ++d) {
              float best = std::numeric_limits<float>::infinity();
              for (int e = 0; e < L; ++e)
                best = std::min(best, hv[e] + std::min(static_cast<float>(std::abs(d - e)), p.tau_disc));
              m[d] = best;
            }
            float mean = 0.0f;  // summed from d = L-1 down, as the fast version does
            for (int d = L - 1; d >= 0; --d) mean = d == L - 1 ? m[d] : mean + m[d];
            mean /= static_cast<float>(L);
            // Neighbour q receives it from the opposite side.
            for (int d = 0; d < L; ++d) msg[k][s ^ 1][qy][qx][d] = m[d] - mean;
          }
        }
  }
  ImageF out(W[0], H[0], 1);
  for (int y = 0; y < H[0]; ++y)
    for (int x = 0; x < W[0]; ++x) {
      float best = std::numeric_limits<float>::infinity();
      int bd = 0;
      for (int d = 0; d < L; ++d) {
        float b = cost[0][y][x][d];
        for (int j = 0; j < 4; ++j) b += msg[0][j][y][x][d];
        if (b < best) best = b, bd = d;
      }
      out.at(x, y) = static_cast<float>(bd);
    }
  return out;
}

namespace {

class CpuBpStereo final : public StereoEngine<BpParams> {
 public:
  explicit CpuBpStereo(int threads) : threads_(threads) {}
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override {
    return "CPU (" + std::to_string(threads_ > 0 ? threads_ : default_thread_count()) + " threads)";
  }
  void set_pair(const StereoPair& pair) override {
    validate(pair);
    pair_ = pair;
  }
  bool has_pair() const override { return !pair_.left.empty(); }
  std::vector<std::string> variants() const override { return {"reference"}; }
  std::string default_variant() const override { return "reference"; }
  StereoResult run(const BpParams& p, const std::string& variant) override {
    LB_REQUIRE(has_pair(), "stereo bp: no stereo pair loaded");
    LB_REQUIRE(variant.empty() || variant == "reference",
               "--variant '" + variant + "': the CPU backend has only 'reference' (kernel variants need --backend cuda)");
    const auto t0 = std::chrono::steady_clock::now();
    StereoResult r;
    r.disparity = bp_stereo_cpu(pair_, p, threads_);
    r.variant = "reference";
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.ms_total = r.ms;
    timings_.record("stereo/bp/cpu", r.ms, pair_.left.pixels() * static_cast<std::uint64_t>(p.ndisp) * 4 * 5);
    return r;
  }

 private:
  int threads_;
  StereoPair pair_;
};

}  // namespace

std::unique_ptr<StereoEngine<BpParams>> make_stereo_bp_engine_cpu(int threads) {
  return std::make_unique<CpuBpStereo>(threads);
}

namespace {
// Pixels of all pyramid levels (each level halves, rounding up).
std::uint64_t pyramid_pixels(int levels, int w, int h) {
  std::uint64_t n = 0;
  for (int k = 0; k < levels; ++k, w = (w + 1) / 2, h = (h + 1) / 2) n += std::uint64_t(w) * std::uint64_t(h);
  return n;
}
}  // namespace

std::uint64_t bp_host_bytes(const BpParams& p, int w, int h, int channels) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h), L = std::uint64_t(std::max(p.ndisp, 1));
  // decoded + kept pair, 6 float planes of smoothing, data + 4 messages per level, output + PNG.
  return 4 * n * std::uint64_t(channels) + 6 * 4 * n + 5 * 4 * L * pyramid_pixels(std::max(p.levels, 1), w, h) +
         2 * 4 * n;
}

std::uint64_t bp_device_bytes(const BpParams& p, int w, int h, int msg_bytes) {
  // Pair, gray and smoothing planes, map; data cost of every level; two level-0 message sets
  // (ping-pong between levels) of 4 directions. The warp variant pads each pixel's values to a
  // multiple of its vector width (up to 8 values, up to 32 past 256 disparities).
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h),
                      L = std::uint64_t(std::max(p.ndisp, 1)) + (p.ndisp > 256 ? 31 : 7);
  return 8 * 4 * n + 4 * L * pyramid_pixels(std::max(p.levels, 1), w, h) +
         2 * 4 * std::uint64_t(std::max(msg_bytes, 1)) * L * n;
}

}  // namespace lb::stereo
