#include "arena/match.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arena/pgn.h"
#include "arena/player.h"
#include "arena/record_io.h"
#include "arena/referee.h"
#include "arena/stats.h"
#include "engine/config.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::Status Invalid(absl::string_view field_path, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field_path, ": ", what));
}

int TimeControlKinds(const TimeControl& tc) {
  return (tc.depth() > 0) + (tc.nodes() > 0) + (tc.movetime_ms() > 0) +
         (tc.base_ms() > 0 || tc.increment_ms() > 0);
}

absl::Status ValidateTimeControl(const TimeControl& tc,
                                 absl::string_view path) {
  if (tc.depth() < 0 || tc.nodes() < 0 || tc.movetime_ms() < 0 ||
      tc.base_ms() < 0 || tc.increment_ms() < 0 || tc.margin_ms() < 0) {
    return Invalid(path, "time control values must not be negative");
  }
  if (tc.depth() > 100)
    return Invalid(path, "depth above 100 is not a useful limit");
  const int kinds = TimeControlKinds(tc);
  if (kinds == 0)
    return Invalid(path, "no limit: set depth, nodes, movetime_ms or base_ms");
  if (kinds > 1)
    return Invalid(path,
                   "set exactly one of depth, nodes, movetime_ms, or a clock");
  if (tc.increment_ms() > 0 && tc.base_ms() == 0) {
    return Invalid(
        path,
        "a clock needs base_ms > 0 (increment alone gives no first move time)");
  }
  return absl::OkStatus();
}

// Checks everything that does not need files; paths name the offending field.
absl::Status ValidateShape(const MatchConfig& c) {
  if (c.players_size() < 2)
    return Invalid("players", "a match needs at least two players");
  std::set<std::string> names;
  for (int i = 0; i < c.players_size(); ++i) {
    const PlayerConfig& p = c.players(i);
    const std::string which = absl::StrCat(" (player ", i + 1, ")");
    if (p.name().empty())
      return Invalid("players.name", absl::StrCat("missing", which));
    if (!names.insert(p.name()).second) {
      return Invalid("players.name",
                     absl::StrCat("\"", p.name(), "\" is used twice"));
    }
    if (p.engine_case() == PlayerConfig::ENGINE_NOT_SET) {
      return Invalid(
          "players",
          absl::StrCat("\"", p.name(),
                       "\" needs one of config, config_file, external"));
    }
    if (p.has_external()) {
      if (p.external().argv().empty() || p.external().argv(0).empty()) {
        return Invalid("players.external.argv",
                       absl::StrCat("empty for \"", p.name(), "\""));
      }
      if (p.has_overrides()) {
        return Invalid("players.overrides", "apply only to in-process engines");
      }
      if (p.external().startup_timeout_ms() <= 0 ||
          p.external().move_timeout_ms() <= 0) {
        return Invalid("players.external", "timeouts must be positive");
      }
    }
    const TimeControl& tc =
        p.has_time_control() ? p.time_control() : c.time_control();
    if (absl::Status s = ValidateTimeControl(
            tc, p.has_time_control() ? "players.time_control" : "time_control");
        !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(s.message(), which));
    }
  }
  if (c.pairing() == MatchConfig::HEAD_TO_HEAD && c.players_size() != 2) {
    return Invalid(
        "pairing",
        absl::StrCat("HEAD_TO_HEAD needs exactly 2 players, not ",
                     c.players_size(), " (use GAUNTLET or ROUND_ROBIN)"));
  }
  if ((c.games() > 0) == (c.rounds() > 0)) {
    return Invalid(c.games() > 0 ? "games" : "rounds",
                   "set exactly one of games and rounds, > 0");
  }
  if (c.games() % 2 != 0) {
    return Invalid(
        "games",
        "must be even: every opening is played twice, colours swapped");
  }
  if (c.games() < 0 || c.rounds() < 0)
    return Invalid("games", "must be positive");
  if (c.concurrency() < 0 || c.concurrency() > 1024) {
    return Invalid("concurrency",
                   "must be between 0 (number of cores) and 1024");
  }
  const Adjudication& a = c.adjudication();
  if (a.resign_score_cp() < 0 || a.resign_moves() < 1 ||
      a.draw_score_cp() < 0 || a.draw_moves() < 0 || a.draw_move_number() < 0 ||
      a.max_moves() < 0) {
    return Invalid("adjudication", "values must be positive");
  }
  if (c.openings().max_plies() < 0 || c.openings().start_index() < 0) {
    return Invalid("openings",
                   "max_plies and start_index must not be negative");
  }
  if (c.has_sprt()) {
    const SprtConfig& s = c.sprt();
    if (c.pairing() != MatchConfig::HEAD_TO_HEAD) {
      return Invalid("sprt", "needs pairing HEAD_TO_HEAD");
    }
    if (!(s.elo0() < s.elo1()))
      return Invalid("sprt", "elo0 must be below elo1");
    if (!(s.alpha() > 0 && s.alpha() < 1 && s.beta() > 0 && s.beta() < 1 &&
          s.alpha() + s.beta() < 1)) {
      return Invalid("sprt",
                     "alpha and beta must be in (0, 1) with alpha + beta < 1");
    }
  }
  return absl::OkStatus();
}

