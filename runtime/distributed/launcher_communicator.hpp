#pragma once
// The ranks a process belongs to: MPI's world when an MPI launcher started it (mpirun sets its
// environment), else one rank. MPI lives in a plugin, libtensordiag_mpi.so next to the executable
// (or where TENSORDIAG_MPI_PLUGIN points), opened only then: a process that is not under mpirun
// maps no MPI library, and a machine without Open MPI runs everything else.
#include <memory>

#include "runtime/distributed/communicator.hpp"

namespace tensordiag::runtime {

// Whether this process was started by an MPI launcher (mpirun/mpiexec set its environment).
bool started_by_mpi_launcher();

// Throws user_error when under a launcher the plugin cannot be opened (a build without MPI).
std::unique_ptr<Communicator> launcher_communicator();

}  // namespace tensordiag::runtime
