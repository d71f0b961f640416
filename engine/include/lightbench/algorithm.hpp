#pragma once
// The one algorithm contract. Every algorithm of lightbench declares, once, in one engine
// file (engine/src/algorithms/<id>.cpp):
//   * the data it runs on (a plenoptic scene, a 4D light field, a stereo pair, an image pair),
//   * its parameters (a ParamInfo table with data-dependent ranges, and the defaults),
//   * its outputs (name, format, whether it shows the data or a result, the parameters it
//     depends on, whether it needs ground truth),
//   * its kernel variants (name, method, bit-identical to the reference or not, a note),
//   * a CPU runner factory; kernels/ adds a CUDA runner factory when CUDA is built
//     (lb::cuda::register_runners, no stubs otherwise).
// A Runner takes the data once (the CUDA runner uploads it and keeps it resident), then runs
// (params, variant) and writes each requested output into an lb::Surface. The CUDA runner
// writes from device memory (a GL texture registered with CUDA receives it through interop,
// with no host round trip); the CPU runner uploads from host memory. The viewer, the CLI, the
// benches and the tests read the same tables (AlgorithmRegistry).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/backend.hpp"  // BackendKind, BackendRequest
#include "lightbench/cli_commands.hpp"
#include "lightbench/display_decl.hpp"
#include "lightbench/image.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/params.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/stereo.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

// ---------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------
enum class DataKind { PlenopticScene, LightField, StereoPair, ImagePair };
const char* to_string(DataKind k);

// What an algorithm runs on. Immutable once made (shared between runners and front ends);
// every instance has its own id, so "same id" means "same content".
struct AlgorithmData {
  AlgorithmData();
  virtual ~AlgorithmData() = default;
  virtual DataKind kind() const = 0;
  virtual bool has_truth() const = 0;
  const std::uint64_t id;
};

struct PlenopticData final : AlgorithmData {
  PlenopticScene scene;  // raw (RGBA8), grid, truth (patch-size map at truth_patch) or empty
  DataKind kind() const override { return DataKind::PlenopticScene; }
  bool has_truth() const override { return !scene.truth.empty(); }
};

struct LightFieldData final : AlgorithmData {
  LightField4D lf;  // views and (optional) ground-truth disparity of the centre view
  DataKind kind() const override { return DataKind::LightField; }
  bool has_truth() const override { return lf.has_gt(); }
};

struct StereoData final : AlgorithmData {
  stereo::StereoPair pair;
  stereo::StereoGroundTruth gt;  // may be empty
  int ndisp_hint = 0;            // the data set's disparity count (0: unknown)
  DataKind kind() const override { return DataKind::StereoPair; }
  bool has_truth() const override { return !gt.empty(); }
};

struct ImagePairData final : AlgorithmData {
  ImageU8 reference, distorted;  // 8-bit, 1 or 3 channels, same size
  std::string source;            // where the pair came from (for reports)
  // The files and their depth (a 16-bit PNG is converted to 8 bits, v/257); empty paths for
  // images made in memory.
  ImageOrigin reference_origin{}, distorted_origin{};
  DataKind kind() const override { return DataKind::ImagePair; }
  bool has_truth() const override { return false; }
};

// The image files the data was read from, each with its role ("raw"; "views": a light field's,
// path its folder; "left", "right"; "reference", "distorted") and depth, in that order. A 16-bit
// file was converted to 8 bits (origin.converted "v/257"): the CLI's JSON reports every one
// (inputs[i]) and the viewer's status line tells a conversion. Files only: data made in memory
// (a generated preset, a synthetic pair) has none.
struct DataInput {
  std::string role;
  ImageOrigin origin;
};
std::vector<DataInput> data_inputs(const AlgorithmData& data);
// The conversions among them, one phrase each: "16-bit input converted to 8 bits (v/257)" when
// every input was converted so, else prefixed by the roles it applies to ("left: ..."), joined
// by "; "; "" when every input was taken as it is.
std::string conversion_notes(const AlgorithmData& data);

// The image pair's own outputs ("reference", "distorted") as RGBA8 into out: what every
// image-pair runner shows of its data. False (out untouched) for any other output name.
bool write_image_pair_input(const ImagePairData& d, const std::string& output, Surface& out);

