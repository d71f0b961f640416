#include "render_block_trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace lb::bench {
namespace {

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}
double sd(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.empty() ? 0 : std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

BlockTraceStats block_trace_stats(const std::vector<std::uint64_t>& words, int blocks) {
  BlockTraceStats st;
  struct Block {
    double start, end;
  };
  std::map<std::uint64_t, std::vector<Block>> per_sm;
  std::uint64_t t0 = UINT64_MAX, t1 = 0;
  for (int b = 0; b < blocks && 4u * b + 3 < words.size(); ++b) {
    const std::uint64_t s = words[4 * b], e = words[4 * b + 1];
    if (s == 0 || e < s) continue;  // no record (not the staged kernel)
    t0 = std::min(t0, s);
    t1 = std::max(t1, e);
  }
  if (t1 == 0) return st;
  std::vector<double> dur;
  for (int b = 0; b < blocks && 4u * b + 3 < words.size(); ++b) {
    const std::uint64_t s = words[4 * b], e = words[4 * b + 1];
    if (s == 0 || e < s) continue;
    const Block k{static_cast<double>(s - t0) * 1e-3, static_cast<double>(e - t0) * 1e-3};
    per_sm[words[4 * b + 2]].push_back(k);
    dur.push_back(k.end - k.start);
  }
  std::sort(dur.begin(), dur.end());
  st.blocks = static_cast<int>(dur.size());
  st.sms = static_cast<int>(per_sm.size());
  st.span_us = static_cast<double>(t1 - t0) * 1e-3;
  st.dur_min_us = dur.front();
  st.dur_p50_us = dur[dur.size() / 2];
  st.dur_max_us = dur.back();
  std::vector<double> sm_means, sm_sds;
  double busy = 0, rate = 0;
  for (const auto& [sm, v] : per_sm) {
    std::vector<double> d;
    double first = 1e300, last = 0, longest = 0;
    for (const Block& k : v) {
      d.push_back(k.end - k.start);
      first = std::min(first, k.start);
      last = std::max(last, k.end);
      longest = std::max(longest, k.end - k.start);
    }
    sm_means.push_back(mean(d));
    sm_sds.push_back(sd(d));
    busy += last - first;
    if (longest > 0) rate += static_cast<double>(v.size()) / longest;  // blocks per us on this SM
  }
  st.between_sm_sd_us = sd(sm_means);
  st.within_sm_sd_us = mean(sm_sds);
  st.sm_busy = st.span_us > 0 ? busy / (static_cast<double>(st.sms) * st.span_us) : 0;
  st.balanced_span_us = rate > 0 ? static_cast<double>(st.blocks) / rate : 0;
  return st;
}

}  // namespace lb::bench
