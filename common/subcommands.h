// Programs with subcommands (arena run|summary|..., tuner extract|texel|...):
// each subcommand takes only its own flags, a flag it does not use is an
// error before anything runs, and `PROGRAM SUBCOMMAND --help` lists its flags.
#ifndef COMMON_SUBCOMMANDS_H_
#define COMMON_SUBCOMMANDS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace chess {

struct Subcommand {
  std::string name;
  std::string usage;               // one line: the operands
  std::vector<std::string> flags;  // the absl flags it reads
  // Runs it on the operands after its name; returns the exit code.
  std::function<int(const std::vector<std::string>& operands)> run;
  // Whether words with one dash are operands (fastchess's `-engine ...`):
  // only words with two are flags.
  bool single_dash_operands = false;
};

// A program made of subcommands, and how a command line picks one.
struct SubcommandProgram {
  std::string name;  // as in its usage: "arena"
  std::vector<Subcommand> subcommands;
  // What runs when the first operand names no subcommand ("": an error that
  // lists them).
  std::string default_subcommand;
  // The subcommand a command line names by its shape rather than by a word
  // (arena: fastchess's options); null, or "" returned: none.
  std::function<std::string(const std::vector<std::string>& words)>
      chosen_by_shape;
  // One line after the usage in --help: what its exit codes mean.
  std::string exit_codes;
};

// The whole of a program's main: picks the subcommand, answers --help with
// its flags, refuses a flag of another subcommand (kExitBadInput), parses
// the flags, ends child processes on SIGTERM and SIGINT, keeps a dead pipe
// from killing the program, and returns the subcommand's exit code.
int RunSubcommand(const SubcommandProgram& program, int argc, char** argv);

// The error names the first flag on the command line (`--name`, `--name=v`,
// `--noname`, one dash or two, up to a lone "--") that `sub` does not take.
absl::Status CheckSubcommandFlags(const std::vector<std::string>& args,
                                  const Subcommand& sub);

// Whether the command line asks for help (--help, -help, --helpfull, -h).
bool AsksForHelp(const std::vector<std::string>& args);

// "usage: PROGRAM SUB USAGE" and each flag with its help text and default.
std::string SubcommandHelp(const std::string& program, const Subcommand& sub);

}  // namespace chess

#endif  // COMMON_SUBCOMMANDS_H_
