// The panel's parameter widgets (app/viewer/param_widgets.cpp) driven by synthetic mouse input
// on an ImGui context without GL (ImGui::Render only builds draw lists): a slider applies
// its value every frame while live and once on release while runs are slow; a 0/1 Int is a
// checkbox.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <imgui.h>

#include <vector>

#include "param_widgets.hpp"

using lb::ParamInfo;
using lb::viewer::param_sliders;
using lb::viewer::set_apply_on_release;

namespace {

// One ImGui context for a test; frame() draws the widgets of `params` in a fixed window with
// the mouse at `mouse` (button down or not) and returns param_sliders' result and the last
// widget's rectangle.
class WidgetHarness {
 public:
  WidgetHarness() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas NewFrame needs
  }
  ~WidgetHarness() { ImGui::DestroyContext(); }
  WidgetHarness(const WidgetHarness&) = delete;
  WidgetHarness& operator=(const WidgetHarness&) = delete;

  bool frame(const std::vector<ParamInfo>& params, ImVec2 mouse, bool down) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(500, 300));
    ImGui::Begin("widgets", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
    const bool changed = param_sliders(params);
    min_ = ImGui::GetItemRectMin();
    max_ = ImGui::GetItemRectMax();
    ImGui::End();
    ImGui::Render();
    return changed;
  }
  // A point at fraction t of the last widget's width, on its centre line.
  ImVec2 at(float t) const { return ImVec2(min_.x + t * (max_.x - min_.x), 0.5f * (min_.y + max_.y)); }

 private:
  ImVec2 min_, max_;
};

const ImVec2 kAway(790, 590);

}  // namespace

TEST_CASE("a float slider applies its value every frame while live") {
  set_apply_on_release(false);
  WidgetHarness ui;
  float x = 0.5f;
  const std::vector<ParamInfo> params{{"x", "x", "", ParamInfo::Kind::Float, &x, 0.0, 1.0}};
  CHECK_FALSE(ui.frame(params, kAway, false));
  // The slider is the frame's only widget, its label beside it: its rectangle covers both, so
  // aim at the left half (the frame) and compare against where it started.
  CHECK(ui.frame(params, ui.at(0.05f), true));
  const float first = x;
  CHECK(first < 0.5f);
  CHECK(ui.frame(params, ui.at(0.45f), true));
  CHECK(x > first);
  const float dragged = x;
  CHECK_FALSE(ui.frame(params, ui.at(0.45f), false));  // release: nothing left to apply
  CHECK(x == dragged);
}

TEST_CASE("while runs are slow a dragged slider applies once, on release") {
  set_apply_on_release(true);
  WidgetHarness ui;
  float x = 0.5f;
  int n = 50;
  const std::vector<ParamInfo> fparams{{"x", "x", "", ParamInfo::Kind::Float, &x, 0.0, 1.0}};
  CHECK_FALSE(ui.frame(fparams, kAway, false));
  CHECK_FALSE(ui.frame(fparams, ui.at(0.05f), true));  // pressed: the slider moves, x does not
  CHECK(x == 0.5f);
  CHECK_FALSE(ui.frame(fparams, ui.at(0.30f), true));
  CHECK(x == 0.5f);
  CHECK(ui.frame(fparams, ui.at(0.30f), false));  // released: the dragged value, once
  CHECK(x != 0.5f);
  CHECK(x > 0.0f);
  const float applied = x;
  CHECK_FALSE(ui.frame(fparams, kAway, false));  // and nothing after
  CHECK(x == applied);

  const std::vector<ParamInfo> iparams{{"n", "n", "", ParamInfo::Kind::Int, &n, 0.0, 100.0}};
  CHECK_FALSE(ui.frame(iparams, kAway, false));
  CHECK_FALSE(ui.frame(iparams, ui.at(0.05f), true));
  CHECK_FALSE(ui.frame(iparams, ui.at(0.20f), true));
  CHECK(n == 50);
  CHECK(ui.frame(iparams, kAway, false));
  CHECK(n != 50);
  CHECK(n >= 0);
  CHECK(n <= 100);
  set_apply_on_release(false);
}

TEST_CASE("a 0/1 Int parameter is a checkbox: one click toggles it") {
  set_apply_on_release(true);  // a click is a single change: applied at once either way
  WidgetHarness ui;
  int on = 0;
  const std::vector<ParamInfo> params{{"lr_check", "Left-right check", "", ParamInfo::Kind::Int, &on, 0.0, 1.0}};
  CHECK_FALSE(ui.frame(params, kAway, false));
  const ImVec2 box = ui.at(0.02f);
  CHECK(ui.frame(params, box, true) == false);  // ImGui toggles on release
  CHECK(ui.frame(params, box, false));
  CHECK(on == 1);
  CHECK_FALSE(ui.frame(params, kAway, false));
  CHECK(ui.frame(params, box, true) == false);
  CHECK(ui.frame(params, box, false));
  CHECK(on == 0);
  set_apply_on_release(false);
}
