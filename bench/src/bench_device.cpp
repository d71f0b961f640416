// Device selection and workload text shared by the benchmarks (bench_device.hpp).
#include "bench_device.hpp"

#include <cuda_runtime_api.h>

#include <sstream>

#include "cuda_check.cuh"
#include "lightbench/backend.hpp"

namespace lb::bench::detail {

cuda::DeviceInfo bench_device(const std::string& what, int device) {
  std::string why;
  if (!lb::cuda::device_available(&why)) throw Error(what + ": " + why);
  CUDA_CHECK_THROW(cudaSetDevice(device));
  cuda::DeviceInfo d = cuda::device_info(device);
  LB_REQUIRE(d.available, what + ": " + d.why);
  return d;
}

std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string raw_grid_workload(int raw_w, int raw_h, const PlenopticGrid& grid) {
  return "raw " + std::to_string(raw_w) + "x" + std::to_string(raw_h) + ", grid " + std::to_string(grid.nx) + "x" +
         std::to_string(grid.ny) + " D=" + num(grid.pitch) + " offset (" + num(grid.ox) + "," + num(grid.oy) + ")";
}

}  // namespace lb::bench::detail
