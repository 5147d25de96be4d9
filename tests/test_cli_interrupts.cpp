// SIGINT and SIGTERM during a long `tensordiag diagonalize`: exit 128 + the signal, one line, and
// the working directory exactly as before (no output directory, no hidden temporaries).
#include <doctest/doctest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_workspace.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_batch.hpp"

namespace {

using namespace tensordiag;
using namespace tensordiag::testing;
using Clock = std::chrono::steady_clock;

// Safety net only: a run that never shows progress fails the test instead of hanging it.
constexpr auto patience = std::chrono::seconds(120);

// A tensor no sweep changes: its one off-diagonal entry has three distinct indices, so it is
// neither b nor e of any pivot and every rotation is the identity. With --tol 0 and --stall-tol 0
// (a zero gain is not below 0) only --max-sweeps ends the run: it goes on until it is stopped.
runtime::HostTensor<double> endless_tensor() {
  runtime::HostTensor<double> tensor(6, 8, runtime::Layout::c_order);
  for (int i = 0; i < 8; ++i) tensor.at(std::vector<int>(6, i)) = i + 1.0;
  tensor.at({0, 0, 1, 1, 2, 2}) = 1.0;
  return tensor;
}

const std::string endless_run = " --out result --backend cpu --threads 1 --tol 0 --stall-tol 0 --max-sweeps 2147483647";

// tensordiag in `directory` with stdout and stderr on a pseudo-terminal: the command prints its
// per-sweep progress only to a terminal, and that progress is how the test knows it is sweeping.
class TerminalChild {
public:
  TerminalChild(const std::filesystem::path& directory, const std::vector<std::string>& arguments) {
    pid_ = ::forkpty(&terminal_, nullptr, nullptr, nullptr);
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      std::vector<char*> argv{const_cast<char*>(TENSORDIAG_CLI_PATH)};
      for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
      argv.push_back(nullptr);
      if (::chdir(directory.c_str()) == 0) ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~TerminalChild() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (terminal_ >= 0) ::close(terminal_);
  }
  TerminalChild(const TerminalChild&) = delete;
  TerminalChild& operator=(const TerminalChild&) = delete;

  // Reads the terminal until `text` has appeared; false when the child ended or patience ran out.
  bool wait_for(const std::string& text) {
    const auto deadline = Clock::now() + patience;
    while (output_.find(text) == std::string::npos) {
      if (Clock::now() > deadline || !read_some()) return false;
    }
    return true;
  }

  // Waits until `path` exists (for a command that prints no progress).
  bool wait_for_path(const std::filesystem::path& path) {
    const auto deadline = Clock::now() + patience;
    while (!std::filesystem::exists(path)) {
      if (Clock::now() > deadline) return false;
      read_some(std::chrono::milliseconds(20));
    }
    return true;
  }

  void send(int signal) const { ::kill(pid_, signal); }

  // Reads the rest of the output, then the exit code (-1 when killed by a signal or out of patience).
  int wait_exit() {
    const auto deadline = Clock::now() + patience;
    while (Clock::now() < deadline && read_some()) {
    }
    int status = 0;
    if (Clock::now() >= deadline) ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  const std::string& output() const { return output_; }

  // The last non-empty line of the output, without the terminal's "\r\n".
  std::string last_line() const {
    std::string text = output_;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    const std::size_t start = text.find_last_of('\n');
    std::string line = start == std::string::npos ? text : text.substr(start + 1);
    std::erase(line, '\r');
    return line;
  }

private:
  // false at end of output (the child closed the terminal: EIO on Linux).
  bool read_some(std::chrono::milliseconds wait = std::chrono::milliseconds(1000)) {
    pollfd descriptor{terminal_, POLLIN, 0};
    const int ready = ::poll(&descriptor, 1, static_cast<int>(wait.count()));
    if (ready <= 0) return ready == 0;
    char buffer[4096];
    const ssize_t got = ::read(terminal_, buffer, sizeof buffer);
    if (got <= 0) return false;
    output_.append(buffer, static_cast<std::size_t>(got));
    return true;
  }

  pid_t pid_ = -1;
  int terminal_ = -1;
  std::string output_;
};

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream stream(text);
  for (std::string word; stream >> word;) out.push_back(word);
  return out;
}

// The line a run stopped by `signal` ends with.
std::string stop_line(int signal) {
  return signal == SIGINT ? "tensordiag: interrupted (SIGINT): no output written"
                          : "tensordiag: terminated (SIGTERM): no output written";
}

// Sends `signals`, one after the other, to a run that has started sweeping. The process has more
// threads than one (OpenMP's, the CUDA runtime's), each of which may take a signal, so signals sent
// together may be handled in any order: returns the one the command reports, after checking that
// it is one of them, with its exit code and line, and that no file was left.
int check_stops_cleanly_on(const std::vector<int>& signals) {
  const Workspace workspace;
  runtime::write_tensor(workspace / "t.npy", endless_tensor());
  const std::set<std::string> before = workspace.files();
  TerminalChild child(workspace.work(), words("diagonalize t.npy" + endless_run));
  REQUIRE_MESSAGE(child.wait_for("tensordiag: sweep 2/"), child.output());
  for (const int signal : signals) child.send(signal);
  const int reported = child.wait_exit() - 128;
  INFO(child.output());
  CHECK(std::find(signals.begin(), signals.end(), reported) != signals.end());
  CHECK(child.last_line() == stop_line(reported));
  CHECK(workspace.files() == before);
  return reported;
}

}  // namespace

TEST_CASE("cli interrupts: SIGINT while sweeping exits 130 with one line and leaves no file") {
  CHECK(check_stops_cleanly_on({SIGINT}) + 128 == 130);
}

TEST_CASE("cli interrupts: SIGTERM while sweeping exits 143 with one line and leaves no file") {
  CHECK(check_stops_cleanly_on({SIGTERM}) + 128 == 143);
}

TEST_CASE("cli interrupts: more signals after the first, during the cleanup, still leave no file") {
  check_stops_cleanly_on({SIGINT, SIGTERM, SIGINT});
}

TEST_CASE("cli interrupts: SIGTERM during a batch run exits 143 and leaves no file") {
  const Workspace workspace;
  runtime::write_tensor_batch(workspace / "b.npy", std::vector<runtime::HostTensor<double>>(2, endless_tensor()));
  const std::set<std::string> before = workspace.files();
  TerminalChild child(workspace.work(), words("diagonalize b.npy --batch" + endless_run));
  // A batch prints no progress. The output directory appears after the handler is installed and
  // the input read, just before the run starts (AtomicOutput checks it can write there first).
  REQUIRE(child.wait_for_path(workspace / "result"));
  child.send(SIGTERM);
  CHECK(child.wait_exit() == 143);
  INFO(child.output());
  CHECK(child.last_line() == stop_line(SIGTERM));
  CHECK(workspace.files() == before);
}
