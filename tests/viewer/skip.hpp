#pragma once
// Test-program helpers: skipping with CTest's SKIP_RETURN_CODE 77 and a clear message.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace lb::test {

constexpr int kSkip = 77;

inline bool gpu_required() {
  const char* v = std::getenv("LB_REQUIRE_GPU");
  return v && std::string(v) == "1";
}

// Prints the reason; returns the exit code: 77 (skip), or 1 when `fail_instead` is set.
inline int skip(const std::string& why, bool fail_instead = false) {
  if (fail_instead) {
    std::printf("FAILED: %s (LB_REQUIRE_GPU=1 forbids skipping)\n", why.c_str());
    return 1;
  }
  std::printf("SKIPPED: %s\n", why.c_str());
  return kSkip;
}

}  // namespace lb::test
