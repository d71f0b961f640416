#pragma once
// Data sets in their published layouts, detected from the files present: one scene's folder,
// a folder of scene folders, a KITTI `training/` folder (each frame a scene), or an IQA
// database (each distorted image an item). What `eval` and `batch` walk, what `--scene DIR`,
// `--stereo DIR` and `--lf DIR` open. Every problem (nothing recognisable, two layouts at once,
// a missing or malformed file, mismatched sizes) is one lb::Error line naming the file.
//
// Layouts:
//  * middlebury2001 / middlebury2014: stereo_io.hpp (load_stereo_scene).
//  * kitti: a folder with image_0 + image_1 (2012) or image_2 + image_3 (2015), frames
//    NNNNNN_10.png; truth disp_occ(_0) and disp_noc(_0) (16-bit PNG, value / 256, 0 = unknown),
//    obj_map/ (2015, 8-bit, > 0 = foreground) when present. Only the _10 frames have truth
//    and are scenes.
//  * hci: a light-field folder (lightfield.hpp, parameters.cfg) or any view-grid folder.
//  * tid2013: reference_images/, distorted_images/, mos_with_names.txt ("MOS name" lines).
//  * kadid10k: images/ and dmos.csv (dist_img,ref_img,dmos[,var]).
#include <memory>
#include <string>
#include <vector>

#include "lightbench/algorithm.hpp"  // DataKind, AlgorithmData
#include "lightbench/evaluation.hpp"
#include "lightbench/image.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb::dataset {

enum class Layout { Middlebury2001, Middlebury2014, Kitti, Hci, Tid2013, Kadid10k };
const char* to_string(Layout l);  // "middlebury2001", "middlebury2014", "kitti", "hci", "tid2013", "kadid10k"
// "auto" -> false (detect); the names above and the aliases of parse_stereo_layout.
bool parse_layout(const std::string& name, Layout* out);
DataKind data_kind(Layout l);  // stereo pair, light field, image pair

// One scene (or IQA item) of a data set.
struct SceneRef {
  std::string name;  // Middlebury / HCI: the folder's name; KITTI: the frame ("000000_10");
                     // IQA: the distorted image's file name
  std::string path;  // the scene's folder (KITTI: the training folder; IQA: the distorted image)
  Layout layout = Layout::Middlebury2001;
  // IQA only: the reference image and the human score.
  std::string reference;
  double mos = 0;
};

struct Dataset {
  std::string root;
  Layout layout = Layout::Middlebury2001;
  bool is_dmos = false;         // IQA: KADID's DMOS (higher = worse) rather than MOS
  std::vector<SceneRef> scenes;  // sorted by name; never empty
};

// A scene folder, a folder of scene folders (each of one layout; sub-folders that hold no
// scene are skipped, ones that hold a broken scene are kept and fail when opened), a KITTI
// training folder, or an IQA database. force: "auto" or a layout name. gt_scale as
// load_stereo_scene's (Middlebury 2001-2006).
Dataset open_dataset(const std::string& dir, const std::string& force = "auto");

// Opens one scene as the algorithm data of its kind (StereoData with ndisp_hint, LightFieldData,
// ImagePairData) and its truth for eval::evaluate (protocol set; empty disparity when the
// scene has none). gt_scale > 0 overrides the published scale (Middlebury 2001-2006).
struct OpenedScene {
  std::shared_ptr<const AlgorithmData> data;
  eval::Truth truth;
  bool has_truth = false;
  std::string truth_path;  // for reports
};
OpenedScene open_scene(const SceneRef& scene, double gt_scale = 0);

// KITTI: one frame of a training folder as a stereo scene (layout "kitti", truth as
// eval::Truth documents: disparity = disp_occ, mask_nonocc from disp_noc).
stereo::StereoScene load_kitti_frame(const std::string& training_dir, const std::string& frame,
                                     ImageU8* obj_map = nullptr);

// ---- disparity map files (any method's) --------------------------------------------------
// .pfm: as stored (inf / NaN stay: invalid estimates, unknown truth). .png 16-bit grey: the
// KITTI convention, value / 256, 0 -> NaN (invalid / unknown). An 8-bit PNG is refused in one
// line (its scale is unknown) unless png8_scale > 0 (value / scale, 0 -> NaN).
ImageF load_disparity_map(const std::string& path, double png8_scale = 0);
// 16-bit PNG, KITTI convention: round(d * 256) clamped to 1..65535 for finite d >= 0 (a
// positive d too small to show becomes 1, not "invalid"), 0 for NaN, inf or negative.
void save_kitti_disparity(const std::string& path, const ImageF& disp);

// ---- IQA ----------------------------------------------------------------------------------
// The human scores of a database: TID2013 mos_with_names.txt, KADID-10k dmos.csv. Names
// are matched case-insensitively (TID2013 mixes i01 / I01).
Dataset open_iqa_database(const std::string& dir, Layout layout);

// The score files' lines, parsed (what open_iqa_database reads; the fuzz harness calls them).
// where: the file's name for the one-line errors ("line N: ...": not a number, a missing
// field, a name that is not a plain file name, a name listed twice, no entry at all).
struct IqaEntry {
  std::string distorted;  // the distorted image's file name
  std::string reference;  // KADID: the reference's file name; TID2013: its stem ("I01")
  double score = 0;       // MOS (TID2013) or DMOS (KADID-10k)
  int line = 0;
};
// "MOS name" lines; the name as iNN_DD_L.ext (TID2013 / TID2008), its reference INN.
std::vector<IqaEntry> parse_tid2013_mos(const std::string& text, const std::string& where);
// The header dist_img,ref_img,dmos[,var], then one line per distorted image.
std::vector<IqaEntry> parse_kadid_dmos(const std::string& text, const std::string& where);

// The scene called `name` (exact, else the one equal ignoring case); lb::Error listing up to 5
// names and the count otherwise. For the CLI's --scene DIR --frame NAME and the viewer.
const SceneRef& select_scene(const Dataset& ds, const std::string& name);

}  // namespace lb::dataset
