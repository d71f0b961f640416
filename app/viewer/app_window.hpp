#pragma once
// The GLFW window with its OpenGL 3.3 core context (through libepoxy) and Dear ImGui's
// GLFW + OpenGL3 backends. Collects dropped file paths and notes input activity so the main
// loop can sleep while nothing happens.
#include <string>
#include <vector>

struct GLFWwindow;

namespace lb::viewer {

class AppWindow {
 public:
  // Throws lb::Error when no window can be opened (e.g. no display).
  AppWindow(int width, int height, const std::string& title, bool vsync);
  ~AppWindow();
  AppWindow(const AppWindow&) = delete;
  AppWindow& operator=(const AppWindow&) = delete;

  bool should_close() const;
  void request_close();
  // Polls events; waits up to timeout_s for one when `wait` (0: returns at once).
  void process_events(double wait_timeout_s);
  // Whether any input arrived since the last call.
  bool take_activity();
  std::vector<std::string> take_dropped_paths();

  void framebuffer_size(int* w, int* h) const;
  void begin_imgui_frame();
  void render_imgui();  // ImGui's draw data (after ImGui::Render) into the framebuffer
  void swap();
  void set_size(int width, int height);
  void iconify(bool on);

  GLFWwindow* handle() const { return window_; }

 private:
  void shutdown();
  static void on_drop(GLFWwindow* w, int count, const char** paths);
  static void on_activity(GLFWwindow* w);
  GLFWwindow* window_ = nullptr;
  std::vector<std::string> dropped_;
  bool activity_ = true;
  bool imgui_glfw_ = false, imgui_gl_ = false;
};

}  // namespace lb::viewer
