// Belief-propagation stereo on CUDA: preprocessing, data cost, pyramid, the message kernel in
// its four storage variants (local / registers / shared / hybrid), copy-down, winner takes
// all; the configs and the device data. The CUDA engine over them: stereo_bp_engine.cpp
// (the warp variant: stereo_bp_warp.cu). See stereo_bp/stereo_cuda.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "cuda_check.cuh"
#include "dynamic_shared.cuh"
#include "cuda_util.hpp"
#include "stereo_bp/stereo_bp_math.hpp"
#include "stereo_bp/stereo_bp_planes.hpp"
#include "lightbench/stereo_io.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"
#include "stereo_device_outputs.hpp"

namespace lb::cuda {

namespace detail {

namespace {

using namespace lb::stereo::bpm;
namespace bpp = lb::stereo::bpp;
using lb::stereo::kBpMaxDisp;

constexpr int kMaxTaps = 40;
struct Taps {
  float t[kMaxTaps];
  int n;
};

// ---- kernels: one thread per pixel, the bodies in stereo_bp/stereo_bp_planes.hpp ----------
using bpp::MsgArgs;

// blockIdx.z: 0 left, 1 right. ntaps == 1: gray only, straight into out.
__global__ void bp_gray_h_kernel(const unsigned char* __restrict__ in, int cl, int cr, int w, int h, Taps taps,
                                 float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int z = blockIdx.z;
  const unsigned char* img = z == 0 ? in : in + static_cast<size_t>(w) * h * cl;
  out[static_cast<size_t>(z) * w * h + static_cast<size_t>(y) * w + x] =
      bpp::gray_h(img, z == 0 ? cl : cr, w, x, y, taps.t, taps.n);
}

__global__ void bp_smooth_v_kernel(const float* __restrict__ in, int w, int h, Taps taps, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const size_t zo = static_cast<size_t>(blockIdx.z) * w * h;
  out[zo + static_cast<size_t>(y) * w + x] = bpp::smooth_v(in + zo, w, h, x, y, taps.t, taps.n);
}

__global__ void bp_cost0_kernel(const float* __restrict__ g, int w, int h, int L, float lambda, float tau,
                                float* __restrict__ D) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  bpp::cost0(g, w, h, L, lambda, tau, D, x, y);
}

__global__ void bp_pyramid_kernel(const float* __restrict__ f, int fw, int fh, float* __restrict__ c, int cw, int ch,
                                  int L) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cw || y >= ch) return;
  bpp::pyramid(f, fw, fh, c, cw, ch, L, x, y);
}

// One checkerboard half-iteration; the message array of each thread per variant (R, LC):
// see bpm::message. Shared slices interleaved: element j of thread t at sh[j * threads + t]
// (consecutive threads hit consecutive banks).
template <int R, int LC>
__global__ void bp_message_kernel(MsgArgs a) {
  extern __shared__ float sh[];
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x = 0;
  if (!bpp::active_pixel(a, static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y, &x)) return;  // no barriers
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  bpp::send_messages<R, LC>(a, x, y, sh + tid, static_cast<int>(blockDim.x * blockDim.y));
}

__global__ void bp_copy_down_kernel(const float* __restrict__ mc, int cw, int ch, float* __restrict__ mf, int fw,
                                    int fh, int L) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= fw || y >= fh) return;
  bpp::copy_down(mc, cw, ch, mf, fw, fh, L, x, y);
}

__global__ void bp_wta_kernel(const float* __restrict__ D, const float* __restrict__ m, int w, int h, int L, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  out[static_cast<size_t>(y) * w + x] = static_cast<float>(bpp::wta(D, m, w, h, L, x, y));
}

// ---- dispatch of the message kernel --------------------------------------------------------
template <int R, int LC>
void launch_msg_t(const MsgArgs& a, dim3 grid, dim3 block, std::size_t shmem, cudaStream_t s) {
  allow_dynamic_shared(bp_message_kernel<R, LC>, shmem);
  bp_message_kernel<R, LC><<<grid, block, shmem, s>>>(a);
}

