// lb::parallel_for's cooperative cancellation (lightbench/cancel.hpp), which the viewer's run
// workers use to stop a superseded CPU run within a chunk of rows; and the loads the viewer runs
// off its UI thread (app/viewer/data_loader.hpp): load_lightfield reports its progress
// (lightbench/progress.hpp) and stops between two views once cancelled.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <filesystem>
#include <string>
#include <vector>

#include "lightbench/cancel.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/parallel.hpp"
#include "lightbench/progress.hpp"

TEST_CASE("without a token every index runs") {
  std::atomic<int> n{0};
  lb::parallel_for(1000, [&](int) { ++n; }, 2);
  CHECK(n == 1000);
}

TEST_CASE("a token set before the call stops it at once; the caller sees lb::Cancelled") {
  lb::CancelToken token;
  token.cancel();
  lb::ScopedCancelToken scope(&token);
  std::atomic<int> n{0};
  for (int threads : {1, 2, 4}) CHECK_THROWS_AS(lb::parallel_for(100, [&](int) { ++n; }, threads), lb::Cancelled);
  CHECK(n == 0);
  CHECK_THROWS_AS(lb::throw_if_cancelled(), lb::Cancelled);
}

TEST_CASE("a token set from another thread stops a long run within a chunk, nested calls included") {
  lb::CancelToken token;
  std::atomic<int> n{0};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    token.cancel();
  });
  {
    lb::ScopedCancelToken scope(&token);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(lb::parallel_for(
                        100000,
                        [&](int) {
                          // A nested call on a helper thread sees the token too.
                          lb::parallel_for(2, [&](int) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }, 1);
                          ++n;
                        },
                        2),
                    lb::Cancelled);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  }
  canceller.join();
  CHECK(n > 0);
  CHECK(n < 100000);
  CHECK(lb::current_cancel_token() == nullptr);  // the scope restored "none"
}

namespace {

// A 4 x 4 light field of small views in a fresh folder.
std::string write_lightfield(const std::string& name) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("lb_cancel_test_" + name)).string();
  std::filesystem::remove_all(dir);
  lb::LightField4D lf;
  lf.nu = lf.nv = 4;
  lf.width = 12;
  lf.height = 8;
  for (int i = 0; i < 16; ++i) lf.views.emplace_back(12, 8, 3, static_cast<std::uint8_t>(10 * i));
  lb::save_lightfield(dir, lf);
  return dir;
}

struct Recorder final : lb::ProgressSink {
  std::vector<double> fractions;
  std::vector<std::string> stages;
  lb::CancelToken* cancel_at_3 = nullptr;
  void progress(double fraction, const std::string& stage) override {
    fractions.push_back(fraction);
    stages.push_back(stage);
    if (cancel_at_3 && fractions.size() == 3) cancel_at_3->cancel();
  }
};

}  // namespace

TEST_CASE("load_lightfield reports its progress view by view to the thread's sink, none without one") {
  const std::string dir = write_lightfield("progress");
  CHECK_NOTHROW(lb::load_lightfield(dir));  // no sink: nothing to report to
  Recorder rec;
  {
    lb::ScopedProgressSink scope(&rec);
    const lb::LightField4D lf = lb::load_lightfield(dir);
    CHECK(lf.view_count() == 16);
  }
  REQUIRE(rec.fractions.size() == 16);
  CHECK(rec.fractions.front() == 0.0);
  for (std::size_t i = 1; i < rec.fractions.size(); ++i) CHECK(rec.fractions[i] > rec.fractions[i - 1]);
  CHECK(rec.fractions.back() < 1.0);
  CHECK(rec.stages.front() == "view 1 of 16");
  CHECK(rec.stages.back() == "view 16 of 16");
  lb::report_progress(0.5, "after the scope");  // the sink is gone
  CHECK(rec.fractions.size() == 16);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a cancelled light-field load stops between two views with lb::Cancelled") {
  const std::string dir = write_lightfield("cancel");
  lb::CancelToken token;
  Recorder rec;
  rec.cancel_at_3 = &token;
  {
    lb::ScopedCancelToken cancel(&token);
    lb::ScopedProgressSink progress(&rec);
    CHECK_THROWS_AS(lb::load_lightfield(dir), lb::Cancelled);
  }
  CHECK(rec.fractions.size() == 3);  // the third view was read, the fourth never started
  std::filesystem::remove_all(dir);
}
