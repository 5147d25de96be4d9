#include "runtime/cuda/kernel_cache.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include "runtime/io/atomic_file.hpp"
#include "runtime/io/file_lock.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/kernel_cache_directory.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

// What the cache keeps of a compile, in memory and on disk.
struct KernelCache::Entry {
  std::vector<char> cubin;
  std::vector<KernelResources> kernels;
  std::string log;
  std::filesystem::path cache_path;
};

namespace {

// Bumped whenever the key's inputs or the entry layout change; part of both, so old entries miss.
constexpr std::uint64_t cache_format_version = 1;

// Entry layout: a header of these fields at these byte offsets, integers little-endian, then the
// cubin, then the log.
constexpr std::array<char, 8> entry_magic = {'T', 'D', 'K', 'C', 'U', 'B', 'I', 'N'};
constexpr std::size_t at_version = 8;      // u64, cache_format_version
constexpr std::size_t at_cubin_size = 16;  // u64
constexpr std::size_t at_log_size = 24;    // u64
constexpr std::size_t at_key = 32;         // 32 bytes, the entry's key
constexpr std::size_t at_checksum = 64;    // 32 bytes, payload_checksum(cubin, log)
constexpr std::size_t entry_header_size = 96;

void append_u64(std::string& out, std::uint64_t value) {
  for (int byte = 0; byte < 8; ++byte) out.push_back(static_cast<char>(value >> (8 * byte)));
}

std::uint64_t read_u64(const char* bytes) {
  std::uint64_t value = 0;
  for (int byte = 7; byte >= 0; --byte) {
    value = value << 8 | static_cast<unsigned char>(bytes[byte]);
  }
  return value;
}

void hash_field(Sha256& hasher, std::string_view field) {
  std::string length;
  append_u64(length, field.size());
  hasher.update(length).update(field);
}

Sha256Digest payload_checksum(std::string_view cubin, std::string_view log) {
  Sha256 hasher;
  hash_field(hasher, cubin);
  hash_field(hasher, log);
  return hasher.finish();
}

std::string_view as_bytes(const Sha256Digest& digest) {
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

// The name as part of a file name: characters outside [A-Za-z0-9._-] become '_', at most 64.
std::string file_stem(std::string_view name, const Sha256Digest& key) {
  std::string stem;
  for (const char c : name.substr(0, 64)) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    stem.push_back(plain ? c : '_');
  }
  return stem + "-" + to_hex(key);
}

std::string environment(const char* variable) {
  const char* value = std::getenv(variable);
  return value == nullptr ? std::string() : std::string(value);
}

bool environment_flag(const char* variable) {
  const std::string value = environment(variable);
  return !value.empty() && value != "0";
}

// TENSORDIAG_CACHE_MAX_BYTES: a positive whole number of bytes, optionally with K, M or G (KiB,
// MiB, GiB). Zero is refused rather than read as "no cap" or "keep nothing", which would both
// surprise someone; TENSORDIAG_DISABLE_KERNEL_CACHE is the way to keep nothing.
std::uintmax_t parse_cache_max_bytes(const std::string& text) {
  const auto refuse = [&](const std::string& why) {
    return user_error("TENSORDIAG_CACHE_MAX_BYTES='" + text + "' " + why);
  };
  if (text.starts_with('-')) throw refuse("is negative; give a size in bytes, e.g. 1073741824 or 1G");
  std::uintmax_t value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc::result_out_of_range) throw refuse("is too large");
  const bool unit_suffix = rest + 1 == end && (*rest == 'K' || *rest == 'M' || *rest == 'G');
  if (error != std::errc() || (rest != end && !unit_suffix)) {
    throw refuse("is not a size in bytes; give a whole number, e.g. 1073741824 or 1G");
  }
  const std::uintmax_t unit = !unit_suffix ? 1 : std::uintmax_t{1} << (*rest == 'K' ? 10 : *rest == 'M' ? 20 : 30);
  if (value == 0) throw refuse("is zero; to keep no kernels on disk set TENSORDIAG_DISABLE_KERNEL_CACHE=1");
  if (value > UINTMAX_MAX / unit) throw refuse("is too large");
  return value * unit;
}

}  // namespace

