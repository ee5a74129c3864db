#include "tuner/datagen.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/log_reader.h"
#include "arena/match_setup.h"
#include "arena/openings.h"
#include "common/files.h"
#include "common/stopwatch.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "tuner/extract.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::Status Invalid(absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", what));
}

absl::Status Validate(const DatagenConfig& c) {
  const PlayerConfig& p = c.player();
  if (!p.has_config() && !p.has_config_file() && !p.has_external())
    return Invalid("player", "set config, config_file or external");
  if (p.has_external() &&
      (p.external().argv().empty() || p.external().argv(0).empty()))
    return Invalid("player.external.argv", "names no program");
  if (c.games() < 1) return Invalid("games", "must be at least 1");
  // 2^50 nodes is years of search; beyond it 10 x soft_nodes could overflow.
  constexpr int64_t kMostNodes = int64_t(1) << 50;
  if (c.soft_nodes() < 1 || c.soft_nodes() > kMostNodes)
    return Invalid("soft_nodes", "must be 1 to 2^50");
  if (c.hard_nodes() > kMostNodes)
    return Invalid("hard_nodes", "must be at most 2^50");
  if (c.hard_nodes() < 0 ||
      (c.hard_nodes() > 0 && c.hard_nodes() < c.soft_nodes()))
    return Invalid("hard_nodes",
                   "must be 0 (10 x soft_nodes) or >= soft_nodes");
  if (c.random_plies() < 0 || c.random_plies() > 40)
    return Invalid("random_plies", "must be 0..40");
  if (c.concurrency() < 0 || c.concurrency() > 1024)
    return Invalid("concurrency", "must be 0 (one per core) to 1024");
  if (c.filters().max_opening_score_cp() < 0 || c.filters().skip_plies() < 0)
    return Invalid("filters", "values must not be negative");
  return absl::OkStatus();
}

bool Noisy(Move m) { return m.is_capture() || m.is_promotion(); }

// The mover's first recorded score, in centipawns (a mate counts as beyond
// any limit); nullopt when no move has one.
std::optional<int> FirstScore(const GameRecord& game) {
  for (const MoveRecord& m : game.moves()) {
    if (m.mate() != 0) return 1'000'000;
    if (m.has_score_cp()) return m.score_cp();
  }
  return std::nullopt;
}

// Where the set's positions came from and who labelled them: the command
// and its seed, which make the set again, not the paths of the machine that
// made it.
std::string Provenance(const DatagenConfig& c) {
  const PlayerConfig& p = c.player();
  auto file_name = [](const std::string& path) {
    return std::filesystem::path(path).filename().string();
  };
  const std::string who =
      p.has_external()
          ? absl::StrCat("UCI program ", file_name(p.external().argv(0)))
          : absl::StrCat("in-process config ", p.has_config_file()
                                                   ? file_name(p.config_file())
                                                   : "(inline)");
  return absl::StrCat("datagen: self-play of \"", p.name(), "\" (", who,
                      "), soft nodes ", c.soft_nodes(), ", random plies ",
                      c.random_plies(), ", seed ", c.seed(),
                      "; labels: its own search scores and the game results");
}

// Calls `visit` with each valid game of a match log, a batch at a time as
// ScanLogFile reads them (a long run's log is never held whole), until one
// call fails. An empty log is an error, as ReadMatchLog says, and so is a
// damaged one unless `damaged` is given: it then receives the count of damaged
// records, which are skipped.
absl::Status ForEachLoggedGame(
    const std::string& path,
    const std::function<absl::Status(const GameRecord&)>& visit,
    int64_t* damaged = nullptr) {
  absl::Status failed;
  absl::StatusOr<LogScan> scan = ScanLogFile(
      path, [&](const LogScan&, absl::Span<const GameRecord* const> games) {
        for (const GameRecord* g : games) {
          if (!failed.ok()) return;
          failed = visit(*g);
        }
      });
  if (!scan.ok()) return scan.status();
  if (!failed.ok()) return failed;
  if (scan->empty())
    return absl::InvalidArgumentError(absl::StrCat(path, ": empty log"));
  if (damaged) *damaged = int64_t(scan->damage.size());
  if (!scan->damage.empty() && !damaged) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": ", scan->damage.size(),
        " damaged records (see arena summary), the first: ",
        scan->damage.front(),
        "; --drop_damaged plays them again (or, with --played_only, leaves "
        "them out) and keeps every intact game"));
  }
  return absl::OkStatus();
}

