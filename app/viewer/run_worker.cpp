#include "run_worker.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lightbench/gl/device_buffer.hpp"

namespace lb::viewer {

namespace {
struct ResultBell {
  std::mutex mu;
  std::condition_variable cv;
  std::uint64_t rung = 0;  // runs finished
  std::uint64_t seen = 0;  // by the UI thread
};
ResultBell& bell() {
  static ResultBell b;
  return b;
}
}  // namespace

void notify_result_ready() {
  {
    std::lock_guard<std::mutex> lock(bell().mu);
    ++bell().rung;
  }
  bell().cv.notify_all();
}

bool wait_for_result(double seconds) {
  ResultBell& b = bell();
  std::unique_lock<std::mutex> lock(b.mu);
  const bool got = b.cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return b.rung != b.seen; });
  b.seen = b.rung;
  return got;
}

RunWorker::RunWorker(std::unique_ptr<Runner> runner)
    : runner_(std::move(runner)),
      kind_(runner_->kind()),
      device_(runner_->device_name()),
      timings_(&runner_->timings()) {
  thread_ = std::thread([this] { loop(); });
}

RunWorker::~RunWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    queue_.clear();
    if (running_token_) running_token_->cancel();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RunWorker::submit(RunRequest r) {
  r.worker.reset();  // the queue must not own its worker (no cycle; never destroyed on itself)
  {
    std::lock_guard<std::mutex> lock(mu_);
    // The newest value of a pane supersedes what it asked for before.
    for (auto it = queue_.begin(); it != queue_.end();)
      it = it->pane == r.pane ? queue_.erase(it) : it + 1;
    if (running_ && running_pane_ == r.pane && running_token_) running_token_->cancel();
    queue_.push_back(std::move(r));
  }
  cv_.notify_all();
}

void RunWorker::cancel(int pane) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = queue_.begin(); it != queue_.end();)
    it = pane < 0 || it->pane == pane ? queue_.erase(it) : it + 1;
  if (running_ && (pane < 0 || running_pane_ == pane) && running_token_) running_token_->cancel();
}

std::vector<RunResult> RunWorker::take_results() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RunResult> out = std::move(done_);
  done_.clear();
  return out;
}

void RunWorker::recycle(std::unique_ptr<gl::DeviceBufferSurface> surface) {
  if (!surface) return;  // host results are just freed
  std::lock_guard<std::mutex> lock(mu_);
  if (spare_.size() < 4) spare_.push_back(std::move(surface));
  else done_surplus_ = std::move(surface);  // freed by the worker with its next request
  cv_.notify_all();
}

bool RunWorker::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_ || !queue_.empty();
}

double RunWorker::running_seconds() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!running_) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - running_since_).count();
}

void RunWorker::loop() {
  // Compute yields to the UI: the worker (and the lb::parallel_for threads it starts, which
  // inherit it) runs at a lower priority, so on a loaded 2-core machine the frame loop still
  // gets the CPU when it needs it. Best effort: failure only costs frame times.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
  for (;;) {
    RunRequest req;
    std::shared_ptr<CancelToken> token = std::make_shared<CancelToken>();
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      req = std::move(queue_.front());
      queue_.pop_front();
      running_ = true;
      running_pane_ = req.pane;
      running_token_ = token;
      running_since_ = std::chrono::steady_clock::now();
    }
    RunResult res;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      ScopedCancelToken scope(token.get());
      if (data_id_ != req.data->id) {
        data_id_ = 0;
        runner_->set_data(req.data);  // throws: the runner keeps no data, the next run retries
        data_id_ = req.data->id;
      }
      if (req.device) {
        std::unique_ptr<gl::DeviceBufferSurface> surplus;
        {
          std::lock_guard<std::mutex> lock(mu_);
          surplus = std::move(done_surplus_);  // freed here, off the UI thread
          for (auto it = spare_.begin(); it != spare_.end(); ++it)
            if ((*it)->format() == req.format) {
              res.device = std::move(*it);
              spare_.erase(it);
              break;
            }
        }
        if (!res.device) res.device = gl::make_device_buffer_surface(req.format);
      }
      if (!res.device) {
        req.device = false;
        res.host = std::make_unique<HostSurface>(req.format);
      }
      Surface& out = res.device ? static_cast<Surface&>(*res.device) : *res.host;
      runner_->run(req.values, req.variant, req.output, out);
      runner_->synchronize();  // the result is complete (device work done, events read)
      res.scores = runner_->scores();
      res.ran = runner_->last_variant();
    } catch (const Cancelled&) {
      res.cancelled = true;
    } catch (const std::exception& e) {
      // A cancelled run may fail in other ways on its way out (code that wraps exceptions).
      if (token->cancelled()) res.cancelled = true;
      else res.error = e.what();
    }
    if (token->cancelled()) res.cancelled = true;
    // A run stopped half-way may have overwritten what the runner keeps of its last complete
    // run (the estimator's last depth map, the matcher's last disparity) while the runner's
    // cache key still names that run: the next request hands the data over again, which
    // clears the runner's caches (set_data), so no output is ever derived from a torn result.
    if (res.cancelled || !res.error.empty()) data_id_ = 0;
    if (res.cancelled) {
      try {
        runner_->synchronize();  // leave the runner's stream idle for the next run
      } catch (const std::exception&) {
      }
    }
    res.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    res.request = std::move(req);
    res.finished = std::chrono::steady_clock::now();
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_.push_back(std::move(res));
      running_ = false;
      running_pane_ = -1;
      running_token_.reset();
    }
    notify_result_ready();
  }
}

}  // namespace lb::viewer
