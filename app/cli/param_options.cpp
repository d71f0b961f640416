#include "param_options.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli_common.hpp"
#include "lightbench/error.hpp"
#include "lightbench/param_text.hpp"
#include "option_checks.hpp"

namespace lb::cli {

namespace {

// The table without data (names, kinds) of every spec, first occurrence of a name wins.
std::vector<std::pair<const AlgorithmSpec*, ParamInfo>> union_table(const std::vector<const AlgorithmSpec*>& specs) {
  std::vector<std::pair<const AlgorithmSpec*, ParamInfo>> v;
  std::set<std::string> seen;
  for (const AlgorithmSpec* s : specs) {
    if (!s->params) continue;
    for (const ParamInfo& p : s->params(nullptr).infos) {
      if (seen.insert(p.name).second) {
        v.emplace_back(s, p);
        continue;
      }
      for (auto& e : v)  // the loosest lower bound of the specs (stereo's ndisp: 2 for BP, 1 local)
        if (e.second.name == p.name) e.second.min = std::min(e.second.min, p.min);
    }
  }
  return v;
}

const std::vector<std::string>* names_of(const AlgorithmSpec& spec, const std::string& param) {
  const auto it = spec.value_names.find(param);
  return it == spec.value_names.end() ? nullptr : &it->second;
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " | ") + x;
  return s;
}

// Parse time, before any data: the form, and for a parameter that cannot be negative its
// lower bound (the upper bounds of many depend on the data: checked once it is open).
std::string parse_checked(const AlgorithmSpec& spec, const ParamInfo& info, const std::string& text) {
  double v = 0;
  std::string err = parse_param_text(spec, info, text, &v);
  if (err.empty() && info.min >= 0 && v < info.min && info.kind != ParamInfo::Kind::Bool)
    err = std::string("must be ") + (info.kind == ParamInfo::Kind::Int ? "an integer" : "a finite number") +
          " >= " + detail::fmt_num(info.min) + ", got " + quote_untrusted(text);
  return err;
}


std::string help_of(const AlgorithmSpec& spec, const ParamInfo& p, const ParamValues& defaults) {
  std::string h = p.help;
  if (const auto* names = names_of(spec, p.name)) h += " (" + join_names(*names) + ")";
  else if (p.kind == ParamInfo::Kind::Bool) h += " (0 | 1)";
  else h += " (" + param_range_text(p) + " without data)";
  if (const auto it = defaults.find(p.name); it != defaults.end()) {
    const std::string name = spec.value_name(p.name, it->second);
    char num[32];
    std::snprintf(num, sizeof num, "%.6g", it->second);
    h += "; default " + (name.empty() ? std::string(num) : name);
  }
  return h;
}

void store(GivenParams& given, const std::string& name, const std::string& flag, const std::string& text, double v) {
  given[name] = GivenParam{flag, text, v};
}

}  // namespace

