#pragma once
// CPU reference renderer: the spec's corrected Algorithm 1, rows split over threads.
#include "lightbench/image.hpp"
#include "plenoptic/render_tables.hpp"

namespace lb {

// raw: RGBA8 (4 channels). Returns an RGBA8 image of layout.out_w x layout.out_h.
ImageU8 render_cpu(const ImageU8& raw_rgba, const RenderTablesHost& tables, int threads = 0);

}  // namespace lb
