#include "engine/syzygy.h"

#include <tbprobe.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <system_error>

#include "absl/algorithm/container.h"
#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "engine/bitboard.h"
#include "engine/movegen.h"

namespace chess::syzygy {
namespace {

// Fathom's tables are process-wide; so is what guards them.
struct Tables {
  absl::Mutex mutex;
  TableSet loaded ABSL_GUARDED_BY(mutex);
  // loaded.largest, for the search's cheap test before it takes the lock.
  std::atomic<int> largest{0};
};

Tables& TheTables() {
  static Tables* const tables = new Tables;
  return *tables;
}

// Fathom's inputs for a position: the bitboards it takes.
struct FathomPosition {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned ep;
  bool white_to_move;
};

FathomPosition ToFathom(const Position& pos) {
  const Square ep = pos.en_passant_square();
  return {pos.pieces(kWhite),
          pos.pieces(kBlack),
          pos.pieces(kKing),
          pos.pieces(kQueen),
          pos.pieces(kRook),
          pos.pieces(kBishop),
          pos.pieces(kKnight),
          pos.pieces(kPawn),
          ep == kNoSquare ? 0u : unsigned(ep),
          pos.side_to_move() == kWhite};
}

Wdl FromFathomWdl(unsigned wdl) {
  switch (wdl) {
    case TB_LOSS:
      return Wdl::kLoss;
    case TB_BLESSED_LOSS:
      return Wdl::kBlessedLoss;
    case TB_CURSED_WIN:
      return Wdl::kCursedWin;
    case TB_WIN:
      return Wdl::kWin;
    default:
      return Wdl::kDraw;
  }
}

// Fathom's root scores: a win or a loss within the 50-move rule scores beyond
// this; a cursed win or blessed loss below it, but not 0.
constexpr int32_t kFathomDecisive = TB_VALUE_MATE - 2 * TB_MAX_MATE_PLY;

Wdl FromRootScore(int32_t score) {
  if (score >= kFathomDecisive) return Wdl::kWin;
  if (score > 0) return Wdl::kCursedWin;
  if (score <= -kFathomDecisive) return Wdl::kLoss;
  if (score < 0) return Wdl::kBlessedLoss;
  return Wdl::kDraw;
}

// Fathom's move (from, to, promotion piece) among the legal moves.
std::optional<Move> FindMove(const MoveList& legal, TbMove tb_move) {
  static constexpr PieceType kPromotions[] = {kNoPieceType, kQueen, kRook,
                                              kBishop, kKnight};
  const Square from = TB_MOVE_FROM(tb_move), to = TB_MOVE_TO(tb_move);
  const unsigned promotes = TB_MOVE_PROMOTES(tb_move);
  for (Move m : legal) {
    if (m.from() != from || m.to() != to) continue;
    const PieceType promotion =
        m.is_promotion() ? m.promotion_type() : kNoPieceType;
    if (promotes < 5 && promotion == kPromotions[promotes]) return m;
  }
  return std::nullopt;
}

int CountTables(const std::vector<std::string>& directories) {
  int count = 0;
  for (const std::string& dir : directories) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
      if (entry.path().extension() == ".rtbw") ++count;
    }
  }
  return count;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> Directories(absl::string_view paths) {
  std::vector<std::string> directories =
      absl::StrSplit(paths, ':', absl::SkipEmpty());
  for (const std::string& dir : directories) {
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
      return absl::NotFoundError(
          absl::StrCat("\"", dir, "\" is not a directory"));
    }
  }
  return directories;
}

absl::StatusOr<TableSet> Load(absl::string_view paths) {
  absl::StatusOr<std::vector<std::string>> directories = Directories(paths);
  if (!directories.ok()) {
    return absl::NotFoundError(absl::StrCat("Syzygy path ",
                                            directories.status().message(),
                                            " (SyzygyPath \"", paths, "\")"));
  }
  Tables& tables = TheTables();
  absl::MutexLock lock(&tables.mutex);
  if (tables.loaded.paths == paths) return tables.loaded;
  const std::string path_text(paths);
  if (!tb_init(path_text.c_str())) {
    tables.loaded = TableSet();
    tables.largest = 0;
    return absl::InternalError(
        absl::StrCat("Fathom could not load the tables of \"", paths, "\""));
  }
  tables.loaded =
      TableSet{path_text, CountTables(*directories), int(TB_LARGEST)};
  tables.largest = tables.loaded.largest;
  return tables.loaded;
}

