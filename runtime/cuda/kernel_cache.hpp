#pragma once
// Compiled kernels, cached in memory and on disk as jitify2 does it (STYLE.md).
//
// Key: SHA-256 over the cache-format version, the NVRTC version, the target architecture, the
// complete NVRTC options, the program name and the source, each prefixed by its length so that no
// two different inputs hash the same bytes. The name is in the key because -lineinfo embeds it.
//
// Disk: one file per kernel, "<directory>/<name>-<key>.cubin": a header {magic, format version,
// sizes, key, SHA-256 of the payload}, then the cubin and the NVRTC log. It is written to a
// temporary file in the same directory and renamed, so concurrent processes see a whole entry or
// none; an entry failing any check is a miss and is rebuilt. A miss takes the entry's advisory
// lock (FileLock on "<name>-<key>.lock") and looks again before compiling, so processes (and
// threads) starting cold at once compile each kernel once: the others wait and read the entry.
// Every disk hit marks the entry used; after writing an entry the cache evicts the least recently
// used ones beyond settings.max_bytes (kernel_cache_directory.hpp).
//
// Memory: in front of the disk, a thread-safe map from key to kernel for the life of the cache.
// Without the disk layer two threads asking at once for the same missing kernel may both compile it.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/cuda/cubin_resources.hpp"
#include "runtime/cuda/sha256.hpp"

namespace tensordiag::runtime {

// 1 GiB: tens of thousands of the programs the GPU engine generates (5 to 55 KB each in
// bench/results/kernel_compile_2026-11-21.md), and little on any disk that holds a CUDA toolkit.
constexpr std::uintmax_t default_kernel_cache_max_bytes = std::uintmax_t{1} << 30;

struct KernelCacheSettings {
  bool use_disk = true;
  std::uintmax_t max_bytes = default_kernel_cache_max_bytes;  // the disk cap, evicting LRU first
  std::filesystem::path directory;    // with use_disk and empty: no location known (one warning)
  bool save_source = false;           // also write "<name>-<key>.cu" next to each cubin
  bool dump_source_on_error = false;  // a CompileError carries the numbered source
  bool line_info = false;             // kernels compiled with -lineinfo (a profiler maps SASS to source lines)

  // TENSORDIAG_CACHE_DIR, else $XDG_CACHE_HOME/tensordiag (if absolute, per the XDG spec), else
  // $HOME/.cache/tensordiag. TENSORDIAG_DISABLE_KERNEL_CACHE turns the disk layer off;
  // TENSORDIAG_SAVE_SOURCE, TENSORDIAG_DUMP_SOURCE_ON_ERROR and TENSORDIAG_KERNEL_LINEINFO set the
  // flags above;
  // TENSORDIAG_CACHE_MAX_BYTES the cap (bytes, or with a K, M or G suffix for KiB, MiB, GiB; a
  // user_error when it is anything else, 0 or negative). A flag variable is set when it holds
  // anything but "" or "0". README.md (Environment variables) lists them all.
  static KernelCacheSettings from_environment();
};

enum class KernelOrigin { compiled, memory_cache, disk_cache };
std::string_view to_string(KernelOrigin origin);

struct CompiledKernel {
  std::vector<char> cubin;
  std::string arch;
  std::vector<KernelResources> kernels;
  std::string log;  // NVRTC's warnings from when it was compiled
  KernelOrigin origin = KernelOrigin::compiled;
  double seconds = 0;                 // this request: NVRTC's compile, or the cache lookup
  std::filesystem::path cache_path;   // its disk entry; empty when the disk layer is off
  Sha256Digest key{};                 // kernel_cache_key of the request: names the cubin in the process
};

// The cache key, over the complete NVRTC options (see nvrtc_options).
Sha256Digest kernel_cache_key(std::string_view source, std::string_view name,
                              const std::vector<std::string>& complete_options,
                              std::string_view arch);

class KernelCache {
public:
  explicit KernelCache(KernelCacheSettings settings);

  // `options` are the extra NVRTC options, as for compile_cubin, which also says what is thrown.
  CompiledKernel get_or_compile(const std::string& source, const std::string& name,
                                const std::vector<std::string>& options, const std::string& arch);

  // The directory in use; empty when the disk layer is off or turned out unusable.
  std::filesystem::path directory() const;

  // NVRTC compilations run by this cache: the hook for tests asserting that a request was a hit.
  std::size_t compilations() const { return compilations_.load(); }

  // For the caller to show; the library never prints. At most one: the disk layer turned out
  // unusable (the directory cannot be created or written) and the cache went on in memory only.
  std::vector<std::string> warnings() const;

private:
  struct Entry;
  enum class DiskState { unchecked, usable, off };

  std::filesystem::path usable_directory();
  void turn_disk_off(const std::string& reason);
  void turn_disk_off_locked(const std::string& reason);  // @pre mutex_ is held
  std::shared_ptr<const Entry> load_entry(const std::filesystem::path& path,
                                          const Sha256Digest& key) const;
  bool store_entry(const std::filesystem::path& path, const Sha256Digest& key, const Entry& entry);
  void save_source(const std::filesystem::path& path, std::string_view source);

  const KernelCacheSettings settings_;
  mutable std::mutex mutex_;  // guards everything below except compilations_
  std::unordered_map<std::string, std::shared_ptr<const Entry>> memory_;
  DiskState disk_state_ = DiskState::unchecked;
  std::vector<std::string> warnings_;
  std::atomic<std::size_t> compilations_ = 0;
};

// The process-wide cache, made from KernelCacheSettings::from_environment() on first use.
KernelCache& default_kernel_cache();

}  // namespace tensordiag::runtime