[[noreturn]] void throw_data_kind_mismatch(DataKind got, DataKind expected);
// The data as its concrete type; throws lb::Error naming both kinds on a mismatch.
template <class T>
const T& data_as(const AlgorithmData& d, DataKind expected) {
  if (d.kind() != expected)
    throw_data_kind_mismatch(d.kind(), expected);
  return static_cast<const T&>(d);
}

// ---------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------
struct OutputInfo {
  std::string name;   // "view", "depth", "disparity", "hi", "truth", ...
  std::string label;  // "rendered view"
  SurfaceFormat format = SurfaceFormat::RGBA8;
  bool input = false;        // shows the data (no variant, no compute); any runner writes it
  bool needs_truth = false;  // exists only when the data has ground truth
  // Parameters the output depends on (run keys use only these, so dragging the view of a
  // light field does not recompute its depth).
  std::vector<std::string> params;
  bool uses_variant = true;  // false: every variant gives the same image (e.g. a refocus)
  // Scalar outputs: the unit of the values, shown on the viewer's colour bar and recorded with
  // the CLI's colour images ("px" disparity, "patch" plenoptic depth, "MAD" quality maps).
  std::string unit = "";
};
// Sets the unit of the named outputs (an unknown name: ignored).
void set_output_units(std::vector<OutputInfo>& outputs,
                      const std::vector<std::pair<std::string, std::string>>& units);

struct VariantInfo {
  std::string name;    // "nosync", "exact", "registers", "fused"
  std::string method;  // what it computes when an algorithm has several ("binned"); "" otherwise
  bool bit_identical = true;  // the reference's result bit for bit (else: within a tolerance)
  std::string note;           // one line for tooltips and --help
  // A CPU implementation (the CPU backend runs it when named); else a CUDA kernel, which the
  // CPU backend refuses by name (variant_for).
  bool cpu = false;
};

// An algorithm's parameter table for some data (ranges fit it) and its default values.
struct ParamTable {
  std::vector<ParamInfo> infos;  // unbound (value is monostate): names, kinds, ranges
  ParamValues defaults;
};

class Runner;
using RunnerFactory = std::function<std::unique_ptr<Runner>()>;
// A CUDA runner on one device (its ordinal; the engines set it before each call, so runners
// on different devices can run on different threads at once).
using CudaRunnerFactory = std::function<std::unique_ptr<Runner>(int device)>;

// A benchmark workload an algorithm declares (AlgorithmSpec::workloads): data every machine
// can make, the parameters over the data's defaults, and the output timed.
// `lightbench-cli bench <id> --workload NAME` runs it through the Runner, timed by the
// runner's timing registry (CUDA events on the GPU, wall clock on the CPU).
struct Workload {
  std::string name;  // "seed", "like-reference"
  std::string help;  // one line: size, settings, where it comes from
  std::function<std::shared_ptr<const AlgorithmData>()> data;
  ParamValues params;  // over complete_params' defaults for the data
  std::string output;  // the output timed ("": the spec's first computed output)
};

struct AlgorithmSpec {
  std::string id;    // "plenoptic", "lightfield", "stereo-bp", "stereo-local", "mad"
  std::string name;  // "plenoptic: render & depth"
  std::string spec;  // the definition it follows ("../shared/specs/plenoptic.md")
  DataKind data = DataKind::PlenopticScene;
  std::vector<OutputInfo> outputs;
  std::vector<VariantInfo> variants;  // the CUDA kernel variants; the CPU runs "reference"
  std::string default_variant;
  // Parameters for this data (nullptr data: ranges without data).
  std::function<ParamTable(const AlgorithmData*)> params;
  // Validates a full parameter set for the data; throws lb::Error naming the parameter.
  std::function<void(const ParamValues&, const AlgorithmData&)> validate;
  RunnerFactory cpu;
  CudaRunnerFactory cuda;  // set by lb::cuda::register_runners() in CUDA builds
  // Names of the values of enumerated parameters, from the parameter's min upwards
  // ("refine_mode" 1..3 -> {"filter", "subpixel", "full"}; a Bool: {"off", "on"}). Front ends
  // show and accept the names (CLI: --refine-mode subpixel; viewer: a combo). Optional.
  std::map<std::string, std::vector<std::string>> value_names;
  // The documented CLI commands that run this algorithm (cli_commands.hpp): their names,
  // legacy flag aliases, report groups. None: the CLI gives it a command named after its id.
  std::vector<CommandDef> commands;
  // Its benchmark workloads, the first the default (small enough for a CPU run).
  std::vector<Workload> workloads;
  // How the viewer shows it (display_decl.hpp: its entry or group, aliases, default panes,
  // value ranges and overlays), filled in by the module's <id>_display.cpp. Optional.
  DisplayDecl display;

