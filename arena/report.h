// The match report: OUTPUT_DIR/report.html, one page that opens from disk with
// no network (standings, Elo and LLR as the games came in, pentanomial and
// termination bars, per-player time/depth/nodes through the game, a game list
// and a game viewer). Written at the end of every match and merge, rewritten
// while a match runs, and by `arena report`.
#ifndef ARENA_REPORT_H_
#define ARENA_REPORT_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "arena/log_reader.h"
#include "arena/match_log.pb.h"
#include "arena/standings.h"

namespace chess {

// The standings of one pairing after `games` of its games (log order).
struct EloSample {
  int games = 0;
  bool measurable = false;
  double elo = 0, elo_error = 0;
  double llr = 0;
};

// Per player, moves played in a stretch of the game (by move number).
struct PhaseCell {
  int moves = 0;
  double time_ms = 0, depth = 0, nodes = 0;  // sums over the moves
};
inline constexpr int kPhaseMoves = 10;  // moves per stretch
inline constexpr int kPhaseCells = 8;   // the last holds every later move

// A game as the page's game list shows it (players by index in `players`).
struct GameListing {
  int index = 0, white = 0, black = 0, result = 0, termination = 0;
  int plies = 0, round = 0, opening = 0;
};

struct MatchReportData {
  MatchSummary summary;
  std::vector<std::string> players;
  std::map<std::string, int> player_index;       // name -> index in `players`
  std::vector<std::pair<int, int>> pairings;     // player indices
  std::vector<std::vector<EloSample>> progress;  // per pairing
  std::vector<std::vector<PhaseCell>> phases;    // per player
  std::vector<GameListing> games;                // by schedule index
  // Per game of `games`, the viewer's data: [opening FEN, moves, scores].
  std::vector<std::string> moves;
};

// Builds the report's data from a log's games as they come, in log order, so
// that a large log need not be held in memory (see ScanLog): each game leaves
// only its listing, its compact moves and its share of the sums.
class MatchReportBuilder {
 public:
  explicit MatchReportBuilder(const MatchHeader& header);
  MatchReportBuilder(const MatchReportBuilder&) = delete;
  MatchReportBuilder& operator=(const MatchReportBuilder&) = delete;

  // Games in log order; their moves are rendered on every core.
  void Add(absl::Span<const GameRecord* const> games);
  // The standings of the games added: the summary is built on them.
  const Standings& standings() const { return standings_; }
  // `summary` is the one result.textproto holds.
  MatchReportData Finish(const MatchSummary& summary) &&;
  // The same without ending the build: the data is copied (a running match's
  // report, rewritten from time to time while games are added).
  MatchReportData Snapshot(const MatchSummary& summary) const;

 private:
  // Samples the standings into `progress` if games came since its last one.
  void SampleProgress(std::vector<std::vector<EloSample>>* progress) const;
  // Every other sample dropped once there are twice as many as the page
  // draws, and the spacing doubled: 300 to 600 samples however many games
  // come, with no need to know how many will.
  void ThinProgress();

  Standings standings_;
  size_t sample_every_ = 1;
  size_t added_ = 0;
  MatchReportData data_;
};

// `summary` is the one result.textproto holds.
MatchReportData BuildMatchReportData(const LogContents& log,
                                     const MatchSummary& summary);

struct ReportOptions {
  // Game moves up to this many bytes go inside the page; beyond, they are
  // written in chunks under report-games/ and loaded when a game is opened.
  size_t inline_moves_bytes = 3 << 20;
  int games_per_chunk = 1000;
};

struct ReportFile {
  std::string path;  // relative to the output directory
  std::string contents;
};

// report.html first, then any chunk files.
std::vector<ReportFile> RenderMatchReport(const MatchReportData& data,
                                          const MatchHeader& header,
                                          const ReportOptions& options = {});

// Renders and writes the report into `dir` (each file atomically; chunks
// before the page that loads them; stale chunks removed).
absl::Status WriteMatchReport(const MatchReportData& data,
                              const MatchHeader& header, const std::string& dir,
                              const ReportOptions& options = {});
absl::Status WriteMatchReport(const LogContents& log,
                              const MatchSummary& summary,
                              const std::string& dir,
                              const ReportOptions& options = {});

// A log file read for its report a batch of games at a time (see ScanLog):
// what `arena report` and a running match's report read. `data.summary` is
// the one SummarizeLog gives. Errors are ReadLog's, and InvalidArgument for an
// empty log.
struct ReportedLog {
  MatchHeader header;
  MatchReportData data;
};
absl::StatusOr<ReportedLog> ReadLogForReport(const std::string& log_path);
// The same from any source of games; `name` names it in errors.
absl::StatusOr<ReportedLog> ReadGamesForReport(GameScan games,
                                               absl::string_view name);

// The mover's score from White's side, as the page's evaluation graph reads
// it: centipawns, or +-(100000 + moves to mate); kNoScore when the engine
// reported none.
inline constexpr int kNoScore = 1 << 30;
int WhiteViewScore(const MoveRecord& move, bool white_moved);

}  // namespace chess

#endif  // ARENA_REPORT_H_