void launch_msg(const MsgArgs& a, const BpConfig& c, cudaStream_t s) {
  const dim3 block(static_cast<unsigned>(c.block_x), static_cast<unsigned>(c.block_y));
  const dim3 grid(static_cast<unsigned>(((a.w + 1) / 2 + c.block_x - 1) / c.block_x),
                  static_cast<unsigned>((a.h + c.block_y - 1) / c.block_y));
  const std::size_t shmem = static_cast<std::size_t>(a.S) * c.block_x * c.block_y * sizeof(float);
  if (c.store == BpStore::Registers) {
    switch (a.L) {
#define LB_BP_REG(N) \
  case N: launch_msg_t<N, N>(a, grid, block, 0, s); return;
      LB_BP_REG(16) LB_BP_REG(20) LB_BP_REG(21) LB_BP_REG(32) LB_BP_REG(48) LB_BP_REG(60) LB_BP_REG(64)
      LB_BP_REG(128)
#undef LB_BP_REG
      default: LB_THROW("registers: no instance for L = " + std::to_string(a.L));
    }
  }
  switch (c.store == BpStore::Hybrid ? c.reg : 0) {
#define LB_BP_HYB(N) \
  case N: launch_msg_t<N, 0>(a, grid, block, shmem, s); return;
    LB_BP_HYB(0) LB_BP_HYB(4) LB_BP_HYB(8) LB_BP_HYB(12) LB_BP_HYB(16) LB_BP_HYB(24) LB_BP_HYB(32) LB_BP_HYB(48)
#undef LB_BP_HYB
    default: LB_THROW("hybrid: no instance for R = " + std::to_string(c.reg));
  }
}

dim3 grid2(int w, int h, dim3 b, int z = 1) {
  return dim3((static_cast<unsigned>(w) + b.x - 1) / b.x, (static_cast<unsigned>(h) + b.y - 1) / b.y, static_cast<unsigned>(z));
}

}  // namespace

// ---- configs ------------------------------------------------------------------------------
const std::vector<int>& bp_register_instances() {
  static const std::vector<int> v{16, 20, 21, 32, 48, 60, 64, 128};
  return v;
}
const std::vector<int>& bp_hybrid_reg_instances() {
  static const std::vector<int> v{0, 4, 8, 12, 16, 24, 32, 48};
  return v;
}
int bp_hybrid_reg_floor(int r) {
  int best = 0;
  for (int v : bp_hybrid_reg_instances())
    if (v <= r) best = v;
  return best;
}

const char* bp_msg_type_name(BpMsgType t) {
  switch (t) {
    case BpMsgType::F32: return "float";
    case BpMsgType::F16: return "fp16";
    case BpMsgType::BF16: return "bf16";
  }
  return "?";
}
int bp_msg_type_bytes(BpMsgType t) { return t == BpMsgType::F32 ? 4 : 2; }

std::string BpConfig::describe() const {
  const std::string shape = " " + std::to_string(block_x) + "x" + std::to_string(block_y);
  switch (store) {
    case BpStore::Local: return "local" + shape;
    case BpStore::Registers: return "registers" + shape;
    case BpStore::Shared: return "shared" + shape;
    case BpStore::Hybrid: return "hybrid R=" + std::to_string(reg) + " S=" + std::to_string(shared) + shape;
    case BpStore::Warp: return "warp " + std::string(bp_msg_type_name(msg)) + " messages, " + std::to_string(lanes) + " lanes per pixel";
  }
  return "?";
}

std::string BpConfig::name() const {
  switch (store) {
    case BpStore::Local: return "local";
    case BpStore::Registers: return "registers";
    case BpStore::Shared: return "shared";
    case BpStore::Hybrid: return "hybrid:" + std::to_string(reg) + "," + std::to_string(shared);
    case BpStore::Warp:
      return std::string("warp") + (msg == BpMsgType::F16 ? "-fp16" : msg == BpMsgType::BF16 ? "-bf16" : "") + ":" +
             std::to_string(lanes);
  }
  return "?";
}

