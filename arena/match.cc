#include "arena/match.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arena/affinity.h"
#include "arena/log_reader.h"
#include "arena/match_outputs.h"
#include "arena/merge.h"
#include "arena/openings.h"
#include "arena/pgn.h"
#include "arena/player.h"
#include "arena/referee.h"
#include "arena/report.h"
#include "arena/stats.h"
#include "common/files.h"
#include "common/random.h"
#include "common/record_io.h"
#include "common/stopwatch.h"
#include "common/termination.h"
#include "common/textproto.h"
#include "engine/bench.h"
#include "engine/config.h"
#include "engine/syzygy.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

// The library's only output: notes for whoever runs the match.
void Note(const RunOptions& options, absl::string_view text) {
  if (options.notes) *options.notes << text << std::flush;
}

std::string NowRfc3339() {
  return absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone());
}

// ---- log ----

// Rewrites the log with `header` and the intact games (a raised cap, damaged
// records dropped); returns the log's new length.
absl::StatusOr<uint64_t> RewriteLog(const std::string& log_path,
                                    const MatchHeader& header,
                                    const std::vector<GameRecord>& games) {
  std::vector<std::string> records = {header.SerializeAsString()};
  for (const GameRecord& g : games) records.push_back(g.SerializeAsString());
  return ReplaceRecordFile(log_path, records);
}

// Opens the log for appending: an existing log of the same match is resumed
// (after its torn tail is cut, its cap raised, or with --drop_damaged its
// damaged records dropped), otherwise a new one is started. `done` receives the
// games already played, `header` the log's header as it now stands.
// InvalidArgument: the log may not be touched (another match, damage); other
// errors: it could not be written.
absl::StatusOr<RecordWriter> OpenLog(const LoadedMatch& match,
                                     const RunOptions& options,
                                     const std::string& log_path,
                                     std::vector<GameRecord>* done,
                                     MatchHeader* logged_header) {
  const MatchConfig& config = match.config;
  absl::StatusOr<LogContents> existing =
      options.fresh ? absl::NotFoundError("fresh") : ReadLog(log_path);
  if (!existing.ok() && !absl::IsNotFound(existing.status())) {
    return absl::InvalidArgumentError(
        absl::StrCat(existing.status().message(),
                     " (nothing was changed; use another output_dir, or "
                     "--fresh to start over)"));
  }
  if (!existing.ok() || existing->empty()) {
    absl::StatusOr<RecordWriter> writer = RecordWriter::Create(log_path);
    if (!writer.ok()) return writer.status();
    MatchHeader header;
    *header.mutable_config() = config;
    header.set_engine_revision(options.revision);
    header.set_start_time(NowRfc3339());
    header.set_scheduled_games(int(match.schedule.size()));
    header.set_book_fingerprint(match.book_fingerprint);
    if (options.shard_count > 0) {
      header.set_shard_index(options.shard_index);
      header.set_shard_count(options.shard_count);
    }
    if (absl::Status s = writer->Write(header.SerializeAsString()); !s.ok())
      return s;
    *logged_header = header;
    return writer;
  }
  if (existing->header.merged_from_size() > 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        log_path, ": a merge of shard logs (arena merge); resume the shards"));
  }
  if (existing->header.shard_count() != options.shard_count ||
      existing->header.shard_index() != options.shard_index) {
    auto describe = [](int index, int count) {
      return count > 0 ? absl::StrCat("shard ", index, "/", count)
                       : std::string("the whole match");
    };
    return absl::InvalidArgumentError(absl::StrCat(
        log_path, ": holds ",
        describe(existing->header.shard_index(),
                 existing->header.shard_count()),
        ", not ", describe(options.shard_index, options.shard_count),
        "; use another output_dir"));
  }
  if (!SameMatch(existing->header, match.config, match.book_fingerprint)) {
    return absl::InvalidArgumentError(absl::StrCat(
        log_path,
        ": holds games of a different match (an engine, the book, the time "
        "control, the adjudication, the seed or the pairing changed); use "
        "another output_dir, or --fresh to overwrite it"));
  }
  const int scheduled = int(match.schedule.size());
  const int logged = existing->header.scheduled_games();
  if (scheduled < logged) {
    return absl::InvalidArgumentError(absl::StrCat(
        log_path, ": scheduled for ", logged,
        " games; a resumed match may raise the cap, not lower it"));
  }
  if (!existing->damage.empty() && !options.drop_damaged) {
    return absl::InvalidArgumentError(absl::StrCat(
        log_path, ": damaged records:\n  ",
        absl::StrJoin(existing->damage, "\n  "), "\n", existing->games.size(),
        " intact games; nothing was changed. --drop_damaged rewrites the log "
        "without the damaged records (the old file is kept as ",
        log_path, ".damaged) and plays those games again"));
  }
  *done = existing->games;
  *logged_header = existing->header;
  if (existing->torn) {
    Note(options,
         absl::StrCat(
             log_path,
             ": cut a torn record at the end (an interrupted write)\n"));
  }
  uint64_t valid_bytes = existing->valid_bytes;
  if (scheduled > logged || !existing->damage.empty() ||
      existing->duplicates > 0) {
    std::string kept = log_path + ".damaged";
    if (!existing->damage.empty()) {
      // An earlier drop's copy is kept too.
      for (int n = 1; fs::exists(kept); ++n)
        kept = absl::StrCat(log_path, ".damaged.", n);
      if (::link(log_path.c_str(), kept.c_str()) != 0) {
        return absl::InternalError(absl::StrCat(
            kept, ": cannot keep the damaged log: ", std::strerror(errno),
            "; nothing was changed"));
      }
    }
    MatchHeader header = existing->header;
    if (scheduled > logged) {
      *header.mutable_config() = config;
      header.set_scheduled_games(scheduled);
      header.set_book_fingerprint(match.book_fingerprint);
    }
    absl::StatusOr<uint64_t> size = RewriteLog(log_path, header, *done);
    if (!size.ok()) return size.status();
    valid_bytes = *size;
    *logged_header = header;
    if (scheduled > logged) {
      Note(options, absl::StrCat("game cap raised from ", logged, " to ",
                                 scheduled, "\n"));
    }
    if (!existing->damage.empty()) {
      Note(options,
           absl::StrCat(log_path, ": dropped ", existing->damage.size(),
                        " damaged records (the old log is ", kept,
                        "); their games are played again\n"));
    }
  }
  return RecordWriter::Append(log_path, valid_bytes);
}

