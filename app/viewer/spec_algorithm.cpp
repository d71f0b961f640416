#include "spec_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "lightbench/error.hpp"
#include "lightbench/runners.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

// A value as the parameter's field would hold it (clamped, rounded, float precision), so a
// pane's override keys and runs exactly like the same value set on the panel.
double normalized(const ParamInfo& info, double v) {
  if (std::isnan(v)) return v;
  v = std::clamp(v, info.min, info.max);
  switch (info.kind) {
    case ParamInfo::Kind::Int: return std::round(v);
    case ParamInfo::Kind::Float: return static_cast<double>(static_cast<float>(v));
    case ParamInfo::Kind::Bool: return v != 0.0 ? 1.0 : 0.0;
  }
  return v;
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return 0;
}

}  // namespace

SpecAlgorithm::Part::Part(SpecPart d)
    : desc(std::move(d)), spec(&builtin_registry().get(desc.spec_id)), runners(desc.spec_id) {
  variant = index_of(spec->variant_names(), spec->default_variant);
}

SpecAlgorithm::SpecAlgorithm(AlgorithmLayout layout, std::unique_ptr<DataSection> section)
    : layout_(std::move(layout)), section_(std::move(section)) {
  LB_REQUIRE(!layout_.parts.empty(), "viewer: an algorithm without a spec");
  for (const SpecPart& p : layout_.parts) parts_.push_back(std::make_unique<Part>(p));
  if (layout_.id.empty()) layout_.id = parts_[0]->spec->id;
  name_ = layout_.name.empty() ? parts_[0]->spec->name : layout_.name;
  sync_data();
}

SpecAlgorithm::~SpecAlgorithm() = default;

std::uint64_t SpecAlgorithm::data_id() const {
  const auto d = section_->data();
  return d ? d->id : 0;
}

std::string SpecAlgorithm::conversion_notes() const {
  const auto d = section_->data();
  return d ? lb::conversion_notes(*d) : std::string();
}

bool SpecAlgorithm::ready(std::string* why) const {
  if (section_->data()) return true;
  if (why) *why = std::string("no ") + to_string(section_->kind()) + " loaded";
  return false;
}

void SpecAlgorithm::sync_data() const {
  const auto d = section_->data();
  const std::uint64_t id = d ? d->id : 0;
  if (id == params_for_ && !parts_[0]->store.infos().empty()) return;
  const bool first = params_for_ == 0 && parts_[0]->store.infos().empty();
  const bool keep = !first && section_->keeps_params();
  params_for_ = id;
  for (auto& p : parts_) {
    const ParamValues values = p->store.values();
    p->store.reset(p->spec->params(d.get()), keep ? &values : nullptr);
    p->scores = nlohmann::json::object();  // figures of the previous data
  }
}

void SpecAlgorithm::data_changed() {
  params_for_ = ~std::uint64_t{0};
  sync_data();
}

void SpecAlgorithm::reset_params() {
  const auto d = section_->data();
  for (auto& p : parts_) p->store.reset(p->spec->params(d.get()));
}

std::vector<std::string> SpecAlgorithm::variants() const {
  if (parts_.size() == 1) return parts_[0]->spec->variant_names();
  std::vector<std::string> v;
  for (const auto& p : parts_)
    for (const auto& n : p->spec->variant_names()) v.push_back(p->desc.prefix + "/" + n);
  return v;
}

int SpecAlgorithm::current_variant() const { return parts_[0]->variant; }

void SpecAlgorithm::set_variant(int index) {
  for (auto& p : parts_) {
    const int n = static_cast<int>(p->spec->variant_names().size());
    if (index >= 0 && index < n) {
      p->variant = index;
      return;
    }
    index -= n;
  }
}

