#include "runtime/cuda/nccl_library.hpp"

#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/cuda/shared_library.hpp"

namespace tensordiag::runtime {

const NcclLibrary& nccl() {
  static const SharedLibrary library(TENSORDIAG_NCCL_SONAME);
  static const NcclLibrary entries{
      library.function<decltype(&ncclGetVersion)>("ncclGetVersion"),
      library.function<decltype(&ncclGetUniqueId)>("ncclGetUniqueId"),
      library.function<decltype(&ncclCommInitRank)>("ncclCommInitRank"),
      library.function<decltype(&ncclCommInitAll)>("ncclCommInitAll"),
      library.function<decltype(&ncclCommDestroy)>("ncclCommDestroy"),
      library.function<decltype(&ncclCommAbort)>("ncclCommAbort"),
      library.function<decltype(&ncclCommGetAsyncError)>("ncclCommGetAsyncError"),
      library.function<decltype(&ncclGetErrorString)>("ncclGetErrorString"),
      library.function<decltype(&ncclAllReduce)>("ncclAllReduce"),
      library.function<decltype(&ncclAllGather)>("ncclAllGather"),
      library.function<decltype(&ncclBroadcast)>("ncclBroadcast"),
      library.function<decltype(&ncclSend)>("ncclSend"),
      library.function<decltype(&ncclRecv)>("ncclRecv"),
      library.function<decltype(&ncclGroupStart)>("ncclGroupStart"),
      library.function<decltype(&ncclGroupEnd)>("ncclGroupEnd"),
  };
  return entries;
}

void check_nccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  throw user_error(std::string(call) + " failed: " + nccl().get_error_string(result));
}

}  // namespace tensordiag::runtime
