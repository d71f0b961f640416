#include "data_loader.hpp"

#include <imgui.h>

#include <atomic>
#include <cmath>
#include <cstdio>

#include "lightbench/error.hpp"
#include "lightbench/progress.hpp"

namespace lb::viewer {

namespace {
std::atomic<int> g_test_delay_ms{0};
}  // namespace

void DataLoader::set_test_delay_ms(int ms) { g_test_delay_ms.store(ms < 0 ? 0 : ms); }

struct DataLoader::Job {
  std::string what;
  Work work;
  std::uint64_t generation = 0;
  CancelToken token;
  std::chrono::steady_clock::time_point started;
  double fraction = -1.0;  // guarded by the loader's mutex
  std::string stage;
};

DataLoader::~DataLoader() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    if (running_) running_->token.cancel();
    pending_.reset();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DataLoader::start(std::string what, Work work) {
  auto job = std::make_shared<Job>();
  job->what = std::move(what);
  job->work = std::move(work);
  job->started = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mu_);
    job->generation = ++generation_;
    if (running_) running_->token.cancel();  // superseded: its result is dropped
    pending_ = std::move(job);
    done_outcome_.reset();
    done_apply_ = nullptr;
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  }
  error_.clear();
  note_.clear();
  cv_.notify_all();
}

void DataLoader::cancel() {
  std::string what;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++generation_;  // whatever is in flight now finishes unseen
    if (running_) {
      running_->token.cancel();
      what = running_->what;
    }
    if (pending_) what = pending_->what;
    pending_.reset();
    done_outcome_.reset();
    done_apply_ = nullptr;
  }
  if (!what.empty()) note_ = "cancelled: " + what + " (the previous data stays)";
}

bool DataLoader::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pending_ || (running_ && running_->generation == generation_) || done_outcome_;
}

DataLoader::Status DataLoader::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  const Job* j = pending_ ? pending_.get() : running_ && running_->generation == generation_ ? running_.get() : nullptr;
  Status s;
  if (!j) return s;
  s.what = j->what;
  s.fraction = j->fraction;
  s.stage = pending_ ? "waiting for the previous load to stop" : j->stage;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - j->started).count();
  return s;
}

void DataLoader::loop() {
  // The job's progress, read by the UI thread through status().
  class Sink final : public ProgressSink {
   public:
    Sink(DataLoader& l, Job& j) : l_(l), j_(j) {}
    void progress(double fraction, const std::string& stage) override {
      {
        std::lock_guard<std::mutex> lock(l_.mu_);
        j_.fraction = fraction;
        j_.stage = stage;
      }
      // Tests: a slow disk, in cancellable steps.
      for (int ms = g_test_delay_ms.load(); ms > 0 && !j_.token.cancelled(); ms -= 5)
        std::this_thread::sleep_for(std::chrono::milliseconds(ms < 5 ? ms : 5));
    }

   private:
    DataLoader& l_;
    Job& j_;
  };

  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || pending_; });
    if (stop_) return;
    running_ = std::move(pending_);
    Job& job = *running_;
    lock.unlock();
    Apply apply;
    std::string error;
    bool cancelled = false;
    {
      ScopedCancelToken token(&job.token);
      Sink sink(*this, job);
      ScopedProgressSink progress(&sink);
      try {
        throw_if_cancelled();
        apply = job.work();
        throw_if_cancelled();
      } catch (const Cancelled&) {
        cancelled = true;
      } catch (const std::exception& e) {
        error = safe_line(e.what());
      } catch (...) {
        error = "unknown error";
      }
    }
    lock.lock();
    if (job.generation == generation_ && !cancelled && !stop_) {
      done_outcome_ = std::make_unique<Outcome>();
      done_outcome_->finished = true;
      done_outcome_->error = error;  // the loaders name the file or folder
      done_apply_ = std::move(apply);
    }
    running_.reset();  // the work (and what it captured) goes here, on this thread
  }
}

DataLoader::Outcome DataLoader::poll(DataRequest& req) {
  Outcome out;
  Apply apply;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!done_outcome_) return out;
    out = *done_outcome_;
    apply = std::move(done_apply_);
    done_outcome_.reset();
    done_apply_ = nullptr;
  }
  if (out.error.empty()) {
    try {
      req.replaced = true;
      if (apply) apply(req);
      out.applied = true;
    } catch (const std::exception& e) {
      req = DataRequest{};
      out.error = safe_line(e.what());
    }
  }
  error_ = out.error;
  return out;
}

bool DataLoader::draw() {
  if (!busy()) {
    if (!error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
      ImGui::TextWrapped("%s", error_.c_str());
      ImGui::PopStyleColor();
    } else if (!note_.empty()) {
      ImGui::TextDisabled("%s", note_.c_str());
    }
    return false;
  }
  const Status s = status();
  ImGui::PushID(this);
  ImGui::TextWrapped("loading %s", s.what.c_str());
  char overlay[160];
  if (s.fraction >= 0.0)
    std::snprintf(overlay, sizeof overlay, "%s", s.stage.empty() ? "..." : s.stage.c_str());
  else
    std::snprintf(overlay, sizeof overlay, "%s%s%.0f s", s.stage.c_str(), s.stage.empty() ? "" : ", ",
                  std::floor(s.seconds));
  ImGui::ProgressBar(s.fraction >= 0.0 ? static_cast<float>(s.fraction) : 0.0f, ImVec2(-70.0f, 0.0f), overlay);
  ImGui::SameLine();
  const bool cancel_clicked = ImGui::SmallButton("Cancel");
  ImGui::PopID();
  if (cancel_clicked) cancel();
  return cancel_clicked;
}

}  // namespace lb::viewer
