#include "lightbench/error.hpp"

#include <cstring>

namespace lb {

void throw_at(const char* file, int line, const std::string& msg) {
  // Keep only the file name: full build paths are noise in a one-line message.
  const char* base = std::strrchr(file, '/');
  throw Error(std::string(base ? base + 1 : file) + ":" + std::to_string(line) + ": " + msg);
}

}  // namespace lb
