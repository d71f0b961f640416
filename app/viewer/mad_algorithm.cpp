#include "mad_algorithm.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/render_cpu.hpp"
#include "lightbench/render_tables.hpp"
#include "options.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

const char* kDistortions[] = {"none (as loaded)", "Gaussian blur", "white noise", "JPEG", "contrast"};
const char* kStrengthHelp[] = {"", "blur sigma (pixels)", "noise standard deviation (gray levels)",
                               "100 - JPEG quality", "contrast reduction (0..1)"};
const double kStrengthMax[] = {1.0, 8.0, 64.0, 99.0, 1.0};

}  // namespace

MadAlgorithm::MadAlgorithm()
    : ref_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      dist_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)) {
  ref_tex_->set_interop_enabled(false, "image-pair texture");
  dist_tex_->set_interop_enabled(false, "image-pair texture");
  // The bundled reference: the CPU render of the bundled plenoptic scene (440 x 330).
  const GeneratedScene s = generate_scene(bundled_mad_reference());  // assets/mad/default_distortion.json
  const RenderParams p = default_render_params(s.params.grid);
  const ImageU8 view = render_cpu(to_rgba(s.raw), build_render_tables(s.params.grid, p, s.raw.width, s.raw.height));
  set_images(to_rgb(view), ImageU8{}, "render of the bundled plenoptic scene");
  spec_params_.reset(runners_.spec().params(data_.get()));
}

MadAlgorithm::~MadAlgorithm() = default;

bool MadAlgorithm::ready(std::string* why) const {
  if (!reference_.empty() && !distorted_.empty()) return true;
  if (why) *why = "no image pair";
  return false;
}

void MadAlgorithm::set_images(const ImageU8& reference, const ImageU8& distorted, const std::string& source) {
  LB_REQUIRE(!reference.empty(), "MAD: empty reference image");
  LB_REQUIRE(reference.width >= 34 && reference.height >= 34,
             "MAD: images must be at least 34x34, the reference is " + std::to_string(reference.width) +
                 "x" + std::to_string(reference.height));
  if (!distorted.empty())
    LB_REQUIRE(distorted.width == reference.width && distorted.height == reference.height,
               "MAD: the images differ in size (" + std::to_string(reference.width) + "x" +
                   std::to_string(reference.height) + " vs " + std::to_string(distorted.width) + "x" +
                   std::to_string(distorted.height) + ")");
  auto rt = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
  rt->set_interop_enabled(false, "image-pair texture");
  rt->upload_host(to_rgba(reference));
  reference_ = reference;
  loaded_distorted_ = distorted;
  ref_tex_ = std::move(rt);
  source_ = source;
  params_.distortion = distorted.empty() ? std::max(1, params_.distortion) : 0;
  distorted_key_.clear();
  refresh_distorted();
}

void MadAlgorithm::open(const std::string& reference_path, const std::string& distorted_path) {
  const ImageU8 r = load_image(reference_path);
  const ImageU8 d = distorted_path.empty() ? ImageU8{} : load_image(distorted_path);
  set_images(r, d, reference_path + (distorted_path.empty() ? "" : " vs " + distorted_path));
}

void MadAlgorithm::refresh_distorted() {
  std::ostringstream k;
  k << std::hexfloat << params_.distortion << ',' << params_.strength << ',' << params_.seed << ','
    << static_cast<const void*>(reference_.data.data()) << ',' << source_;
  if (k.str() == distorted_key_ && !distorted_.empty()) return;
  if (params_.distortion == 0) {
    distorted_ = loaded_distorted_.empty() ? reference_ : loaded_distorted_;
  } else {
    const DistortKind kind = all_distort_kinds()[static_cast<std::size_t>(params_.distortion - 1)];
    distorted_ = distort(reference_, kind, params_.strength, static_cast<std::uint64_t>(params_.seed));
  }
  dist_tex_->upload_host(to_rgba(distorted_));
  distorted_key_ = k.str();
  auto data = std::make_shared<ImagePairData>();
  data->reference = reference_;
  data->distorted = distorted_;
  data->source = source_;
  data_ = std::move(data);
  scores_ = nlohmann::json::object();
}

void MadAlgorithm::open_startup(const ViewerOptions& options) {
  if (options.ref.empty()) return;
  try {
    open(options.ref, options.dist);
  } catch (const std::exception& e) {
    throw Error(std::string("cannot open the image pair: ") + e.what() + " (showing the bundled one)");
  }
}

std::vector<std::string> MadAlgorithm::variants() const { return mad_spec().variant_names(); }

void MadAlgorithm::set_variant(int index) {
  if (index >= 0 && index < static_cast<int>(variants().size())) variant_ = index;
}

std::vector<AlgorithmOutput> MadAlgorithm::outputs() const {
  return {{"hi", "detection map HI (visible distortion x local error)", SurfaceFormat::R32F},
          {"lo", "appearance map LO (change of log-Gabor statistics)", SurfaceFormat::R32F},
          {"distorted", "distorted image", SurfaceFormat::RGBA8, true},
          {"reference", "reference image", SurfaceFormat::RGBA8, true}};
}

std::vector<ParamInfo> MadAlgorithm::live_params() {
  using K = ParamInfo::Kind;
  const int d = std::clamp(params_.distortion, 0, 4);
  std::vector<ParamInfo> v = {
      {"strength", "strength", kStrengthHelp[d], K::Float, &params_.strength, 0.0, kStrengthMax[d]},
      {"seed", "noise seed", "seed of the white noise", K::Int, &params_.seed, 1, 1000}};
  // The spec's own parameters (eight_bit), which the runner gets.
  for (const auto& p : spec_params_.infos()) v.push_back(p);
  return v;
}

