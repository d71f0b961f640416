// Issue 40 item 2: ParamInfo is the only declaration of a parameter's range. For every
// algorithm of the registry (iterated, so a new one is covered with no edit here) on small
// data of its kind, every numeric parameter of spec.params(&data) is set to its min and to its
// max (the others at the table's defaults) and spec.validate() must accept it; one step below
// the min and one step above the max it must refuse it with an lb::Error naming the parameter.
// A validate() (or a runner's check reached from it) with its own narrower range fails the
// first check; one that no longer refuses what the table refuses fails the second.
// What a documented cross-parameter rule refuses at a bound is listed, one row each, in
// kCrossRules below; a row that is no longer needed fails the test, so the list cannot rot.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "test_util.hpp"

namespace param_ranges_test {

// Small data of each kind: the only per-kind table of this test. A kind may list several data
// sets (plenoptic scenes: a rectangular grid and a hexagonal multi-focus one); an algorithm is
// checked on every one whose default parameters it accepts (the rectangular "plenoptic"
// refuses a general grid as a whole, not a parameter), and on at least one.
struct NamedData {
  std::string name;
  std::shared_ptr<const lb::AlgorithmData> data;
};

std::shared_ptr<const lb::AlgorithmData> rect_scene() {
  auto d = std::make_shared<lb::PlenopticData>();
  d->scene = lb::to_scene(lb::generate_scene(lb::generator_preset("tiny", 3)), "tiny");
  return d;
}

std::shared_ptr<const lb::AlgorithmData> hex_scene() {
  auto d = std::make_shared<lb::PlenopticData>();
  d->scene = lb::to_scene(lb::generate_hex_scene(lb::hex_generator_preset("hex-small")), "hex-small");
  return d;
}

std::shared_ptr<const lb::AlgorithmData> light_field() {
  auto d = std::make_shared<lb::LightFieldData>();
  d->lf = lb::synthetic_two_plane_lightfield(37, 29, 5, 5, -0.8f, 1.1f, 4, 1);  // with ground truth
  return d;
}

std::shared_ptr<const lb::AlgorithmData> stereo_pair() {
  auto d = std::make_shared<lb::StereoData>();
  d->pair.left = lbt::random_image(41, 23, 3, 5);
  d->pair.right = lbt::random_image(41, 23, 3, 6);
  d->gt.disparity = lb::ImageF(41, 23, 1, 2.0f);
  return d;
}

std::shared_ptr<const lb::AlgorithmData> image_pair() {
  auto d = std::make_shared<lb::ImagePairData>();
  d->reference = lbt::random_image(40, 36, 1, 8);
  d->distorted = lbt::random_image(40, 36, 1, 9);
  d->source = "random";
  return d;
}

const std::map<lb::DataKind, std::vector<NamedData>>& data_by_kind() {
  static const std::map<lb::DataKind, std::vector<NamedData>> t = {
      {lb::DataKind::PlenopticScene, {{"tiny (rectangular)", rect_scene()}, {"hex-small", hex_scene()}}},
      {lb::DataKind::LightField, {{"two planes 37x29, 5x5 views", light_field()}}},
      {lb::DataKind::StereoPair, {{"random 41x23 RGB pair", stereo_pair()}}},
      {lb::DataKind::ImagePair, {{"random 40x36 gray pair", image_pair()}}},
  };
  return t;
}

// A bound that validate() refuses by a documented rule between parameters, not by a range of
// its own. `expect` is a piece of the refusal (the rule's message), so a refusal for another
// reason still fails. Each row must still be needed: a bound it names that validate() accepts
// (or a row that matches no algorithm and parameter) fails the test.
struct CrossRule {
  const char* algorithm;
  const char* param;
  const char* bound;  // "min" or "max"
  const char* expect;
  const char* why;
};

const CrossRule kCrossRules[] = {
    // CAE's disparity range is dmin..dmax with dmin < dmax (validate(CaeParams)); each bound's
    // own range is the light field's +-cae_max_abs_disparity. dmin at its max (the top of the
    // range) is above the default dmax, dmax at its min below the default dmin.
    {"lightfield", "dmin", "max", "dmin must be below dmax", "dmin < dmax (the other at its default)"},
    {"lightfield", "dmax", "min", "dmin must be below dmax", "dmin < dmax (the other at its default)"},
};

// The step past a bound: 1 for Int and Bool; for Float a small fraction of the bound's size,
// large enough to survive the float it is stored in.
double step(const lb::ParamInfo& p, double bound) {
  if (p.kind != lb::ParamInfo::Kind::Float) return 1.0;
  return std::max(1e-3, std::abs(bound) * 1e-3);
}

// Whether `msg` names `name` as a word (not as part of a longer name: "v" is not in "views").
bool names_param(const std::string& msg, const std::string& name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = msg.find(name); at != std::string::npos; at = msg.find(name, at + 1)) {
    const bool left = at == 0 || !word(msg[at - 1]);
    const std::size_t end = at + name.size();
    const bool right = end == msg.size() || !word(msg[end]);
    if (left && right) return true;
  }
  return false;
}

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

}  // namespace param_ranges_test

