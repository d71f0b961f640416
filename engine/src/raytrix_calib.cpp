// Raytrix RayCalibData XML -> MlaGeometry, through Debian's pugixml (linked statically).
// Strict: every element the geometry needs must be there once, numeric and in its units;
// everything else the loader does not understand (a non-trivial distortion) is refused rather
// than ignored, so a file never gives a silently wrong grid. The consistency checks (ranges,
// collinear bases, the sub-grid rule) are MlaLayout's.
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>

#include <pugixml.hpp>

#include "lightbench/error.hpp"
#include "lightbench/input_file.hpp"
#include "lightbench/mla_geometry.hpp"

namespace lb {

namespace {

constexpr std::size_t kMaxCalibBytes = 4u << 20;  // a real file is about 2 KB

class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& msg) const { throw Error(name_ + ": " + msg); }

  // The single child element `child` of `parent` (path names the parent for messages).
  pugi::xml_node one(pugi::xml_node parent, const char* child, const std::string& path,
                     bool required = true) const {
    pugi::xml_node n = parent.child(child);
    if (!n) {
      if (required) fail("missing element " + path + "/" + child);
      return n;
    }
    if (n.next_sibling(child)) fail("element " + path + "/" + child + " appears twice");
    return n;
  }

  void units(pugi::xml_node n, const char* expected, const std::string& path) const {
    pugi::xml_attribute u = n.attribute("units");
    if (u && std::strcmp(u.value(), expected) != 0)
      fail("element " + path + " has units " + quote_untrusted(u.value(), 40) + ", expected '" + expected + "'");
  }

  double number(pugi::xml_node n, const std::string& path) const {
    std::string text = n.child_value();
    const auto b = text.find_first_not_of(" \t\r\n");
    const auto e = text.find_last_not_of(" \t\r\n");
    text = b == std::string::npos ? std::string() : text.substr(b, e - b + 1);
    double v = 0.0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto r = std::from_chars(first, last, v);
    if (text.empty() || r.ec != std::errc() || r.ptr != last || !std::isfinite(v))
      fail("element " + path + " is not a number (" + quote_untrusted(text, 40) + ")");
    if (n.first_child().next_sibling()) fail("element " + path + " has unexpected children");
    return v;
  }

  double number(pugi::xml_node parent, const char* child, const std::string& path,
                const char* unit = nullptr) const {
    pugi::xml_node n = one(parent, child, path);
    const std::string p = path + "/" + child;
    if (unit) units(n, unit, p);
    return number(n, p);
  }

  MlaVec vec(pugi::xml_node parent, const char* child, const std::string& path,
             const char* unit) const {
    pugi::xml_node n = one(parent, child, path);
    const std::string p = path + "/" + child;
    units(n, unit, p);
    return {number(n, "x", p), number(n, "y", p)};
  }

 private:
  std::string name_;
};

void read_lens_types(const Reader& rd, pugi::xml_node root, MlaGeometry* g) {
  std::vector<pugi::xml_node> nodes;
  for (pugi::xml_node t : root.children("lens_type")) {
    nodes.push_back(t);
    if (nodes.size() > static_cast<std::size_t>(kMlaMaxTypes))
      rd.fail("more than " + std::to_string(kMlaMaxTypes) + " lens_type elements");
  }
  if (nodes.empty()) {
    // One type, sharp at every depth (a single-focus array).
    g->types = {MlaLensType{{0.0, 0.0}, 0.0, std::numeric_limits<double>::infinity()}};
    return;
  }
  const int count = static_cast<int>(nodes.size());
  g->types.assign(nodes.size(), MlaLensType{});
  std::set<int> seen;
  for (pugi::xml_node t : nodes) {
    const std::string ids = t.attribute("id").value();
    int id = -1;
    const auto r = std::from_chars(ids.data(), ids.data() + ids.size(), id);
    if (!t.attribute("id") || r.ec != std::errc() || r.ptr != ids.data() + ids.size() ||
        id < 0 || id >= count)
      rd.fail("element RayCalibData/lens_type has id " + quote_untrusted(ids, 20) + ", expected 0.." +
              std::to_string(count - 1));
    if (!seen.insert(id).second) rd.fail("duplicate RayCalibData/lens_type id=" + ids);
    const std::string path = "RayCalibData/lens_type[id=" + ids + "]";
    MlaLensType& ty = g->types[static_cast<std::size_t>(id)];
    ty.offset = rd.vec(t, "offset", path, "lens");
    pugi::xml_node range = rd.one(t, "depth_range", path);
    const std::string rp = path + "/depth_range";
    rd.units(range, "virtual_depth", rp);
    ty.depth_min = rd.number(range, "min", rp);
    ty.depth_max = rd.number(range, "max", rp);
    if (ty.depth_min > ty.depth_max)
      rd.fail("element " + rp + ": min " + std::to_string(ty.depth_min) + " > max " +
              std::to_string(ty.depth_max));
  }
}

