#pragma once
// Foreign files in a pane (`--paneN file=PATH`, the pane's "file..." entry, a file dropped on
// a pane): another method's disparity map (PFM, or a 16-bit PNG in the KITTI convention,
// dataset::load_disparity_map) shown as a scalar image and scored against the current data's
// truth with eval::evaluate, or any 8-bit image shown as it is. No GL and no ImGui here (the
// app uploads and draws; tests call these directly).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "lightbench/evaluation.hpp"
#include "lightbench/image.hpp"

namespace lb::viewer {

struct ForeignFile {
  std::string path;
  bool is_map = false;  // a disparity map (scalar) rather than an image
  ImageF map;           // is_map: NaN / inf = invalid estimates, as the file says
  ImageU8 image;        // otherwise: RGBA8
  double lo = 0, hi = 1;  // the map's finite range (hi > lo)
};

// .pfm and 16-bit grey .png: a map; .png (8-bit), .jpg, .jpeg, .bmp, .ppm, .pgm: an image.
// Throws lb::Error in one line naming the file (missing, corrupt, unknown kind).
ForeignFile load_foreign_file(const std::string& path);

// "file=PATH" (the key in any case, spaces around it trimmed): true with *path set (the rest
// of the text: a path may hold commas). Throws lb::Error when the path is empty.
bool parse_file_spec(const std::string& spec, std::string* path);

// The scores of a foreign map against a truth (eval::evaluate's JSON) or why there are none.
struct ForeignScore {
  bool scored = false;
  nlohmann::json scores = nlohmann::json::object();  // evaluate()'s groups
  std::string protocol;  // eval::to_string
  std::string note;      // when !scored: "no ground truth", "size 10x8 differs from the truth's 12x8"
  std::string summary;   // one line for the pane: "middlebury2003  nonocc bad100 4.21%  all ..."
};
// truth null: the data has none. Never throws (a scorer's error becomes the note).
ForeignScore score_foreign(const ImageF& map, const eval::Truth* truth);

}  // namespace lb::viewer
