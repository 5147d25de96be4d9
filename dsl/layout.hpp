#pragma once
// Memory layout of a cubical tensor. C order: the last index varies fastest (NumPy's default).
// Fortran order: the first index varies fastest.
namespace tensordiag::dsl {

enum class Layout { c_order, fortran_order };

}  // namespace tensordiag::dsl
