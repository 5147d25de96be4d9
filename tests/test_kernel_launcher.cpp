// Compile-time checks of the typed launchers (runtime/engines/kernel_launcher.hpp): a launcher
// takes the types its signature names for the engine's scalar type, with the usual conversions
// (T* for const T*, nullptr for a pointer), and nothing else. This file compiling is the test.
#include <cstddef>
#include <type_traits>

#include "runtime/engines/kernel_launcher.hpp"

namespace {

namespace signatures = tensordiag::codegen::kernel_signatures;
using tensordiag::dsl::Givens;
using tensordiag::runtime::KernelLauncher;

template <class T>
using GroupPass = const KernelLauncher<T, signatures::group_pass>&;
template <class T>
using PivotAngles = const KernelLauncher<T, signatures::pivot_angles>&;
template <class T>
using OffNormFinal = const KernelLauncher<T, signatures::off_norm_final>&;

static_assert(std::is_invocable_v<GroupPass<double>, cudaStream_t, double*, const int*, const Givens<double>*,
                                  double*, double*, const int*>);
static_assert(std::is_invocable_v<GroupPass<float>, cudaStream_t, float*, int*, Givens<float>*, float*,
                                  std::nullptr_t, std::nullptr_t>);
// Another engine's scalar type, a rotation of another precision, figures in the scalar type.
static_assert(!std::is_invocable_v<GroupPass<double>, cudaStream_t, float*, const int*, const Givens<double>*,
                                   double*, double*, const int*>);
static_assert(!std::is_invocable_v<GroupPass<float>, cudaStream_t, float*, const int*, const Givens<double>*,
                                   float*, double*, const int*>);
static_assert(!std::is_invocable_v<GroupPass<float>, cudaStream_t, float*, const int*, const Givens<float>*,
                                   float*, float*, const int*>);
// The slab's row table is a table of ints.
static_assert(!std::is_invocable_v<GroupPass<float>, cudaStream_t, float*, const int*, const Givens<float>*,
                                   float*, double*, const double*>);
// The angles are written: a read-only rotation buffer is refused, as is a missing argument.
static_assert(!std::is_invocable_v<PivotAngles<double>, cudaStream_t, const double*, const int*,
                                   const Givens<double>*, const int*>);
static_assert(!std::is_invocable_v<PivotAngles<double>, cudaStream_t, const double*, const int*>);
static_assert(std::is_invocable_v<OffNormFinal<float>, cudaStream_t, double*, int, double*>);
static_assert(!std::is_invocable_v<OffNormFinal<float>, cudaStream_t, const float*, int, double*>);

}  // namespace