// Replaces config files by their contents, merges overrides, fills in time
// controls.
absl::Status ResolvePlayers(MatchConfig* c, const std::string& base_dir) {
  for (PlayerConfig& p : *c->mutable_players()) {
    if (!p.has_time_control()) *p.mutable_time_control() = c->time_control();
    if (p.has_external()) {
      ExternalEngine* e = p.mutable_external();
      if (!e->working_dir().empty())
        e->set_working_dir(ResolvePath(base_dir, e->working_dir()));
      // "./engine" style programs are relative to the config; bare names use
      // PATH.
      if (e->argv(0).find('/') != std::string::npos)
        e->set_argv(0, ResolvePath(base_dir, e->argv(0)));
      continue;
    }
    if (p.has_config_file()) {
      absl::StatusOr<EngineConfig> loaded =
          LoadEngineConfig(ResolvePath(base_dir, p.config_file()));
      if (!loaded.ok())
        return Invalid("players.config_file", loaded.status().message());
      *p.mutable_config() = *loaded;  // clears config_file (oneof)
    }
    // No evaluation at all would be a random mover; nobody means that.
    if (!p.config().has_eval())
      *p.mutable_config()->mutable_eval() = DefaultEngineConfig().eval();
    if (p.has_overrides()) {
      p.mutable_config()->MergeFrom(p.overrides());
      p.clear_overrides();
    }
    if (absl::Status s = ValidateEngineConfig(p.config()); !s.ok()) {
      return Invalid("players.config",
                     absl::StrCat("\"", p.name(), "\": ", s.message()));
    }
  }
  return absl::OkStatus();
}

std::string NowRfc3339() {
  return absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone());
}

// ---- standings ----

double FirstPlayerPoints(const GameRecord& g, const std::string& first) {
  if (g.result() == GameRecord::DRAW) return 0.5;
  const bool white_won = g.result() == GameRecord::WHITE_WINS;
  return (g.white() == first) == white_won ? 1.0 : 0.0;
}

class Standings {
 public:
  Standings(const MatchConfig& config)
      : config_(config), pairings_(Pairings(config)) {
    per_pairing_.resize(pairings_.size());
    if (config_.has_sprt())
      for (Entry& e : per_pairing_) e.llr = SprtLlr(Sprt(), e.penta);
  }

  void Add(const GameRecord& g) {
    Entry& e = per_pairing_[g.pairing()];
    const double points = FirstPlayerPoints(
        g, config_.players(pairings_[g.pairing()].first).name());
    if (points == 1)
      ++e.tri.wins;
    else if (points == 0)
      ++e.tri.losses;
    else
      ++e.tri.draws;
    auto& pair = e.open_pairs[g.round()];
    pair.push_back(points);
    if (pair.size() == 2) {
      const int half_points = int(2 * (pair[0] + pair[1]) + 0.5);  // 0..4
      int* bucket[] = {&e.penta.ll, &e.penta.ld, &e.penta.wl_dd, &e.penta.wd,
                       &e.penta.ww};
      ++*bucket[half_points];
      e.open_pairs.erase(g.round());
      if (config_.has_sprt()) e.llr = SprtLlr(Sprt(), e.penta);
    }
    ++terminations_[GameRecord::Termination_Name(g.termination())];
    ++played_;
    if (g.termination() == GameRecord::ENGINE_START_FAILURE)
      engine_failed_ = true;
  }

