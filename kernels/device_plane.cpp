// Host helpers of the device images (device_plane.hpp): channel extraction and downloads.
#include "device_plane.hpp"

#include <vector>

namespace lb::cuda::detail {

void upload_channel(const ImageU8& img, int channel, DeviceImage<std::uint8_t>& out, cudaStream_t s) {
  LB_REQUIRE(!img.empty() && channel >= 0 && channel < img.channels, "device image: no such channel");
  ImageU8 plane(img.width, img.height, 1);
  for (std::size_t i = 0; i < img.pixels(); ++i)
    plane.data[i] = img.data[i * static_cast<std::size_t>(img.channels) + static_cast<std::size_t>(channel)];
  out.upload(plane, s);  // synchronises: `plane` may go
}

namespace {
template <class T, class H>
Image<H> download_plane(const DevicePlane<T>& p, int channels, cudaStream_t s) {
  require_plane(p, "download");
  Image<H> img(p.width, p.height, channels);
  const std::size_t row = static_cast<std::size_t>(p.width) * sizeof(T);
  CUDA_CHECK_THROW(cudaMemcpy2DAsync(img.data.data(), row, p.ptr, p.pitch, row, static_cast<std::size_t>(p.height),
                                     cudaMemcpyDeviceToHost, s));
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
  return img;
}
}  // namespace

ImageF download(const DeviceFloatPlane& p, cudaStream_t s) { return download_plane<float, float>(p, 1, s); }
ImageU8 download(const DeviceRgbaPlane& p, cudaStream_t s) { return download_plane<uchar4, std::uint8_t>(p, 4, s); }

}  // namespace lb::cuda::detail
