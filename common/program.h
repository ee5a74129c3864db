// Running another program (argv, never a shell) and reading what it printed:
// git for the arena's revision, sbatch and srun for Slurm, the arena for the
// tuner's cluster matches.
#ifndef COMMON_PROGRAM_H_
#define COMMON_PROGRAM_H_

#include <string>
#include <vector>

namespace chess {

struct ProgramOutput {
  std::string out;     // its standard output
  int exit_code = -1;  // -1: it could not be started; 128 + n: killed by n
};

// Runs `args` (args[0] looked up in PATH unless it holds a slash) with stdin
// from /dev/null and waits for it. Its stderr goes to ours when `show_errors`,
// else nowhere.
ProgramOutput RunProgram(std::vector<std::string> args,
                         bool show_errors = false);

}  // namespace chess

#endif  // COMMON_PROGRAM_H_
