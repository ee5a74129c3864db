#include "arena/book_maker.h"

#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "arena/schedule.h"
#include "engine/movegen.h"
#include "engine/search.h"

namespace chess {
namespace {

int ScoreAfter(Engine& engine, const Position& pos, Move m) {
  Position child = pos;
  child.MakeMove(m);
  SearchLimits limits;
  limits.depth = 1;
  engine.NewGame();
  return -engine.Search(child, {}, limits).score;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> MakeBook(const EngineConfig& config,
                                                  const BookOptions& options,
                                                  std::ostream* log) {
  EngineConfig small = config;
  small.mutable_search()->set_hash_mb(1);
  small.mutable_search()->set_eval_noise_cp(0);
  Engine engine(small);
  std::mt19937_64 rng(Mix64(options.seed));
  std::set<Key> seen;
  std::vector<std::string> book;
  const int max_attempts = options.positions * 50;
  int attempts = 0;
  while (int(book.size()) < options.positions && attempts++ < max_attempts) {
    Position pos = Position::Start();
    bool alive = true;
    for (int ply = 0; ply < options.plies && alive; ++ply) {
      MoveList moves = LegalMoves(pos);
      if (moves.empty()) {
        alive = false;
        break;
      }
      std::vector<Move> candidates;
      if (options.candidate_margin_cp > 0) {
        std::vector<int> scores;
        int best = -kInfinity;
        for (Move m : moves) {
          scores.push_back(ScoreAfter(engine, pos, m));
          best = std::max(best, scores.back());
        }
        for (size_t i = 0; i < moves.size(); ++i) {
          if (scores[i] >= best - options.candidate_margin_cp)
            candidates.push_back(moves[i]);
        }
      } else {
        candidates.assign(moves.begin(), moves.end());
      }
      pos.MakeMove(candidates[rng() % candidates.size()]);
    }
    if (!alive || LegalMoves(pos).empty() || !seen.insert(pos.key()).second)
      continue;
    SearchLimits limits;
    limits.depth = options.check_depth;
    engine.NewGame();
    const SearchInfo info = engine.Search(pos, {}, limits);
    if (std::abs(info.score) > options.margin_cp) continue;
    book.push_back(pos.ToFen());
    if (log && book.size() % 100 == 0) *log << book.size() << " positions\n";
  }
  if (int(book.size()) < options.positions) {
    return absl::FailedPreconditionError(absl::StrCat(
        "only ", book.size(), " of ", options.positions, " positions after ",
        max_attempts, " attempts; widen --margin_cp or change --plies"));
  }
  return book;
}

}  // namespace chess