TEST_CASE("param ranges: every registered algorithm's bounds are accepted by validate(), one step past refused") {
  using namespace param_ranges_test;
  const lb::AlgorithmRegistry reg = lb::make_cpu_registry();
  REQUIRE(!reg.all().empty());
  std::set<const CrossRule*> used;
  for (const lb::AlgorithmSpec& spec : reg.all()) {
    CAPTURE(spec.id);
    const auto kind = data_by_kind().find(spec.data);
    if (kind == data_by_kind().end()) {
      FAIL_CHECK("algorithm '" << spec.id << "' runs on data of kind '" << lb::to_string(spec.data)
                               << "', which this test has no small data for: add an entry to data_by_kind()");
      continue;
    }
    REQUIRE_MESSAGE(spec.params, spec.id << ": no parameter table");
    REQUIRE_MESSAGE(spec.validate, spec.id << ": no validate()");
    int checked_data = 0;
    for (const NamedData& nd : kind->second) {
      CAPTURE(nd.name);
      const lb::AlgorithmData& data = *nd.data;
      const lb::ParamTable table = spec.params(&data);
      // The defaults first: a data set refused as a whole is not one this algorithm runs on.
      const std::string refused = lbt::msg([&] { spec.validate(table.defaults, data); });
      if (!refused.empty()) {
        MESSAGE(spec.id << " refuses " << nd.name << " at its defaults (" << refused << "): not checked there");
        continue;
      }
      ++checked_data;
      for (const lb::ParamInfo& info : table.infos) {
        CAPTURE(info.name);
        REQUIRE_MESSAGE(table.defaults.count(info.name) == 1, spec.id << ": no default for '" << info.name << "'");
        REQUIRE_MESSAGE(info.min <= info.max, spec.id << ": '" << info.name << "' has min " << info.min
                                                      << " above max " << info.max);
        if (info.kind != lb::ParamInfo::Kind::Float)
          CHECK_MESSAGE((info.min == std::floor(info.min) && info.max == std::floor(info.max)),
                        spec.id << ": integer parameter '" << info.name << "' has a fractional bound " << info.min
                                << ".." << info.max);
        for (const std::string which : {"min", "max"}) {
          const bool at_min = which == "min";
          const double bound = at_min ? info.min : info.max;
          const CrossRule* rule = nullptr;
          for (const CrossRule& r : kCrossRules)
            if (spec.id == r.algorithm && info.name == r.param && which == r.bound) rule = &r;

          // At the bound: accepted, or refused by the listed rule (and only by it).
          lb::ParamValues v = table.defaults;
          v[info.name] = bound;
          const std::string at = lbt::msg([&] { spec.validate(v, data); });
          if (rule) {
            used.insert(rule);
            CHECK_MESSAGE(!at.empty(), spec.id << ": '" << info.name << "' = " << fmt(bound) << " (its " << which
                                                << ") is accepted now: remove the allow-list row (" << rule->why
                                                << ")");
            if (!at.empty())
              CHECK_MESSAGE(at.find(rule->expect) != std::string::npos,
                            spec.id << ": '" << info.name << "' = " << fmt(bound) << " refused for another reason than "
                                    << "the allow-listed rule (" << rule->why << "): " << at);
          } else {
            CHECK_MESSAGE(at.empty(), spec.id << ": '" << info.name << "' = " << fmt(bound) << " is its table's "
                                              << which << " (" << fmt(info.min) << ".." << fmt(info.max)
                                              << ") but validate() refuses it: " << at);
          }

          // One step past the bound: refused, in one line naming the parameter.
          const double past = at_min ? bound - step(info, bound) : bound + step(info, bound);
          v[info.name] = past;
          bool threw_error = false;
          std::string why;
          try {
            spec.validate(v, data);
          } catch (const lb::Error& e) {
            threw_error = true;
            why = e.what();
          } catch (const std::exception& e) {
            why = std::string("not an lb::Error: ") + e.what();
          }
          CHECK_MESSAGE(threw_error, spec.id << ": '" << info.name << "' = " << fmt(past) << " is past its table's "
                                             << which << " " << fmt(bound) << " but validate() "
                                             << (why.empty() ? std::string("accepts it") : why));
          if (threw_error) {
            CHECK_MESSAGE(names_param(why, info.name),
                          spec.id << ": the refusal of '" << info.name << "' = " << fmt(past)
                                  << " does not name the parameter: " << why);
            CHECK_MESSAGE(why.find('\n') == std::string::npos,
                          spec.id << ": the refusal of '" << info.name << "' is not one line: " << why);
          }
        }
      }
    }
    CHECK_MESSAGE(checked_data > 0, spec.id << ": validate() refuses every small data set of its kind at the "
                                               "defaults, so none of its ranges was checked");
  }
  for (const CrossRule& r : kCrossRules)
    CHECK_MESSAGE(used.count(&r) == 1, "allow-list row (" << r.algorithm << ", " << r.param << ", " << r.bound
                                                          << ") matches no registered algorithm's parameter: "
                                                             "remove it or fix its names");
}