// While a shard plays, the SPRT over all shards of its match: the logs in the
// sibling shard-*/ directories (this one's included), merged every `every_ms`
// (more rarely as they grow: at most a twentieth of the time goes to reading
// them). Sets `stop` once the LLR crosses a bound and returns the verdict for
// the summary ("stopped: the SPRT over all shards accepted H1 after N games").
// When the workers finish first it looks once more, since a peer may have
// decided since the last look (fast games, a slow merge); "" if none did.
std::string WatchShardSprt(const std::string& dir, int every_ms,
                           const std::atomic<bool>& workers_done,
                           std::atomic<bool>* stop) {
  fs::path own = fs::absolute(dir).lexically_normal();
  if (!own.has_filename()) own = own.parent_path();  // "x/shard-0/"
  if (own.filename().string().rfind("shard-", 0) != 0) return "";
  const std::string parent = own.parent_path().string();
  // The first look at once: a shard started late may have nothing to do.
  int64_t next_ms = SteadyNowMs();
  int64_t last_took_ms = -1;
  for (;;) {
    const bool last_look = workers_done.load();
    if (!last_look) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (SteadyNowMs() < next_ms) continue;
    }
    const int64_t started = SteadyNowMs();
    absl::StatusOr<MergedLog> merged =
        MergeLogs(ShardLogsIn(parent), /*final_merge=*/false);
    // The cost of a look is the lesser of the last two: logs that grow show
    // in both, while one look slowed by a busy machine (hundreds of ms for a
    // few games, seen) would otherwise push the next one back twenty times
    // as long, past a verdict.
    const int64_t took_ms = SteadyNowMs() - started;
    const int64_t cost_ms =
        last_took_ms < 0 ? took_ms : std::min(took_ms, last_took_ms);
    last_took_ms = took_ms;
    next_ms = SteadyNowMs() + std::max<int64_t>(every_ms, 20 * cost_ms);
    const MatchSummary all = merged.ok() ? merged->summary : MatchSummary();
    // A peer mid-write or damaged, or nothing played yet: next time.
    const SprtVerdict verdict =
        all.pairings().empty() ? SPRT_CONTINUE : all.pairings(0).sprt_verdict();
    if (verdict == SPRT_ACCEPT_H0 || verdict == SPRT_ACCEPT_H1) {
      if (!last_look) *stop = true;
      return absl::StrCat(
          last_look ? "" : "stopped: ", "the SPRT over all shards accepted ",
          verdict == SPRT_ACCEPT_H0 ? "H0" : "H1", " after ",
          all.played_games(), " games");
    }
    if (last_look) return "";
  }
}

