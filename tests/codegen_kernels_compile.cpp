// Every kernel kind compiles, in both dtypes and with both built-in rules, and group_pass and
// pivot_angles for every listed D in {3, 4, 5, 9} and N in {2, 3, 8, 16, 128} (but (9, 128),
// whose 2^63 entries codegen rejects: codegen_kernel_spec.cpp). Compiled with nvcc as a stand-in
// for NVRTC (tests/cuda_compiler.hpp); skipped where no nvcc was found at configure time.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "codegen/codegen_error.hpp"
#include "codegen/kernel_source.hpp"
#include "tests/cuda_compiler.hpp"

using namespace tensordiag::codegen;

namespace {

#ifdef TENSORDIAG_NVCC
constexpr bool have_nvcc = true;
constexpr const char* nvcc_path = TENSORDIAG_NVCC;
#else
constexpr bool have_nvcc = false;
constexpr const char* nvcc_path = "";
#endif

constexpr int orders[] = {3, 4, 5, 9};
constexpr int sizes[] = {2, 3, 8, 16, 128};
constexpr const char* dtypes[] = {"float32", "float64"};
constexpr const char* rules[] = {"max_diag", "max_trace"};

struct Case {
  std::string kind;
  int order;
  int size;
  std::string dtype;
  std::string layout;
  std::string rule;
};

tensordiag::test::CudaSource source_of(const Case& c) {
  const KernelSpec spec = make_kernel_spec(c.kind, c.order, c.size, c.dtype, c.layout, c.rule);
  return {c.kind + "_d" + std::to_string(c.order) + "_n" + std::to_string(c.size) + "_" + c.dtype + "_" + c.layout +
              "_" + c.rule,
          kernel_source(spec)};
}

void check_compiles(const std::vector<Case>& cases) {
  std::vector<tensordiag::test::CudaSource> sources;
  for (const Case& c : cases) sources.push_back(source_of(c));
  for (const auto& outcome : tensordiag::test::compile_with_nvcc(nvcc_path, sources, 2))
    CHECK_MESSAGE(outcome.compiled, outcome.name, "\n", outcome.log);
}

// Every listed (D, N) but the unaddressable (9, 128), cycling dtype, layout and rule so each
// combination of them appears.
std::vector<Case> every_listed_shape(const std::string& kind) {
  std::vector<Case> cases;
  int i = 0;
  for (const int order : orders)
    for (const int size : sizes) {
      if (order == 9 && size == 128) continue;
      cases.push_back({kind, order, size, dtypes[i % 2], i % 4 < 2 ? "C" : "F", rules[(i / 2) % 2]});
      ++i;
    }
  return cases;
}

}  // namespace

TEST_CASE("every kernel kind compiles in float32 and float64 with max_diag and max_trace" *
          doctest::skip(!have_nvcc)) {
  std::vector<Case> cases;
  for (const auto& kind : kernel_kinds())
    for (const char* dtype : dtypes)
      for (const char* rule : rules)
        cases.push_back({kind, 4, 5, dtype, std::string(dtype) == "float32" ? "C" : "F", rule});
  check_compiles(cases);
}

TEST_CASE("group_pass compiles for every listed D and N" * doctest::skip(!have_nvcc)) {
  check_compiles(every_listed_shape("group_pass"));
}

TEST_CASE("pivot_angles compiles for every listed D and N" * doctest::skip(!have_nvcc)) {
  check_compiles(every_listed_shape("pivot_angles"));
}

TEST_CASE("small_tensor and multi_mode_product compile for every listed D and N that fits a block" *
          doctest::skip(!have_nvcc)) {
  std::vector<Case> cases;
  int i = 0;
  for (const char* kind : {"small_tensor", "multi_mode_product"})
    for (const int order : orders)
      for (const int size : sizes) {
        const Case c{kind, order, size, dtypes[i % 2], i % 4 < 2 ? "C" : "F", rules[(i / 2) % 2]};
        ++i;
        try {
          kernel_entries(make_kernel_spec(c.kind, c.order, c.size, c.dtype, c.layout, c.rule));
          cases.push_back(c);
        } catch (const codegen_error&) {
          // Too large for one block's shared memory: these tensors take the group kernels.
        }
      }
  CHECK(cases.size() >= 12);
  check_compiles(cases);
}

TEST_CASE("the other kernel kinds compile across D and N" * doctest::skip(!have_nvcc)) {
  std::vector<Case> cases;
  int i = 0;
  for (const char* kind : {"pivot_check_gather", "factor_update", "off_norm", "mode_product"})
    for (const auto& [order, size] : {std::pair{3, 128}, std::pair{9, 3}, std::pair{5, 16}}) {
      cases.push_back({kind, order, size, dtypes[i % 2], i % 4 < 2 ? "C" : "F", rules[(i / 2) % 2]});
      ++i;
    }
  check_compiles(cases);
}
