// The tensordiag command seen from outside: exit status, stdout, stderr and what is left on disk.
// Every bad input must end with one line on stderr, a non-zero exit and no output files.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_workspace.hpp"
#include "npy_bytes.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/io/npy_batch.hpp"

namespace {

namespace fs = std::filesystem;
using namespace tensordiag::testing;

// 3 x 3 x 3 float64 values 1..27: a valid input.
std::vector<double> ramp_values() {
  std::vector<double> values(27);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i + 1);
  return values;
}

std::string valid_npy() {
  return npy_file(1, dict_for("<f8", "(3, 3, 3)"), raw_bytes(ramp_values()));
}

std::string npy_with(double value) {
  std::vector<double> values = ramp_values();
  values[13] = value;
  return npy_file(1, dict_for("<f8", "(3, 3, 3)"), raw_bytes(values));
}

void check_bad_input(std::string_view bytes, std::string_view phrase) {
  const Workspace workspace;
  write_file(workspace / "in.npy", bytes);
  check_rejected(workspace, "diagonalize in.npy --out result", phrase);
}

// The text between "'shape': (" and ")" in a .npy header, spaces removed: "6,6" for (6, 6).
std::string npy_shape(const fs::path& file) {
  const std::string bytes = read_file(file);
  const std::size_t start = bytes.find("'shape': (");
  REQUIRE(start != std::string::npos);
  const std::size_t end = bytes.find(')', start);
  std::string shape = bytes.substr(start + 10, end - start - 10);
  std::erase(shape, ' ');
  return shape;
}

nlohmann::json read_report(const fs::path& file) { return nlohmann::json::parse(read_file(file)); }

}  // namespace

TEST_CASE("cli: a missing input file is rejected") {
  const Workspace workspace;
  check_rejected(workspace, "diagonalize missing.npy --out result", "no such file");
}

TEST_CASE("cli: truncated files are rejected") {
  const std::string file = valid_npy();
  SUBCASE("in the header") { check_bad_input(file.substr(0, 40), "truncated header"); }
  SUBCASE("in the data") { check_bad_input(file.substr(0, file.size() - 8), "truncated data"); }
}

TEST_CASE("cli: a file that is not .npy is rejected") {
  check_bad_input("just some text, no magic string\n", "wrong magic");
}

TEST_CASE("cli: unsupported dtypes are rejected") {
  SUBCASE("int32") {
    check_bad_input(npy_file(1, dict_for("<i4", "(3, 3, 3)"), std::string(27 * 4, '\0')),
                    "unsupported dtype");
  }
  SUBCASE("big-endian float64") {
    check_bad_input(npy_file(1, dict_for(">f8", "(3, 3, 3)"), std::string(27 * 8, '\0')),
                    "unsupported dtype");
  }
}

TEST_CASE("cli: shapes other than cubical of order >= 3 are rejected") {
  const std::string data = raw_bytes(std::vector<double>(36, 1.0));
  SUBCASE("not cubical") {
    check_bad_input(npy_file(1, dict_for("<f8", "(3, 3, 4)"), data), "not cubical");
  }
  SUBCASE("order 0") { check_bad_input(npy_file(1, dict_for("<f8", "()"), data), "scalar"); }
  SUBCASE("order 1") { check_bad_input(npy_file(1, dict_for("<f8", "(6,)"), data), "vector"); }
  SUBCASE("order 2 points to the SVD") {
    check_bad_input(npy_file(1, dict_for("<f8", "(6, 6)"), data), "SVD");
  }
}

TEST_CASE("cli: NaN and Inf are rejected") {
  SUBCASE("NaN") {
    check_bad_input(npy_with(std::numeric_limits<double>::quiet_NaN()), "NaN or Inf");
  }
  SUBCASE("Inf") {
    check_bad_input(npy_with(-std::numeric_limits<double>::infinity()), "NaN or Inf");
  }
}