std::string kebab(const std::string& name) {
  std::string s = "--" + name;
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

void add_alias_options(CLI::App& app, const std::vector<ParamAlias>& aliases,
                       const std::vector<const AlgorithmSpec*>& specs, std::shared_ptr<GivenParams> given) {
  const auto table = union_table(specs);
  auto find = [&](const std::string& name) -> const std::pair<const AlgorithmSpec*, ParamInfo>* {
    for (const auto& e : table)
      if (e.second.name == name) return &e;
    return nullptr;
  };
  for (const ParamAlias& a : aliases) {
    std::vector<const std::pair<const AlgorithmSpec*, ParamInfo>*> targets;
    for (const auto& n : a.params) {
      const auto* t = find(n);
      LB_REQUIRE(t != nullptr, "alias " + a.flag + ": no parameter '" + n + "'");
      targets.push_back(t);
    }
    if (a.flag_value) {
      const double v = *a.flag_value;
      const std::string name = a.params[0], flag = a.flag;
      app.add_flag_callback(a.flag, [given, name, flag, v] { store(*given, name, flag, flag, v); },
                            a.help + " (= " + kebab(name) + " " + detail::fmt_num(v) + ")");
      continue;
    }
    const std::string flag = a.flag, none = a.none_word;
    std::string help = a.help + " (= " + kebab(a.params[0]) + (a.params.size() > 1 ? "," + kebab(a.params[1]) : "") + ")";
    if (targets.size() == 2) {
      const std::string first = targets[0]->second.name, second = targets[1]->second.name;
      app.add_option_function<std::string>(
          flag,
          [given, first, second, flag](const std::string& text) {
            // A malformed pair is a usage error like any other option's (one line, exit 2+).
            std::pair<double, double> xy;
            try {
              xy = parse_pair(flag, text);
            } catch (const Error& e) {
              throw CLI::ValidationError(e.what());
            }
            const auto [x, y] = xy;
            if (!std::isfinite(x) || !std::isfinite(y))
              throw CLI::ValidationError(flag + " expects two finite numbers, got " + quote_untrusted(text));
            store(*given, first, flag, text, x);
            store(*given, second, flag, text, y);
          },
          help);
      continue;
    }
    const AlgorithmSpec* spec = targets[0]->first;
    const ParamInfo info = targets[0]->second;
    app.add_option_function<std::string>(
           flag,
           [given, spec, info, flag, none](const std::string& text) {
             if (!none.empty() && text == none) {
               (*given)[info.name] = GivenParam{flag, text, 0.0, true};
               return;
             }
             double v = 0;
             (void)parse_param_text(*spec, info, text, &v);  // the form was checked (below)
             store(*given, info.name, flag, text, v);
           },
           help + (none.empty() ? "" : " (" + none + ": leave it out)"))
        ->check(CLI::Validator(
            [spec, info, none](std::string& text) -> std::string {
              if (!none.empty() && text == none) return {};
              // A legacy word alias (--sgm on|off) takes its words only, as it always did.
              if (const auto* names = names_of(*spec, info.name)) {
                for (const auto& n : *names)
                  if (n == text) return {};
                return "must be " + (none.empty() ? std::string() : none + " | ") + join_names(*names) +
                       ", got " + quote_untrusted(text);
              }
              return parse_checked(*spec, info, text);
            },
            ""));
  }
}

void add_param_options(CLI::App& app, const std::vector<const AlgorithmSpec*>& specs,
                       std::shared_ptr<GivenParams> given) {
  for (const auto& [spec, info] : union_table(specs)) {
    const std::string flag = kebab(info.name);
    if (app.get_option_no_throw(flag) != nullptr) continue;  // a legacy flag of the same name
    const ParamValues defaults = spec->params(nullptr).defaults;
    const ParamInfo p = info;
    const AlgorithmSpec* s = spec;
    app.add_option_function<std::string>(
           flag,
           [given, s, p, flag](const std::string& text) {
             double v = 0;
             (void)parse_param_text(*s, p, text, &v);  // the form was checked (below)
             store(*given, p.name, flag, text, v);
           },
           help_of(*spec, info, defaults))
        ->check(CLI::Validator(
            [s, p](std::string& text) -> std::string { return parse_checked(*s, p, text); },
            ""))
        // The value's kind in --help (the option takes text so value names parse too).
        ->type_name(spec->value_names.count(info.name) ? "WORD"
                    : info.kind == ParamInfo::Kind::Int ? "INT"
                    : info.kind == ParamInfo::Kind::Float ? "FLOAT"
                                                           : "0|1");
  }
}

std::string primary_output(const CommandDef& def, const GivenParams& given) {
  if (def.primary_if_param.empty()) return def.primary;
  const auto it = given.find(def.primary_if_param);
  return it != given.end() && it->second.none ? def.primary : def.primary_if_output;
}

ParamValues checked_values(const GivenParams& given, const AlgorithmSpec& spec, const AlgorithmData& data) {
  ParamValues v;
  if (!spec.params) return v;
  const ParamTable table = spec.params(&data);
  for (const auto& [name, g] : given) {
    if (g.none) continue;  // the step is left out: its parameter keeps its default, unused
    const ParamInfo* p = find_param(table.infos, name);
    if (!p) continue;  // another method's parameter (stereo --radius with --method bp)
    double x = g.value;
    if (g.flag == g.text) {
      x = g.value;  // a value-less flag
    } else if (g.text.find(',') == std::string::npos || spec.value_names.count(name)) {
      const std::string err = parse_param_text(spec, *p, g.text, &x);
      if (!err.empty()) throw Error(g.flag + ": " + err);
    }
    const std::string value = g.text.find(',') == std::string::npos ? g.text : detail::fmt_num(x) + " (" + name + ")";
    if (const std::string problem = param_range_problem(*p, x, value); !problem.empty()) throw Error(g.flag + ": " + problem);
    v[name] = x;
  }
  return v;
}

nlohmann::json value_json(const AlgorithmSpec& spec, const ParamInfo& info, double value) {
  return param_value_json(spec, info, value);
}

}  // namespace lb::cli
