#pragma once
// Writing a file so that readers, in this process or others, see either the old file (or none) or
// the whole new one, never a part: the bytes go to a temporary file in the target's directory,
// which is then renamed over the target (rename is atomic within one file system, POSIX).
#include <filesystem>
#include <initializer_list>
#include <string_view>

namespace tensordiag::runtime {

// Writes the concatenation of `parts` to `target`. Throws std::filesystem::filesystem_error and
// leaves no temporary file behind when any step fails.
void write_file_atomically(const std::filesystem::path& target,
                           std::initializer_list<std::string_view> parts);

}  // namespace tensordiag::runtime