TEST_CASE("cli: an unusable output directory fails before the computation") {
  const Workspace workspace;
  write_file(workspace / "in.npy", valid_npy());
  write_file(workspace / "a_file", "");
  check_rejected(workspace, "diagonalize in.npy --out a_file/result",
                 "cannot create output directory");
  check_rejected(workspace, "diagonalize in.npy --out a_file", "is not a directory");
  check_rejected(workspace, "generate --order 3 --size 4 --seed 1 a_file/t.npy",
                 "is not a directory");
  // Permissions bind everyone but root, who writes anywhere.
  if (::geteuid() != 0) {
    fs::create_directory(workspace / "read_only");
    fs::permissions(workspace / "read_only", fs::perms::owner_read | fs::perms::owner_exec);
    check_rejected(workspace, "diagonalize in.npy --out read_only/result",
                   "cannot create output directory");
    check_rejected(workspace, "diagonalize in.npy --out read_only",
                   "cannot write to output directory");
    fs::permissions(workspace / "read_only", fs::perms::owner_all);
  }
}

TEST_CASE("cli: a run that fails after creating its output directory removes it") {
  const Workspace workspace;
  // Finite in float64, beyond float32's range: the conversion refuses it after the output
  // directory was made.
  write_file(workspace / "in.npy", npy_with(1e300));
  check_rejected(workspace, "diagonalize in.npy --out new/nested --dtype float32", "overflows float32");

  SUBCASE("and leaves a directory it did not create as it was") {
    fs::create_directory(workspace / "existing");
    write_file(workspace / "existing" / "keep.txt", "mine");
    check_rejected(workspace, "diagonalize in.npy --out existing --dtype float32", "overflows float32");
    CHECK(read_file(workspace / "existing" / "keep.txt") == "mine");
  }
}

TEST_CASE("cli: a rename that fails at the end takes back the files already renamed") {
  const Workspace workspace;
  write_file(workspace / "in.npy", valid_npy());
  // report.json is renamed last; a non-empty directory of that name makes its rename fail after
  // core.npy and the factors are in place.
  fs::create_directories(workspace / "result" / "report.json");
  write_file(workspace / "result" / "report.json" / "keep.txt", "mine");
  check_rejected(workspace, "diagonalize in.npy --out result --backend cpu", "report.json");
}

TEST_CASE("cli: bad option values are one line each") {
  const Workspace workspace;
  write_file(workspace / "in.npy", valid_npy());
  const std::string diagonalize = "diagonalize in.npy --out result ";
  check_rejected(workspace, diagonalize + "--tol -1", "--tol: must be >=0, got -1");
  check_rejected(workspace, diagonalize + "--tol abc", "--tol: 'abc' is not a number");
  check_rejected(workspace, diagonalize + "--stall-tol -1", "--stall-tol: must be >=0");
  check_rejected(workspace, diagonalize + "--max-sweeps 0", "--max-sweeps: must be >=1");
  check_rejected(workspace, diagonalize + "--eta -0.5", "--eta: must be >=0");
  check_rejected(workspace, diagonalize + "--threads -1", "--threads: must be >=0");
  check_rejected(workspace, diagonalize + "--rule fastest", "--rule");
  check_rejected(workspace, diagonalize + "--backend gpu", "--backend");
  check_rejected(workspace, diagonalize + "--pivot-norm fastest", "--pivot-norm");
  check_rejected(workspace, diagonalize + "--dtype float16", "--dtype");
  check_rejected(workspace, diagonalize + "--no-such-option", "--no-such-option");
  check_rejected(workspace, "diagonalize in.npy", "--out is required");
  check_rejected(workspace, "", "subcommand");
  const std::string generate = "generate --order 3 --size 4 --seed 1 t.npy ";
  check_rejected(workspace, "generate --order 2 --size 4 --seed 1 t.npy", "SVD");
  check_rejected(workspace, "generate --order 1 --size 4 --seed 1 t.npy", "--order: must be >=2, got 1");
  check_rejected(workspace, "generate --order 3 --size 1 --seed 1 t.npy", "--size: must be >=2");
  check_rejected(workspace, "generate --order 3 --size 4 --seed -1 t.npy", "--seed: must be >=0");
  check_rejected(workspace, "generate --order 3 --size 4 t.npy", "--seed is required");
  check_rejected(workspace, generate + "--noise -0.1", "--noise: must be >=0");
  check_rejected(workspace, generate + "--layout X", "--layout");
  check_rejected(workspace, "generate --order 3 --size 4 --seed 1 .", "is a directory");
}

