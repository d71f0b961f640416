#include "param_store.hpp"

namespace lb::viewer {

void ParamStore::reset(const ParamTable& table, const ParamValues* keep) {
  std::vector<ParamInfo> infos;
  std::deque<int> ints;
  std::deque<float> floats;
  std::deque<bool> bools;
  for (ParamInfo p : table.infos) {
    switch (p.kind) {
      case ParamInfo::Kind::Int: p.value = &ints.emplace_back(0); break;
      case ParamInfo::Kind::Float: p.value = &floats.emplace_back(0.0f); break;
      case ParamInfo::Kind::Bool: p.value = &bools.emplace_back(false); break;
    }
    if (const auto d = table.defaults.find(p.name); d != table.defaults.end()) p.set(d->second);
    if (keep)
      if (const auto k = keep->find(p.name); k != keep->end() && k->second >= p.min && k->second <= p.max)
        p.set(k->second);
    infos.push_back(p);
  }
  // Deques keep their elements' addresses when moved: the bindings stay valid.
  ints_ = std::move(ints);
  floats_ = std::move(floats);
  bools_ = std::move(bools);
  infos_ = std::move(infos);
}

}  // namespace lb::viewer
