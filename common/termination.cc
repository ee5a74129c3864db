#include "common/termination.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "common/exit_code.h"

namespace chess {
namespace {

// The process groups of the running children: written by the threads that
// start and end engines, read by the one that waits for the signals.
struct ChildGroups {
  std::mutex mutex;
  std::set<pid_t> groups;
  std::atomic<bool> terminating{false};
};

ChildGroups& TheChildGroups() {
  static ChildGroups* const groups = new ChildGroups;
  return *groups;
}

// SIGTERM to every group, SIGKILL after the grace period to those left. The
// lock stays held: no child starts after.
void EndChildGroups(std::unique_lock<std::mutex>& lock) {
  ChildGroups& children = TheChildGroups();
  children.terminating = true;
  for (pid_t group : children.groups) ::kill(-group, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(kTerminationGraceMs);
  while (std::chrono::steady_clock::now() < deadline) {
    bool alive = false;
    for (pid_t group : children.groups) alive |= ::kill(-group, 0) == 0;
    if (!alive) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (pid_t group : children.groups) ::kill(-group, SIGKILL);
}

sigset_t TerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  return signals;
}

}  // namespace

void EndChildrenOnTermination(const std::string& program) {
  const sigset_t signals = TerminationSignals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([program, signals] {
    int signal = 0;
    while (sigwait(&signals, &signal) != 0) {
    }
    std::unique_lock<std::mutex> lock(TheChildGroups().mutex);
    EndChildGroups(lock);
    std::fprintf(stderr,
                 "%s: stopped by %s; its engines were ended, and the same "
                 "command resumes\n",
                 program.c_str(), signal == SIGINT ? "SIGINT" : "SIGTERM");
    std::fflush(stderr);
    // Not exit(): other threads are still running games and their engines'
    // objects; the logs are synced record by record.
    std::_Exit(kExitSignalBase + signal);
  }).detach();
}

pid_t SpawnChildGroup(const std::function<pid_t()>& spawn) {
  ChildGroups& children = TheChildGroups();
  std::lock_guard<std::mutex> lock(children.mutex);
  if (children.terminating) return -1;
  const pid_t pid = spawn();
  if (pid > 0) children.groups.insert(pid);
  return pid;
}

bool TerminationRequested() { return TheChildGroups().terminating.load(); }

void UnregisterChildGroup(pid_t pgid) {
  ChildGroups& children = TheChildGroups();
  std::lock_guard<std::mutex> lock(children.mutex);
  children.groups.erase(pgid);
}

void SetUpChildGroup(posix_spawnattr_t* attributes) {
  posix_spawnattr_setpgroup(attributes, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigmask(attributes, &none);
  posix_spawnattr_setsigdefault(attributes, &defaults);
  short flags = 0;
  posix_spawnattr_getflags(attributes, &flags);
  posix_spawnattr_setflags(
      attributes, short(flags | POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                        POSIX_SPAWN_SETSIGDEF));
}

}  // namespace chess
