// The general-grid plenoptic CUDA engine ("plenoptic-hex", issue 22): the raw (RGBA8) stays
// resident on the device; the tables of a (patch, rings, lens_types) are built on the host
// (build_hex_tables, the CPU reference's own) and uploaded only when that key or the raw
// changes, one slot for render and one for depth (all-in-focus renders on the depth's, as
// the CPU engine does). Outputs go through write_surface straight from device memory; every
// pass is timed with CUDA events ("hex render/<variant>", "hex depth/<variant>",
// "hex aif/<variant>") with the bytes it must move (distinct raw pixels read x 4 + its
// output, hex_touched_*).
#include <cuda_runtime_api.h>

#include <cmath>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cuda_check.cuh"
#include "pass_timer.hpp"
#include "cuda_util.hpp"
#include "plenoptic/depth_score.hpp"
#include "device_plane.hpp"
#include "plenoptic_hex/hex_launch.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic_hex/plenoptic_hex_engine.hpp"
#include "plenoptic_hex/hex_depth_math.hpp"
#include "surface_write.hpp"

namespace lb::cuda {

namespace detail {
namespace {

using Key = std::tuple<int, int, int>;  // patch, rings, lens_types

// One table slot: the device tables of a key, and the touched-pixel counts measured on them.
struct Slot {
  std::optional<Key> key;
  HexTablesDevice dev;
  std::optional<std::tuple<int, int, float, std::uint64_t>> depth_touched;  // pmin, pmax, ap2 -> count
  std::optional<std::pair<int, std::uint64_t>> render_touched;             // P -> count
};

class HexCudaEngine final : public HexEngine {
 public:
  explicit HexCudaEngine(int device) : device_(device) {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const DeviceInfo d = device_info(device_);
    LB_REQUIRE(d.available, "CUDA backend: " + d.why);
    name_ = d.name + " (sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ")";
    stream_ = std::make_unique<Stream>();
  }
  ~HexCudaEngine() override {
    if (stream_) CUDA_CHECK_PRINT(cudaStreamSynchronize(stream_->get()));
  }

  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return name_; }

  void set_raw(const ImageU8& raw, const MlaGeometry& geometry) override {
    LB_REQUIRE(!raw.empty(), "general-grid engine: the raw is empty");
    auto layout = std::make_unique<MlaLayout>(geometry);  // validates before anything changes
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old raw
    collect(true);
    raw_w_ = raw_h_ = 0;
    raw_img_.upload(to_rgba(raw), s);  // synchronises
    raw_w_ = raw.width;
    raw_h_ = raw.height;
    layout_ = std::move(layout);
    render_slot_.key.reset();
    depth_slot_.key.reset();
    map_valid_ = false;
  }
  bool has_raw() const override { return raw_w_ > 0 && layout_ != nullptr; }

  void render(const HexRenderParams& p, const HexConfig& config, Surface& out) override {
    require_raw();
    LB_REQUIRE(out.format() == SurfaceFormat::RGBA8, "render: the output surface must be RGBA8");
    validate(p, layout_->geometry());
    const HexVariant v = parse_hex_variant(config.variant);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    Slot& slot = tables(render_slot_, p.patch, p.rings, p.lens_types);
    const hex::HexLayout& L = slot.dev.layout;
    const std::uint64_t bytes = touched_render(slot, L.patch) * 4 + out_pixels(L) * 4;
    const float inv2s2 = hex_inv2s2(p.sigma);
    const cudaStream_t s = stream_->get();
    const bool direct = write_surface(
        out, SurfaceFormat::RGBA8, L.out_w, L.out_h, s, "render",
        [&](const DeviceTarget& t) {
          timed(std::string("hex render/") + to_string(v), bytes,
                [&] { launch_hex_render(v, slot.dev, raw(), L.patch, p.view_x, p.view_y, inv2s2, t, s); });
        },
        &staging_);
    if (!direct) collect(false);
  }

