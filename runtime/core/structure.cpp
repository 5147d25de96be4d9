#include "runtime/core/structure.hpp"

#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

std::string_view to_string(Structure structure) {
  return structure == Structure::symmetric ? "symmetric" : "general";
}

Structure parse_structure(std::string_view name) {
  if (name == "general") return Structure::general;
  if (name == "symmetric") return Structure::symmetric;
  throw user_error("unknown structure '" + std::string(name) + "': use general or symmetric");
}

}  // namespace tensordiag::runtime
