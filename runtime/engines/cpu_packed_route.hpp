#pragma once
// Full-storage symmetric tensors through packed storage on the CPU: the engine table's
// "cpu_packed" entry, before "cpu". From order 5 the packed engine's sweep is faster than full
// storage's on the CPU: 2.0-2.3x at D = 5, N = 8..16, 2.4x and more from D = 6 (since its class
// positions are kept across sweeps: bench/results/cpu_packed_rotation_2026-11-27.md; before,
// packed_symmetric_cpu_2026-11-26.md and cpu_packed_route_2026-11-27.md); at D = 3 and 4 it is up
// to 10x slower (float32 unmeasured), so it takes float64 tensors of orders >= 5.
// The tensor's distinct entries are packed, run_cpu_packed_engine runs the same rotations in the
// same group order (to rounding: the tests hold it to the full engine at 1e-12), and the core is
// unpacked in the input's layout (a symmetric tensor's C and Fortran arrays are the same array).
#include <optional>
#include <string>

#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

// The lowest order this route takes (measured, above).
inline constexpr int cpu_packed_route_min_order = 5;

// Why the route does not take the request: another structure, float32, an order below
// cpu_packed_route_min_order, the pivot check or a rule other than max_diag (the packed engine has
// neither).
template <class T>
std::optional<std::string> cpu_packed_route_declines(const HostTensor<T>& first, std::size_t count, const EngineRun& run);

template <class T>
Result<T> run_cpu_packed_route(const HostTensor<T>& tensor, const EngineRun& run);

extern template std::optional<std::string> cpu_packed_route_declines(const HostTensor<float>&, std::size_t,
                                                                     const EngineRun&);
extern template std::optional<std::string> cpu_packed_route_declines(const HostTensor<double>&, std::size_t,
                                                                     const EngineRun&);
extern template Result<float> run_cpu_packed_route(const HostTensor<float>&, const EngineRun&);
extern template Result<double> run_cpu_packed_route(const HostTensor<double>&, const EngineRun&);

}  // namespace tensordiag::runtime
