#include "harnesses.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <unistd.h>

#include "lightbench/assets.hpp"
#include "lightbench/csv.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb::fuzz {
namespace fs = std::filesystem;
namespace {

// A private temporary folder for this process (removed at exit).
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "lb-fuzz-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

fs::path temp_root() {
  static TempDir dir;
  return dir.path;
}

void write_bytes(const fs::path& p, const std::uint8_t* data, std::size_t size) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

// Unpacks the archive (see pack_folder) into a fresh folder `dir`; returns the option byte.
std::uint8_t unpack_folder(const std::uint8_t* data, std::size_t size, const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  if (size == 0) return 0;
  const std::uint8_t options = data[0];
  std::size_t i = 1;
  for (int entries = 0; entries < 32 && i < size; ++entries) {
    const std::size_t n = data[i++];
    if (n == 0 || size - i < n) break;
    std::string name(reinterpret_cast<const char*>(data + i), n);
    i += n;
    for (char& ch : name)
      if (ch == '/' || ch == '\0') ch = '_';
    if (name == "." || name == "..") name = "_";
    std::size_t len = 0;
    if (size - i >= 2) {
      len = data[i] | (data[i + 1] << 8);
      i += 2;
    } else {
      i = size;
    }
    len = std::min(len, size - i);
    write_bytes(dir / name, data + i, len);
    i += len;
  }
  return options;
}

void image(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  decode_image(bytes, "fuzz-input");
}

void pfm(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  decode_pfm(bytes, "fuzz-input.pfm");
}

// PNM only: the first byte picks P5 or P6 and the rest follows the magic, so every input
// reaches the PNM parser (the image harness finds the other formats).
void pnm(const std::uint8_t* data, std::size_t size) {
  // Sized once and copied into (an insert after a 2-byte initialiser trips GCC 12's
  // -Warray-bounds false positive).
  std::vector<unsigned char> bytes(size > 1 ? size + 1 : 2);
  bytes[0] = 'P';
  bytes[1] = static_cast<unsigned char>(size && (data[0] & 1) ? '6' : '5');
  if (size > 1) std::copy(data + 1, data + size, bytes.begin() + 2);
  const int want = size ? "\0\1\3\4"[(data[0] >> 1) & 3] : 0;
  decode_image(bytes, "fuzz-input.pnm", want);
}

// scene.json next to a valid raw.png and truth.pfm (the tiny preset), written once.
void scene(const std::uint8_t* data, std::size_t size) {
  static const fs::path dir = [] {
    const fs::path d = temp_root() / "scene";
    save_scene(d.string(), generate_scene(generator_preset("tiny"), 1));
    return d;
  }();
  write_bytes(dir / "scene.json", data, size);
  load_scene((dir / "scene.json").string());
}

// The first byte picks the asset kind (bits 0-1, or bit 2: plenoptic_hex); the rest is the
// JSON text.
void assets(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 4) {  // bit 2: the hexagonal generator's presets (issue 22)
    parse_plenoptic_hex_asset(text, "fuzz/plenoptic_hex.json");
    return;
  }
  switch (data[0] & 3) {
    case 0: parse_plenoptic_asset(text, "fuzz/plenoptic.json"); break;
    case 1: parse_lightfield_asset(text, "fuzz/lightfield.json"); break;
    case 2: parse_stereo_asset(text, "fuzz/stereo.json"); break;
    default: parse_mad_asset(text, "fuzz/mad.json"); break;
  }
}

// Option byte: bit 0 load the ground truth; bit 1 an explicit grid of (1 + bits 2-3) x
// (1 + bits 4-5).
void lightfield(const std::uint8_t* data, std::size_t size) {
  const fs::path dir = temp_root() / "lf";
  const std::uint8_t o = unpack_folder(data, size, dir);
  LightFieldLoadOptions opt;
  opt.load_gt = o & 1;
  if (o & 2) {
    opt.grid_u = 1 + ((o >> 2) & 3);
    opt.grid_v = 1 + ((o >> 4) & 3);
  }
  load_lightfield(dir.string(), opt);
}

