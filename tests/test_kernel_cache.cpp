// The kernel cache: memory, then disk, then NVRTC; damaged entries are rebuilt; an unusable
// directory costs one warning and nothing else; the environment variables are honoured.
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <iterator>

#include "runtime/core/errors.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "sample_kernels.hpp"
#include "scoped_environment.hpp"
#include "temporary_directory.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;
namespace fs = std::filesystem;

namespace {

KernelCacheSettings disk_at(const fs::path& directory) {
  KernelCacheSettings settings;
  settings.directory = directory;
  return settings;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("kernel cache: the key changes with every input and only with them") {
  const std::vector<std::string> options = nvrtc_options({}, "sm_90");
  const Sha256Digest key = kernel_cache_key(saxpy_source, "saxpy.cu", options, "sm_90");
  CHECK(kernel_cache_key(saxpy_source, "saxpy.cu", options, "sm_90") == key);
  CHECK(kernel_cache_key(saxpy_source + " ", "saxpy.cu", options, "sm_90") != key);
  CHECK(kernel_cache_key(saxpy_source, "other.cu", options, "sm_90") != key);
  CHECK(kernel_cache_key(saxpy_source, "saxpy.cu", nvrtc_options({"-lineinfo"}, "sm_90"),
                         "sm_90") != key);
  CHECK(kernel_cache_key(saxpy_source, "saxpy.cu", options, "sm_80") != key);
  // Length prefixes: moving bytes from one field to the next changes the key.
  CHECK(kernel_cache_key("ab", "c", {"x"}, "sm_90") != kernel_cache_key("a", "bc", {"x"}, "sm_90"));
  CHECK(kernel_cache_key("a", "b", {"x", "y"}, "sm_90") !=
        kernel_cache_key("a", "b", {"xy"}, "sm_90"));
}

TEST_CASE("kernel cache: with line info the kernels are compiled with -lineinfo and cached apart") {
  const TemporaryDirectory dir;
  KernelCache plain(disk_at(dir.path()));
  KernelCacheSettings settings = disk_at(dir.path());
  settings.line_info = true;
  KernelCache lined(settings);
  const CompiledKernel without = plain.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90");
  const CompiledKernel with = lined.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90");
  CHECK(with.origin == KernelOrigin::compiled);  // not the plain entry from the disk
  CHECK(with.key == kernel_cache_key(saxpy_source, "saxpy.cu", nvrtc_options({"-lineinfo"}, "sm_90"), "sm_90"));
  CHECK(with.cache_path != without.cache_path);
  const std::string lined_cubin(with.cubin.begin(), with.cubin.end());
  const std::string plain_cubin(without.cubin.begin(), without.cubin.end());
  CHECK(lined_cubin.find(".debug_line") != std::string::npos);  // the line table
  CHECK(plain_cubin.find(".debug_line") == std::string::npos);
  ScopedEnvironment environment;
  environment.set("TENSORDIAG_KERNEL_LINEINFO", "1");
  CHECK(KernelCacheSettings::from_environment().line_info);
  environment.set("TENSORDIAG_KERNEL_LINEINFO", "0");
  CHECK_FALSE(KernelCacheSettings::from_environment().line_info);
}

TEST_CASE("kernel cache: a repeat is a memory hit, a new cache on the same directory a disk hit") {
  const TemporaryDirectory dir;
  KernelCache cache(disk_at(dir.path()));
  const CompiledKernel first = cache.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90");
  CHECK(first.origin == KernelOrigin::compiled);
  CHECK(first.arch == "sm_90");
  CHECK(first.cache_path.parent_path() == dir.path());
  CHECK(first.cache_path.extension() == ".cubin");
  CHECK(fs::exists(first.cache_path));
  CHECK(cache.compilations() == 1);

  const CompiledKernel second = cache.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90");
  CHECK(second.origin == KernelOrigin::memory_cache);
  CHECK(second.cubin == first.cubin);
  CHECK(cache.compilations() == 1);

  // Every answer carries the request's key, which names the cubin (loaded_libraries.hpp).
  const Sha256Digest key = kernel_cache_key(saxpy_source, "saxpy.cu", nvrtc_options({}, "sm_90"), "sm_90");
  CHECK(first.key == key);
  CHECK(second.key == key);

  KernelCache fresh(disk_at(dir.path()));
  const CompiledKernel third = fresh.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90");
  CHECK(third.origin == KernelOrigin::disk_cache);
  CHECK(third.key == key);
  CHECK(third.cubin == first.cubin);
  CHECK(third.cache_path == first.cache_path);
  REQUIRE(third.kernels.size() == 1);
  CHECK(third.kernels[0].name == "saxpy");
  CHECK(third.kernels[0].registers == first.kernels[0].registers);
  CHECK(fresh.compilations() == 0);
  CHECK(fresh.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90").origin ==
        KernelOrigin::memory_cache);

  CHECK(fresh.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_80").origin ==
        KernelOrigin::compiled);
  CHECK(fresh.compilations() == 1);
  CHECK(cache.warnings().empty());
  CHECK(fresh.warnings().empty());
}

TEST_CASE("kernel cache: NVRTC's warnings are kept with the cubin, in memory and on disk") {
  const TemporaryDirectory dir;
  const std::string source = "#warning generated code is odd\n" + saxpy_source;
  KernelCache cache(disk_at(dir.path()));
  const std::string log = cache.get_or_compile(source, "odd.cu", {}, "sm_90").log;
  CHECK(log.find("generated code is odd") != std::string::npos);
  CHECK(cache.get_or_compile(source, "odd.cu", {}, "sm_90").log == log);
  const CompiledKernel from_disk =
      KernelCache(disk_at(dir.path())).get_or_compile(source, "odd.cu", {}, "sm_90");
  CHECK(from_disk.origin == KernelOrigin::disk_cache);
  CHECK(from_disk.log == log);
}

TEST_CASE("kernel cache: a damaged entry is a miss and is rebuilt") {
  const TemporaryDirectory dir;
  const fs::path entry = KernelCache(disk_at(dir.path()))
                             .get_or_compile(template_source, "dot_rows.cu", {}, "sm_90")
                             .cache_path;
  const std::string good = read_file(entry);
  REQUIRE(good.size() > 200);

  const auto flip = [&](std::size_t at) {
    std::string bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x40);
    return bytes;
  };
  const std::vector<std::string> damaged = {
      "",
      good.substr(0, 50),
      good.substr(0, good.size() / 2),
      good.substr(0, good.size() - 1),
      good + "x",
      flip(0),                // magic
      flip(8),                // format version
      flip(16),               // cubin size
      flip(40),               // key
      flip(70),               // checksum
      flip(good.size() / 2),  // cubin
      flip(good.size() - 1),  // cubin's last byte (the log is empty)
  };
  for (std::size_t i = 0; i < damaged.size(); ++i) {
    CAPTURE(i);
    write_file(entry, damaged[i]);
    KernelCache cache(disk_at(dir.path()));
    const CompiledKernel rebuilt = cache.get_or_compile(template_source, "dot_rows.cu", {}, "sm_90");
    CHECK(rebuilt.origin == KernelOrigin::compiled);
    CHECK(cache.compilations() == 1);
    CHECK(read_file(entry) == good);
    CHECK(KernelCache(disk_at(dir.path()))
              .get_or_compile(template_source, "dot_rows.cu", {}, "sm_90")
              .origin == KernelOrigin::disk_cache);
  }
}

TEST_CASE("kernel cache: an unusable directory gives one warning and the run goes on uncached") {
  const TemporaryDirectory dir;
  write_file(dir.path() / "a_file", "a regular file can never hold a directory");
  std::vector<fs::path> unusable = {dir.path() / "a_file" / "cache"};
  // Permissions do not bind root, so the read-only directory is only tried as another user.
  if (::geteuid() != 0) {
    fs::create_directory(dir.path() / "read_only");
    fs::permissions(dir.path() / "read_only", fs::perms::owner_read | fs::perms::owner_exec);
    unusable.push_back(dir.path() / "read_only");
  }
  for (const fs::path& directory : unusable) {
    CAPTURE(directory);
    KernelCache cache(disk_at(directory));
    for (int i = 0; i < 3; ++i) {
      const CompiledKernel kernel = cache.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90");
      CHECK(kernel.origin == KernelOrigin::compiled);
      CHECK(kernel.cache_path.empty());
      CHECK(!kernel.cubin.empty());
    }
    CHECK(cache.get_or_compile(scale_source(0), "scale.cu", {}, "sm_90").origin ==
          KernelOrigin::memory_cache);
    CHECK(cache.compilations() == 3);
    CHECK(cache.directory().empty());
    REQUIRE(cache.warnings().size() == 1);
    CHECK(cache.warnings()[0].find(directory.string()) != std::string::npos);
  }
  CHECK(fs::is_regular_file(dir.path() / "a_file"));
}

TEST_CASE("kernel cache: the environment chooses the directory and the switches") {
  ScopedEnvironment env;
  for (const char* name : {"TENSORDIAG_CACHE_DIR", "XDG_CACHE_HOME", "TENSORDIAG_DISABLE_KERNEL_CACHE",
                           "TENSORDIAG_SAVE_SOURCE", "TENSORDIAG_DUMP_SOURCE_ON_ERROR"}) {
    env.set(name, std::nullopt);
  }
  env.set("HOME", "/home/someone");
  KernelCacheSettings settings = KernelCacheSettings::from_environment();
  CHECK(settings.directory == "/home/someone/.cache/tensordiag");
  CHECK(settings.use_disk);
  CHECK(!settings.save_source);
  CHECK(!settings.dump_source_on_error);

  env.set("XDG_CACHE_HOME", "relative/is/ignored");
  CHECK(KernelCacheSettings::from_environment().directory == "/home/someone/.cache/tensordiag");
  env.set("XDG_CACHE_HOME", "/xdg");
  CHECK(KernelCacheSettings::from_environment().directory == "/xdg/tensordiag");
  env.set("TENSORDIAG_CACHE_DIR", "/explicit/place");
  CHECK(KernelCacheSettings::from_environment().directory == "/explicit/place");

  env.set("TENSORDIAG_CACHE_DIR", std::nullopt).set("XDG_CACHE_HOME", std::nullopt);
  env.set("HOME", std::nullopt);
  settings = KernelCacheSettings::from_environment();
  CHECK(settings.directory.empty());
  KernelCache homeless(settings);
  CHECK(homeless.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90").cache_path.empty());
  CHECK(homeless.warnings().size() == 1);

  env.set("TENSORDIAG_DISABLE_KERNEL_CACHE", "0");
  CHECK(KernelCacheSettings::from_environment().use_disk);
  env.set("TENSORDIAG_DISABLE_KERNEL_CACHE", "1");
  settings = KernelCacheSettings::from_environment();
  CHECK(!settings.use_disk);
  KernelCache disabled(settings);
  CHECK(disabled.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90").cache_path.empty());
  CHECK(disabled.directory().empty());
  CHECK(disabled.warnings().empty());
}

TEST_CASE("kernel cache: TENSORDIAG_SAVE_SOURCE writes the .cu next to its cubin") {
  const TemporaryDirectory dir;
  ScopedEnvironment env;
  env.set("TENSORDIAG_DISABLE_KERNEL_CACHE", std::nullopt);
  env.set("TENSORDIAG_CACHE_DIR", dir.path().string());
  env.set("TENSORDIAG_SAVE_SOURCE", "1");
  const CompiledKernel kernel = KernelCache(KernelCacheSettings::from_environment())
                                    .get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90");
  fs::path source_path = kernel.cache_path;
  source_path.replace_extension(".cu");
  CHECK(read_file(source_path) == saxpy_source);
  CHECK(kernel.cache_path.filename().string().starts_with("saxpy.cu-"));

  // An entry cached before the variable was set gets its source on the next disk hit.
  fs::remove(source_path);
  CHECK(KernelCache(KernelCacheSettings::from_environment())
            .get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90")
            .origin == KernelOrigin::disk_cache);
  CHECK(read_file(source_path) == saxpy_source);

  env.set("TENSORDIAG_SAVE_SOURCE", std::nullopt);
  const CompiledKernel other = KernelCache(KernelCacheSettings::from_environment())
                                   .get_or_compile(scale_source(7), "scale.cu", {}, "sm_90");
  CHECK(!fs::exists(fs::path(other.cache_path).replace_extension(".cu")));
}

TEST_CASE("kernel cache: TENSORDIAG_DUMP_SOURCE_ON_ERROR puts the numbered source in the error") {
  ScopedEnvironment env;
  env.set("TENSORDIAG_DISABLE_KERNEL_CACHE", "1");
  for (const bool dump : {false, true}) {
    env.set("TENSORDIAG_DUMP_SOURCE_ON_ERROR", dump ? std::optional<std::string>("1") : std::nullopt);
    KernelCache cache(KernelCacheSettings::from_environment());
    try {
      cache.get_or_compile(syntax_error_source, "broken.cu", {}, "sm_90");
      FAIL("a syntax error compiled");
    } catch (const CompileError& error) {
      CHECK(error.name() == "broken.cu");
      CHECK(error.numbered_source().empty() == !dump);
      if (dump) CHECK(error.numbered_source().find("3 |   x[1] = undeclared_value;") != std::string::npos);
    }
    CHECK(cache.compilations() == 1);
  }
}

TEST_CASE("kernel cache: an unsupported architecture is refused before the disk is touched") {
  const TemporaryDirectory dir;
  KernelCache cache(disk_at(dir.path() / "never_created"));
  CHECK_THROWS_AS(cache.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_12"),
                  tensordiag::user_error);
  CHECK(!fs::exists(dir.path() / "never_created"));
  CHECK(cache.compilations() == 0);
}

TEST_CASE("kernel cache: TENSORDIAG_CACHE_MAX_BYTES sets the cap, and anything but a positive size is refused") {
  ScopedEnvironment env;
  env.set("TENSORDIAG_CACHE_MAX_BYTES", std::nullopt);
  CHECK(KernelCacheSettings::from_environment().max_bytes == default_kernel_cache_max_bytes);
  CHECK(default_kernel_cache_max_bytes == 1073741824u);
  const std::pair<const char*, std::uintmax_t> accepted[] = {
      {"", default_kernel_cache_max_bytes}, {"1", 1}, {"123456789", 123456789},
      {"4K", 4096}, {"3M", 3u << 20}, {"2G", std::uintmax_t{2} << 30}};
  for (const auto& [text, bytes] : accepted) {
    CAPTURE(std::string(text));
    env.set("TENSORDIAG_CACHE_MAX_BYTES", text);
    CHECK(KernelCacheSettings::from_environment().max_bytes == bytes);
  }
  const std::pair<const char*, const char*> refused[] = {
      {"abc", "not a size"}, {"-5", "negative"}, {"-0", "negative"}, {"0", "zero"}, {"0G", "zero"},
      {"1.5", "not a size"}, {"12 ", "not a size"}, {" 12", "not a size"}, {"5T", "not a size"},
      {"1KB", "not a size"}, {"G", "not a size"}, {"nan", "not a size"}, {"inf", "not a size"},
      {"99999999999999999999999", "too large"}, {"17179869184G", "too large"}};
  for (const auto& [text, why] : refused) {
    CAPTURE(std::string(text));
    env.set("TENSORDIAG_CACHE_MAX_BYTES", text);
    try {
      KernelCacheSettings::from_environment();
      FAIL("accepted");
    } catch (const tensordiag::user_error& error) {
      const std::string message = error.what();
      CHECK(message.starts_with("TENSORDIAG_CACHE_MAX_BYTES='" + std::string(text) + "' "));
      CHECK(message.find(why) != std::string::npos);
      CHECK(message.find('\n') == std::string::npos);
    }
  }
}
