// Standings of a match from its games, in any order: per pairing W-D-L, Elo
// from game pairs, the SPRT's LLR (and its verdict where it first crossed a
// bound, which does depend on the order), terminations; and the summary that
// `arena` prints and writes to result.textproto.
#ifndef ARENA_STANDINGS_H_
#define ARENA_STANDINGS_H_

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "arena/log_reader.h"
#include "arena/match_config.pb.h"
#include "arena/match_log.pb.h"
#include "arena/schedule.h"
#include "arena/stats.h"
#include "common/exit_code.h"

namespace chess {

inline double FirstPlayerPoints(const GameRecord& g, const std::string& first) {
  if (g.result() == GameRecord::DRAW) return 0.5;
  const bool white_won = g.result() == GameRecord::WHITE_WINS;
  return (g.white() == first) == white_won ? 1.0 : 0.0;
}

// The players of `config` that have an anchor_elo, with it.
std::map<std::string, double> AnchorRatings(const MatchConfig& config);

// "NAME=ELO,NAME=ELO": anchors given on the command line.
absl::StatusOr<std::map<std::string, double>> ParseAnchors(
    absl::string_view text);

// Makes `anchors` the summary's anchors and rates, from its pairings, every
// other player that played one (EstimateRating). An anchor that names no
// player of the summary is an error, and the summary is left as it was.
absl::Status RateAgainstAnchors(const std::map<std::string, double>& anchors,
                                MatchSummary* summary);

// "sf-2200 = 2200, sf-2400 = 2400": the summary's anchors, lowest first.
std::string AnchorsText(const MatchSummary& summary);

// "2131, 95% [1919, 2268]", or why there is no rating yet.
std::string RatingText(const PlayerRating& rating);

class Standings {
 public:
  explicit Standings(const MatchConfig& config)
      : config_(config), pairings_(Pairings(config)) {
    per_pairing_.resize(pairings_.size());
    if (config_.has_sprt()) {
      for (Entry& e : per_pairing_)
        e.llr = config_.unpaired() ? SprtLlr(Sprt(), e.tri)
                                   : SprtLlr(Sprt(), e.penta);
    }
  }

  void Add(const GameRecord& g) {
    Entry& e = per_pairing_[g.pairing()];
    const double points = FirstPlayerPoints(
        g, config_.players(pairings_[g.pairing()].first).name());
    if (points == 1)
      ++e.tri.wins;
    else if (points == 0)
      ++e.tri.losses;
    else
      ++e.tri.draws;
    if (config_.unpaired()) {
      UpdateSprt(e, e.tri);
    } else {
      auto& pair = e.open_pairs[g.round()];
      pair.push_back(points);
      if (pair.size() == 2) {
        const int half_points = int(2 * (pair[0] + pair[1]) + 0.5);  // 0..4
        int* bucket[] = {&e.penta.ll, &e.penta.ld, &e.penta.wl_dd, &e.penta.wd,
                         &e.penta.ww};
        ++*bucket[half_points];
        e.open_pairs.erase(g.round());
        UpdateSprt(e, e.penta);
      }
    }
    ++terminations_[GameRecord::Termination_Name(g.termination())];
    ++played_;
    if (g.has_clock_scale()) {
      clock_scale_min_ = std::min(clock_scale_min_, g.clock_scale());
      clock_scale_max_ = std::max(clock_scale_max_, g.clock_scale());
    }
    if (g.termination() == GameRecord::ENGINE_START_FAILURE)
      engine_failed_ = true;
  }

  PairingSummary Summary(int p) const {
    const Entry& e = per_pairing_[p];
    PairingSummary s;
    s.set_first(config_.players(pairings_[p].first).name());
    s.set_second(config_.players(pairings_[p].second).name());
    s.set_games(e.tri.games());
    s.set_wins(e.tri.wins);
    s.set_draws(e.tri.draws);
    s.set_losses(e.tri.losses);
    const EloEstimate elo =
        e.penta.pairs() > 0 ? EstimateElo(e.penta) : EstimateElo(e.tri);
    s.set_score(EstimateElo(e.tri).score);
    if (elo.measurable) {
      s.set_elo(elo.elo);
      s.set_elo_error(elo.elo_error);
      s.set_nelo(elo.nelo);
      s.set_nelo_error(elo.nelo_error);
      s.set_los(elo.los);
    }
    for (int c : e.penta.counts()) s.add_pentanomial(c);
    if (config_.has_sprt()) {
      const SprtParams sprt = Sprt();
      s.set_llr(e.llr);
      s.set_llr_lower(sprt.lower_bound());
      s.set_llr_upper(sprt.upper_bound());
      // Games finished after the crossing may have moved the LLR since.
      const std::string after =
          e.decided_after_games == e.tri.games()
              ? ""
              : absl::StrCat(" (its bound crossed after ",
                             e.decided_after_games, " games)");
      switch (e.decision) {
        case SprtDecision::kAcceptH0:
          s.set_sprt(absl::StrCat("H0 accepted", after));
          s.set_sprt_verdict(SPRT_ACCEPT_H0);
          break;
        case SprtDecision::kAcceptH1:
          s.set_sprt(absl::StrCat("H1 accepted", after));
          s.set_sprt_verdict(SPRT_ACCEPT_H1);
          break;
        case SprtDecision::kContinue:
          s.set_sprt("inconclusive");
          s.set_sprt_verdict(SPRT_CONTINUE);
          break;
      }
    }
    return s;
  }