KernelCacheSettings KernelCacheSettings::from_environment() {
  KernelCacheSettings settings;
  settings.use_disk = !environment_flag("TENSORDIAG_DISABLE_KERNEL_CACHE");
  settings.save_source = environment_flag("TENSORDIAG_SAVE_SOURCE");
  settings.dump_source_on_error = environment_flag("TENSORDIAG_DUMP_SOURCE_ON_ERROR");
  settings.line_info = environment_flag("TENSORDIAG_KERNEL_LINEINFO");
  if (const std::string cap = environment("TENSORDIAG_CACHE_MAX_BYTES"); !cap.empty()) {
    settings.max_bytes = parse_cache_max_bytes(cap);
  }
  const std::filesystem::path xdg_cache = environment("XDG_CACHE_HOME");
  if (const std::string dir = environment("TENSORDIAG_CACHE_DIR"); !dir.empty()) {
    settings.directory = dir;
  } else if (xdg_cache.is_absolute()) {
    settings.directory = xdg_cache / "tensordiag";
  } else if (const std::string home = environment("HOME"); !home.empty()) {
    settings.directory = std::filesystem::path(home) / ".cache" / "tensordiag";
  }
  return settings;
}

std::string_view to_string(KernelOrigin origin) {
  switch (origin) {
    case KernelOrigin::compiled: return "compiled";
    case KernelOrigin::memory_cache: return "memory cache";
    case KernelOrigin::disk_cache: return "disk cache";
  }
  throw internal_error("unknown KernelOrigin");
}

Sha256Digest kernel_cache_key(std::string_view source, std::string_view name,
                              const std::vector<std::string>& complete_options,
                              std::string_view arch) {
  Sha256 hasher;
  std::string version;
  append_u64(version, cache_format_version);
  hash_field(hasher, version);
  hash_field(hasher, nvrtc_version());
  hash_field(hasher, arch);
  std::string option_count;
  append_u64(option_count, complete_options.size());
  hash_field(hasher, option_count);
  for (const std::string& option : complete_options) hash_field(hasher, option);
  hash_field(hasher, name);
  hash_field(hasher, source);
  return hasher.finish();
}

KernelCache::KernelCache(KernelCacheSettings settings) : settings_(std::move(settings)) {
  if (!settings_.use_disk) disk_state_ = DiskState::off;
}

std::filesystem::path KernelCache::directory() const {
  const std::lock_guard lock(mutex_);
  return disk_state_ == DiskState::off ? std::filesystem::path() : settings_.directory;
}

std::vector<std::string> KernelCache::warnings() const {
  const std::lock_guard lock(mutex_);
  return warnings_;
}

// The directory is created at the first disk access rather than at construction, so that a run
// that compiles nothing leaves nothing behind.
std::filesystem::path KernelCache::usable_directory() {
  const std::lock_guard lock(mutex_);
  if (disk_state_ == DiskState::unchecked) {
    std::error_code error;
    if (settings_.directory.empty()) {
      turn_disk_off_locked(
          "no location for it (TENSORDIAG_CACHE_DIR, XDG_CACHE_HOME and HOME are unset)");
    } else if (std::filesystem::create_directories(settings_.directory, error); error) {
      turn_disk_off_locked("cannot create " + settings_.directory.string() + ": " +
                           error.message());
    } else {
      disk_state_ = DiskState::usable;
    }
  }
  return disk_state_ == DiskState::usable ? settings_.directory : std::filesystem::path();
}

void KernelCache::turn_disk_off(const std::string& reason) {
  const std::lock_guard lock(mutex_);
  turn_disk_off_locked(reason);
}

void KernelCache::turn_disk_off_locked(const std::string& reason) {
  if (disk_state_ == DiskState::off) return;
  disk_state_ = DiskState::off;
  warnings_.push_back("kernel cache: " + reason + "; kernels are cached in memory only");
}

std::shared_ptr<const KernelCache::Entry> KernelCache::load_entry(const std::filesystem::path& path,
                                                                  const Sha256Digest& key) const {
  std::ifstream file(path, std::ios::binary);
  if (!file) return nullptr;
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (bytes.size() < entry_header_size ||
      bytes.compare(0, entry_magic.size(), entry_magic.data(), entry_magic.size()) != 0 ||
      read_u64(bytes.data() + at_version) != cache_format_version) {
    return nullptr;
  }
  const std::uint64_t cubin_size = read_u64(bytes.data() + at_cubin_size);
  const std::uint64_t log_size = read_u64(bytes.data() + at_log_size);
  const std::uint64_t payload_size = bytes.size() - entry_header_size;
  if (cubin_size > payload_size || log_size != payload_size - cubin_size ||
      bytes.compare(at_key, key.size(), as_bytes(key)) != 0) {
    return nullptr;
  }
  const std::string_view cubin = std::string_view(bytes).substr(entry_header_size, cubin_size);
  const std::string_view log = std::string_view(bytes).substr(entry_header_size + cubin_size);
  const Sha256Digest checksum = payload_checksum(cubin, log);
  if (bytes.compare(at_checksum, checksum.size(), as_bytes(checksum)) != 0) return nullptr;

  auto entry = std::make_shared<Entry>();
  entry->cubin.assign(cubin.begin(), cubin.end());
  entry->kernels = read_cubin_resources(entry->cubin);
  entry->log = log;
  entry->cache_path = path;
  return entry;
}

