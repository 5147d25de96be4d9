#pragma once
// The memory a rank may count on before it allocates its slab: Linux's MemAvailable (what can be
// allocated without swapping), shared by the ranks of one host.
#include <cstddef>
#include <optional>

namespace tensordiag::runtime {

// MemAvailable of /proc/meminfo in bytes, or nullopt where it cannot be read.
std::optional<std::size_t> available_host_memory();

}  // namespace tensordiag::runtime
