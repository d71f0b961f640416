// The light field resident on the device for the CAE kernels (CaeDeviceLightField,
// cae_launch.hpp): packed RGB8, padded RGBA8 and a layered texture.
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "lightfield/cae_launch.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"

namespace lb::cuda::detail {

CaeDeviceLightField::~CaeDeviceLightField() { release(); }

void CaeDeviceLightField::release() {
  if (tex) CUDA_CHECK_PRINT(cudaDestroyTextureObject(static_cast<cudaTextureObject_t>(tex)));
  tex = 0;
  if (array) {
    CUDA_CHECK_PRINT(cudaFreeArray(array));
    device_unreserve(array_bytes);
  }
  array = nullptr;
  array_bytes = 0;
  nu = nv = width = height = 0;
}

void CaeDeviceLightField::upload(const LightField4D& lf, cudaStream_t s) {
  validate(lf);
  release();
  const std::size_t plane = static_cast<std::size_t>(lf.width) * lf.height;
  const std::size_t nviews = lf.views.size();
  // RGBA8 with (width + 1) zero texels after the last view: exact_smem reads the texels at
  // p + 1, p + W, p + W + 1 without clamping (their weight is 0 at the last column / row).
  std::vector<unsigned char> h_rgb(plane * 3 * nviews), h_rgba((plane * nviews + lf.width + 1) * 4, 0);
  for (std::size_t k = 0; k < nviews; ++k) {
    const ImageU8& v = lf.views[k];
    std::memcpy(h_rgb.data() + k * plane * 3, v.data.data(), plane * 3);
    unsigned char* o = h_rgba.data() + k * plane * 4;
    for (std::size_t i = 0; i < plane; ++i) {
      o[4 * i] = v.data[3 * i];
      o[4 * i + 1] = v.data[3 * i + 1];
      o[4 * i + 2] = v.data[3 * i + 2];
      o[4 * i + 3] = 255;
    }
  }
  rgb.reserve(h_rgb.size());
  rgba.reserve(h_rgba.size());
  CUDA_CHECK_THROW(cudaMemcpyAsync(rgb.get(), h_rgb.data(), h_rgb.size(), cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaMemcpyAsync(rgba.get(), h_rgba.data(), h_rgba.size(), cudaMemcpyHostToDevice, s));
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  device_reserve(plane * nviews * 4, "the light-field texture");
  cudaArray_t arr = nullptr;  // `array` stays null when the allocation fails
  device_alloc_result(cudaMalloc3DArray(&arr, &desc,
                                        make_cudaExtent(static_cast<std::size_t>(lf.width),
                                                        static_cast<std::size_t>(lf.height), nviews),
                                        cudaArrayLayered),
                      plane * nviews * 4, "the light-field texture", "cudaMalloc3DArray");
  array = arr;
  array_bytes = plane * nviews * 4;
  cudaMemcpy3DParms cp{};
  cp.srcPtr = make_cudaPitchedPtr(h_rgba.data(), static_cast<std::size_t>(lf.width) * 4,
                                  static_cast<std::size_t>(lf.width), static_cast<std::size_t>(lf.height));
  cp.dstArray = array;
  cp.extent = make_cudaExtent(static_cast<std::size_t>(lf.width), static_cast<std::size_t>(lf.height), nviews);
  cp.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK_THROW(cudaMemcpy3DAsync(&cp, s));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = array;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = 0;
  cudaTextureObject_t t = 0;
  CUDA_CHECK_THROW(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  tex = static_cast<unsigned long long>(t);
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // host staging buffers go away
  nu = lf.nu;
  nv = lf.nv;
  width = lf.width;
  height = lf.height;
}

}  // namespace lb::cuda::detail