std::string SpecAlgorithm::variant_for(const PaneRun& run, std::size_t part) const {
  const Part& p = *parts_[part];
  const auto names = p.spec->variant_names();
  // A pane's variant index runs over every part's list; it applies to its own part only.
  int index = run.variant;
  for (std::size_t k = 0; k < part && index >= 0; ++k)
    index -= static_cast<int>(parts_[k]->spec->variant_names().size());
  if (run.variant >= 0 && index >= 0 && index < static_cast<int>(names.size())) return names[index];
  return names[p.variant];
}

std::string SpecAlgorithm::viewer_name(const Part& p, const std::string& spec_output) const {
  if (const auto it = p.desc.rename.find(spec_output); it != p.desc.rename.end()) return it->second;
  return p.desc.prefix.empty() ? spec_output : p.desc.prefix + "_" + spec_output;
}

std::vector<AlgorithmOutput> SpecAlgorithm::outputs() const {
  sync_data();
  const auto d = section_->data();
  std::vector<AlgorithmOutput> results, inputs;
  std::set<std::string> input_names;
  for (std::size_t k = 0; k < parts_.size(); ++k)
    for (const OutputInfo& o : parts_[k]->spec->outputs_for(d.get())) {
      if (o.input) {
        // Inputs are the data's: shown once, under their own name.
        if (input_names.insert(o.name).second) inputs.push_back({o.name, o.label, o.format, true, o.unit});
      } else {
        results.push_back({viewer_name(*parts_[k], o.name), o.label, o.format, false, o.unit});
      }
    }
  results.insert(results.end(), inputs.begin(), inputs.end());
  return results;
}

bool SpecAlgorithm::resolve(const std::string& output, std::size_t* part, std::string* spec_output) const {
  for (std::size_t k = 0; k < parts_.size(); ++k)
    for (const OutputInfo& o : parts_[k]->spec->outputs) {
      const std::string name = o.input ? o.name : viewer_name(*parts_[k], o.name);
      if (name == output) {
        *part = k;
        *spec_output = o.name;
        return true;
      }
    }
  return false;
}

std::pair<std::string, std::string> SpecAlgorithm::default_panes() const {
  const DisplayDecl& decl = parts_[0]->spec->display;
  if (decl.default_panes) return decl.default_panes(section_->data().get());
  const auto outs = outputs();
  std::string result, input;
  for (const auto& o : outs) {
    if (!o.input && result.empty()) result = o.name;
    if (o.input && input.empty()) input = o.name;
  }
  if (input.empty()) input = result;
  if (result.empty()) result = input;
  return {input, result};
}

std::vector<ParamInfo> SpecAlgorithm::live_params() {
  sync_data();
  std::vector<ParamInfo> v;
  std::set<std::string> seen;
  for (const auto& p : parts_)
    for (const ParamInfo& i : p->store.infos())
      if (seen.insert(i.name).second) v.push_back(i);
  return v;
}

ParamValues SpecAlgorithm::panel_values() const {
  ParamValues v;
  for (const auto& p : parts_)
    for (const auto& [k, x] : p->store.values()) v.emplace(k, x);  // the first part's wins
  return v;
}

ParamValues SpecAlgorithm::values_for(std::size_t part, const PaneRun& run) const {
  sync_data();
  ParamValues v = parts_[part]->store.values();
  const ParamValues panel = panel_values();
  for (auto& [k, x] : v) x = panel.at(k);  // shared with an earlier part: its value
  if (!run.override_param.empty() && v.count(run.override_param))
    if (const ParamInfo* info = find_param(parts_[part]->store.infos(), run.override_param))
      v[run.override_param] = normalized(*info, run.override_value);
  return v;
}

DataRequest SpecAlgorithm::draw_data_section() {
  DataRequest req;
  section_->draw_headers(req);
  return req;
}

