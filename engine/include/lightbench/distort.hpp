#pragma once
// Distortion generators for image-quality work (the MAD tests and the viewer): each takes
// an 8-bit image (any channel count) and a strength; strength 0 returns the input
// unchanged, larger strengths distort more. Results are rounded and clamped to 0..255.
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"  // ParamInfo

namespace lb {

enum class DistortKind { Blur, Noise, Jpeg, Contrast };
const char* to_string(DistortKind k);
DistortKind parse_distort_kind(const std::string& s);  // blur | noise | jpeg | contrast
std::vector<DistortKind> all_distort_kinds();

// Gaussian blur, sigma = strength pixels (kernel radius ceil(3 sigma), clamped border).
ImageU8 distort_blur(const ImageU8& img, double sigma);
// Additive white Gaussian noise, standard deviation = strength gray levels; deterministic
// for a seed (own generator, same output on every platform).
ImageU8 distort_noise(const ImageU8& img, double stddev, std::uint64_t seed = 1);
// JPEG round trip in memory (stb_image_write's encoder, stb_image's decoder) at quality
// 100 - strength; strength in 0..99 (integer part), 0 = no compression.
ImageU8 distort_jpeg(const ImageU8& img, double strength);
// Contrast reduction around the image's mean gray: v' = m + (v - m) (1 - strength),
// strength in 0..1 (1: flat).
ImageU8 distort_contrast(const ImageU8& img, double strength);

// Dispatch by kind; throws lb::Error for a strength out of the kind's range.
ImageU8 distort(const ImageU8& img, DistortKind k, double strength, std::uint64_t seed = 1);

// Live parameters for the viewer (side panel sliders): which distortion, how strong, seed.
struct DistortParams {
  int kind = 0;           // index into all_distort_kinds(): 0 blur, 1 noise, 2 jpeg, 3 contrast
  float strength = 0.0f;  // the kind's strength (range in describe())
  int seed = 1;           // noise only
};
// Slider ranges follow p.kind (blur 0..10 px, noise 0..64 levels, jpeg 0..99, contrast 0..1).
std::vector<ParamInfo> describe(DistortParams& p);
ImageU8 distort(const ImageU8& img, const DistortParams& p);  // validates p.kind

// A smooth random 8-bit gray texture with a few discs, w x h, deterministic per seed: the
// images of the MAD workloads (benchmarks on any machine).
ImageU8 synthetic_gray(int w, int h, std::uint64_t seed);

}  // namespace lb