  SprtDecision Decision() const {
    if (!config_.has_sprt() || per_pairing_.empty())
      return SprtDecision::kContinue;
    return per_pairing_[0].decision;
  }

  MatchSummary Build(int scheduled) const {
    MatchSummary m;
    m.set_name(config_.name());
    m.set_scheduled_games(scheduled);
    m.set_played_games(played_);
    if (config_.unpaired()) m.set_unpaired(true);
    for (size_t p = 0; p < pairings_.size(); ++p)
      *m.add_pairings() = Summary(int(p));
    for (const auto& [name, count] : terminations_)
      (*m.mutable_terminations())[name] = count;
    if (clock_scale_min_ <= clock_scale_max_) {
      m.set_clock_scale_min(clock_scale_min_);
      m.set_clock_scale_max(clock_scale_max_);
    }
    // A config's anchors are its own players: no error to report.
    RateAgainstAnchors(AnchorRatings(config_), &m).IgnoreError();
    return m;
  }

  bool engine_failed() const { return engine_failed_; }
  int played() const { return played_; }

 private:
  struct Entry;
  // Unpaired matches test per game (trinomial), paired ones per pair.
  template <typename Counts>
  void UpdateSprt(Entry& e, const Counts& counts) {
    if (!config_.has_sprt()) return;
    e.llr = SprtLlr(Sprt(), counts);
    // The test stops where the LLR first crosses a bound: the games already
    // under way when it did still count towards the Elo, but cannot take the
    // verdict back.
    if (e.decision == SprtDecision::kContinue) {
      e.decision = SprtDecide(Sprt(), e.llr);
      if (e.decision != SprtDecision::kContinue)
        e.decided_after_games = e.tri.games();
    }
  }
  struct Entry {
    Trinomial tri;
    Pentanomial penta;
    std::map<int, std::vector<double>> open_pairs;  // round -> points so far
    double llr = 0;  // of `penta`, kept current by Add
    // The SPRT's verdict where the LLR first crossed a bound, in the order
    // the games were added (a log's order is the order they finished).
    SprtDecision decision = SprtDecision::kContinue;
    int decided_after_games = 0;
  };
  SprtParams Sprt() const {
    const SprtConfig& c = config_.sprt();
    return SprtParams{c.elo0(), c.elo1(), c.alpha(), c.beta(),
                      c.model() == SprtConfig::LOGISTIC
                          ? SprtModel::kLogistic
                          : SprtModel::kNormalized};
  }
  MatchConfig config_;
  std::vector<std::pair<int, int>> pairings_;
  double clock_scale_min_ = std::numeric_limits<double>::infinity();
  double clock_scale_max_ = -std::numeric_limits<double>::infinity();
  std::vector<Entry> per_pairing_;
  std::map<std::string, int> terminations_;
  int played_ = 0;
  bool engine_failed_ = false;
};

// The verdict line for a summary and the exit code it comes with.
std::string SummaryVerdict(const MatchSummary& summary, int exit_code);

// "NAME (shard I/N)": a shard's standings are its own games'.
void NameShard(int index, int count, MatchSummary* summary);

// Standings recomputed from a log already read; it must not be empty. A log
// with damaged records gets exit code 2.
MatchSummary SummarizeLog(const LogContents& log);

// The same for a log read by ScanLog, its games added as they came to
// `standings`, which was built on StandingsConfig(log.header).
MatchConfig StandingsConfig(const MatchHeader& header);
MatchSummary SummarizeScan(const LogScan& log, const Standings& standings);

// The report that `arena` prints.
std::string FormatSummary(const MatchSummary& summary);
// "Clocks scaled to each machine: x0.97 to x2.21" (summary.clock_scale_min
// and max).
std::string ClockScaleText(const MatchSummary& summary);

}  // namespace chess

#endif  // ARENA_STANDINGS_H_
