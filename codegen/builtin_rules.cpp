#include "codegen/builtin_rules.hpp"

#include <optional>

#include "codegen/codegen_error.hpp"
#include "codegen/lower_rule.hpp"
#include "dsl/builtin_rules.hpp"

namespace tensordiag::codegen {

std::span<const dsl::RuleInfo> builtin_rules() { return dsl::builtin_rule_infos; }

std::vector<std::string> builtin_rule_names() {
  std::vector<std::string> names;
  for (const dsl::RuleInfo& rule : builtin_rules()) names.emplace_back(rule.name);
  return names;
}

const dsl::RuleInfo* find_builtin_rule(std::string_view name) {
  for (const dsl::RuleInfo& rule : builtin_rules())
    if (rule.name == name) return &rule;
  return nullptr;
}

std::string builtin_rule_choices() {
  const std::vector<std::string> names = builtin_rule_names();
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

std::string unknown_rule_message(std::string_view name) {
  std::string names;
  for (const std::string& builtin : builtin_rule_names()) names += (names.empty() ? "" : ", ") + builtin;
  return "unknown rule '" + std::string(name) + "': the built-in rules are " + names;
}

LoweredRule lower_builtin_rule(std::string_view name) {
  const dsl::RuleInfo* info = find_builtin_rule(name);
  if (!info) throw codegen_error(unknown_rule_message(name));
  std::optional<LoweredRule> lowered;
  dsl::with_builtin_rule(name, [&](const auto& rule) { lowered = lower_rule(rule, info->stalls_on); });
  return std::move(*lowered);
}

}  // namespace tensordiag::codegen
