// Complex tensors end to end through the command: generate --dtype complex128, diagonalize (the
// complex engine chosen from the file's dtype), the files it writes in the complex dtype, and the
// inputs it refuses (one line, non-zero exit, nothing written).
#include <doctest/doctest.h>

#include <complex>
#include <set>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "cli_workspace.hpp"
#include "runtime/io/npy.hpp"

using tensordiag::testing::check_rejected;
using tensordiag::testing::CliRun;
using tensordiag::testing::read_file;
using tensordiag::testing::Workspace;
namespace runtime = tensordiag::runtime;

TEST_CASE("cli complex: a generated complex128 tensor is diagonalized with unitary factors, written as complex128") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 7 --dtype complex128 z.npy").exit_code == 0);
  const runtime::AnyComplexTensor input = runtime::read_complex_tensor(workspace / "z.npy");
  CHECK(runtime::dtype_of(input) == runtime::Dtype::complex128);
  const CliRun run = workspace.run("diagonalize z.npy --out result --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("converged after") != std::string::npos);
  CHECK(run.out.find("unitarity error") != std::string::npos);
  CHECK(workspace.files() == std::set<std::string>{"z.npy", "result", "result/core.npy", "result/factor_1.npy",
                                                   "result/factor_2.npy", "result/factor_3.npy",
                                                   "result/report.json"});
  const runtime::NpyArray factor = runtime::read_npy_array(workspace / "result/factor_2.npy");
  CHECK(factor.dtype == runtime::Dtype::complex128);
  CHECK(factor.shape == std::vector<std::size_t>{6, 6});
  const runtime::AnyComplexTensor core = runtime::read_complex_tensor(workspace / "result/core.npy");
  const auto& c = std::get<runtime::HostTensor<std::complex<double>>>(core);
  for (int i = 0; i < 6; ++i) {
    CHECK(c.data()[i * c.diagonal_stride()].imag() == 0.0);
    CHECK(c.data()[i * c.diagonal_stride()].real() > 0.0);
  }
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["dtype"] == "complex128");
  CHECK(report["input_dtype"] == "complex128");
  CHECK(report["engine"] == "cpu_complex");
  CHECK(report["backend"] == "cpu");
  CHECK(report["converged"] == true);
  CHECK(report["history"].back()["off_rel"].get<double>() <= 1e-12);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
  CHECK(report["orthogonality_error"].get<double>() < 1e-13);
}

TEST_CASE("cli complex: complex64, and a real file made complex by --dtype") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 4 --seed 8 --dtype complex64 --layout F z.npy").exit_code == 0);
  CliRun run = workspace.run("diagonalize z.npy --out single --backend cpu -q");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(runtime::read_npy_array(workspace / "single/core.npy").dtype == runtime::Dtype::complex64);
  CHECK(runtime::read_npy_array(workspace / "single/core.npy").fortran_order);
  REQUIRE(workspace.run("generate --order 3 --size 5 --seed 9 --dtype float64 r.npy").exit_code == 0);
  run = workspace.run("diagonalize r.npy --out lifted --dtype complex128 --backend cpu --init hosvd -q");
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(read_file(workspace / "lifted/report.json"));
  CHECK(report["input_dtype"] == "float64");
  CHECK(report["dtype"] == "complex128");
  CHECK(report["converged"] == true);
  CHECK(report["init"]["method"] == "hosvd");
}

TEST_CASE("cli complex: refused inputs and options are one line and write nothing") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 10 --dtype complex128 z.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize z.npy --out result --rule max_trace", "real-only");
  check_rejected(workspace, "diagonalize z.npy --out result --dtype float64", "would drop the imaginary parts");
  check_rejected(workspace, "diagonalize z.npy --out result --structure symmetric", "takes real tensors");
  check_rejected(workspace, "diagonalize z.npy --out result --batch", "a batch takes real tensors");
  check_rejected(workspace, "diagonalize z.npy --out result --distributed", "the distributed engine takes real tensors");
  check_rejected(workspace, "generate --order 3 --size 4 --seed 1 --dtype complex64 --structure skew g.npy",
                 "complex tensors are general");
}