  void depth(const HexDepthParams& p, const HexConfig& config, Surface& out) override {
    require_raw();
    LB_REQUIRE(out.format() == SurfaceFormat::R32F, "depth: the output surface must be R32F");
    validate(p, layout_->geometry());
    const HexVariant v = parse_hex_variant(config.variant);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    const cudaStream_t s = stream_->get();
    map_valid_ = false;  // the slot and the map change below
    Slot& slot = tables(depth_slot_, p.patch, p.rings, p.lens_types);
    const hex::HexLayout& L = slot.dev.layout;
    const float ap2 = hex_aperture2(L, p.aperture);
    const std::size_t scratch = hex_depth_scratch_bytes(L, p.pmin, p.pmax, p.window);
    if (scratch > scratch_.size()) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may still use it
      scratch_.allocate(scratch, "the depth cost volume");
    }
    if (depth_map_.get() == nullptr || depth_map_.width_bytes() != static_cast<std::size_t>(L.out_w) * 4 ||
        depth_map_.height() != static_cast<std::size_t>(L.out_h)) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old map
      depth_map_.resize(static_cast<std::size_t>(L.out_w) * 4, static_cast<std::size_t>(L.out_h), "the depth map");
    }
    // Raw pixels read + the map written (+ the cost volume written and read back, window > 1).
    const std::uint64_t bytes = touched_depth(slot, p.pmin, p.pmax, ap2) * 4 + out_pixels(L) * 4 + 2 * scratch;
    timed(std::string("hex depth/") + to_string(v), bytes, [&] {
      launch_hex_depth(v, slot.dev, raw(), p.pmin, p.pmax, ap2, hex::pair_cap(p.truncate), p.window,
                       scratch_.as<std::uint32_t>(),
                       static_cast<float*>(depth_map_.get()), depth_map_.pitch(), s);
    });
    map_valid_ = true;
    map_params_ = p;
    const bool direct = write_surface_r32f(out, map_plane(), s, &staging_);
    if (!direct) collect(false);
  }

  void render_all_in_focus(const HexRenderParams& p, const HexConfig& config, Surface& out) override {
    require_raw();
    LB_REQUIRE(out.format() == SurfaceFormat::RGBA8, "all-in-focus: the output surface must be RGBA8");
    LB_REQUIRE(map_valid_ && depth_slot_.key, "all-in-focus: no depth map computed yet");
    // The depth's frame, reach and lens types; the view and sigma of p.
    HexRenderParams r = p;
    r.patch = map_params_.patch;
    r.rings = map_params_.rings;
    r.lens_types = map_params_.lens_types;
    validate(r, layout_->geometry());
    const HexVariant v = parse_hex_variant(config.variant);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    Slot& slot = depth_slot_;
    const hex::HexLayout& L = slot.dev.layout;
    // Map read + image written + the raw pixels the largest candidate reads.
    const std::uint64_t bytes = touched_render(slot, map_params_.pmax) * 4 + out_pixels(L) * 8;
    const float inv2s2 = hex_inv2s2(r.sigma);
    const cudaStream_t s = stream_->get();
    const bool direct = write_surface(
        out, SurfaceFormat::RGBA8, L.out_w, L.out_h, s, "all-in-focus",
        [&](const DeviceTarget& t) {
          timed(std::string("hex aif/") + to_string(v), bytes, [&] {
            launch_hex_aif(v, slot.dev, raw(), static_cast<const float*>(depth_map_.get()), depth_map_.pitch(),
                           r.view_x, r.view_y, inv2s2, t, s);
          });
        },
        &staging_);
    if (!direct) collect(false);
  }

  DepthScore score_last_depth(const ImageF& truth) override {
    const cudaStream_t s = prepare_truth(truth, "depth score");
    const HexScoreSums sums =
        hex_score_device(static_cast<const float*>(depth_map_.get()), depth_map_.pitch(), truth_dev_.as<float>(),
                         truth.width, truth.height, s);
    DepthScore r;
    r.pixels = sums.pixels;
    r.exact_pct = sums.pixels ? 100.0 * static_cast<double>(sums.exact) / static_cast<double>(sums.pixels) : 0.0;
    r.mae = sums.with ? sums.abs_err / static_cast<double>(sums.with) : 0.0;
    return r;
  }

  void last_depth_error(const ImageF& truth, Surface& out) override {
    LB_REQUIRE(out.format() == SurfaceFormat::R32F, "depth error: the output surface must be R32F");
    const cudaStream_t s = prepare_truth(truth, "depth error");
    const int w = truth.width, h = truth.height;
    error_map_.resize(static_cast<std::size_t>(w) * 4, static_cast<std::size_t>(h), "the depth error map");
    launch_depth_error(static_cast<const float*>(depth_map_.get()), depth_map_.pitch(), truth_dev_.as<float>(), w, h,
                       static_cast<float*>(error_map_.get()), error_map_.pitch(), s);
    write_surface_r32f(out, DeviceFloatPlane{static_cast<const float*>(error_map_.get()), error_map_.pitch(), w, h},
                       s, &staging_);
  }

  std::unique_ptr<Surface> scratch_surface(SurfaceFormat format) override {
    return format == SurfaceFormat::R32F ? make_cuda_surface(format) : make_cuda_buffer_surface();
  }

  void synchronize() override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    CUDA_CHECK_THROW(cudaStreamSynchronize(stream_->get()));
    collect(true);
  }

 private:
  void require_raw() const { LB_REQUIRE(has_raw(), "general-grid engine: no raw image loaded"); }

  HexRawDevice raw() const {
    return HexRawDevice{reinterpret_cast<const std::uint8_t*>(raw_img_.data()), raw_img_.pitch(), raw_w_, raw_h_};
  }
  static std::uint64_t out_pixels(const hex::HexLayout& L) {
    return static_cast<std::uint64_t>(L.out_w) * static_cast<std::uint64_t>(L.out_h);
  }
  DeviceFloatPlane map_plane() const {
    return DeviceFloatPlane{static_cast<const float*>(depth_map_.get()), depth_map_.pitch(),
                            static_cast<int>(depth_map_.width_bytes() / 4), static_cast<int>(depth_map_.height())};
  }

  // The slot's tables for the key, rebuilt and uploaded only when it changed (the upload
  // waits for queued passes that read the old ones).
  Slot& tables(Slot& slot, int patch, int rings, int lens_types) {
    const Key key{patch, rings, lens_types};
    if (slot.key && *slot.key == key) return slot;
    const HexTablesHost t = build_hex_tables(*layout_, raw_w_, raw_h_, patch, rings, lens_types);
    slot.key.reset();
    slot.render_touched.reset();
    slot.depth_touched.reset();
    upload_hex_tables(t, slot.dev, stream_->get());
    slot.key = key;
    return slot;
  }

  std::uint64_t touched_render(Slot& slot, int P) {
    if (!slot.render_touched || slot.render_touched->first != P)
      slot.render_touched = std::make_pair(P, hex_touched_render(slot.dev, raw(), P, stream_->get()));
    return slot.render_touched->second;
  }
  std::uint64_t touched_depth(Slot& slot, int pmin, int pmax, float ap2) {
    if (!slot.depth_touched || std::get<0>(*slot.depth_touched) != pmin || std::get<1>(*slot.depth_touched) != pmax ||
        std::get<2>(*slot.depth_touched) != ap2)
      slot.depth_touched = std::make_tuple(pmin, pmax, ap2, hex_touched_depth(slot.dev, raw(), pmin, pmax, ap2,
                                                                               stream_->get()));
    return std::get<3>(*slot.depth_touched);
  }

  // The truth on the device (uploaded when it differs from the last one), checked against the
  // last depth map's size. Returns the stream.
  cudaStream_t prepare_truth(const ImageF& truth, const char* what) {
    LB_REQUIRE(map_valid_, std::string(what) + ": no depth map computed yet");
    const int w = static_cast<int>(depth_map_.width_bytes() / 4), h = static_cast<int>(depth_map_.height());
    LB_REQUIRE(truth.channels == 1 && truth.width == w && truth.height == h,
               std::string(what) + ": the depth map (" + std::to_string(w) + "x" + std::to_string(h) +
                   ") and the truth (" + std::to_string(truth.width) + "x" + std::to_string(truth.height) +
                   ") differ in size");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    if (truth_host_.data != truth.data || truth_host_.width != truth.width) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old truth
      truth_dev_.reserve(truth.data.size() * 4, "the depth truth");
      CUDA_CHECK_THROW(cudaMemcpyAsync(truth_dev_.get(), truth.data.data(), truth.data.size() * 4,
                                       cudaMemcpyHostToDevice, s));
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));
      truth_host_ = truth;
    }
    return s;
  }

  template <class F>
  void timed(const std::string& name, std::uint64_t bytes, F&& enqueue) {
    passes_.timed(name, bytes, stream_->get(), std::forward<F>(enqueue));
  }
  void collect(bool wait) { passes_.collect(wait); }

  int device_;
  std::string name_;
  std::unique_ptr<Stream> stream_;
  DeviceImage<uchar4> raw_img_;
  int raw_w_ = 0, raw_h_ = 0;
  std::unique_ptr<MlaLayout> layout_;
  Slot render_slot_, depth_slot_;
  DeviceBuffer scratch_, truth_dev_;
  PitchedBuffer depth_map_, error_map_, staging_;
  bool map_valid_ = false;
  HexDepthParams map_params_{};
  ImageF truth_host_;
  PassTimer passes_{timings_};  // after the base's timings_
};

}  // namespace
}  // namespace detail

std::unique_ptr<HexEngine> make_hex_engine_cuda(int device) {
  std::string why;
  if (!device_available(&why)) throw Error("CUDA backend: " + why);
  return std::make_unique<detail::HexCudaEngine>(device);
}

}  // namespace lb::cuda