TEST_CASE("cli: generate then diagonalize writes the core, N x N factors and a full report") {
  const Workspace workspace;
  const CliRun generated = workspace.run("generate --order 3 --size 6 --seed 3 t.npy");
  CHECK(generated.exit_code == 0);
  CHECK(generated.err.empty());
  CHECK(npy_shape(workspace / "t.npy") == "6,6,6");

  const CliRun run = workspace.run("diagonalize t.npy --out result --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.empty());  // no progress: stderr is not a terminal
  CHECK(run.out.find("converged after") != std::string::npos);
  CHECK(workspace.files() == std::set<std::string>{"t.npy", "result", "result/core.npy",
                                                   "result/factor_1.npy", "result/factor_2.npy",
                                                   "result/factor_3.npy", "result/report.json"});
  CHECK(npy_shape(workspace / "result/core.npy") == "6,6,6");
  for (int n = 1; n <= 3; ++n)
    CHECK(npy_shape(workspace / ("result/factor_" + std::to_string(n) + ".npy")) == "6,6");

  const nlohmann::json report = read_report(workspace / "result/report.json");
  for (const char* key :
       {"tensordiag_version", "input", "input_dtype", "order", "size", "dtype", "layout", "backend", "engine",
        "schedule", "passes_per_sweep", "kernels", "device", "rule", "eta", "tol", "stall_tol", "max_sweeps", "sweeps", "stop_reason",
        "converged", "history", "reconstruction_error", "orthogonality_error", "timings"})
    CHECK_MESSAGE(report.contains(key), key);
  CHECK(report["input"] == "t.npy");
  CHECK(report["order"] == 3);
  CHECK(report["size"] == 6);
  CHECK(report["dtype"] == "float64");
  CHECK(report["layout"] == "C");
  CHECK(report["backend"] == "cpu");
  CHECK(report["engine"] == "cpu");
  CHECK(report["schedule"] == "round-robin");  // the CPU's default
  CHECK(report["passes_per_sweep"] == 5);       // N = 6: five groups
  CHECK(report["kernels"] == nlohmann::json::array());
  CHECK(report["rule"] == "max_diag");
  CHECK(report["eta"] == 0.0);
  CHECK(report["tol"] == 1e-12);
  CHECK(report["stall_tol"] == 1e-13);
  CHECK(report["max_sweeps"] == 100);
  CHECK(report["converged"] == true);
  CHECK(report["stop_reason"] == "tolerance");

  const nlohmann::json& history = report["history"];
  REQUIRE(history.size() >= 2);
  CHECK(report["sweeps"] == history.size() - 1);
  CHECK(history[0]["sweep"] == 0);
  CHECK(history[0]["off_rel"] == 1.0);
  for (std::size_t k = 1; k < history.size(); ++k) {
    CHECK(history[k]["sweep"] == k);
    // The max_diag rule never lowers ||diag C||^2 (DESIGN.md section 2).
    CHECK(history[k]["diag_norm2"].get<double>() >= history[k - 1]["diag_norm2"].get<double>());
  }
  CHECK(history.back()["off_rel"].get<double>() <= 1e-12);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);
  CHECK(report["orthogonality_error"].get<double>() < 1e-13);
  for (const char* key :
       {"setup_seconds", "sweeps_seconds", "total_seconds", "verification_seconds"})
    CHECK_MESSAGE(report["timings"][key].get<double>() >= 0.0, key);
}

