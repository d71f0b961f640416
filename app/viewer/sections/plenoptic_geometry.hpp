#pragma once
// The plenoptic-hex section's Geometry header: the scene's micro-lens geometry typed in the
// panel (diameter, offset x / y, rotation), "fit offset" (the grid's phase fitted to the raw,
// fit_mla_offset), back to the geometry the scene came with, and the lens-circle overlay's
// switch. Every applied edit makes a new scene data object (SceneStore::set_geometry); a
// geometry that does not fit the raw is refused with a red line and the previous one stays.
#include <string>

#include "scene_store.hpp"
#include "lightbench/mla_geometry.hpp"

namespace lb::viewer {

struct GeometryEdit {
  MlaGeometry g;            // the fields (applied when valid)
  double rotation_deg = 0;  // the rotation field, degrees (g.rotation is radians)
  std::string error;        // why the last edit was not applied ("" : it was)
  std::string note;         // the last fit's result
  bool show_lenses = true;  // lens circles over the raw image
  void reset(const MlaGeometry& from);
};

// Draws the header's widgets; true when the scene's geometry changed (a new data object).
bool draw_geometry_section(SceneStore& store, GeometryEdit& edit);

// One line for the panel and the sidecar: "hexagonal, D 34.86 px, 3 lens types".
std::string geometry_summary(const MlaGeometry& g);

}  // namespace lb::viewer