// A constant radial distortion with no parameters is the identity; anything else would move
// the lens centres, which this loader does not model.
void check_distortion(const Reader& rd, pugi::xml_node root) {
  pugi::xml_node d = rd.one(root, "distortion", "RayCalibData", /*required=*/false);
  if (!d) return;
  const std::string fn = d.child_value("function");
  const pugi::xml_node param = d.child("parameter");
  const std::string count = param ? param.attribute("count").value() : "0";
  std::string trimmed = fn;
  trimmed.erase(0, trimmed.find_first_not_of(" \t\r\n"));
  trimmed.erase(trimmed.find_last_not_of(" \t\r\n") + 1);
  if ((!trimmed.empty() && trimmed != "constant") || (count != "0" && !count.empty()))
    rd.fail("element RayCalibData/distortion: function " + quote_untrusted(trimmed, 40) + " with " +
            escape_untrusted(count, 10) + " parameters is not supported (only 'constant')");
}

}  // namespace

MlaGeometry parse_raytrix_calibration(const std::string& xml_text, const std::string& name) {
  const Reader rd(name);
  if (xml_text.size() > kMaxCalibBytes)
    rd.fail("calibration file of " + std::to_string(xml_text.size()) + " bytes is too large");
  pugi::xml_document doc;
  const pugi::xml_parse_result res = doc.load_buffer(xml_text.data(), xml_text.size());
  if (!res)
    rd.fail(std::string("not XML (") + res.description() + " at byte " +
            std::to_string(res.offset) + ")");
  pugi::xml_node root = doc.document_element();
  if (!root) rd.fail("not XML (no root element)");
  if (std::strcmp(root.name(), "RayCalibData") != 0)
    rd.fail("root element is <" + std::string(root.name()).substr(0, 40) +
            ">, expected <RayCalibData>");
  for (pugi::xml_node n = doc.first_child(); n; n = n.next_sibling())
    if (n.type() == pugi::node_element && n != root) rd.fail("more than one root element");

  const std::string R = "RayCalibData";
  MlaGeometry g;
  g.offset = rd.vec(root, "offset", R, "pix");
  g.diameter = rd.number(root, "diameter", R, "pix");
  if (g.diameter <= 0.0)
    rd.fail("element RayCalibData/diameter " + std::to_string(g.diameter) + " must be positive");
  pugi::xml_node rot = rd.one(root, "rotation", R, /*required=*/false);
  if (rot) {
    rd.units(rot, "rad", R + "/rotation");
    g.rotation = rd.number(rot, R + "/rotation");
  }
  pugi::xml_node border = rd.one(root, "lens_border", R, /*required=*/false);
  if (border) {
    rd.units(border, "pix", R + "/lens_border");
    g.lens_border = rd.number(border, R + "/lens_border");
  }
  pugi::xml_node tcp = rd.one(root, "tcp", R, /*required=*/false);
  if (tcp) {
    rd.units(tcp, "virtual_depth", R + "/tcp");
    g.tcp = rd.number(tcp, R + "/tcp");
  }
  g.base_x = rd.vec(root, "lens_base_x", R, "lens");
  g.base_y = rd.vec(root, "lens_base_y", R, "lens");
  if (rd.one(root, "sub_grid_base", R, /*required=*/false))
    g.sub_grid_base = rd.vec(root, "sub_grid_base", R, "lens");
  check_distortion(rd, root);
  read_lens_types(rd, root, &g);

  // Hexagonal when the bases are not orthogonal (MlaLayout refuses collinear ones).
  const double dot = g.base_x.x * g.base_y.x + g.base_x.y * g.base_y.y;
  const double norm = std::hypot(g.base_x.x, g.base_x.y) * std::hypot(g.base_y.x, g.base_y.y);
  g.kind = std::abs(dot) < 1e-3 * norm ? MlaKind::Rectangular : MlaKind::Hexagonal;
  MlaLayout check(g, name);  // the consistency checks; throws "<name>: <problem>"
  return g;
}

MlaGeometry load_raytrix_calibration(const std::string& path) {
  static_assert(kCalibXmlLimit.bytes == kMaxCalibBytes, "the file's limit is the parser's");
  // A regular file (a named pipe is refused before opening), at most 4 MiB however it is read.
  return parse_raytrix_calibration(read_text_file(path, "calibration file", kCalibXmlLimit), path);
}

MlaGeometry raytrix_r42_calibration() {
  MlaGeometry g;
  g.kind = MlaKind::Hexagonal;
  g.offset = {17.759811322506, 14.905208990217};
  g.diameter = 34.864704132080;
  g.base_x = {1.0, 0.0};
  g.base_y = {0.5, -0.866025388241};
  g.sub_grid_base = {3.0, -1.732050776482};
  g.types = {{{0.0, 0.0}, 1.0, 3.0}, {{1.0, 0.0}, 2.8, 4.0}, {{-1.0, 0.0}, 3.8, 100.0}};
  g.tcp = 2.180962562561;
  g.lens_border = 1.0;
  return g;
}

}  // namespace lb
