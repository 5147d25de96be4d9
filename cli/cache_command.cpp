#include "cli/cache_command.hpp"

#include <cstdio>
#include <filesystem>

#include "runtime/core/errors.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/kernel_cache_directory.hpp"

namespace tensordiag::cli {

namespace {

std::string entries_and_bytes(const runtime::KernelCacheUsage& usage) {
  return std::to_string(usage.entries) + (usage.entries == 1 ? " entry, " : " entries, ") +
         std::to_string(usage.bytes) + " bytes";
}

}  // namespace

CLI::App* add_cache_command(CLI::App& app, CacheArguments& arguments) {
  CLI::App* command = app.add_subcommand(
      "cache",
      "The on-disk kernel cache: info (directory, entries, bytes, cap),\n"
      "clear (remove every entry) or prune (remove the least recently\n"
      "used entries down to the cap, TENSORDIAG_CACHE_MAX_BYTES).");
  command->add_option("action", arguments.action, "info, clear or prune")
      ->check(CLI::IsMember({"info", "clear", "prune"}))
      ->capture_default_str();
  return command;
}

// The directory is the one a run would use even when TENSORDIAG_DISABLE_KERNEL_CACHE is set, so
// that a cache filled before can still be inspected and emptied; info says it is off.
int run_cache(const CacheArguments& arguments) {
  const runtime::KernelCacheSettings settings = runtime::KernelCacheSettings::from_environment();
  const std::filesystem::path& directory = settings.directory;
  if (directory.empty())
    throw user_error("no kernel cache directory: TENSORDIAG_CACHE_DIR, XDG_CACHE_HOME and HOME are unset");
  if (arguments.action == "clear") {
    const runtime::KernelCacheUsage removed = runtime::clear_kernel_cache(directory);
    std::printf("removed %s from %s\n", entries_and_bytes(removed).c_str(), directory.c_str());
  } else if (arguments.action == "prune") {
    const runtime::KernelCacheUsage removed = runtime::prune_kernel_cache(directory, settings.max_bytes);
    const runtime::KernelCacheUsage kept = runtime::kernel_cache_usage(directory);
    std::printf("removed %s; kept %s of a cap of %ju bytes\n", entries_and_bytes(removed).c_str(),
                entries_and_bytes(kept).c_str(), settings.max_bytes);
  } else {
    const runtime::KernelCacheUsage usage = runtime::kernel_cache_usage(directory);
    std::printf("directory: %s%s\n", directory.c_str(),
                settings.use_disk ? "" : " (off: TENSORDIAG_DISABLE_KERNEL_CACHE is set)");
    std::printf("entries: %ju\n", usage.entries);
    std::printf("bytes: %ju\n", usage.bytes);
    std::printf("cap: %ju bytes\n", settings.max_bytes);
  }
  return 0;
}

}  // namespace tensordiag::cli
