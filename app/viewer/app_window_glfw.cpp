// The GLFW window with its OpenGL 3.3 core context (through libepoxy) and Dear ImGui's GLFW
// platform backend (the OpenGL3 renderer is AppWindow's). Built as the module
// lightbench-glfw.so, which the executable loads only for a windowed run; the ImGui and
// AppWindow symbols it uses come from the executable (built with ENABLE_EXPORTS).
#include <epoxy/gl.h>  // epoxy's GL header must precede GLFW's
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <string>

#include "app_window.hpp"
#include "lightbench/error.hpp"

namespace lb::viewer {
namespace {

std::string g_glfw_error;

void glfw_error(int code, const char* text) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (text ? text : "?");
}

class GlfwWindow final : public AppWindow {
 public:
  explicit GlfwWindow(const WindowConfig& config);
  ~GlfwWindow() override { shutdown(); }

  bool should_close() const override { return glfwWindowShouldClose(window_); }
  void request_close() override { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
  void process_events(double wait_timeout_s) override {
    if (wait_timeout_s > 0) glfwWaitEventsTimeout(wait_timeout_s);
    else glfwPollEvents();
  }
  bool take_activity() override {
    const bool a = activity_;
    activity_ = false;
    return a;
  }
  std::vector<std::string> take_dropped_paths() override {
    std::vector<std::string> out;
    out.swap(dropped_);
    return out;
  }
  bool drop_position(double* x, double* y) const override {
    if (!has_drop_pos_) return false;
    *x = drop_x_;
    *y = drop_y_;
    return true;
  }
  void framebuffer_size(int* w, int* h) const override { glfwGetFramebufferSize(window_, w, h); }
  void swap() override { glfwSwapBuffers(window_); }
  void set_size(int width, int height) override { glfwSetWindowSize(window_, width, height); }
  void iconify(bool on) override {
    if (on) glfwIconifyWindow(window_);
    else glfwRestoreWindow(window_);
  }
  std::string description() const override { return "GLFW window"; }

 protected:
  void imgui_platform_frame() override { ImGui_ImplGlfw_NewFrame(); }

 private:
  void shutdown();
  static GlfwWindow* self(GLFWwindow* w) { return static_cast<GlfwWindow*>(glfwGetWindowUserPointer(w)); }
  static void on_drop(GLFWwindow* w, int count, const char** paths);
  static void on_activity(GLFWwindow* w) {
    if (GlfwWindow* a = self(w)) a->activity_ = true;
  }

  GLFWwindow* window_ = nullptr;
  std::vector<std::string> dropped_;
  double drop_x_ = 0, drop_y_ = 0;
  bool has_drop_pos_ = false;
  bool activity_ = true;
  bool imgui_glfw_ = false;
};

GlfwWindow::GlfwWindow(const WindowConfig& config) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit())
    throw Error("cannot start GLFW (no display? set DISPLAY, run under xvfb-run, or use --headless): " +
                g_glfw_error);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_FALSE);
  window_ = glfwCreateWindow(config.width, config.height, config.title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw Error("cannot open an OpenGL 3.3 core window: " + g_glfw_error);
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(config.vsync ? 1 : 0);
  glfwSetWindowUserPointer(window_, this);

  // Our callbacks go in first; ImGui's backend chains to them.
  glfwSetDropCallback(window_, on_drop);
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double, double) { on_activity(w); });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int, int, int) { on_activity(w); });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double) { on_activity(w); });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int, int, int, int) { on_activity(w); });
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned int) { on_activity(w); });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) { on_activity(w); });
  glfwSetWindowRefreshCallback(window_, [](GLFWwindow* w) { on_activity(w); });
  glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int) { on_activity(w); });
  glfwSetCursorEnterCallback(window_, [](GLFWwindow* w, int) { on_activity(w); });

  try {
    start_imgui();
  } catch (...) {
    shutdown();
    throw;
  }
  imgui_glfw_ = ImGui_ImplGlfw_InitForOpenGL(window_, true);
  if (!imgui_glfw_) {
    shutdown();
    throw Error("cannot initialise Dear ImGui's GLFW backend");
  }
}

void GlfwWindow::shutdown() {
  if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
  imgui_glfw_ = false;
  stop_imgui();  // before the context goes
  if (window_) {
    glfwDestroyWindow(window_);
    window_ = nullptr;
    glfwTerminate();
  }
}

void GlfwWindow::on_drop(GLFWwindow* w, int count, const char** paths) {
  GlfwWindow* a = self(w);
  if (!a) return;
  for (int i = 0; i < count; ++i) a->dropped_.emplace_back(paths[i]);
  // The cursor at the drop (X11 sends no motion events during a drag: ask the server now).
  glfwGetCursorPos(w, &a->drop_x_, &a->drop_y_);
  a->has_drop_pos_ = true;
  a->activity_ = true;
}

}  // namespace
}  // namespace lb::viewer

// The module's entry point (app_window.cpp looks it up with dlsym). Throws lb::Error.
extern "C" __attribute__((visibility("default"))) lb::viewer::AppWindow* lb_viewer_open_glfw_window(
    const lb::viewer::WindowConfig* config) {
  return new lb::viewer::GlfwWindow(*config);
}
