// The exit codes of every program here (arena, tuner, the engine's tools), so
// that a script or CI reads them the same way whichever program it ran.
#ifndef COMMON_EXIT_CODE_H_
#define COMMON_EXIT_CODE_H_

#include "absl/status/status.h"

namespace chess {

enum ExitCode {
  kExitOk = 0,  // done: match complete, SPRT accepted H1, file written
  kExitH0 = 1,  // an SPRT accepted H0 (e.g. a regression)
  // Bad config, book, log, dataset or arguments; nothing was played or written.
  kExitBadInput = 2,
  // An engine could not be started or died, so results are meaningless.
  kExitEngineFailure = 3,
  kExitIoError = 4,  // an output could not be written (or a program not run)
  // Ended by a signal: 128 + its number, as a shell reports it (SIGTERM 143,
  // SIGINT 130; common/termination.h).
  kExitSignalBase = 128,
};

// The exit code of a failed operation from its status: bad input for
// InvalidArgument, NotFound, FailedPrecondition, OutOfRange, AlreadyExists
// and DataLoss (a damaged input file); an engine failure for Unavailable and
// DeadlineExceeded; an I/O error for every other code. kExitOk for OK.
ExitCode ExitCodeFor(const absl::Status& status);

// The status code that ExitCodeFor maps back to `exit_code` (a child
// program's): kExitOk and kExitH0 give OK.
absl::StatusCode StatusCodeForExit(int exit_code);

}  // namespace chess

#endif  // COMMON_EXIT_CODE_H_