bool bp_is_auto(const std::string& name) { return name == "auto" || name == "auto:float"; }

std::string bp_fit_config(BpConfig& c, int L, std::size_t max_shared) {
  std::string note;
  if (c.store == BpStore::Shared) {
    c.reg = 0;
    c.shared = L;
  }
  if (c.store == BpStore::Hybrid) {
    const int r = bp_hybrid_reg_floor(std::min(c.reg, L));
    if (r != c.reg) note += "R " + std::to_string(c.reg) + "->" + std::to_string(r) + " ";
    c.reg = r;
    c.shared = std::clamp(c.shared, 0, L - c.reg);
  }
  if (c.store == BpStore::Shared || c.store == BpStore::Hybrid) {
    // Shrink the block until the slices fit.
    while (static_cast<std::size_t>(c.shared) * c.block_x * c.block_y * 4 > max_shared && c.block_y > 1) c.block_y /= 2;
    while (static_cast<std::size_t>(c.shared) * c.block_x * c.block_y * 4 > max_shared && c.block_x > 32) c.block_x /= 2;
    if (static_cast<std::size_t>(c.shared) * c.block_x * c.block_y * 4 > max_shared) {
      const int s = static_cast<int>(max_shared / (4u * c.block_x * c.block_y));
      note += "S " + std::to_string(c.shared) + "->" + std::to_string(s) + " ";
      c.shared = s;
    }
  }
  return note;
}

bool bp_parse_variant(const std::string& name, int L, BpConfig* cfg, bool* fallback) {
  *fallback = false;
  BpConfig c;
  if (name == "local") {
    c.store = BpStore::Local;
  } else if (name == "registers") {
    const auto& v = bp_register_instances();
    if (std::find(v.begin(), v.end(), L) != v.end()) {
      c.store = BpStore::Registers;
    } else {
      c.store = BpStore::Local;
      *fallback = true;
    }
  } else if (name == "shared") {
    c.store = BpStore::Shared;
    c.shared = L;
  } else if (name == "hybrid" || bp_is_auto(name)) {
    return false;
  } else if (name.rfind("warp", 0) == 0) {
    // warp[-fp16|-bf16][:G]
    std::string rest = name.substr(4);
    c.store = BpStore::Warp;
    for (const auto& [suffix, t] : {std::pair<const char*, BpMsgType>{"-fp16", BpMsgType::F16},
                                    std::pair<const char*, BpMsgType>{"-bf16", BpMsgType::BF16},
                                    std::pair<const char*, BpMsgType>{"-float", BpMsgType::F32}})
      if (rest.rfind(suffix, 0) == 0) {
        c.msg = t;
        rest = rest.substr(std::strlen(suffix));
        break;
      }
    const std::vector<int> opts = bp_warp_lane_options(L);
    std::string list;
    for (int g : opts) list += (list.empty() ? "" : ", ") + std::to_string(g);
    if (rest.empty()) {
      c.lanes = bp_warp_default_lanes(L);
    } else {
      int g = -1;
      char tail = 0;
      if (rest[0] != ':' || std::sscanf(rest.c_str() + 1, "%d%c", &g, &tail) != 1)
        throw Error("--variant '" + name + "': use warp, warp-fp16 or warp-bf16, optionally with :G (lanes per pixel: " +
                    list + " for " + std::to_string(L) + " disparities)");
      if (std::find(opts.begin(), opts.end(), g) == opts.end())
        throw Error("--variant '" + name + "': " + std::to_string(g) + " lanes per pixel do not fit " + std::to_string(L) +
                    " disparities (use " + list + ")");
      c.lanes = g;
    }
  } else if (name.rfind("hybrid:", 0) == 0) {
    int r = -1, s = -1;
    char tail = 0;
    if (std::sscanf(name.c_str() + 7, "%d,%d%c", &r, &s, &tail) != 2 || r < 0 || s < 0)
      throw Error("--variant '" + name + "': use hybrid:R,S with R, S >= 0 (values in registers, shared)");
    c.store = BpStore::Hybrid;
    c.reg = r;
    c.shared = s;
  } else {
    throw Error("--variant '" + name +
                "': use auto, auto:float, warp, warp-fp16, warp-bf16 (optionally :G), registers, shared, hybrid, "
                "hybrid:R,S or local");
  }
  *cfg = c;
  return true;
}

