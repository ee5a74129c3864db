#include "engine/search.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <thread>

#include "absl/algorithm/container.h"
#include "engine/game.h"
#include "engine/see.h"
#include "engine/skill.h"
#include "engine/time_budget.h"

namespace chess {
namespace {

constexpr int kTTMoveScore = 1 << 30;
constexpr int kGoodNoisyScore = 1 << 28;
constexpr int kKillerScore = 1 << 27;
constexpr int kHistoryMax = 1 << 20;

// The saturating update of every history table: moves `h` by `delta`, less
// the more `h` already points that way, so it stays within +-max.
void AddToHistory(int& h, int delta, int max) {
  // In 64 bits: h * |delta| reaches 2^20 * 12800.
  h += delta - int(int64_t(h) * std::abs(delta) / max);
}
// A piece (of either colour) on a square: the index of continuation history.
constexpr int kPieceSquares = 12 * 64;
int PieceSquare(Piece piece, Square to) {
  return (ColorOf(piece) * 6 + TypeOf(piece)) * 64 + to;
}
// Captures that lose material come after every quiet move (a quiet move's
// score, its history and two continuation entries and at most 50,000 for an
// escape, lies within +-(3 kHistoryMax + 50,000)).
constexpr int kBadNoisyScore = -(1 << 25);

// Victim-major, attacker-minor order value for captures (MVV-LVA).
int MvvLva(PieceType victim, PieceType attacker) {
  return 16 * (victim + 1) - attacker;
}

uint64_t Mix(uint64_t z) {  // splitmix64 finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

bool HasNonPawnMaterial(const Position& pos, Color c) {
  return pos.pieces(c) & ~(pos.pieces(kPawn) | pos.pieces(kKing));
}

// Moves the highest-scored remaining move that `eligible` accepts to position
// `i` (selection sort, lazily): false when no such move is left.
template <typename Eligible>
bool PickNext(MoveList& moves, int* scores, size_t i, Eligible eligible) {
  size_t best = i;
  while (best < moves.size() && !eligible(moves[best])) ++best;
  if (best == moves.size()) return false;
  for (size_t j = best + 1; j < moves.size(); ++j) {
    if (scores[j] > scores[best] && eligible(moves[j])) best = j;
  }
  std::swap(moves.begin()[i], moves.begin()[best]);
  std::swap(scores[i], scores[best]);
  return true;
}

void PickNext(MoveList& moves, int* scores, size_t i) {
  PickNext(moves, scores, i, [](Move) { return true; });
}

bool PickNextNoisy(MoveList& moves, int* scores, size_t i) {
  return PickNext(moves, scores, i,
                  [](Move m) { return m.is_capture() || m.is_promotion(); });
}

// Whether a stored score with this bound settles a node searched with the
// window (alpha, beta).
bool BoundCuts(Bound bound, int score, int alpha, int beta) {
  return bound == kBoundExact || (bound == kBoundLower && score >= beta) ||
         (bound == kBoundUpper && score <= alpha);
}

// What a node's result says of its true value, given the window it had.
Bound BoundOf(int best, int original_alpha, int beta) {
  return best >= beta            ? kBoundLower
         : best > original_alpha ? kBoundExact
                                 : kBoundUpper;
}

// Configs are validated before an Engine is made, so these cannot fail.
EvalWeights WeightsOf(const EngineConfig& config) {
  return *EvalWeights::FromProto(config.eval());
}
Network NetworkOf(const EngineConfig& config) {
  return *Network::FromEval(config.eval());
}

}  // namespace

Engine::Engine(const EngineConfig& config)
    : config_(config), params_(config.search()), evaluator_(WeightsOf(config)) {
  tt_->Resize(params_.hash_mb());
  SetConfig(config);
  NewGame();
}

Engine::Engine(const EngineConfig& config,
               std::shared_ptr<TranspositionTable> shared_tt)
    : config_(config),
      params_(config.search()),
      evaluator_(WeightsOf(config)),
      tt_(std::move(shared_tt)),
      is_helper_(true) {
  SetConfig(config);
  NewGame();
}

Engine::~Engine() { StopHelpers(); }

void Engine::StartHelpers(const Position& pos, absl::Span<const Key> history,
                          const SearchLimits& limits) {
  const size_t count = size_t(params_.threads() - 1);
  while (helpers_.size() > count) helpers_.pop_back();
  while (helpers_.size() < count)
    helpers_.push_back(std::unique_ptr<Engine>(new Engine(config_, tt_)));
  // Helpers search until the main thread stops them: its limits are theirs.
  // Under a node limit each helper also stops at its share of it, so that
  // helpers that the main thread's first iteration waits for (a node limit
  // binds only after it) cannot run far past the limit meanwhile.
  SearchLimits unlimited;
  unlimited.infinite = node_limit_ == 0;
  unlimited.nodes = node_limit_ / uint64_t(params_.threads());
  if (node_limit_ > 0 && unlimited.nodes == 0) unlimited.nodes = 1;
  unlimited.search_moves = limits.search_moves;
  for (auto& helper : helpers_) {
    helper->ClearStop();
    helper->published_nodes_ = 0;
    helper_threads_.emplace_back([&helper = *helper, pos, history, unlimited] {
      helper.Search(pos, history, unlimited);
    });
  }
}

void Engine::StopHelpers() {
  for (auto& helper : helpers_) helper->Stop();
  for (std::thread& t : helper_threads_) t.join();
  helper_threads_.clear();
}

uint64_t Engine::HelperNodes() const {
  uint64_t nodes = 0;
  for (const auto& helper : helpers_)
    nodes += helper->published_nodes_.load(std::memory_order_relaxed);
  return nodes;
}

void Engine::SetConfig(const EngineConfig& config) {
  helpers_.clear();  // made again with the new config by the next search
  const bool resize = config.search().hash_mb() != params_.hash_mb();
  config_ = config;
  params_ = config.search();
  evaluator_ = Evaluator(WeightsOf(config));
  network_ = NetworkOf(config);
  if (network_.perspective()) accumulators_.Reset(network_, kMaxPly);
  eval_cache_.Clear();
  pawn_cache_.Clear();
  if (resize) tt_->Resize(params_.hash_mb());
  // Validated: the directories exist. Tables Fathom cannot read leave the
  // engine probing none (syzygy::Loaded() tells).
  if (!config.tablebases().syzygy_path().empty())
    syzygy::Load(config.tablebases().syzygy_path()).IgnoreError();
  const double divisor = params_.lmr_divisor_x100() / 100.0;
  for (int d = 0; d < 64; ++d) {
    for (int m = 0; m < 64; ++m) {
      double r = params_.lmr_base_x100() / 100.0 +
                 (d && m ? std::log(d) * std::log(m) / divisor : 0.0);
      reductions_[d][m] = std::max(0, int(r));
    }
  }
}

void Engine::NewGame() {
  for (auto& helper : helpers_) helper->NewGame();
  if (!is_helper_) tt_->Clear();
  eval_cache_.Clear();
  std::memset(history_, 0, sizeof(history_));
  std::memset(killers_, 0, sizeof(killers_));
  std::fill(&counter_moves_[0][0], &counter_moves_[0][0] + 64 * 64,
            Move::None());
  continuation_.assign(kPieceSquares * kPieceSquares, 0);
}

const int* Engine::ContinuationRow(int ply, int back) const {
  if (!params_.order_continuation_history() || ply < back) return nullptr;
  const Move earlier = path_moves_[ply - back];
  if (earlier.is_none()) return nullptr;
  return &continuation_[size_t(PieceSquare(path_pieces_[ply - back],
                                           earlier.to())) *
                        kPieceSquares];
}

Engine::ContinuationRows Engine::ContinuationRowsAt(int ply) const {
  return {ContinuationRow(ply, 1), ContinuationRow(ply, 2)};
}

int Engine::Evaluate(const Position& pos, int ply) {
  if (const std::optional<int> cached = eval_cache_.Probe(pos.key()))
    return *cached;
  int score =
      network_.whole_evaluation() ? 0 : evaluator_.Evaluate(pos, &pawn_cache_);
  score += network_.perspective() ? accumulators_.Evaluate(network_, pos, ply)
                                  : network_.Evaluate(pos);
  if (const int noise = params_.eval_noise_cp(); noise > 0) {
    uint64_t h = Mix(pos.key() ^ Mix(params_.eval_noise_seed() + 1));
    score += int(h % uint64_t(2 * noise + 1)) - noise;
  }
  eval_cache_.Store(pos.key(), score);
  return score;
}

int64_t Engine::ElapsedMs() const { return start_.Milliseconds(); }

int64_t Engine::SoftLimitMs(Move best) const {
  if (!params_.time_node_fraction() || root_nodes_ == 0) return soft_limit_ms_;
  return NodeShareSoftLimit(
      TimeBudget{soft_limit_ms_, hard_limit_ms_},
      double(root_move_nodes_[best.from()][best.to()]) / root_nodes_);
}

void Engine::SetTimeLimits(const Position& pos, const SearchLimits& limits) {
  soft_limit_ms_ = hard_limit_ms_ = 0;
  if (limits.infinite) return;
  if (limits.movetime_ms > 0) {
    soft_limit_ms_ = hard_limit_ms_ = std::max<int64_t>(
        1,
        std::min<int64_t>(limits.movetime_ms, kMaxClockMs) - move_overhead_ms_);
    return;
  }
  const Color us = pos.side_to_move();
  if (limits.time_left_ms[us] < 0) return;
  const TimeBudget budget = BudgetForMove(
      GameClock{limits.time_left_ms[us], limits.increment_ms[us],
                limits.moves_to_go},
      move_overhead_ms_,
      TimePolicy{params_.time_moves_to_go(), params_.time_increment_percent(),
                 params_.time_soft_percent()});
  soft_limit_ms_ = budget.soft_ms;
  hard_limit_ms_ = budget.hard_ms;
}

bool Engine::ShouldStop() {
  if (stop_.load(std::memory_order_relaxed)) return true;
  if (is_helper_) {
    published_nodes_.store(nodes_, std::memory_order_relaxed);
    if (node_limit_ && nodes_ >= node_limit_) stop_ = true;
    return stop_.load(std::memory_order_relaxed);
  }
  // The node limit waits for the first iteration: helpers start first and
  // their nodes count, so it could otherwise cut the main thread off before
  // it has a move of its own.
  if (node_limit_ && first_iteration_done_ &&
      nodes_ + (helper_threads_.empty() ? 0 : HelperNodes()) >= node_limit_) {
    stop_ = true;
  } else if (hard_limit_ms_ && nodes_ >= next_clock_check_) {
    next_clock_check_ = nodes_ + 1024;
    if (!Pondering() && ClockMs() >= hard_limit_ms_) stop_ = true;
  }
  return stop_.load(std::memory_order_relaxed);
}

bool Engine::IsDraw(const Position& pos, int ply) const {
  if (pos.halfmove_clock() >= 100) return true;
  const size_t index = root_key_index_ + ply;
  const size_t reach = std::min<size_t>(pos.halfmove_clock(), index);
  for (size_t back = 4; back <= reach; back += 2) {
    if (keys_[index - back] == pos.key()) return true;
  }
  return false;
}

bool Engine::HasRepeated(const Position& root) const {
  const size_t last = root_key_index_;
  const size_t reach = std::min<size_t>(root.halfmove_clock(), last);
  for (size_t i = last - reach; i <= last; ++i) {
    for (size_t j = i + 4; j <= last; j += 2) {
      if (keys_[i] == keys_[j]) return true;
    }
  }
  return false;
}

int Engine::TablebaseScore(syzygy::Wdl wdl, int ply) const {
  // With the 50-move rule a cursed win or blessed loss is a draw, +-2 so that
  // the search still prefers the side of it that the rule did not spoil.
  const int draw_band = config_.tablebases().syzygy_50_move_rule() ? 1 : 0;
  const int v = int(wdl);
  return v < -draw_band  ? -kTbWinScore + ply
         : v > draw_band ? kTbWinScore - ply
                         : 2 * v * draw_band;
}

std::optional<Engine::TablebaseVerdict> Engine::ProbeTablebases(
    const Position& pos, int depth, int ply) {
  if (tb_probe_limit_ == 0 || ply == 0 || pos.halfmove_clock() != 0 ||
      depth < config_.tablebases().syzygy_probe_depth() ||
      !syzygy::Probeable(pos, tb_probe_limit_)) {
    return std::nullopt;
  }
  const std::optional<syzygy::Wdl> wdl = syzygy::ProbeWdl(pos);
  if (!wdl) return std::nullopt;
  ++tb_hits_;
  const int score = TablebaseScore(*wdl, ply);
  return TablebaseVerdict{score, score >= kTbWinScore - kMaxPly ? kBoundLower
                                 : score <= -kTbWinScore + kMaxPly
                                     ? kBoundUpper
                                     : kBoundExact};
}

void Engine::ChooseRootMoves(const Position& pos, const SearchLimits& limits) {
  root_moves_.clear();
  root_tb_value_.reset();
  tb_hits_ = 0;
  const TablebaseParams& tb = config_.tablebases();
  tb_probe_limit_ = tb.syzygy_path().empty() ? 0 : tb.syzygy_probe_limit();
  if (tb_probe_limit_ > 0 && syzygy::Probeable(pos, tb_probe_limit_)) {
    if (std::optional<syzygy::RootRanking> ranking = syzygy::RankRootMoves(
            pos, HasRepeated(pos), tb.syzygy_50_move_rule())) {
      root_moves_ = std::move(ranking->best_moves);
      root_tb_value_ = ranking->value;
      ++tb_hits_;
      // DTZ already chose moves that make progress; probing below the root
      // would only cut the lines that show how. Without DTZ, probes still help
      // a winning side find the way.
      if (ranking->by_dtz || int(ranking->value) <= 0) tb_probe_limit_ = 0;
    }
  }
  if (limits.search_moves.empty()) return;
  std::vector<Move> asked, asked_and_ranked;
  for (Move m : LegalMoves(pos)) {
    if (!absl::c_linear_search(limits.search_moves, m)) continue;
    asked.push_back(m);
    if (root_moves_.empty() || absl::c_linear_search(root_moves_, m))
      asked_and_ranked.push_back(m);
  }
  // Asked moves the tables rank lower are still searched, as asked.
  if (!asked_and_ranked.empty()) {
    root_moves_ = std::move(asked_and_ranked);
  } else if (!asked.empty()) {
    root_moves_ = std::move(asked);
  }
}

MoveList Engine::MovesAt(const Position& pos, int ply) const {
  if (ply > 0 || (root_moves_.empty() && excluded_root_moves_.empty()))
    return LegalMoves(pos);
  MoveList candidates;
  if (root_moves_.empty()) {
    candidates = LegalMoves(pos);
  } else {
    for (Move m : root_moves_) candidates.Add(m);
  }
  MoveList moves;
  for (Move m : candidates)
    if (!absl::c_linear_search(excluded_root_moves_, m)) moves.Add(m);
  return moves;
}

bool Engine::SearchOtherLines(const Position& pos, int depth,
                              std::vector<PvLine>* lines) {
  const size_t wanted = std::min<size_t>(lines_wanted_, MovesAt(pos, 0).size());
  excluded_root_moves_.clear();
  for (size_t i = 1; i < wanted; ++i) {
    excluded_root_moves_.push_back((*lines)[i - 1].pv[0]);
    const int previous = i < lines->size() ? (*lines)[i].score : 0;
    const int score = SearchRoot(pos, depth, previous);
    if (stop_.load(std::memory_order_relaxed)) {
      excluded_root_moves_.clear();
      return false;
    }
    PvLine line{score, std::vector<Move>(pv_[0], pv_[0] + pv_length_[0])};
    if (line.pv.empty()) break;
    if (i < lines->size())
      (*lines)[i] = std::move(line);
    else
      lines->push_back(std::move(line));
  }
  excluded_root_moves_.clear();
  return true;
}

void Engine::UpdatePv(int ply, Move m) {
  pv_[ply][ply] = m;
  for (int i = ply + 1; i < pv_length_[ply + 1]; ++i)
    pv_[ply][i] = pv_[ply + 1][i];
  pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
}

namespace {
// order_threat_escapes: a quiet move of a piece of `type` out of a cheaper
// piece's attack (pawns; pawns and minor pieces; those and rooks: the
// squares each attacks) to where no such piece attacks.
int EscapeBonus(PieceType type, Move m, Bitboard pawns, Bitboard minors,
                Bitboard rooks) {
  Bitboard danger;
  int bonus;
  switch (type) {
    case kQueen:
      danger = rooks, bonus = 50000;
      break;
    case kRook:
      danger = minors, bonus = 25000;
      break;
    case kKnight:
    case kBishop:
      danger = pawns, bonus = 15000;
      break;
    default:
      return 0;
  }
  return (danger & SquareBit(m.from())) && !(danger & SquareBit(m.to())) ? bonus
                                                                         : 0;
}
}  // namespace

void Engine::ScoreMoves(const Position& pos, const MoveList& moves,
                        Move tt_move, int ply, const Threats& threats,
                        int* scores) const {
  const Move previous = ply > 0 ? path_moves_[ply - 1] : Move::None();
  const Move counter = params_.order_counter_moves() && !previous.is_none()
                           ? counter_moves_[previous.from()][previous.to()]
                           : Move::None();
  const ContinuationRows continuations = ContinuationRowsAt(ply);
  for (size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    int score = 0;
    if (params_.order_tt_move() && m == tt_move) {
      score = kTTMoveScore;
    } else if (m.is_capture() || m.is_promotion()) {
      if (params_.order_mvv_lva()) {
        const PieceType victim = pos.CapturedType(m);
        score = kGoodNoisyScore;
        if (victim != kNoPieceType)
          score += MvvLva(victim, TypeOf(pos.piece_on(m.from())));
        if (m.is_promotion()) {
          score += m.promotion_type() == kQueen ? 200 : -kGoodNoisyScore;
        } else if (OrdersBySee() && !SeeAtLeast(pos, m, 0)) {
          score += kBadNoisyScore - kGoodNoisyScore;
        }
      }
    } else if (params_.order_killers() &&
               (m == killers_[ply][0] || m == killers_[ply][1])) {
      score = kKillerScore - (m == killers_[ply][1]);
    } else if (m == counter) {
      score = kKillerScore - 2;
    } else if (params_.order_history()) {
      score = QuietHistory(pos, m, threats.history, continuations);
      if (params_.order_threat_escapes()) {
        score += EscapeBonus(TypeOf(pos.piece_on(m.from())), m, threats.pawns,
                             threats.minors, threats.rooks);
      }
    }
    scores[i] = score;
  }
}

namespace {
// Whether a move's from and to squares are among `threats`: its history
// table.
struct ThreatIndex {
  ThreatIndex(Bitboard threats, Move m)
      : from(bool(threats & SquareBit(m.from()))),
        to(bool(threats & SquareBit(m.to()))) {}
  int from, to;
};
}  // namespace

Engine::Threats Engine::ThreatsFor(const Position& pos) const {
  Threats t;
  if (!params_.history_by_threats() && !params_.order_threat_escapes())
    return t;
  const Color them = Color(pos.side_to_move() ^ 1);
  const Bitboard occupied = pos.occupied();
  auto attacks = [&](PieceType type) {
    Bitboard squares = 0;
    for (Bitboard b = pos.pieces(them, type); b;)
      squares |= AttacksOf(type, PopLowest(b), occupied);
    return squares;
  };
  t.pawns = PawnAttacksOf(them, pos.pieces(them, kPawn));
  t.minors = t.pawns | attacks(kKnight) | attacks(kBishop);
  t.rooks = t.minors | attacks(kRook);
  if (params_.history_by_threats())
    t.history = t.rooks | attacks(kQueen) | attacks(kKing);
  return t;
}

int Engine::QuietHistory(const Position& pos, Move m, Bitboard threats,
                         const ContinuationRows& rows) const {
  const ThreatIndex t(threats, m);
  int score = history_[pos.side_to_move()][t.from][t.to][m.from()][m.to()];
  const int reply = PieceSquare(pos.piece_on(m.from()), m.to());
  for (const int* row : rows)
    if (row) score += row[reply];
  return score;
}

void Engine::UpdateQuietStats(const Position& pos, Bitboard threats, Move best,
                              const Move* tried, int tried_count, int depth,
                              int ply) {
  if (params_.order_killers() && killers_[ply][0] != best) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = best;
  }
  if (params_.order_counter_moves() && ply > 0 &&
      !path_moves_[ply - 1].is_none()) {
    counter_moves_[path_moves_[ply - 1].from()][path_moves_[ply - 1].to()] =
        best;
  }
  if (!params_.order_history()) return;
  const Color us = pos.side_to_move();
  const int bonus = std::min(depth * depth, 400);
  const std::array<int*, 2> continuations = ContinuationRowsToUpdate(ply);
  auto update = [&](Move m, int delta) {
    auto add = [&](int& h) { AddToHistory(h, delta, kHistoryMax); };
    const ThreatIndex t(threats, m);
    add(history_[us][t.from][t.to][m.from()][m.to()]);
    const int reply = PieceSquare(pos.piece_on(m.from()), m.to());
    for (int* row : continuations)
      if (row) add(row[reply]);
  };
  update(best, bonus * 32);
  for (int i = 0; i < tried_count; ++i) {
    if (tried[i] != best) update(tried[i], -bonus * 32);
  }
}

int Engine::Quiescence(const Position& pos, int alpha, int beta, int ply) {
  ++nodes_;
  pv_length_[ply] = ply;
  if (ShouldStop()) return 0;
  seldepth_ = std::max(seldepth_, ply);
  if (ply >= kMaxPly) return Evaluate(pos, ply);

  const bool use_tt = params_.qsearch_tt() && params_.hash_mb() > 0;
  const bool pv_node = beta - alpha > 1;
  const std::optional<TTEntry> entry =
      use_tt ? tt_->Probe(pos.key()) : std::nullopt;
  const Move tt_move = entry ? Move::FromBits(entry->move) : Move::None();
  if (entry && !pv_node) {
    const int tt_score = ScoreFromTT(entry->score, ply);
    if (BoundCuts(Bound(entry->bound), tt_score, alpha, beta)) return tt_score;
  }
  // A deeper search's entry for this position is worth more than ours.
  const bool store = use_tt && (!entry || entry->depth <= 0);
  const int original_alpha = alpha;
  Move best_move;

  const bool in_check = pos.InCheck();
  int best = -kInfinity;
  MoveList moves;
  if (in_check) {
    GenerateLegal<GenMode::kAll>(pos, moves);
    if (moves.empty()) return -kMateScore + ply;
  } else {
    best = Evaluate(pos, ply);
    if (best >= beta) {
      if (store)
        tt_->Store(pos.key(), Move::None(), ScoreToTT(best, ply), 0,
                   kBoundLower);
      return best;
    }
    alpha = std::max(alpha, best);
    GenerateLegal<GenMode::kNoisy>(pos, moves);
  }
  int scores[256];
  ScoreMoves(pos, moves, tt_move, ply, in_check ? ThreatsFor(pos) : Threats(),
             scores);
  for (size_t i = 0; i < moves.size(); ++i) {
    PickNext(moves, scores, i);
    if (use_tt) tt_->Prefetch(pos.KeyAfter(moves[i]));
    // A capture that loses material cannot raise alpha. ScoreMoves has
    // already run the exchange when it orders by it: its score tells.
    if (!in_check && params_.qsearch_see_pruning() &&
        !moves[i].is_promotion() &&
        (OrdersBySee() ? scores[i] < 0 : !SeeAtLeast(pos, moves[i], 0))) {
      continue;
    }
    Position child = pos;
    child.MakeMove(moves[i]);
    path_moves_[ply] = moves[i];
    path_pieces_[ply] = pos.piece_on(moves[i].from());
    const int score = -Quiescence(child, -beta, -alpha, ply + 1);
    if (stop_.load(std::memory_order_relaxed)) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        best_move = moves[i];
        UpdatePv(ply, moves[i]);
        if (score >= beta) break;
      }
    }
  }
  if (store) {
    tt_->Store(pos.key(), best_move, ScoreToTT(best, ply), 0,
               BoundOf(best, original_alpha, beta));
  }
  return best;
}