  const OutputInfo* output(const std::string& name) const;
  const VariantInfo* variant(const std::string& name) const;
  // Outputs available for this data (needs_truth ones only with ground truth).
  std::vector<OutputInfo> outputs_for(const AlgorithmData* data) const;
  // "" -> default_variant; an unknown name throws lb::Error listing the known ones.
  std::string resolve_variant(const std::string& name) const;
  std::vector<std::string> variant_names() const;
  // The variant a runner of `kind` runs for a request, by one rule for every algorithm and
  // front end: CUDA resolves the name (resolve_variant; "name:options" keeps its options for
  // the kernel, e.g. BP's warp:8); the CPU runs the reference, so it
  // accepts "", "reference", "auto" (the best here) and the default variant (the same request
  // as none) and refuses another kernel's name with one
  // line ("variant 'sync' is a CUDA kernel of plenoptic; the CPU backend runs the reference").
  // Returns the name to pass to Runner::run ("" on the CPU: the reference).
  // user_named: the request is a user's explicit choice (the CLI's --variant): on the CPU the
  // default variant's name is refused like any other kernel's (it would not run).
  std::string variant_for(BackendKind kind, const std::string& requested, bool user_named = false) const;
  // The value name of `value` for parameter `param` ("" when it has none).
  std::string value_name(const std::string& param, double value) const;
};

// ---------------------------------------------------------------------------------------
// Runners
// ---------------------------------------------------------------------------------------
class Runner {
 public:
  virtual ~Runner() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;
  // Hands the data over (the CUDA runner uploads it once); kept until replaced. Throws
  // lb::Error when the data is of the wrong kind.
  virtual void set_data(std::shared_ptr<const AlgorithmData> data) = 0;
  bool has_data() const { return data_ != nullptr; }
  const AlgorithmData* data() const { return data_.get(); }
  // Computes `output` for (params, variant) into out, resizing it. Missing parameters take
  // their defaults; variant "" the default (the CPU runner computes the reference whatever
  // the variant). Throws lb::Error on bad parameters, unknown outputs or variants.
  virtual void run(const ParamValues& params, const std::string& variant, const std::string& output,
                   Surface& out) = 0;
  // Scores against the ground truth of the latest run that produced them ({} when none):
  // {"badpix_007": .., "mse_x100": .., "scored_pixels": .., "scored_with": "..."} etc.
  virtual nlohmann::json scores() const { return scores_; }
  // Blocks until queued work is done and event timings are collected.
  virtual void synchronize() {}
  // Forgets cached results (a depth map behind an error map, a refined volume, MAD's maps),
  // so the next run() computes again: the CLI's --repeat times every repeat.
  virtual void forget_results() {}
  // What ran last ("exact", "registers->local (no instance for 100)", "reference").
  const std::string& last_variant() const { return last_variant_; }
  // Per-kernel timings of what this runner ran (the viewer's timings table): a runner over
  // an engine (backend, estimator, matcher, evaluator) returns that engine's registry, which
  // its CPU timers and CUDA events fill; timings_ is for runners without one.
  virtual TimingRegistry& timings() { return timings_; }
  // Benchmarks only (`bench <id> --floor`): times once, on this runner's device and data, what
  // moving the bytes `output` must move costs at the least for `params` (the plenoptic render:
  // its touched raw quads read with 16-byte loads, and a copy of the raw), recording rows named
  // "floor/..." (with their bytes) in timings(); false when the runner has no floor for it.
  virtual bool time_floor(const ParamValues& params, const std::string& output) {
    (void)params;
    (void)output;
    return false;
  }

 protected:
  std::shared_ptr<const AlgorithmData> data_;
  nlohmann::json scores_ = nlohmann::json::object();
  std::string last_variant_;
  TimingRegistry timings_;
};

