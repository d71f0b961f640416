#include "timing_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace lb::viewer {
namespace {

std::vector<std::string> split_name(const std::string& id) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t slash; (slash = id.find('/', start)) != std::string::npos; start = slash + 1)
    parts.push_back(id.substr(start, slash - start));
  parts.push_back(id.substr(start));
  return parts;
}

}  // namespace

void draw_timings(BackendPool& pool, Algorithm& algorithm, std::string& plotted) {
  struct Row {
    TimingRegistry* registry;
    std::string device, kernel, id;
    TimingStats stats;
  };
  std::vector<TimingSource> sources;
  (void)pool;
  algorithm.timing_sources(sources);  // the algorithm's runners, per backend
  std::vector<Row> rows;
  for (const TimingSource& s : sources)
    for (const auto& k : s.registry->kernels())
      rows.push_back({s.registry, s.device, k, s.prefix + "/" + k, s.registry->stats(k)});
  if (rows.empty()) {
    ImGui::TextDisabled("no kernel launches yet");
    return;
  }
  if (std::none_of(rows.begin(), rows.end(), [&](const Row& r) { return r.id == plotted; }))
    plotted = rows.front().id;

  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("timings", 5, flags)) {
    ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("last ms");
    ImGui::TableSetupColumn("median");
    ImGui::TableSetupColumn("min");
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableHeadersRow();
    // The names are shown as a tree of their '/'-separated parts (backend, then each part
    // indented under the one before), so long names such as "CUDA/lfdepth/refine/wta +
    // subpixel" fit the side panel; the tooltip holds the whole name and the device.
    std::vector<std::string> open;  // the parts (backend first) whose header rows are shown
    for (const Row& r : rows) {
      std::vector<std::string> parts = split_name(r.id);
      const std::string leaf = parts.back();
      parts.pop_back();
      std::size_t same = 0;
      while (same < open.size() && same < parts.size() && open[same] == parts[same]) ++same;
      for (std::size_t d = same; d < parts.size(); ++d) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%*s%s", static_cast<int>(2 * d), "", parts[d].c_str());
      }
      open = parts;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string label = std::string(2 * parts.size(), ' ') + leaf + "##" + r.id;
      if (ImGui::Selectable(label.c_str(), r.id == plotted, ImGuiSelectableFlags_SpanAllColumns))
        plotted = r.id;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s on %s\n%zu samples, max %.3f ms\nGB/s: bytes the kernel must move "
                          "/ median time",
                          r.kernel.c_str(), r.device.c_str(), r.stats.count,
                          r.stats.max_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", r.stats.last_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", r.stats.median_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", r.stats.min_ms);
      ImGui::TableNextColumn();
      if (r.stats.median_gbps > 0.0)
        ImGui::Text("%.1f", r.stats.median_gbps);
      else
        ImGui::TextDisabled("-");  // no byte count for this kernel (host timers)
    }
    ImGui::EndTable();
  }
  for (const Row& r : rows) {
    if (r.id != plotted) continue;
    const auto hist = r.registry->history(r.kernel);
    std::vector<float> ms;
    ms.reserve(hist.size());
    for (const auto& s : hist) ms.push_back(static_cast<float>(s.ms));
    const float hi = ms.empty() ? 1.0f : *std::max_element(ms.begin(), ms.end()) * 1.1f;
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s: median %.3f ms", r.id.c_str(), r.stats.median_ms);
    ImGui::PlotLines("##history", ms.data(), static_cast<int>(ms.size()), 0, overlay, 0.0f, hi,
                     ImVec2(ImGui::GetContentRegionAvail().x, 70));
  }
}

}  // namespace lb::viewer