TEST_CASE("cli: options reach the run and the report") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 5 --seed 9 --dtype float32 --layout F "
                        "--noise 0.01 t.npy")
              .exit_code == 0);
  const CliRun run = workspace.run(
      "diagonalize t.npy --out result --dtype float64 --rule max_trace --eta 0.1 --max-sweeps 3 "
      "--tol 1e-9 --stall-tol 0 --threads 1 --backend cpu --quiet");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.empty());  // --quiet
  const nlohmann::json report = read_report(workspace / "result/report.json");
  CHECK(report["input_dtype"] == "float32");
  CHECK(report["dtype"] == "float64");
  CHECK(report["layout"] == "F");
  CHECK(report["rule"] == "max_trace");
  CHECK(report["eta"] == 0.1);
  CHECK(report["tol"] == 1e-9);
  CHECK(report["stall_tol"] == 0.0);
  CHECK(report["max_sweeps"] == 3);
  CHECK(report["sweeps"].get<int>() <= 3);
  CHECK(report["order"] == 4);
  CHECK(npy_shape(workspace / "result/factor_4.npy") == "5,5");
}

TEST_CASE("cli: a stall is reported against the rule's own objective") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 4 --noise 0.5 t.npy").exit_code == 0);
  for (const auto& [rule, objective] : {std::pair{"max_diag", "||diag C||^2"}, std::pair{"max_trace", "the trace"}}) {
    const CliRun run = workspace.run(std::string("diagonalize t.npy --out result --rule ") + rule);
    INFO(rule, "\n", run.out, run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.starts_with("stalled after "));
    CHECK(run.out.find(std::string("(a sweep raised ") + objective + " by less than stall_tol 1e-13, relative, and did not halve off_rel)") !=
          std::string::npos);
  }
}

TEST_CASE("cli: generate is deterministic and a second diagonalize replaces the first") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 a.npy").exit_code == 0);
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 5 b.npy").exit_code == 0);
  CHECK(read_file(workspace / "a.npy") == read_file(workspace / "b.npy"));
  REQUIRE(workspace.run("generate --order 3 --size 4 --seed 6 b.npy").exit_code == 0);
  CHECK(read_file(workspace / "a.npy") != read_file(workspace / "b.npy"));

  REQUIRE(workspace.run("diagonalize a.npy --out result").exit_code == 0);
  REQUIRE(workspace.run("diagonalize b.npy --out result").exit_code == 0);
  CHECK(read_report(workspace / "result/report.json")["input"] == "b.npy");
  CHECK(workspace.files().size() == 8);  // a.npy, b.npy, result/ and its 5 files: no temporaries
}

TEST_CASE("cli: progress lines go to a terminal stderr only, and --quiet silences them") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 3 t.npy").exit_code == 0);
  // script(1) (util-linux, on every Debian) runs the command on a pseudo-terminal.
  const auto on_terminal = [&](const std::string& arguments) {
    const std::string command = "cd '" + workspace.work().string() + "' && script -qec \"'" +
                                TENSORDIAG_CLI_PATH + "' " + arguments + "\" /dev/null > '" +
                                (workspace / "terminal.txt").string() + "' 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    const std::string text = read_file(workspace / "terminal.txt");
    fs::remove(workspace / "terminal.txt");
    return text;
  };
  CHECK(on_terminal("diagonalize t.npy --out result --backend cpu").find("tensordiag: sweep 1/100") !=
        std::string::npos);
  CHECK(on_terminal("diagonalize t.npy --out result --backend cpu --quiet").empty());
}

