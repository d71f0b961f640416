#include "app_window.hpp"

// epoxy's GL header must precede GLFW's (GLFW then includes no GL header of its own).
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <string>

#include "lightbench/error.hpp"

namespace lb::viewer {
namespace {

std::string g_glfw_error;

void glfw_error(int code, const char* text) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (text ? text : "?");
}

AppWindow* self(GLFWwindow* w) { return static_cast<AppWindow*>(glfwGetWindowUserPointer(w)); }

}  // namespace

AppWindow::AppWindow(int width, int height, const std::string& title, bool vsync) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit())
    throw Error("cannot start GLFW (no display? set DISPLAY or run under xvfb-run): " +
                g_glfw_error);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_FALSE);
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw Error("cannot open an OpenGL 3.3 core window: " + g_glfw_error);
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(vsync ? 1 : 0);
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

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in whatever directory we run from
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 0.0f;
  imgui_glfw_ = ImGui_ImplGlfw_InitForOpenGL(window_, true);
  imgui_gl_ = imgui_glfw_ && ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!imgui_gl_) {
    shutdown();
    throw Error("cannot initialise Dear ImGui's GLFW/OpenGL3 backends");
  }
}

AppWindow::~AppWindow() { shutdown(); }

void AppWindow::shutdown() {
  if (imgui_gl_) ImGui_ImplOpenGL3_Shutdown();
  if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
  imgui_gl_ = imgui_glfw_ = false;
  if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
  if (window_) {
    glfwDestroyWindow(window_);
    window_ = nullptr;
    glfwTerminate();
  }
}

bool AppWindow::should_close() const { return glfwWindowShouldClose(window_); }
void AppWindow::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void AppWindow::process_events(double wait_timeout_s) {
  if (wait_timeout_s > 0) glfwWaitEventsTimeout(wait_timeout_s);
  else glfwPollEvents();
}

bool AppWindow::take_activity() {
  const bool a = activity_;
  activity_ = false;
  return a;
}

std::vector<std::string> AppWindow::take_dropped_paths() {
  std::vector<std::string> out;
  out.swap(dropped_);
  return out;
}

void AppWindow::framebuffer_size(int* w, int* h) const { glfwGetFramebufferSize(window_, w, h); }

void AppWindow::begin_imgui_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void AppWindow::render_imgui() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }

void AppWindow::swap() { glfwSwapBuffers(window_); }

void AppWindow::set_size(int width, int height) { glfwSetWindowSize(window_, width, height); }

void AppWindow::iconify(bool on) {
  if (on) glfwIconifyWindow(window_);
  else glfwRestoreWindow(window_);
}

void AppWindow::on_drop(GLFWwindow* w, int count, const char** paths) {
  AppWindow* a = self(w);
  if (!a) return;
  for (int i = 0; i < count; ++i) a->dropped_.emplace_back(paths[i]);
  a->activity_ = true;
}

void AppWindow::on_activity(GLFWwindow* w) {
  if (AppWindow* a = self(w)) a->activity_ = true;
}

}  // namespace lb::viewer
