#pragma once
// --rule, worded and checked alike in every command that takes it: the choices and their help
// lines come from the rule registry (dsl/builtin_rules.hpp through codegen/builtin_rules.hpp).
#include <string>

#include <CLI/CLI.hpp>

namespace tensordiag::cli {

// `rule` holds the default (the registry's first rule, as the runtime's Options does).
void add_rule_option(CLI::App& command, std::string& rule);

}  // namespace tensordiag::cli
