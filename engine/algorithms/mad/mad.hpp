#pragma once
// MAD — Most Apparent Distortion full-reference image quality (Larson & Chandler 2010),
// exactly the authors' reference code as written down in ../shared/specs/mad.md:
//   d_detect  detection stage: luminance, CSF (FFT), local contrast masking x local MSE;
//   d_appear  appearance stage: 5x4 log-Gabor bank, local std/skewness/kurtosis changes;
//   MAD       d_detect^alpha * d_appear^(1-alpha), alpha from d_detect. Higher = worse.
// The CPU reference computes in double with FFTW; the CUDA path (mad/mad_cuda.hpp)
// in float with cuFFT (within 0.1 % of the reference).
//
// Input: two gray images of equal size, values 0..255. Colour images are converted with
// MATLAB's rgb2gray weights and rounded to 8 bits (mad_gray). 8-bit input (the default)
// uses the reference's 256-entry luminance LUT including its 255 -> 254 saturation quirk;
// MadOptions::eight_bit = false treats the values as unrounded floats (plain power law).
// Sizes: at least 34x34. ODD SIZES: the spec assumes even M and N (its FFT grids do), so
// an odd width or height is CROPPED by one column / row (the last one) before scoring;
// MadResult reports the size actually scored and whether it was cropped.
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "lightbench/image.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

using ImageD = Image<double>;

// Gray plane for MAD from an 8-bit image: 1 channel as is; 3/4 channels (alpha ignored)
// with rgb2gray weights, rounded to the nearest integer unless round_gray is false.
ImageD mad_gray(const ImageU8& img, bool round_gray = true);

struct MadOptions {
  bool eight_bit = true;  // integer input 0..255 through the reference's LUT
  bool keep_maps = true;  // fill MadResult::hi / lo
  int threads = 0;        // CPU threads (0: default)
};

struct MadResult {
  double mad = 0, d_detect = 0, d_appear = 0;
  int width = 0, height = 0;  // size scored (after an odd-size crop)
  bool cropped_odd = false;   // the input had an odd width or height
  ImageD hi, lo;              // detection map HI, appearance map LO: full size, uncropped
  std::string variant;        // what ran ("reference" on the CPU)
  double ms = 0;              // whole metric (wall on the CPU, CUDA events on the GPU)
};

// Validates a pair (1 channel each, same size, >= 34x34; with eight_bit integers 0..255)
// and returns the even size to score. Throws lb::Error naming the problem.
void validate_mad_input(const ImageD& ref, const ImageD& dst, const MadOptions& o, int* w = nullptr,
                        int* h = nullptr);
// Upper bound of the host memory of a MAD run on w x h inputs of `channels` channels
// (memory_budget.hpp): decoded inputs and gray planes, the CSF and 20 log-Gabor filters, the
// FFT work buffers (16 complex planes) and the statistics maps.
std::uint64_t mad_host_bytes(int w, int h, int channels);
// Device: the cuFFT plan work area and complex planes of the Gabor stage, filters and maps.
std::uint64_t mad_device_bytes(int w, int h);


// Convenience: CPU reference on one pair.
MadResult mad_cpu(const ImageD& ref, const ImageD& dst, const MadOptions& o = {});

// Pieces of the CPU reference, exposed for tests and the GPU comparisons.
namespace mad_cpu_detail {
// Block statistics (2.2) of a w x h plane: for each of block_count(h) x block_count(w)
// blocks (row-major) std (n-1), skewness, kurtosis. Two-pass, double.
struct BlockStatsD {
  double std = 0, skew = 0, kurt = 0;
};
std::vector<BlockStatsD> block_stats(const double* img, int w, int h);
std::vector<BlockStatsD> block_stats(const float* img, int w, int h);
}  // namespace mad_cpu_detail

}  // namespace lb
