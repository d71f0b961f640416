// A variant table whose rows carry their launchers (tiny-cuda-nn's factory by name): one row
// declares a variant's name, what it is and the function that runs it. The spec's variant list
// (AlgorithmSpec::variants = table.infos()) and the runner's dispatch (table.at(name)) both read
// it, so a variant cannot be listed without a launcher, or run without being listed. Adding a
// variant = its file (the launcher) + its row here. The example algorithm shows it
// (tests/example/: absdiff_reference.cpp, absdiff_rows.cpp and their rows).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/error.hpp"

namespace lb {

template <class Launch>
struct VariantRow {
  VariantInfo info;
  Launch launch;
};

template <class Launch>
class VariantTable {
 public:
  // Refuses an empty table, a repeated name and a row without a launcher.
  VariantTable(std::string algorithm, std::vector<VariantRow<Launch>> rows)
      : algorithm_(std::move(algorithm)), rows_(std::move(rows)) {
    LB_REQUIRE(!rows_.empty(), algorithm_ + ": a variant table without rows");
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      LB_REQUIRE(static_cast<bool>(rows_[i].launch), algorithm_ + ": variant '" + rows_[i].info.name + "' has no launcher");
      for (std::size_t j = 0; j < i; ++j)
        LB_REQUIRE(rows_[j].info.name != rows_[i].info.name,
                   algorithm_ + ": variant '" + rows_[i].info.name + "' is listed twice");
    }
  }
  // The rows' descriptions, in order: what AlgorithmSpec::variants lists.
  std::vector<VariantInfo> infos() const {
    std::vector<VariantInfo> v;
    for (const auto& r : rows_) v.push_back(r.info);
    return v;
  }
  // The launcher of `name`; an unknown name throws lb::Error listing the known ones.
  const Launch& at(const std::string& name) const {
    std::string known;
    for (const auto& r : rows_) {
      if (r.info.name == name) return r.launch;
      known += (known.empty() ? "" : ", ") + r.info.name;
    }
    throw Error(algorithm_ + ": no variant '" + name + "' (known: " + known + ")");
  }
  const std::vector<VariantRow<Launch>>& rows() const { return rows_; }

 private:
  std::string algorithm_;
  std::vector<VariantRow<Launch>> rows_;
};

}  // namespace lb
