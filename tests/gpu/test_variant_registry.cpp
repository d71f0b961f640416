// A CUDA build's registry lists each algorithm's CUDA variants from its kernels' table
// (kernels/<id>/<id>_variants.cpp: a row is {VariantInfo, launcher}), in the table's order; the
// default variant is a row; names resolve in any case; an unknown one is refused naming the
// rows. No device needed.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/runners.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"

using namespace lb;

TEST_CASE("variant registry: the kernels' tables are the specs' CUDA variants") {
  const AlgorithmRegistry& r = builtin_registry();
  const std::vector<std::pair<std::string, std::vector<std::string>>> want = {
      {"plenoptic", {"auto", "original", "sync", "nosync", "tiled"}},
      {"plenoptic-hex", {"original", "smem-tables", "pruned"}},
      {"stereo-local", {"phase2", "phase3", "phase4", "phase5", "fused", "fused2"}},
      {"stereo-bp", {"auto", "auto:float", "warp", "warp-fp16", "warp-bf16", "registers", "hybrid", "shared", "local"}},
      {"mad", {"gather", "shared", "shared_nc", "fused"}}};
  for (const auto& [id, names] : want) {
    INFO(id);
    const AlgorithmSpec& s = r.get(id);
    CHECK(s.variant_names() == names);  // listed once: the table's rows, nothing appended twice
    CHECK(s.variant(s.default_variant) != nullptr);
    for (const VariantInfo& v : s.variants) {
      CHECK_FALSE(v.note.empty());
      CHECK_FALSE(v.cpu);  // CUDA kernels: the CPU backend refuses them by name
    }
  }
  for (const AlgorithmSpec& s : r.all()) {
    INFO(s.id);
    CHECK_FALSE(s.variants.empty());
    CHECK(s.variant(s.default_variant) != nullptr);
  }
  CHECK(r.get("plenoptic").resolve_variant("NoSync") == "nosync");
  CHECK_THROWS_WITH_AS(r.get("plenoptic").resolve_variant("fast"),
                       doctest::Contains("known: auto, original, sync, nosync, tiled"), Error);
  // BP: a row's options reach its resolver; the table refuses an unknown row in one line.
  CHECK(r.get("stereo-bp").variant_for(BackendKind::Cuda, "warp-bf16:8") == "warp-bf16:8");
  CHECK_THROWS_WITH_AS(r.get("mad").variant_for(BackendKind::Cpu, "shared", true),
                       doctest::Contains("variant 'shared' is a CUDA kernel of mad"), Error);
}

TEST_CASE("variant registry: a BP request resolves through its row; options and unknown rows refused") {
  using namespace lb::cuda::detail;
  BpConfig c;
  bool fallback = true;
  REQUIRE(bp_parse_variant("hybrid:12,20", 64, &c, &fallback));
  CHECK(c.store == BpStore::Hybrid);
  CHECK(c.reg == 12);
  CHECK(c.shared == 20);
  CHECK_FALSE(fallback);
  REQUIRE(bp_parse_variant("warp-bf16", 64, &c, &fallback));
  CHECK(c.store == BpStore::Warp);
  CHECK(c.msg == BpMsgType::BF16);
  CHECK(c.lanes == bp_warp_default_lanes(64));
  REQUIRE(bp_parse_variant("shared", 48, &c, &fallback));
  CHECK(c.store == BpStore::Shared);
  CHECK(c.shared == 48);
  CHECK_FALSE(bp_parse_variant("auto", 64, &c, &fallback));        // the tuner's
  CHECK_FALSE(bp_parse_variant("auto:float", 64, &c, &fallback));  // a row's whole name
  CHECK_FALSE(bp_parse_variant("hybrid", 64, &c, &fallback));
  CHECK_THROWS_WITH_AS(bp_parse_variant("local:3", 64, &c, &fallback), doctest::Contains("takes no options"), Error);
  CHECK_THROWS_WITH_AS(bp_parse_variant("hybrid:x", 64, &c, &fallback), doctest::Contains("hybrid:R,S"), Error);
  CHECK_THROWS_WITH_AS(bp_parse_variant("nope", 64, &c, &fallback),
                       doctest::Contains("stereo-bp: no variant 'nope' (known: auto, auto:float, warp"), Error);
}

TEST_CASE("variant registry: variant_for on the CUDA build's specs: the table's kernels are refused on the CPU") {
  for (const AlgorithmSpec& s : builtin_registry().all()) {
    CAPTURE(s.id);
    CHECK(s.variant_for(BackendKind::Cuda, "") == s.default_variant);
    for (const VariantInfo& v : s.variants) {
      if (v.name == "auto" || v.name == s.default_variant) {  // the same request as none
        CHECK(s.variant_for(BackendKind::Cpu, v.name).empty());
        continue;
      }
      CHECK_THROWS_WITH_AS(s.variant_for(BackendKind::Cpu, v.name), doctest::Contains("is a CUDA kernel"), Error);
      CHECK(s.variant_for(BackendKind::Cuda, v.name) == v.name);
    }
    CHECK_THROWS_WITH_AS(s.variant_for(BackendKind::Cuda, "zzz"), doctest::Contains("unknown variant 'zzz'"), Error);
  }
}
