// Exit codes of `arena` (documented in the README for CI).
#ifndef ARENA_EXIT_CODE_H_
#define ARENA_EXIT_CODE_H_

namespace chess {

enum ExitCode {
  kExitOk = 0,        // match complete, or SPRT accepted H1
  kExitH0 = 1,        // SPRT accepted H0 (e.g. a regression)
  kExitBadInput = 2,  // bad config, book, log or arguments; nothing was played
  kExitEngineFailure =
      3,  // an engine could not be started, so results are meaningless
  kExitIoError = 4,  // the log or another output could not be written
};

}  // namespace chess

#endif  // ARENA_EXIT_CODE_H_