SearchInfo Engine::QuiescenceSearch(const Position& pos) {
  ClearStop();
  nodes_ = 0;
  node_limit_ = 0;
  soft_limit_ms_ = hard_limit_ms_ = 0;
  start_.Restart();
  SearchInfo info;
  info.score = Quiescence(pos, -kInfinity, kInfinity, 0);
  info.pv.assign(pv_[0], pv_[0] + pv_length_[0]);
  if (!info.pv.empty()) info.best_move = info.pv[0];
  info.nodes = nodes_;
  return info;
}

int Engine::Minimax(const Position& pos, int depth, int ply) {
  pv_length_[ply] = ply;
  if (ply > 0 && IsDraw(pos, ply)) {
    ++nodes_;
    return 0;
  }
  if (depth <= 0 || ply >= kMaxPly) {
    if (params_.quiescence())
      return Quiescence(pos, -kInfinity, kInfinity, ply);
    ++nodes_;
    return Evaluate(pos, ply);
  }
  ++nodes_;
  if (ShouldStop()) return 0;
  seldepth_ = std::max(seldepth_, ply);
  MoveList moves = MovesAt(pos, ply);
  if (moves.empty()) return pos.InCheck() ? -kMateScore + ply : 0;
  int best = -kInfinity;
  for (Move m : moves) {
    Position child = pos;
    child.MakeMove(m);
    keys_[root_key_index_ + ply + 1] = child.key();
    const int score = -Minimax(child, depth - 1, ply + 1);
    if (stop_.load(std::memory_order_relaxed)) return 0;
    if (score > best) {
      best = score;
      UpdatePv(ply, m);
    }
  }
  return best;
}

