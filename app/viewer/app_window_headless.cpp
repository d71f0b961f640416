#include "app_window_headless.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <string>

#include "lightbench/error.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/gl/gl.hpp"

namespace lb::viewer {
namespace {

class HeadlessWindow final : public AppWindow {
 public:
  explicit HeadlessWindow(const WindowConfig& config);
  ~HeadlessWindow() override;

  bool should_close() const override { return close_; }
  void request_close() override { close_ = true; }
  void process_events(double wait_timeout_s) override { (void)wait_timeout_s; }  // no events
  bool take_activity() override { return false; }                                // no input
  std::vector<std::string> take_dropped_paths() override { return {}; }
  void framebuffer_size(int* w, int* h) const override {
    *w = width_;
    *h = height_;
  }
  // Nothing to present; flushing keeps the GL work of a frame in that frame.
  void swap() override { glFlush(); }
  void set_size(int width, int height) override { allocate(width, height); }
  void iconify(bool on) override { (void)on; }  // no window to iconify
  std::string description() const override {
    return "headless, " + context_->description() + ", offscreen framebuffer " +
           std::to_string(width_) + "x" + std::to_string(height_);
  }

 protected:
  void imgui_platform_frame() override;

 private:
  // (Re)sizes the colour buffer (at least 1x1) and binds the framebuffer for drawing and reading.
  void allocate(int width, int height);
  void bind() const;

  std::unique_ptr<gl::HeadlessContext> context_;
  GLuint fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
  bool close_ = false;
  std::chrono::steady_clock::time_point last_frame_;
  bool first_frame_ = true;
};

HeadlessWindow::HeadlessWindow(const WindowConfig& config) {
  gl::HeadlessContext::Options opt;
  opt.cuda_device = config.cuda_device;
  std::string why;
  context_ = gl::HeadlessContext::create(opt, &why);
  LB_REQUIRE(context_, "--headless: no EGL device gives an OpenGL 3.3 core context: " + why);
  gl::clear_errors();
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &color_);
  LB_GL_CHECK("creating the offscreen framebuffer");
  allocate(config.width, config.height);
  start_imgui();
  ImGuiIO& io = ImGui::GetIO();
  io.BackendPlatformName = "lightbench headless";
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no mouse
  // No keyboard either, but keyboard navigation (on, as in the window) needs every key
  // mapped to a slot of io.KeysDown; none is ever pressed.
  for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
}

HeadlessWindow::~HeadlessWindow() {
  stop_imgui();  // needs the context current
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteRenderbuffers(1, &color_);
  gl::clear_errors();
}

void HeadlessWindow::allocate(int width, int height) {
  const int w = std::max(1, width), h = std::max(1, height);
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  LB_REQUIRE(w <= max_size && h <= max_size,
             "--headless: " + std::to_string(w) + "x" + std::to_string(h) +
                 " exceeds the largest framebuffer, " + std::to_string(max_size) + " pixels per side");
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  LB_GL_CHECK("allocating the offscreen framebuffer");
  LB_REQUIRE(status == GL_FRAMEBUFFER_COMPLETE,
             std::string("--headless: offscreen framebuffer incomplete: ") + gl::error_name(status));
  width_ = w;
  height_ = h;
  bind();
}

void HeadlessWindow::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glDrawBuffer(GL_COLOR_ATTACHMENT0);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
}

void HeadlessWindow::imgui_platform_frame() {
  bind();  // the frame's drawing goes to the offscreen framebuffer, whatever ran before
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  const auto now = std::chrono::steady_clock::now();
  const double dt = first_frame_ ? 1.0 / 60.0 : std::chrono::duration<double>(now - last_frame_).count();
  io.DeltaTime = static_cast<float>(std::max(dt, 1e-6));  // ImGui asserts a positive step
  last_frame_ = now;
  first_frame_ = false;
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}

}  // namespace

std::unique_ptr<AppWindow> open_headless_window(const WindowConfig& config) {
  return std::make_unique<HeadlessWindow>(config);
}

}  // namespace lb::viewer