// The report of a running match: each game is added as the log takes it, and
// report.html is rewritten from what was added every report_interval_ms. A
// re-read of the log would, on a long match, take every core from the games
// for seconds at a time. A failed rewrite is only a note: the report at the
// end, written from the log, decides the exit code.
class RunningReport {
 public:
  RunningReport(const MatchHeader& header, const std::vector<GameRecord>& done)
      : builder_(header) {
    log_.header = header;
    std::vector<const GameRecord*> games;
    for (const GameRecord& g : done) games.push_back(&g);
    builder_.Add(games);
  }

  void Add(const GameRecord& game) {
    const GameRecord* added[] = {&game};
    std::lock_guard<std::mutex> lock(mutex_);
    builder_.Add(added);
    ++games_;
  }

  // Until `done`, rewrites the report whenever games came since the last.
  void RewriteUntil(const std::string& dir, const RunOptions& options,
                    const std::atomic<bool>& done) {
    using Clock = std::chrono::steady_clock;
    // At most a tenth of a core: a rewrite waits ten times the last one.
    Clock::duration wait =
        std::chrono::milliseconds(options.report_interval_ms);
    auto last = Clock::now();
    size_t reported = 0;
    while (!done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (Clock::now() - last < wait) continue;
      last = Clock::now();
      std::optional<MatchReportData> data;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (games_ == reported) continue;
        reported = games_;
        data = builder_.Snapshot(SummarizeScan(log_, builder_.standings()));
      }
      if (absl::Status s = WriteMatchReport(*data, log_.header, dir); !s.ok())
        Note(options,
             absl::StrCat("\nreport not updated: ", s.message(), "\n"));
      wait = std::max<Clock::duration>(
          std::chrono::milliseconds(options.report_interval_ms),
          10 * (Clock::now() - last));
    }
  }

 private:
  LogScan log_;  // the header; the games played here are intact
  std::mutex mutex_;
  MatchReportBuilder builder_;
  size_t games_ = 0;
};

// ---- progress ----

class Progress {
 public:
  Progress(const RunOptions& options, int total, int already)
      : out_(options.progress ? options.notes : nullptr),
        tty_(options.notes_are_terminal),
        total_(total),
        already_(already),
        start_ms_(SteadyNowMs()) {}

  void Update(const Standings& standings, bool force) {
    if (!out_) return;
    const int done = standings.played();
    const int64_t now = SteadyNowMs();
    if (done == last_done_) return;
    if (!tty_ && !force && now - last_ms_ < 10000 &&
        done % std::max(1, total_ / 20) != 0)
      return;
    last_ms_ = now;
    last_done_ = done;
    const PairingSummary s = standings.Summary(0);
    const double minutes = std::max(1, int(now - start_ms_)) / 60000.0;
    const double per_min = (done - already_) / minutes;
    const double eta_s = per_min > 0 ? (total_ - done) / per_min * 60 : 0;
    std::string line =
        absl::StrFormat("%d/%d games  %s vs %s: %d-%d-%d  ", done, total_,
                        s.first(), s.second(), s.wins(), s.draws(), s.losses());
    if (s.has_elo()) {
      absl::StrAppendFormat(&line, "Elo %+.1f +- %.1f", s.elo(), s.elo_error());
    } else {
      absl::StrAppend(&line, "Elo n/a");
    }
    if (s.has_llr()) {
      absl::StrAppendFormat(&line, "  LLR %.2f (%.2f, %.2f)", s.llr(),
                            s.llr_lower(), s.llr_upper());
    }
    absl::StrAppendFormat(&line, "  %.1f games/min  ETA %ds", per_min,
                          int(eta_s));
    if (tty_) {
      *out_ << "\r" << line << "\033[K" << std::flush;
    } else {
      *out_ << line << "\n";
    }
  }

