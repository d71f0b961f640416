#include "latency.hpp"

#include <algorithm>
#include <cmath>

namespace lb::viewer {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)];
}

void LatencyProbe::accepted(int pane, double submitted, double compute_ms, double ready, double copy_start,
                            double copy_end) {
  open_.push_back({pane, submitted, compute_ms, ready, copy_start, copy_end});
}

int LatencyProbe::frame_presented(double now) {
  int n = 0;
  for (const Open& o : open_) {
    Sample s;
    s.pane = o.pane;
    s.total_ms = (now - o.submitted) * 1000.0;
    s.compute_ms = o.compute_ms;
    s.copy_ms = (o.copy_end - o.copy_start) * 1000.0;
    s.draw_ms = (now - o.copy_end) * 1000.0;
    s.queue_ms = std::max(0.0, (o.ready - o.submitted) * 1000.0 - s.compute_ms);
    s.pickup_ms = std::max(0.0, (o.copy_start - o.ready) * 1000.0);
    samples_.push_back(s);
    ++n;
  }
  open_.clear();
  return n;
}

nlohmann::json LatencyProbe::report() const {
  auto column = [&](double Sample::*m) {
    std::vector<double> v;
    for (const Sample& s : samples_) v.push_back(s.*m);
    return v;
  };
  auto stats = [&](double Sample::*m) {
    const auto v = column(m);
    return nlohmann::json{{"p50_ms", percentile(v, 0.5)}, {"p99_ms", percentile(v, 0.99)},
                          {"max_ms", v.empty() ? 0.0 : *std::max_element(v.begin(), v.end())}};
  };
  return {{"count", samples_.size()},      {"total", stats(&Sample::total_ms)},
          {"compute", stats(&Sample::compute_ms)}, {"copy", stats(&Sample::copy_ms)},
          {"draw", stats(&Sample::draw_ms)},   {"queue", stats(&Sample::queue_ms)},
          {"pickup", stats(&Sample::pickup_ms)}};
}

nlohmann::json LatencyProbe::samples_json() const {
  auto us = [](double ms) { return std::round(ms * 1000.0) / 1000.0; };
  nlohmann::json a = nlohmann::json::array();
  for (const Sample& s : samples_)
    a.push_back({{"pane", s.pane},
                 {"total_ms", us(s.total_ms)},
                 {"compute_ms", us(s.compute_ms)},
                 {"copy_ms", us(s.copy_ms)},
                 {"draw_ms", us(s.draw_ms)},
                 {"queue_ms", us(s.queue_ms)},
                 {"pickup_ms", us(s.pickup_ms)}});
  return a;
}

}  // namespace lb::viewer
