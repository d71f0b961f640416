// The algorithm contract's shared pieces: data ids, spec lookups, the registry, run keys.
#include "lightbench/algorithm.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <sstream>

#include "lightbench/algorithms.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace lb {
namespace {

std::uint64_t next_data_id() {
  static std::atomic<std::uint64_t> next{0};
  return ++next;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

const char* to_string(DataKind k) {
  switch (k) {
    case DataKind::PlenopticScene: return "plenoptic scene";
    case DataKind::LightField: return "4D light field";
    case DataKind::StereoPair: return "stereo pair";
    case DataKind::ImagePair: return "image pair";
  }
  return "?";
}

void set_output_units(std::vector<OutputInfo>& outputs,
                      const std::vector<std::pair<std::string, std::string>>& units) {
  for (auto& o : outputs)
    for (const auto& [name, unit] : units)
      if (o.name == name) o.unit = unit;
}

AlgorithmData::AlgorithmData() : id(next_data_id()) {}

bool write_image_pair_input(const ImagePairData& d, const std::string& output, Surface& out) {
  if (output != "reference" && output != "distorted") return false;
  const ImageU8 img = to_rgba(output == "reference" ? d.reference : d.distorted);
  out.resize(img.width, img.height);
  out.upload_host(img);
  return true;
}

std::vector<DataInput> data_inputs(const AlgorithmData& data) {
  std::vector<DataInput> out;
  auto add = [&](const char* role, const ImageOrigin& o) {
    if (!o.path.empty()) out.push_back({role, o});
  };
  switch (data.kind()) {
    case DataKind::PlenopticScene:
      add("raw", static_cast<const PlenopticData&>(data).scene.raw_origin);
      break;
    case DataKind::LightField:
      add("views", static_cast<const LightFieldData&>(data).lf.views_origin);
      break;
    case DataKind::StereoPair: {
      const auto& p = static_cast<const StereoData&>(data).pair;
      add("left", p.left_origin);
      add("right", p.right_origin);
      break;
    }
    case DataKind::ImagePair: {
      const auto& d = static_cast<const ImagePairData&>(data);
      add("reference", d.reference_origin);
      add("distorted", d.distorted_origin);
      break;
    }
  }
  return out;
}

std::string conversion_notes(const AlgorithmData& data) {
  const std::vector<DataInput> inputs = data_inputs(data);
  std::vector<std::pair<std::string, std::string>> groups;  // note, roles
  std::size_t converted = 0;
  for (const DataInput& in : inputs) {
    const std::string note = conversion_note(in.origin);
    if (note.empty()) continue;
    ++converted;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == note; });
    if (it == groups.end()) groups.push_back({note, in.role});
    else it->second += ", " + in.role;
  }
  if (groups.size() == 1 && converted == inputs.size()) return groups[0].first;
  std::string notes;
  for (const auto& [note, roles] : groups) notes += (notes.empty() ? "" : "; ") + roles + ": " + note;
  return notes;
}

void throw_data_kind_mismatch(DataKind got, DataKind expected) {
  throw Error(std::string("wrong data: expected a ") + to_string(expected) + ", got a " + to_string(got));
}

const OutputInfo* AlgorithmSpec::output(const std::string& n) const {
  for (const auto& o : outputs)
    if (o.name == n) return &o;
  return nullptr;
}

const VariantInfo* AlgorithmSpec::variant(const std::string& n) const {
  for (const auto& v : variants)
    if (v.name == n) return &v;
  return nullptr;
}

std::vector<OutputInfo> AlgorithmSpec::outputs_for(const AlgorithmData* d) const {
  std::vector<OutputInfo> v;
  for (const auto& o : outputs)
    if (!o.needs_truth || (d && d->has_truth())) v.push_back(o);
  return v;
}

std::vector<std::string> AlgorithmSpec::variant_names() const {
  std::vector<std::string> v;
  for (const auto& x : variants) v.push_back(x.name);
  return v;
}

std::string AlgorithmSpec::resolve_variant(const std::string& n) const {
  if (n.empty()) return default_variant;
  // Any case ("NoSync", "nosync").
  for (const auto& v : variants) {
    if (v.name.size() != n.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < n.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(v.name[i])) == std::tolower(static_cast<unsigned char>(n[i]));
    if (same) return v.name;
  }
  throw Error(name + ": unknown variant '" + n + "' (known: " + join(variant_names()) + ")");
}

