#include "tuner/selfplay.h"

#include "absl/strings/str_cat.h"
#include "arena/schedule.h"

namespace chess {

absl::StatusOr<MatchSummary> PlayMatch(const MatchRequest& r) {
  LoadedMatch match;
  MatchConfig& c = match.config;
  c.set_name(absl::StrCat(r.first_name, "-vs-", r.second_name));
  PlayerConfig* a = c.add_players();
  a->set_name(r.first_name);
  *a->mutable_config() = r.first;
  PlayerConfig* b = c.add_players();
  b->set_name(r.second_name);
  *b->mutable_config() = r.second;
  for (PlayerConfig* p : {a, b}) p->mutable_time_control()->set_nodes(r.nodes);
  c.mutable_time_control()->set_nodes(r.nodes);
  c.set_games(r.games + r.games % 2);
  c.set_seed(r.seed);
  c.mutable_openings()->set_order(Openings::SHUFFLED);
  Adjudication* adj = c.mutable_adjudication();
  adj->set_resign_score_cp(1000);
  adj->set_resign_moves(4);
  adj->set_draw_moves(8);
  adj->set_draw_move_number(40);
  adj->set_max_moves(200);
  if (r.sprt) {
    c.mutable_sprt()->set_elo0(r.elo0);
    c.mutable_sprt()->set_elo1(r.elo1);
  }
  if (r.openings && !r.openings->empty()) {
    match.openings = *r.openings;
  } else {
    match.openings.push_back(Opening{Position::Start(), {}});
  }
  match.schedule = MakeSchedule(c, int(match.openings.size()));
  match.book_fingerprint = BookFingerprint(match.openings);
  RunOptions options;
  options.output_dir = r.output_dir;
  options.concurrency = r.concurrency;
  options.progress = false;
  absl::StatusOr<MatchSummary> summary = PlayMatchForSummary(match, options);
  if (!summary.ok()) {
    return absl::InternalError(absl::StrCat("match in ", r.output_dir,
                                            " failed: ",
                                            summary.status().message()));
  }
  const int code = summary->exit_code();
  if (code == kExitBadInput || code == kExitIoError ||
      code == kExitEngineFailure) {
    return absl::InternalError(absl::StrCat("match in ", r.output_dir,
                                            " failed (exit ", code,
                                            "): ", FormatSummary(*summary)));
  }
  return summary;
}

}  // namespace chess
