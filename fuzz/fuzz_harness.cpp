// One libFuzzer binary per harness: LB_FUZZ_HARNESS names it (fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "harnesses.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  lb::fuzz::run_harness(LB_FUZZ_HARNESS, data, size);
  return 0;
}
