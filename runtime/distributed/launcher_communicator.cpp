#include "runtime/distributed/launcher_communicator.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

std::filesystem::path plugin_path() {
  if (const char* path = std::getenv("TENSORDIAG_MPI_PLUGIN"); path && *path) return path;
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  return (error ? std::filesystem::path(".") : executable.parent_path()) / "libtensordiag_mpi.so";
}

}  // namespace

bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(name)) return true;
  return false;
}

std::unique_ptr<Communicator> launcher_communicator() {
  if (!started_by_mpi_launcher()) return one_rank_communicator();
  const std::filesystem::path path = plugin_path();
  // RTLD_GLOBAL: Open MPI's own components, opened by libmpi, resolve libmpi's symbols globally.
  // Never closed: the communicator's code lives in it until the process ends.
  void* plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!plugin)
    throw user_error("started by an MPI launcher, but the MPI plugin " + path.string() + " cannot be opened (" +
                     dlerror() + "): build tensordiag with Open MPI (libopenmpi-dev), or set TENSORDIAG_MPI_PLUGIN");
  using Entry = Communicator* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(plugin, "tensordiag_mpi_world_communicator"));
  if (!entry) throw user_error(path.string() + " is not tensordiag's MPI plugin (no tensordiag_mpi_world_communicator)");
  return std::unique_ptr<Communicator>(entry());
}

}  // namespace tensordiag::runtime
