// The engine: an object owning its configuration, evaluation tables,
// transposition table and all search state, so that many engines can search at
// once in one process.
#ifndef ENGINE_SEARCH_H_
#define ENGINE_SEARCH_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "common/stopwatch.h"
#include "engine/accumulator.h"
#include "engine/engine_config.pb.h"
#include "engine/eval_cache.h"
#include "engine/evaluate.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/network.h"
#include "engine/position.h"
#include "engine/syzygy.h"
#include "engine/tt.h"

namespace chess {

inline constexpr int kMaxPly = 128;

struct SearchLimits {
  int depth = 0;       // 0: no depth limit
  uint64_t nodes = 0;  // 0: no node limit
  // 0: none. Otherwise the search ends after the first iteration that completes
  // past this many nodes (`nodes` stays the hard cap): what data generation
  // uses, as every iteration it returns is a whole one.
  uint64_t soft_nodes = 0;
  int64_t movetime_ms = 0;
  // Clock of each side (index by Color); negative when not given.
  int64_t time_left_ms[2] = {-1, -1};
  int64_t increment_ms[2] = {0, 0};
  int moves_to_go = 0;
  // Search until Stop(); no limit applies.
  bool infinite = false;
  // Only these root moves (UCI "go searchmoves"); empty: all.
  std::vector<Move> search_moves;
};

// A principal variation and its score (MultiPV).
struct PvLine {
  int score = 0;
  std::vector<Move> pv;
};

// One report per completed iteration, and the final result.
struct SearchInfo {
  Move best_move;
  int depth = 0;
  int seldepth = 0;
  int score =
      0;  // centipawns from the side to move, or a mate score (see IsMateScore)
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  int hashfull = 0;
  uint64_t tb_hits = 0;  // tablebase probes that answered
  std::vector<Move> pv;
  // With MultiPV above 1: the best lines of the last completed iteration,
  // best first (lines[0] is score and pv); empty otherwise.
  std::vector<PvLine> lines;
};

inline bool IsMateScore(int score) { return std::abs(score) >= kMateBound; }
// Moves to mate, positive when the side to move mates (UCI "score mate N").
inline int MateInMoves(int score) {
  return score > 0 ? (kMateScore - score + 1) / 2 : -(kMateScore + score) / 2;
}

class Engine {
 public:
  using InfoCallback = std::function<void(const SearchInfo&)>;

  // `config` must have passed ValidateEngineConfig.
  explicit Engine(const EngineConfig& config);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const EngineConfig& config() const { return config_; }
  // The hash table's size: less than asked for when memory was short.
  size_t hash_mb_in_use() const { return tt_->megabytes(); }
  // Applies a new config (valid); keeps the table unless its size changed.
  void SetConfig(const EngineConfig& config);
  // Forget everything learnt in earlier games: table, history, killers,
  // counter moves.
  void NewGame();
  void set_move_overhead_ms(int64_t ms) { move_overhead_ms_ = ms; }

  // Searches `pos`; `history` holds the keys of the game's earlier positions
  // (oldest first), used for repetition draws. Always returns a legal move when
  // one exists.
  SearchInfo Search(const Position& pos, absl::Span<const Key> history,
                    const SearchLimits& limits,
                    const InfoCallback& on_iteration = {});
  SearchInfo Search(const Game& game, const SearchLimits& limits,
                    const InfoCallback& on_iteration = {});
  // Thread-safe: ends the current search as soon as possible. A Stop() that
  // arrives before the search has begun ends it too (it then returns a legal
  // move at once); the request is cleared when a search returns, or by
  // ClearStop() for a Stop() that came too late.
  void Stop() {
    stop_requested_.store(true, std::memory_order_relaxed);
    stop_.store(true, std::memory_order_relaxed);
  }
  void ClearStop() {
    stop_requested_.store(false, std::memory_order_relaxed);
    stop_.store(false, std::memory_order_relaxed);
  }
  // Pondering (UCI "go ponder"), called before Search(): the search's limits
  // do not apply and it does not return until PonderHit() or Stop(). Thread-
  // safe, as is PonderHit(): the opponent played the move the search assumed;
  // it goes on under its limits, their clock starting now.
  void BeginPonder() {
    ponderhit_at_us_.store(0, std::memory_order_relaxed);
    pondering_.store(true, std::memory_order_release);
  }
  void PonderHit() {
    ponderhit_at_us_.store(NowMicros(), std::memory_order_relaxed);
    pondering_.store(false, std::memory_order_release);
  }

  // The static evaluation the search uses (the linear evaluation plus the
  // network, noise included), from the side to move; kept in a cache. `ply`:
  // where the search stands, whose network sums it updates.
  int Evaluate(const Position& pos, int ply = 0);

