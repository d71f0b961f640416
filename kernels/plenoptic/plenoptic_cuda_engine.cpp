// The plenoptic CUDA engine: the raw image and the render / depth / all-in-focus tables stay
// resident on the device; render, depth and all-in-focus run the variant's kernels and write
// their outputs through write_surface (surface_write.hpp: device writes into a mapped
// surface, or a staging buffer and a host upload), timed with CUDA events.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <deque>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bandwidth.hpp"
#include "cuda_check.cuh"
#include "pass_timer.hpp"
#include "cuda_util.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "plenoptic/render_tables.hpp"
#include "plenoptic/render_launch.hpp"
#include "surface_write.hpp"
#include "plenoptic/depth_launch.hpp"
#include "plenoptic/depth_score.hpp"
#include "plenoptic/plenoptic_depth.hpp"

namespace lb::cuda {

namespace detail {

// ---------------------------------------------------------------------------------------
// PlenopticCudaEngine
// ---------------------------------------------------------------------------------------
class PlenopticCudaEngine final : public PlenopticEngine {
 public:
  explicit PlenopticCudaEngine(int device) : device_(device) {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const DeviceInfo d = device_info(device_);
    LB_REQUIRE(d.available, "CUDA backend: " + d.why);
    name_ = d.name + " (sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ")";
    stream_ = std::make_unique<Stream>();
  }

  ~PlenopticCudaEngine() override {
    if (stream_) CUDA_CHECK_PRINT(cudaStreamSynchronize(stream_->get()));
    passes_.drop();
  }

  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return name_; }
  std::string last_render_fallback() const override { return last_fallback_; }

  void set_raw(const ImageU8& raw) override {
    LB_REQUIRE(!raw.empty(), "raw image is empty");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    raw_ = RawDevice{};
    upload_raw(raw, raw_rgba_, raw_rgb_, raw_, stream_->get());
    raw_w_ = raw.width;
    raw_h_ = raw.height;
    tables_valid_ = false;
    depth_valid_ = false;
    map_valid_ = false;
    aif_valid_ = false;
  }
  bool has_raw() const override { return raw_w_ > 0; }
  int raw_width() const override { return raw_w_; }
  int raw_height() const override { return raw_h_; }

  void render(const PlenopticGrid& grid, const RenderParams& params, const RenderConfig& config,
              Surface& out) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    LB_REQUIRE(out.format() == SurfaceFormat::RGBA8, "render: the output surface must be RGBA8");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    ensure_tables(grid, params);
    const RenderLayout& L = tables_.layout;
    const cudaStream_t s = stream_->get();
    const std::uint64_t in_bpp =
        config.variant == RenderVariant::Original && !config.original.rgba_input ? 3 : 4;
    const std::uint64_t bytes =
        touched_ * in_bpp + static_cast<std::uint64_t>(L.out_w) * L.out_h * 4;