bool KernelCache::store_entry(const std::filesystem::path& path, const Sha256Digest& key,
                              const Entry& entry) {
  const std::string_view cubin(entry.cubin.data(), entry.cubin.size());
  // Appended in the order of the at_* offsets.
  std::string header(entry_magic.data(), entry_magic.size());
  append_u64(header, cache_format_version);
  append_u64(header, cubin.size());
  append_u64(header, entry.log.size());
  header.append(as_bytes(key));
  header.append(as_bytes(payload_checksum(cubin, entry.log)));
  try {
    write_file_atomically(path, {header, cubin, entry.log});
    return true;
  } catch (const std::filesystem::filesystem_error& error) {
    turn_disk_off(error.what());
    return false;
  }
}

void KernelCache::save_source(const std::filesystem::path& path, std::string_view source) {
  std::error_code error;
  if (std::filesystem::exists(path, error)) return;
  try {
    write_file_atomically(path, {source});
  } catch (const std::filesystem::filesystem_error& failure) {
    turn_disk_off(failure.what());
  }
}

CompiledKernel KernelCache::get_or_compile(const std::string& source, const std::string& name,
                                           const std::vector<std::string>& asked_options,
                                           const std::string& arch) {
  const Stopwatch stopwatch;
  check_architecture(arch);  // before the key: a user's typo must never reach the disk
  std::vector<std::string> options = asked_options;
  if (settings_.line_info) options.push_back("-lineinfo");  // in the key: a cubin of its own
  const Sha256Digest key = kernel_cache_key(source, name, nvrtc_options(options, arch), arch);
  const std::string memory_key(as_bytes(key));
  const auto answer = [&](const Entry& entry, KernelOrigin origin) {
    return CompiledKernel{.cubin = entry.cubin,
                          .arch = arch,
                          .kernels = entry.kernels,
                          .log = entry.log,
                          .origin = origin,
                          .seconds = stopwatch.seconds(),
                          .cache_path = entry.cache_path,
                          .key = key};
  };

  {
    const std::lock_guard lock(mutex_);
    if (const auto found = memory_.find(memory_key); found != memory_.end()) {
      return answer(*found->second, KernelOrigin::memory_cache);
    }
  }

  const std::filesystem::path disk_dir = usable_directory();
  const std::string stem = file_stem(name, key);
  const KernelCacheFiles files = kernel_cache_files(disk_dir, stem);
  std::shared_ptr<const Entry> entry;
  std::optional<FileLock> entry_lock;
  if (!disk_dir.empty()) {
    entry = load_entry(files.cubin, key);
    if (!entry) {
      // Another process may be compiling it: wait for it, then look again.
      entry_lock = FileLock::acquire(files.lock);
      entry = load_entry(files.cubin, key);
    }
    if (entry) mark_kernel_cache_entry_used(files.cubin);
  }
  const KernelOrigin origin = entry ? KernelOrigin::disk_cache : KernelOrigin::compiled;
  if (!entry) {
    ++compilations_;
    Cubin cubin = compile_cubin(
        source, name, options, arch,
        settings_.dump_source_on_error ? SourceOnError::attach : SourceOnError::omit);
    auto compiled = std::make_shared<Entry>(
        Entry{std::move(cubin.image), std::move(cubin.kernels), std::move(cubin.log), {}});
    if (!disk_dir.empty() && store_entry(files.cubin, key, *compiled)) {
      compiled->cache_path = files.cubin;
    }
    entry = std::move(compiled);
  }
  if (settings_.save_source && !entry->cache_path.empty()) save_source(files.source, source);
  if (origin == KernelOrigin::compiled && !entry->cache_path.empty()) {
    // Still under the entry's lock, which keeps the new entry out of its own eviction.
    prune_kernel_cache(disk_dir, settings_.max_bytes);
  }
  entry_lock.reset();

  const std::lock_guard lock(mutex_);
  memory_.emplace(memory_key, entry);
  return answer(*entry, origin);
}

KernelCache& default_kernel_cache() {
  static KernelCache cache(KernelCacheSettings::from_environment());
  return cache;
}

}  // namespace tensordiag::runtime
