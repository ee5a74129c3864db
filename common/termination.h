// Ending a program on SIGTERM or SIGINT as it ends on an engine failure: the
// engines it started (each in its own process group, so a terminal's Ctrl-C
// never reaches them) are asked to end, killed after a grace period, and the
// program exits; its logs are crash-safe, so the same command resumes.
#ifndef COMMON_TERMINATION_H_
#define COMMON_TERMINATION_H_

#include <spawn.h>
#include <sys/types.h>

#include <functional>
#include <string>

namespace chess {

// How long the engines get between SIGTERM and SIGKILL.
inline constexpr int kTerminationGraceMs = 1000;

// Blocks SIGTERM and SIGINT in the calling thread (so in every thread it
// starts after) and starts a thread that waits for them. On one, it signals
// every registered process group, prints "PROGRAM: stopped by SIG...; the
// same command resumes" on stderr and exits with 128 + the signal's number,
// as a shell reports a program a signal ended. Call first in main.
void EndChildrenOnTermination(const std::string& program);

// Runs `spawn`, which starts a child as the leader of its own process group
// and returns its pid (or a negative number on failure), and registers that
// group for a termination to end, both at once: a termination never misses a
// child started as it runs. Once a termination has begun, nothing is started
// and -1 is returned.
pid_t SpawnChildGroup(const std::function<pid_t()>& spawn);
// The group ended or was waited for: a termination leaves it alone.
void UnregisterChildGroup(pid_t pgid);

// Whether a termination has begun: set before any engine is signalled, so a
// game whose engine died after it was read as true is one the termination
// ended, not a result to record.
bool TerminationRequested();

// Sets up `attributes` (initialised) for a child that SpawnChildGroup starts:
// the leader of a process group of its own, with what EndChildrenOnTermination
// and ignoring SIGPIPE changed here reset (an empty signal mask, the default
// actions of SIGPIPE, SIGTERM and SIGINT).
void SetUpChildGroup(posix_spawnattr_t* attributes);

}  // namespace chess

#endif  // COMMON_TERMINATION_H_
