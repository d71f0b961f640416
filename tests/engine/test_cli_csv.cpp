// The CSV reports' reader and writer (lightbench/csv.hpp through app/cli/csv_table.hpp): RFC 4180 quoting round trips,
// a row torn by a kill is dropped only at the end, numbers round-trip exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "csv_table.hpp"
#include "lightbench/error.hpp"

using namespace lb::cli;

TEST_CASE("csv: quoting round trip, torn tail, malformed rows, numbers") {
  CsvTable t;
  t.header = {"scene", "error"};
  t.rows = {{"a", "plain"}, {"b,c", "'x.png': bad \"magic\", line 2\nnext"}, {"", ""}};
  const std::string text = csv_text(t);
  CHECK(text.find("\"b,c\"") != std::string::npos);
  const CsvTable back = parse_csv(text, "t", false);
  CHECK(back.header == t.header);
  CHECK(back.rows == t.rows);
  // A kill mid-row: the tail is dropped when asked, refused otherwise.
  const std::string torn = text + "d,half";
  CHECK(parse_csv(torn, "t", true).rows == t.rows);
  CHECK(parse_csv(torn, "t", false).rows.size() == 4);  // a complete last row without its line break
  CHECK(parse_csv(text + "d", "t", true).rows == t.rows);  // too few fields, no line break: torn
  // A whole line of too few fields is no kill's work (a kill cuts the last row short, before
  // its line break): refused at the end as in the middle, never dropped.
  CHECK_THROWS_AS(parse_csv(text + "d\n", "t", true), lb::Error);
  CHECK_THROWS_AS(parse_csv("scene,error\nd\na,b\n", "t", true), lb::Error);  // in the middle: malformed
  // An unclosed quote in the middle is not a torn tail: the rows after it are not dropped.
  CHECK_THROWS_AS(parse_csv("scene,error\na,\"x\nb,c\nd,e\n", "t", true), lb::Error);
  CHECK_THROWS_AS(parse_csv("", "t", true), lb::Error);
  for (double v : {0.1, 1.0 / 3.0, 1e-300, 168750.0, -2.5}) {
    double r = 0;
    REQUIRE(parse_number(number_text(v), &r));
    CHECK(r == v);
  }
  double r = 0;
  CHECK(number_text(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK((parse_number("nan", &r) && std::isnan(r)));
  CHECK_FALSE(parse_number("", &r));
  CHECK_FALSE(parse_number("1.5x", &r));
  CHECK(number_text(168750.0) == "168750");
}
