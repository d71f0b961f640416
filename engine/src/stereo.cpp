// Stereo: names of the methods (stereo.hpp).
#include <cctype>

#include "lightbench/error.hpp"
#include "lightbench/stereo.hpp"

namespace lb::stereo {

const char* to_string(StereoMethod m) {
  switch (m) {
    case StereoMethod::Bp: return "bp";
    case StereoMethod::Local: return "local";
  }
  return "?";
}

StereoMethod parse_stereo_method(const std::string& s) {
  std::string l = s;
  for (auto& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (l == "bp") return StereoMethod::Bp;
  if (l == "local") return StereoMethod::Local;
  throw Error("--method '" + s + "': use bp or local");
}

}  // namespace lb::stereo
