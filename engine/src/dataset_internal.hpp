#pragma once
// Helpers shared by the data-set files (dataset.cpp, dataset_kitti.cpp, dataset_iqa.cpp,
// stereo_layout.cpp):
// case-insensitive folder listings (the published sets mix I01.BMP / i01_01_1.bmp) and the
// KITTI folder names. Not part of the engine's interface.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lb::dataset::detail {

std::string lower(std::string s);
bool is_dir(const std::filesystem::path& p);   // false (not an exception) when it cannot be read
bool is_file(const std::filesystem::path& p);  // a regular file

// The entries of dir, lower-case name -> name as on disk (files when want_dirs is false,
// folders when true). Sorted by the lower-case name; the first of two names differing only in
// case wins. Empty when dir is not a folder.
std::map<std::string, std::string> list_lower(const std::filesystem::path& dir, bool want_dirs);

// s without leading and trailing white space.
std::string trim(const std::string& s);
// A whole finite number (trailing white space allowed): true and *out set, false otherwise.
// The callers word their own one-line errors.
bool parse_finite(const std::string& v, double* out);

// A small text file (at most max_bytes), read whole; one-line lb::Error naming it otherwise.
std::string read_text_file(const std::filesystem::path& p, const std::string& what, std::uintmax_t max_bytes);

// KITTI: the folders of a training folder that are present ("" when absent).
struct KittiFolders {
  std::string left, right;  // image_0 / image_1 (2012) or image_2 / image_3 (2015)
  std::string occ, noc;     // disp_occ_0 or disp_occ, disp_noc_0 or disp_noc
  std::string obj;          // obj_map (2015)
};
// True when dir holds any of image_0 .. image_3 (a KITTI folder, complete or not).
bool looks_like_kitti(const std::filesystem::path& dir);
KittiFolders kitti_folders(const std::filesystem::path& training);
// The frames NNNNNN_10 of a training folder (left image or truth present), sorted. Throws
// lb::Error (one line) when a pair folder or every truth folder is missing, or no frame is found.
std::vector<std::string> kitti_frames(const std::string& training_dir);

}  // namespace lb::dataset::detail