int Engine::AlphaBeta(const Position& pos, int alpha, int beta, int depth,
                      int ply, bool pv_node, bool allow_null) {
  pv_length_[ply] = ply;
  if (ply > 0 && IsDraw(pos, ply)) {
    ++nodes_;
    return 0;
  }
  if (depth <= 0 || ply >= kMaxPly) {
    if (params_.quiescence()) return Quiescence(pos, alpha, beta, ply);
    ++nodes_;
    return Evaluate(pos, ply);
  }
  ++nodes_;
  if (ShouldStop()) return 0;
  seldepth_ = std::max(seldepth_, ply);

  // A singular-extension search of this position without one move: the
  // table's entry is the full search's, so it neither cuts nor is replaced.
  const Move excluded = excluded_[ply];
  const bool use_tt = params_.hash_mb() > 0 && excluded.is_none();
  const std::optional<TTEntry> entry =
      use_tt ? tt_->Probe(pos.key()) : std::nullopt;
  const Move tt_move = entry ? Move::FromBits(entry->move) : Move::None();
  const int tt_score = entry ? ScoreFromTT(entry->score, ply) : 0;
  if (entry && !pv_node && ply > 0 && entry->depth >= depth) {
    if (BoundCuts(Bound(entry->bound), tt_score, alpha, beta)) return tt_score;
  }
  const int original_alpha = alpha;
  // A proven win is at least its score, a proven loss at most; where that
  // does not settle the node, a principal variation node searches on with
  // the bound it gives.
  int tb_floor = -kInfinity, tb_ceiling = kInfinity;
  if (const std::optional<TablebaseVerdict> tb =
          excluded.is_none() ? ProbeTablebases(pos, depth, ply)
                             : std::nullopt) {
    if (BoundCuts(tb->bound, tb->score, alpha, beta)) {
      if (use_tt) {
        tt_->Store(pos.key(), Move::None(), ScoreToTT(tb->score, ply),
                   std::min(depth + 6, kMaxPly - 1), tb->bound);
      }
      return tb->score;
    }
    if (pv_node && tb->bound == kBoundLower) {
      tb_floor = tb->score;
      alpha = std::max(alpha, tb_floor);
    } else if (pv_node && tb->bound == kBoundUpper) {
      tb_ceiling = tb->score;
    }
  }

  const bool in_check = pos.InCheck();
  const Color us = pos.side_to_move();
  const int static_eval = in_check ? -kInfinity : Evaluate(pos, ply);
  static_evals_[ply] = static_eval;
  const bool improving =
      !in_check && ply >= 2 && static_eval > static_evals_[ply - 2];
  // Without the "improving" switch, every node prunes as if it were neither.
  const bool less_pruning = params_.improving() && improving;
  const bool more_pruning = params_.improving() && !improving;
  const bool prunable = !pv_node && !in_check && excluded.is_none();
  if (params_.reverse_futility_pruning() && prunable &&
      depth <= params_.rfp_max_depth() && std::abs(beta) < kMateBound &&
      static_eval - params_.rfp_margin_cp() * (depth - less_pruning) >= beta) {
    return static_eval;
  }
  if (params_.null_move() && allow_null && prunable &&
      depth >= params_.null_move_min_depth() && HasNonPawnMaterial(pos, us) &&
      beta > -kMateBound && static_eval >= beta) {
    const int reduction =
        params_.null_move_base() + depth / params_.null_move_depth_divisor();
    Position child = pos;
    child.MakeNullMove();
    keys_[root_key_index_ + ply + 1] = child.key();
    path_moves_[ply] = Move::None();
    const int score = -AlphaBeta(child, -beta, -beta + 1, depth - 1 - reduction,
                                 ply + 1, false, false);
    if (stop_.load(std::memory_order_relaxed)) return 0;
    if (score >= beta) return score >= kMateBound ? beta : score;
  }

  MoveList moves = MovesAt(pos, ply);
  if (moves.empty()) return in_check ? -kMateScore + ply : 0;
  const Threats threats = ThreatsFor(pos);
  int scores[256];
  ScoreMoves(pos, moves, tt_move, ply, threats, scores);
  if (params_.internal_iterative_reduction() && tt_move.is_none() &&
      excluded.is_none() && depth >= params_.iir_min_depth()) {
    --depth;  // no move from an earlier search: likely not worth a full one
  }
  const bool prune_quiets = !pv_node && !in_check;
  const bool see_prunable = params_.see_pruning() && OrdersBySee() && ply > 0 &&
                            !in_check &&
                            depth <= params_.see_pruning_max_depth();
  const bool try_singular =
      params_.singular_extension() && ply > 0 && excluded.is_none() &&
      depth >= params_.singular_min_depth() && entry &&
      (entry->bound == kBoundLower || entry->bound == kBoundExact) &&
      entry->depth >= depth - 3 && std::abs(tt_score) < kMateBound;
  // Whether quiet moves judged at `prune_depth` cannot reach alpha.
  auto futile = [&](int prune_depth) {
    return prune_quiets && params_.futility_pruning() &&
           prune_depth <= params_.futility_max_depth() &&
           static_eval + params_.futility_base_cp() +
                   params_.futility_margin_cp() * prune_depth <=
               alpha;
  };
  const int late_move_count =
      prune_quiets && params_.late_move_pruning() &&
              depth <= params_.lmp_max_depth()
          ? (params_.lmp_base() + depth * depth) / (more_pruning ? 2 : 1)
          : 256;

  const bool pvs = params_.algorithm() == SearchParams::PVS;
  int best = tb_floor;
  Move best_move;
  Move quiets_tried[256];
  int quiet_count = 0;
  int searched = 0;
  // Set once late-move pruning skips a quiet move: it then skips every later
  // one, so only the captures and promotions left need ordering.
  bool only_noisy_left = false;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!only_noisy_left) {
      PickNext(moves, scores, i);
    } else if (!PickNextNoisy(moves, scores, i)) {
      break;
    }
    const Move m = moves[i];
    if (m == excluded) continue;
    if (use_tt) tt_->Prefetch(pos.KeyAfter(m));
    const bool quiet = !m.is_capture() && !m.is_promotion();
    // Once a move has kept us out of being mated, late and futile quiet moves
    // are not worth searching.
    const bool escaped_mate = best > -kMateBound;
    const bool may_prune = quiet && escaped_mate;
    if (may_prune && int(i) >= late_move_count) {
      only_noisy_left = true;
      continue;
    }
    // A quiet move may be judged at the depth its late-move reduction would
    // leave it (pruning_lmr_depth).
    const int prune_depth =
        quiet && params_.pruning_lmr_depth()
            ? std::max(0, depth - 1 -
                              reductions_[std::min(depth, 63)]
                                         [std::min<int>(i + 1, 63)])
            : depth;
    if (see_prunable && escaped_mate &&
        (quiet
             ? !SeeAtLeast(pos, m, -params_.see_quiet_margin_cp() * prune_depth)
             : scores[i] < 0 && !SeeAtLeast(pos, m,
                                            -params_.see_noisy_margin_cp() *
                                                depth * depth))) {
      continue;
    }
    int extension = 0;
    if (try_singular && m == tt_move) {
      const int singular_beta = tt_score - params_.singular_margin_cp() * depth;
      const int score = SearchExcluding(pos, m, singular_beta, depth, ply);
      if (stop_.load(std::memory_order_relaxed)) return 0;
      if (score < singular_beta) {
        extension = 1;
        if (!pv_node && params_.singular_double_margin_cp() > 0 &&
            score < singular_beta - params_.singular_double_margin_cp() &&
            double_extensions_[ply] < params_.singular_double_limit()) {
          extension = 2;
        }
      } else if (singular_beta >= beta) {
        return singular_beta;  // another move also beats beta
      } else if (params_.singular_negative_extension() && tt_score >= beta) {
        extension = -1;
      }
    }
    // Futile quiet moves are skipped unless they check: known without making
    // them.
    if (may_prune && futile(prune_depth) && !pos.GivesCheck(m)) continue;
    const uint64_t nodes_before = nodes_;
    Position child = pos;
    child.MakeMove(m);
    const bool gives_check = child.InCheck();
    RecordPathMove(pos, child, m, ply);
    if (params_.check_extension() && gives_check)
      extension = std::max(extension, 1);
    const int new_depth = depth - 1 + extension;
    double_extensions_[ply + 1] = double_extensions_[ply] + (extension == 2);

    int score;
    ++searched;
    if (searched == 1) {
      score =
          -AlphaBeta(child, -beta, -alpha, new_depth, ply + 1, pv_node, true);
    } else {
      int reduction = 0;
      if (params_.late_move_reductions() && quiet && !in_check &&
          !gives_check && depth >= params_.lmr_min_depth() &&
          int(i) + 1 >= params_.lmr_min_move_number() &&
          m != killers_[ply][0] && m != killers_[ply][1]) {
        reduction = reductions_[std::min(depth, 63)][std::min<int>(i + 1, 63)] +
                    more_pruning;
        reduction = std::max(0, std::min(reduction - pv_node, new_depth - 1));
      }
      if (pvs) {
        score = -AlphaBeta(child, -alpha - 1, -alpha, new_depth - reduction,
                           ply + 1, false, true);
        if (score > alpha && reduction > 0) {
          score = -AlphaBeta(child, -alpha - 1, -alpha, new_depth, ply + 1,
                             false, true);
        }
        if (score > alpha && score < beta) {
          score =
              -AlphaBeta(child, -beta, -alpha, new_depth, ply + 1, true, true);
        }
      } else {
        score = -AlphaBeta(child, -beta, -alpha, new_depth - reduction, ply + 1,
                           pv_node, true);
        if (score > alpha && reduction > 0) {
          score = -AlphaBeta(child, -beta, -alpha, new_depth, ply + 1, pv_node,
                             true);
        }
      }
    }
    if (ply == 0) {
      root_move_nodes_[m.from()][m.to()] += nodes_ - nodes_before;
      root_nodes_ += nodes_ - nodes_before;
    }
    if (stop_.load(std::memory_order_relaxed)) return 0;

    if (score > best) {
      best = score;
      if (score > alpha) {
        best_move = m;
        alpha = score;
        UpdatePv(ply, m);
        if (score >= beta) {
          if (quiet)
            UpdateQuietStats(pos, threats.history, m, quiets_tried, quiet_count,
                             depth, ply);
          break;
        }
      }
    }
    if (quiet) quiets_tried[quiet_count++] = m;
  }
  best = std::min(best, tb_ceiling);
  if (use_tt) {
    // What no move beat is the tables' floor: a lower bound.
    const Bound bound = best_move.is_none() && tb_floor > -kInfinity
                            ? kBoundLower
                            : BoundOf(best, original_alpha, beta);
    tt_->Store(pos.key(), best_move, ScoreToTT(best, ply), depth, bound);
  }
  return best;
}

