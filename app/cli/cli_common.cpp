#include "cli_common.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "lightbench/assets.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"

namespace lb::cli {

std::pair<double, double> parse_pair(const std::string& option, const std::string& text) {
  const auto comma = text.find(',');
  auto bad = [&] { return Error(option + " expects two numbers 'a,b', got " + quote_untrusted(text)); };
  if (comma == std::string::npos) throw bad();
  try {
    std::size_t u1 = 0, u2 = 0;
    const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
    const double x = std::stod(a, &u1), y = std::stod(b, &u2);
    if (u1 != a.size() || u2 != b.size()) throw bad();
    return {x, y};
  } catch (const std::invalid_argument&) {
    throw bad();
  } catch (const std::out_of_range&) {
    throw bad();
  }
}

LightFieldLoadOptions parse_lf_grid(const std::string& text) {
  LightFieldLoadOptions o;
  if (text.empty()) return o;
  // Digits only, each side 1..1000 (no sign, overflow or exponent).
  const auto x = text.find('x');
  auto side = [&](const std::string& s) {
    if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos) return -1;
    const int v = std::stoi(s);
    return v >= 1 && v <= 1000 ? v : -1;
  };
  if (x != std::string::npos) {
    o.grid_u = side(text.substr(0, x));
    o.grid_v = side(text.substr(x + 1));
  }
  if (x == std::string::npos || o.grid_u < 1 || o.grid_v < 1)
    throw Error("--grid expects UxV with U, V in 1..1000, e.g. 9x9, got " + quote_untrusted(text));
  return o;
}

Report::Report(std::string command) {
  j_["tool"] = "lightbench-cli";
  j_["command"] = std::move(command);
  j_["outputs"] = nlohmann::json::array();
}

void Report::add_output(const std::string& role, const std::string& path, int w, int h) {
  j_["outputs"].push_back({{"role", role}, {"path", path}, {"width", w}, {"height", h}});
}

void Report::add_timings(const TimingRegistry& reg) {
  for (const auto& k : reg.kernels()) {
    const TimingStats s = reg.stats(k);
    j_["timings"][k] = {{"count", s.count},         {"last_ms", s.last_ms},
                        {"median_ms", s.median_ms}, {"min_ms", s.min_ms},
                        {"max_ms", s.max_ms},       {"median_gbps", s.median_gbps}};
  }
}

void Report::write(const std::string& path) const {
  try {
    write_file_atomic(path, j_.dump(2) + "\n");
  } catch (const Error& e) {
    throw Error(std::string("--json ") + e.what());
  }
}

nlohmann::json to_json(const PlenopticGrid& g) {
  return {{"nx", g.nx}, {"ny", g.ny}, {"pitch", g.pitch}, {"ox", g.ox}, {"oy", g.oy}};
}

nlohmann::json to_json(const RenderParams& p) {
  return {{"patch", p.patch}, {"view_x", p.view_x}, {"view_y", p.view_y},
          {"lim", p.lim},     {"sigma", p.sigma}};
}

namespace {
bool tty() { return isatty(fileno(stderr)) != 0; }
}  // namespace

void progress(const std::string& line) {
  if (!tty()) return;
  std::fprintf(stderr, "\r\033[K%s", safe_line(line, 200).c_str());  // names a user's folder
  std::fflush(stderr);
}

void progress_done() {
  if (tty()) std::fprintf(stderr, "\r\033[K");
}

namespace {
int g_exit_status = 0;
}  // namespace

void set_exit_status(int status) { g_exit_status = status; }
int exit_status() { return g_exit_status; }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<std::string> general_grid_presets() { return asset_names("plenoptic_hex"); }

bool is_hex_preset(const std::string& name) {
  const auto names = general_grid_presets();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace lb::cli
