// IQA databases (dataset.hpp): TID2013 (mos_with_names.txt, reference_images/,
// distorted_images/) and KADID-10k (dmos.csv, images/). Every line of the score file must
// name a distorted image and a reference that are there; file names are matched ignoring case
// (TID2013 lists i01_01_1.bmp next to I01.BMP).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "dataset_internal.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"

namespace lb::dataset {

namespace fs = std::filesystem;
using namespace detail;

namespace {

// The score files: TID2013's has 3000 lines (~70 KB), KADID-10k's 10125 (~400 KB).
constexpr std::uintmax_t kMaxScoreFile = 16u << 20;

// A cell or line of a score file (untrusted: control bytes escaped, lb::quote_untrusted), cut at 60.
std::string shown(const std::string& s) { return quote_untrusted(s, 60); }

double score(const std::string& v, const std::string& at) {
  double x = 0;
  LB_REQUIRE(parse_finite(v, &x), at + shown(v) + " is not a number");
  return x;
}

// A plain file name: no folder part, no control character, not "." or "..".
void require_file_name(const std::string& n, const std::string& at) {
  bool ok = !n.empty() && n.size() <= 255 && n != "." && n != "..";
  for (char c : n) ok = ok && c != '/' && c != '\\' && static_cast<unsigned char>(c) >= 32;
  LB_REQUIRE(ok, at + shown(n) + " is not a plain file name");
}

// The file's lines (\n or \r\n), numbered from 1, a UTF-8 byte-order mark dropped.
std::vector<std::pair<int, std::string>> lines_of(const std::string& text) {
  std::vector<std::pair<int, std::string>> out;
  std::istringstream in(text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? text.substr(3) : text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) out.push_back({++n, line});
  return out;
}

// Each distorted image once (ignoring case, as the files are matched).
void require_unique(const std::vector<IqaEntry>& es, const std::string& where) {
  LB_REQUIRE(!es.empty(), where + ": no entry");
  std::map<std::string, int> seen;
  for (const auto& e : es) {
    const auto [it, fresh] = seen.emplace(lower(e.distorted), e.line);
    LB_REQUIRE(fresh, where + ": line " + std::to_string(e.line) + ": " + shown(e.distorted) +
                          " is listed twice (first on line " + std::to_string(it->second) + ")");
  }
}

}  // namespace

std::vector<IqaEntry> parse_tid2013_mos(const std::string& text, const std::string& where) {
  static const std::regex name_re(R"(i(\d+)_\d+_\d+\.[a-z0-9]+)", std::regex::icase);
  std::vector<IqaEntry> out;
  for (const auto& [n, raw] : lines_of(text)) {
    const std::string line = trim(raw);
    if (line.empty()) continue;
    const std::string at = where + ": line " + std::to_string(n) + ": ";
    std::istringstream in(line);
    std::string mos, name, extra;
    in >> mos >> name;
    LB_REQUIRE(!name.empty() && !(in >> extra), at + "expected 'MOS name' (e.g. '5.51429 i01_01_1.bmp'), got " + shown(line));
    IqaEntry e;
    e.score = score(mos, at + "the MOS ");
    require_file_name(name, at);
    std::smatch m;
    LB_REQUIRE(std::regex_match(name, m, name_re) && m[1].length() <= 4,
               at + shown(name) + " is not a TID2013 name (iNN_DD_L.bmp: reference, distortion, level)");
    e.distorted = name;
    e.reference = m[1].str();
    e.reference.insert(e.reference.begin(), 'I');
    e.line = n;
    out.push_back(std::move(e));
  }
  require_unique(out, where);
  return out;
}

std::vector<IqaEntry> parse_kadid_dmos(const std::string& text, const std::string& where) {
  std::vector<IqaEntry> out;
  std::size_t columns = 0;
  for (const auto& [n, raw] : lines_of(text)) {
    const std::string line = trim(raw);
    if (line.empty()) continue;
    const std::string at = where + ": line " + std::to_string(n) + ": ";
    std::vector<std::string> f;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, ',')) f.push_back(trim(field));
    if (!line.empty() && line.back() == ',') f.push_back("");
    if (columns == 0) {  // the header
      std::string h;
      for (const auto& x : f) {
        if (!h.empty()) h += ',';
        h += lower(x);
      }
      LB_REQUIRE(h == "dist_img,ref_img,dmos" || h == "dist_img,ref_img,dmos,var",
                 at + "the header is " + shown(line) + ", expected dist_img,ref_img,dmos[,var]");
      columns = f.size();
      continue;
    }
    LB_REQUIRE(f.size() == columns, at + std::to_string(f.size()) + " fields, the header has " +
                                        std::to_string(columns) + " (" + shown(line) + ")");
    IqaEntry e;
    require_file_name(f[0], at + "dist_img ");
    require_file_name(f[1], at + "ref_img ");
    e.distorted = f[0];
    e.reference = f[1];
    e.score = score(f[2], at + "dmos ");
    if (columns == 4) score(f[3], at + "var ");
    e.line = n;
    out.push_back(std::move(e));
  }
  LB_REQUIRE(columns > 0, where + ": empty (expected the header dist_img,ref_img,dmos[,var])");
  require_unique(out, where);
  return out;
}

