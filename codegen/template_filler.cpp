#include "codegen/template_filler.hpp"

#include <algorithm>
#include <set>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

namespace {

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

std::string where(std::string_view template_name, std::string_view text, std::size_t position) {
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(position), '\n');
  return "template '" + std::string(template_name) + "', line " + std::to_string(line);
}

}  // namespace

std::string fill_template(std::string_view template_name, std::string_view text, const Substitutions& values) {
  std::string out;
  out.reserve(text.size());
  std::set<std::string, std::less<>> used;
  std::size_t position = 0;
  while (true) {
    const std::size_t open = text.find("${", position);
    out.append(text.substr(position, open == std::string_view::npos ? std::string_view::npos : open - position));
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find('}', open + 2);
    const std::string_view name =
        close == std::string_view::npos ? std::string_view{} : text.substr(open + 2, close - open - 2);
    if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char))
      throw internal_codegen_error(where(template_name, text, open) + ": '${' does not open a placeholder ${name}");
    const auto value = values.find(name);
    if (value == values.end())
      throw internal_codegen_error(where(template_name, text, open) + ": placeholder ${" + std::string(name) +
                                   "} has no value");
    out += value->second;
    used.insert(value->first);
    position = close + 1;
  }
  for (const auto& [name, value] : values)
    if (!used.count(name))
      throw internal_codegen_error("template '" + std::string(template_name) + "': the value for '" + name +
                                   "' is not used by any placeholder");
  return out;
}

}  // namespace tensordiag::codegen