bool SpecAlgorithm::draw_controls() {
  PanelParams pp;
  pp.get = [this](const std::string& n) {
    const auto v = panel_values();
    const auto it = v.find(n);
    return it == v.end() ? 0.0 : it->second;
  };
  pp.set = [this](const std::string& n, double x) {
    for (const auto& p : parts_)
      if (const ParamInfo* i = find_param(p->store.infos(), n)) i->set(x);
  };
  bool changed = section_->draw(pp);
  sync_data();
  std::set<std::string> seen;
  for (auto& p : parts_) {
    ImGui::PushID(p->desc.spec_id.c_str());
    if (parts_.size() > 1)
      ImGui::TextDisabled("%s", (p->desc.label.empty() ? p->spec->name : p->desc.label).c_str());
    // Variant: the spec's table, its notes as the tooltip.
    const auto names = p->spec->variant_names();
    ImGui::SetNextItemWidth(150);
    const std::string label = p->desc.prefix.empty() ? "variant" : p->desc.prefix + " variant";
    if (ImGui::BeginCombo(label.c_str(), names[p->variant].c_str())) {
      for (int i = 0; i < static_cast<int>(names.size()); ++i) {
        if (ImGui::Selectable(names[i].c_str(), i == p->variant)) {
          p->variant = i;
          changed = true;
        }
        const VariantInfo* vi = p->spec->variant(names[i]);
        if (vi && ImGui::IsItemHovered())
          ImGui::SetTooltip("%s%s", vi->note.c_str(), vi->bit_identical ? "" : " (within a tolerance of the reference)");
      }
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) {
      std::string tip;
      for (const auto& v : p->spec->variants) tip += v.name + ": " + v.note + "\n";
      ImGui::SetTooltip("%sThe CPU backend runs the reference whatever the variant.", tip.c_str());
    }
    std::vector<ParamInfo> own;
    for (const ParamInfo& i : p->store.infos())
      if (seen.insert(i.name).second) own.push_back(i);
    changed |= param_sliders(own);
    ImGui::PopID();
  }
  if (ImGui::SmallButton("reset parameters")) {
    reset_params();
    changed = true;
  }
  return changed;
}

void SpecAlgorithm::draw_results() {
  bool any = false;
  for (const auto& p : parts_) {
    if (p->scores.empty()) continue;
    any = true;
    if (parts_.size() > 1) ImGui::TextDisabled("%s", p->desc.prefix.c_str());
    // The runner's figures as it reports them (the sidecar's "results" has the same).
    for (const auto& [k, v] : p->scores.items()) {
      if (v.is_number_float()) ImGui::Text("%s  %.6g", k.c_str(), v.get<double>());
      else if (v.is_number()) ImGui::Text("%s  %lld", k.c_str(), v.get<long long>());
      else if (v.is_string()) ImGui::TextDisabled("%s  %s", k.c_str(), v.get<std::string>().c_str());
      else if (v.is_object()) ImGui::TextDisabled("%s  %s", k.c_str(), v.dump().c_str());
    }
  }
  if (!any)
    ImGui::TextDisabled(section_->data() && section_->data()->has_truth()
                            ? "scores: show a result in a pane"
                            : "scores: none yet (or the data has no ground truth)");
}

std::string SpecAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  std::size_t part = 0;
  std::string spec_output;
  if (!resolve(output, &part, &spec_output)) return output;
  return lb::run_key(*parts_[part]->spec, spec_output, values_for(part, run), variant_for(run, part)) + "|" +
         section_->key();
}

RunRequest SpecAlgorithm::request(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                                  const std::string& output) {
  std::size_t part = 0;
  std::string spec_output;
  LB_REQUIRE(resolve(output, &part, &spec_output), name_ + ": no output '" + output + "'");
  const auto d = section_->data();
  LB_REQUIRE(d != nullptr, name_ + ": no data loaded");
  RunRequest r;
  r.worker = parts_[part]->runners.get(pool, slot);
  r.data = d;
  r.values = values_for(part, run);
  r.variant = variant_for(run, part);
  r.output = spec_output;
  r.format = parts_[part]->spec->output(spec_output)->format;
  r.part = static_cast<int>(part);
  return r;
}

