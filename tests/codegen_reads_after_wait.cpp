// The kernels that a sweep launches to overlap the kernel before them (programmatic dependent
// launch: runtime/engines/gpu_engine.cpp's GpuSweep, gpu_subspace_passes.cpp) read what that kernel
// wrote only after griddepcontrol.wait, and never by non-coherent loads: NVRTC turns a plain read
// of a const __restrict__ argument into ld.global.nc, which assumes memory that nothing writes
// while the kernel runs and may be moved above the wait; with such reads a symmetric D = 12, N = 2
// run on an H200 came back with a zero core (kernels_templates/prelude.cu, read_after_wait). Checked
// on NVRTC's PTX for compute_90 (no GPU needed): each kernel has its wait, and after the first one
// no floating-point load is ld.global.nc (the index tables, ints the host wrote before the run, may
// be).
#include <doctest/doctest.h>

#include <regex>
#include <sstream>
#include <string>

#include "codegen/kernel_source.hpp"
#include "codegen/kernel_spec.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"

using namespace tensordiag;
using namespace tensordiag::codegen;

namespace {

struct Case {
  std::string kind;
  int order;
  int size;  // N; subspace_angles' is the cell's, 2^k (kernels_templates/subspace_angles.cu)
  std::string dtype;
  bool symmetric;  // KernelSpec::symmetric: subspace_angles' symmetric variant
};

// The PTX lines that load floating-point values through the non-coherent path after the first
// griddepcontrol.wait of their kernel (.entry: a module may hold kernels launched plainly beside
// the overlapping one, such as pivot_check_lines and checked_angles beside pivot_check_gather);
// "no wait" when the PTX has none.
std::string non_coherent_float_loads_after_wait(const std::string& ptx) {
  static const std::regex float_load_nc(R"(ld\.global\.nc(\.v[24])?\.f(32|64))");
  std::istringstream lines(ptx);
  std::string line, found;
  bool waited = false, any_wait = false;
  while (std::getline(lines, line)) {
    if (line.find(".entry") != std::string::npos) waited = false;
    if (line.find("griddepcontrol.wait") != std::string::npos) waited = any_wait = true;
    else if (waited && std::regex_search(line, float_load_nc)) found += line + "\n";
  }
  return any_wait ? found : "no wait";
}

}  // namespace

TEST_CASE("the overlapping kernels read what the kernel before them wrote after their wait, by coherent loads") {
  const Case cases[] = {
      {"pivot_angles", 3, 16, "float32", false},   {"pivot_angles", 5, 8, "float64", false},
      {"pivot_angles", 4, 6, "complex64", false},  {"symmetric_angles", 12, 2, "float64", false},
      {"symmetric_angles", 6, 8, "float32", false}, {"symmetric_angles", 3, 16, "complex128", false},
      {"group_pass", 12, 2, "float64", false},      {"group_pass", 9, 8, "float32", false},
      {"group_pass", 6, 8, "complex128", false},   {"group_pass", 3, 128, "complex64", false},
      {"subspace_angles", 3, 8, "float32", false},   {"subspace_angles", 3, 8, "complex128", true},
      {"subspace_angles", 4, 4, "float64", true},
      {"subspace_apply", 3, 128, "float32", false},  {"subspace_apply", 4, 32, "float64", false},
      // The checked sweep's kernels (the pivot check, --eta): Lambda in registers and from global
      // memory (N > 128), the complex embedding.
      {"pivot_check_gather", 3, 16, "float32", false}, {"pivot_check_gather", 6, 8, "complex128", false},
      {"lambda_norm", 3, 64, "float32", false},        {"lambda_norm", 3, 200, "float64", false},
      {"lambda_norm", 3, 32, "complex64", false}};
  for (const Case& c : cases) {
    CAPTURE(c.kind);
    CAPTURE(c.order);
    CAPTURE(c.size);
    CAPTURE(c.dtype);
    KernelSpec spec = make_kernel_spec(c.kind, c.order, c.size, c.dtype, "C", "max_diag");
    spec.symmetric = c.symmetric;
    const std::string ptx = runtime::compile_ptx(kernel_source(spec), program_name(spec), {}, 90);
    REQUIRE(ptx.find(".entry") != std::string::npos);
    CHECK(non_coherent_float_loads_after_wait(ptx) == "");
  }
}