  PairingSummary Summary(int p) const {
    const Entry& e = per_pairing_[p];
    PairingSummary s;
    s.set_first(config_.players(pairings_[p].first).name());
    s.set_second(config_.players(pairings_[p].second).name());
    s.set_games(e.tri.games());
    s.set_wins(e.tri.wins);
    s.set_draws(e.tri.draws);
    s.set_losses(e.tri.losses);
    const EloEstimate elo =
        e.penta.pairs() > 0 ? EstimateElo(e.penta) : EstimateElo(e.tri);
    s.set_score(EstimateElo(e.tri).score);
    s.set_elo(elo.elo);
    s.set_elo_error(elo.elo_error);
    s.set_nelo(elo.nelo);
    s.set_nelo_error(elo.nelo_error);
    s.set_los(elo.los);
    for (int c : e.penta.counts()) s.add_pentanomial(c);
    if (config_.has_sprt()) {
      const SprtParams sprt = Sprt();
      s.set_llr(e.llr);
      s.set_llr_lower(sprt.lower_bound());
      s.set_llr_upper(sprt.upper_bound());
      switch (SprtDecide(sprt, s.llr())) {
        case SprtDecision::kAcceptH0:
          s.set_sprt("H0 accepted");
          break;
        case SprtDecision::kAcceptH1:
          s.set_sprt("H1 accepted");
          break;
        case SprtDecision::kContinue:
          s.set_sprt("inconclusive");
          break;
      }
    }
    return s;
  }

  SprtDecision Decision() const {
    if (!config_.has_sprt() || per_pairing_.empty())
      return SprtDecision::kContinue;
    return SprtDecide(Sprt(), per_pairing_[0].llr);
  }

  MatchSummary Build(int scheduled) const {
    MatchSummary m;
    m.set_name(config_.name());
    m.set_scheduled_games(scheduled);
    m.set_played_games(played_);
    for (size_t p = 0; p < pairings_.size(); ++p)
      *m.add_pairings() = Summary(int(p));
    for (const auto& [name, count] : terminations_)
      (*m.mutable_terminations())[name] = count;
    return m;
  }

  bool engine_failed() const { return engine_failed_; }
  int played() const { return played_; }

 private:
  struct Entry {
    Trinomial tri;
    Pentanomial penta;
    std::map<int, std::vector<double>> open_pairs;  // round -> points so far
    double llr = 0;  // of `penta`, kept current by Add
  };
  SprtParams Sprt() const {
    const SprtConfig& c = config_.sprt();
    return SprtParams{c.elo0(), c.elo1(), c.alpha(), c.beta(),
                      c.model() == SprtConfig::LOGISTIC
                          ? SprtModel::kLogistic
                          : SprtModel::kNormalized};
  }
  const MatchConfig& config_;
  std::vector<std::pair<int, int>> pairings_;
  std::vector<Entry> per_pairing_;
  std::map<std::string, int> terminations_;
  int played_ = 0;
  bool engine_failed_ = false;
};

// ---- log ----

struct LogContents {
  MatchHeader header;
  std::vector<GameRecord> games;  // unique by index, in log order
  uint64_t valid_bytes = 0;
  bool torn = false;
  int duplicates = 0;
};

absl::StatusOr<LogContents> ReadLog(const std::string& path) {
  absl::StatusOr<RecordFile> file = ReadRecordFile(path);
  if (!file.ok()) return file.status();
  LogContents log;
  log.valid_bytes = file->valid_bytes;
  log.torn = file->valid_bytes < file->file_bytes;
  if (file->records.empty()) return log;
  if (!log.header.ParseFromString(file->records[0])) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": the first record is not a header"));
  }
  std::set<int> seen;
  for (size_t i = 1; i < file->records.size(); ++i) {
    GameRecord g;
    if (!g.ParseFromString(file->records[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": record ", i, " is not a game"));
    }
    if (seen.insert(g.index()).second) {
      log.games.push_back(std::move(g));
    } else {
      ++log.duplicates;
    }
  }
  return log;
}

// The parts of a config that decide which games are played and how. The cap
// (games, rounds) is not one of them: a schedule's first games do not depend
// on its length, so a match may be extended.
MatchConfig Identity(const MatchConfig& c) {
  MatchConfig id = c;
  id.clear_concurrency();
  id.clear_output_dir();
  id.clear_games();
  id.clear_rounds();
  return id;
}

// Rewrites the log with a header for the new cap and the same games; returns
// the log's new length.
absl::StatusOr<uint64_t> RaiseGameCap(const std::string& log_path,
                                      const LogContents& log,
                                      const MatchConfig& config,
                                      int scheduled) {
  MatchHeader header = log.header;
  *header.mutable_config() = config;
  header.set_scheduled_games(scheduled);
  std::vector<std::string> records = {header.SerializeAsString()};
  for (const GameRecord& g : log.games)
    records.push_back(g.SerializeAsString());
  return ReplaceRecordFile(log_path, records);
}

