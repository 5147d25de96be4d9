#pragma once
// Fills a kernel template: every `${name}` (name = letters, digits, underscores) is replaced by
// its value, CuPy-style. Strict both ways, so a template and the code that fills it cannot drift
// apart silently: a placeholder without a value, a value no placeholder uses, and an unclosed
// `${` are internal_codegen_errors naming the template (and the line). A `$` not followed by `{`
// is plain text.
#include <map>
#include <string>
#include <string_view>

namespace tensordiag::codegen {

using Substitutions = std::map<std::string, std::string, std::less<>>;

std::string fill_template(std::string_view template_name, std::string_view text, const Substitutions& values);

}  // namespace tensordiag::codegen
