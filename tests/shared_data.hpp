#pragma once
// Where the tests find ../shared/data: $LB_SHARED_DATA_DIR when set (e.g. on the GPU machine,
// where the data travels beside the binaries), else the path next to the source tree.
#include <cstdlib>
#include <string>

inline std::string lb_shared_data_dir() {
  const char* e = std::getenv("LB_SHARED_DATA_DIR");
  return e && *e ? std::string(e) : std::string(LB_SHARED_DATA_DIR /* compiled-in default */);
}
