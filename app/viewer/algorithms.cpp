// The algorithms the viewer offers, in the order of the panel's combo.
#include "algorithm.hpp"
#include "lightfield_algorithm.hpp"
#include "mad_algorithm.hpp"
#include "stereo_algorithm.hpp"
#include "plenoptic_algorithm.hpp"

namespace lb::viewer {

std::vector<std::unique_ptr<Algorithm>> make_algorithms() {
  std::vector<std::unique_ptr<Algorithm>> v;
  v.push_back(std::make_unique<PlenopticAlgorithm>());
  v.push_back(std::make_unique<LightFieldAlgorithm>());
  v.push_back(std::make_unique<StereoAlgorithm>());
  v.push_back(std::make_unique<MadAlgorithm>());
  return v;
}

}  // namespace lb::viewer
