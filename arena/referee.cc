#include "arena/referee.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "common/stopwatch.h"
#include "engine/notation.h"
#include "engine/syzygy.h"

namespace chess {
namespace {

bool HasClock(const TimeControl& tc) {
  return tc.base_ms() > 0 || tc.increment_ms() > 0;
}

// Tracks the score conditions for adjudication over consecutive moves.
class Adjudicator {
 public:
  explicit Adjudicator(const Adjudication& config) : config_(config) {}

  // `white_view_cp` is the mover's score turned to White's view; `full_move`
  // the number of the move just played. Returns the adjudicated result, or
  // kOngoing.
  GameRecord::Result Update(bool has_score, int mover_mate, int white_view_cp,
                            int full_move) {
    if (!has_score) {
      resign_run_ = draw_run_ = 0;
      return GameRecord::UNFINISHED;
    }
    const int cp = mover_mate != 0 ? (white_view_cp > 0 ? 100000 : -100000)
                                   : white_view_cp;
    if (config_.resign_score_cp() > 0) {
      const int side = cp >= config_.resign_score_cp()    ? 1
                       : cp <= -config_.resign_score_cp() ? -1
                                                          : 0;
      resign_run_ = side != 0 && side == resign_side_ ? resign_run_ + 1
                                                      : (side != 0 ? 1 : 0);
      resign_side_ = side;
      if (resign_run_ >= 2 * config_.resign_moves()) {
        return side > 0 ? GameRecord::WHITE_WINS : GameRecord::BLACK_WINS;
      }
    }
    if (config_.draw_moves() > 0) {
      const bool quiet =
          mover_mate == 0 && std::abs(cp) <= config_.draw_score_cp();
      draw_run_ = quiet ? draw_run_ + 1 : 0;
      if (full_move >= config_.draw_move_number() &&
          draw_run_ >= 2 * config_.draw_moves()) {
        return GameRecord::DRAW;
      }
    }
    return GameRecord::UNFINISHED;
  }

