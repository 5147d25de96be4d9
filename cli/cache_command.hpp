#pragma once
// `tensordiag cache info|clear|prune`: the on-disk kernel cache that the environment selects
// (KernelCacheSettings::from_environment): what it holds against its cap, emptying it, and
// evicting the least recently used entries down to the cap. Safe while other processes use it.
#include <string>

#include <CLI/CLI.hpp>

namespace tensordiag::cli {

struct CacheArguments {
  std::string action = "info";  // info, clear or prune
};

CLI::App* add_cache_command(CLI::App& app, CacheArguments& arguments);
int run_cache(const CacheArguments& arguments);

}  // namespace tensordiag::cli