// The match of the run: `player` against itself, each game from its own
// random plies, its searches at the config's node limits; `openings` holds the
// book (empty without one).
absl::StatusOr<MatchRequest> DatagenMatch(const DatagenConfig& config,
                                          const PlayerConfig& player,
                                          const std::string& config_dir,
                                          const std::string& output_dir,
                                          const Venue& venue,
                                          std::vector<Opening>* openings) {
  MatchRequest r;
  if (player.has_external()) {
    r.first_external = r.second_external = player.external();
  } else {
    r.first = r.second = player.config();
  }
  r.first_name = player.name() + "-1";
  r.second_name = player.name() + "-2";
  if (!config.book().empty()) {
    r.book_path = ResolvePath(config_dir, config.book());
    absl::StatusOr<std::vector<Opening>> book =
        LoadBook(r.book_path, /*max_plies=*/0);
    if (!book.ok()) return Invalid("book", book.status().message());
    *openings = *std::move(book);
    r.openings = openings;
  }
  r.games = config.games();
  r.soft_nodes = config.soft_nodes();
  r.nodes =
      config.hard_nodes() > 0 ? config.hard_nodes() : 10 * config.soft_nodes();
  r.random_plies = config.random_plies();
  // Both games of a pair of one engine against itself would be one game.
  r.random_plies_per_game = true;
  if (config.has_adjudication()) r.adjudication = config.adjudication();
  r.seed = config.seed();
  r.concurrency = config.concurrency();
  r.output_dir = (fs::path(output_dir) / "games").string();
  r.venue = venue;
  return r;
}

}  // namespace

absl::Status AddSelfPlayPositions(const GameRecord& game,
                                  const DatagenFilters& filters,
                                  absl::flat_hash_set<uint64_t>* seen,
                                  TrainingSink* out, int64_t* kept) {
  if (!ResultIsMeaningful(game)) {
    out->Drop("game_without_meaningful_result", game.moves_size());
    return absl::OkStatus();
  }
  const std::optional<int> opening = FirstScore(game);
  if (filters.max_opening_score_cp() > 0 &&
      (!opening || std::abs(*opening) > filters.max_opening_score_cp())) {
    out->Drop("opening_score_above_max", game.moves_size());
    return absl::OkStatus();
  }
  absl::StatusOr<Position> start =
      Position::FromFen(game.opening_fen(), game.chess960());
  if (!start.ok())
    return absl::DataLossError(
        absl::StrCat("game ", game.index(), ": ", start.status().message()));
  Position pos = *start;
  const float result = WhiteResult(game.result());
  for (int i = 0; i < game.moves_size(); ++i) {
    const MoveRecord& m = game.moves(i);
    absl::StatusOr<Move> move = ParseUci(pos, m.uci());
    if (!move.ok())
      return absl::DataLossError(
          absl::StrCat("game ", game.index(), ": ", move.status().message()));
    const char* drop = nullptr;
    if (i < filters.skip_plies()) {
      drop = "early_ply";
    } else if (!m.has_score_cp() && m.mate() == 0) {
      drop = "no_score";
    } else if (!filters.keep_mate_scores() && m.mate() != 0) {
      drop = "mate_score";
    } else if (!filters.keep_in_check() && pos.InCheck()) {
      drop = "in_check";
    } else if (!filters.keep_noisy_best_moves() && Noisy(*move)) {
      drop = "noisy_best_move";
    } else if (!filters.keep_duplicates() && !seen->insert(pos.key()).second) {
      drop = "duplicate";
    }
    if (drop != nullptr) {
      out->Drop(drop, 1);
    } else {
      // A kept mate score (keep_mate_scores) is written as the evaluation's
      // bound, never as a number of moves.
      const int mover =
          m.mate() == 0 ? m.score_cp() : (m.mate() > 0 ? 32000 : -32000);
      TrainingPosition tp;
      tp.set_fen(pos.ToFen());
      tp.set_result(result);
      tp.set_score_cp(pos.side_to_move() == kWhite ? mover : -mover);
      if (absl::Status s = out->Add(std::move(tp)); !s.ok()) return s;
      ++*kept;
    }
    pos.MakeMove(*move);
  }
  return absl::OkStatus();
}

