#pragma once
// What the viewer needs from an algorithm: one class for all of them, SpecAlgorithm
// (spec_algorithm.hpp), made from the specs of lb::builtin_registry(); what differs between
// algorithms is their data section (data_section.hpp, one per DataKind) and their specs'
// display declarations (display_decl.hpp), not code here. Panes and the panel talk to an Algorithm.
#include <memory>
#include <vector>

#include "spec_algorithm.hpp"

namespace lb::viewer {

using Algorithm = SpecAlgorithm;

// The algorithms the viewer offers, each owning its data (algorithms.cpp).
std::vector<std::unique_ptr<Algorithm>> make_algorithms();

}  // namespace lb::viewer
