#pragma once
// The kernel templates (kernels_templates/*.cu, *.cuh) and dsl/givens.hpp, embedded into the
// library at build time by cmake/embed_templates.cmake, so an installed binary generates kernels
// without the source tree.
#include <span>
#include <string_view>

namespace tensordiag::codegen {

struct EmbeddedFile {
  std::string_view name;  // the file name: "group_pass.cu", "givens.hpp"
  std::string_view text;
};

// Every embedded file, sorted by name (defined in the generated source).
std::span<const EmbeddedFile> embedded_files();

// The embedded file `name`; throws internal_codegen_error when there is none.
std::string_view embedded_file(std::string_view name);

}  // namespace tensordiag::codegen