// Option byte: bits 0-1 pick the ground-truth scale 0 (by folder name), 1, 8 or 16.
void stereo(const std::uint8_t* data, std::size_t size) {
  const fs::path dir = temp_root() / "stereo";
  const std::uint8_t o = unpack_folder(data, size, dir);
  static const double scales[4] = {0, 1, 8, 16};
  stereo::load_stereo_scene(dir.string(), scales[o & 3]);
}

// Full-depth PNG decoding (load_image16's): the 16-bit truths of KITTI, disparity maps.
void image16(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  int depth = 0;
  decode_image16(bytes, "fuzz-input.png", 0, &depth);
}

// The data sets' text files; the first byte picks the parser: TID2013 mos_with_names.txt,
// KADID-10k dmos.csv, Middlebury 2014 calib.txt (bits 0-1; 3 is calib.txt too).
void dataset_text(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] & 3) {
    case 0: dataset::parse_tid2013_mos(text, "fuzz/mos_with_names.txt"); break;
    case 1: dataset::parse_kadid_dmos(text, "fuzz/dmos.csv"); break;
    default: stereo::parse_stereo_calib(text, "fuzz/calib.txt"); break;
  }
}

// Raytrix RayCalibData XML (pugixml, then MlaLayout's consistency checks); an accepted file's
// grid is then enumerated over a small raw and queried, so the geometry code runs on whatever
// the reader lets through.
void raytrix_calib(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const MlaGeometry g = parse_raytrix_calibration(text, "fuzz/calib.xml");
  const MlaLayout m(g, "fuzz/calib.xml");
  const auto lenses = m.lenses_in(300, 200);
  for (std::size_t k = 0; k < lenses.size() && k < 64; ++k) {
    const MlaLens n = m.nearest(lenses[k].cx + 0.25, lenses[k].cy - 0.25);
    if (n.type < 0 || n.type >= m.type_count()) throw std::logic_error("lens type out of range");
  }
}

// The one CSV reader (lightbench/csv.hpp) as `batch` resume (a torn last row dropped) and
// `batch --merge` read it. Option byte: bit 0 the resume tail (Tail::DropTorn), else
// Tail::Complete; the rest is the file. Besides not crashing, what it accepts must hold:
// every row has the header's field count, the table written back reads back the same, and
// the resume reading differs from the merge reading by at most the one torn last row (no
// row is ever lost elsewhere).
void csv(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool resume = data[0] & 1;
  const csv::Table t = csv::parse(text, "fuzz/b.csv", resume ? csv::Tail::DropTorn : csv::Tail::Complete);
  for (const auto& r : t.rows)
    if (r.size() != t.header.size()) throw std::logic_error("csv: a row of another field count was accepted");
  const csv::Table back = csv::parse(csv::text(t), "fuzz/back.csv", csv::Tail::Complete);
  if (back.header != t.header || back.rows != t.rows) throw std::logic_error("csv: the table does not read back");
  if (resume) {
    // A kill tears only the last record, which holds no line break outside quotes (a line
    // break is outside quotes when an even number of quotes precede it): the text up to the
    // last such line break must read whole, to the same rows. And a quote left open (an odd
    // count) must have no line break after it, or it would swallow rows (the bug of issue 39:
    // an unclosed quote in the middle read as a torn tail).
    std::size_t quotes = 0, cut = 0, last_quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '"') ++quotes, last_quote = i;
      if (text[i] == '\n' && quotes % 2 == 0) cut = i + 1;
    }
    if (quotes % 2 == 1 && text.find('\n', last_quote) != std::string_view::npos)
      throw std::logic_error("csv: a quote left open before line breaks was read as a torn tail");
    csv::Table head;
    bool head_ok = true;
    try {
      head = csv::parse(text.substr(0, cut), "fuzz/head.csv", csv::Tail::Complete);
    } catch (const Error&) {
      head_ok = false;
    }
    if (head_ok ? head.rows != t.rows : !t.rows.empty())
      throw std::logic_error("csv: the resume reading dropped more than its torn last record");
  }
  csv::Table other;
  try {
    other = csv::parse(text, "fuzz/b.csv", resume ? csv::Tail::Complete : csv::Tail::DropTorn);
  } catch (const Error&) {
    if (!resume) throw std::logic_error("csv: a file read whole is refused as a resume file");
    return;  // the resume reading dropped a torn last row that the whole reading refuses
  }
  const csv::Table& whole = resume ? other : t;
  const csv::Table& torn = resume ? t : other;
  if (whole.header != torn.header || whole.rows.size() < torn.rows.size() ||
      whole.rows.size() > torn.rows.size() + 1 ||
      !std::equal(torn.rows.begin(), torn.rows.end(), whole.rows.begin()))
    throw std::logic_error("csv: the resume reading lost a row other than the torn last one");
}

