#include "lightbench/progress.hpp"

namespace lb {

namespace {
thread_local ProgressSink* t_sink = nullptr;
}  // namespace

void report_progress(double fraction, const std::string& stage) {
  if (t_sink) t_sink->progress(fraction, stage);
}

ScopedProgressSink::ScopedProgressSink(ProgressSink* sink) : previous_(t_sink) { t_sink = sink; }
ScopedProgressSink::~ScopedProgressSink() { t_sink = previous_; }

}  // namespace lb
