#pragma once
// INTERNAL (lb_engine_internal: engine/src, kernels/, bench/, tests/; not app/): the MAD
// engine behind the MAD runner (engine/algorithms/mad/mad_spec.cpp), its CPU reference
// (engine/algorithms/mad/mad_cpu.cpp) and the runner. The CUDA engine: lightbench/engines/cuda.hpp.
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "mad/mad.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

class Runner;  // lightbench/algorithm.hpp

// The MAD engine behind the MAD runner: one interface for the CPU reference and the CUDA
// implementation. FFT plans and buffers
// are made once per image size and kept. Timings (timings()): "mad/csf", "mad/detect",
// "mad/gabor", "mad/stats/<variant>", "mad/total".
class MadEngine {
 public:
  virtual ~MadEngine() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;
  // "reference" on the CPU; the local-statistics kernel variants on CUDA.
  virtual std::vector<std::string> variants() const = 0;
  virtual std::string default_variant() const = 0;
  // variant "" = default_variant(); an unknown variant throws lb::Error.
  virtual MadResult run(const ImageD& ref, const ImageD& dst, const std::string& variant = "",
                        const MadOptions& o = {}) = 0;
  // Runs and keeps the result as "the last" for map_to_surface() (the CUDA evaluator keeps
  // its maps on the device; the returned result then has no host maps).
  virtual MadResult run_keep(const ImageD& ref, const ImageD& dst, const std::string& variant,
                             const MadOptions& o) {
    last_ = run(ref, dst, variant, o);
    has_last_ = true;
    return last_;
  }
  // The last run's HI (hi = true) or LO map into an R32F surface (full size).
  virtual void map_to_surface(bool hi, Surface& out);
  // The q-quantile (0..1) of the last run's HI or LO map: a display scale for heavy tails.
  virtual float map_quantile(bool hi, double q);
  TimingRegistry& timings() { return timings_; }

 protected:
  MadResult last_;  // run_keep's result (CPU: with its maps)
  bool has_last_ = false;
  TimingRegistry timings_;
};

// The CPU reference (variant "reference").
std::unique_ptr<MadEngine> make_mad_engine_cpu(int threads = 0);

// The MAD runner (algorithms.hpp's mad_spec) over an engine.
std::unique_ptr<Runner> make_mad_runner(std::unique_ptr<MadEngine> engine);

}  // namespace lb
