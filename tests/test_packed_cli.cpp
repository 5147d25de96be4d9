// `generate --packed` and `diagonalize --packed D` end to end: the files, report.json, the packed
// core against the full run's, and the inputs refused (one line, non-zero exit, nothing written).
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_workspace.hpp"
#include "relative_difference.hpp"
#include "scoped_environment.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/packed_symmetric.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_packed.hpp"

using tensordiag::testing::check_rejected;
using tensordiag::testing::CliRun;
using tensordiag::testing::read_file;
using tensordiag::testing::relative_difference;
using tensordiag::testing::Workspace;
namespace runtime = tensordiag::runtime;

namespace {

std::vector<double> doubles_of(const std::filesystem::path& path) {
  const runtime::NpyArray array = runtime::read_npy_array(path);
  REQUIRE(array.dtype == runtime::Dtype::float64);
  std::vector<double> values(array.bytes.size() / sizeof(double));
  std::memcpy(values.data(), array.bytes.data(), array.bytes.size());
  return values;
}

void write_vector(const std::filesystem::path& path, std::size_t length) {
  runtime::NpyArray array;
  array.shape = {length};
  array.bytes.assign(length * sizeof(double), 0);
  for (std::size_t e = 0; e < length; ++e) {
    const double x = 1.0 + static_cast<double>(e % 7);
    std::memcpy(array.bytes.data() + e * sizeof(double), &x, sizeof x);
  }
  runtime::write_npy_array(path, array);
}

}  // namespace

TEST_CASE("cli packed: a packed symmetric tensor is diagonalized, its core written packed, the full run's to rounding") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 6 --seed 8 --structure symmetric --packed p.npy").exit_code == 0);
  REQUIRE(workspace.run("generate --order 4 --size 6 --seed 8 --structure symmetric s.npy").exit_code == 0);
  const runtime::NpyArray packed_file = runtime::read_npy_array(workspace / "p.npy");
  CHECK(packed_file.shape == std::vector<std::size_t>{126});  // binom(9, 4)

  const CliRun run = workspace.run("diagonalize p.npy --packed 4 --out result --max-sweeps 8 --tol 0 --stall-tol 0");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("wrote core.npy (packed), factor_1.npy .. factor_4.npy and report.json in result") !=
        std::string::npos);
  CHECK(workspace.files() == std::set<std::string>{"p.npy", "s.npy", "result", "result/core.npy",
                                                   "result/factor_1.npy", "result/factor_2.npy",
                                                   "result/factor_3.npy", "result/factor_4.npy",
                                                   "result/report.json"});
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["order"] == 4);
  CHECK(report["size"] == 6);
  CHECK(report["layout"] == "packed");
  CHECK(report["structure"] == "symmetric");
  // Backend auto: the GPU packed engine where there is a GPU, else the CPU's with a note saying why.
  if (runtime::cuda_device()) {
    CHECK(report["engine"] == "cuda_packed");
    CHECK(report["backend"] == "cuda");
  } else {
    CHECK(report["engine"] == "cpu_packed");
    CHECK(report["backend"] == "cpu");
    CHECK(run.err.find("tensordiag: note: no GPU (") == 0);
    CHECK(run.err.find("running on the CPU") != std::string::npos);
  }
  CHECK(report["sweeps"] == 8);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
  CHECK(report["orthogonality_error"].get<double>() < 1e-13);

  REQUIRE(workspace.run("diagonalize s.npy --structure symmetric --backend cpu --out full --max-sweeps 8 --tol 0 "
                        "--stall-tol 0").exit_code == 0);
  const std::vector<double> full_core = doubles_of(workspace / "full/core.npy");
  const runtime::HostTensor<double> full(4, 6, runtime::Layout::c_order, full_core);
  CHECK(relative_difference(doubles_of(workspace / "result/core.npy"), runtime::pack_symmetric(full).values()) < 1e-12);
  CHECK(relative_difference(doubles_of(workspace / "result/factor_1.npy"), doubles_of(workspace / "full/factor_1.npy")) <
        1e-12);
  CHECK(read_file(workspace / "result/factor_4.npy") == read_file(workspace / "result/factor_1.npy"));
}