TableSet Loaded() {
  Tables& tables = TheTables();
  absl::ReaderMutexLock lock(&tables.mutex);
  return tables.loaded;
}

bool Probeable(const Position& pos, int max_pieces) {
  const int pieces = PopCount(pos.occupied());
  return pos.castling_rights() == 0 && pieces <= max_pieces &&
         pieces <= TheTables().largest.load(std::memory_order_relaxed);
}

std::optional<Wdl> ProbeWdl(const Position& pos) {
  if (pos.halfmove_clock() != 0 || pos.castling_rights() != 0) {
    return std::nullopt;
  }
  const FathomPosition f = ToFathom(pos);
  Tables& tables = TheTables();
  // Exclusive: Debian's Fathom has no locks of its own (it is built with
  // TB_NO_THREADS: libfathom imports no mutex) and loads a table on its first
  // probe, so two probes at once could both load it.
  absl::MutexLock lock(&tables.mutex);
  if (PopCount(pos.occupied()) > int(TB_LARGEST)) return std::nullopt;
  const unsigned result =
      tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
                   f.knights, f.pawns, 0, 0, f.ep, f.white_to_move);
  if (result == TB_RESULT_FAILED) return std::nullopt;
  return FromFathomWdl(result);
}

std::optional<RootRanking> RankRootMoves(const Position& pos, bool has_repeated,
                                         bool use_rule50) {
  if (pos.castling_rights() != 0) return std::nullopt;
  const MoveList legal = LegalMoves(pos);
  if (legal.empty()) return std::nullopt;
  const FathomPosition f = ToFathom(pos);
  auto ranked = std::make_unique<TbRootMoves>();
  bool by_dtz = true;
  {
    // Fathom's root probes share state between calls: one at a time.
    Tables& tables = TheTables();
    absl::MutexLock lock(&tables.mutex);
    if (PopCount(pos.occupied()) > int(TB_LARGEST)) return std::nullopt;
    if (!tb_probe_root_dtz(
            f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights,
            f.pawns, unsigned(pos.halfmove_clock()), 0, f.ep, f.white_to_move,
            has_repeated, use_rule50, ranked.get())) {
      by_dtz = false;
      if (!tb_probe_root_wdl(f.white, f.black, f.kings, f.queens, f.rooks,
                             f.bishops, f.knights, f.pawns,
                             unsigned(pos.halfmove_clock()), 0, f.ep,
                             f.white_to_move, use_rule50, ranked.get())) {
        return std::nullopt;
      }
    }
  }
  if (ranked->size == 0) return std::nullopt;
  int32_t best_rank = ranked->moves[0].tbRank;
  int32_t best_score = ranked->moves[0].tbScore;
  for (unsigned i = 1; i < ranked->size; ++i) {
    if (ranked->moves[i].tbRank > best_rank) {
      best_rank = ranked->moves[i].tbRank;
      best_score = ranked->moves[i].tbScore;
    }
  }
  RootRanking ranking;
  ranking.by_dtz = by_dtz;
  ranking.value = FromRootScore(best_score);
  std::vector<Move> best;
  for (unsigned i = 0; i < ranked->size; ++i) {
    if (ranked->moves[i].tbRank != best_rank) continue;
    if (const std::optional<Move> m = FindMove(legal, ranked->moves[i].move))
      best.push_back(*m);
  }
  for (Move m : legal)
    if (absl::c_linear_search(best, m)) ranking.best_moves.push_back(m);
  if (ranking.best_moves.empty()) return std::nullopt;
  return ranking;
}

Wdl WithRule50(Wdl wdl, bool use_rule50) {
  if (use_rule50) {
    if (wdl == Wdl::kCursedWin || wdl == Wdl::kBlessedLoss) return Wdl::kDraw;
    return wdl;
  }
  if (wdl == Wdl::kCursedWin) return Wdl::kWin;
  if (wdl == Wdl::kBlessedLoss) return Wdl::kLoss;
  return wdl;
}

}  // namespace chess::syzygy
