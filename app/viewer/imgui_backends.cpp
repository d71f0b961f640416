// Dear ImGui's OpenGL3 renderer backend, compiled from the source that libimgui-dev ships as
// an example, through libepoxy (IMGUI_IMPL_OPENGL_LOADER_CUSTOM with epoxy's header included
// first) so the whole program has one GL loader. Part of the executable: both windows use it.
#include <epoxy/gl.h>
#define IMGUI_IMPL_OPENGL_LOADER_CUSTOM

#include LB_IMGUI_IMPL_OPENGL3