 private:
  const Adjudication& config_;
  int resign_run_ = 0, resign_side_ = 0, draw_run_ = 0;
};

GameRecord::Termination FromRules(Termination t) {
  switch (t) {
    case Termination::kCheckmate:
      return GameRecord::CHECKMATE;
    case Termination::kStalemate:
      return GameRecord::STALEMATE;
    case Termination::kThreefoldRepetition:
      return GameRecord::THREEFOLD_REPETITION;
    case Termination::kFiftyMoveRule:
      return GameRecord::FIFTY_MOVE_RULE;
    case Termination::kInsufficientMaterial:
      return GameRecord::INSUFFICIENT_MATERIAL;
    default:
      return GameRecord::NONE;
  }
}

// The tables' verdict on the position a move reached, as the adjudication
// asks for it; UNFINISHED when there is none or it is not to be used.
GameRecord::Result TablebaseVerdict(const Position& pos,
                                    const Adjudication& adjudication) {
  if (adjudication.tb_path().empty() ||
      !syzygy::Probeable(
          pos, adjudication.tb_pieces() > 0 ? adjudication.tb_pieces() : 64)) {
    return GameRecord::UNFINISHED;
  }
  const std::optional<syzygy::Wdl> wdl = syzygy::ProbeWdl(pos);
  if (!wdl) return GameRecord::UNFINISHED;
  const int value =
      int(syzygy::WithRule50(*wdl, !adjudication.tb_ignore_50_move_rule()));
  const bool decisive = value != 0;
  const Adjudication::TbResults wanted = adjudication.tb_adjudicate();
  if ((decisive && wanted == Adjudication::DRAW) ||
      (!decisive && wanted == Adjudication::WIN_LOSS)) {
    return GameRecord::UNFINISHED;
  }
  if (!decisive) return GameRecord::DRAW;
  const bool white_wins = (value > 0) == (pos.side_to_move() == kWhite);
  return white_wins ? GameRecord::WHITE_WINS : GameRecord::BLACK_WINS;
}

const char* ResultWords(GameRecord::Result result) {
  return result == GameRecord::WHITE_WINS   ? "White wins"
         : result == GameRecord::BLACK_WINS ? "Black wins"
                                            : "a draw";
}

void Finish(GameRecord* record, GameRecord::Result result,
            GameRecord::Termination termination, std::string reason) {
  record->set_result(result);
  record->set_termination(termination);
  record->set_reason(std::move(reason));
}

}  // namespace

void PlayGame(const Opening& opening, Seat white, Seat black,
              const Adjudication& adjudication, GameRecord* record) {
  record->set_white(white.name);
  record->set_black(black.name);
  if (opening.start.chess960()) record->set_chess960(true);
  record->set_book_fen(opening.start.ToFen());
  for (Move m : opening.moves) record->add_opening_moves(ToUci(m));
  Game game = opening.ToGame();
  record->set_opening_fen(game.position().ToFen());

  Seat* seats[2] = {&white, &black};
  for (Color c : {kWhite, kBlack}) {
    // Each side its own stream, so that identical configs still play different
    // moves.
    seats[c]->player->SetGameSeed(record->seed() * 2 + uint64_t(c));
    if (absl::Status s = seats[c]->player->NewGame(); !s.ok()) {
      Finish(record,
             c == kWhite ? GameRecord::BLACK_WINS : GameRecord::WHITE_WINS,
             GameRecord::ENGINE_START_FAILURE,
             absl::StrCat(seats[c]->name, ": ", s.message()));
      return;
    }
  }
  int64_t clock_ms[2] = {white.time_control.base_ms(),
                         black.time_control.base_ms()};
  int moves_made[2] = {0, 0};  // of each side, for moves/time clocks
  Adjudicator adjudicator(adjudication);
  if (!adjudication.tb_path().empty()) {
    // Validated: the directories exist. The tables every game of the match
    // shares are loaded once; this only compares paths.
    syzygy::Load(adjudication.tb_path()).IgnoreError();
  }
  const int start_ply = int(opening.moves.size());

  while (true) {
    const Position& pos = game.position();
    if (const Outcome outcome = game.GetOutcome();
        outcome.result != GameResult::kOngoing) {
      const auto result =
          outcome.result == GameResult::kWhiteWins   ? GameRecord::WHITE_WINS
          : outcome.result == GameResult::kBlackWins ? GameRecord::BLACK_WINS
                                                     : GameRecord::DRAW;
      Finish(record, result, FromRules(outcome.termination), "");
      return;
    }
    if (adjudication.max_moves() > 0 &&
        int(game.moves().size()) - start_ply >= 2 * adjudication.max_moves()) {
      Finish(record, GameRecord::DRAW, GameRecord::MAX_MOVES, "");
      return;
    }
    const Color us = pos.side_to_move();
    Seat& seat = *seats[us];
    const TimeControl& tc = seat.time_control;
    const auto loses =
        us == kWhite ? GameRecord::BLACK_WINS : GameRecord::WHITE_WINS;

    SearchLimits limits;
    limits.depth = tc.depth();
    limits.nodes = uint64_t(tc.nodes());
    limits.soft_nodes = uint64_t(tc.soft_nodes());
    limits.movetime_ms = tc.movetime_ms();
    int64_t timeout_ms = seat.external ? seat.move_timeout_ms : 0;
    if (HasClock(tc)) {
      // Each player sees its own clock and its opponent's, as a GUI would send
      // them.
      for (Color c : {kWhite, kBlack}) {
        limits.time_left_ms[c] = clock_ms[c];
        limits.increment_ms[c] = seats[c]->time_control.increment_ms();
      }
      if (tc.moves() > 0)
        limits.moves_to_go = tc.moves() - moves_made[us] % tc.moves();
      if (seat.external) timeout_ms = clock_ms[us] + tc.margin_ms() + 1;
    } else if (tc.movetime_ms() > 0 && seat.external) {
      timeout_ms = tc.movetime_ms() + tc.margin_ms() + 5000;
    }

    const int64_t started = SteadyNowMs();
    const Stopwatch move_time;
    absl::StatusOr<MoveReply> reply = seat.player->Go(game, limits, timeout_ms);
    const int64_t used_ms = SteadyNowMs() - started;
    const int64_t used_us = move_time.Microseconds();
    if (!reply.ok()) {
      const bool timed_out = absl::IsDeadlineExceeded(reply.status());
      Finish(record, loses,
             timed_out ? (HasClock(tc) ? GameRecord::TIME_FORFEIT
                                       : GameRecord::ENGINE_TIMEOUT)
                       : GameRecord::ENGINE_CRASH,
             absl::StrCat(seat.name, ": ", reply.status().message()));
      return;
    }
    if (HasClock(tc)) {
      if (used_ms > clock_ms[us] + tc.margin_ms()) {
        Finish(record, loses, GameRecord::TIME_FORFEIT,
               absl::StrCat(seat.name, " used ", used_ms, " ms with ",
                            clock_ms[us], " ms left"));
        return;
      }
      clock_ms[us] += tc.increment_ms() - used_ms;
      if (clock_ms[us] < 0) clock_ms[us] = 0;  // within the margin
      // A period's last move done: the next period's time.
      if (tc.moves() > 0 && ++moves_made[us] % tc.moves() == 0)
        clock_ms[us] += tc.base_ms();
    }
    absl::StatusOr<Move> move = ParseUci(pos, reply->move);
    if (!move.ok()) {
      Finish(record, loses, GameRecord::ILLEGAL_MOVE,
             absl::StrCat(
                 seat.name, " played \"", reply->move, "\" in ", pos.ToFen(),
                 reply->notes.empty() ? "" : "; it said: ", reply->notes,
                 "; last lines: ", seat.player->Transcript()));
      return;
    }
    MoveRecord* m = record->add_moves();
    m->set_uci(reply->move);
    if (reply->has_score) {
      if (reply->mate != 0)
        m->set_mate(reply->mate);
      else
        m->set_score_cp(reply->score_cp);
    }
    m->set_depth(reply->depth);
    m->set_seldepth(reply->seldepth);
    m->set_nodes(int64_t(reply->nodes));
    m->set_time_ms(used_ms);
    m->set_time_us(used_us);
    const int full_move = pos.fullmove_number();
    game.Play(*move);  // `pos` now refers to the new position
    if (game.GetOutcome().result == GameResult::kOngoing) {
      if (const GameRecord::Result verdict =
              TablebaseVerdict(game.position(), adjudication);
          verdict != GameRecord::UNFINISHED) {
        Finish(record, verdict, GameRecord::ADJUDICATED_TABLEBASE,
               absl::StrCat("Syzygy tablebases: ", ResultWords(verdict)));
        return;
      }
    }

    const int white_view =
        (us == kWhite ? 1 : -1) *
        (reply->mate != 0 ? (reply->mate > 0 ? 1 : -1) : reply->score_cp);
    const GameRecord::Result adjudicated = adjudicator.Update(
        reply->has_score, reply->mate, white_view, full_move);
    if (adjudicated != GameRecord::UNFINISHED &&
        game.GetOutcome().result == GameResult::kOngoing) {
      Finish(record, adjudicated,
             adjudicated == GameRecord::DRAW ? GameRecord::ADJUDICATED_DRAW
                                             : GameRecord::ADJUDICATED_RESIGN,
             "");
      return;
    }
  }
}

}  // namespace chess
