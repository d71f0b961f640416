#pragma once
// The bundled scenes: small JSON parameter files under assets/<kind>/<name>.json that say how
// the generators make each scene (no image data). They are embedded into the binaries at
// build time (engine/embed_assets.cmake), so the CLI, the viewer and the tests find them
// wherever they run. A directory on disk overrides them file by file: set_assets_dir() (the
// CLI's `generate --assets DIR`), else the environment variable LB_ASSETS_DIR. A file
// DIR/<kind>/<name>.json replaces the embedded one of the same name or adds a new one.
//
// Kinds (assets/README.md documents every key):
//   plenoptic   focused-plenoptic generator presets (GeneratorParams): tiny, small, seed
//   lightfield  the synthetic 4D light field (two planes)
//   stereo      the synthetic stereo pair (two planes)
//   mad         the MAD pair: which plenoptic scene is the reference, the default distortion
//   plenoptic_hex  hexagonal multi-focus generator presets (HexGeneratorParams): hex-small
//
// Parsing is strict: an unknown key, a value of the wrong type or out of range throws an
// lb::Error of one line naming the file and the key, e.g.
//   "assets/plenoptic/small.json: 'grid.pitch': expected a number in 4..1024, got 2"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/distort.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb {

// ---- where the files come from ----------------------------------------------------------
// The override directory; "" clears it (then LB_ASSETS_DIR, if set, applies).
void set_assets_dir(const std::string& dir);
// The override in effect ("" for none). Throws lb::Error when it is not a directory.
std::string assets_dir();

std::vector<std::string> asset_kinds();  // plenoptic, lightfield, stereo, mad, plenoptic_hex
// The asset names of a kind (file stems), embedded and override together, sorted by name
// (plenoptic presets: smallest micro-lens grid first, so tiny, small, seed; a malformed
// override file last). Throws only for an unknown kind or a missing override directory.
std::vector<std::string> asset_names(const std::string& kind);

struct AssetText {
  std::string where;  // for messages: "assets/plenoptic/small.json" or the file on disk
  std::string text;
};
// The file's text; throws lb::Error naming the kind's assets when there is no such name.
AssetText read_asset(const std::string& kind, const std::string& name);

// ---- parsers (strict; `where` names the file in errors) --------------------------------
// plenoptic: the format scene_json() writes, plus an optional "description".
GeneratorParams parse_plenoptic_asset(const std::string& text, const std::string& where);

// plenoptic_hex: the raw size, a micro-lens grid ("mla": diameter, offset, sub_grid_base,
// types; Raytrix bases unless given), the planes and generator settings (assets/README.md).
HexGeneratorParams parse_plenoptic_hex_asset(const std::string& text, const std::string& where);
// The micro-lens grid object of a plenoptic_hex asset and of a scene.json ("mla", assets/
// README.md), strict and validated (MlaLayout): one line "<where>: 'mla.<key>': <problem>".
MlaGeometry parse_mla_json(const nlohmann::json& mla, const std::string& where);
// The object parse_mla_json reads back to the same geometry (an open depth range, +infinity,
// is written as 1e6; every other number exactly). kind follows from the bases.
nlohmann::json mla_to_json(const MlaGeometry& g);

struct LightFieldAsset {
  int width = 0, height = 0;     // of every view
  int views_u = 0, views_v = 0;  // angular size
  float disparity_back = 0, disparity_front = 0;  // px per view
  unsigned seed = 1;
  int smoothing = 0;             // 3x3 box passes over the random texture
};
LightFieldAsset parse_lightfield_asset(const std::string& text, const std::string& where);

struct StereoAsset {
  int width = 0, height = 0;
  int disparity_back = 0, disparity_front = 0;
  int ndisp = 0;     // the disparity count the viewer suggests
  int channels = 1;  // 1 gray, 3 RGB
  std::uint32_t seed = 1;
};
StereoAsset parse_stereo_asset(const std::string& text, const std::string& where);

struct MadAsset {
  std::string reference_preset;     // a plenoptic asset, rendered on the CPU (default params)
  std::uint64_t reference_seed = 1;
  DistortParams distortion;         // kind: index into all_distort_kinds()
};
MadAsset parse_mad_asset(const std::string& text, const std::string& where);

// ---- the bundled scenes --------------------------------------------------------------
// generator_preset(name, seed) (generator.hpp) reads assets/plenoptic/<name>.json.
LightFieldAsset lightfield_asset(const std::string& name = "two_planes");
StereoAsset stereo_asset(const std::string& name = "two_planes");
MadAsset mad_asset(const std::string& name = "default_distortion");

// The scenes themselves; a seed replaces the file's.
LightField4D bundled_lightfield(std::optional<unsigned> seed = std::nullopt,
                                const std::string& name = "two_planes");
stereo::StereoScene bundled_stereo(std::optional<std::uint32_t> seed = std::nullopt,
                                   const std::string& name = "two_planes");
// The MAD reference's plenoptic scene and the default distortion.
GeneratorParams bundled_mad_reference(const std::string& name = "default_distortion");
DistortParams bundled_distortion(const std::string& name = "default_distortion");

}  // namespace lb
