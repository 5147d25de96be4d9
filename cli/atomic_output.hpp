#pragma once
// The files of one run appear together or not at all (DESIGN.md section 5: a failed run leaves no
// partial output). Each file is written under a hidden temporary name in its final directory, where
// a rename cannot cross file systems, and renamed once the whole run has succeeded. A run that ends
// any other way removes its temporaries, and the directories it created.
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tensordiag::cli {

class AtomicOutput {
public:
  // Creates `directory` (and missing parents) and checks that a file can be created in it, so that
  // an unusable destination fails before a long computation. Throws user_error.
  explicit AtomicOutput(std::filesystem::path directory);
  // Without commit(): removes the temporaries and the directories this run created.
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  // The path to write `name` to now, directory/.name.tmp-<pid>; commit() renames it to
  // directory/name.
  std::filesystem::path stage(const std::string& name);
  // Stages `name` with the bytes `text`. Throws user_error when they cannot be written.
  void stage_text(const std::string& name, std::string_view text);
  // Renames every staged file to its final name (replacing an older file of that name). First
  // throws run_cancelled when SIGINT/SIGTERM was caught (interrupt_signals.hpp): a signal that
  // arrives before the renames leaves nothing, one that arrives after them leaves the whole output.
  void commit();
  // Removes the temporaries and the directories this run created now, for a process about to end
  // without unwinding (lost_rank_watchdog.hpp); the object is then done.
  void discard_now() noexcept;

private:
  void discard() noexcept;

  std::filesystem::path directory_;
  std::vector<std::filesystem::path> created_;  // directories this run made, innermost first
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> staged_;  // temporary, final
  std::vector<std::filesystem::path> committed_;  // final names already renamed into place
  bool done_ = false;
};

}  // namespace tensordiag::cli
