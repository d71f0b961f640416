// The kernels' own variant lists (the names their dispatchers parse) equal the engine's
// variant tables (engine/algorithms/<id>/<id>_spec.cpp), which the viewer, the CLI and the benches
// read: a kernel variant added or removed on one side only fails here. No device needed.
#include <doctest/doctest.h>

#include "lightbench/algorithms.hpp"
#include "lightfield/cae_cuda.hpp"
#include "lightbench/error.hpp"
#include "mad/mad_cuda.hpp"
#include "stereo_bp/stereo_cuda.hpp"

using namespace lb;

TEST_CASE("variant tables: kernels' dispatchers and the engine's specs name the same variants") {
  CHECK(cuda::cae_variants() == lightfield_spec().variant_names());
  CHECK(cuda::bp_stereo_variants() == stereo_bp_spec().variant_names());
  CHECK(cuda::mad_stats_variants() == mad_spec().variant_names());
  CHECK(stereo::local_variants() == stereo_local_spec().variant_names());
  for (const auto& v : lightfield_spec().variants)
    CHECK_MESSAGE(to_string(cuda::cae_variant_method(v.name)) == v.method, v.name);
  // An unknown CAE variant's one-line error names every variant there is.
  std::string why;
  try {
    cuda::cae_variant_method("no-such-variant");
  } catch (const Error& e) {
    why = e.what();
  }
  CHECK(why.find("'no-such-variant'") != std::string::npos);
  for (const std::string& v : cuda::cae_variants()) CHECK_MESSAGE(why.find(v) != std::string::npos, v);
}
