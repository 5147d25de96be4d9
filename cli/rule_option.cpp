#include "cli/rule_option.hpp"

#include "codegen/builtin_rules.hpp"

namespace tensordiag::cli {

void add_rule_option(CLI::App& command, std::string& rule) {
  std::string help;
  for (const dsl::RuleInfo& info : codegen::builtin_rules())
    help += (help.empty() ? "" : ";\n") + std::string(info.name) + " " + std::string(info.help);
  command.add_option("--rule", rule, help)->check(CLI::IsMember(codegen::builtin_rule_names()))->capture_default_str();
}

}  // namespace tensordiag::cli
