#pragma once
// Per-block timeline of the staged NoSync render (launch_render's block_trace): how evenly
// the blocks of its one wave finish. Bench diagnostic of `bench render --trace`.
#include <cstdint>
#include <vector>

namespace lb::bench {

struct BlockTraceStats {
  int blocks = 0, sms = 0;
  double span_us = 0;                         // first block start to last block end
  double dur_min_us = 0, dur_p50_us = 0, dur_max_us = 0;  // block durations
  double between_sm_sd_us = 0;                // sd of the SMs' mean block durations
  double within_sm_sd_us = 0;                 // mean over SMs of the sd of their blocks' durations
  double sm_busy = 0;                         // mean over SMs of (its first start .. last end) / span
  double balanced_span_us = 0;                // span if every SM kept its rate to a common end
};

// From the 4-word records of `blocks` blocks (start ns, end ns, SM id, unused); empty
// (blocks 0) when no block wrote one.
BlockTraceStats block_trace_stats(const std::vector<std::uint64_t>& words, int blocks);

}  // namespace lb::bench