Dataset open_iqa_database(const std::string& dir_s, Layout layout) {
  LB_REQUIRE(layout == Layout::Tid2013 || layout == Layout::Kadid10k,
             std::string("open_iqa_database: '") + to_string(layout) + "' is not an IQA layout");
  const fs::path dir(dir_s);
  LB_REQUIRE(is_dir(dir), std::string(to_string(layout)) + " folder '" + dir_s + "': no such folder");
  const bool tid = layout == Layout::Tid2013;
  const char* expected = tid ? "(expected mos_with_names.txt, reference_images/, distorted_images/)"
                             : "(expected dmos.csv and images/)";
  const std::string what = tid ? "TID2013 folder '" + dir_s + "'" : "KADID-10k folder '" + dir_s + "'";
  const auto files = list_lower(dir, false), dirs = list_lower(dir, true);
  auto need = [&](const std::map<std::string, std::string>& in, const std::string& n) {
    const auto it = in.find(n);
    LB_REQUIRE(it != in.end(), what + ": " + n + " is missing " + expected);
    return dir / it->second;
  };
  const fs::path score_file = need(files, tid ? "mos_with_names.txt" : "dmos.csv");
  const fs::path dist_dir = need(dirs, tid ? "distorted_images" : "images");
  const fs::path ref_dir = tid ? need(dirs, "reference_images") : dist_dir;
  const std::string where = score_file.filename().string() + " '" + score_file.string() + "'";
  const std::string text = read_text_file(score_file, score_file.filename().string(), kMaxScoreFile);
  const std::vector<IqaEntry> entries = tid ? parse_tid2013_mos(text, where) : parse_kadid_dmos(text, where);

  const auto dist_files = list_lower(dist_dir, false);
  // TID2013's references by stem ("i01" -> "I01.BMP"); KADID's by full name.
  std::map<std::string, std::string> refs;
  for (const auto& [low, name] : list_lower(ref_dir, false))
    refs.emplace(tid ? lower(fs::path(low).stem().string()) : low, name);

  Dataset ds;
  ds.root = dir_s;
  ds.layout = layout;
  ds.is_dmos = !tid;
  for (const auto& e : entries) {
    const std::string at = where + ": line " + std::to_string(e.line) + ": ";
    const auto d = dist_files.find(lower(e.distorted));
    LB_REQUIRE(d != dist_files.end(), at + shown(e.distorted) + " is not in " + dist_dir.filename().string() + "/");
    const auto r = refs.find(lower(e.reference));
    LB_REQUIRE(r != refs.end(), at + "its reference " + shown(e.reference) + " is not in " +
                                    ref_dir.filename().string() + "/");
    SceneRef s;
    s.name = d->second;
    s.path = (dist_dir / d->second).string();
    s.layout = layout;
    s.reference = (ref_dir / r->second).string();
    s.mos = e.score;
    ds.scenes.push_back(std::move(s));
  }
  std::sort(ds.scenes.begin(), ds.scenes.end(), [](const SceneRef& a, const SceneRef& b) { return a.name < b.name; });
  return ds;
}

}  // namespace lb::dataset
