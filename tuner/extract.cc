#include "tuner/extract.h"

#include <algorithm>
#include <random>

#include "absl/strings/str_cat.h"
#include "arena/match_outputs.h"
#include "common/random.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/search.h"

namespace chess {
namespace {

void Drop(TrainingSink* out, const std::string& reason, int64_t n = 1) {
  out->Drop(reason, n);
}

}  // namespace

bool ResultIsMeaningful(const GameRecord& g) {
  switch (g.termination()) {
    case GameRecord::TIME_FORFEIT:
    case GameRecord::ILLEGAL_MOVE:
    case GameRecord::ENGINE_CRASH:
    case GameRecord::ENGINE_TIMEOUT:
    case GameRecord::ENGINE_START_FAILURE:
      return false;  // the position did not decide these games
    default:
      return g.result() != GameRecord::UNFINISHED;
  }
}

float WhiteResult(GameRecord::Result r) {
  return r == GameRecord::WHITE_WINS   ? 1.0f
         : r == GameRecord::BLACK_WINS ? 0.0f
                                       : 0.5f;
}

absl::Status ExtractFromLog(const std::string& log_path,
                            const ExtractOptions& options, TrainingSink* out) {
  absl::StatusOr<MatchLog> log = ReadMatchLog(log_path);
  if (!log.ok()) return log.status();
  if (absl::Status s = out->AddSource(log_path); !s.ok()) return s;
  Engine engine(options.qsearch_config);
  std::mt19937_64 rng(options.seed);
  for (const GameRecord& g : log->games) {
    if (!ResultIsMeaningful(g)) {
      Drop(out, "game_without_meaningful_result", g.moves_size());
      continue;
    }
    int player_sign = 0;
    if (!options.player.empty()) {
      player_sign = g.white() == options.player   ? 1
                    : g.black() == options.player ? -1
                                                  : 0;
      if (player_sign == 0) {
        Drop(out, "player_not_in_game", g.moves_size());
        continue;
      }
    }
    Drop(out, "book_ply", g.opening_moves_size());
    absl::StatusOr<Position> start =
        Position::FromFen(g.opening_fen(), g.chess960());
    if (!start.ok())
      return absl::DataLossError(absl::StrCat(log_path, ": game ", g.index(),
                                              ": ", start.status().message()));
    Position pos = *start;
    std::vector<TrainingPosition> kept;
    for (int i = 0; i < g.moves_size(); ++i) {
      const MoveRecord& m = g.moves(i);
      const Position before = pos;
      absl::StatusOr<Move> move = ParseUci(pos, m.uci());
      if (!move.ok())
        return absl::DataLossError(absl::StrCat(log_path, ": game ", g.index(),
                                                ": ", move.status().message()));
      pos.MakeMove(*move);
      if (i < options.skip_plies) {
        Drop(out, "early_ply");
        continue;
      }
      if (before.InCheck()) {
        Drop(out, "in_check");
        continue;
      }
      if (m.mate() != 0) {
        Drop(out, "mate_score");
        continue;
      }
      Position quiet = before;
      for (Move pv_move : engine.QuiescenceSearch(before).pv)
        quiet.MakeMove(pv_move);
      if (quiet.InCheck() || LegalMoves(quiet).empty()) {
        Drop(out, "not_quiet_after_qsearch");
        continue;
      }
      TrainingPosition tp;
      tp.set_fen(quiet.ToFen());
      tp.set_result(WhiteResult(g.result()));
      if (player_sign != 0) tp.set_player_sign(player_sign);
      if (m.has_score_cp()) {
        tp.set_score_cp(before.side_to_move() == kWhite ? m.score_cp()
                                                        : -m.score_cp());
      }
      kept.push_back(std::move(tp));
    }
    if (options.max_per_game > 0 && int(kept.size()) > options.max_per_game) {
      SeededShuffle(kept, rng());
      Drop(out, "sampled_out", int64_t(kept.size()) - options.max_per_game);
      kept.resize(options.max_per_game);
    }
    for (TrainingPosition& tp : kept) {
      if (absl::Status s = out->Add(std::move(tp)); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace chess
