#pragma once
// The images of `bench mad`. Internal to lb_bench.
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/image.hpp"
#include "mad/mad.hpp"  // ImageD

namespace lb::bench::detail {

struct MadWorkload {
  std::string name;  // "I03 512x384", "synthetic 1920x1080"
  ImageD ref, dst;   // gray, as the metric reads them
};


// The iqa pairs I03, I04, I06 from iqa_dir (else one synthetic 512x384 pair), then
// synthetic 512x512 and 1920x1080 pairs (noise sigma 5, blur 0.8).
std::vector<MadWorkload> mad_workloads(const std::string& iqa_dir);

}  // namespace lb::bench::detail