int Engine::SearchExcluding(const Position& pos, Move excluded, int beta,
                            int depth, int ply) {
  excluded_[ply] = excluded;
  const int score =
      AlphaBeta(pos, beta - 1, beta, (depth - 1) / 2, ply, false, false);
  excluded_[ply] = Move::None();
  pv_length_[ply] = ply;
  return score;
}

int Engine::SearchRoot(const Position& pos, int depth, int previous_score) {
  if (params_.algorithm() == SearchParams::MINIMAX)
    return Minimax(pos, depth, 0);
  if (!params_.aspiration_windows() || depth < params_.aspiration_min_depth() ||
      IsMateScore(previous_score)) {
    return AlphaBeta(pos, -kInfinity, kInfinity, depth, 0, true, false);
  }
  int delta = params_.aspiration_window_cp();
  int alpha = std::max(previous_score - delta, -kInfinity);
  int beta = std::min(previous_score + delta, kInfinity);
  while (true) {
    const int score = AlphaBeta(pos, alpha, beta, depth, 0, true, false);
    if (stop_.load(std::memory_order_relaxed)) return score;
    if (score <= alpha) {
      alpha = std::max(score - delta, -kInfinity);
    } else if (score >= beta) {
      beta = std::min(score + delta, kInfinity);
    } else {
      return score;
    }
    delta *= 2;
    if (delta > 1000) alpha = -kInfinity, beta = kInfinity;
  }
}

