#include "arena/standings.h"

#include <algorithm>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace chess {

std::map<std::string, double> AnchorRatings(const MatchConfig& config) {
  std::map<std::string, double> anchors;
  for (const PlayerConfig& p : config.players())
    if (p.has_anchor_elo()) anchors[p.name()] = p.anchor_elo();
  return anchors;
}

absl::StatusOr<std::map<std::string, double>> ParseAnchors(
    absl::string_view text) {
  std::map<std::string, double> anchors;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    const size_t eq = item.rfind('=');
    double elo = 0;
    if (eq == absl::string_view::npos || eq == 0 ||
        !absl::SimpleAtod(item.substr(eq + 1), &elo) || !IsAnchorElo(elo)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--anchors: \"", item, "\" is not NAME=ELO with ELO a number within ",
          "+-", kMaxAnchorElo));
    }
    anchors[std::string(item.substr(0, eq))] = elo;
  }
  return anchors;
}

absl::Status RateAgainstAnchors(const std::map<std::string, double>& anchors,
                                MatchSummary* summary) {
  std::vector<std::string> players;  // in order of first appearance
  for (const PairingSummary& p : summary->pairings())
    for (const std::string* name : {&p.first(), &p.second()})
      if (std::find(players.begin(), players.end(), *name) == players.end())
        players.push_back(*name);
  for (const auto& [name, elo] : anchors) {
    if (std::find(players.begin(), players.end(), name) == players.end())
      return absl::InvalidArgumentError(
          absl::StrCat("anchor \"", name, "\" is not a player of the match"));
  }
  summary->clear_anchor_elo();
  summary->clear_ratings();
  for (const auto& [name, elo] : anchors)
    (*summary->mutable_anchor_elo())[name] = elo;
  for (const std::string& player : players) {
    if (anchors.count(player)) continue;
    std::vector<AnchoredResults> results;
    for (const PairingSummary& p : summary->pairings()) {
      const bool first = p.first() == player;
      if (!first && p.second() != player) continue;
      const auto anchor = anchors.find(first ? p.second() : p.first());
      if (anchor == anchors.end()) continue;
      const Trinomial games{p.wins(), p.draws(), p.losses()};
      Pentanomial pairs;
      if (p.pentanomial_size() == 5) {
        pairs =
            Pentanomial{p.pentanomial(0), p.pentanomial(1), p.pentanomial(2),
                        p.pentanomial(3), p.pentanomial(4)};
      }
      results.push_back(AnchoredResults{anchor->second,
                                        first ? games : Mirrored(games),
                                        first ? pairs : Mirrored(pairs)});
    }
    if (results.empty()) continue;
    const RatingEstimate estimate = EstimateRating(results);
    PlayerRating* rating = summary->add_ratings();
    rating->set_player(player);
    rating->set_games(estimate.games);
    if (!estimate.measurable) continue;
    rating->set_elo(estimate.elo);
    if (estimate.lower) rating->set_elo_lower(*estimate.lower);
    if (estimate.upper) rating->set_elo_upper(*estimate.upper);
  }
  return absl::OkStatus();
}

std::string AnchorsText(const MatchSummary& summary) {
  std::vector<std::pair<double, std::string>> anchors;
  for (const auto& [name, elo] : summary.anchor_elo())
    anchors.push_back({elo, name});
  std::sort(anchors.begin(), anchors.end());
  std::vector<std::string> named;
  for (const auto& [elo, name] : anchors)
    named.push_back(absl::StrFormat("%s = %.0f", name, elo));
  return absl::StrJoin(named, ", ");
}

std::string RatingText(const PlayerRating& r) {
  if (!r.has_elo()) {
    return "not measurable yet (all won, all lost or without variance)";
  }
  // An interval's end that lies 2,000 beyond every anchor is infinite here.
  return absl::StrFormat(
      "%.0f, 95%% [%s, %s]", r.elo(),
      r.has_elo_lower() ? absl::StrFormat("%.0f", r.elo_lower()) : "-inf",
      r.has_elo_upper() ? absl::StrFormat("%.0f", r.elo_upper()) : "+inf");
}

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
      shard ? ShardSize(h.scheduled_games(), h.shard_index(), h.shard_count(),
                        GamesPerRound(h.config()))
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

namespace {

void AppendRatings(const MatchSummary& m, std::string* s) {
  if (m.ratings().empty()) return;
  absl::StrAppend(s, "Ratings (maximum likelihood; anchors ", AnchorsText(m),
                  "):\n");
  for (const PlayerRating& r : m.ratings()) {
    absl::StrAppend(s, "  ", r.player(), ": ", RatingText(r), " from ",
                    r.games(), " games against anchors\n");
  }
}

}  // namespace

std::string ClockScaleText(const MatchSummary& m) {
  return m.clock_scale_min() == m.clock_scale_max()
             ? absl::StrFormat("Clocks scaled to the machine: x%.2f",
                               m.clock_scale_min())
             : absl::StrFormat("Clocks scaled to each machine: x%.2f to x%.2f",
                               m.clock_scale_min(), m.clock_scale_max());
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
    if (m.unpaired()) {
      s += "  Statistics per game (trinomial): the games are unpaired, and "
           "pentanomial statistics need game pairs\n";
    } else {
      absl::StrAppendFormat(&s, "  Pentanomial [LL, LD, WL+DD, WD, WW]: [%s]\n",
                            absl::StrJoin(p.pentanomial(), ", "));
    }
    if (p.has_llr()) {
      absl::StrAppendFormat(&s, "  SPRT: LLR %.2f (%.2f, %.2f): %s\n", p.llr(),
                            p.llr_lower(), p.llr_upper(), p.sprt());
    }
  }
  AppendRatings(m, &s);
  std::vector<std::string> ends;
  for (const auto& [name, count] : m.terminations())
    ends.push_back(absl::StrCat(name, " ", count));
  std::sort(ends.begin(), ends.end());
  absl::StrAppend(&s, "Terminations: ", absl::StrJoin(ends, ", "), "\n");
  if (m.has_clock_scale_min()) s += ClockScaleText(m) + "\n";
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
