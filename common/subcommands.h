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
  std::function<int(const std::vector<char*>& operands)> run;
};

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