std::string SummaryVerdict(const MatchSummary& s, int exit_code) {
  switch (exit_code) {
    case kExitH0:
      return "SPRT accepted H0";
    case kExitEngineFailure:
      return "an engine could not be started";
    case kExitIoError:
      return "the log could not be written";
    default:
      break;
  }
  if (!s.pairings().empty() && s.pairings(0).sprt() == "H1 accepted")
    return "SPRT accepted H1";
  return s.played_games() >= s.scheduled_games() ? "match complete"
                                                 : "match incomplete";
}

// ---- progress ----

class Progress {
 public:
  Progress(bool enabled, int total, int already)
      : enabled_(enabled),
        tty_(::isatty(STDERR_FILENO)),
        total_(total),
        already_(already),
        start_ms_(NowMs()) {}

  void Update(const Standings& standings, bool force) {
    if (!enabled_) return;
    const int done = standings.played();
    const int64_t now = NowMs();
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
        absl::StrFormat("%d/%d games  %s vs %s: %d-%d-%d  Elo %+.1f +- %.1f",
                        done, total_, s.first(), s.second(), s.wins(),
                        s.draws(), s.losses(), s.elo(), s.elo_error());
    if (s.has_llr()) {
      absl::StrAppendFormat(&line, "  LLR %.2f (%.2f, %.2f)", s.llr(),
                            s.llr_lower(), s.llr_upper());
    }
    absl::StrAppendFormat(&line, "  %.1f games/min  ETA %ds", per_min,
                          int(eta_s));
    if (tty_) {
      std::cerr << "\r" << line << "\033[K" << std::flush;
    } else {
      std::cerr << line << "\n";
    }
  }

  void Finish() {
    if (enabled_ && tty_) std::cerr << "\n";
  }

 private:
  bool enabled_, tty_;
  int total_, already_;
  int64_t start_ms_, last_ms_ = 0;
  int last_done_ = -1;
};

std::unique_ptr<Player> MakePlayer(const PlayerConfig& p) {
  if (p.has_external()) return std::make_unique<UciProcessPlayer>(p.external());
  return std::make_unique<InProcessPlayer>(p.config());
}

}  // namespace

