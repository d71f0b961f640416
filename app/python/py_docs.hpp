#pragma once
// What the Python module says about the registry: describe(id)'s dictionary and the text of
// help(lightbench.run), both read from the specs (nothing restated).
#include <string>

#include <nlohmann/json.hpp>

#include "lightbench/algorithm.hpp"

namespace lb::py {

nlohmann::json describe_json(const AlgorithmSpec& spec);
std::string run_doc(const AlgorithmRegistry& registry);

}  // namespace lb::py
