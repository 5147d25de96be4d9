#include "runtime/core/structure.hpp"

#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

std::string_view to_string(Structure structure) {
  switch (structure) {
    case Structure::symmetric: return "symmetric";
    case Structure::skew: return "skew";
    case Structure::general: break;
  }
  return "general";
}

Structure parse_structure(std::string_view name) {
  if (name == "general") return Structure::general;
  if (name == "symmetric") return Structure::symmetric;
  if (name == "skew") return Structure::skew;
  throw user_error("unknown structure '" + std::string(name) + "': use general, symmetric or skew");
}

}  // namespace tensordiag::runtime
