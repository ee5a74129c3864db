#include "arena/standings.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace chess {

std::string SummaryVerdict(const MatchSummary& s, int exit_code) {
  switch (exit_code) {
    case kExitH0:
      return "SPRT accepted H0";
    case kExitEngineFailure:
      return "an engine could not be started";
    case kExitIoError:
      return "an output file could not be written";
    case kExitBadInput:
      return "the log is damaged: the standings count only its intact games";
    default:
      break;
  }
  if (!s.pairings().empty() && s.pairings(0).sprt_verdict() == SPRT_ACCEPT_H1)
    return "SPRT accepted H1";
  return s.played_games() >= s.scheduled_games() ? "match complete"
                                                 : "match incomplete";
}

void NameShard(int index, int count, MatchSummary* summary) {
  summary->set_name(
      absl::StrCat(summary->name().empty() ? "(unnamed)" : summary->name(),
                   " (shard ", index, "/", count, ")"));
}

MatchConfig StandingsConfig(const MatchHeader& header) {
  MatchConfig config = header.config();
  // A shard's SPRT is decided on the merge of all shards.
  if (header.shard_count() > 0) config.clear_sprt();
  return config;
}

MatchSummary SummarizeLog(const LogContents& log) {
  const MatchConfig config = StandingsConfig(log.header);
  Standings standings(config);
  for (const GameRecord& g : log.games) standings.Add(g);
  return SummarizeScan(log, standings);
}

MatchSummary SummarizeScan(const LogScan& log, const Standings& standings) {
  const MatchHeader& h = log.header;
  const bool shard = h.shard_count() > 0;
  MatchSummary summary = standings.Build(
      shard ? ShardSize(h.scheduled_games(), h.shard_index(), h.shard_count())
            : h.scheduled_games());
  if (shard) NameShard(h.shard_index(), h.shard_count(), &summary);
  if (log.duplicates > 0) summary.set_duplicate_records(log.duplicates);
  for (const std::string& d : log.damage) summary.add_damaged_records(d);
  int exit_code = !log.damage.empty()         ? kExitBadInput
                  : standings.engine_failed() ? kExitEngineFailure
                  : standings.Decision() == SprtDecision::kAcceptH0 ? kExitH0
                                                                    : kExitOk;
  summary.set_exit_code(exit_code);
  summary.set_verdict(SummaryVerdict(summary, exit_code));
  return summary;
}

std::string FormatSummary(const MatchSummary& m) {
  std::string s = absl::StrFormat("Match %s: %d of %d games played\n",
                                  m.name().empty() ? "(unnamed)" : m.name(),
                                  m.played_games(), m.scheduled_games());
  for (const PairingSummary& p : m.pairings()) {
    const int games = std::max(1, p.games());
    absl::StrAppendFormat(&s, "%s vs %s\n", p.first(), p.second());
    absl::StrAppendFormat(
        &s, "  Games: %d  W-D-L: %d-%d-%d  Score: %.1f%%  Draws: %.1f%%\n",
        p.games(), p.wins(), p.draws(), p.losses(), 100 * p.score(),
        100.0 * p.draws() / games);
    if (!p.has_elo()) {
      absl::StrAppendFormat(
          &s,
          "  Elo: not measurable yet (%s: the results do not vary, so no "
          "interval exists)\n",
          p.games() == 0 ? "no games"
                         : absl::StrFormat("a %.1f%% score", 100 * p.score()));
    } else {
      absl::StrAppendFormat(
          &s, "  Elo: %+.1f +- %.1f (95%%)  nElo: %+.1f +- %.1f  LOS: %.1f%%\n",
          p.elo(), p.elo_error(), p.nelo(), p.nelo_error(), 100 * p.los());
    }
    absl::StrAppendFormat(&s, "  Pentanomial [LL, LD, WL+DD, WD, WW]: [%s]\n",
                          absl::StrJoin(p.pentanomial(), ", "));
    if (p.has_llr()) {
      absl::StrAppendFormat(&s, "  SPRT: LLR %.2f (%.2f, %.2f): %s\n", p.llr(),
                            p.llr_lower(), p.llr_upper(), p.sprt());
    }
  }
  std::vector<std::string> ends;
  for (const auto& [name, count] : m.terminations())
    ends.push_back(absl::StrCat(name, " ", count));
  std::sort(ends.begin(), ends.end());
  absl::StrAppend(&s, "Terminations: ", absl::StrJoin(ends, ", "), "\n");
  for (const std::string& d : m.damaged_records())
    absl::StrAppend(&s, "DAMAGED: ", d, "\n");
  if (m.duplicate_records() > 0) {
    absl::StrAppendFormat(&s, "WARNING: %d duplicate game records ignored\n",
                          m.duplicate_records());
  }
  absl::StrAppendFormat(&s, "Result: %s (exit code %d)\n", m.verdict(),
                        m.exit_code());
  return s;
}

}  // namespace chess
