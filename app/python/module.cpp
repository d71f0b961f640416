// The Python module `lightbench` (its extension `_lightbench`): the algorithm contract,
// generated from the registry like the CLI (nothing restated here): algorithms(), describe(),
// run(), read_image(), open_dataset(), evaluate(), correlate(). ../shared/specs/python-api.md.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/evaluation.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/stereo.hpp"
#include "py_convert.hpp"
#include "py_data.hpp"
#include "py_docs.hpp"
#include "py_run.hpp"

namespace pyb = pybind11;
using namespace pybind11::literals;

namespace lb::py {
namespace {

const AlgorithmRegistry& registry() { return builtin_registry(); }

pyb::dict describe(const std::string& id) {
  const AlgorithmSpec& spec = registry().get(id);
  return to_python(describe_json(spec)).cast<pyb::dict>();
}

GivenValue given_value(const std::string& name, pyb::handle v) {
  GivenValue g;
  if (pyb::isinstance<pyb::bool_>(v)) {
    g.number = v.cast<bool>() ? 1.0 : 0.0;
    g.is_bool = true;
  } else if (pyb::isinstance<pyb::str>(v)) {
    g.text = v.cast<std::string>();
    if (g.text.empty()) throw Error(name + ": empty value");
  } else if (pyb::isinstance<pyb::int_>(v) || pyb::isinstance<pyb::float_>(v) || pyb::hasattr(v, "__float__")) {
    try {
      g.number = v.cast<double>();
    } catch (const pyb::cast_error&) {
      throw Error(name + ": expected a number or a value name");
    }
  } else {
    throw Error(name + ": expected a number or a value name, got " +
                pyb::str(pyb::type::of(v).attr("__name__")).cast<std::string>());
  }
  return g;
}

pyb::dict run_py(const std::string& id, const std::string& backend, const std::string& variant, int device,
              const pyb::object& outputs, pyb::kwargs kwargs) {
  const AlgorithmSpec& spec = registry().get(id);
  pyb::dict kw;
  for (auto item : kwargs) kw[item.first] = item.second;
  // The output patch size asked for (a generated preset's truth is made at it).
  int patch = -1;
  if (kw.contains("patch") && !pyb::isinstance<pyb::str>(kw["patch"])) {
    try {
      patch = kw["patch"].cast<int>();
    } catch (const pyb::cast_error&) {
    }
  }
  OpenedInputs in = open_inputs(spec, kw, patch);
  std::map<std::string, GivenValue> given;
  for (auto item : kw) {
    const std::string name = pyb::str(item.first).cast<std::string>();
    given[name] = given_value(name, item.second);
  }
  const ParamValues values = checked_params(spec, *in.data, given);
  RunRequest req;
  req.backend = backend;
  req.variant = variant;
  req.device = device;
  if (!outputs.is_none()) {
    if (pyb::isinstance<pyb::str>(outputs)) req.outputs = {outputs.cast<std::string>()};
    else req.outputs = outputs.cast<std::vector<std::string>>();
  }
  RunResult r;
  {
    pyb::gil_scoped_release release;  // the run computes without the interpreter
    r = lb::py::run(registry(), spec, in.data, values, req);
  }
  pyb::dict outs;
  for (const std::string& n : r.order) outs[pyb::str(n)] = to_array(*r.outputs.at(n));
  pyb::dict d;
  d["algorithm"] = spec.id;
  d["outputs"] = outs;
  d["scores"] = to_python(r.scores);
  d["timings"] = to_python(r.timings);
  d["params"] = to_python(r.params);
  d["variant"] = r.variant;
  d["backend"] = r.backend;
  d["backend_reason"] = r.backend_reason;
  d["device"] = r.device;
  d["compute_ms"] = r.compute_ms;
  d["ms_total"] = r.ms_total;
  // The protocol's metrics of the primary map, as the CLI reports them ("metrics").
  if (in.truth && !r.order.empty() && r.outputs.at(r.order.front())->format() == SurfaceFormat::R32F) {
    eval::Truth t = *in.truth;
    if (t.protocol == eval::Protocol::Hci && values.count("border")) t.border = static_cast<int>(values.at("border"));
    d["metrics"] = to_python(eval::evaluate(r.outputs.at(r.order.front())->scalar(), t));
    d["protocol"] = eval::to_string(t.protocol);
  }
  return d;
}

pyb::array read_image(const pyb::object& path_obj) {
  std::string path;
  if (!as_path(path_obj, &path)) throw Error("read_image: expected a path (str or os.PathLike)");
  const std::string ext = file_extension(path);
  if (ext == ".pfm") return to_array(load_pfm(path));
  if (ext == ".png") {
    int depth = 8;
    ImageU16 img16 = load_image16(path, 0, &depth);  // full depth, as the file holds it
    if (depth > 8) return to_array(img16);
  }
  return to_array(load_image_8bit(path));  // as the CLI reads it (a 16-bit PNM: v * 255 / maxval)
}

pyb::dict scene_inputs(const Scene& s) {
  const AlgorithmData& d = *s.opened().data;
  pyb::dict in;
  switch (d.kind()) {
    case DataKind::StereoPair: {
      const auto& sd = static_cast<const StereoData&>(d);
      in["left"] = to_array(sd.pair.left);
      in["right"] = to_array(sd.pair.right);
      break;
    }
    case DataKind::ImagePair: {
      const auto& p = static_cast<const ImagePairData&>(d);
      in["ref"] = to_array(p.reference);
      in["dist"] = to_array(p.distorted);
      break;
    }
    case DataKind::LightField: {
      const LightField4D& lf = static_cast<const LightFieldData&>(d).lf;
      pyb::array_t<std::uint8_t> a(std::vector<pyb::ssize_t>{lf.nu, lf.nv, lf.height, lf.width, 3});
      auto m = a.mutable_unchecked<5>();
      for (int v = 0; v < lf.nv; ++v)
        for (int u = 0; u < lf.nu; ++u) {
          const ImageU8& img = lf.views[static_cast<std::size_t>(v * lf.nu + u)];
          for (int y = 0; y < lf.height; ++y)
            for (int x = 0; x < lf.width; ++x)
              for (int c = 0; c < 3; ++c) m(u, v, y, x, c) = img.at(x, y, c);
        }
      in["views"] = a;
      break;
    }
    case DataKind::PlenopticScene: {
      in["raw"] = to_array(static_cast<const PlenopticData&>(d).scene.raw);
      break;
    }
  }
  return in;
}

pyb::object scene_truth(const Scene& s) {
  const dataset::OpenedScene& o = s.opened();
  if (!o.has_truth) return pyb::none();
  return to_array(o.truth.stereo.disparity);
}

pyb::list open_dataset(const pyb::object& path_obj, const pyb::object& layout, double gt_scale) {
  std::string path;
  if (!as_path(path_obj, &path)) throw Error("open_dataset: expected a path (str or os.PathLike)");
  const dataset::Dataset ds = dataset::open_dataset(path, layout.is_none() ? "auto" : layout.cast<std::string>());
  pyb::list scenes;
  for (const dataset::SceneRef& ref : ds.scenes) scenes.append(Scene(ref, gt_scale));
  return scenes;
}

pyb::dict evaluate(const pyb::object& map, const Scene& scene, const pyb::object& border) {
  const dataset::OpenedScene& o = scene.opened();
  if (!o.has_truth) throw Error("evaluate: scene '" + scene.ref().name + "' has no ground truth");
  eval::Truth t = o.truth;
  if (!border.is_none()) t.border = border.cast<int>();
  return to_python(eval::evaluate(image_f32(map, "map"), t)).cast<pyb::dict>();
}

pyb::dict correlate(const std::vector<double>& scores, const std::vector<double>& mos) {
  if (scores.size() != mos.size())
    throw Error("correlate: " + std::to_string(scores.size()) + " scores but " + std::to_string(mos.size()) + " MOS values");
  return to_python(eval::to_json(eval::correlate(scores, mos))).cast<pyb::dict>();
}

}  // namespace
}  // namespace lb::py

