#pragma once
// The NCCL entry points GPU ranks take (runtime/distributed/nccl_communicator.*), loaded with the
// library on first use (shared_library.hpp): NCCL ships in the CUDA toolkit (libnccl.so.2), and a
// CPU run or a one-GPU run never maps it.
#include <nccl.h>

namespace tensordiag::runtime {

struct NcclLibrary {
  decltype(&ncclGetVersion) get_version;
  decltype(&ncclGetUniqueId) get_unique_id;
  decltype(&ncclCommInitRank) comm_init_rank;
  decltype(&ncclCommInitAll) comm_init_all;
  decltype(&ncclCommDestroy) comm_destroy;
  decltype(&ncclCommAbort) comm_abort;
  decltype(&ncclCommGetAsyncError) comm_get_async_error;
  decltype(&ncclGetErrorString) get_error_string;
  decltype(&ncclAllReduce) all_reduce;
  decltype(&ncclAllGather) all_gather;
  decltype(&ncclBroadcast) broadcast;
  decltype(&ncclSend) send;
  decltype(&ncclRecv) recv;
  decltype(&ncclGroupStart) group_start;
  decltype(&ncclGroupEnd) group_end;
};

// Opens NCCL the first time (thread-safe); throws user_error when it cannot be loaded.
const NcclLibrary& nccl();

// Throws user_error "`call` failed: NCCL's reason" unless `result` is ncclSuccess.
void check_nccl(ncclResult_t result, const char* call);

}  // namespace tensordiag::runtime
