// `--structure skew` end to end: generate, diagonalize, the files and report.json, and the inputs
// it refuses (one line, non-zero exit, nothing written).
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

TEST_CASE("cli skew: a generated skew tensor is diagonalized to its block form, one Q in every factor file") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 7 --seed 3 --structure skew --dtype float64 s.npy").exit_code == 0);
  const CliRun run = workspace.run("diagonalize s.npy --out result --structure skew --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("converged after") != std::string::npos);
  CHECK(workspace.files() == std::set<std::string>{"s.npy", "result", "result/core.npy", "result/factor_1.npy",
                                                   "result/factor_2.npy", "result/factor_3.npy",
                                                   "result/report.json"});
  for (int n = 2; n <= 3; ++n)
    CHECK(read_file(workspace / ("result/factor_" + std::to_string(n) + ".npy")) ==
          read_file(workspace / "result/factor_1.npy"));
  const auto report = nlohmann::json::parse(read_file(workspace / "result/report.json"));
  CHECK(report["structure"] == "skew");
  CHECK(report["engine"] == "cpu");
  CHECK(report["converged"] == true);
  CHECK(report["history"].back()["off_rel"].get<double>() <= 1e-12);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
}

TEST_CASE("cli skew: a skew matrix (order 2) reaches the Murnaghan form, the GPU backend says it is the CPU's") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 2 --size 9 --seed 4 --structure skew --noise 0.5 m.npy").exit_code == 0);
  const CliRun run = workspace.run("diagonalize m.npy --out result --structure skew");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(std::filesystem::exists(workspace / "result/factor_2.npy"));
  check_rejected(workspace, "diagonalize m.npy --out result --structure skew --backend cuda",
                 "structure skew at order 2 (the Murnaghan form of a skew matrix) runs on the CPU engine only");
}

TEST_CASE("cli skew: refused inputs and options are one line and write nothing") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 t.npy").exit_code == 0);
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 --structure skew s.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize t.npy --out result --structure skew", "the tensor is not skew-symmetric: T[");
  check_rejected(workspace, "diagonalize s.npy --out result --structure symmetric", "the tensor is not symmetric: T[");
  check_rejected(workspace, "diagonalize s.npy --out result --structure skew --rule max_trace", "on the blocks");
  check_rejected(workspace, "diagonalize s.npy --out result --structure skew --eta 0.1", "pivot check");
  check_rejected(workspace, "generate --order 4 --size 3 --seed 1 --structure skew g.npy", "size >= order");
}
