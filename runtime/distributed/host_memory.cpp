#include "runtime/distributed/host_memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace tensordiag::runtime {

std::optional<std::size_t> available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    std::size_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace tensordiag::runtime
