#include "arena/pgn_out.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

constexpr char kLedger[] = "pgnout.appended";
// The files a match keeps in its output directory.
constexpr const char* kMatchFiles[] = {
    "games.log",   "games.pgn",        "match.textproto",
    "report.html", "result.textproto", kLedger,
};

// The games of a PGN text, each from its "[Event " tag to the next.
std::vector<std::string> SplitGames(const std::string& pgn) {
  std::vector<std::string> games;
  size_t start = pgn.find("[Event ");
  while (start != std::string::npos) {
    const size_t next = pgn.find("\n[Event ", start + 1);
    const size_t end = next == std::string::npos ? pgn.size() : next + 1;
    games.push_back(pgn.substr(start, end - start));
    start = next == std::string::npos ? next : next + 1;
  }
  return games;
}

std::string RoundTag(const std::string& game) {
  const size_t at = game.find("[Round \"");
  if (at == std::string::npos) return "";
  const size_t end = game.find('"', at + 8);
  return end == std::string::npos ? "" : game.substr(at + 8, end - at - 8);
}

absl::Status AppendToFile(const std::string& path, const std::string& text) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot open", path);
  absl::Status s = WriteAllToFd(fd, text, path);
  if (s.ok() && !SyncFd(fd)) s = ErrnoError("fsync failed", path);
  ::close(fd);
  return s;
}

}  // namespace

absl::Status CheckPgnOut(const std::string& pgn_out,
                         const std::string& output_dir,
                         const std::string& book) {
  std::error_code ec;
  if (fs::is_directory(pgn_out, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat("-pgnout file=", pgn_out, ": is a directory"));
  }
  for (const char* name : kMatchFiles) {
    if (SameFile(pgn_out, (fs::path(output_dir) / name).string())) {
      return absl::InvalidArgumentError(
          absl::StrCat("-pgnout file=", pgn_out, ": is the match's own ", name,
                       "; name a file outside what the match writes"));
    }
  }
  if (!book.empty() && SameFile(pgn_out, book)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-pgnout file=", pgn_out, ": is the opening book; name another file"));
  }
  return absl::OkStatus();
}

absl::Status AppendNewGames(const std::string& output_dir,
                            const std::string& pgn_out) {
  const std::string ledger = (fs::path(output_dir) / kLedger).string();
  const std::string target = fs::absolute(pgn_out).lexically_normal().string();
  std::set<std::string> appended;
  if (absl::StatusOr<std::string> text = ReadFile(ledger); text.ok()) {
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      std::pair<std::string, std::string> entry =
          absl::StrSplit(line, absl::MaxSplits('\t', 1));
      if (entry.first == target) appended.insert(entry.second);
    }
  }
  absl::StatusOr<std::string> pgn =
      ReadFile((fs::path(output_dir) / "games.pgn").string());
  if (!pgn.ok()) return pgn.status();
  std::string games, rounds;
  for (const std::string& game : SplitGames(*pgn)) {
    const std::string round = RoundTag(game);
    if (round.empty() || appended.count(round)) continue;
    absl::StrAppend(&games, game, absl::EndsWith(game, "\n\n") ? "" : "\n");
    absl::StrAppend(&rounds, target, "\t", round, "\n");
  }
  if (games.empty()) return absl::OkStatus();
  if (absl::Status s = AppendToFile(pgn_out, games); !s.ok()) return s;
  return AppendToFile(ledger, rounds);
}

}  // namespace chess
