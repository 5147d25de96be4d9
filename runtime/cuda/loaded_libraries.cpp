#include "runtime/cuda/loaded_libraries.hpp"

#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tensordiag::runtime {

namespace {

// Keyed by the cache key's bytes; `recent` points at the keys (stable in an unordered_map's nodes).
struct LibraryTable {
  std::mutex mutex;
  std::list<const std::string*> recent;  // most recently asked first
  struct Entry {
    std::shared_ptr<const CudaLibrary> library;
    std::list<const std::string*>::iterator position;
  };
  std::unordered_map<std::string, Entry> entries;
};

LibraryTable& table() {
  static auto* const instance = new LibraryTable;  // never destroyed: see the header
  return *instance;
}

}  // namespace

std::shared_ptr<const CudaLibrary> loaded_library(const Sha256Digest& digest, const std::vector<char>& cubin) {
  LibraryTable& t = table();
  const std::lock_guard lock(t.mutex);
  std::string key(digest.begin(), digest.end());
  if (const auto found = t.entries.find(key); found != t.entries.end()) {
    t.recent.splice(t.recent.begin(), t.recent, found->second.position);
    return found->second.library;
  }
  auto library = std::make_shared<const CudaLibrary>(cubin);
  const auto added = t.entries.emplace(std::move(key), LibraryTable::Entry{library, {}}).first;
  t.recent.push_front(&added->first);
  added->second.position = t.recent.begin();
  // Over the cap: unload the least recently asked libraries that no run holds.
  for (auto it = t.recent.end(); t.entries.size() > kept_libraries && it != t.recent.begin();) {
    --it;
    const auto entry = t.entries.find(**it);
    if (entry->second.library.use_count() > 1) continue;
    t.entries.erase(entry);
    it = t.recent.erase(it);
  }
  return library;
}

std::size_t loaded_library_count() {
  LibraryTable& t = table();
  const std::lock_guard lock(t.mutex);
  return t.entries.size();
}

}  // namespace tensordiag::runtime
