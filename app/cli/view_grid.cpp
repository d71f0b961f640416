// render --views UxV --out DIR: the plenoptic raw as a light field of perspective views
// (plenoptic/plenoptic_views.hpp), written as DIR/view_U_V.png, the layout lfdepth --lf
// reads. Every check that needs no data comes first; files are staged by main's output
// transaction, so a failure writes nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "cli_common.hpp"
#include "driver_state.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_views.hpp"

namespace lb::cli {

namespace {

std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// "UxV"" with both in 1..kMaxViewGrid (digits only).
void parse_views(const std::string& text, int* u, int* v) {
  const auto x = text.find('x');
  auto side = [](const std::string& s) {
    if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos) return -1;
    const int n = std::stoi(s);
    return n >= 1 && n <= kMaxViewGrid ? n : -1;
  };
  *u = x == std::string::npos ? -1 : side(text.substr(0, x));
  *v = x == std::string::npos ? -1 : side(text.substr(x + 1));
  if (*u < 1 || *v < 1)
    throw Error("--views expects UxV with U, V in 1.." + std::to_string(kMaxViewGrid) + ", e.g. 5x5, got '" + text +
                "'");
}

// The folder must take the files: an existing folder each view file, a new one its parent.
void check_view_folder(const std::string& dir, int nu, int nv) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) {
    if (!std::filesystem::is_directory(dir, ec))
      throw Error("--out " + quote_untrusted(dir, 300) + ": exists and is not a folder (--views writes view_U_V.png files into a folder)");
    check_output_path(dir + "/view_" + std::to_string(nu - 1) + "_" + std::to_string(nv - 1) + ".png", "--out");
  } else {
    check_output_path(dir, "--out");
  }
}

}  // namespace

void run_view_grid(CommandState& st, const AlgorithmSpec& spec) {
  int nu = 0, nv = 0;
  parse_views(st.views, &nu, &nv);
  const OutputFlag* out = nullptr;
  for (const OutputFlag& o : st.outputs) {
    if (o.path.empty()) continue;
    if (o.flag == "--out") out = &o;
    else throw Error("--views writes only the views' folder (" + o.flag + " is not taken with it)");
  }
  if (!out) throw Error("--views needs --out DIR (the folder of the views)");
  if (st.given->count("view_x") || st.given->count("view_y"))
    throw Error("--view and --views exclude each other (--views sets every view's shift)");
  if (!(st.view_step >= 0)) throw Error("--view-step must be >= 0 raw pixels (0: the whole usable range)");
  if (st.repeat != 1) throw Error("--repeat is not taken with --views");
  if (!st.crop.empty()) throw Error("--crop is not taken with --views");
  if (!st.variant.empty()) throw Error("--variant is not taken with --views (the views render on the CPU)");
  if (parse_backend_request(st.backend) == BackendRequest::Cuda)
    throw Error("--backend cuda is not taken with --views (the views render on the CPU)");
  check_view_folder(out->path, nu, nv);
  if (!st.json.empty() && std::filesystem::absolute(st.json).lexically_normal() ==
                              std::filesystem::absolute(out->path).lexically_normal())
    throw Error("--json " + quote_untrusted(st.json, 300) + ": names the views' folder");

  ParamValues raw;
  for (const auto& [name, g] : *st.given)
    if (!g.none) raw[name] = g.value;
  const std::shared_ptr<const AlgorithmData> data = st.opener->open(raw);
  const auto& scene = static_cast<const PlenopticData&>(*data).scene;
  const ParamValues given = checked_values(*st.given, spec, *data);
  check_foreign_params(st, spec, *data);
  ViewGridOptions opt;
  if (given.count("patch")) opt.patch = static_cast<int>(given.at("patch"));
  if (given.count("lim")) opt.lim = static_cast<int>(given.at("lim"));
  // A general grid: its neighbour rings travel as lim (ViewGridOptions), its lens types apart.
  if (given.count("rings")) opt.lim = static_cast<int>(given.at("rings"));
  if (given.count("lens_types")) opt.lens_types = static_cast<int>(given.at("lens_types"));
  if (given.count("sigma")) opt.sigma = static_cast<float>(given.at("sigma"));
  opt.step = st.view_step;
  // The parameters every view shares (the scene's truth patch is the default M, as in
  // plenoptic_view_grid) and the step, checked here so the message names the flag.
  // A general grid's pitch is its lens diameter.
  const RenderParams p = view_grid_scene_params(scene, opt);
  const double pitch = view_grid_pitch(scene);
  const double full = view_grid_step(std::max(nu, nv), pitch, p.patch);
  if (opt.step > full + 1e-9)
    throw Error("--view-step " + num(opt.step) + " out of range (0.." + num(full) + " raw pixels for " +
                std::to_string(std::max(nu, nv)) + " views at patch " + std::to_string(p.patch) + ")");
  const double step = opt.step > 0 ? opt.step : view_grid_default_step(std::max(nu, nv), pitch, p.patch);
  const auto t0 = std::chrono::steady_clock::now();
  const LightField4D lf = plenoptic_view_grid(scene, nu, nv, opt);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::error_code ec;
  std::filesystem::create_directories(out->path, ec);
  if (ec) throw Error("--out " + quote_untrusted(out->path, 300) + ": cannot create the folder (" + ec.message() + ")");
  save_lightfield(out->path, lf);

  std::printf("render: %dx%d views of %dx%d (patch %d, step %.4g raw px) on cpu: %.3f ms -> %s\n", nu, nv, lf.width,
              lf.height, p.patch, step, ms, out->path.c_str());
  if (st.json.empty()) return;
  Report rep(st.def.name);
  nlohmann::json& j = rep.root();
  j["algorithm"] = spec.id;
  j["backend"] = "cpu";
  j["primary_output"] = "views";
  nlohmann::json params = nlohmann::json::object();
  st.opener->describe(params, j);
  params["render"] = {{"patch", p.patch}, {"sigma", p.sigma}};
  params["render"][scene.mla ? "rings" : "lim"] = p.lim;
  nlohmann::json views = {{"u", nu}, {"v", nv}, {"step", step}, {"max_step", full},
                          {"rule", "s(k) = ((n - 1) / 2 - k) * step; default step min((D - M) / (max(U, V) - 1), M / 4)"}};
  nlohmann::json shifts = nlohmann::json::array();
  for (int v = 0; v < nv; ++v)
    for (int u = 0; u < nu; ++u) {
      const std::string file = "view_" + std::to_string(u) + "_" + std::to_string(v) + ".png";
      shifts.push_back({{"u", u}, {"v", v}, {"file", file}, {"view_x", view_grid_shift(u, nu, step)},
                        {"view_y", view_grid_shift(v, nv, step)}});
    }
  views["shifts"] = shifts;
  params["views"] = views;
  j["parameters"] = params;
  rep.add_output("views", out->path, lf.width, lf.height);
  j["ms_total"] = ms;
  rep.write(st.json);
}

}  // namespace lb::cli
