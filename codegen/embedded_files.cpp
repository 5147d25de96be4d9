#include "codegen/embedded_files.hpp"

#include <string>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

std::string_view embedded_file(std::string_view name) {
  for (const EmbeddedFile& file : embedded_files())
    if (file.name == name) return file.text;
  throw internal_codegen_error("no embedded file '" + std::string(name) + "' (cmake/embed_templates.cmake)");
}

}  // namespace tensordiag::codegen