TEST_CASE("cli: --backend auto takes the GPU when there is one, else the CPU with a note on stderr") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 3 --size 5 --seed 4 t.npy").exit_code == 0);
  const CliRun run = workspace.run("diagonalize t.npy --out result --quiet");
  REQUIRE(run.exit_code == 0);
  const nlohmann::json report = read_report(workspace / "result/report.json");
  if (tensordiag::runtime::cuda_device()) {
    CHECK(report["backend"] == "cuda");
    CHECK(run.err.empty());
  } else {
    CHECK(report["backend"] == "cpu");
    CHECK(run.err.find("tensordiag: note: no GPU (") == 0);
    CHECK(run.err.find("running on the CPU") != std::string::npos);
  }
}

TEST_CASE("cli: --backend cuda without a GPU is one clear error and writes nothing") {
  if (tensordiag::runtime::cuda_device()) return;  // the GPU suite covers the cuda backend there
  const Workspace workspace;
  write_file(workspace / "in.npy", valid_npy());
  check_rejected(workspace, "diagonalize in.npy --out result --backend cuda", "the CUDA backend needs a GPU");
}

TEST_CASE("cli: demo runs without arguments and prints a summary") {
  const Workspace workspace;
  const CliRun run = workspace.run("demo");
  INFO("stderr: " << run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  for (const char* phrase : {"sweep", "converged after", "recovered", "true",
                             "reconstruction error", "orthogonality error"})
    CHECK_MESSAGE(run.out.find(phrase) != std::string::npos, phrase);
  CHECK(workspace.files().empty());
}

TEST_CASE("cli: --version and --help") {
  const Workspace workspace;
  const CliRun version = workspace.run("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.out.starts_with("tensordiag "));
  const CliRun help = workspace.run("diagonalize --help");
  CHECK(help.exit_code == 0);
  for (const char* option : {"--out", "--max-sweeps", "--tol", "--stall-tol", "--eta", "--rule",
                             "--backend", "--dtype", "--threads", "--no-verify", "--quiet"})
    CHECK_MESSAGE(help.out.find(option) != std::string::npos, option);
}

TEST_CASE("cli: --batch diagonalizes every tensor of a (B, N, .., N) file and stacks the outputs") {
  const Workspace workspace;
  std::vector<tensordiag::runtime::HostTensor<double>> tensors;
  for (unsigned b = 0; b < 4; ++b) {
    tensordiag::runtime::GeneratorOptions g;
    g.order = 3;
    g.size = 5;
    g.seed = 40 + b;
    tensors.push_back(tensordiag::runtime::generate_diagonalizable<double>(g).tensor);
  }
  tensordiag::runtime::write_tensor_batch(workspace / "batch.npy", tensors);
  const CliRun run = workspace.run("diagonalize batch.npy --out result --batch --backend cpu");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("batch of 4 tensors") != std::string::npos);
  CHECK(npy_shape(workspace / "result/core.npy") == "4,5,5,5");
  for (int n = 1; n <= 3; ++n) CHECK(npy_shape(workspace / ("result/factor_" + std::to_string(n) + ".npy")) == "4,5,5");
  const nlohmann::json report = read_report(workspace / "result/report.json");
  REQUIRE(report["batch"] == 4);
  REQUIRE(report["tensors"].size() == 4);
  const auto cores = std::get<std::vector<tensordiag::runtime::HostTensor<double>>>(
      tensordiag::runtime::read_tensor_batch(workspace / "result/core.npy"));
  tensordiag::runtime::Options options;
  options.backend = tensordiag::runtime::Backend::cpu;
  for (std::size_t b = 0; b < 4; ++b) {
    CHECK(report["tensors"][b]["converged"] == true);
    CHECK(report["tensors"][b]["reconstruction_error"].get<double>() < 1e-13);
    CHECK(cores[b].values() == tensordiag::runtime::diagonalize(tensors[b], options).core.values());
  }
}

// The report's keys in the order written.
std::vector<std::string> keys_of(const fs::path& file) {
  const auto report = nlohmann::ordered_json::parse(read_file(file));
  std::vector<std::string> keys;
  for (const auto& [key, value] : report.items()) keys.push_back(key);
  return keys;
}

TEST_CASE("cli: --no-verify writes a report that says the verification was skipped, with no error figures") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 4 --size 5 --seed 3 t.npy").exit_code == 0);
  REQUIRE(workspace.run("diagonalize t.npy --out verified --backend cpu").exit_code == 0);
  const CliRun run = workspace.run("diagonalize t.npy --out skipped --backend cpu --no-verify");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("; verification skipped\n") != std::string::npos);
  CHECK(run.out.find("error") == std::string::npos);

  const std::vector<std::string> head{"tensordiag_version", "input", "input_dtype", "order", "size", "dtype",
                                      "layout", "structure", "backend", "engine", "schedule", "passes_per_sweep",
                                      "kernels", "device", "rule", "eta", "tol", "stall_tol",
                                      "max_sweeps", "sweeps", "stop_reason", "converged", "history"};
  auto verified = head, skipped = head;
  verified.insert(verified.end(), {"reconstruction_error", "orthogonality_error", "timings"});
  skipped.insert(skipped.end(), {"verification", "timings"});
  CHECK(keys_of(workspace / "verified/report.json") == verified);
  CHECK(keys_of(workspace / "skipped/report.json") == skipped);
  const nlohmann::json report = read_report(workspace / "skipped/report.json");
  CHECK(report["verification"] == "skipped");
  CHECK_FALSE(report["timings"].contains("verification_seconds"));
  CHECK(read_report(workspace / "verified/report.json")["timings"].contains("verification_seconds"));
  CHECK(read_file(workspace / "skipped/core.npy") == read_file(workspace / "verified/core.npy"));

  std::vector<tensordiag::runtime::HostTensor<double>> tensors;
  for (unsigned b = 0; b < 2; ++b) {
    tensordiag::runtime::GeneratorOptions g;
    g.seed = 50 + b;
    tensors.push_back(tensordiag::runtime::generate_diagonalizable<double>(g).tensor);
  }
  tensordiag::runtime::write_tensor_batch(workspace / "batch.npy", tensors);
  const CliRun batch = workspace.run("diagonalize batch.npy --out batch --batch --backend cpu --no-verify");
  REQUIRE(batch.exit_code == 0);
  CHECK(batch.out.find("2 converged; verification skipped\n") != std::string::npos);
  const nlohmann::json reports = read_report(workspace / "batch/report.json");
  for (const auto& each : reports["tensors"]) {
    CHECK(each["verification"] == "skipped");
    CHECK_FALSE(each.contains("reconstruction_error"));
    CHECK_FALSE(each.contains("orthogonality_error"));
  }
}

