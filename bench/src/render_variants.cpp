// The variant lists of `bench render` (lightbench/bench/render.hpp).
#include "lightbench/bench/render.hpp"

namespace lb::bench {

std::vector<RenderBenchVariant> default_render_variants() {
  std::vector<RenderBenchVariant> v;
  for (int bits = 15; bits >= 0; --bits) {
    RenderBenchVariant b;
    b.config.variant = RenderVariant::Original;
    b.config.original.rgba_input = bits & 8;
    b.config.original.vector_store = bits & 4;
    b.config.original.reciprocal = bits & 2;
    b.config.original.sync_at_end = bits & 1;
    v.push_back(b);
  }
  for (int i = 0; i < 3; ++i) {  // sync, nosync (staged), nosync direct (the seed's loads)
    RenderBenchVariant b;
    b.config.variant = i == 0 ? RenderVariant::Sync : RenderVariant::NoSync;
    b.tuning.direct_loads = i == 2;
    v.push_back(b);
  }
  RenderBenchVariant tiled;  // lightbench's output-side kernel over staged tiles
  tiled.config.variant = RenderVariant::Tiled;
  v.push_back(tiled);
  return v;
}

std::vector<RenderBenchVariant> tuning_render_variants() {
  std::vector<RenderBenchVariant> v;
  for (int block : {64, 128, 256, 320, 512}) {
    RenderBenchVariant b;
    b.config.variant = RenderVariant::Original;
    b.tuning.original_block = block;
    v.push_back(b);
  }
  for (int i = 0; i < 3; ++i)
    for (int chunk : {10, 20, 25, 32, 48, 50, 96})
      for (int rows : {1, 2, 3, 4}) {
        RenderBenchVariant b;
        b.config.variant = i == 0 ? RenderVariant::Sync : RenderVariant::NoSync;
        b.tuning.chunk = chunk;
        b.tuning.rows = rows;
        b.tuning.direct_loads = i == 2;
        v.push_back(b);
      }
  for (int chunk : {6, 8, 10, 12, 16, 24}) {
    RenderBenchVariant b;
    b.config.variant = RenderVariant::Tiled;
    b.tuning.chunk = chunk;
    v.push_back(b);
  }
  return v;
}

}  // namespace lb::bench