// A bound table as the contract hands it out: unbound infos with their defaults.
ParamTable param_table(const std::vector<ParamInfo>& bound) {
  ParamTable t;
  t.defaults = read_values(bound);
  for (ParamInfo p : bound) {
    p.default_value = p.get();
    p.value = std::monostate{};
    t.infos.push_back(std::move(p));
  }
  return t;
}

void AlgorithmRegistry::add(AlgorithmSpec spec) {
  LB_REQUIRE(!find(spec.id), "algorithm '" + spec.id + "' registered twice");
  // Each table the spec makes names, per parameter, the outputs it invalidates: declared once,
  // in OutputInfo::params (run keys read them there).
  if (spec.params) {
    spec.params = [table = std::move(spec.params), outputs = spec.outputs](const AlgorithmData* data) {
      ParamTable t = table(data);
      for (ParamInfo& p : t.infos) {
        p.outputs.clear();
        for (const OutputInfo& o : outputs)
          if (std::find(o.params.begin(), o.params.end(), p.name) != o.params.end()) p.outputs.push_back(o.name);
      }
      return t;
    };
  }
  specs_.push_back(std::move(spec));
}

void AlgorithmRegistry::add_cuda(const std::string& id, CudaRunnerFactory cuda) {
  for (auto& s : specs_)
    if (s.id == id) {
      s.cuda = std::move(cuda);
      return;
    }
  throw Error("CUDA runner for an unknown algorithm '" + id + "'");
}

const AlgorithmSpec* AlgorithmRegistry::find(const std::string& id) const {
  for (const auto& s : specs_)
    if (s.id == id) return &s;
  return nullptr;
}

const AlgorithmSpec& AlgorithmRegistry::get(const std::string& id) const {
  if (const auto* s = find(id)) return *s;
  std::vector<std::string> ids;
  for (const auto& s : specs_) ids.push_back(s.id);
  throw Error("unknown algorithm '" + id + "' (known: " + join(ids) + ")");
}

bool AlgorithmRegistry::cuda_available(std::string* why) const {
  if (!cuda_.available) {
    if (why) *why = "this build has no CUDA support (no nvcc found when it was built)";
    return false;
  }
  return cuda_.available(why);
}

std::string AlgorithmRegistry::cuda_device() const { return cuda_.describe ? cuda_.describe() : ""; }

int AlgorithmRegistry::cuda_device_count() const {
  if (!cuda_.device_count || !cuda_available()) return 0;
  return cuda_.device_count();
}

BackendKind AlgorithmRegistry::choose(BackendRequest request, std::string* reason) const {
  std::string why;
  if (request == BackendRequest::Cpu) {
    if (reason) *reason = "CPU: requested";
    return BackendKind::Cpu;
  }
  if (cuda_available(&why)) {
    if (reason) *reason = "CUDA: " + cuda_device();
    return BackendKind::Cuda;
  }
  LB_REQUIRE(request != BackendRequest::Cuda, "--backend cuda: " + why);
  if (reason) *reason = "CPU: " + why;
  return BackendKind::Cpu;
}

std::unique_ptr<Runner> AlgorithmRegistry::make_runner(const std::string& id, BackendKind kind, int device) const {
  const AlgorithmSpec& s = get(id);
  if (kind == BackendKind::Cpu) return s.cpu();
  std::string why;
  LB_REQUIRE(cuda_available(&why), "CUDA backend unavailable: " + why);
  LB_REQUIRE(s.cuda != nullptr, s.name + ": no CUDA runner in this build");
  const int count = cuda_device_count();
  LB_REQUIRE(device >= 0 && device < count, "device " + std::to_string(device) + ": this machine has " +
                                                std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s"));
  return s.cuda(device);
}

std::string run_key(const AlgorithmSpec& spec, const std::string& output, const ParamValues& params,
                    const std::string& variant) {
  std::ostringstream k;
  k << std::hexfloat << spec.id << '|' << output;
  const OutputInfo* o = spec.output(output);
  if (!o) return k.str() + "|?";
  if (o->input && o->params.empty()) return k.str();
  if (o->uses_variant && !o->input) k << '|' << variant;
  for (const auto& name : o->params)
    if (auto it = params.find(name); it != params.end()) k << '|' << name << '=' << it->second;
  return k.str();
}

ParamValues complete_params(const AlgorithmSpec& spec, const AlgorithmData& data, const ParamValues& values) {
  ParamValues v = spec.params ? spec.params(&data).defaults : ParamValues{};
  for (const auto& [k, x] : values) v[k] = x;
  return v;
}

}  // namespace lb
