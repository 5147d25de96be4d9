#include "cli/option_checks.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>

namespace tensordiag::cli {

namespace {

CLI::Validator bound_check(double bound, const std::string& relation,
                           std::function<bool(double)> holds) {
  std::ostringstream bound_text;
  bound_text << relation << bound;
  const std::string allowed = bound_text.str();
  return CLI::Validator(
      [allowed, holds](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value))
          return "'" + text + "' is not a number";
        if (!holds(value)) return "must be " + allowed + ", got " + text;
        return {};
      },
      allowed);
}

}  // namespace

CLI::Validator greater_than(double bound) {
  return bound_check(bound, ">", [bound](double value) { return value > bound; });
}

CLI::Validator at_least(double bound) {
  return bound_check(bound, ">=", [bound](double value) { return value >= bound; });
}

}  // namespace tensordiag::cli
