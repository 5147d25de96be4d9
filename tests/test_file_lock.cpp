// FileLock: exclusive between open files (so between threads of one process as between
// processes), and a holder always holds the file its path names, even after a removal.
#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <thread>

#include "runtime/io/file_lock.hpp"
#include "temporary_directory.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;
namespace fs = std::filesystem;

TEST_CASE("file lock: one holder at a time, released when it goes") {
  const TemporaryDirectory dir;
  const fs::path path = dir.path() / "entry.lock";
  {
    const std::optional<FileLock> held = FileLock::acquire(path);
    REQUIRE(held);
    CHECK(fs::exists(path));
    CHECK(!FileLock::try_acquire(path));
  }
  std::optional<FileLock> again = FileLock::try_acquire(path);
  REQUIRE(again);
  again->remove_and_release();
  CHECK(!fs::exists(path));
  CHECK(!FileLock::acquire(dir.path() / "no_such_directory" / "entry.lock"));
}

TEST_CASE("file lock: a waiter whose lock file is removed locks the file the path names now") {
  const TemporaryDirectory dir;
  const fs::path path = dir.path() / "entry.lock";
  std::optional<FileLock> first = FileLock::acquire(path);
  REQUIRE(first);
  std::promise<void> waiter_holds;
  std::promise<void> checked;
  std::thread waiter([&] {
    const std::optional<FileLock> lock = FileLock::acquire(path);
    waiter_holds.set_value();
    checked.get_future().wait();
  });
  // Not a timing assertion: the pause only makes it likely that the waiter has opened the old
  // file and waits on it, the case the check after flock is for.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  first->remove_and_release();
  waiter_holds.get_future().wait();
  CHECK(fs::exists(path));
  CHECK(!FileLock::try_acquire(path));
  checked.set_value();
  waiter.join();
  CHECK(FileLock::try_acquire(path));
}
