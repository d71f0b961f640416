// lightbench/variant_table.hpp: a variant row carries its launcher; the table refuses what
// would let a variant be listed without a launcher or twice, and names the known ones.
#include <doctest/doctest.h>

#include <functional>

#include "lightbench/error.hpp"
#include "lightbench/variant_table.hpp"

namespace {
int twice(int x) { return 2 * x; }
int thrice(int x) { return 3 * x; }
}  // namespace

TEST_CASE("variant table: rows give the spec's list and the launcher by name") {
  using Launch = int (*)(int);
  const lb::VariantTable<Launch> t("demo", {{{"two", "", true, "doubles"}, &twice}, {{"three", "", true, "triples"}, &thrice}});
  const auto infos = t.infos();
  REQUIRE(infos.size() == 2);
  CHECK(infos[0].name == "two");
  CHECK(infos[1].note == "triples");
  CHECK(t.at("three")(5) == 15);
  CHECK(t.at("two")(5) == 10);
  CHECK_THROWS_WITH_AS(t.at("four"), "demo: no variant 'four' (known: two, three)", lb::Error);
}

TEST_CASE("variant table: an empty table, a row without a launcher and a repeated name are refused") {
  using Launch = std::function<int(int)>;
  CHECK_THROWS_WITH_AS(lb::VariantTable<Launch>("demo", {}), "demo: a variant table without rows", lb::Error);
  CHECK_THROWS_WITH_AS(lb::VariantTable<Launch>("demo", {{{"two", "", true, ""}, Launch{}}}),
                       "demo: variant 'two' has no launcher", lb::Error);
  CHECK_THROWS_WITH_AS(lb::VariantTable<Launch>("demo", {{{"two", "", true, ""}, twice}, {{"two", "", true, ""}, thrice}}),
                       "demo: variant 'two' is listed twice", lb::Error);
}