  void Finish() {
    if (out_ && tty_) *out_ << "\n";
  }

 private:
  std::ostream* out_;
  bool tty_;
  int total_, already_;
  int64_t start_ms_, last_ms_ = 0;
  int last_done_ = -1;
};

// A machine this much faster or slower than the reference is refused rather
// than given a clock of another kind of game.
constexpr double kMinClockScale = 0.1;
constexpr double kMaxClockScale = 10;

// A clock's base, increment and movetime times `scale` (at least 1 ms where
// they were set); node and depth limits and the margin as they are.
TimeControl ScaledClock(TimeControl tc, double scale) {
  if (scale == 1) return tc;
  auto scaled = [scale](int64_t ms) {
    return ms > 0 ? std::max<int64_t>(1, std::llround(ms * scale)) : ms;
  };
  tc.set_base_ms(scaled(tc.base_ms()));
  tc.set_increment_ms(scaled(tc.increment_ms()));
  tc.set_movetime_ms(scaled(tc.movetime_ms()));
  return tc;
}

struct ClockScaling {
  double scale = 1;
  double machine_nps = 0;  // 0: not measured (no scaling asked)
};

// The factor this machine's clocks get (MatchConfig.clock_reference_nps):
// the reference over its nodes/s, the median of five runs of our bench on
// one thread (about a second), or RunOptions.machine_nps where given.
absl::StatusOr<ClockScaling> ScaleClocksToMachine(const MatchConfig& config,
                                                  const RunOptions& options) {
  if (config.clock_reference_nps() <= 0) return ClockScaling{};
  double nps = options.machine_nps;
  if (nps <= 0) {
    std::vector<double> runs;
    for (int i = 0; i < 5; ++i)
      runs.push_back(double(RunBench(DefaultEngineConfig(), 8, nullptr).nps()));
    std::sort(runs.begin(), runs.end());
    nps = runs[runs.size() / 2];
  }
  const double scale = config.clock_reference_nps() / nps;
  if (!(scale >= kMinClockScale && scale <= kMaxClockScale)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "clock_reference_nps: this machine measures %.0f nodes/s, %.3f times "
        "the reference %.0f; clocks are scaled only within [%g, %g]",
        nps, 1 / scale, config.clock_reference_nps(), kMinClockScale,
        kMaxClockScale));
  }
  return ClockScaling{.scale = scale, .machine_nps = nps};
}

std::unique_ptr<Player> MakePlayer(const PlayerConfig& p) {
  if (p.has_external()) return std::make_unique<UciProcessPlayer>(p.external());
  return std::make_unique<InProcessPlayer>(p.config());
}

}  // namespace

