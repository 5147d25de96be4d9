#pragma once
// The tensordiag command seen from outside, for the end-to-end tests: run it in a scratch directory
// and look at its exit status, stdout, stderr and what it left on disk.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "scratch_dir.hpp"

namespace tensordiag::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A scratch directory whose subdirectory work/ is the command's working directory; the captured
// stdout and stderr live beside work/, so work/ holds exactly what the command left behind.
class Workspace {
public:
  Workspace() { std::filesystem::create_directory(work()); }

  std::filesystem::path work() const { return scratch_ / "work"; }
  std::filesystem::path operator/(std::string_view name) const { return work() / name; }

  // Runs `tensordiag <arguments>` in work/ through the shell, stdin closed.
  CliRun run(const std::string& arguments) const {
    const std::filesystem::path out = scratch_ / "stdout.txt";
    const std::filesystem::path err = scratch_ / "stderr.txt";
    const std::string command = "cd '" + work().string() + "' && '" TENSORDIAG_CLI_PATH "' " +
                                arguments + " < /dev/null > '" + out.string() + "' 2> '" +
                                err.string() + "'";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
  }

  // Every path under work/, hidden temporaries and directories included.
  std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(work()))
      names.insert(std::filesystem::relative(entry.path(), work()).string());
    return names;
  }

private:
  ScratchDir scratch_{"cli"};
};

// A rejected command: non-zero exit, exactly one line on stderr that starts with
// "tensordiag: error: " and contains `phrase`, nothing on stdout, and work/ unchanged.
inline void check_rejected(const Workspace& workspace, const std::string& arguments,
                           std::string_view phrase) {
  const std::set<std::string> before = workspace.files();
  const CliRun run = workspace.run(arguments);
  INFO("tensordiag " << arguments << "\nstderr: " << run.err);
  CHECK(run.exit_code != 0);
  CHECK(run.err.starts_with("tensordiag: error: "));
  CHECK(run.err.ends_with("\n"));
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.err.find(phrase) != std::string::npos);
  CHECK(run.out.empty());
  CHECK(workspace.files() == before);
}

}  // namespace tensordiag::testing