// An IQA method's score list (`eval --scores`: lb::csv::parse_scores); an accepted list is
// written back as CSV and must read back the same.
void scores(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::map<std::string, double> s = csv::parse_scores(text, "fuzz/scores.csv");
  csv::Table t;
  t.header = {"name", "score"};
  for (const auto& [name, v] : s) t.rows.push_back({name, csv::number_text(v)});
  if (csv::parse_scores(csv::text(t), "fuzz/back.csv") != s) throw std::logic_error("scores: do not read back");
}

// An HCI folder's parameters.cfg (its reader in lightfield.cpp, reached through
// load_lightfield): the file next to nine 4x3 views input_Cam000..008.png, written once.
void hci_cfg(const std::uint8_t* data, std::size_t size) {
  static const fs::path dir = [] {
    const fs::path d = temp_root() / "hci";
    fs::create_directories(d);
    for (int i = 0; i < 9; ++i) {
      ImageU8 v(4, 3, 3);
      for (std::size_t k = 0; k < v.data.size(); ++k) v.data[k] = static_cast<std::uint8_t>(k * 29 + i * 7);
      save_image((d / ("input_Cam00" + std::to_string(i) + ".png")).string(), v);
    }
    return d;
  }();
  write_bytes(dir / "parameters.cfg", data, size);
  load_lightfield(dir.string(), LightFieldLoadOptions{});
}

}  // namespace

const std::vector<std::string>& harness_names() {
  static const std::vector<std::string> names{"image", "pfm", "pnm", "scene", "assets",
                                              "lightfield", "stereo", "image16", "dataset_text",
                                              "raytrix_calib", "csv", "scores", "hci_cfg"};
  return names;
}

bool run_harness(const std::string& name, const std::uint8_t* data, std::size_t size) {
  try {
    if (name == "image") image(data, size);
    else if (name == "pfm") pfm(data, size);
    else if (name == "pnm") pnm(data, size);
    else if (name == "scene") scene(data, size);
    else if (name == "assets") assets(data, size);
    else if (name == "lightfield") lightfield(data, size);
    else if (name == "stereo") stereo(data, size);
    else if (name == "image16") image16(data, size);
    else if (name == "dataset_text") dataset_text(data, size);
    else if (name == "raytrix_calib") raytrix_calib(data, size);
    else if (name == "csv") csv(data, size);
    else if (name == "scores") scores(data, size);
    else if (name == "hci_cfg") hci_cfg(data, size);
    else throw std::invalid_argument("no fuzz harness named '" + name + "'");
  } catch (const Error&) {
    return false;
  }
  return true;
}

std::vector<std::uint8_t> pack_folder(
    std::uint8_t options, const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& files) {
  std::vector<std::uint8_t> out{options};
  for (const auto& [name, bytes] : files) {
    if (name.empty() || name.size() > 255 || bytes.size() > 65535)
      throw std::invalid_argument("pack_folder: entry '" + name + "' does not fit");
    out.push_back(static_cast<std::uint8_t>(name.size()));
    out.insert(out.end(), name.begin(), name.end());
    out.push_back(static_cast<std::uint8_t>(bytes.size() & 255));
    out.push_back(static_cast<std::uint8_t>(bytes.size() >> 8));
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

}  // namespace lb::fuzz
