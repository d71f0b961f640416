// Host side of the general-grid kernels (hex_launch.hpp): variant names, the table upload
// (one device buffer, 16-byte aligned pieces) and the depth pass's aperture radius.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "plenoptic_hex/hex_launch.hpp"

namespace lb::cuda::detail {

HexVariant parse_hex_variant(const std::string& name) {
  if (name == "original") return HexVariant::Original;
  if (name == "smem-tables") return HexVariant::SmemTables;
  if (name == "pruned") return HexVariant::Pruned;
  throw Error("plenoptic-hex: unknown CUDA variant \"" + name + "\" (known: original, smem-tables, pruned)");
}

const char* to_string(HexVariant v) {
  switch (v) {
    case HexVariant::SmemTables: return "smem-tables";
    case HexVariant::Pruned: return "pruned";
    default: return "original";
  }
}

HexNearPrefix hex_near_prefix(const HexTablesHost& t) {
  const hex::HexLayout& L = t.layout;
  const double cell = 0.5 * (std::hypot(static_cast<double>(L.bxx), static_cast<double>(L.bxy)) +
                             std::hypot(static_cast<double>(L.byx), static_cast<double>(L.byy)));
  const double usable = std::sqrt(std::max(0.0, static_cast<double>(L.usable2)));
  HexNearPrefix r;
  for (int P = 0; P <= hex::kMaxPatchIndex; ++P) {
    const double reach = std::sqrt(std::max(0.0, static_cast<double>(t.reach2_of_patch[static_cast<std::size_t>(P)])));
    const double bound = (P > 0 ? std::min(reach, usable / P) : reach) + cell + 0.01;
    // One past the last offset within the bound (the list is sorted by length; taking the
    // last one keeps every offset within the bound even if float lengths reorder ties).
    int n = 0;
    for (int k = 0; k < L.n_near; ++k) {
      const hex::Offset o = t.near[static_cast<std::size_t>(k)];
      const double x = o.di * static_cast<double>(L.bxx) + o.dj * static_cast<double>(L.byx);
      const double y = o.di * static_cast<double>(L.bxy) + o.dj * static_cast<double>(L.byy);
      if (std::hypot(x, y) <= bound) n = k + 1;
    }
    r.n[P] = n;
  }
  return r;
}

namespace {

std::size_t align16(std::size_t n) { return (n + 15) & ~std::size_t{15}; }

}  // namespace

void upload_hex_tables(const HexTablesHost& t, HexTablesDevice& out, cudaStream_t stream) {
  const hex::HexLayout& L = t.layout;
  const std::size_t np = hex::kMaxPatchIndex + 1;
  LB_REQUIRE(t.types.size() == static_cast<std::size_t>(L.ni) * static_cast<std::size_t>(L.nj) &&
                 t.near.size() == static_cast<std::size_t>(L.n_near) &&
                 t.nbr.size() == static_cast<std::size_t>(L.n_nbr) && t.weights.size() == hex::kWeightBins &&
                 t.mask_of_patch.size() == np && t.reach2_of_patch.size() == np && t.nbr2_of_patch.size() == np &&
                 t.cell_start.size() == hex::kCells + 1 &&
                 t.cell_near.size() == static_cast<std::size_t>(L.n_cell_near) && t.blur_of_patch.size() == np,
             "hex tables: inconsistent sizes (not built by build_hex_tables)");
  // Offsets of the pieces in one buffer.
  std::size_t off = 0;
  auto place = [&](std::size_t bytes) {
    const std::size_t at = off;
    off = align16(off + bytes);
    return at;
  };
  const std::size_t o_types = place(t.types.size());
  const std::size_t o_near = place(t.near.size() * sizeof(hex::Offset));
  const std::size_t o_nbr = place(t.nbr.size() * sizeof(hex::Offset));
  const std::size_t o_w = place(t.weights.size() * 4);
  const std::size_t o_mask = place(np * 4);
  const std::size_t o_reach = place(np * 4);
  const std::size_t o_nbr2 = place(np * 4);
  const std::size_t o_cstart = place(t.cell_start.size() * 4);
  const std::size_t o_cnear = place(t.cell_near.size() * sizeof(hex::Offset));
  const std::size_t o_blur = place(np * 4);
  std::vector<unsigned char> pack(off, 0);
  auto put = [&](std::size_t at, const void* src, std::size_t bytes) {
    if (bytes) std::memcpy(pack.data() + at, src, bytes);
  };
  put(o_types, t.types.data(), t.types.size());
  put(o_near, t.near.data(), t.near.size() * sizeof(hex::Offset));
  put(o_nbr, t.nbr.data(), t.nbr.size() * sizeof(hex::Offset));
  put(o_w, t.weights.data(), t.weights.size() * 4);
  put(o_mask, t.mask_of_patch.data(), np * 4);
  put(o_reach, t.reach2_of_patch.data(), np * 4);
  put(o_nbr2, t.nbr2_of_patch.data(), np * 4);
  put(o_cstart, t.cell_start.data(), t.cell_start.size() * 4);
  put(o_cnear, t.cell_near.data(), t.cell_near.size() * sizeof(hex::Offset));
  put(o_blur, t.blur_of_patch.data(), np * 4);
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));  // nothing queued may read the old tables
  out.buf.reserve(pack.size(), "the general-grid tables");
  CUDA_CHECK_THROW(cudaMemcpyAsync(out.buf.get(), pack.data(), pack.size(), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));  // pack is a local
  const auto* d = out.buf.as<unsigned char>();
  out.layout = L;
  out.prefix = hex_near_prefix(t);
  out.view.types = d + o_types;
  out.view.near = reinterpret_cast<const hex::Offset*>(d + o_near);
  out.view.nbr = reinterpret_cast<const hex::Offset*>(d + o_nbr);
  out.view.weights = reinterpret_cast<const std::uint32_t*>(d + o_w);
  out.view.mask_of_patch = reinterpret_cast<const std::uint32_t*>(d + o_mask);
  out.view.reach2_of_patch = reinterpret_cast<const float*>(d + o_reach);
  out.view.nbr2_of_patch = reinterpret_cast<const float*>(d + o_nbr2);
  out.view.cell_start = reinterpret_cast<const std::uint32_t*>(d + o_cstart);
  out.view.cell_near = reinterpret_cast<const hex::Offset*>(d + o_cnear);
  out.view.blur_of_patch = reinterpret_cast<const std::uint32_t*>(d + o_blur);
}

// depth_hex's expression, evaluated by the host compiler as the CPU reference does.
float hex_aperture2(const hex::HexLayout& L, float aperture) {
  const float ap = static_cast<float>(aperture * L.diameter / 2.0);
  return ap * ap;
}

}  // namespace lb::cuda::detail
