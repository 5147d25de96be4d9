#include "codegen/lowered_rule.hpp"

#include <optional>

#include "codegen/codegen_error.hpp"
#include "dsl/builtin_rules.hpp"

namespace tensordiag::codegen {

LoweredRule lower_builtin_rule(std::string_view name) {
  std::optional<LoweredRule> lowered;
  const bool known = dsl::with_builtin_rule(name, [&lowered](const auto& rule) { lowered = lower_rule(rule); });
  if (!known) {
    std::string names;
    for (const std::string_view builtin : dsl::builtin_rule_names) names += (names.empty() ? "" : ", ") + std::string(builtin);
    throw codegen_error("unknown rule '" + std::string(name) + "': the built-in rules are " + names);
  }
  return std::move(*lowered);
}

}  // namespace tensordiag::codegen