// ---------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------
// How CUDA is reached in this build: kernels/ fills it in lb::cuda::register_runners().
struct CudaHooks {
  std::function<bool(std::string* why)> available;  // a usable device?
  std::function<std::string()> describe;            // "NVIDIA H100 ... (sm_90, ...)"
  std::function<int()> device_count;                // CUDA devices of this machine (0: none)
  // Evicts the device's L2 cache and waits (`bench --cold-l2`: each timed run reads from DRAM).
  std::function<void(int device)> flush_l2;
};

class AlgorithmRegistry {
 public:
  void add(AlgorithmSpec spec);
  // Adds the CUDA runner factory of an algorithm added before (throws on an unknown id).
  void add_cuda(const std::string& id, CudaRunnerFactory cuda);
  // The same, with the CUDA kernels' variant rows (the infos of the module's VariantTable in
  // kernels/<id>/): appended to the spec's variants, so a CUDA build lists what its kernels run.
  void add_cuda(const std::string& id, CudaRunnerFactory cuda, const std::vector<VariantInfo>& variants) {
    add_cuda(id, std::move(cuda));
    for (AlgorithmSpec& s : specs_)
      if (s.id == id) s.variants.insert(s.variants.end(), variants.begin(), variants.end());
  }
  void set_cuda_hooks(CudaHooks hooks) { cuda_ = std::move(hooks); }
  const CudaHooks& cuda_hooks() const { return cuda_; }

  const std::vector<AlgorithmSpec>& all() const { return specs_; }
  const AlgorithmSpec& get(const std::string& id) const;  // throws lb::Error listing the ids
  const AlgorithmSpec* find(const std::string& id) const;

  // Whether CUDA runners can run here; *why says why not ("this build has no CUDA support").
  bool cuda_available(std::string* why = nullptr) const;
  std::string cuda_device() const;
  // How many CUDA devices this machine has (0 without CUDA support or a usable device).
  int cuda_device_count() const;
  // Auto: CUDA when available, else CPU (reason says which and why). An explicit Cuda
  // request that cannot be served throws lb::Error naming why.
  BackendKind choose(BackendRequest request, std::string* reason = nullptr) const;
  // device: the CUDA device's ordinal (ignored on the CPU); one outside 0..count-1 throws
  // lb::Error ("device 3: this machine has 2 CUDA devices").
  std::unique_ptr<Runner> make_runner(const std::string& id, BackendKind kind, int device = 0) const;

 private:
  std::vector<AlgorithmSpec> specs_;
  CudaHooks cuda_;
};

// The built-in algorithms with their CPU runners (plenoptic, lightfield, stereo-bp,
// stereo-local, mad). Front ends call lb::cuda::register_runners(registry) once in CUDA
// builds (lightbench/runners.hpp in kernels/ does it for them: lb::builtin_registry()).
AlgorithmRegistry make_cpu_registry();

// Algorithms from outside the engine (a plug-in's own file; the test build's example
// algorithm, tests/example/) add themselves with one line at namespace scope:
//   LB_REGISTER_ALGORITHM(my_spec);   // AlgorithmSpec my_spec();
// Every registry made afterwards (make_cpu_registry, builtin_registry) lists them after the
// built-in ones, so the CLI, the viewer and --help pick them up with no other edit.
using SpecFactory = AlgorithmSpec (*)();
bool register_algorithm(SpecFactory factory);
// The algorithms of LB_ALGORITHMS (generated at configure time), in the order listed there.
const std::vector<SpecFactory>& builtin_spec_factories();
#define LB_REGISTER_ALGORITHM(factory) \
  [[maybe_unused]] static const bool lb_registered_##factory = ::lb::register_algorithm(&factory)

// Keys of a run: equal keys mean identical images (only the parameters the output depends
// on are part of it; the data id is the caller's).
std::string run_key(const AlgorithmSpec& spec, const std::string& output, const ParamValues& params,
                    const std::string& variant);

// Runner helpers shared by implementations: the typed parameters of `values` over the
// defaults of the spec for the data.
ParamValues complete_params(const AlgorithmSpec& spec, const AlgorithmData& data, const ParamValues& values);

}  // namespace lb
