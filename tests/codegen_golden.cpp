// Golden snapshots of the generated source for three specs (tests/golden/*.cu): any change to the
// templates, the printer or the plans shows up as a diff to review.
// To accept a change, regenerate them:  TENSORDIAG_UPDATE_GOLDEN=1 ctest -R golden
// (or run tensordiag_tests -tc="*golden*" with the variable set), then review `git diff tests/golden`.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "codegen/kernel_source.hpp"

using namespace tensordiag::codegen;

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

void check_golden(const std::string& name, const KernelSpec& spec) {
  const std::filesystem::path golden = std::filesystem::path(TENSORDIAG_SOURCE_DIR) / "tests" / "golden" / name;
  const std::string actual = kernel_source(spec);
  if (std::getenv("TENSORDIAG_UPDATE_GOLDEN")) {
    write_file(golden, actual);
    MESSAGE("rewrote ", golden.string());
    return;
  }
  const std::string expected = read_file(golden);
  if (actual == expected) return;
  const std::filesystem::path written = std::filesystem::path(TENSORDIAG_BINARY_DIR) / "golden_actual" / name;
  write_file(written, actual);
  FAIL("generated source differs from ", golden.string(), "\n  see: diff -u ", golden.string(), " ",
       written.string(), "\n  accept: TENSORDIAG_UPDATE_GOLDEN=1 ctest -R golden");
}

}  // namespace

TEST_CASE("golden: pivot_angles, D = 3, N = 4, float32, C order, max_diag") {
  check_golden("pivot_angles_d3_n4_float32_C_max_diag.cu", make_kernel_spec("pivot_angles", 3, 4, "float32", "C", "max_diag"));
}

TEST_CASE("golden: symmetric_angles, D = 3, N = 6, float64, C order, max_diag") {
  check_golden("symmetric_angles_d3_n6_float64_C_max_diag.cu",
               make_kernel_spec("symmetric_angles", 3, 6, "float64", "C", "max_diag"));
}

TEST_CASE("golden: group_pass, D = 4, N = 5, float64, Fortran order, max_trace") {
  check_golden("group_pass_d4_n5_float64_F_max_trace.cu", make_kernel_spec("group_pass", 4, 5, "float64", "F", "max_trace"));
}

TEST_CASE("golden: pivot_angles, D = 3, N = 4, complex128, C order, max_diag (its complex lift)") {
  check_golden("pivot_angles_d3_n4_complex128_C_max_diag.cu",
               make_kernel_spec("pivot_angles", 3, 4, "complex128", "C", "max_diag"));
}
