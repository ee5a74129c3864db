// Prints FENs reached by seeded random play, for building perft suites:
//   random_fens --count=80 --seed=1
// Moves are drawn with a bias toward captures and promotions so that the
// positions cover endgames, promotions and odd castling rights, not only
// openings.
#include <cstdio>
#include <random>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "engine/game.h"
#include "engine/movegen.h"

ABSL_FLAG(int, count, 80, "number of positions");
ABSL_FLAG(uint64_t, seed, 1, "random seed");
ABSL_FLAG(int, max_plies, 160,
          "longest random game before the position is taken");

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  int printed = 0;
  while (printed < absl::GetFlag(FLAGS_count)) {
    chess::Game game;
    int plies = std::uniform_int_distribution<int>(
        4, absl::GetFlag(FLAGS_max_plies))(rng);
    bool finished = false;
    for (int i = 0; i < plies && !finished; ++i) {
      chess::MoveList moves = chess::LegalMoves(game.position());
      if (moves.empty()) {
        finished = true;
        break;
      }
      chess::MoveList noisy;
      for (chess::Move m : moves) {
        if (m.is_capture() || m.is_promotion() || m.is_castle()) noisy.Add(m);
      }
      const chess::MoveList& pool =
          !noisy.empty() && std::bernoulli_distribution(0.5)(rng) ? noisy
                                                                  : moves;
      game.Play(
          pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)]);
      finished = game.GetOutcome().result != chess::GameResult::kOngoing;
    }
    if (finished) continue;
    absl::PrintF("%s\n", game.position().ToFen());
    ++printed;
  }
  return 0;
}
