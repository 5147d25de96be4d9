#pragma once
// Sets or unsets environment variables for one scope and restores their previous values after it,
// so that tests of environment handling leave the process as they found it.
#include <stdlib.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tensordiag::test {

class ScopedEnvironment {
public:
  ScopedEnvironment() = default;
  ~ScopedEnvironment() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) apply(it->first, it->second);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

  // std::nullopt unsets the variable.
  ScopedEnvironment& set(const std::string& name, std::optional<std::string> value) {
    const char* old = ::getenv(name.c_str());
    saved_.emplace_back(name, old == nullptr ? std::nullopt : std::optional<std::string>(old));
    apply(name, value);
    return *this;
  }

private:
  static void apply(const std::string& name, const std::optional<std::string>& value) {
    if (value) {
      ::setenv(name.c_str(), value->c_str(), 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }

  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace tensordiag::test
