#include "cli/option_checks.hpp"

#include <charconv>
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
        if (text.empty() || *end != '\0') return "'" + text + "' is not a number";
        if (!std::isfinite(value)) return "must be a finite number, got " + text;
        if (!holds(value)) return "must be " + allowed + ", got " + text;
        return {};
      },
      allowed);
}

// Whether all of `text` is an integer (from_chars takes no sign '+', no spaces, no exponent).
template <class Integer>
std::from_chars_result parse_whole(const std::string& text, Integer& value) {
  return std::from_chars(text.data(), text.data() + text.size(), value);
}

bool is_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

}  // namespace

CLI::Validator at_least(double bound) {
  return bound_check(bound, ">=", [bound](double value) { return value >= bound; });
}

CLI::Validator whole_number(std::int64_t low, std::int64_t high) {
  const std::string low_text = ">=" + std::to_string(low), high_text = "<=" + std::to_string(high);
  return CLI::Validator(
      [low, high, low_text, high_text](std::string& text) -> std::string {
        std::int64_t value = 0;
        const auto [end, error] = parse_whole(text, value);
        if (error == std::errc::result_out_of_range)
          return "must be " + std::string(text.starts_with('-') ? low_text : high_text) + ", got " + text;
        if (error != std::errc() || end != text.data() + text.size())
          return is_number(text) ? "must be a whole number, got " + text : "'" + text + "' is not a number";
        if (value < low) return "must be " + low_text + ", got " + text;
        if (value > high) return "must be " + high_text + ", got " + text;
        return {};
      },
      high == 2147483647 ? low_text : "[" + std::to_string(low) + ", " + std::to_string(high) + "]");
}

CLI::Validator unsigned_64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.starts_with('-') && is_number(text)) return "must be >=0, got " + text;
        std::uint64_t value = 0;
        const auto [end, error] = parse_whole(text, value);
        if (error == std::errc::result_out_of_range) return "must be <=18446744073709551615, got " + text;
        if (error != std::errc() || end != text.data() + text.size())
          return is_number(text) ? "must be a whole number, got " + text : "'" + text + "' is not a number";
        return {};
      },
      ">=0");
}

}  // namespace tensordiag::cli
