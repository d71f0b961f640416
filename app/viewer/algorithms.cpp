// The algorithms the viewer offers, in the registry's order: one SpecAlgorithm per layout
// (layouts.cpp: the specs' display groups), each with the data section of its spec's DataKind.
#include "algorithm.hpp"
#include "lightbench/runners.hpp"
#include "spec_algorithm.hpp"

namespace lb::viewer {

std::vector<std::unique_ptr<Algorithm>> make_algorithms() {
  std::vector<std::unique_ptr<Algorithm>> v;
  for (AlgorithmLayout& l : algorithm_layouts()) {
    const DataKind kind = builtin_registry().get(l.parts.at(0).spec_id).data;
    const bool general = l.general_grid;
    v.push_back(std::make_unique<SpecAlgorithm>(std::move(l), make_data_section(kind, general)));
  }
  return v;
}

std::unique_ptr<DataSection> make_data_section(DataKind kind, bool general_grid) {
  switch (kind) {
    case DataKind::PlenopticScene: return make_plenoptic_section(general_grid);
    case DataKind::LightField: return make_lightfield_section();
    case DataKind::StereoPair: return make_stereo_section();
    case DataKind::ImagePair: return make_image_pair_section();
  }
  return nullptr;
}

}  // namespace lb::viewer