absl::StatusOr<LoadedMatch> ParseMatch(absl::string_view text,
                                       absl::string_view source_name,
                                       const std::string& base_dir) {
  LoadedMatch match;
  MatchConfig& c = match.config;
  absl::Status status =
      ParseTextProto(text, source_name, &c, [&]() -> absl::Status {
        if (absl::Status s = ValidateShape(c); !s.ok()) return s;
        if (absl::Status s = ResolvePlayers(&c, base_dir); !s.ok()) return s;
        if (!c.openings().file().empty()) {
          const std::string path = ResolvePath(base_dir, c.openings().file());
          BookFormat format = c.openings().format() == Openings::PGN
                                  ? BookFormat::kPgn
                                  : BookFormat::kEpd;
          if (c.openings().format() == Openings::AUTO) {
            absl::StatusOr<BookFormat> f = BookFormatFromPath(path);
            if (!f.ok()) return Invalid("openings.file", f.status().message());
            format = *f;
          }
          absl::StatusOr<std::vector<Opening>> book =
              LoadBook(path, format, c.openings().max_plies());
          if (!book.ok())
            return Invalid("openings.file", book.status().message());
          match.openings = *std::move(book);
          c.mutable_openings()->set_file(path);
        }
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  if (match.openings.empty())
    match.openings.push_back(Opening{Position::Start(), {}});
  match.schedule = MakeSchedule(c, int(match.openings.size()));
  return match;
}

absl::StatusOr<LoadedMatch> LoadMatch(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseMatch(*text, path, fs::path(path).parent_path().string());
}

int RunMatch(const LoadedMatch& match, const RunOptions& options) {
  std::ostream& out = options.out ? *options.out : std::cout;
  const MatchConfig& config = match.config;
  const std::string dir =
      !options.output_dir.empty() ? options.output_dir : config.output_dir();
  if (dir.empty()) {
    std::cerr << "no output directory: set output_dir in the config or "
                 "--output_dir\n";
    return kExitBadInput;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << dir << ": cannot create directory: " << ec.message() << "\n";
    return kExitBadInput;
  }
  const std::string log_path = (fs::path(dir) / "games.log").string();

  // Resume from an existing log of the same match, or start a new one.
  std::vector<GameRecord> done;
  absl::StatusOr<RecordWriter> writer = absl::UnknownError("unset");
  absl::StatusOr<LogContents> existing = ReadLog(log_path);
  const bool resume =
      !options.fresh && existing.ok() && existing->header.has_config();
  if (!options.fresh && !existing.ok() &&
      !absl::IsNotFound(existing.status())) {
    std::cerr << existing.status().message()
              << " (use --fresh to start over)\n";
    return kExitBadInput;
  }
  if (resume) {
    if (!google::protobuf::util::MessageDifferencer::Equals(
            Identity(existing->header.config()), Identity(config))) {
      std::cerr << log_path
                << ": holds games of a different match (the config changed); "
                   "use another "
                   "output_dir, or --fresh to overwrite it\n";
      return kExitBadInput;
    }
    const int scheduled = int(match.schedule.size());
    const int logged = existing->header.scheduled_games();
    if (scheduled < logged) {
      std::cerr << log_path << ": scheduled for " << logged
                << " games; a resumed match may raise the cap, not lower it\n";
      return kExitBadInput;
    }
    done = existing->games;
    if (existing->torn) {
      std::cerr << log_path
                << ": cut a torn record at the end (an interrupted write)\n";
    }
    uint64_t valid_bytes = existing->valid_bytes;
    if (scheduled > logged) {
      absl::StatusOr<uint64_t> size =
          RaiseGameCap(log_path, *existing, config, scheduled);
      if (!size.ok()) {
        std::cerr << size.status().message() << "\n";
        return kExitIoError;
      }
      valid_bytes = *size;
      std::cerr << "game cap raised from " << logged << " to " << scheduled
                << "\n";
    }
    writer = RecordWriter::Append(log_path, valid_bytes);
  } else {
    writer = RecordWriter::Create(log_path);
    if (writer.ok()) {
      MatchHeader header;
      *header.mutable_config() = config;
      header.set_engine_revision(options.revision);
      header.set_start_time(NowRfc3339());
      header.set_scheduled_games(int(match.schedule.size()));
      if (absl::Status s = writer->Write(header.SerializeAsString()); !s.ok())
        writer = s;
    }
  }
  if (!writer.ok()) {
    std::cerr << writer.status().message() << "\n";
    return kExitIoError;
  }

  Standings standings(config);
  std::set<int> done_indices;
  for (const GameRecord& g : done) {
    standings.Add(g);
    done_indices.insert(g.index());
  }
  std::vector<const ScheduledGame*> pending;
  for (const ScheduledGame& g : match.schedule) {
    if (!done_indices.count(g.index)) pending.push_back(&g);
  }
  if (resume && !done.empty()) {
    std::cerr << "resuming: " << done.size() << " games in the log, "
              << pending.size() << " to play\n";
  }

  int concurrency =
      options.concurrency > 0 ? options.concurrency : config.concurrency();
  if (concurrency <= 0)
    concurrency = int(std::max(1u, std::thread::hardware_concurrency()));
  concurrency = std::min<int>(concurrency, std::max<size_t>(pending.size(), 1));

  std::mutex mutex;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{standings.Decision() != SprtDecision::kContinue};
  bool io_failed = false;
  Progress progress(options.progress, int(match.schedule.size()),
                    int(done.size()));

  auto worker = [&]() {
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
        seats[side] = Seat{players[p].get(), pc.name(), pc.time_control(),
                           pc.has_external(), pc.external().move_timeout_ms()};
      }
      PlayGame(match.openings[s.opening], seats[0], seats[1],
               config.adjudication(), &record);
      record.set_end_time(NowRfc3339());
      std::lock_guard<std::mutex> lock(mutex);
      if (io_failed) break;
      if (absl::Status w = writer->Write(record.SerializeAsString()); !w.ok()) {
        std::cerr << "\n" << w.message() << "\n";
        io_failed = true;
        stop = true;
        break;
      }
      standings.Add(record);
      if (standings.Decision() != SprtDecision::kContinue) stop = true;
      progress.Update(standings, false);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < concurrency; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
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
  MatchSummary summary = standings.Build(int(match.schedule.size()));
  summary.set_exit_code(exit_code);
  summary.set_verdict(SummaryVerdict(summary, exit_code));
  out << FormatSummary(summary);

  // Derived files, rewritten from the log so they always match it.
  std::string text;
  google::protobuf::TextFormat::PrintToString(summary, &text);
  std::ofstream(fs::path(dir) / "result.textproto") << text;
  if (absl::StatusOr<std::string> pgn = LogToPgn(log_path); pgn.ok()) {
    std::ofstream(fs::path(dir) / "games.pgn") << *pgn;
  }
  return exit_code;
}

absl::StatusOr<MatchLog> ReadMatchLog(const std::string& log_path) {
  absl::StatusOr<LogContents> log = ReadLog(log_path);
  if (!log.ok()) return log.status();
  if (!log->header.has_config()) {
    return absl::InvalidArgumentError(absl::StrCat(log_path, ": empty log"));
  }
  return MatchLog{std::move(log->header), std::move(log->games)};
}

absl::StatusOr<MatchSummary> SummarizeLog(const std::string& log_path) {
  absl::StatusOr<LogContents> log = ReadLog(log_path);
  if (!log.ok()) return log.status();
  if (!log->header.has_config())
    return absl::InvalidArgumentError(absl::StrCat(log_path, ": empty log"));
  Standings standings(log->header.config());
  for (const GameRecord& g : log->games) standings.Add(g);
  MatchSummary summary = standings.Build(log->header.scheduled_games());
  if (log->duplicates > 0) summary.set_duplicate_records(log->duplicates);
  int exit_code = standings.engine_failed() ? kExitEngineFailure
                  : standings.Decision() == SprtDecision::kAcceptH0 ? kExitH0
                                                                    : kExitOk;
  summary.set_exit_code(exit_code);
  summary.set_verdict(SummaryVerdict(summary, exit_code));
  return summary;
}

std::string FormatSummary(const MatchSummary& m) {
  std::string s = absl::StrFormat("Match %s: %d of %d games played\n",
                                  m.name().empty() ? "(unnamed)" : m.name(),
                                  m.played_games(), m.scheduled_games());
  for (const PairingSummary& p : m.pairings()) {
    const int games = std::max(1, p.games());
    absl::StrAppendFormat(&s, "%s vs %s\n", p.first(), p.second());
    absl::StrAppendFormat(
        &s, "  Games: %d  W-D-L: %d-%d-%d  Score: %.1f%%  Draws: %.1f%%\n",
        p.games(), p.wins(), p.draws(), p.losses(), 100 * p.score(),
        100.0 * p.draws() / games);
    if (p.games() > 0 && (p.score() == 0 || p.score() == 1)) {
      absl::StrAppendFormat(&s,
                            "  Elo: not finite (a %.0f%% score)  LOS: %.1f%%\n",
                            100 * p.score(), 100 * p.los());
    } else {
      absl::StrAppendFormat(
          &s, "  Elo: %+.1f +- %.1f (95%%)  nElo: %+.1f +- %.1f  LOS: %.1f%%\n",
          p.elo(), p.elo_error(), p.nelo(), p.nelo_error(), 100 * p.los());
    }
    absl::StrAppendFormat(&s, "  Pentanomial [LL, LD, WL+DD, WD, WW]: [%s]\n",
                          absl::StrJoin(p.pentanomial(), ", "));
    if (p.has_llr()) {
      absl::StrAppendFormat(&s, "  SPRT: LLR %.2f (%.2f, %.2f): %s\n", p.llr(),
                            p.llr_lower(), p.llr_upper(), p.sprt());
    }
  }
  std::vector<std::string> ends;
  for (const auto& [name, count] : m.terminations())
    ends.push_back(absl::StrCat(name, " ", count));
  std::sort(ends.begin(), ends.end());
  absl::StrAppend(&s, "Terminations: ", absl::StrJoin(ends, ", "), "\n");
  if (m.duplicate_records() > 0) {
    absl::StrAppendFormat(&s, "WARNING: %d duplicate game records ignored\n",
                          m.duplicate_records());
  }
  absl::StrAppendFormat(&s, "Result: %s (exit code %d)\n", m.verdict(),
                        m.exit_code());
  return s;
}

absl::StatusOr<std::string> LogToPgn(const std::string& log_path) {
  absl::StatusOr<LogContents> log = ReadLog(log_path);
  if (!log.ok()) return log.status();
  std::vector<const GameRecord*> games;
  for (const GameRecord& g : log->games) games.push_back(&g);
  std::sort(games.begin(), games.end(),
            [](const GameRecord* a, const GameRecord* b) {
              return a->index() < b->index();
            });
  std::string pgn;
  for (const GameRecord* g : games)
    absl::StrAppend(&pgn, GameToPgn(*g, log->header), "\n");
  return pgn;
}

}  // namespace chess
