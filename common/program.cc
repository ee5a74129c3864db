#include "common/program.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "common/termination.h"

extern char** environ;

namespace chess {

ProgramOutput RunProgram(std::vector<std::string> args, bool show_errors) {
  ProgramOutput result;
  if (args.empty()) return result;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  if (!show_errors) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                     O_WRONLY, 0);
  }
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Its own process group, which a termination of ours ends.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  SetUpChildGroup(&attributes);
  int error = 0;
  const pid_t pid = SpawnChildGroup([&] {
    pid_t child = -1;
    error = ::posix_spawnp(&child, argv[0], &actions, &attributes, argv.data(),
                           environ);
    return error == 0 ? child : -1;
  });
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(out[1]);
  if (pid > 0) {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(out[0], buffer, sizeof buffer)) > 0 ||
           (n < 0 && errno == EINTR)) {
      if (n > 0) result.out.append(buffer, size_t(n));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    UnregisterChildGroup(pid);
    result.exit_code = WIFEXITED(status)     ? WEXITSTATUS(status)
                       : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                             : 128;
  }
  ::close(out[0]);
  return result;
}

}  // namespace chess
