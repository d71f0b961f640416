#pragma once
// What an algorithm keeps apart from its spec in the viewer: its data (one section per
// lb::DataKind, shared by every algorithm on that kind of data that registers itself) and the
// panel UI that opens or makes it. Everything else (outputs, variants, parameters, tooltips,
// run keys, runs) comes from the AlgorithmSpec (spec_algorithm.hpp).
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "lightbench/algorithm.hpp"
#include "lightbench/evaluation.hpp"
#include "lightbench/gl/gl_texture_surface.hpp"
#include "lightbench/image.hpp"
#include "data_loader.hpp"
#include "viewer_types.hpp"

namespace lb::viewer {

struct ViewerOptions;

// The panel's live parameters by name, for a section's own widgets (the light field's
// angular pad moves u and v). get() of an unknown name: 0; set() of one: ignored.
struct PanelParams {
  std::function<double(const std::string&)> get;
  std::function<void(const std::string&, double)> set;
};

class DataSection {
 public:
  virtual ~DataSection() = default;
  virtual DataKind kind() const = 0;
  // The current data (nullptr: none yet); a new object whenever it changes.
  virtual std::shared_ptr<const AlgorithmData> data() const = 0;
  // Part of every run key beyond the data's id ("" when the id says it all).
  virtual std::string key() const { return ""; }
  // Panel headers above the Algorithm one (the plenoptic Scene and Grid).
  virtual void draw_headers(DataRequest& req) { (void)req; }
  // Whether the panel's values stay (where the new ranges allow them) when the data changes:
  // a plenoptic grid edit or a new distortion of an image pair keeps them; a new light
  // field or stereo pair starts from the
  // defaults its spec gives for it (its disparity range, count).
  virtual bool keeps_params() const { return false; }
  // Top of the Algorithm section: open / make the data. True when anything changed.
  virtual bool draw(PanelParams& params) = 0;
  // Input outputs whose texture the section holds (no run needed); nullptr otherwise.
  virtual const gl::GlTextureSurface* input_texture(const std::string& output) const {
    (void)output;
    return nullptr;
  }
  // Command-line data (--lf, --stereo, --ref, --raw ..., the bundled scene): starts its read on
  // loader() and returns at once (the viewer applies the rest of the command line when every
  // section's load is in). A failed read keeps or shows the bundled data and reports one line
  // (the load's error, or DataRequest::error from its apply); throws lb::Error only for options
  // that cannot even start (--dist without --ref).
  virtual void open_startup(const ViewerOptions& options) { (void)options; }
  // Data of another kind the command line asks this section to make from its own at start-up
  // (--views UxV: the plenoptic scene as a light field of views; the viewer hands it over);
  // nullptr when it asks none of this section. Throws lb::Error naming the option.
  virtual std::shared_ptr<const AlgorithmData> startup_conversion(const ViewerOptions& options) const {
    (void)options;
    return nullptr;
  }
  virtual bool opens_folders() const { return false; }
  virtual bool opens_files() const { return false; }
  // A folder or file opened from the panel or dropped: starts its load on loader() and
  // returns at once; the data stays until the load is applied (a failure: loader().error()).
  virtual void open_path(const std::string& path) { throw Error("cannot open " + path + " here"); }
  // Loads off the UI thread (data_loader.hpp); the viewer polls every section's each frame.
  DataLoader& loader() { return loader_; }
  const DataLoader& loader() const { return loader_; }
  // Data of this section's kind made elsewhere (DataRequest::hand_over); all-or-nothing.
  virtual void take_data(const std::shared_ptr<const AlgorithmData>& data) {
    (void)data;
    throw Error(std::string("the ") + to_string(kind()) + " section takes no data from elsewhere");
  }
  // Image pairs: the panel asked for the images other algorithms' panes showed (the viewer
  // then hands them over as an ImagePairData through take_data).
  virtual bool take_compare_request() { return false; }
  // Sidecar: top-level blocks (the plenoptic "scene") and the section's own settings that a
  // pane's "params" report (MAD's distortion).
  virtual nlohmann::json data_json() const { return nlohmann::json::object(); }
  virtual nlohmann::json settings_json() const { return nlohmann::json::object(); }
  // Display: an overlay a spec declares for an output (display_decl.hpp). When the panel's
  // switch for it is on ("show the grid", "show the lenses"), fills its geometry from the data
  // into *hints (grid or lenses, micro_grid or lens_overlay set) and returns true; false for
  // a kind this section draws none of.
  virtual bool overlay(OverlayKind kind, DisplayHints* hints) const {
    (void)kind;
    (void)hints;
    return false;
  }
  // Whether this section's algorithm runs on the data (DataRequest::hand_over and the
  // calibrated raws go to the first algorithm of their kind that takes them: the rectangular
  // plenoptic one does not take a scene with a micro-lens geometry).
  virtual bool takes(const AlgorithmData& data) const {
    (void)data;
    return true;
  }
  // The truth with its benchmark's protocol, for scoring foreign maps (foreign_map.hpp):
  // stereo by its layout, a light field by HCI's; null when the data has none.
  virtual const eval::Truth* eval_truth() const { return nullptr; }

 protected:
  DataLoader loader_;
};

// One section per data kind (data_sections/*.cpp).
// general_grid: the section of the general-grid algorithm (scenes with a micro-lens geometry:
// calibrated raws, hexagonal presets; its Geometry header and lens overlay), else the
// rectangular one's (which hands such scenes over).
std::unique_ptr<DataSection> make_plenoptic_section(bool general_grid);
std::unique_ptr<DataSection> make_lightfield_section();
std::unique_ptr<DataSection> make_stereo_section();
std::unique_ptr<DataSection> make_image_pair_section();
std::unique_ptr<DataSection> make_data_section(DataKind kind, bool general_grid = false);

}  // namespace lb::viewer
