#pragma once
// Backend kinds: CUDA when a usable device exists, else the CPU reference path
// (multithreaded). The algorithm registry makes the choice and reports its reason
// (AlgorithmRegistry::choose, algorithm.hpp).
#include <memory>
#include <string>

#include "lightbench/image.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

enum class BackendKind { Cpu, Cuda };
enum class BackendRequest { Auto, Cpu, Cuda };

const char* to_string(BackendKind k);
BackendRequest parse_backend_request(const std::string& s);  // auto|cpu|cuda

// The plenoptic engine behind the runners (PlenopticEngine) is internal:
// plenoptic/plenoptic_engine.hpp (lb_engine_internal).

}  // namespace lb
