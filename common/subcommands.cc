#include "common/subcommands.h"

#include <algorithm>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

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

}  // namespace chess