TEST_CASE("cli packed: --dtype float32 runs in single precision and writes float32 files") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 5 --seed 2 --structure symmetric --packed --noise 0.01 p.npy")
              .exit_code == 0);
  const CliRun run = workspace.run("diagonalize p.npy --packed 3 --dtype float32 --out result -q");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.empty());
  const runtime::NpyArray core = runtime::read_npy_array(workspace / "result/core.npy");
  CHECK(core.dtype == runtime::Dtype::float32);
  CHECK(core.shape == std::vector<std::size_t>{35});
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["input_dtype"] == "float64");
  CHECK(report["dtype"] == "float32");
  CHECK(report["reconstruction_error"].get<double>() < 1e-5);
}

TEST_CASE("cli packed: --init hosvd starts from G_1's eigenvectors and says so in report.json") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 5 --seed 3 --structure symmetric --packed --noise 0.02 p.npy")
              .exit_code == 0);
  const CliRun run = workspace.run("diagonalize p.npy --packed 4 --init hosvd --out result -q");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["init"]["method"] == "hosvd");
  CHECK(report["init"]["computed_on"] == "host");
  CHECK(report["history"][0]["off_rel"].get<double>() < 1.0);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
}

TEST_CASE("cli packed: --backend cuda without a GPU is the full-storage run's one line, and writes nothing") {
  if (runtime::cuda_device()) return;  // the GPU suite runs packed tensors on the GPU there
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 5 --structure symmetric --packed p.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --backend cuda", "the CUDA backend needs a GPU: ");
}

TEST_CASE("cli packed: refused inputs and options are one line and write nothing") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 5 --structure symmetric --packed p.npy").exit_code == 0);
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 5 --structure symmetric s.npy").exit_code == 0);
  write_vector(workspace / "odd.npy", 57);
  check_rejected(workspace, "diagonalize odd.npy --packed 3 --out result",
                 "odd.npy: 57 values are no packed symmetric tensor of order 3, which holds binom(N + 2, 3) values: "
                 "56 for N = 6, 84 for N = 7");
  check_rejected(workspace, "diagonalize s.npy --packed 3 --out result",
                 "s.npy: a packed symmetric tensor is one-dimensional (its distinct entries), not of shape (6, 6, 6)");
  REQUIRE(workspace.run("generate --order 13 --size 2 --seed 5 --structure symmetric --packed high.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize high.npy --packed 13 --out result --backend cuda",
                 "packed storage on the GPU takes order D <= 12 (order 13): use --backend cpu or auto");
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --batch",
                 "p.npy: a batch of packed symmetric tensors is two-dimensional (B, binom(N + 2, 3)), not of shape (56,)");
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --devices 0", "it does not go with --distributed or --devices");
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --structure skew", "structure skew takes full storage");
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --eta 0.1", "pivot check");
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --dtype complex128", "packed storage holds real tensors");
  check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --schedule xor", "N a power of two (N = 6)");
  check_rejected(workspace, "diagonalize p.npy --packed 1 --out result", "--packed");
  check_rejected(workspace, "diagonalize p.npy --packed 49 --out result", "--packed");
  check_rejected(workspace, "generate --order 3 --size 6 --seed 5 --packed g.npy", "it needs --structure symmetric");
  check_rejected(workspace, "generate --order 3 --size 6 --seed 5 --structure symmetric --packed --layout F g.npy",
                 "--layout does not apply");
  check_rejected(workspace, "generate --order 3 --size 6 --seed 5 --structure symmetric --packed --dtype complex64 g.npy",
                 "--packed writes real tensors");
  {  // the route of low orders through full storage takes its bound from the environment
    tensordiag::test::ScopedEnvironment environment;
    environment.set("TENSORDIAG_PACKED_FULL_BYTES", "many");
    check_rejected(workspace, "diagonalize p.npy --packed 3 --out result --backend cpu",
                   "TENSORDIAG_PACKED_FULL_BYTES must be a byte count >= 0, not 'many'");
  }
  // binom(51, 12) = 1.6e11 entries: refused from the count, not left to the kernel's OOM killer.
  check_rejected(workspace, "generate --order 12 --size 40 --seed 5 --structure symmetric --packed g.npy",
                 "--packed: the 158753389900 distinct entries need 2540.1 GB while they are made");
}