TEST_CASE("cli: a bad batch is one line and writes nothing") {
  const Workspace workspace;
  write_file(workspace / "in.npy", valid_npy());  // a single 3 x 3 x 3 tensor is a batch of 3 matrices
  check_rejected(workspace, "diagonalize in.npy --out result --batch", "SVD");
}

TEST_CASE("cli: --schedule xor runs the XOR subspace passes and says so, N not a power of two is refused") {
  const Workspace workspace;
  REQUIRE(workspace.run("generate --order 5 --size 8 --seed 12 t.npy").exit_code == 0);
  const CliRun run = workspace.run("diagonalize t.npy --out result --backend cpu --schedule xor");
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json report = read_report(workspace / "result/report.json");
  CHECK(report["schedule"] == "xor");
  CHECK(report["passes_per_sweep"] == 3);  // N = 8, D = 5 (cells of 4^5): {1, 2, 3}, {4, 5}, {6, 7}
  CHECK(report["converged"] == true);
  CHECK(report["reconstruction_error"].get<double>() < 1e-13);

  REQUIRE(workspace.run("generate --order 3 --size 6 --seed 2 six.npy").exit_code == 0);
  check_rejected(workspace, "diagonalize six.npy --out r6 --backend cpu --schedule xor",
                 "the xor schedule takes N a power of two (N = 6)");
  check_rejected(workspace, "diagonalize six.npy --out r6 --schedule spiral", "--schedule");
}