absl::StatusOr<MatchSummary> PlayMatchForSummary(const LoadedMatch& match,
                                                 const RunOptions& options) {
  const MatchConfig& config = match.config;
  const std::string dir =
      !options.output_dir.empty() ? options.output_dir : config.output_dir();
  if (dir.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(match.source,
                     ":1:1: output_dir: missing; set it in the config or pass "
                     "--output_dir"));
  }
  // Measured before anything is written: a machine too far from the
  // reference leaves no log behind.
  absl::StatusOr<ClockScaling> clocks = ScaleClocksToMachine(config, options);
  if (!clocks.ok()) return clocks.status();
  if (clocks->machine_nps > 0) {
    Note(options, absl::StrFormat("clocks scaled x%.3f: this machine %.0f "
                                  "nodes/s, the reference %.0f\n",
                                  clocks->scale, clocks->machine_nps,
                                  config.clock_reference_nps()));
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) {
    return absl::InternalError(
        absl::StrCat(dir, ": cannot create the output directory",
                     ec ? ": " + ec.message() : ""));
  }
  // Two runs in one directory would tear each other's log.
  absl::StatusOr<DirectoryLock> lock = DirectoryLock::Acquire(dir);
  if (!lock.ok()) return lock.status();
  if (const std::string& tables = config.adjudication().tb_path();
      !tables.empty()) {
    // Loaded once for every game; a damaged table is left out, and said so.
    if (absl::StatusOr<syzygy::TableSet> loaded = syzygy::Load(tables);
        loaded.ok()) {
      for (const std::string& skipped : loaded->skipped)
        Note(options, absl::StrCat("tablebases: ", skipped, "\n"));
    }
  }
  const std::string log_path = (fs::path(dir) / "games.log").string();

  // Resume from an existing log of the same match, or start a new one.
  std::vector<GameRecord> done;
  MatchHeader header;
  absl::StatusOr<RecordWriter> opened =
      OpenLog(match, options, log_path, &done, &header);
  if (!opened.ok()) return opened.status();
  SharedRecordWriter log_writer(*std::move(opened));

  // A shard's standings are its own games': no SPRT verdict on a part.
  MatchConfig standings_config = config;
  if (options.shard_count > 0) standings_config.clear_sprt();
  Standings standings(standings_config);
  std::set<int> done_indices;
  for (const GameRecord& g : done) {
    standings.Add(g);
    done_indices.insert(g.index());
  }
  std::vector<const ScheduledGame*> pending;
  // A shard plays its part of the schedule; the SPRT is decided on the merge
  // of all shards, so a shard does not stop on its own games' LLR.
  const bool sharded = options.shard_count > 0;
  const int num_pairings = int(Pairings(config).size());
  int scheduled = 0;
  for (const ScheduledGame& g : match.schedule) {
    if (sharded && !InShard(g.round, g.pairing, num_pairings,
                            options.shard_index, options.shard_count)) {
      continue;
    }
    ++scheduled;
    if (!done_indices.count(g.index)) pending.push_back(&g);
  }
  if (!done.empty()) {
    Note(options, absl::StrCat("resuming: ", done.size(), " games in the log, ",
                               pending.size(), " to play\n"));
  }

  int concurrency =
      options.concurrency > 0 ? options.concurrency : config.concurrency();
  if (concurrency <= 0) {
    concurrency = int(std::max(1u, std::thread::hardware_concurrency()));
    // With pinned games, as many as the cores hold.
    if (config.use_affinity())
      concurrency = std::max(1, concurrency / ThreadsPerGame(config));
  }
  concurrency = std::min<int>(concurrency, std::max<size_t>(pending.size(), 1));

  std::mutex mutex;
  std::atomic<size_t> next{0};
  auto sprt_decided = [&] {
    return !sharded && standings.Decision() != SprtDecision::kContinue;
  };
  std::atomic<bool> stop{sprt_decided()};
  bool io_failed = false;
  Progress progress(options, scheduled, int(done.size()));

  std::optional<RunningReport> report;
  if (options.report_interval_ms > 0) report.emplace(header, done);

  std::vector<std::vector<int>> core_sets;
  if (config.use_affinity()) {
    absl::StatusOr<std::vector<std::vector<int>>> sets =
        CoreSetsPerGame(concurrency, ThreadsPerGame(config));
    if (!sets.ok()) return sets.status();
    core_sets = *std::move(sets);
  }

  auto worker = [&](int slot) {
    // A failure to pin leaves the game unpinned: it still counts.
    if (!core_sets.empty()) PinCurrentThread(core_sets[slot]).IgnoreError();
    std::vector<std::unique_ptr<Player>> players(config.players_size());
    while (!stop.load()) {
      const size_t i = next.fetch_add(1);
      if (i >= pending.size()) break;
      const ScheduledGame& s = *pending[i];
      GameRecord record;
      record.set_index(s.index);
      record.set_round(s.round);
      record.set_pairing(s.pairing);
      record.set_opening_index(s.opening);
      record.set_seed(s.seed);
      Seat seats[2];
      for (int side = 0; side < 2; ++side) {
        const int p = side == 0 ? s.white : s.black;
        if (!players[p]) players[p] = MakePlayer(config.players(p));
        const PlayerConfig& pc = config.players(p);
        seats[side] = Seat{players[p].get(), pc.name(),
                           ScaledClock(pc.time_control(), clocks->scale),
                           pc.has_external(), pc.external().move_timeout_ms()};
      }
      if (clocks->machine_nps > 0) {
        record.set_clock_scale(clocks->scale);
        record.set_machine_nps(clocks->machine_nps);
      }
      // Every game of a round gets the same random plies (and so both games
      // of a pair), unless each game is to get its own; the seed is the
      // match's, whatever shard plays the game.
      const uint64_t line = config.openings().random_plies_per_game()
                                ? uint64_t(s.index) + (uint64_t(1) << 40)
                                : uint64_t(s.round);
      const Opening opening = WithRandomPlies(
          match.openings[s.opening], config.openings().random_plies(),
          Mix64(config.seed() ^ (line * 0xA24BAED4963EE407ull)));
      PlayGame(opening, seats[0], seats[1], config.adjudication(), &record);
      // A SIGTERM's end of the engines is no result; the game is played again
      // when the match resumes.
      if (TerminationRequested()) break;
      record.set_end_time(NowRfc3339());
      // Durable before it counts; the disk's sync is shared between the
      // games that finish together, and holds no lock of ours.
      const absl::Status written = log_writer.Write(record.SerializeAsString());
      std::lock_guard<std::mutex> lock(mutex);
      if (io_failed) break;
      if (!written.ok()) {
        Note(options, absl::StrCat("\n", written.message(), "\n"));
        io_failed = true;
        stop = true;
        break;
      }
      standings.Add(record);
      if (report) report->Add(record);
      if (sprt_decided()) stop = true;
      progress.Update(standings, false);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < concurrency; ++t) threads.emplace_back(worker, t);
  std::atomic<bool> workers_done{false};
  std::string global_verdict;  // set by the peer watch when it stops us
  std::thread peer_watch;
  if (sharded && config.has_sprt()) {
    peer_watch = std::thread([&] {
      global_verdict =
          WatchShardSprt(dir, options.peer_check_ms, workers_done, &stop);
    });
  }
  std::thread report_watch;
  if (report) {
    report_watch =
        std::thread([&] { report->RewriteUntil(dir, options, workers_done); });
  }
  for (std::thread& t : threads) t.join();
  workers_done = true;
  if (peer_watch.joinable()) peer_watch.join();
  if (report_watch.joinable()) report_watch.join();
  progress.Update(standings, true);
  progress.Finish();

  int exit_code = kExitOk;
  if (io_failed) {
    exit_code = kExitIoError;
  } else if (standings.engine_failed()) {
    exit_code = kExitEngineFailure;
  } else if (standings.Decision() == SprtDecision::kAcceptH0) {
    exit_code = kExitH0;
  }
  MatchSummary summary = standings.Build(scheduled);
  if (sharded) NameShard(options.shard_index, options.shard_count, &summary);
  summary.set_exit_code(exit_code);
  summary.set_verdict(SummaryVerdict(summary, exit_code));
  if (!global_verdict.empty() && exit_code == kExitOk) {
    summary.set_verdict(global_verdict);
  }
  // Derived files, rewritten from the log so they always match it.
  absl::Status written = WriteDerivedFiles(dir, log_path, &summary);
  if (!written.ok()) {
    Note(options, absl::StrCat(written.message(), "\n"));
    MarkIoError(&summary);
  }
  return summary;
}

int RunMatch(const LoadedMatch& match, const RunOptions& options) {
  absl::StatusOr<MatchSummary> summary = PlayMatchForSummary(match, options);
  if (!summary.ok()) {
    Note(options, absl::StrCat(summary.status().message(), "\n"));
    return ExitCodeFor(summary.status());
  }
  if (options.out) *options.out << FormatSummary(*summary);
  return summary->exit_code();
}

}  // namespace chess