TEST_CASE("cli packed: --batch runs every row of a (B, binom(N + D - 1, D)) file as it runs alone, in C or Fortran order") {
  const Workspace workspace;
  // Three planted tensors, stacked as rows: C order, and the same values in Fortran order.
  std::vector<std::vector<double>> rows;
  for (const char* seed : {"1", "2", "3"}) {
    const std::string name = std::string("p") + seed + ".npy";
    REQUIRE(workspace.run(std::string("generate --order 4 --size 6 --structure symmetric --packed --noise 0.05 --seed ") +
                          seed + " " + name)
                .exit_code == 0);
    rows.push_back(doubles_of(workspace / name));
  }
  const std::size_t length = rows.front().size();  // binom(9, 4) = 126
  runtime::NpyArray stacked, fortran;
  stacked.shape = fortran.shape = {rows.size(), length};
  fortran.fortran_order = true;
  stacked.bytes.resize(rows.size() * length * sizeof(double));
  fortran.bytes.resize(stacked.bytes.size());
  for (std::size_t b = 0; b < rows.size(); ++b)
    for (std::size_t e = 0; e < length; ++e) {
      std::memcpy(stacked.bytes.data() + (b * length + e) * sizeof(double), &rows[b][e], sizeof(double));
      std::memcpy(fortran.bytes.data() + (e * rows.size() + b) * sizeof(double), &rows[b][e], sizeof(double));
    }
  runtime::write_npy_array(workspace / "b.npy", stacked);
  runtime::write_npy_array(workspace / "bf.npy", fortran);
  // The reader gives the rows back as tensors, from either order.
  for (const char* name : {"b.npy", "bf.npy"}) {
    const runtime::AnyPackedBatch read = runtime::read_packed_batch(workspace / name, 4);
    const auto& tensors = std::get<std::vector<runtime::PackedSymmetricTensor<double>>>(read);
    REQUIRE(tensors.size() == 3);
    for (std::size_t b = 0; b < 3; ++b) CHECK((tensors[b].size() == 6 && tensors[b].values() == rows[b]));
  }

  const std::string sweeps = " --max-sweeps 6 --tol 0 --stall-tol 0";
  const CliRun run = workspace.run("diagonalize b.npy --packed 4 --batch --out result" + sweeps);
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("batch of 3 tensors on ") == 0);
  CHECK(run.out.find("wrote core.npy (packed, one row a tensor), factor_1.npy .. factor_4.npy and report.json in result") !=
        std::string::npos);
  const runtime::NpyArray core = runtime::read_npy_array(workspace / "result/core.npy");
  CHECK(core.shape == std::vector<std::size_t>{3, length});
  const std::vector<double> cores = doubles_of(workspace / "result/core.npy");
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["batch"] == 3);
  REQUIRE(report["tensors"].size() == 3);
  // Each row is the single run of the same tensor, bit for bit: core, every factor, the engine.
  for (std::size_t b = 0; b < rows.size(); ++b) {
    CAPTURE(b);
    const std::string alone = "alone" + std::to_string(b);
    REQUIRE(workspace.run("diagonalize p" + std::to_string(b + 1) + ".npy --packed 4 -q --out " + alone + sweeps)
                .exit_code == 0);
    CHECK(std::vector<double>(cores.begin() + static_cast<std::ptrdiff_t>(b * length),
                              cores.begin() + static_cast<std::ptrdiff_t>((b + 1) * length)) ==
          doubles_of(workspace / alone / "core.npy"));
    for (int n = 1; n <= 4; ++n) {
      const std::vector<double> factors = doubles_of(workspace / "result" / ("factor_" + std::to_string(n) + ".npy"));
      REQUIRE(factors.size() == 3 * 36);
      CHECK(std::vector<double>(factors.begin() + static_cast<std::ptrdiff_t>(b * 36),
                                factors.begin() + static_cast<std::ptrdiff_t>((b + 1) * 36)) ==
            doubles_of(workspace / alone / ("factor_" + std::to_string(n) + ".npy")));
    }
    const auto single = nlohmann::json::parse(read_file(workspace / alone / "report.json"));
    CHECK(report["tensors"][b]["layout"] == "packed");
    CHECK(report["tensors"][b]["engine"] == single["engine"]);
    REQUIRE(report["tensors"][b]["history"].size() == single["history"].size());
    for (std::size_t k = 0; k < single["history"].size(); ++k)
      for (const char* figure : {"off_rel", "diag_norm2", "trace"})
        CHECK(report["tensors"][b]["history"][k][figure] == single["history"][k][figure]);
    CHECK(report["tensors"][b]["reconstruction_error"].get<double>() < 1e-13);
  }
  const CliRun from_fortran = workspace.run("diagonalize bf.npy --packed 4 --batch -q --out fortran" + sweeps);
  REQUIRE(from_fortran.exit_code == 0);
  CHECK(doubles_of(workspace / "fortran/core.npy") == cores);
  // A float32 run of the float64 batch, and the refusals: one line, nothing written.
  REQUIRE(workspace.run("diagonalize b.npy --packed 4 --batch --dtype float32 -q --out single" + sweeps).exit_code == 0);
  CHECK(runtime::read_npy_array(workspace / "single/core.npy").dtype == runtime::Dtype::float32);
  check_rejected(workspace, "diagonalize b.npy --packed 3 --batch --out refused",
                 "b.npy: 126 values are no packed symmetric tensor of order 3");
  check_rejected(workspace, "diagonalize b.npy --packed 4 --batch --dtype complex64 --out refused",
                 "packed storage holds real tensors: --dtype complex64 is not available for it");
  check_rejected(workspace, "diagonalize b.npy --packed 4 --batch --structure skew --out refused",
                 "structure skew takes full storage");
  runtime::NpyArray empty;
  empty.shape = {0, length};
  runtime::write_npy_array(workspace / "empty.npy", empty);
  check_rejected(workspace, "diagonalize empty.npy --packed 4 --batch --out refused", "empty.npy: the batch holds no tensor");
}

