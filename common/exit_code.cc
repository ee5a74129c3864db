#include "common/exit_code.h"

namespace chess {

ExitCode ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return kExitOk;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kDataLoss:
      return kExitBadInput;
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
      return kExitEngineFailure;
    default:
      return kExitIoError;
  }
}

absl::StatusCode StatusCodeForExit(int exit_code) {
  switch (exit_code) {
    case kExitOk:
    case kExitH0:
      return absl::StatusCode::kOk;
    case kExitBadInput:
      return absl::StatusCode::kInvalidArgument;
    case kExitEngineFailure:
      return absl::StatusCode::kUnavailable;
    default:
      return absl::StatusCode::kInternal;
  }
}

}  // namespace chess
