#pragma once
// The headless window (--headless): an EGL context on a device (EGL_EXT_platform_device,
// lb::gl::HeadlessContext; on the NVIDIA driver the EGL device of the CUDA device, so
// CUDA-GL interop works), no window and no display. The viewer draws into an offscreen
// framebuffer object of the configured size, which stays bound, so --screenshot reads it.
// ImGuiIO is fed here: display size, frame time, framebuffer scale 1, no input. Dropping
// files, iconifying and closing by the user do not exist headless.
#include <memory>

#include "app_window.hpp"

namespace lb::viewer {

// Throws lb::Error when no EGL device gives an OpenGL 3.3 core context.
std::unique_ptr<AppWindow> open_headless_window(const WindowConfig& config);

}  // namespace lb::viewer