TEST_CASE("packed files: the header alone gives the shape and the refusals, values round-trip bit for bit") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 7 --seed 9 --structure symmetric --packed --dtype float32 p.npy").exit_code == 0);
  runtime::PackedSymmetricFile file(workspace / "p.npy", 4);
  CHECK(file.shape().order == 4);
  CHECK(file.shape().size == 7);
  CHECK(file.shape().dtype == runtime::Dtype::float32);
  const runtime::AnyPackedTensor tensor = file.read();
  CHECK_THROWS_AS(file.read(), tensordiag::internal_error);  // the data is read once
  REQUIRE(std::holds_alternative<runtime::PackedSymmetricTensor<float>>(tensor));
  const auto& typed = std::get<runtime::PackedSymmetricTensor<float>>(tensor);
  CHECK(typed.size() == 7);
  CHECK(typed.count() == 210);  // binom(10, 4)
  runtime::write_packed_symmetric(workspace / "q.npy", typed);
  CHECK(read_file(workspace / "q.npy") == read_file(workspace / "p.npy"));
  // Refused on opening, from the header alone, with the messages the command prints.
  write_vector(workspace / "odd.npy", 57);
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 5 --structure symmetric s.npy").exit_code == 0);
  CHECK_THROWS_WITH_AS(runtime::PackedSymmetricFile(workspace / "odd.npy", 3),
                       doctest::Contains("57 values are no packed symmetric tensor of order 3"), tensordiag::user_error);
  CHECK_THROWS_WITH_AS(runtime::PackedSymmetricFile(workspace / "s.npy", 3),
                       doctest::Contains("a packed symmetric tensor is one-dimensional (its distinct entries)"),
                       tensordiag::user_error);
}