    // Into the mapped surface, or (a surface that takes host images only) into the staging
    // buffer, downloaded and uploaded from the host.
    const bool direct = write_surface(
        out, SurfaceFormat::RGBA8, L.out_w, L.out_h, s, "render",
        [&](const DeviceTarget& t) { launch_timed(bytes, config, output_device(t)); }, &staging_);
    if (!direct) collect(false);
  }

  void synchronize() override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    CUDA_CHECK_THROW(cudaStreamSynchronize(stream_->get()));
    collect(true);
  }

  void set_tuning(const KernelTuning& t) { tuning_ = t; }

  // Depth extraction on the resident raw; the map goes to an R32F surface (device writes
  // when it maps, else a staging buffer and a host upload).
  void depth(const PlenopticGrid& grid, const DepthParams& params, const DepthConfig& config,
             Surface& out) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    LB_REQUIRE(out.format() == SurfaceFormat::R32F, "depth: the output surface must be R32F");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    ensure_depth_tables(grid, params);
    const DepthLayout& L = depth_tables_.layout;
    const cudaStream_t s = stream_->get();
    const std::string name = std::string("depth/") + to_string(config.variant);
    const std::size_t scratch = depth_scratch_bytes(L);
    if (scratch > depth_scratch_.size()) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may still use it
      depth_scratch_.allocate(scratch);
    }
    // The map is written to a device buffer the engine keeps (render_all_in_focus reads
    // it there), then copied to the output by write_surface: into the mapped surface, or
    // into the staging buffer and downloaded when the surface takes host images only. The
    // copy is not part of the timed depth pass.
    depth_map_.resize(static_cast<std::size_t>(L.out_w) * 4, static_cast<std::size_t>(L.out_h));
    OutputDevice m;
    m.kind = OutputDevice::Kind::Pitched;
    m.ptr = depth_map_.get();
    m.pitch = depth_map_.pitch();
    map_valid_ = false;
    launch_timed_fn(name, depth_bytes_, [&] {
      launch_depth(L, depth_dev_tables_, raw_, config.variant, depth_tuning_, depth_scratch_.as<std::uint32_t>(), m, s);
    });
    map_valid_ = true;
    map_grid_ = grid;
    map_params_ = params;
    const bool direct = write_surface(
        out, SurfaceFormat::R32F, L.out_w, L.out_h, s, "depth",
        [&](const DeviceTarget& t) {
          launch_copy_map(static_cast<const float*>(depth_map_.get()), depth_map_.pitch(), L.out_w, L.out_h,
                          output_device(t), s);
        },
        &staging_);
    if (!direct) collect(false);
  }

  void render_all_in_focus(const PlenopticGrid& grid, const RenderParams& render, const DepthParams& depth,
                           Surface& out) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    LB_REQUIRE(out.format() == SurfaceFormat::RGBA8, "all-in-focus: the output surface must be RGBA8");
    LB_REQUIRE(map_valid_ && same_depth_inputs(grid, depth, map_grid_, map_params_),
               "all-in-focus: run depth() with the same grid and depth parameters first");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    ensure_aif_tables(grid, render, depth);
    const AifLayout& L = aif_tables_.layout;
    const cudaStream_t s = stream_->get();
    auto launch = [&](const OutputDevice& o) {
      launch_timed_fn("aif/cuda", aif_tables_.bytes, [&] {
        launch_aif(L, aif_dev_tables_, raw_, static_cast<const float*>(depth_map_.get()), depth_map_.pitch(), o, s);
      });
    };
    const bool direct = write_surface(
        out, SurfaceFormat::RGBA8, L.out_w, L.out_h, s, "all-in-focus",
        [&](const DeviceTarget& t) { launch(output_device(t)); }, &staging_);
    if (!direct) collect(false);
  }

  // A host depth map in place of the last depth() result (render_all_in_focus_cuda, tests):
  // values must be patch sizes pmin..pmax, the size NX*M x NY*M.
  void set_depth_map(const PlenopticGrid& grid, const DepthParams& params, const ImageF& map) {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    validate(params, grid);
    LB_REQUIRE(map.channels == 1 && map.width == depth_width(grid, params) && map.height == depth_height(grid, params),
               "all-in-focus: depth map size does not match the grid and patch size");
    for (float v : map.data)
      LB_REQUIRE(static_cast<float>(static_cast<int>(v)) == v && v >= static_cast<float>(params.pmin) &&
                     v <= static_cast<float>(params.pmax),
                 "all-in-focus: depth map holds a value outside the patch sizes " + std::to_string(params.pmin) +
                     ".." + std::to_string(params.pmax));
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old map
    depth_map_.resize(static_cast<std::size_t>(map.width) * 4, static_cast<std::size_t>(map.height));
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(depth_map_.get(), depth_map_.pitch(), map.data.data(),
                                       static_cast<std::size_t>(map.width) * 4, static_cast<std::size_t>(map.width) * 4,
                                       static_cast<std::size_t>(map.height), cudaMemcpyHostToDevice, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    map_valid_ = true;
    map_grid_ = grid;
    map_params_ = params;
  }

  void set_depth_tuning(const DepthTuning& t) { depth_tuning_ = t; }

  DepthScore score_last_depth(const ImageF& truth) override {
    const cudaStream_t s = prepare_truth(truth, "depth score");
    const DepthScoreSums sums = depth_score_device(static_cast<const float*>(depth_map_.get()), depth_map_.pitch(),
                                                   truth_dev_.as<float>(), truth.width, truth.height, 0, s);
    DepthScore r;
    r.pixels = sums.pixels;
    if (sums.pixels) {
      r.exact_pct = 100.0 * static_cast<double>(sums.exact) / static_cast<double>(sums.pixels);
      r.mae = sums.abs_err / static_cast<double>(sums.pixels);
    }
    return r;
  }

  void last_depth_error(const ImageF& truth, Surface& out) override {
    LB_REQUIRE(out.format() == SurfaceFormat::R32F, "depth error: the output surface must be R32F");
    const cudaStream_t s = prepare_truth(truth, "depth error");
    const int w = truth.width, h = truth.height;
    error_map_.resize(static_cast<std::size_t>(w) * 4, static_cast<std::size_t>(h));
    launch_depth_error(static_cast<const float*>(depth_map_.get()), depth_map_.pitch(), truth_dev_.as<float>(), w,
                       h, static_cast<float*>(error_map_.get()), error_map_.pitch(), s);
    write_surface(
        out, SurfaceFormat::R32F, w, h, s, "depth error",
        [&](const DeviceTarget& t) {
          launch_copy_map(static_cast<const float*>(error_map_.get()), error_map_.pitch(), w, h, output_device(t), s);
        },
        &staging_);
  }

  std::unique_ptr<Surface> scratch_surface(SurfaceFormat format) override {
    return format == SurfaceFormat::R32F ? make_cuda_surface(format) : make_cuda_buffer_surface();
  }

  // The render's memory-traffic floor (bench plenoptic --floor): the raw quads the render of
  // (grid, params) touches, read once each with 16-byte loads in raster order (the touched
  // rows, in each the 16-byte quads of the touched columns), and the seed's simple copy of a
  // buffer of the raw's RGBA size (bytes: read + write).
  bool time_render_floor(const PlenopticGrid& grid, const RenderParams& params) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    collect(false);
    ensure_tables(grid, params);
    const cudaStream_t s = stream_->get();
    if (floor_key_ != floor_key()) {
      const RenderLayout& L = tables_.layout;
      auto touched_set = [](const std::vector<int>& start, int count, int patch, int lim, int size) {
        std::vector<char> hit(static_cast<std::size_t>(size), 0);
        for (int o = 0; o < count; ++o)
          for (int i = -lim; i <= lim; ++i) {
            const int m = o + i;
            if (m < 0 || m >= count) continue;
            for (int a = 0; a < patch; ++a)
              hit[static_cast<std::size_t>(sample_coord(start[static_cast<std::size_t>(m)], a, i, patch, size))] = 1;
          }
        std::vector<int> list;
        for (int v = 0; v < size; ++v)
          if (hit[static_cast<std::size_t>(v)]) list.push_back(v);
        return list;
      };
      floor_rows_ = touched_set(tables_.row_start, L.grid_ny, L.patch, L.lim, L.raw_h);
      floor_quads_.clear();
      for (int c : touched_set(tables_.col_start, L.grid_nx, L.patch, L.lim, L.raw_w))
        if (floor_quads_.empty() || floor_quads_.back() != c / 4) floor_quads_.push_back(c / 4);
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued reads may use the old lists
      floor_lists_.allocate((floor_rows_.size() + floor_quads_.size()) * sizeof(int));
      CUDA_CHECK_THROW(cudaMemcpyAsync(floor_lists_.get(), floor_rows_.data(), floor_rows_.size() * sizeof(int),
                                       cudaMemcpyHostToDevice, s));
      CUDA_CHECK_THROW(cudaMemcpyAsync(floor_lists_.as<int>() + floor_rows_.size(), floor_quads_.data(),
                                       floor_quads_.size() * sizeof(int), cudaMemcpyHostToDevice, s));
      const std::size_t copy_bytes = (static_cast<std::size_t>(raw_w_) * raw_h_ * 4 + 15) / 16 * 16;
      floor_src_.allocate(copy_bytes);
      floor_dst_.allocate(copy_bytes);
      CUDA_CHECK_THROW(cudaMemsetAsync(floor_src_.get(), 0x5a, copy_bytes, s));
      CUDA_CHECK_THROW(cudaMemsetAsync(floor_dst_.get(), 0xa5, copy_bytes, s));
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // the host lists stay valid until copied
      floor_key_ = floor_key();
    }
    const int nrows = static_cast<int>(floor_rows_.size()), nquads = static_cast<int>(floor_quads_.size());
    launch_timed_fn("floor/render: touched quads, 16 B loads",
                    static_cast<std::uint64_t>(nrows) * static_cast<std::uint64_t>(nquads) * 16, [&] {
                      launch_raster_read(raw_.rgba, raw_.rgba_pitch, floor_lists_.as<int>(), nrows,
                                         floor_lists_.as<int>() + nrows, nquads, true, 0, floor_sink_.as<unsigned>(), s);
                    });
    launch_timed_fn("floor/copy (16 B/thread)", 2ull * floor_src_.size(),
                    [&] { launch_copy(floor_src_.get(), floor_dst_.get(), floor_src_.size(), s); });
    return true;
  }


 private:
  void ensure_tables(const PlenopticGrid& g, const RenderParams& p) {
    const bool same = tables_valid_ && g.nx == grid_.nx && g.ny == grid_.ny &&
                      g.pitch == grid_.pitch && g.ox == grid_.ox && g.oy == grid_.oy &&
                      p.patch == params_.patch && p.view_x == params_.view_x &&
                      p.view_y == params_.view_y && p.lim == params_.lim &&
                      p.sigma == params_.sigma;
    if (same) return;
    RenderTablesHost t = build_render_tables(g, p, raw_w_, raw_h_);  // throws when invalid
    const std::uint64_t touched = render_touched_pixels(t);
    const std::size_t nc = t.col_start.size(), nr = t.row_start.size(), nw = t.wx.size();
    const std::size_t bytes = (nc + nr + 2 * nw) * 4;
    const cudaStream_t s = stream_->get();
    // Kernels still queued may read the old tables: reallocation waits for them.
    if (bytes > table_dev_.size()) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));
      table_dev_.allocate(bytes);
    }
    tables_ = std::move(t);
    touched_ = touched;
    grid_ = g;
    params_ = p;
    tables_valid_ = false;
    host_pack_.resize(bytes / 4);
    std::uint32_t* h = host_pack_.data();
    std::size_t off = 0;
    for (int v : tables_.col_start) h[off++] = static_cast<std::uint32_t>(v);
    for (int v : tables_.row_start) h[off++] = static_cast<std::uint32_t>(v);
    for (std::uint32_t v : tables_.wx) h[off++] = v;
    for (std::uint32_t v : tables_.wy) h[off++] = v;
    // Same stream as the kernels: ordered after the ones that read the previous tables.
    // (Pageable source: staged before the call returns, host_pack_ may change afterwards.)
    CUDA_CHECK_THROW(cudaMemcpyAsync(table_dev_.get(), host_pack_.data(), bytes,
                                     cudaMemcpyHostToDevice, s));
    const auto* d = table_dev_.as<std::uint32_t>();
    dev_tables_.col_start = reinterpret_cast<const int*>(d);
    dev_tables_.row_start = reinterpret_cast<const int*>(d + nc);
    dev_tables_.wx = d + nc + nr;
    dev_tables_.wy = d + nc + nr + nw;
    tables_valid_ = true;
  }

  // The render / depth launchers' view of a target write_surface validated.
  static OutputDevice output_device(const DeviceTarget& t) {
    OutputDevice o;
    if (t.kind == DeviceTarget::Kind::SurfaceObject) {
      o.kind = OutputDevice::Kind::Surface;
      o.surface = t.surface;
    } else {
      o.kind = OutputDevice::Kind::Pitched;
      o.ptr = t.ptr;
      o.pitch = t.pitch;
    }
    return o;
  }

  void ensure_aif_tables(const PlenopticGrid& g, const RenderParams& r, const DepthParams& p) {
    const bool same = aif_valid_ && same_depth_inputs(g, p, aif_grid_, aif_params_) && r.view_x == aif_render_.view_x &&
                      r.view_y == aif_render_.view_y && r.lim == aif_render_.lim && r.sigma == aif_render_.sigma;
    if (same) return;
    AifTablesHost t = build_aif_tables(g, r, p, raw_w_, raw_h_);  // throws when invalid
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old tables
    aif_valid_ = false;
    aif_table_dev_.reserve(t.pack.size() * 4);
    CUDA_CHECK_THROW(cudaMemcpyAsync(aif_table_dev_.get(), t.pack.data(), t.pack.size() * 4, cudaMemcpyHostToDevice, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // t.pack is a local
    const auto* d = aif_table_dev_.as<std::uint32_t>();
    aif_dev_tables_.col_start = reinterpret_cast<const int*>(d + t.cs_off);
    aif_dev_tables_.row_start = reinterpret_cast<const int*>(d + t.rs_off);
    aif_dev_tables_.wx = d + t.wx_off;
    aif_dev_tables_.wy = d + t.wy_off;
    aif_tables_ = std::move(t);
    aif_grid_ = g;
    aif_params_ = p;
    aif_render_ = r;
    aif_valid_ = true;
  }

  void ensure_depth_tables(const PlenopticGrid& g, const DepthParams& p) {
    const bool same = depth_valid_ && g.nx == depth_grid_.nx && g.ny == depth_grid_.ny &&
                      g.pitch == depth_grid_.pitch && g.ox == depth_grid_.ox &&
                      g.oy == depth_grid_.oy && p.patch == depth_params_.patch &&
                      p.pmin == depth_params_.pmin && p.pmax == depth_params_.pmax &&
                      p.lim == depth_params_.lim && p.window == depth_params_.window &&
                      p.aperture == depth_params_.aperture;
    if (same) return;
    DepthTablesHost t = build_depth_tables(g, p, raw_w_, raw_h_);  // throws when invalid
    const std::vector<std::uint64_t> pack = pack_depth_tables(t);
    const std::size_t bytes = pack.size() * 8;
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old tables
    depth_valid_ = false;
    depth_table_dev_.reserve(bytes);
    depth_bytes_ = depth_bytes(t);
    depth_tables_ = std::move(t);
    depth_grid_ = g;
    depth_params_ = p;
    CUDA_CHECK_THROW(cudaMemcpyAsync(depth_table_dev_.get(), pack.data(), bytes, cudaMemcpyHostToDevice, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // pack is a local
    depth_dev_tables_ = depth_tables_on_device(depth_table_dev_.get(), depth_tables_);
    depth_valid_ = true;
  }

  // The ground truth on the device (uploaded when it differs from the last one), checked
  // against the last depth map's size. Returns the stream.
  cudaStream_t prepare_truth(const ImageF& truth, const char* what) {
    LB_REQUIRE(map_valid_, std::string(what) + ": no depth map computed yet");
    const int w = depth_width(map_grid_, map_params_), h = depth_height(map_grid_, map_params_);
    LB_REQUIRE(truth.channels == 1 && truth.width == w && truth.height == h,
               std::string(what) + ": depth map " + std::to_string(w) + "x" + std::to_string(h) +
                   " and ground truth " + std::to_string(truth.width) + "x" + std::to_string(truth.height) +
                   " differ in size");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    if (truth_host_.data != truth.data || truth_host_.width != truth.width) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued passes may read the old truth
      truth_dev_.reserve(truth.data.size() * 4);
      // On s: a legacy-stream cudaMemcpy from pageable memory may return before its DMA lands,
      // and s (non-blocking) would not wait for it.
      CUDA_CHECK_THROW(cudaMemcpyAsync(truth_dev_.get(), truth.data.data(), truth.data.size() * 4,
                                       cudaMemcpyHostToDevice, s));
      truth_host_ = truth;
    }
    return s;
  }

  template <class F>
  void launch_timed_fn(const std::string& name, std::uint64_t bytes, F&& enqueue) {
    passes_.timed(name, bytes, stream_->get(), std::forward<F>(enqueue));
  }

  // The render pass, timed under the name of the kernel it ran ("render/tiled", or with its
  // fallback "render/tiled->original"), which last_render_fallback() names too.
  void launch_timed(std::uint64_t bytes, const RenderConfig& config, const OutputDevice& o) {
    const cudaStream_t s = stream_->get();
    passes_.timed_as(bytes, s, [&] {
      const RenderKernel ran = launch_render(tables_.layout, dev_tables_, raw_, config, tuning_, o, s);
      last_fallback_ = render_fallback(config, tuning_, ran);
      return render_kernel_name(config, tuning_, ran);
    });
  }
  void collect(bool wait) { passes_.collect(wait); }

  int device_;
  std::string name_;
  std::unique_ptr<Stream> stream_;
  PitchedBuffer raw_rgba_, raw_rgb_, staging_;
  RawDevice raw_;
  int raw_w_ = 0, raw_h_ = 0;
  KernelTuning tuning_{};
  std::string last_fallback_;  // of the last render (render_fallback)

  // The render's floor (time_render_floor): the touched rows and quads of the tables of
  // floor_key_, on the device in floor_lists_, and the copy's buffers.
  std::string floor_key() const {
    std::ostringstream k;
    k << raw_.rgba << ',' << raw_w_ << 'x' << raw_h_ << '|' << grid_.nx << ',' << grid_.ny << ',' << std::hexfloat
      << grid_.pitch << ',' << grid_.ox << ',' << grid_.oy << '|' << params_.patch << ',' << params_.lim;
    return k.str();
  }
  std::string floor_key_;
  std::vector<int> floor_rows_, floor_quads_;
  DeviceBuffer floor_lists_, floor_src_, floor_dst_, floor_sink_{16};

  bool tables_valid_ = false;
  PlenopticGrid grid_{};
  RenderParams params_{};
  RenderTablesHost tables_;
  std::uint64_t touched_ = 0;
  std::vector<std::uint32_t> host_pack_;
  DeviceBuffer table_dev_;
  TablesDevice dev_tables_;

  // Depth extraction state.
  DepthTuning depth_tuning_{};
  bool depth_valid_ = false;
  PlenopticGrid depth_grid_{};
  DepthParams depth_params_{};
  DepthTablesHost depth_tables_;
  std::uint64_t depth_bytes_ = 0;
  DeviceBuffer depth_table_dev_, depth_scratch_;
  DepthTablesDevice depth_dev_tables_;
  ImageF truth_host_;      // the ground truth truth_dev_ holds (scores, error maps)
  DeviceBuffer truth_dev_;
  PitchedBuffer error_map_;
  PitchedBuffer depth_map_;  // the last depth() map (or set_depth_map), float, pitched
  bool map_valid_ = false;
  PlenopticGrid map_grid_{};
  DepthParams map_params_{};

  // All-in-focus state.
  bool aif_valid_ = false;
  PlenopticGrid aif_grid_{};
  DepthParams aif_params_{};
  RenderParams aif_render_{};
  AifTablesHost aif_tables_;
  DeviceBuffer aif_table_dev_;
  AifTablesDevice aif_dev_tables_;

  PassTimer passes_{timings_};  // after the base's timings_
};

}  // namespace detail

std::unique_ptr<PlenopticEngine> make_plenoptic_engine_cuda(int device) {
  std::string why;
  if (!device_available(&why)) throw Error("CUDA backend: " + why);
  return std::make_unique<detail::PlenopticCudaEngine>(device);
}

void set_depth_tuning(PlenopticEngine& b, const DepthTuning& t) {
  auto* c = dynamic_cast<detail::PlenopticCudaEngine*>(&b);
  LB_REQUIRE(c != nullptr, "set_depth_tuning: not a CUDA backend");
  c->set_depth_tuning(t);
}

ImageU8 render_all_in_focus_cuda(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& render,
                                 const DepthParams& depth, const ImageF& map, int device) {
  std::string why;
  if (!device_available(&why)) throw Error("all-in-focus: " + why);
  detail::PlenopticCudaEngine b(device);
  b.set_raw(raw);
  b.set_depth_map(grid, depth, map);
  HostSurface out(SurfaceFormat::RGBA8);
  b.render_all_in_focus(grid, render, depth, out);
  b.synchronize();
  return out.rgba();
}

void set_kernel_tuning(PlenopticEngine& b, const KernelTuning& t) {
  auto* c = dynamic_cast<detail::PlenopticCudaEngine*>(&b);
  LB_REQUIRE(c != nullptr, "set_kernel_tuning: not a CUDA backend");
  c->set_tuning(t);
}

}  // namespace lb::cuda
