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
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_batch.hpp"

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

TEST_CASE("cli complex: a complex symmetric tensor with --structure symmetric: one unitary U in every file, C symmetric, "
          "orders 2 to 4") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 5 --seed 12 --dtype complex128 --structure symmetric s.npy").exit_code ==
          0);
  const runtime::AnyComplexTensor read = runtime::read_complex_tensor(workspace / "s.npy");
  const auto& input = std::get<runtime::HostTensor<std::complex<double>>>(read);
  for (const auto& [i, j, k] : {std::tuple{0, 1, 2}, std::tuple{1, 1, 4}, std::tuple{3, 0, 0}})
    CHECK(input.at({i, j, k}) == input.at({k, i, j}));  // generated exactly symmetric
  const CliRun run = workspace.run("diagonalize s.npy --out result --structure symmetric --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["structure"] == "symmetric");
  CHECK(report["engine"] == "cpu_complex");
  CHECK(report["converged"] == true);
  CHECK(report["history"].back()["off_rel"].get<double>() <= 1e-12);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
  const runtime::NpyArray first = runtime::read_npy_array(workspace / "result/factor_1.npy");
  for (const char* other : {"result/factor_2.npy", "result/factor_3.npy"})
    CHECK(runtime::read_npy_array(workspace / other).bytes == first.bytes);
  const runtime::AnyComplexTensor core = runtime::read_complex_tensor(workspace / "result/core.npy");
  const auto& c = std::get<runtime::HostTensor<std::complex<double>>>(core);
  for (int i = 0; i < 5; ++i) {
    CHECK(c.data()[i * c.diagonal_stride()].imag() == 0.0);
    CHECK(c.data()[i * c.diagonal_stride()].real() > 0.0);
  }
  CHECK(std::abs(c.at({0, 1, 2}) - c.at({2, 0, 1})) <= 1e-14 * std::abs(c.at({0, 0, 0})));
  // Order 2 (Takagi), a single matrix and a batch of two; without --structure symmetric a matrix is refused.
  REQUIRE(workspace.run("generate --order 2 --size 6 --seed 13 --dtype complex64 --structure symmetric m.npy").exit_code ==
          0);
  const CliRun matrix = workspace.run("diagonalize m.npy --out takagi --structure symmetric --backend cpu -q");
  INFO("stderr: " << matrix.err);
  REQUIRE(matrix.exit_code == 0);
  CHECK(nlohmann::json::parse(read_file(workspace / "takagi/report.json"))["converged"] == true);
  check_rejected(workspace, "diagonalize m.npy --out general", "order 2 is a matrix");
  const runtime::AnyComplexTensor m = runtime::read_complex_tensor(workspace / "m.npy", runtime::Structure::symmetric);
  const auto& single = std::get<runtime::HostTensor<std::complex<float>>>(m);
  runtime::write_tensor_batch(workspace / "pair.npy", std::vector<runtime::HostTensor<std::complex<float>>>{single, single});
  const CliRun batch = workspace.run("diagonalize pair.npy --out pair --batch --structure symmetric --backend cpu -q");
  INFO("stderr: " << batch.err);
  CHECK(batch.exit_code == 0);
  // Order 4 takes the searched step (the CPU's): converged, U in every file.
  REQUIRE(workspace.run("generate --order 4 --size 3 --seed 11 --dtype complex128 --structure symmetric s4.npy").exit_code ==
          0);
  const CliRun fourth = workspace.run("diagonalize s4.npy --out fourth --structure symmetric --backend cpu -q");
  INFO("stderr: " << fourth.err);
  REQUIRE(fourth.exit_code == 0);
  // --backend cuda: the general GPU engine takes order 4 too (the step on the host, the tensor's work
  // on the device); without a GPU that is one line, writing nothing.
  if (!runtime::cuda_device()) {
    check_rejected(workspace, "diagonalize s4.npy --out fourth_gpu --structure symmetric --backend cuda",
                   "the CUDA backend needs a GPU");
  } else {
    const CliRun gpu = workspace.run("diagonalize s4.npy --out fourth_gpu --structure symmetric --backend cuda -q");
    INFO("stderr: " << gpu.err);
    REQUIRE(gpu.exit_code == 0);
    const auto gpu_report = nlohmann::json::parse(read_file(workspace / "fourth_gpu/report.json"));
    CHECK(gpu_report["engine"] == "cuda");
    CHECK(gpu_report["history"].back()["off_rel"].get<double>() <= 1e-12);
  }
  const auto fourth_report = nlohmann::json::parse(read_file(workspace / "fourth/report.json"));
  CHECK(fourth_report["engine"] == "cpu_complex");
  CHECK(fourth_report["history"].back()["off_rel"].get<double>() <= 1e-12);
  CHECK(fourth_report["reconstruction_error"].get<double>() < 1e-13);
  CHECK(runtime::read_npy_array(workspace / "fourth/factor_4.npy").bytes ==
        runtime::read_npy_array(workspace / "fourth/factor_1.npy").bytes);
}

namespace {

std::vector<runtime::HostTensor<std::complex<double>>> complex_tensors(int count, int order, int size, unsigned seed) {
  std::vector<runtime::HostTensor<std::complex<double>>> tensors;
  for (int b = 0; b < count; ++b) {
    runtime::GeneratorOptions g;
    g.order = order;
    g.size = size;
    g.seed = seed + static_cast<unsigned>(b);
    g.noise = 0.05;
    tensors.push_back(runtime::generate_complex_diagonalizable<double>(g).tensor);
  }
  return tensors;
}

}  // namespace

