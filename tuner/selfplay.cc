#include "tuner/selfplay.h"

#include <unistd.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "arena/log_reader.h"
#include "arena/match_outputs.h"
#include "arena/match_setup.h"
#include "arena/merge.h"
#include "arena/schedule.h"
#include "common/exit_code.h"
#include "common/files.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

// The match a request describes, with its engines inline: the same config
// whether this process plays it or the arena's shards do.
MatchConfig MatchConfigFor(const MatchRequest& r) {
  MatchConfig c;
  c.set_name(absl::StrCat(r.first_name, "-vs-", r.second_name));
  PlayerConfig* a = c.add_players();
  a->set_name(r.first_name);
  if (r.first_external) {
    *a->mutable_external() = *r.first_external;
  } else {
    *a->mutable_config() = r.first;
  }
  PlayerConfig* b = c.add_players();
  b->set_name(r.second_name);
  if (r.second_external) {
    *b->mutable_external() = *r.second_external;
  } else {
    *b->mutable_config() = r.second;
  }
  TimeControl tc;
  tc.set_nodes(r.nodes);
  if (r.soft_nodes > 0) tc.set_soft_nodes(r.soft_nodes);
  for (PlayerConfig* p : {a, b}) *p->mutable_time_control() = tc;
  *c.mutable_time_control() = tc;
  c.set_games(r.games + r.games % 2);
  c.set_seed(r.seed);
  c.mutable_openings()->set_order(Openings::SHUFFLED);
  if (r.random_plies > 0) {
    c.mutable_openings()->set_random_plies(r.random_plies);
    c.mutable_openings()->set_random_plies_per_game(r.random_plies_per_game);
  }
  Adjudication* adj = c.mutable_adjudication();
  if (r.adjudication) {
    *adj = *r.adjudication;
  } else {
    adj->set_resign_score_cp(1000);
    adj->set_resign_moves(4);
    adj->set_draw_moves(8);
    adj->set_draw_move_number(40);
    adj->set_max_moves(200);
  }
  if (r.sprt) {
    c.mutable_sprt()->set_elo0(r.elo0);
    c.mutable_sprt()->set_elo1(r.elo1);
  }
  return c;
}

// The match PlayInProcess plays: its config, openings, games and the book's
// fingerprint, which with the config names it in its log's header.
LoadedMatch LoadedMatchFor(const MatchRequest& r) {
  LoadedMatch match;
  match.config = MatchConfigFor(r);
  if (r.openings && !r.openings->empty()) {
    match.openings = *r.openings;
  } else {
    match.openings.push_back(Opening{Position::Start(), {}});
  }
  match.schedule = MakeSchedule(match.config, int(match.openings.size()));
  match.book_fingerprint = BookFingerprint(match.openings);
  return match;
}

}  // namespace

absl::StatusOr<MatchSummary> PlayMatch(const MatchRequest& r) {
  // What the arena checks of any match, before anything is played: the
  // request's players, limits and adjudication come from a user's config.
  if (absl::Status s = ValidateMatchShape(MatchConfigFor(r)); !s.ok()) return s;
  LoadedMatch match = LoadedMatchFor(r);
  if (r.venue.shards > 0 && r.openings && !r.openings->empty()) {
    // The shards read the book again.
    if (r.book_path.empty()) {
      return absl::InvalidArgumentError(
          "a match on Slurm needs the path of its opening book");
    }
    match.config.mutable_openings()->set_file(
        fs::absolute(r.book_path).string());
  }
  RunOptions options;
  options.output_dir = r.output_dir;
  options.concurrency = r.concurrency;
  options.drop_damaged = r.drop_damaged;
  options.progress = false;
  absl::StatusOr<MatchSummary> summary = PlayAnywhere(match, r.venue, options);
  // The cause's code stays, so that the tuner exits as the arena would have.
  if (!summary.ok()) {
    return absl::Status(summary.status().code(),
                        absl::StrCat("match in ", r.output_dir,
                                     " failed: ", summary.status().message()));
  }
  const int code = summary->exit_code();
  if (code == kExitBadInput || code == kExitIoError ||
      code == kExitEngineFailure) {
    return absl::Status(
        StatusCodeForExit(code),
        absl::StrCat("match in ", r.output_dir, " failed (exit ", code,
                     "): ", FormatSummary(*summary)));
  }
  return summary;
}

absl::Status CheckPlayedLog(const MatchRequest& r) {
  const std::string path = PlayedLogPath(r);
  absl::StatusOr<MatchHeader> header = ReadLogHeader(path);
  if (!header.ok()) return header.status();
  const LoadedMatch match = LoadedMatchFor(r);
  if (!SameMatch(*header, match.config, match.book_fingerprint)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ": holds games of a different match (the player, the book, the node "
        "limits, the adjudication or the seed changed)"));
  }
  return absl::OkStatus();
}

std::string PlayedLogPath(const MatchRequest& r) {
  return PlayedLogPath(r.output_dir, r.venue);
}

std::string DefaultArenaBinary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside =
        self.parent_path().parent_path() / "arena" / "arena";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return "arena";
}

}  // namespace chess
