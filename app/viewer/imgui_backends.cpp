// Dear ImGui's GLFW and OpenGL3 platform/renderer backends, compiled from the sources that
// libimgui-dev ships as examples. The OpenGL3 backend uses libepoxy (IMGUI_IMPL_OPENGL_LOADER_CUSTOM
// with epoxy's header included first) so the whole program has one GL loader.
#include <epoxy/gl.h>
#define IMGUI_IMPL_OPENGL_LOADER_CUSTOM
#define GLFW_INCLUDE_NONE

#include LB_IMGUI_IMPL_GLFW
#include LB_IMGUI_IMPL_OPENGL3
