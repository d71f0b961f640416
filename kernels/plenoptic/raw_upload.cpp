// Upload of a raw image to the device: packed RGB (the Original's 3-byte input) and RGBA8
// with replicated border columns (see RawDevice in render_launch.hpp).
#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "plenoptic/render_launch.hpp"

namespace lb::cuda::detail {

void upload_raw(const ImageU8& raw, PitchedBuffer& rgba, PitchedBuffer& rgb, RawDevice& out,
                cudaStream_t stream) {
  LB_REQUIRE(!raw.empty(), "raw image is empty");
  const ImageU8 src = to_rgba(raw);
  const ImageU8 packed = to_rgb(raw);
  const std::size_t W = static_cast<std::size_t>(raw.width), H = static_cast<std::size_t>(raw.height);
  const std::size_t padded_w = W + kRawPadLeft + kRawPadRight;
  // Padded host rows: the edge pixel repeated into the borders (= clamp to the image).
  std::vector<std::uint32_t> host(padded_w * H);
  for (std::size_t y = 0; y < H; ++y) {
    std::uint32_t* dst = host.data() + y * padded_w;
    const std::uint8_t* row = src.row(static_cast<int>(y));
    std::memcpy(dst + kRawPadLeft, row, W * 4);
    const std::uint32_t first = dst[kRawPadLeft], last = dst[kRawPadLeft + W - 1];
    for (int i = 0; i < kRawPadLeft; ++i) dst[i] = first;
    for (int i = 0; i < kRawPadRight; ++i) dst[kRawPadLeft + W + static_cast<std::size_t>(i)] = last;
  }
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));  // nothing in flight may read the old raw
  rgba.resize(padded_w * 4, H);
  rgb.resize(W * 3, H);
  CUDA_CHECK_THROW(cudaMemcpy2DAsync(rgba.get(), rgba.pitch(), host.data(), padded_w * 4,
                                     padded_w * 4, H, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK_THROW(cudaMemcpy2DAsync(rgb.get(), rgb.pitch(), packed.data.data(), W * 3, W * 3, H,
                                     cudaMemcpyHostToDevice, stream));
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
  out.rgb = static_cast<const std::uint8_t*>(rgb.get());
  out.rgb_pitch = rgb.pitch();
  out.rgba = static_cast<const std::uint32_t*>(rgba.get()) + kRawPadLeft;
  out.rgba_pitch = rgba.pitch();
  out.rgba_pad_left = kRawPadLeft;
  out.rgba_pad_right = kRawPadRight;
  out.width = raw.width;
  out.height = raw.height;
}

}  // namespace lb::cuda::detail
