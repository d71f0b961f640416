// Shared benchmark pieces (bench_common.hpp).
#include "bench_common.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "cuda_check.cuh"
#include "render_launch.hpp"

namespace lb::cuda::detail {

DeviceInfo bench_device(const std::string& what, int device) {
  std::string why;
  if (!cuda_available(&why)) throw Error(what + ": " + why);
  CUDA_CHECK_THROW(cudaSetDevice(device));
  DeviceInfo d = device_info(device);
  LB_REQUIRE(d.available, what + ": " + d.why);
  return d;
}

std::string bench_num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string raw_grid_workload(int raw_w, int raw_h, const PlenopticGrid& grid) {
  return "raw " + std::to_string(raw_w) + "x" + std::to_string(raw_h) + ", grid " + std::to_string(grid.nx) + "x" +
         std::to_string(grid.ny) + " D=" + bench_num(grid.pitch) + " offset (" + bench_num(grid.ox) + "," +
         bench_num(grid.oy) + ")";
}

LaunchTimer::LaunchTimer(cudaStream_t stream, int warmup, int reps, bool flush_l2, int l2_bytes)
    : s_(stream), warmup_(std::max(0, warmup)), reps_(std::max(1, reps)), flush_(flush_l2), sink_(16) {
  if (flush_) {
    flush_bytes_ = std::max<std::size_t>(64u << 20, 2u * static_cast<std::size_t>(std::max(0, l2_bytes))) / 16 * 16;
    buf_.allocate(flush_bytes_);
    CUDA_CHECK_THROW(cudaMemset(buf_.get(), 0x3c, flush_bytes_));
  }
  starts_.resize(static_cast<std::size_t>(reps_));
  stops_.resize(static_cast<std::size_t>(reps_));
}

void LaunchTimer::flush() {
  if (flush_) launch_l2_flush(buf_.get(), flush_bytes_, sink_.as<unsigned>(), s_);
}

std::vector<double> LaunchTimer::time(const std::function<void()>& launch) {
  for (int i = 0; i < warmup_; ++i) launch();
  for (std::size_t i = 0; i < starts_.size(); ++i) {
    flush();
    CUDA_CHECK_THROW(cudaEventRecord(starts_[i].get(), s_));
    launch();
    CUDA_CHECK_THROW(cudaEventRecord(stops_[i].get(), s_));
  }
  CUDA_CHECK_THROW(cudaStreamSynchronize(s_));
  std::vector<double> ms;
  for (std::size_t i = 0; i < starts_.size(); ++i) {
    float t = 0.0f;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t, starts_[i].get(), stops_[i].get()));
    ms.push_back(static_cast<double>(t));
  }
  return ms;
}

std::vector<double> LaunchTimer::time_budget(const std::function<void()>& launch, double max_seconds, int min_reps) {
  for (int i = 0; i < warmup_; ++i) launch();
  std::vector<double> ms;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < starts_.size(); ++i) {
    flush();
    CUDA_CHECK_THROW(cudaEventRecord(starts_[i].get(), s_));
    launch();
    CUDA_CHECK_THROW(cudaEventRecord(stops_[i].get(), s_));
    CUDA_CHECK_THROW(cudaEventSynchronize(stops_[i].get()));
    float t = 0.0f;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t, starts_[i].get(), stops_[i].get()));
    ms.push_back(static_cast<double>(t));
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > max_seconds &&
        ms.size() >= static_cast<std::size_t>(min_reps))
      break;
  }
  return ms;
}

}  // namespace lb::cuda::detail
