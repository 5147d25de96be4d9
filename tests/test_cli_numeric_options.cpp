// Every numeric option of the command against the values that break programs: 0, negative, NaN,
// inf, huge. Each bad one is one line naming the option, what is allowed and what was given, a
// non-zero exit and no file written (check_rejected); the edge values that are allowed run.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_workspace.hpp"
#include "runtime/io/npy.hpp"
#include "random_tensor.hpp"

namespace {

using namespace tensordiag;
using namespace tensordiag::testing;

struct BadValue {
  std::string value;
  std::string message;  // after "--option: "
};

// A real number >= 0 (--tol, --stall-tol, --eta, --noise).
std::vector<BadValue> bad_non_negative_reals() {
  return {{"-1", "must be >=0, got -1"},
          {"-1e-300", "must be >=0, got -1e-300"},
          {"nan", "must be a finite number, got nan"},
          {"inf", "must be a finite number, got inf"},
          {"-inf", "must be a finite number, got -inf"},
          {"1e400", "must be a finite number, got 1e400"},
          {"abc", "'abc' is not a number"},
          {"1.5x", "'1.5x' is not a number"}};
}

// A whole number in [low, high] (--max-sweeps, --threads, --order, --size).
std::vector<BadValue> bad_counts(int low, const std::string& high = "2147483647") {
  const std::string at_least = "must be >=" + std::to_string(low) + ", got ";
  const std::string at_most = "must be <=" + high + ", got ";
  return {{std::to_string(low - 1), at_least + std::to_string(low - 1)},
          {"-7", at_least + "-7"},
          {"2.5", "must be a whole number, got 2.5"},
          {"1e3", "must be a whole number, got 1e3"},
          {"nan", "must be a whole number, got nan"},
          {"inf", "must be a whole number, got inf"},
          {"2147483648", at_most + "2147483648"},
          {"99999999999999999999999", at_most + "99999999999999999999999"},
          {"-99999999999999999999999", at_least + "-99999999999999999999999"},
          {"ten", "'ten' is not a number"}};
}

void check_all_rejected(const Workspace& workspace, const std::string& command, const std::string& option,
                        const std::vector<BadValue>& values) {
  for (const BadValue& bad : values)
    check_rejected(workspace, command + " " + option + " " + bad.value, option + ": " + bad.message);
}

}  // namespace

TEST_CASE("cli numeric options: every bad value of diagonalize's is one line and writes nothing") {
  const Workspace workspace;
  runtime::write_tensor(workspace / "in.npy", random_tensor<double>(3, 4, 8));
  const std::string diagonalize = "diagonalize in.npy --out result --backend cpu";
  for (const std::string option : {"--tol", "--stall-tol", "--eta"})
    check_all_rejected(workspace, diagonalize, option, bad_non_negative_reals());
  check_all_rejected(workspace, diagonalize, "--max-sweeps", bad_counts(1));
  std::vector<BadValue> threads = bad_counts(0, "1024");
  threads.push_back({"1025", "must be <=1024, got 1025"});
  check_all_rejected(workspace, diagonalize, "--threads", threads);
}

TEST_CASE("cli numeric options: every bad value of generate's and kernels' is one line and writes nothing") {
  const Workspace workspace;
  // Both commands take order 2 (a symmetric or skew matrix), so their least order is 2; generate
  // refuses a plain order-2 tensor with its own message.
  const std::vector<BadValue> orders = bad_counts(2);
  check_all_rejected(workspace, "generate --size 4 --seed 1 t.npy", "--order", orders);
  check_rejected(workspace, "generate --size 4 --seed 1 --order 2 t.npy", "--order: order 2 is a matrix: use an SVD");
  check_all_rejected(workspace, "generate --order 3 --seed 1 t.npy", "--size", bad_counts(2));
  check_all_rejected(workspace, "generate --order 3 --size 4 --seed 1 t.npy", "--noise", bad_non_negative_reals());
  check_all_rejected(workspace, "generate --order 3 --size 4 t.npy", "--seed",
                     {{"-1", "must be >=0, got -1"},
                      {"1.5", "must be a whole number, got 1.5"},
                      {"nan", "must be a whole number, got nan"},
                      {"18446744073709551616", "must be <=18446744073709551615, got 18446744073709551616"},
                      {"seed", "'seed' is not a number"}});
  check_all_rejected(workspace, "kernels --size 4", "--order", orders);
  check_all_rejected(workspace, "kernels --order 3", "--size", bad_counts(2));
  // Valid options whose tensor no dtype can hold: a noise that overflows float32, a shape past
  // 64-bit addressing.
  check_rejected(workspace, "generate --order 3 --size 4 --seed 1 --noise 1e300 --dtype float32 t.npy",
                 "noise 1e+300 is too large: the tensor's values overflow float32");
  check_rejected(workspace, "generate --order 100 --size 2 --seed 1 t.npy", "too large to address");
}

TEST_CASE("cli numeric options: the edges that are allowed run: --tol 0, a huge --tol, the largest counts") {
  const Workspace workspace;
  runtime::write_tensor(workspace / "in.npy", random_tensor<double>(3, 4, 9));
  const auto report = [&workspace] { return nlohmann::json::parse(read_file(workspace / "result" / "report.json")); };

  // tol 0: no tolerance stop, so a tensor that is not diagonalizable runs until it stalls.
  CHECK(workspace.run("diagonalize in.npy --out result --backend cpu --tol 0 --max-sweeps 2147483647").exit_code == 0);
  CHECK(report()["tol"] == 0.0);
  CHECK(report()["stop_reason"] == "stalled");
  CHECK(report()["max_sweeps"] == 2147483647);

  // A huge tol stops after the first sweep.
  CHECK(workspace.run("diagonalize in.npy --out result --backend cpu --tol 1e300").exit_code == 0);
  CHECK(report()["stop_reason"] == "tolerance");
  CHECK(report()["sweeps"] == 1);

  CHECK(workspace.run("generate --order 3 --size 3 --seed 18446744073709551615 big_seed.npy").exit_code == 0);
  CHECK(workspace.run("diagonalize in.npy --out result --backend cpu --threads 1024 --eta 1e300").exit_code == 0);
  // eta beyond every |Lambda| ratio rejects every pair: nothing rotates, and the run stalls at once.
  CHECK(report()["stop_reason"] == "stalled");
  CHECK(report()["sweeps"] == 1);
}
