// CPU reference of the colour guided filter (lightfield/guided_filter_cpu.hpp): every box
// mean through BoxMean (O(1) per pixel), the per-window algebra from guided_filter_math.hpp.
#include "lightfield/guided_filter_cpu.hpp"

#include <array>
#include <string>

#include "lightbench/error.hpp"
#include "lightfield/guided_filter_math.hpp"

namespace lb {

namespace {

using Plane = std::vector<double>;
using gf::kChannels;
using gf::kProducts;

// The box means of the guide (once per filter): its channels and its channel products.
struct GuideMeans {
  std::vector<BoxMean> channel;  // kChannels: mean_I_c
  std::vector<BoxMean> product;  // kProducts: mean(I_i I_j), gf's entry order
};

Plane channel_of(const Plane& I, int c, std::size_t n) {
  return Plane(I.begin() + static_cast<std::ptrdiff_t>(c * n), I.begin() + static_cast<std::ptrdiff_t>((c + 1) * n));
}

// a * b pixel by pixel.
Plane product(const Plane& a, const Plane& b) {
  Plane ab(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) ab[i] = a[i] * b[i];
  return ab;
}

GuideMeans guide_means(const std::array<Plane, kChannels>& ch, int w, int h, int r) {
  GuideMeans g;
  for (int c = 0; c < kChannels; ++c) g.channel.emplace_back(ch[c], w, h, r);
  for (int k = 0; k < kProducts; ++k) {
    int i, j;
    gf::product_channels(k, i, j);
    g.product.emplace_back(product(ch[i], ch[j]), w, h, r);
  }
  return g;
}

// The coefficient planes a_c (kChannels) and b of every window.
struct CoefficientPlanes {
  std::array<Plane, kChannels> a;
  Plane b;
};

CoefficientPlanes window_coefficients(const std::array<Plane, kChannels>& ch, const GuideMeans& g, const Plane& p,
                                      int w, int h, int r, double eps) {
  const std::size_t n = p.size();
  const BoxMean mean_p(p, w, h, r);
  std::vector<BoxMean> mean_ip;
  for (int c = 0; c < kChannels; ++c) mean_ip.emplace_back(product(ch[c], p), w, h, r);
  CoefficientPlanes k;
  for (auto& a : k.a) a.resize(n);
  k.b.resize(n);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double mi[kChannels], mii[kProducts], mip[kChannels];
      for (int c = 0; c < kChannels; ++c) mi[c] = g.channel[c].at(x, y), mip[c] = mean_ip[c].at(x, y);
      for (int e = 0; e < kProducts; ++e) mii[e] = g.product[e].at(x, y);
      const gf::Sym3<double> inv = gf::regularized_inverse(gf::covariance(mi, mii), eps);
      const gf::Coefficients<double> ab = gf::coefficients(inv, mi, mean_p.at(x, y), mip);
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      for (int c = 0; c < kChannels; ++c) k.a[c][i] = ab.a[c];
      k.b[i] = ab.b;
    }
  return k;
}

// q = mean_a . I + mean_b.
Plane filter_output(const std::array<Plane, kChannels>& ch, const CoefficientPlanes& k, int w, int h, int r) {
  std::vector<BoxMean> mean_a;
  for (int c = 0; c < kChannels; ++c) mean_a.emplace_back(k.a[c], w, h, r);
  const BoxMean mean_b(k.b, w, h, r);
  Plane q(k.b.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      double ma[kChannels], guide[kChannels];
      for (int c = 0; c < kChannels; ++c) ma[c] = mean_a[c].at(x, y), guide[c] = ch[c][i];
      q[i] = gf::output(ma, mean_b.at(x, y), guide);
    }
  return q;
}

}  // namespace

std::vector<double> guided_filter_rgb_cpu(const std::vector<double>& I, const std::vector<double>& p, int w, int h,
                                          int r, double eps) {
  LB_REQUIRE(w > 0 && h > 0 && r >= 0, "guided filter rgb: empty image or negative radius");
  const std::size_t n = static_cast<std::size_t>(w) * h;
  LB_REQUIRE(I.size() == kChannels * n && p.size() == n,
             "guided filter rgb: the guide needs 3 planes and the input 1 plane of " + std::to_string(w) + " x " +
                 std::to_string(h));
  LB_REQUIRE(eps > 0.0, "guided filter rgb: eps must be > 0");
  std::array<Plane, kChannels> ch;
  for (int c = 0; c < kChannels; ++c) ch[c] = channel_of(I, c, n);
  const GuideMeans g = guide_means(ch, w, h, r);
  return filter_output(ch, window_coefficients(ch, g, p, w, h, r, eps), w, h, r);
}

}  // namespace lb