// ---- device data ----------------------------------------------------------------------------
BpDevice::BpDevice() {
  int dev = 0, optin = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  max_shared_ = static_cast<std::size_t>(std::max(optin, 48 * 1024));
}

BpDevice::~BpDevice() {
  drop_graph();
  if (h_in_) CUDA_CHECK_PRINT(cudaFreeHost(h_in_));
  if (h_out_) CUDA_CHECK_PRINT(cudaFreeHost(h_out_));
}

void BpDevice::set_pair(const stereo::StereoPair& pair) {
  stereo::validate(pair);
  w_ = pair.left.width;
  h_ = pair.left.height;
  cl_ = pair.left.channels;
  cr_ = pair.right.channels;
  in_bytes_ = pair.left.data.size() + pair.right.data.size();
  if (in_bytes_ > h_in_cap_) {
    if (h_in_) CUDA_CHECK_THROW(cudaFreeHost(h_in_));
    h_in_ = nullptr;
    host_pinned_alloc(reinterpret_cast<void**>(&h_in_), in_bytes_, "the BP input staging");
    h_in_cap_ = in_bytes_;
  }
  std::memcpy(h_in_, pair.left.data.data(), pair.left.data.size());
  std::memcpy(h_in_ + pair.left.data.size(), pair.right.data.data(), pair.right.data.size());
  const std::size_t out = static_cast<std::size_t>(w_) * h_ * sizeof(float);
  if (out > h_out_cap_) {
    if (h_out_) CUDA_CHECK_THROW(cudaFreeHost(h_out_));
    h_out_ = nullptr;
    host_pinned_alloc(reinterpret_cast<void**>(&h_out_), out, "the BP output staging");
    h_out_cap_ = out;
  }
  d_in_.reserve(in_bytes_);
}

void BpDevice::upload(cudaStream_t s) {
  LB_REQUIRE(has_pair(), "stereo bp: no stereo pair loaded");
  CUDA_CHECK_THROW(cudaMemcpyAsync(d_in_.get(), h_in_, in_bytes_, cudaMemcpyHostToDevice, s));
}

void BpDevice::ensure(const stereo::BpParams& p) {
  const std::size_t plane = static_cast<std::size_t>(w_) * h_;
  std::size_t data = 0;
  int w = w_, h = h_;
  for (int k = 0; k < p.levels; ++k, w = (w + 1) / 2, h = (h + 1) / 2) data += static_cast<std::size_t>(w) * h;
  d_gray_.reserve(2 * plane * 4);
  d_tmp_.reserve(2 * plane * 4);
  d_data_.reserve(data * p.ndisp * 4);
  d_msg_.reserve(2 * 4 * plane * p.ndisp * 4);  // two sets (ping-pong between levels)
  d_map_.reserve(plane * 4);
}

std::string BpDevice::graph_key(const stereo::BpParams& p, const BpConfig& c) const {
  std::ostringstream k;
  k << std::hexfloat << w_ << 'x' << h_ << ',' << cl_ << ',' << cr_ << '|' << p.ndisp << ',' << p.levels << ','
    << p.iterations << ',' << p.lambda << ',' << p.tau_data << ',' << p.tau_disc << ',' << p.sigma << '|' << c.name()
    << ',' << c.block_x << 'x' << c.block_y << '|' << d_in_.get() << ',' << d_gray_.get() << ',' << d_tmp_.get()
    << ',' << d_data_.get() << ',' << d_msg_.get() << ',' << d_map_.get();
  return k.str();
}

