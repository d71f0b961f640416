#include "plenoptic/render_cpu.hpp"

#include <cstring>

#include "lightbench/parallel.hpp"

namespace lb {

ImageU8 render_cpu(const ImageU8& raw, const RenderTablesHost& t, int threads) {
  LB_REQUIRE(raw.channels == 4, "render_cpu: raw must be RGBA8");
  const auto& L = t.layout;
  LB_REQUIRE(raw.width == L.raw_w && raw.height == L.raw_h,
             "render_cpu: raw size does not match the tables");
  ImageU8 out(L.out_w, L.out_h, 4);
  const RenderTables tables = t.view();
  const std::uint8_t* base = raw.data.data();
  const std::size_t stride = static_cast<std::size_t>(raw.width) * 4;
  auto load = [base, stride](int col, int row) {
    std::uint32_t v;
    std::memcpy(&v, base + row * stride + static_cast<std::size_t>(col) * 4, 4);
    return v;  // little-endian: R in the low byte, as pack_rgba expects
  };
  parallel_for(L.out_h, [&](int y) {
    std::uint8_t* dst = out.row(y);
    for (int x = 0; x < L.out_w; ++x) {
      const std::uint32_t v = render_pixel(L, tables, load, x, y);
      std::memcpy(dst + static_cast<std::size_t>(x) * 4, &v, 4);
    }
  }, threads);
  return out;
}

}  // namespace lb
