// The template filler is strict both ways: a placeholder without a value and a value without a
// placeholder are errors, so a template and the code that fills it cannot drift apart.
#include <doctest/doctest.h>

#include <string>

#include "codegen/codegen_error.hpp"
#include "codegen/embedded_files.hpp"
#include "codegen/template_filler.hpp"

using namespace tensordiag::codegen;

TEST_CASE("fill_template replaces every placeholder, as often as it occurs") {
  const std::string filled =
      fill_template("t.cu", "constexpr int N = ${size};\nint x[${size}]; // $ and {} stay\n", {{"size", "8"}});
  CHECK(filled == "constexpr int N = 8;\nint x[8]; // $ and {} stay\n");
  CHECK(fill_template("t.cu", "no placeholders", {}) == "no placeholders");
}

TEST_CASE("a placeholder without a value is an error naming the template, the line and the key") {
  try {
    fill_template("group_pass.cu", "line 1\nconstexpr int N = ${size};\n", {});
    FAIL("expected an internal_codegen_error");
  } catch (const internal_codegen_error& e) {
    const std::string what = e.what();
    CHECK(what.find("group_pass.cu") != std::string::npos);
    CHECK(what.find("line 2") != std::string::npos);
    CHECK(what.find("${size}") != std::string::npos);
  }
}

TEST_CASE("a value that no placeholder uses is an error naming the key") {
  try {
    fill_template("t.cu", "constexpr int N = ${size};", {{"size", "8"}, {"order", "3"}});
    FAIL("expected an internal_codegen_error");
  } catch (const internal_codegen_error& e) {
    CHECK(std::string(e.what()).find("'order'") != std::string::npos);
  }
}

TEST_CASE("an unclosed or malformed placeholder is an error") {
  CHECK_THROWS_AS(fill_template("t.cu", "x = ${size;", {{"size", "8"}}), internal_codegen_error);
  CHECK_THROWS_AS(fill_template("t.cu", "x = ${};", {}), internal_codegen_error);
  CHECK_THROWS_AS(fill_template("t.cu", "x = ${a b};", {}), internal_codegen_error);
}

TEST_CASE("the kernel templates and dsl/givens.hpp are embedded in the library") {
  for (const char* name : {"prelude.cu", "pivot_angles.cu", "pivot_check_gather.cu", "group_pass.cu",
                           "off_norm.cu", "mode_product.cu", "multi_mode_product.cu", "small_tensor.cu", "givens.hpp"})
    CHECK_MESSAGE(!embedded_file(name).empty(), name);
  CHECK(embedded_file("givens.hpp").find("givens_from_double_angle") != std::string_view::npos);
  CHECK_THROWS_AS(embedded_file("no_such_template.cu"), internal_codegen_error);
}
