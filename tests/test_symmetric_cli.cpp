// `--structure symmetric` end to end: generate, diagonalize, the files and report.json, and the
// inputs it refuses (one line, non-zero exit, nothing written).
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_workspace.hpp"

using tensordiag::testing::check_rejected;
using tensordiag::testing::CliRun;
using tensordiag::testing::read_file;
using tensordiag::testing::Workspace;

namespace {

nlohmann::json report_of(const Workspace& workspace) {
  return nlohmann::json::parse(read_file(workspace / "result/report.json"));
}

}  // namespace

TEST_CASE("cli symmetric: a generated symmetric tensor is diagonalized, one Q written to every factor file") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 5 --seed 3 --structure symmetric s.npy").exit_code == 0);
  const CliRun run = workspace.run("diagonalize s.npy --out result --structure symmetric --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("converged after") != std::string::npos);
  CHECK(workspace.files() == std::set<std::string>{"s.npy", "result", "result/core.npy", "result/factor_1.npy",
                                                   "result/factor_2.npy", "result/factor_3.npy",
                                                   "result/factor_4.npy", "result/report.json"});
  for (int n = 2; n <= 4; ++n)
    CHECK(read_file(workspace / ("result/factor_" + std::to_string(n) + ".npy")) ==
          read_file(workspace / "result/factor_1.npy"));
  const auto report = report_of(workspace);
  CHECK(report["structure"] == "symmetric");
  CHECK(report["engine"] == "cpu");
  CHECK(report["converged"] == true);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
}

TEST_CASE("cli symmetric: a symmetric matrix (order 2) is taken with --structure symmetric only") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 2 --size 6 --seed 4 --structure symmetric m.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize m.npy --out result --backend cpu", "SVD");
  const CliRun run = workspace.run("diagonalize m.npy --out result --structure symmetric --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(report_of(workspace)["order"] == 2);
  CHECK(std::filesystem::exists(workspace / "result/factor_2.npy"));
  check_rejected(workspace, "generate --order 2 --size 6 --seed 4 g.npy", "order 2 is a matrix: use an SVD");
}

TEST_CASE("cli symmetric: a general tensor's report says structure general") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 t.npy").exit_code == 0);
  REQUIRE(workspace.run("diagonalize t.npy --out result --backend cpu").exit_code == 0);
  CHECK(report_of(workspace)["structure"] == "general");
}

TEST_CASE("cli symmetric: refused inputs and options are one line and write nothing") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 t.npy").exit_code == 0);
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 --structure symmetric s.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize t.npy --out result --structure symmetric", "the tensor is not symmetric: T[");
  check_rejected(workspace, "diagonalize s.npy --out result --structure symmetric --rule max_trace", "rule max_diag");
  check_rejected(workspace, "diagonalize s.npy --out result --structure symmetric --eta 0.1", "pivot check");
  check_rejected(workspace, "diagonalize s.npy --out result --structure antisymmetric", "--structure");
}