TEST_CASE("cli complex: --batch runs every complex tensor as it runs alone, bit for bit, and stacks the outputs") {
  const Workspace workspace;
  const auto tensors = complex_tensors(3, 3, 5, 60);
  runtime::write_tensor_batch(workspace / "batch.npy", tensors);
  const CliRun run = workspace.run("diagonalize batch.npy --out result --batch --backend cpu --max-sweeps 6");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("batch of 3 tensors") != std::string::npos);
  CHECK(run.out.find("largest reconstruction error") != std::string::npos);
  CHECK(run.out.find("unitarity error") != std::string::npos);  // as a single complex run says it
  const runtime::NpyArray core = runtime::read_npy_array(workspace / "result/core.npy");
  CHECK(core.dtype == runtime::Dtype::complex128);
  CHECK(core.shape == std::vector<std::size_t>{3, 5, 5, 5});
  const auto cores = std::get<std::vector<runtime::HostTensor<std::complex<double>>>>(
      runtime::read_complex_tensor_batch(workspace / "result/core.npy"));
  const runtime::NpyArray factors = runtime::read_npy_array(workspace / "result/factor_3.npy");
  CHECK(factors.shape == std::vector<std::size_t>{3, 5, 5});
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  REQUIRE(report["batch"] == 3);
  runtime::Options options;
  options.backend = runtime::Backend::cpu;
  options.max_sweeps = 6;
  for (std::size_t b = 0; b < 3; ++b) {
    const auto alone = runtime::diagonalize_complex(tensors[b], options);
    CHECK(cores[b].values() == alone.core.values());
    const auto* third = reinterpret_cast<const std::complex<double>*>(factors.bytes.data()) + b * 25;
    CHECK(std::vector<std::complex<double>>(third, third + 25) == alone.factors[2].data);
    CHECK(report["tensors"][b]["engine"] == "cpu_complex");
    CHECK(report["tensors"][b]["dtype"] == "complex128");
    CHECK(report["tensors"][b]["reconstruction_error"].get<double>() < 1e-13);
  }
  CHECK(cores[0].values() != cores[1].values());

  // --dtype complex64 on the complex128 batch, and a real batch made complex.
  REQUIRE(workspace.run("diagonalize batch.npy --out narrow --batch --backend cpu --dtype complex64 -q").exit_code == 0);
  CHECK(runtime::read_npy_array(workspace / "narrow/core.npy").dtype == runtime::Dtype::complex64);
  std::vector<runtime::HostTensor<double>> real;
  for (unsigned b = 0; b < 2; ++b) {
    runtime::GeneratorOptions g;
    g.seed = 70 + b;
    real.push_back(runtime::generate_diagonalizable<double>(g).tensor);
  }
  runtime::write_tensor_batch(workspace / "real.npy", real);
  REQUIRE(workspace.run("diagonalize real.npy --out lifted --batch --backend cpu --dtype complex128 -q").exit_code == 0);
  CHECK(runtime::read_npy_array(workspace / "lifted/core.npy").dtype == runtime::Dtype::complex128);
  CHECK(nlohmann::json::parse(read_file(workspace / "lifted/report.json"))["tensors"][1]["input_dtype"] == "float64");
}

TEST_CASE("cli complex: a bad complex batch is one line and writes nothing") {
  const Workspace workspace;
  auto tensors = complex_tensors(2, 3, 4, 80);
  runtime::write_tensor_batch(workspace / "batch.npy", tensors);
  check_rejected(workspace, "diagonalize batch.npy --out result --batch --dtype float64", "would drop the imaginary parts");
  check_rejected(workspace, "diagonalize batch.npy --out result --batch --structure symmetric", "is not symmetric");
  check_rejected(workspace, "diagonalize batch.npy --out result --batch --rule max_trace", "real-only");
  tensors[1].values()[7] = {1.0, std::nan("")};
  runtime::write_tensor_batch(workspace / "nan.npy", tensors);
  check_rejected(workspace, "diagonalize nan.npy --out result --batch", "tensor 1 of the batch contains NaN or Inf");
}

TEST_CASE("cli complex: refused inputs and options are one line and write nothing") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 10 --dtype complex128 z.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize z.npy --out result --rule max_trace", "real-only");
  check_rejected(workspace, "diagonalize z.npy --out result --dtype float64", "would drop the imaginary parts");
  check_rejected(workspace, "diagonalize z.npy --out result --structure symmetric", "the tensor is not symmetric");
  check_rejected(workspace, "diagonalize z.npy --out result --structure skew", "structure skew takes real tensors");
  runtime::HostTensor<std::complex<double>> hermitian(2, 2);
  hermitian.values() = {1.0, {2.0, 1.0}, {2.0, -1.0}, 3.0};
  runtime::write_tensor(workspace / "h.npy", hermitian);
  check_rejected(workspace, "diagonalize h.npy --out result --structure symmetric",
                 "this matrix is Hermitian, T[i, j] = conj(T[j, i]): its eigendecomposition is numpy.linalg.eigh");
  check_rejected(workspace, "diagonalize z.npy --out result --distributed", "the distributed engine takes real tensors");
  check_rejected(workspace, "generate --order 3 --size 4 --seed 1 --dtype complex64 --structure skew g.npy",
                 "complex tensors are general");
}
