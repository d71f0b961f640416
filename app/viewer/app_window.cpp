// AppWindow: what both windows share (the ImGui context and its OpenGL3 renderer) and the
// choice between them. The GLFW window is loaded from its module on demand, so a headless
// run never loads libglfw.
#include "app_window.hpp"

#include <dlfcn.h>
#include <epoxy/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "app_window_headless.hpp"
#include "lightbench/error.hpp"

namespace lb::viewer {
namespace {

// Built beside the executable by app/viewer/CMakeLists.txt (target lightbench_glfw).
constexpr const char* kGlfwModule = "lightbench-glfw.so";
constexpr const char* kGlfwFactory = "lb_viewer_open_glfw_window";
using GlfwFactory = AppWindow* (*)(const WindowConfig*);

std::string glfw_module_path() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(kGlfwModule) : (exe.parent_path() / kGlfwModule).string();
}

std::unique_ptr<AppWindow> open_glfw_window(const WindowConfig& config) {
  const std::string path = glfw_module_path();
  // Kept loaded for the life of the process (the window's code and ImGui's callbacks).
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module) {
    const char* why = dlerror();
    throw Error("cannot load the GLFW window (" + std::string(why ? why : path) +
                "); without a display or GLFW, run with --headless");
  }
  auto factory = reinterpret_cast<GlfwFactory>(dlsym(module, kGlfwFactory));
  LB_REQUIRE(factory, path + " has no " + kGlfwFactory);
  return std::unique_ptr<AppWindow>(factory(&config));
}

}  // namespace

AppWindow::~AppWindow() { stop_imgui(); }

void AppWindow::start_imgui() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_context_ = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in whatever directory we run from
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 0.0f;
  imgui_gl_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!imgui_gl_) {
    stop_imgui();
    throw Error("cannot initialise Dear ImGui's OpenGL3 renderer");
  }
}

void AppWindow::stop_imgui() {
  if (imgui_gl_) ImGui_ImplOpenGL3_Shutdown();
  imgui_gl_ = false;
  if (imgui_context_ && ImGui::GetCurrentContext()) ImGui::DestroyContext();
  imgui_context_ = false;
}

void AppWindow::begin_imgui_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  imgui_platform_frame();
  ImGui::NewFrame();
}

void AppWindow::render_imgui() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }

std::unique_ptr<AppWindow> open_app_window(const WindowConfig& config) {
  if (config.headless) return open_headless_window(config);
  return open_glfw_window(config);
}

}  // namespace lb::viewer
