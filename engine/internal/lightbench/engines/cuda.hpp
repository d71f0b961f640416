#pragma once
// INTERNAL (lb_engine_internal): the CUDA engines behind the CUDA runners, defined in
// lb_kernels (CUDA builds only; there are no stubs). kernels/runners.cpp hands them to the
// runners; the benchmarks and tests/gpu drive them directly. Each throws lb::Error naming
// why when CUDA is unusable.
#include <memory>
#include <string>

#include "lightfield/lightfield_engine.hpp"
#include "mad/mad_engine.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "plenoptic_hex/plenoptic_hex_engine.hpp"
#include "lightbench/engines/stereo.hpp"

namespace lb::cuda {

struct KernelTuning;  // lightbench/cuda_api.hpp
struct DepthTuning;

// Plenoptic (kernels/plenoptic/plenoptic_cuda_engine.cpp): render, depth and all-in-focus kernels, the
// raw resident on `device`.
std::unique_ptr<PlenopticEngine> make_plenoptic_engine_cuda(int device = 0);
// Launch shapes used by a CUDA plenoptic engine's later renders / depth passes (throws if e
// is not one).
void set_kernel_tuning(PlenopticEngine& e, const KernelTuning& t);
void set_depth_tuning(PlenopticEngine& e, const DepthTuning& t);
// General micro-lens grids (hexagonal, multi-focus; kernels/plenoptic_hex/hex_cuda_engine.cpp): the same
// bits as the CPU reference (hex_math.hpp), the raw resident on `device`.
std::unique_ptr<HexEngine> make_hex_engine_cuda(int device = 0);

// Light field (kernels/lightfield/cae_estimator.cpp): set_lightfield() uploads the views once (RGB8,
// RGBA8 and a layered texture); run() times each launch with CUDA events into timings()
// under "lfdepth/<variant>" and "lfdepth/wta".
std::unique_ptr<LightFieldEngine> make_lightfield_engine_cuda(int device = 0);

// Stereo (kernels/stereo_bp/stereo_bp_engine.cpp, stereo_local_engine.cpp).
std::unique_ptr<stereo::StereoEngine<stereo::BpParams>> make_stereo_bp_engine_cuda(int device = 0);
std::unique_ptr<stereo::StereoEngine<stereo::LocalParams>> make_stereo_local_engine_cuda(int device = 0);

// MAD (kernels/mad/mad.cu): variants() = mad_stats_variants(), default "fused". Timings (CUDA
// events) "mad/csf", "mad/detect", "mad/gabor", "mad/stats/<variant>", "mad/total", and per
// stage "mad/stage/<stage>" with the bytes the stage must move (kernels/mad/mad_pipeline.hpp).
std::unique_ptr<MadEngine> make_mad_engine_cuda(int device = 0);
// The device pipeline behind it (tests and `bench mad` compare them): r2c (default; real
// transforms, fused detection, the log-Gabor inverses in batches of batch_planes responses,
// 0 = sized to the L2; the inverses as MadInverse says) or c2c = the older pipeline (complex
// transforms, one batch of 40).
// callbacks (r2c): the log-Gabor products and |EO| inside one batch-40 inverse (cuFFT JIT
// callbacks; the first run at a size throws a one-line lb::Error when cuFFT cannot link them).
// r2c's inverses: cuFFT 2D transforms after a products kernel, or lightbench's fused column
// pass (products + inverses along y, kernels/mad/mad_colfft.cu) and cuFFT's contiguous row
// inverses. Auto: the column pass where two complex planes overflow half the L2 (there the 2D
// transforms stream each plane from DRAM several times: 1920x1080 on the H100, 2.82 -> 1.92
// ms); the 2D transforms below (512x384: 0.238 vs 0.257 ms). A height with a prime factor past
// 7 keeps the 2D transforms whatever is asked.
enum class MadInverse { Auto, Cufft2d, ColumnPass };
struct MadPipelineOptions {
  bool c2c = false;
  int batch_planes = 0;  // r2c: 0 or an even divisor of 40 (else lb::Error)
  bool callbacks = false;
  MadInverse inverse = MadInverse::Auto;  // r2c without callbacks
};
std::unique_ptr<MadEngine> make_mad_engine_cuda(int device, const MadPipelineOptions& pipeline);
struct MadPipelineInfo {
  std::string describe;  // "c2c" / "r2c, 10 responses per inverse batch"
  int launches = 0;      // kernels + cuFFT executions of the engine's last run
};
// Of a CUDA MAD engine at an image size (w, h rounded down to even; made if absent).
MadPipelineInfo mad_pipeline_info(MadEngine& e, int w, int h);

}  // namespace lb::cuda
