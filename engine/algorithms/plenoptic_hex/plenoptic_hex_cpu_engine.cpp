// The CPU reference engine of the general-grid plenoptic algorithm ("plenoptic-hex"): the
// passes of render_hex_cpu.cpp over the tables of hex_tables.cpp, timed per pass. It keeps the
// last depth map (with the tables it was computed on) for all-in-focus, score and error map.
#include <cmath>
#include <memory>
#include <optional>
#include <tuple>

#include "plenoptic_hex/plenoptic_hex_engine.hpp"
#include "lightbench/error.hpp"
#include "lightbench/parallel.hpp"

namespace lb {
namespace {

class HexCpuEngine final : public HexEngine {
 public:
  explicit HexCpuEngine(int threads) : threads_(threads > 0 ? threads : default_thread_count()) {}
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override { return "CPU reference (" + std::to_string(threads_) + " threads)"; }

  void set_raw(const ImageU8& raw, const MlaGeometry& geometry) override {
    LB_REQUIRE(!raw.empty(), "general-grid engine: the raw is empty");
    auto layout = std::make_unique<MlaLayout>(geometry);  // validates (one line) before anything changes
    raw_ = to_rgba(raw);
    layout_ = std::move(layout);
    render_tables_.reset();
    depth_tables_.reset();
    last_depth_ = ImageF();
  }
  bool has_raw() const override { return !raw_.empty(); }

  void render(const HexRenderParams& p, const HexConfig&, Surface& out) override {
    require_raw();
    validate(p, layout_->geometry());
    const HexTablesHost& t = tables(render_tables_, p.patch, p.rings, p.lens_types);
    ImageU8 img;
    {
      ScopedCpuTimer timer(timings_, "hex render/cpu", frame_bytes(t, 4) + raw_.data.size());
      img = render_hex(raw_, t, p, threads_);
    }
    out.resize(img.width, img.height);
    out.upload_host(img);
  }

  void depth(const HexDepthParams& p, const HexConfig&, Surface& out) override {
    require_raw();
    LB_REQUIRE(out.format() == SurfaceFormat::R32F, "depth: the output surface must be R32F");
    validate(p, layout_->geometry());
    last_depth_ = ImageF();  // a failed pass leaves no map whose tables were replaced
    // A depth pass owns its tables (aif renders on them later), so it never shares the
    // render's cache slot.
    const HexTablesHost& t = tables(depth_tables_, p.patch, p.rings, p.lens_types);
    ImageF img;
    {
      const std::uint64_t n = static_cast<std::uint64_t>(p.pmax - p.pmin + 1);
      ScopedCpuTimer timer(timings_, "hex depth/cpu", frame_bytes(t, 4 * (n + 1)) + raw_.data.size());
      img = depth_hex(raw_, t, p, threads_);
    }
    out.resize(img.width, img.height);
    out.upload_host(img);
    last_depth_ = std::move(img);
    last_params_ = p;
  }

  void render_all_in_focus(const HexRenderParams& p, const HexConfig&, Surface& out) override {
    require_raw();
    LB_REQUIRE(out.format() == SurfaceFormat::RGBA8, "all-in-focus: the output surface must be RGBA8");
    LB_REQUIRE(!last_depth_.empty() && depth_tables_, "all-in-focus: no depth map computed yet");
    // The depth's frame, reach and lens types; the view and sigma of p.
    HexRenderParams r = p;
    r.patch = last_params_.patch;
    r.rings = last_params_.rings;
    r.lens_types = last_params_.lens_types;
    validate(r, layout_->geometry());
    ImageU8 img;
    {
      ScopedCpuTimer timer(timings_, "hex aif/cpu", frame_bytes(depth_tables_->t, 8) + raw_.data.size());
      img = render_all_in_focus_hex(raw_, depth_tables_->t, r, last_depth_, threads_);
    }
    out.resize(img.width, img.height);
    out.upload_host(img);
  }

  DepthScore score_last_depth(const ImageF& truth) override {
    LB_REQUIRE(!last_depth_.empty(), "depth score: no depth map computed yet");
    return score_hex_depth(last_depth_, truth);
  }

  void last_depth_error(const ImageF& truth, Surface& out) override {
    LB_REQUIRE(!last_depth_.empty(), "depth error: no depth map computed yet");
    LB_REQUIRE(last_depth_.same_shape(truth), "depth error: the depth map (" + std::to_string(last_depth_.width) +
                                                  "x" + std::to_string(last_depth_.height) + ") and the truth (" +
                                                  std::to_string(truth.width) + "x" + std::to_string(truth.height) +
                                                  ") differ in size");
    ImageF err(truth.width, truth.height, 1);
    for (std::size_t i = 0; i < err.data.size(); ++i) err.data[i] = std::abs(last_depth_.data[i] - truth.data[i]);
    out.resize(err.width, err.height);
    out.upload_host(err);
  }

 private:
  // Tables of one (patch, rings, lens_types): building them costs a few ms (spacings and
  // covering radii per type mask), so a slider drag that changes only the view reuses them.
  struct Cached {
    std::tuple<int, int, int> key;
    HexTablesHost t;
  };

  void require_raw() const { LB_REQUIRE(has_raw(), "general-grid engine: no raw image loaded"); }

  const HexTablesHost& tables(std::optional<Cached>& slot, int patch, int rings, int lens_types) {
    const auto key = std::make_tuple(patch, rings, lens_types);
    if (!slot || slot->key != key)
      slot = Cached{key, build_hex_tables(*layout_, raw_.width, raw_.height, patch, rings, lens_types)};
    return slot->t;
  }

  static std::uint64_t frame_bytes(const HexTablesHost& t, std::uint64_t per_pixel) {
    return static_cast<std::uint64_t>(t.frame.width) * t.frame.height * per_pixel;
  }

  int threads_;
  ImageU8 raw_;
  std::unique_ptr<MlaLayout> layout_;
  std::optional<Cached> render_tables_, depth_tables_;
  ImageF last_depth_;           // the map of the last depth() call
  HexDepthParams last_params_;  // and its parameters (depth_tables_ are its tables)
};

}  // namespace

std::unique_ptr<HexEngine> make_hex_engine_cpu(int threads) { return std::make_unique<HexCpuEngine>(threads); }

}  // namespace lb