void BpDevice::drop_graph() {
  if (graph_) CUDA_CHECK_PRINT(cudaGraphExecDestroy(graph_));
  graph_ = nullptr;
  graph_key_.clear();
}

void BpDevice::compute(const stereo::BpParams& p, const BpConfig& c, cudaStream_t s) {
  stereo::validate(p);
  LB_REQUIRE(p.ndisp <= w_, "ndisp: " + std::to_string(p.ndisp) + " disparities exceed the image width " + std::to_string(w_));
  // The key holds the buffer addresses: a run that reallocates changes it (and is never
  // replayed from a stale graph).
  const std::string key = graph_key(p, c);
  if (graph_ && key == graph_key_) {
    CUDA_CHECK_THROW(cudaGraphLaunch(graph_, s));
    return;
  }
  if (!graphs_ok_ || key != last_key_ || s == nullptr) {  // first run of this key: direct (it may allocate)
    launch_all(p, c, s);
    last_key_ = graph_key(p, c);
    return;
  }
  drop_graph();
  cudaGraph_t g = nullptr;
  CUDA_CHECK_THROW(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  try {
    launch_all(p, c, s);
  } catch (...) {
    (void)cudaStreamEndCapture(s, &g);
    if (g) (void)cudaGraphDestroy(g);
    (void)cudaGetLastError();
    graphs_ok_ = false;
    throw;
  }
  CUDA_CHECK_THROW(cudaStreamEndCapture(s, &g));
  const cudaError_t e = cudaGraphInstantiate(&graph_, g, 0);
  CUDA_CHECK_PRINT(cudaGraphDestroy(g));
  if (e != cudaSuccess || graph_key(p, c) != key) {  // cannot replay: run directly from now on
    (void)cudaGetLastError();
    graph_ = nullptr;
    graphs_ok_ = false;
    launch_all(p, c, s);
    return;
  }
  graph_key_ = key;
  CUDA_CHECK_THROW(cudaGraphLaunch(graph_, s));
}

void BpDevice::launch_all(const stereo::BpParams& p, const BpConfig& c, cudaStream_t s) {
  const bool warp = c.store == BpStore::Warp;
  if (warp) {
    const std::size_t plane = static_cast<std::size_t>(w_) * h_;
    d_gray_.reserve(2 * plane * 4);
    d_tmp_.reserve(2 * plane * 4);
    d_map_.reserve(plane * 4);
  } else {
    ensure(p);
  }
  const int L = p.ndisp;
  const dim3 b2(32, 8);
  const std::vector<float> tv = stereo::bp_gaussian_taps(p.sigma);
  Taps taps{};
  taps.n = static_cast<int>(tv.size());
  LB_REQUIRE(taps.n <= kMaxTaps, "sigma: too large for the GPU filter");
  std::copy(tv.begin(), tv.end(), taps.t);
  float* gray = d_gray_.as<float>();
  if (taps.n == 1) {
    bp_gray_h_kernel<<<grid2(w_, h_, b2, 2), b2, 0, s>>>(d_in_.as<unsigned char>(), cl_, cr_, w_, h_, taps, gray);
    CUDA_CHECK_LAUNCH();
  } else {
    bp_gray_h_kernel<<<grid2(w_, h_, b2, 2), b2, 0, s>>>(d_in_.as<unsigned char>(), cl_, cr_, w_, h_, taps,
                                                         d_tmp_.as<float>());
    CUDA_CHECK_LAUNCH();
    bp_smooth_v_kernel<<<grid2(w_, h_, b2, 2), b2, 0, s>>>(d_tmp_.as<float>(), w_, h_, taps, gray);
    CUDA_CHECK_LAUNCH();
  }
  if (warp) {
    bp_warp_run(gray, w_, h_, p, c, d_data_, d_msg_, d_map_.as<float>(), s);
    return;
  }
  // Level geometry and offsets.
  std::vector<int> W{w_}, H{h_};
  std::vector<std::size_t> off{0};
  for (int k = 1; k < p.levels; ++k) {
    off.push_back(off.back() + static_cast<std::size_t>(W.back()) * H.back() * L);
    W.push_back((W.back() + 1) / 2);
    H.push_back((H.back() + 1) / 2);
  }
  float* D = d_data_.as<float>();
  bp_cost0_kernel<<<grid2(w_, h_, b2), b2, 0, s>>>(gray, w_, h_, L, p.lambda, p.tau_data, D);
  CUDA_CHECK_LAUNCH();
  for (int k = 1; k < p.levels; ++k) {
    bp_pyramid_kernel<<<grid2(W[k], H[k], b2), b2, 0, s>>>(D + off[k - 1], W[k - 1], H[k - 1], D + off[k], W[k], H[k],
                                                           L);
    CUDA_CHECK_LAUNCH();
  }
  const std::size_t set = 4 * static_cast<std::size_t>(w_) * h_ * L;
  float* msg = d_msg_.as<float>();
  for (int k = p.levels - 1; k >= 0; --k) {
    float* m = msg + (k % 2) * set;
    const std::size_t plane = static_cast<std::size_t>(W[k]) * H[k];
    if (k == p.levels - 1) {
      CUDA_CHECK_THROW(cudaMemsetAsync(m, 0, 4 * plane * L * sizeof(float), s));
    } else {
      bp_copy_down_kernel<<<grid2(W[k], H[k], b2), b2, 0, s>>>(msg + ((k + 1) % 2) * set, W[k + 1], H[k + 1], m, W[k],
                                                               H[k], L);
      CUDA_CHECK_LAUNCH();
    }
    MsgArgs a{W[k], H[k], L, c.store == BpStore::Shared || c.store == BpStore::Hybrid ? c.shared : 0, 0, plane,
              D + off[k], m, p.tau_disc};
    for (int t = 0; t < p.iterations; ++t) {
      a.parity = t & 1;
      launch_msg(a, c, s);
      CUDA_CHECK_LAUNCH();
    }
  }
  bp_wta_kernel<<<grid2(w_, h_, b2), b2, 0, s>>>(D, msg, w_, h_, L, d_map_.as<float>());
  CUDA_CHECK_LAUNCH();
}

void BpDevice::download(cudaStream_t s) {
  CUDA_CHECK_THROW(cudaMemcpyAsync(h_out_, d_map_.get(), static_cast<std::size_t>(w_) * h_ * 4, cudaMemcpyDeviceToHost, s));
}

void BpDevice::copy_map(ImageF& out) const {
  out = ImageF(w_, h_, 1);
  std::memcpy(out.data.data(), h_out_, out.data.size() * 4);
}

double bp_time_config(BpDevice& dev, const stereo::BpParams& p, const BpConfig& c, int runs, cudaStream_t s,
                      std::string* why) {
  Event a, b;
  std::vector<double> ms;
  try {
    dev.compute(p, c, s);  // warm-up
    for (int i = 0; i < runs; ++i) {
      CUDA_CHECK_THROW(cudaEventRecord(a.get(), s));
      dev.compute(p, c, s);
      CUDA_CHECK_THROW(cudaEventRecord(b.get(), s));
      CUDA_CHECK_THROW(cudaEventSynchronize(b.get()));
      float t = 0;
      CUDA_CHECK_THROW(cudaEventElapsedTime(&t, a.get(), b.get()));
      ms.push_back(t);
    }
  } catch (const Error& e) {
    if (why) *why = e.what();
    (void)cudaGetLastError();
    CUDA_CHECK_PRINT(cudaStreamSynchronize(s));
    return -1.0;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace detail

}  // namespace lb::cuda
