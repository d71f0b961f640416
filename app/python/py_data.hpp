#pragma once
// The Python module's inputs -> the engine's AlgorithmData, per data kind, as the CLI's
// openers make it (the same loaders and conversions, so a run equals the CLI's bit for bit):
//   plenoptic scene: raw (array or path) + pitch [offset, grid] | raw + calib (XML path)
//                    | scene (scene .json path) | preset [seed]
//   light field:     views (U x V x H x W x C uint8 array) | lf (folder path); [gt]
//   stereo pair:     left, right (arrays or paths) [gt (float map, or path with gt_scale)]
//                    | scene (a Middlebury/KITTI folder path, frame for a folder of scenes)
//   image pair:      ref, dist (arrays or paths)
//   any kind:        scene = a Scene of open_dataset()
// The inputs are taken out of `kwargs`; what remains are the algorithm's parameters.
#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "lightbench/algorithm.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/evaluation.hpp"

namespace lb::py {
namespace pyb = pybind11;

// A scene of a data set (open_dataset), opened on first use.
class Scene {
 public:
  Scene(dataset::SceneRef ref, double gt_scale) : ref_(std::move(ref)), gt_scale_(gt_scale) {}
  const dataset::SceneRef& ref() const { return ref_; }
  const dataset::OpenedScene& opened() const;

 private:
  dataset::SceneRef ref_;
  double gt_scale_ = 0;
  mutable std::shared_ptr<dataset::OpenedScene> opened_;
};

struct OpenedInputs {
  std::shared_ptr<const AlgorithmData> data;
  const eval::Truth* truth = nullptr;  // the protocol's truth (a Scene's), else nullptr
  eval::Truth own_truth;               // for inputs with a truth map given
  bool has_truth = false;
};

// `patch`: the requested output patch size (-1: the default), for a generated preset's truth.
OpenedInputs open_inputs(const AlgorithmSpec& spec, pyb::dict& kwargs, int patch);

// The names open_inputs takes for a kind (for help and the stubs).
std::vector<std::string> input_names(DataKind kind);

}  // namespace lb::py
