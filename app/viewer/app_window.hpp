#pragma once
// The viewer's window: an interface with two implementations chosen at run time (as
// Polyscope does), both giving an OpenGL 3.3 core context and Dear ImGui with its OpenGL3
// renderer:
//   GLFW      a desktop window (app_window_glfw.cpp). It lives in a loadable module,
//             lightbench-glfw.so beside the executable, so that the executable itself does
//             not need libglfw (and with it X11) at run time.
//   headless  `--headless`: an EGL context on a device (EGL_EXT_platform_device), no window
//             and no display; ImGui and the panes render into an offscreen framebuffer
//             object (app_window_headless.cpp). For scripted runs (--screenshot) on machines
//             without an X server, such as the GPU machine.
// Collects dropped file paths and notes input activity so the main loop can sleep while
// nothing happens (headless: no input, nothing dropped).
#include <memory>
#include <string>
#include <vector>

namespace lb::viewer {

struct WindowConfig {
  int width = 1600, height = 900;  // window (headless: framebuffer) size in pixels
  std::string title = "lightbench";
  bool vsync = true;
  bool headless = false;
  int cuda_device = 0;  // headless: prefer the EGL device of this CUDA device (interop)
};

class AppWindow {
 public:
  virtual ~AppWindow();
  AppWindow(const AppWindow&) = delete;
  AppWindow& operator=(const AppWindow&) = delete;

  virtual bool should_close() const = 0;
  virtual void request_close() = 0;
  // Polls events; waits up to wait_timeout_s for one (0: returns at once).
  virtual void process_events(double wait_timeout_s) = 0;
  // Whether any input arrived since the last call.
  virtual bool take_activity() = 0;
  virtual std::vector<std::string> take_dropped_paths() = 0;
  // Where the last drop happened, in logical window pixels (ImGui's coordinates): the drop
  // position picks the pane a dropped file goes to. False when unknown (headless).
  virtual bool drop_position(double* x, double* y) const {
    (void)x;
    (void)y;
    return false;
  }

  // The framebuffer the viewer draws into (0 x 0 while minimised).
  virtual void framebuffer_size(int* w, int* h) const = 0;
  virtual void swap() = 0;
  virtual void set_size(int width, int height) = 0;
  virtual void iconify(bool on) = 0;
  // "GLFW window" or "headless, EGL device 0 (...): OpenGL ..." (for logs).
  virtual std::string description() const = 0;

  // One ImGui frame: the OpenGL3 renderer's, the platform's (input, size, time), ImGui's.
  void begin_imgui_frame();
  // ImGui's draw data (after ImGui::Render) into the current framebuffer.
  void render_imgui();

 protected:
  AppWindow() = default;
  // With the window's GL context current: the ImGui context (the viewer's settings) and
  // its OpenGL3 renderer. Throws lb::Error when the renderer cannot start.
  void start_imgui();
  // Idempotent; implementations call it before they drop their GL context.
  void stop_imgui();
  // The platform part of an ImGui frame (ImGuiIO's size, time and input).
  virtual void imgui_platform_frame() = 0;

 private:
  bool imgui_context_ = false, imgui_gl_ = false;
};

// Opens the window the config asks for. Throws lb::Error with one line saying why it cannot
// (no display, no EGL device, the GLFW module missing, ...).
std::unique_ptr<AppWindow> open_app_window(const WindowConfig& config);

}  // namespace lb::viewer
