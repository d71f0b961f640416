#include "lightfield_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "options.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {

LightFieldAlgorithm::LightFieldAlgorithm()
    : variant_(default_variant_index()),
      centre_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      truth_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F)) {
  centre_tex_->set_interop_enabled(false, "light-field texture");
  truth_tex_->set_interop_enabled(false, "light-field texture");
  generate(1);
}

LightFieldAlgorithm::~LightFieldAlgorithm() = default;

bool LightFieldAlgorithm::ready(std::string* why) const {
  if (data_ && !data_->lf.empty()) return true;
  if (why) *why = "no light field loaded";
  return false;
}

void LightFieldAlgorithm::generate(unsigned seed) {
  install(bundled_lightfield(seed));  // assets/lightfield/two_planes.json
  seed_ = static_cast<int>(seed);
}

void LightFieldAlgorithm::open(const std::string& folder) { install(load_lightfield(folder)); }

void LightFieldAlgorithm::open_startup(const ViewerOptions& options) {
  if (options.lf.empty()) return;
  try {
    open(options.lf);
  } catch (const std::exception& e) {
    throw Error(std::string("cannot open the light field: ") + e.what() + " (showing the synthetic one)");
  }
}

void LightFieldAlgorithm::install(LightField4D lf) {
  LB_REQUIRE(!lf.empty(), "empty light field");
  // Textures first, so a failure leaves the current light field as it was.
  auto centre = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
  centre->set_interop_enabled(false, "light-field texture");
  centre->upload_host(to_rgba(lf.centre()));
  auto truth = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F);
  truth->set_interop_enabled(false, "light-field texture");
  float tmin = 0, tmax = 1;
  if (lf.has_gt()) {
    truth->upload_host(lf.gt);
    tmin = tmax = lf.gt.data.front();
    for (float d : lf.gt.data)
      if (std::isfinite(d)) {
        tmin = std::min(tmin, d);
        tmax = std::max(tmax, d);
      }
    if (tmax <= tmin) tmax = tmin + 1.0f;
  }
  auto data = std::make_shared<LightFieldData>();
  data->lf = std::move(lf);
  data_ = std::move(data);
  centre_tex_ = std::move(centre);
  truth_tex_ = std::move(truth);
  truth_min_ = tmin;
  truth_max_ = tmax;
  scores_ = nlohmann::json::object();
  data_changed();
}

std::vector<std::string> LightFieldAlgorithm::variants() const { return cae_variant_names(); }

int LightFieldAlgorithm::default_variant_index() {
  const auto names = cae_variant_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == lightfield_spec().default_variant) return static_cast<int>(i);
  return 0;
}

void LightFieldAlgorithm::set_variant(int index) {
  if (index >= 0 && index < static_cast<int>(variants().size())) variant_ = index;
}

std::vector<AlgorithmOutput> LightFieldAlgorithm::outputs() const {
  std::vector<AlgorithmOutput> o;
  for (const auto& x : runners_.spec().outputs_for(data_.get()))
    o.push_back({x.name, x.label, x.format, x.input});
  return o;
}

std::pair<std::string, std::string> LightFieldAlgorithm::default_panes() const {
  return {"view", "depth"};
}

std::vector<ParamInfo> LightFieldAlgorithm::live_params() { return describe_all(params_); }

void LightFieldAlgorithm::reset_params() { params_ = lightfield_params({}, data_->lf); }

void LightFieldAlgorithm::data_changed() { reset_params(); }

bool LightFieldAlgorithm::draw_angular_pad() {
  // A grid of nu x nv dots; click or drag to pick the view (parallax as you drag).
  const LightField4D& lf_ = data_->lf;
  const float cell = std::clamp(180.0f / std::max(lf_.nu, lf_.nv), 8.0f, 24.0f);
  const ImVec2 size(cell * lf_.nu, cell * lf_.nv);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##angular_pad", size);
  bool changed = false;
  if (ImGui::IsItemActive()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int u = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, lf_.nu - 1);
    const int v = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, lf_.nv - 1);
    if (u != params_.u || v != params_.v) {
      params_.u = u;
      params_.v = v;
      changed = true;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("drag to move the viewpoint (u, v)");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(90, 90, 100, 255));
  const int r = params_.cae.views / 2;
  for (int v = 0; v < lf_.nv; ++v)
    for (int u = 0; u < lf_.nu; ++u) {
      const ImVec2 c(p0.x + (u + 0.5f) * cell, p0.y + (v + 0.5f) * cell);
      const bool in_window = std::abs(u - lf_.uc()) <= r && std::abs(v - lf_.vc()) <= r;
      const bool picked = u == params_.u && v == params_.v;
      dl->AddCircleFilled(c, picked ? cell * 0.38f : cell * 0.18f,
                          picked ? IM_COL32(255, 210, 60, 255)
                                 : in_window ? IM_COL32(120, 170, 255, 255) : IM_COL32(110, 110, 120, 255));
    }
  ImGui::SameLine();
  ImGui::TextDisabled("view (%d, %d)\nblue: CAE window\n(%dx%d views)", params_.u, params_.v,
                      params_.cae.views, params_.cae.views);
  return changed;
}