void SpecAlgorithm::accept(const RunResult& result) {
  const auto part = static_cast<std::size_t>(result.request.part);
  // Runners report the figures of their latest scored run; an unscored output gives {}.
  if (part < parts_.size() && result.request.data->id == data_id() && !result.scores.empty())
    parts_[part]->scores = result.scores;
}

DisplayHints SpecAlgorithm::display(const std::string& output) const {
  std::size_t part = 0;
  std::string spec_output;
  if (!resolve(output, &part, &spec_output)) return {};
  const DisplayDecl& decl = parts_[part]->spec->display;
  if (!decl.display) return {};
  const auto data = section_->data();
  const ParamValues panel = panel_values();
  const nlohmann::json& scores = parts_[part]->scores;
  // The declaration runs again only when what it reads changed.
  std::string key = output + '\n' + std::to_string(data ? data->id : 0) + '\n' + scores.dump();
  for (const auto& [name, value] : panel) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "=%.17g;", value);
    key += name + buf;
  }
  auto it = display_cache_.find(key);
  if (it == display_cache_.end()) {
    if (display_cache_.size() >= 16) display_cache_.clear();
    it = display_cache_.emplace(key, decl.display(spec_output, panel, scores, data.get())).first;
  }
  const OutputDisplay& d = it->second;
  DisplayHints h;
  h.has_range = d.has_range;
  h.range_min = static_cast<float>(d.min);
  h.range_max = static_cast<float>(d.max);
  if (d.overlay != OverlayKind::None) section_->overlay(d.overlay, &h);
  return h;
}

bool SpecAlgorithm::named(const std::string& name) const {
  auto lower = [](std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  const std::string want = lower(name);
  if (lower(layout_.id) == want) return true;
  for (const std::string& a : layout_.aliases)
    if (lower(a) == want) return true;
  return false;
}

nlohmann::json SpecAlgorithm::run_json(const PaneRun& run) {
  nlohmann::json j = section_->settings_json();
  if (parts_.size() == 1) {
    j.update(nlohmann::json(values_for(0, run)));
    j["variant"] = variant_for(run, 0);
    return j;
  }
  // Parameters shared by several parts at the top, the rest under each part's prefix.
  std::map<std::string, int> uses;
  for (const auto& p : parts_)
    for (const auto& [k, v] : p->store.values()) ++uses[k];
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    nlohmann::json pj = {{"variant", variant_for(run, k)}};
    for (const auto& [n, v] : values_for(k, run)) {
      const ParamInfo* info = find_param(parts_[k]->store.infos(), n);
      const nlohmann::json value = info && info->kind == ParamInfo::Kind::Int ? nlohmann::json(std::llround(v))
                                   : info && info->kind == ParamInfo::Kind::Bool ? nlohmann::json(v != 0.0)
                                                                                  : nlohmann::json(v);
      (uses[n] > 1 ? j[n] : pj[n]) = value;
    }
    j[parts_[k]->desc.prefix] = pj;
  }
  return j;
}

nlohmann::json SpecAlgorithm::results_json() const {
  if (parts_.size() == 1) return parts_[0]->scores;
  nlohmann::json j = nlohmann::json::object();
  for (const auto& p : parts_)
    if (!p->scores.empty()) j[p->desc.prefix] = p->scores;
  return j;
}

void SpecAlgorithm::timing_sources(std::vector<TimingSource>& out) {
  for (auto& p : parts_) p->runners.timing_sources(out);
}

void SpecAlgorithm::workers(std::vector<RunWorker*>& out) {
  for (auto& p : parts_) p->runners.workers(out);
}

void SpecAlgorithm::open_startup(const ViewerOptions& options) {
  // The parameters start from the defaults for the data there now; the viewer resets them
  // again when the section's start-up load is in (ViewerApp::finish_startup).
  struct Reset {
    SpecAlgorithm* a;
    ~Reset() {
      a->sync_data();
      a->reset_params();
    }
  } reset{this};
  section_->open_startup(options);
}

}  // namespace lb::viewer