void MadAlgorithm::reset_params() {
  params_ = Params{};
  spec_params_.reset(runners_.spec().params(data_.get()));
}

bool MadAlgorithm::draw_controls() {
  bool changed = false;
  ImGui::TextWrapped("reference: %s", source_.c_str());
  ImGui::TextDisabled("%d x %d", reference_.width, reference_.height);
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##madref", "reference image path", &ref_field_);
  ImGui::SetNextItemWidth(-60);
  ImGui::InputTextWithHint("##maddist", "distorted image path (empty: generate)", &dist_field_);
  ImGui::SameLine();
  if (ImGui::Button("Open##mad") && !ref_field_.empty()) {
    try {
      open(ref_field_, dist_field_);
      open_error_.clear();
      changed = true;
    } catch (const std::exception& e) {
      open_error_ = e.what();  // the current pair stays
    }
  }
  if (ImGui::SmallButton("compare the panes of another algorithm")) compare_requested_ = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Switch to another algorithm, set its panes (e.g. A: view on the CPU,\n"
                      "B: view on CUDA NoSync), come back and click: A becomes the reference,\n"
                      "B the distorted image.");
  error_line(open_error_);
  ImGui::SetNextItemWidth(180);
  if (ImGui::Combo("distortion", &params_.distortion, kDistortions, 5)) {
    params_.strength = std::min(params_.strength, static_cast<float>(kStrengthMax[params_.distortion]));
    changed = true;
  }
  changed |= param_sliders(live_params());
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("statistics kernel");
  ImGui::SameLine();
  const auto names = variants();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##madvariant", names[variant_].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == variant_)) {
        variant_ = i;
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("local statistics of the 40 log-Gabor responses: gather (per-thread local\n"
                      "memory), shared (shared tile), shared_nc (no bank conflicts), fused (all\n"
                      "moments in one pass). The CPU backend runs the double reference.");
  if (changed) {
    try {
      refresh_distorted();
    } catch (const std::exception& e) {
      open_error_ = e.what();
    }
  }
  return changed;
}

void MadAlgorithm::draw_results() {
  if (scores_.empty()) {
    ImGui::TextDisabled("MAD: show hi or lo in a pane");
    return;
  }
  ImGui::Text("MAD %.4f   (0: identical; higher: worse)", scores_.value("mad", 0.0));
  ImGui::Text("d_detect %.6g   d_appear %.5g", scores_.value("d_detect", 0.0), scores_.value("d_appear", 0.0));
  ImGui::TextDisabled("%s, %.2f ms%s", scores_.value("ran", std::string()).c_str(), scores_.value("ms", 0.0),
                      scores_.value("cropped_odd", false) ? ", odd size: last row/column left out" : "");
}

std::string MadAlgorithm::variant_name(const PaneRun& run) const {
  const auto names = variants();
  const int vi = run.variant >= 0 && run.variant < static_cast<int>(names.size()) ? run.variant : variant_;
  return names[vi];
}

std::string MadAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  if (output == "reference" || output == "distorted") return output + "|" + distorted_key_;
  return lb::run_key(runners_.spec(), output, spec_values(run), variant_name(run)) + "|" + distorted_key_;
}

ParamValues MadAlgorithm::spec_values(const PaneRun& run) const {
  ParamValues v = spec_params_.values();
  if (v.count(run.override_param)) v[run.override_param] = run.override_value;
  return v;
}

const gl::GlTextureSurface* MadAlgorithm::input_texture(const std::string& output) const {
  if (output == "reference") return ref_tex_.get();
  if (output == "distorted") return dist_tex_.get();
  return nullptr;
}

RunRequest MadAlgorithm::request(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                                 const std::string& output) {
  LB_REQUIRE(output == "hi" || output == "lo", "MAD: no output '" + output + "'");
  LB_REQUIRE(data_ != nullptr, "MAD: no image pair");
  RunRequest r;
  r.worker = runners_.get(pool, slot);
  r.data = data_;
  r.values = spec_values(run);
  r.variant = variant_name(run);
  r.output = output;
  r.format = SurfaceFormat::R32F;
  return r;
}

void MadAlgorithm::accept(const RunResult& result) { scores_ = result.scores; }

DisplayHints MadAlgorithm::display(const std::string& output) const {
  DisplayHints h;
  if (output == "hi" || output == "lo") {
    h.has_range = true;
    h.range_min = 0.0f;
    // The 99.5th percentile of the map (heavy tails), as the runner measured it.
    const float q = scores_.value(output == "hi" ? "hi_p995" : "lo_p995", 1.0f);
    h.range_max = q > 0 ? q : 1.0f;
  }
  return h;
}

nlohmann::json MadAlgorithm::run_json(const PaneRun& run) {
  nlohmann::json j = spec_values(run);
  j.update(nlohmann::json{{"variant", variant_name(run)},
          {"distortion", kDistortions[std::clamp(params_.distortion, 0, 4)]},
          {"strength", params_.strength},
          {"seed", params_.seed}});
  return j;
}

nlohmann::json MadAlgorithm::results_json() const {
  if (scores_.empty()) return nlohmann::json::object();
  return {{"mad", scores_.value("mad", 0.0)},
          {"d_detect", scores_.value("d_detect", 0.0)},
          {"d_appear", scores_.value("d_appear", 0.0)},
          {"ms", scores_.value("ms", 0.0)},
          {"ran", scores_.value("ran", std::string())}};
}

}  // namespace lb::viewer