bool LightFieldAlgorithm::draw_controls() {
  bool changed = false;
  const LightField4D& lf_ = data_->lf;
  ImGui::TextWrapped("light field: %s", lf_.source.c_str());
  ImGui::TextDisabled("%d x %d views of %d x %d%s", lf_.nu, lf_.nv, lf_.width, lf_.height,
                      lf_.has_gt() ? ", with ground truth" : "");
  changed |= path_open_row("lf", "light-field folder", path_field_, &open_error_,
                           [this](const std::string& p) { open(p); });
  if (ImGui::SmallButton("synthetic two planes")) {
    generate(static_cast<unsigned>(seed_));
    open_error_.clear();
    changed = true;
  }
  error_line(open_error_);
  changed |= draw_angular_pad();

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("CAE kernel");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("baseline / vec / tex / coalesced: the seed's CAE steps (256 bins)\n"
                      "binned, binned_fast: 64-bin histogram (Ivan et al.)\n"
                      "exact: occupied bins only (the fastest exact kernel for the window),\n"
                      "bit-identical to the 256-bin CAE; exact_sort, exact_smem, exact_smem_table:\n"
                      "the exact kernels one by one; exact_terms: the same CAE summed per sample\n"
                      "(float error ~1e-6)\n"
                      "The CPU backend runs the double reference of the variant's method.");
  if (const VariantInfo* vi = runners_.spec().variant(variants()[variant_]); vi && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s: %s%s", vi->name.c_str(), vi->note.c_str(),
                      vi->bit_identical ? "" : " (within a tolerance of the reference)");
  ImGui::SameLine();
  const auto names = variants();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##caevariant", names[variant_].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == variant_)) {
        variant_ = i;
        changed = true;
      }
    ImGui::EndCombo();
  }
  changed |= param_sliders(describe_all(params_));
  if (ImGui::SmallButton("reset parameters")) {
    reset_params();
    changed = true;
  }
  return changed;
}

void LightFieldAlgorithm::draw_results() {
  if (!data_->lf.has_gt()) {
    ImGui::TextDisabled("score: this light field has no ground truth");
    return;
  }
  if (scores_.empty()) {
    ImGui::TextDisabled("score: show depth, refined or an error in a pane");
    return;
  }
  // The raw (exact WTA) map's scores at the top level, the refined map's under "refined".
  auto show = [](const nlohmann::json& s, const char* what) {
    ImGui::Text("%s: BadPix 0.07 %.2f %%   0.03 %.2f %%   0.01 %.2f %%", what, s.value("badpix_007", 0.0),
                s.value("badpix_003", 0.0), s.value("badpix_001", 0.0));
    ImGui::Text("MSE x100 %.3f", s.value("mse_x100", 0.0));
    ImGui::TextDisabled("HCI protocol, %d px border, %zu px; %s", s.value("border", 0),
                        s.value("scored_pixels", std::size_t{0}), s.value("scored_with", std::string()).c_str());
  };
  if (scores_.contains("badpix_007")) show(scores_, "depth");
  if (scores_.contains("refined")) show(scores_["refined"], "refined");
}

LightFieldAlgorithm::Params LightFieldAlgorithm::effective(const PaneRun& run) {
  Params p = params_;
  if (!run.override_param.empty()) {
    const auto infos = describe_all(p);
    if (const ParamInfo* info = find_param(infos, run.override_param))
      set_param_value(*info, run.override_value);
  }
  return p;
}

std::string LightFieldAlgorithm::variant_name(const PaneRun& run) const {
  const auto names = variants();
  const int vi = run.variant >= 0 && run.variant < static_cast<int>(names.size()) ? run.variant : variant_;
  return names[vi];
}

std::string LightFieldAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  Params p = effective(run);
  return lb::run_key(runners_.spec(), output, read_values(describe_all(p)), variant_name(run));
}

const gl::GlTextureSurface* LightFieldAlgorithm::input_texture(const std::string& output) const {
  if (output == "centre") return centre_tex_.get();
  if (output == "truth") return data_->lf.has_gt() ? truth_tex_.get() : nullptr;
  return nullptr;
}

RunRequest LightFieldAlgorithm::request(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                                        const std::string& output) {
  Params p = effective(run);
  RunRequest r;
  r.worker = runners_.get(pool, slot);
  r.data = data_;
  r.values = read_values(describe_all(p));
  r.variant = variant_name(run);
  r.output = output;
  const OutputInfo* o = runners_.spec().output(output);
  LB_REQUIRE(o != nullptr, "light field: no output '" + output + "'");
  r.format = o->format;
  return r;
}

void LightFieldAlgorithm::accept(const RunResult& result) {
  const std::string& output = result.request.output;
  if (output == "depth" || output == "error" || output == "refined" || output == "filtered" ||
      output == "refined_error")
    scores_ = result.scores;
}

DisplayHints LightFieldAlgorithm::display(const std::string& output) const {
  DisplayHints h;
  if (output == "depth" || output == "truth" || output == "refined" || output == "filtered") {
    h.has_range = true;
    h.range_min = params_.cae.dmin;
    h.range_max = params_.cae.dmax > params_.cae.dmin ? params_.cae.dmax : params_.cae.dmin + 1.0f;
  } else if (output == "error" || output == "refined_error") {
    h.has_range = true;
    h.range_min = 0.0f;
    h.range_max = 0.5f;  // a quarter of typical ranges: small errors stay visible
  } else if (output == "confidence") {
    h.has_range = true;
    h.range_min = 0.0f;
    h.range_max = 1.0f;
  }
  return h;
}

nlohmann::json LightFieldAlgorithm::run_json(const PaneRun& run) {
  Params p = effective(run);
  nlohmann::json j = read_values(describe_all(p));
  j["variant"] = variant_name(run);
  return j;
}

nlohmann::json LightFieldAlgorithm::results_json() const { return scores_; }

}  // namespace lb::viewer