SearchInfo Engine::Search(const Game& game, const SearchLimits& limits,
                          const InfoCallback& on_iteration) {
  // Every position before the current one (the game keeps their keys).
  const std::vector<Key>& keys = game.keys();
  return Search(game.position(),
                absl::MakeConstSpan(keys.data(), keys.size() - 1), limits,
                on_iteration);
}

SearchInfo Engine::Search(const Position& pos, absl::Span<const Key> history,
                          const SearchLimits& limits,
                          const InfoCallback& on_iteration) {
  start_.Restart();
  // A ponderhit that came before the search began: its clock starts now.
  if (!Pondering()) ponderhit_at_us_ = 0;
  nodes_ = 0;
  std::memset(root_move_nodes_, 0, sizeof(root_move_nodes_));
  root_nodes_ = 0;
  next_clock_check_ = 0;
  seldepth_ = 0;
  first_iteration_done_ = false;
  node_limit_ = limits.infinite ? 0 : limits.nodes;
  const Handicap handicap = is_helper_ ? Handicap() : HandicapFor(params_);
  if (handicap.nodes_per_move > 0 &&
      (node_limit_ == 0 || handicap.nodes_per_move < node_limit_)) {
    node_limit_ = handicap.nodes_per_move;
  }
  SetTimeLimits(pos, limits);
  if (!is_helper_) tt_->NewSearch();
  keys_.assign(history.begin(), history.end());
  root_key_index_ = keys_.size();
  keys_.push_back(pos.key());
  keys_.resize(keys_.size() + kMaxPly + 2);
  for (int& h :
       std::span(&history_[0][0][0][0][0], sizeof(history_) / sizeof(int)))
    h /= 2;

  ChooseRootMoves(pos, limits);
  const MoveList root_moves = MovesAt(pos, 0);
  SearchInfo result;
  if (root_moves.empty()) {
    result.score = pos.InCheck() ? -kMateScore : 0;
    ClearStop();
    return result;
  }
  result.best_move = root_moves[0];
  result.pv = {root_moves[0]};
  if (!is_helper_ && params_.threads() > 1) StartHelpers(pos, history, limits);

  // Limited strength: a shallow search of several lines, one of them played.
  const double level = handicap.level;
  const bool weakened = level < kFullStrength;
  lines_wanted_ =
      weakened ? std::max(params_.multi_pv(), 4) : params_.multi_pv();
  int max_depth = limits.depth > 0 && !limits.infinite
                      ? std::min(limits.depth, kMaxPly - 1)
                      : kMaxPly - 1;
  if (weakened) max_depth = std::min(max_depth, 1 + int(level));
  const bool time_managed = soft_limit_ms_ > 0 && limits.movetime_ms <= 0;
  const int first_depth = params_.iterative_deepening() ? 1 : max_depth;
  int previous_score = 0;
  for (int depth = first_depth; depth <= max_depth; ++depth) {
    seldepth_ = 0;
    const int score = SearchRoot(pos, depth, previous_score);
    if (stop_.load(std::memory_order_relaxed)) {
      // With no iteration completed, the cut-off one's best move beats an
      // arbitrary one; after one, a move that beat the previous best (searched
      // first) is better than it.
      if ((depth == first_depth || params_.partial_iteration()) &&
          pv_length_[0] > 0 && !pv_[0][0].is_none()) {
        result.best_move = pv_[0][0];
        result.pv.assign(pv_[0], pv_[0] + pv_length_[0]);
      }
      break;
    }
    previous_score = score;
    first_iteration_done_ = true;
    result.depth = depth;
    result.seldepth = seldepth_;
    // Below a root the tables ranked, the search sees no tablebase score:
    // the tables' verdict is the position's value.
    result.score = root_tb_value_ && !IsMateScore(score)
                       ? TablebaseScore(*root_tb_value_, 0)
                       : score;
    result.tb_hits = tb_hits_;
    result.best_move = pv_[0][0];
    result.pv.assign(pv_[0], pv_[0] + pv_length_[0]);
    if (lines_wanted_ > 1) {
      // A line cut short keeps the previous iteration's.
      if (result.lines.empty()) result.lines.resize(1);
      result.lines[0] = PvLine{result.score, result.pv};
      if (!SearchOtherLines(pos, depth, &result.lines)) break;
    }
    result.nodes = nodes_ + HelperNodes();
    result.time_ms = ElapsedMs();
    if (on_iteration) result.hashfull = tt_->Hashfull();  // sampled: not free
    if (on_iteration) on_iteration(result);
    if (limits.infinite || Pondering()) continue;
    if (limits.soft_nodes > 0 && nodes_ >= limits.soft_nodes) break;
    if (time_managed &&
        (root_moves.size() == 1 || ClockMs() >= SoftLimitMs(result.best_move)))
      break;
    if (IsMateScore(score) && MateInMoves(score) > 0 &&
        depth >= 2 * MateInMoves(score) + 1 && !limits.depth) {
      break;  // a proven mate will not get better
    }
  }
  // "go infinite" must not return before "stop", "go ponder" not before
  // "ponderhit" or "stop".
  while ((limits.infinite || Pondering()) &&
         !stop_requested_.load(std::memory_order_relaxed)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  StopHelpers();
  if (weakened && result.lines.size() > 1) {
    std::vector<int> scores;
    for (const PvLine& line : result.lines) scores.push_back(line.score);
    const PvLine& chosen = result.lines[PickLine(
        scores, level, Mix(pos.key() ^ Mix(params_.eval_noise_seed() + 7)))];
    result.best_move = chosen.pv[0];
    result.pv = chosen.pv;
    result.score = chosen.score;
  }
  result.nodes = nodes_ + HelperNodes();
  result.tb_hits = tb_hits_;
  result.time_ms = ElapsedMs();
  if (on_iteration) result.hashfull = tt_->Hashfull();  // sampled: not free
  ClearStop();
  pondering_ = false;
  ponderhit_at_us_ = 0;
  return result;
}

}  // namespace chess