absl::StatusOr<DatagenReport> RunDatagen(const DatagenConfig& config,
                                         const std::string& config_dir,
                                         const std::string& output_dir,
                                         const std::string& data_path,
                                         const DatagenOptions& options) {
  const Venue& venue = options.venue;
  const bool played_only = options.played_only;
  if (absl::Status s = Validate(config); !s.ok()) return s;
  PlayerConfig player = config.player();
  if (player.name().empty()) player.set_name("player");
  if (absl::Status s = ResolvePlayer(&player, config_dir, "player"); !s.ok())
    return s;

  std::vector<Opening> openings;
  absl::StatusOr<MatchRequest> request =
      DatagenMatch(config, player, config_dir, output_dir, venue, &openings);
  if (!request.ok()) return request.status();
  request->drop_damaged = options.drop_damaged;
  const MatchRequest& r = *request;
  if (SameFile(data_path, PlayedLogPath(r))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--out=", data_path, " is the run's game log; name another file"));
  }
  if (!r.book_path.empty() && SameFile(data_path, r.book_path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--out=", data_path, " is the opening book; name another file"));
  }

  // The games already played: this run's cost is measured on the others.
  const std::string log_path = PlayedLogPath(r);
  absl::flat_hash_set<int64_t> earlier;
  if (fs::exists(log_path)) {
    // A log that cannot be read is the match's to report.
    (void)ForEachLoggedGame(log_path, [&](const GameRecord& g) {
      earlier.insert(g.index());
      return absl::OkStatus();
    });
  }
  if (played_only && earlier.empty()) {
    return absl::NotFoundError(
        absl::StrCat(log_path, ": no finished game to write the data of"));
  }
  if (played_only) {
    if (absl::Status s = CheckPlayedLog(r); !s.ok()) return s;
  }
  const Stopwatch clock;
  if (!played_only) {
    absl::StatusOr<MatchSummary> summary = PlayMatch(r);
    if (!summary.ok()) return summary.status();
  }
  DatagenReport report;
  report.seconds = clock.Seconds();
  report.cores = venue.shards > 0 ? venue.shards * venue.cpus_per_shard
                 : config.concurrency() > 0
                     ? config.concurrency()
                     : int(std::max(1u, std::thread::hardware_concurrency()));
  report.data_path = data_path;

  const Stopwatch write_clock;
  absl::StatusOr<std::unique_ptr<TrainingSetWriter>> writer =
      TrainingSetWriter::Create(
          data_path, options.format.value_or(DatasetFormatOf(data_path)));
  if (!writer.ok()) return writer.status();
  if (absl::Status s = (*writer)->AddSource(Provenance(config)); !s.ok())
    return s;
  absl::flat_hash_set<uint64_t> seen;
  int64_t new_positions = 0, search_us = 0;
  const absl::Status extracted = ForEachLoggedGame(
      log_path,
      [&](const GameRecord& g) {
        int64_t kept = 0;
        if (absl::Status s = AddSelfPlayPositions(g, config.filters(), &seen,
                                                  writer->get(), &kept);
            !s.ok()) {
          return absl::Status(s.code(),
                              absl::StrCat(log_path, ": ", s.message()));
        }
        ++report.games;
        report.positions += kept;
        if (earlier.contains(g.index())) return absl::OkStatus();
        ++report.new_games;
        new_positions += kept;
        for (const MoveRecord& m : g.moves()) search_us += m.time_us();
        return absl::OkStatus();
      },
      played_only && options.drop_damaged ? &report.damaged_records : nullptr);
  if (!extracted.ok()) return extracted;
  if (absl::Status s = (*writer)->Finish(); !s.ok()) return s;
  report.write_seconds = write_clock.Seconds();
  for (const auto& [reason, count] : (*writer)->totals().dropped())
    report.dropped[reason] = count;
  const double core_seconds = report.seconds * report.cores;
  if (report.new_games > 0 && core_seconds > 0) {
    report.positions_per_core_hour = new_positions / (core_seconds / 3600);
    report.search_share = search_us / 1e6 / core_seconds;
  }
  return report;
}

std::string FormatDatagenReport(const DatagenReport& r) {
  std::string text =
      absl::StrFormat("datagen: %d positions from %d games in %s\n",
                      r.positions, r.games, r.data_path);
  for (const auto& [reason, count] : r.dropped)
    absl::StrAppendFormat(&text, "dropped %d %s\n", count, reason);
  if (r.damaged_records > 0) {
    absl::StrAppendFormat(&text, "left out %d damaged records of the log\n",
                          r.damaged_records);
  }
  if (r.new_games > 0) {
    absl::StrAppendFormat(
        &text,
        "this run: %d games in %.1f s on %d cores: %.0f positions per core "
        "hour, %.1f %% of the cores' time in the player's searches\n",
        r.new_games, r.seconds, r.cores, r.positions_per_core_hour,
        100 * r.search_share);
  }
  absl::StrAppendFormat(&text,
                        "the set read from the log, filtered and written in "
                        "%.2f s on one core\n",
                        r.write_seconds);
  return text;
}

}  // namespace chess