  // A quiescence search alone (captures and promotions; evasions in check): its
  // score and principal variation, which the tuner follows to a quiet position.
  SearchInfo QuiescenceSearch(const Position& pos);

 private:
  // A helper thread's engine: `shared_tt` is the main engine's table.
  Engine(const EngineConfig& config,
         std::shared_ptr<TranspositionTable> shared_tt);
  // Lazy SMP: the helpers (threads - 1) search `pos` until StopHelpers().
  void StartHelpers(const Position& pos, absl::Span<const Key> history,
                    const SearchLimits& limits);
  void StopHelpers();
  // Nodes the running helpers have searched so far.
  uint64_t HelperNodes() const;
  int AlphaBeta(const Position& pos, int alpha, int beta, int depth, int ply,
                bool pv_node, bool allow_null);
  // The zero-window search at `beta` of `pos` without `excluded`, at half
  // `depth`: whether the table's move is singular.
  int SearchExcluding(const Position& pos, Move excluded, int beta, int depth,
                      int ply);
  int Minimax(const Position& pos, int depth, int ply);
  int Quiescence(const Position& pos, int alpha, int beta, int ply);
  // What a search of `child`, reached from `pos` by `m` at `ply`, reads of
  // its path: the key for repetitions, the move and piece for continuation
  // history.
  void RecordPathMove(const Position& pos, const Position& child, Move m,
                      int ply) {
    keys_[root_key_index_ + ply + 1] = child.key();
    path_moves_[ply] = m;
    path_pieces_[ply] = pos.piece_on(m.from());
  }
  int SearchRoot(const Position& pos, int depth, int previous_score);
  // The squares the side not to move attacks with its pawns; with its pawns
  // and minor pieces; with those and its rooks (order_threat_escapes); with
  // every piece (history_by_threats). Zero where no switch asks for them.
  struct Threats {
    Bitboard pawns = 0, minors = 0, rooks = 0, history = 0;
  };
  // `threats`: ThreatsFor(pos), for the quiet moves' order.
  void ScoreMoves(const Position& pos, const MoveList& moves, Move tt_move,
                  int ply, const Threats& threats, int* scores) const;
  // Whether ScoreMoves scores a capture that loses material below 0 (and
  // every other capture above).
  bool OrdersBySee() const {
    return params_.order_mvv_lva() && params_.see_ordering();
  }
  bool IsDraw(const Position& pos, int ply) const;
  // Whether a position since the last capture or pawn move occurred twice.
  bool HasRepeated(const Position& root) const;
  // The root moves a search considers (tablebase ranking, searchmoves);
  // root_moves_ empty: all legal moves.
  void ChooseRootMoves(const Position& pos, const SearchLimits& limits);
  // MultiPV: the best lines after the first at `depth`, each searched
  // without the first moves of those before; false when the search stopped.
  bool SearchOtherLines(const Position& pos, int depth,
                        std::vector<PvLine>* lines);
  // The moves searched at `ply`: root_moves_ at the root when set, less
  // excluded_root_moves_.
  MoveList MovesAt(const Position& pos, int ply) const;
  // The score of a tablebase value `ply` plies from the root.
  int TablebaseScore(syzygy::Wdl wdl, int ply) const;
  // A node's tablebase verdict: its score and what the score bounds.
  struct TablebaseVerdict {
    int score;
    Bound bound;
  };
  std::optional<TablebaseVerdict> ProbeTablebases(const Position& pos,
                                                  int depth, int ply);
  bool ShouldStop();
  // The continuation history row of the move `back` plies before `ply`,
  // indexed by a reply's PieceSquare; null when there is none.
  const int* ContinuationRow(int ply, int back) const;
  int* ContinuationRow(int ply, int back) {
    return const_cast<int*>(std::as_const(*this).ContinuationRow(ply, back));
  }
  // The rows a quiet move at `ply` is judged by: of the moves one and two
  // plies before it; null when none.
  using ContinuationRows = std::array<const int*, 2>;
  ContinuationRows ContinuationRowsAt(int ply) const;
  // The same rows, to update.
  std::array<int*, 2> ContinuationRowsToUpdate(int ply) {
    const ContinuationRows rows = std::as_const(*this).ContinuationRowsAt(ply);
    return {const_cast<int*>(rows[0]), const_cast<int*>(rows[1])};
  }
  // A quiet move's history plus its continuation history from `rows`.
  int QuietHistory(const Position& pos, Move m, Bitboard threats,
                   const ContinuationRows& rows) const;
  Threats ThreatsFor(const Position& pos) const;
  void UpdateQuietStats(const Position& pos, Bitboard threats, Move best,
                        const Move* tried, int tried_count, int depth, int ply);
  void UpdatePv(int ply, Move m);
  void SetTimeLimits(const Position& pos, const SearchLimits& limits);
  int64_t ElapsedMs() const;
  // The point after which no iteration starts, with `best` the best move so
  // far (time_node_fraction).
  int64_t SoftLimitMs(Move best) const;
  static int64_t NowMicros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  // The time the limits count: since the search began or since PonderHit().
  // Read after Pondering() is false, which orders it after PonderHit().
  int64_t ClockMs() const {
    const int64_t hit = ponderhit_at_us_.load(std::memory_order_relaxed);
    return hit ? (NowMicros() - hit) / 1000 : ElapsedMs();
  }
  bool Pondering() const { return pondering_.load(std::memory_order_acquire); }

