#pragma once
// The built-in rules as codegen and the runtime see them: the DSL registry
// (dsl/builtin_rules.hpp) projected to plain values, and each rule lowered by name.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/lowered_rule.hpp"
#include "dsl/rule_info.hpp"

namespace tensordiag::codegen {

// Every built-in rule, in the registry's order (the first is the default).
std::span<const dsl::RuleInfo> builtin_rules();
std::vector<std::string> builtin_rule_names();

// The built-in rule of that name, or nullptr.
const dsl::RuleInfo* find_builtin_rule(std::string_view name);

// "max_diag or max_trace", for messages that list the choices.
std::string builtin_rule_choices();

// "unknown rule 'x': the built-in rules are max_diag, max_trace"
std::string unknown_rule_message(std::string_view name);

// Throws codegen_error (unknown_rule_message) for an unknown name.
LoweredRule lower_builtin_rule(std::string_view name);

}  // namespace tensordiag::codegen