TEST_CASE("param ranges: the test's own word match") {
  using param_ranges_test::names_param;
  CHECK(names_param("parameter 'v' = 5 is outside 0 .. 4", "v"));
  CHECK(names_param("gf_eps: must be in 1e-07..0.1, got 1", "gf_eps"));
  CHECK_FALSE(names_param("views: the angular window must be odd", "v"));
  CHECK_FALSE(names_param("sgm_p1 out of range", "sgm_p"));
}

TEST_CASE("param tables: each parameter carries its default and the outputs it invalidates") {
  using namespace param_ranges_test;
  const lb::AlgorithmRegistry reg = lb::make_cpu_registry();
  for (const lb::AlgorithmSpec& spec : reg.all()) {
    CAPTURE(spec.id);
    const auto kind = data_by_kind().find(spec.data);
    REQUIRE(kind != data_by_kind().end());
    const lb::ParamTable t = spec.params(kind->second.front().data.get());
    REQUIRE(!t.infos.empty());
    for (const lb::ParamInfo& p : t.infos) {
      CAPTURE(p.name);
      // The default: the table's defaults map's value, inside the range.
      REQUIRE(t.defaults.count(p.name) == 1);
      CHECK(p.default_value == t.defaults.at(p.name));
      CHECK(p.default_value >= p.min);
      CHECK(p.default_value <= p.max);
      // The outputs: exactly those whose OutputInfo::params name it, in the spec's order.
      std::vector<std::string> expect;
      for (const lb::OutputInfo& o : spec.outputs)
        if (std::find(o.params.begin(), o.params.end(), p.name) != o.params.end()) expect.push_back(o.name);
      CHECK(p.outputs == expect);
    }
  }
}
