#include "common/subcommands.h"

#include <signal.h>

#include <algorithm>
#include <iostream>

#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "common/exit_code.h"
#include "common/termination.h"

namespace chess {
namespace {

// The flag a command-line word sets, or "" for an operand.
std::string FlagName(absl::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return "";
  absl::ConsumePrefix(&arg, "-");
  absl::ConsumePrefix(&arg, "-");
  return std::string(arg.substr(0, arg.find('=')));
}

bool Takes(const Subcommand& sub, const std::string& flag) {
  return std::find(sub.flags.begin(), sub.flags.end(), flag) != sub.flags.end();
}

// Whether `word` goes to the flag parser: every flag-like word, but for a
// subcommand with one-dash operands only those with two dashes.
bool IsFlagWord(const Subcommand& sub, absl::string_view word) {
  return sub.single_dash_operands ? absl::StartsWith(word, "--")
                                  : !word.empty() && word[0] == '-';
}

const Subcommand* Find(const SubcommandProgram& program,
                       const std::string& name) {
  for (const Subcommand& sub : program.subcommands)
    if (sub.name == name) return &sub;
  return nullptr;
}

// The subcommand the words name: by their shape, else by the first operand,
// else the default; null when none.
const Subcommand* Choose(const SubcommandProgram& program,
                         const std::vector<std::string>& words) {
  if (program.chosen_by_shape) {
    if (const std::string name = program.chosen_by_shape(words); !name.empty())
      return Find(program, name);
  }
  for (const std::string& w : words) {
    if (w.empty() || w[0] == '-') continue;
    if (const Subcommand* sub = Find(program, w)) return sub;
    break;
  }
  return Find(program, program.default_subcommand);
}

// One line per subcommand, then the exit codes.
std::string Usage(const SubcommandProgram& program) {
  std::string usage;
  for (const Subcommand& sub : program.subcommands)
    absl::StrAppend(&usage, "  ", program.name, " ", sub.name, " ", sub.usage,
                    "\n");
  return absl::StrCat(usage, program.exit_codes);
}

// Runs a subcommand whose one-dash words are operands: only the words with
// two dashes go to the flag parser, and a leading word that names a
// subcommand is no operand.
int RunWithSingleDashOperands(const SubcommandProgram& program,
                              const Subcommand& sub, int argc, char** argv) {
  std::vector<char*> flags = {argv[0]};
  std::vector<std::string> operands;
  for (int i = 1; i < argc; ++i) {
    if (IsFlagWord(sub, argv[i])) {
      flags.push_back(argv[i]);
    } else if (!(operands.empty() && Find(program, argv[i]))) {
      operands.push_back(argv[i]);
    }
  }
  absl::ParseCommandLine(int(flags.size()), flags.data());
  return sub.run(operands);
}

}  // namespace

absl::Status CheckSubcommandFlags(const std::vector<std::string>& args,
                                  const Subcommand& sub) {
  for (const std::string& arg : args) {
    if (arg == "--") break;
    const std::string flag = FlagName(arg);
    if (flag.empty() || Takes(sub, flag)) continue;
    // --noflag turns a boolean off.
    if (absl::StartsWith(flag, "no") && Takes(sub, flag.substr(2))) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, ": not a flag of `", sub.name, "`",
        sub.flags.empty()
            ? " (it takes none)"
            : absl::StrCat(" (its flags: --", absl::StrJoin(sub.flags, ", --"),
                           ")")));
  }
  return absl::OkStatus();
}

bool AsksForHelp(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") break;
    const std::string flag = FlagName(arg);
    if (flag == "help" || flag == "helpfull" || flag == "h") return true;
  }
  return false;
}

std::string SubcommandHelp(const std::string& program, const Subcommand& sub) {
  std::string text =
      absl::StrCat("usage: ", program, " ", sub.name, " ", sub.usage, "\n");
  if (sub.flags.empty()) return text + "  (no flags)\n";
  for (const std::string& name : sub.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (!flag) continue;
    absl::StrAppend(
        &text, "  --", name, "  ", flag->Help(), " (default: ",
        flag->DefaultValue().empty() ? "\"\"" : flag->DefaultValue(), ")\n");
  }
  return text;
}

int RunSubcommand(const SubcommandProgram& program, int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  const Subcommand* sub = Choose(program, words);
  if (sub == nullptr) {
    if (AsksForHelp(words)) {
      std::cout << "usage:\n" << Usage(program) << "\n";
      return kExitOk;
    }
    std::cerr << "usage: " << program.name << " ";
    for (const Subcommand& s : program.subcommands)
      std::cerr << (&s == &program.subcommands[0] ? "" : "|") << s.name;
    std::cerr << " (see --help)\n";
    return kExitBadInput;
  }
  if (AsksForHelp(words)) {
    std::cout << SubcommandHelp(program.name, *sub);
    return kExitOk;
  }
  std::vector<std::string> flags;
  for (const std::string& w : words)
    if (IsFlagWord(*sub, w)) flags.push_back(w);
  if (absl::Status s = CheckSubcommandFlags(flags, *sub); !s.ok()) {
    std::cerr << s.message() << "\n";
    return kExitBadInput;
  }
  absl::SetProgramUsageMessage(Usage(program));
  EndChildrenOnTermination(program.name);
  // A dead engine's pipe must be an error to handle, not the program's end.
  ::signal(SIGPIPE, SIG_IGN);
  if (sub->single_dash_operands)
    return RunWithSingleDashOperands(program, *sub, argc, argv);
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  // The operands after the subcommand's name, which the default may omit.
  auto first = args.begin() + 1;
  if (first != args.end() && *first == sub->name) ++first;
  return sub->run(std::vector<std::string>(first, args.end()));
}

}  // namespace chess
