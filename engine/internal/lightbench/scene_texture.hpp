#pragma once
// The synthetic plenoptic scene model's pieces (generator.cpp), shared by the rectangular and
// the hexagonal generator so that both draw the same planes with the same textures.
#include <cstdint>
#include <vector>

#include "lightbench/generator.hpp"

namespace lb::scene_detail {

double smooth(double t);  // smoothstep on [0, 1]
// A plane's texture at texture coordinate (tx, ty) (raw pixels), RGB in [0, 255].
void plane_texture(std::uint64_t seed, double tx, double ty, double rgb[3]);
// Whether the plane's region holds scene position (sx, sy) (micro-image / lens units).
bool covers(const ScenePlane& p, double sx, double sy);
// Front (large patch) to back, the background last.
std::vector<ScenePlane> front_to_back(std::vector<ScenePlane> planes);
// The texture seed of the k-th plane (front to back) of a scene.
std::uint64_t plane_seed(std::uint64_t seed, const ScenePlane& plane, std::size_t k);

}  // namespace lb::scene_detail