PYBIND11_MODULE(_lightbench, m) {
  using namespace lb::py;
  m.doc() = "lightbench: the algorithm contract of lightbench's engine (../shared/specs/python-api.md)";
  static pyb::exception<lb::Error> error(m, "Error");
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const lb::Error& e) {
      error(e.what());
    }
  });

  m.def("algorithms", [] {
    std::vector<std::string> ids;
    for (const lb::AlgorithmSpec& s : registry().all()) ids.push_back(s.id);
    return ids;
  }, "The registered algorithms' ids, in registry order.");
  m.def("describe", &describe, "id"_a, "The algorithm's declaration: params (name -> min, max, default, unit, doc, "
                                        "kind, values, outputs), variants, inputs, outputs, data kind.");
  m.def("_run", &run_py, "id"_a, pyb::kw_only(), "backend"_a = "auto", "variant"_a = "auto", "device"_a = 0,
        "outputs"_a = pyb::none());
  m.def("read_image", &read_image, "path"_a,
        "An image file as the CLI reads it: HxW or HxWxC, uint8 or uint16 (full depth); a .pfm as float32.");
  m.def("open_dataset", &open_dataset, "path"_a, "layout"_a = pyb::none(), "gt_scale"_a = 0.0,
        "The scenes of a data set folder in any layout the CLI's batch reads (middlebury2001, middlebury2014, "
        "kitti, hci, tid2013, kadid10k; None: detected).");
  m.def("evaluate", &evaluate, "map"_a, "scene"_a, "border"_a = pyb::none(),
        "The benchmark protocol's metrics of a map against the scene's truth: eval --json's numbers.");
  m.def("correlate", &correlate, "scores"_a, "mos"_a,
        "srocc, krocc, plcc and the 5-parameter logistic of objective scores against human scores (eval --scores).");
  m.def("_run_doc", [] { return run_doc(registry()); });

  pyb::class_<Scene>(m, "Scene", "One scene of a data set: its inputs, truth and protocol, opened on first use.")
      .def_property_readonly("name", [](const Scene& s) { return s.ref().name; })
      .def_property_readonly("path", [](const Scene& s) { return s.ref().path; })
      .def_property_readonly("layout", [](const Scene& s) { return std::string(lb::dataset::to_string(s.ref().layout)); })
      .def_property_readonly("mos", [](const Scene& s) { return s.ref().mos; })
      .def_property_readonly("kind", [](const Scene& s) { return std::string(lb::to_string(lb::dataset::data_kind(s.ref().layout))); })
      .def_property_readonly("inputs", &scene_inputs)
      .def_property_readonly("truth", &scene_truth)
      .def_property_readonly("protocol", [](const Scene& s) -> pyb::object {
        const auto& o = s.opened();
        if (!o.has_truth) return pyb::none();
        return pyb::str(lb::eval::to_string(o.truth.protocol));
      })
      .def("__repr__", [](const Scene& s) { return "<lightbench.Scene " + s.ref().name + ">"; });
}
