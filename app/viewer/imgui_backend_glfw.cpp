// Dear ImGui's GLFW platform backend, compiled from the source that libimgui-dev ships as an
// example. Part of the GLFW window module (lightbench-glfw.so) only, so the executable does
// not depend on libglfw.
#define GLFW_INCLUDE_NONE

#include LB_IMGUI_IMPL_GLFW
