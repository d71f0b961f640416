// The images of `bench mad` (mad_workloads.hpp).
#include "mad_workloads.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "lightbench/distort.hpp"
#include "lightbench/image_io.hpp"
#include "mad/mad.hpp"

namespace lb::bench::detail {

std::vector<MadWorkload> mad_workloads(const std::string& iqa_dir) {
  std::vector<MadWorkload> ws;
  if (!iqa_dir.empty() && std::filesystem::exists(iqa_dir + "/I03_ref.bmp")) {
    for (const char* id : {"I03", "I04", "I06"})
      ws.push_back({std::string(id) + " 512x384", mad_gray(load_image(iqa_dir + "/" + id + "_ref.bmp")),
                    mad_gray(load_image(iqa_dir + "/" + id + "_dist.bmp"))});
  } else {
    const ImageU8 r = synthetic_gray(512, 384, 3);
    ws.push_back({"synthetic 512x384", mad_gray(r), mad_gray(distort_blur(distort_noise(r, 5, 1), 0.8))});
  }
  for (auto [w, h] : {std::pair{512, 512}, std::pair{1920, 1080}}) {
    const ImageU8 r = synthetic_gray(w, h, static_cast<std::uint64_t>(w));
    ws.push_back({"synthetic " + std::to_string(w) + "x" + std::to_string(h), mad_gray(r),
                  mad_gray(distort_blur(distort_noise(r, 5, 1), 0.8))});
  }
  return ws;
}

}  // namespace lb::bench::detail