  EngineConfig config_;
  SearchParams params_;
  Evaluator evaluator_;
  Network network_;  // added to evaluator_'s score; empty when none
  AccumulatorStack accumulators_;  // network_'s sums by ply (PERSPECTIVE)
  EvalCache eval_cache_;
  PawnCache pawn_cache_;  // of evaluator_'s weights
  // Shared with the helper threads' engines.
  std::shared_ptr<TranspositionTable> tt_ =
      std::make_shared<TranspositionTable>();
  int reductions_[64][64];
  int64_t move_overhead_ms_ = 10;

  // Per-search state.
  std::atomic<bool> stop_{false};
  // Stop() alone (not a limit): what ends the wait of an infinite or
  // pondering search that reached its node limit.
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> pondering_{false};
  // Lazy SMP. A helper publishes its node count for the main thread's limits
  // and reports; the main engine owns its helpers and their threads.
  bool is_helper_ = false;
  std::atomic<uint64_t> published_nodes_{0};
  std::vector<std::unique_ptr<Engine>> helpers_;
  std::vector<std::thread> helper_threads_;
  std::atomic<int64_t> ponderhit_at_us_{0};  // 0: no ponderhit
  uint64_t nodes_ = 0;
  uint64_t node_limit_ = 0;
  // Whether an iteration has completed: the node limit binds only then.
  bool first_iteration_done_ = false;
  int seldepth_ = 0;
  Stopwatch start_;
  int64_t soft_limit_ms_ = 0;  // no new iteration after this
  int64_t hard_limit_ms_ = 0;  // abort the search here (0: none)
  // Some nodes are counted without a stop check, so the clock is read at the
  // first check past this count rather than at exact multiples of 1024.
  uint64_t next_clock_check_ = 0;
  // Tablebases: the most pieces probed in this search (0: none), probes that
  // answered, the root's value when the tables ranked its moves.
  int tb_probe_limit_ = 0;
  uint64_t tb_hits_ = 0;
  std::optional<syzygy::Wdl> root_tb_value_;
  std::vector<Move> root_moves_;
  std::vector<Move> excluded_root_moves_;  // MultiPV: lines already found
  int lines_wanted_ = 1;   // MultiPV, or more for a weakened search
  std::vector<Key> keys_;  // game history, then the current search path
  size_t root_key_index_ = 0;
  Move killers_[kMaxPly + 2][2];
  // By side, from square attacked, to square attacked (history_by_threats;
  // otherwise [0][0] only), from, to.
  int history_[2][2][2][64][64];
  // The quiet move that last refuted a move from..to (counter_moves_).
  Move counter_moves_[64][64];
  // The move played from ply i to ply i + 1 on the current path (None: a
  // null move), and the piece that played it.
  Move path_moves_[kMaxPly + 2];
  Piece path_pieces_[kMaxPly + 2];
  // The static evaluation at each ply of the path (-kInfinity in check), for
  // "improving".
  int static_evals_[kMaxPly + 2];
  // The move a singular-extension search leaves out at each ply; none
  // elsewhere.
  Move excluded_[kMaxPly + 2];
  // Double extensions on the path down to each ply (singular_double_limit).
  int double_extensions_[kMaxPly + 2] = {};
  // Continuation history: per earlier move (piece, target), per reply (piece,
  // target), kPieceSquares x kPieceSquares. On the heap: 2.4 MB.
  std::vector<int> continuation_;
  Move pv_[kMaxPly + 1][kMaxPly + 1];
  int pv_length_[kMaxPly + 1];
  // This search's nodes under each root move (by from and to) and in all,
  // for time_node_fraction.
  uint64_t root_move_nodes_[64][64] = {};
  uint64_t root_nodes_ = 0;
};

}  // namespace chess

#endif  // ENGINE_SEARCH_H_
