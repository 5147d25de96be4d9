// NVRTC, cuSOLVER and cuBLAS are opened on first use (runtime/cuda/shared_library.hpp), seen through
// the loader's own trace (LD_DEBUG=files) of the command: --help and a CPU run (from the HOSVD
// start too) map none of the CUDA toolkit's libraries, a kernel compile maps NVRTC. Opened here,
// cuBLAS and cuSOLVER have every entry point the runtime names (no GPU needed to look them up).
#include <doctest/doctest.h>

#include <string>

#include "cli_workspace.hpp"
#include "runtime/cuda/cublas_library.hpp"
#include "runtime/cuda/cusolver_library.hpp"
#include "scoped_environment.hpp"

using namespace tensordiag;
using namespace tensordiag::testing;

namespace {

bool mentions(const std::string& trace, const std::string& library) {
  return trace.find("file=" + library) != std::string::npos;
}

void check_no_toolkit_library(const CliRun& run) {
  REQUIRE(run.exit_code == 0);
  CHECK(mentions(run.err, "libstdc++.so"));  // the trace is on
  for (const char* library : {"libnvrtc", "libcusolver", "libcublas", "libcusparse", "libnvJitLink"})
    CHECK_MESSAGE(!mentions(run.err, library), library);
}

}  // namespace

TEST_CASE("the CUDA libraries load on first use: --help and a CPU run map none, a compile maps NVRTC") {
  const Workspace workspace;
  test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_DISABLE_KERNEL_CACHE", "1").set("LD_DEBUG", "files");
  check_no_toolkit_library(workspace.run("--help"));
  check_no_toolkit_library(workspace.run("generate --order 4 --size 5 --seed 3 t.npy"));
  check_no_toolkit_library(workspace.run("diagonalize t.npy --out run --backend cpu -q"));
  check_no_toolkit_library(workspace.run("diagonalize t.npy --out hosvd --backend cpu --init hosvd -q"));
  const CliRun compile = workspace.run("kernels --order 3 --size 4 --kernel off_norm --compile --arch sm_90");
  REQUIRE(compile.exit_code == 0);
  CHECK(mentions(compile.err, "libnvrtc.so"));
  CHECK_FALSE(mentions(compile.err, "libcusolver"));
}

TEST_CASE("cuBLAS and cuSOLVER open with every entry point the runtime names") {
  CHECK_NOTHROW(runtime::cublas());
  CHECK_NOTHROW(runtime::cusolver());
  CHECK(static_cast<bool>(runtime::cublas().dgemm_strided_batched));
  CHECK(static_cast<bool>(runtime::cusolver().dsyevd));
  // The complex HOSVD start's (gpu_hosvd_start.cpp).
  CHECK(static_cast<bool>(runtime::cublas().zgemm_strided_batched));
  CHECK(static_cast<bool>(runtime::cublas().cgemv));
  CHECK(static_cast<bool>(runtime::cusolver().zheevd));
  CHECK(static_cast<bool>(runtime::cusolver().cheevd_buffer_size));
}
