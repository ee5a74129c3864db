#include "arena/match_setup.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "arena/schedule.h"
#include "arena/stats.h"
#include "common/files.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "engine/syzygy.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::Status Invalid(absl::string_view field_path, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field_path, ": ", what));
}

bool IsExecutableFile(const std::string& path) {
  std::error_code error;
  return ::access(path.c_str(), X_OK) == 0 && !fs::is_directory(path, error);
}

// Whether posix_spawnp could start `program`: a path names an executable file,
// a bare name one in a directory of PATH (or of its default when unset).
bool CanExecute(const std::string& program) {
  if (program.find('/') != std::string::npos) return IsExecutableFile(program);
  const char* path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path != nullptr ? path : "/bin:/usr/bin", ':')) {
    if (IsExecutableFile(absl::StrCat(dir.empty() ? "." : dir, "/", program)))
      return true;
  }
  return false;
}

// Whether `tc` gives each side a clock that runs down (base, increment).
bool HasGameClock(const TimeControl& tc) {
  return tc.base_ms() > 0 || tc.increment_ms() > 0;
}

int TimeControlKinds(const TimeControl& tc) {
  return (tc.depth() > 0) + (tc.nodes() > 0) + (tc.movetime_ms() > 0) +
         HasGameClock(tc);
}

absl::Status ValidateTimeControl(const TimeControl& tc,
                                 absl::string_view path) {
  if (tc.depth() < 0 || tc.nodes() < 0 || tc.movetime_ms() < 0 ||
      tc.base_ms() < 0 || tc.increment_ms() < 0 || tc.margin_ms() < 0 ||
      tc.soft_nodes() < 0 || tc.moves() < 0) {
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
  if (tc.soft_nodes() > 0 && tc.nodes() == 0)
    return Invalid(path, "soft_nodes needs nodes, the hard cap");
  if (tc.soft_nodes() > tc.nodes())
    return Invalid(path,
                   "soft_nodes above nodes: the hard cap would end "
                   "every search first");
  if (tc.moves() > 0 && tc.base_ms() == 0)
    return Invalid(path, "moves needs a clock: base_ms > 0 per period");
  if (tc.increment_ms() > 0 && tc.base_ms() == 0) {
    return Invalid(
        path,
        "a clock needs base_ms > 0 (increment alone gives no first move time)");
  }
  return absl::OkStatus();
}

// Whether `tc` limits searches by time (a clock or a time per move).
bool IsClock(const TimeControl& tc) {
  return HasGameClock(tc) || tc.movetime_ms() > 0;
}

bool AnyClock(const MatchConfig& c) {
  if (IsClock(c.time_control())) return true;
  for (const PlayerConfig& p : c.players())
    if (p.has_time_control() && IsClock(p.time_control())) return true;
  return false;
}

}  // namespace

absl::Status ValidateMatchShape(const MatchConfig& c) {
  if (c.players_size() < 2)
    return Invalid("players", "a match needs at least two players");
  std::set<std::string> names;
  for (int i = 0; i < c.players_size(); ++i) {
    const PlayerConfig& p = c.players(i);
    const std::string at = absl::StrCat("players[", i, "]");
    if (p.name().empty()) return Invalid(at, "name is missing");
    if (!names.insert(p.name()).second) {
      return Invalid(absl::StrCat(at, ".name"),
                     absl::StrCat("\"", p.name(), "\" is used twice"));
    }
    if (p.engine_case() == PlayerConfig::ENGINE_NOT_SET) {
      return Invalid(at, absl::StrCat("\"", p.name(),
                                      "\" needs one of config, config_file, "
                                      "external"));
    }
    if (p.has_external()) {
      if (p.external().argv().empty() || p.external().argv(0).empty()) {
        return Invalid(absl::StrCat(at, ".external"),
                       absl::StrCat("argv is empty for \"", p.name(), "\""));
      }
      if (p.has_overrides()) {
        return Invalid(absl::StrCat(at, ".overrides"),
                       "apply only to in-process engines");
      }
      if (p.external().startup_timeout_ms() <= 0 ||
          p.external().move_timeout_ms() <= 0) {
        return Invalid(absl::StrCat(at, ".external"),
                       "timeouts must be positive");
      }
    }
    if (p.has_anchor_elo() && !IsAnchorElo(p.anchor_elo())) {
      return Invalid(absl::StrCat(at, ".anchor_elo"),
                     absl::StrCat("must be a rating within +-", kMaxAnchorElo));
    }
    const std::string tc_path = p.has_time_control()
                                    ? absl::StrCat(at, ".time_control")
                                    : std::string("time_control");
    if (absl::Status s = ValidateTimeControl(
            p.has_time_control() ? p.time_control() : c.time_control(),
            tc_path);
        !s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat(s.message(), " (player \"", p.name(), "\")"));
    }
  }
  if (c.pairing() == MatchConfig::HEAD_TO_HEAD && c.players_size() != 2) {
    return Invalid(
        "pairing",
        absl::StrCat("HEAD_TO_HEAD needs exactly 2 players, not ",
                     c.players_size(), " (use GAUNTLET or ROUND_ROBIN)"));
  }
  if (!(c.clock_reference_nps() >= 0 && c.clock_reference_nps() < 1e12))
    return Invalid("clock_reference_nps",
                   "must be 0 (off) or a speed in nodes/s");
  if (c.clock_reference_nps() > 0 && !AnyClock(c)) {
    return Invalid("clock_reference_nps",
                   "no player plays with a clock (base_ms, increment_ms or "
                   "movetime_ms) to scale");
  }
  if (c.games() < 0) return Invalid("games", "must be positive");
  if (c.rounds() < 0) return Invalid("rounds", "must be positive");
  if ((c.games() > 0) == (c.rounds() > 0)) {
    return Invalid(c.games() > 0 ? "games" : "rounds",
                   "set exactly one of games and rounds, > 0");
  }
  if (c.games() % 2 != 0 && !c.unpaired()) {
    return Invalid("games",
                   "must be even: every opening is played twice, colours "
                   "swapped (or set unpaired: true for single games)");
  }
  if (const int64_t n = ScheduledGames(c); n > kMaxScheduledGames) {
    return Invalid(c.games() > 0 ? "games" : "rounds",
                   absl::StrCat(n, " games in all; at most ",
                                kMaxScheduledGames, " in one match"));
  }
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
  if (a.tb_pieces() < 0 || a.tb_pieces() > 7) {
    return Invalid("adjudication.tb_pieces", "must be 0 (all) to 7");
  }
  if (c.openings().random_plies() < 0 || c.openings().random_plies() > 40)
    return Invalid("openings.random_plies", "must be 0..40");
  if (c.openings().max_plies() < 0 || c.openings().start_index() < 0) {
    return Invalid("openings",
                   "max_plies and start_index must not be negative");
  }
  if (c.has_sprt()) {
    const SprtConfig& s = c.sprt();
    if (c.pairing() != MatchConfig::HEAD_TO_HEAD) {
      return Invalid("sprt", "needs pairing HEAD_TO_HEAD");
    }
    if (!std::isfinite(s.elo0()) || !std::isfinite(s.elo1()) ||
        std::abs(s.elo0()) > 1000 || std::abs(s.elo1()) > 1000) {
      return Invalid("sprt", "elo0 and elo1 must be finite, within +-1000");
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

absl::Status ResolvePlayer(PlayerConfig* player, const std::string& base_dir,
                           absl::string_view at) {
  PlayerConfig& p = *player;
  if (p.has_external()) {
    ExternalEngine* e = p.mutable_external();
    if (!e->working_dir().empty())
      e->set_working_dir(ResolvePath(base_dir, e->working_dir()));
    // A program named with a slash ("./engine") is a path, relative to the
    // config, made absolute so that it is never looked up in PATH; a bare
    // name is looked up in PATH.
    if (e->argv_size() > 0 && e->argv(0).find('/') != std::string::npos) {
      e->set_argv(0, fs::absolute(ResolvePath(base_dir, e->argv(0))).string());
    }
    // Checked before any game: a missing engine would otherwise forfeit
    // every game it has, and a resumed run would count those as played.
    if (e->argv_size() > 0 && !CanExecute(e->argv(0))) {
      return Invalid(
          absl::StrCat(at, ".external.argv"),
          absl::StrCat("no program \"", e->argv(0), "\" to start for \"",
                       p.name(), "\" (not found or not executable)"));
    }
    return absl::OkStatus();
  }
  EngineConfig config = p.config();
  if (p.has_config_file()) {
    absl::StatusOr<EngineConfig> loaded =
        LoadEngineConfig(ResolvePath(base_dir, p.config_file()));
    if (!loaded.ok()) {
      return Invalid(absl::StrCat(at, ".config_file"),
                     loaded.status().message());
    }
    config = *loaded;
  }
  // No evaluation at all would be a random mover; nobody means that.
  if (!config.has_eval()) *config.mutable_eval() = DefaultEngineConfig().eval();
  config.MergeFrom(p.overrides());
  if (absl::Status s = ValidateEngineConfig(config); !s.ok()) {
    const char* part = p.has_overrides()     ? ".overrides"
                       : p.has_config_file() ? ".config_file"
                                             : ".config";
    return Invalid(absl::StrCat(at, part),
                   absl::StrCat("\"", p.name(), "\": ", s.message()));
  }
  *p.mutable_config() = std::move(config);  // clears config_file (oneof)
  p.clear_overrides();
  return absl::OkStatus();
}

namespace {

// Replaces config files by their contents, merges overrides, fills in time
// controls.
absl::Status ResolvePlayers(MatchConfig* c, const std::string& base_dir) {
  for (int i = 0; i < c->players_size(); ++i) {
    PlayerConfig& p = *c->mutable_players(i);
    if (!p.has_time_control()) *p.mutable_time_control() = c->time_control();
    if (absl::Status s =
            ResolvePlayer(&p, base_dir, absl::StrCat("players[", i, "]"));
        !s.ok())
      return s;
    // UCI engines play Chess960 when told so (fastchess does the same).
    if (c->variant() == MatchConfig::CHESS960 && p.has_external()) {
      p.mutable_external()->mutable_options()->insert({"UCI_Chess960", "true"});
    }
  }
  return absl::OkStatus();
}

// Tablebase directories relative to the config, made absolute; each must
// exist, and every user of Fathom's one set of tables in this process (the
// adjudication, in-process players) must name the same.
absl::Status ResolveTablebases(MatchConfig* c, const std::string& base_dir) {
  Adjudication* a = c->mutable_adjudication();
  if (!a->tb_path().empty()) {
    std::vector<std::string> dirs;
    for (absl::string_view dir :
         absl::StrSplit(a->tb_path(), ':', absl::SkipEmpty())) {
      dirs.push_back(
          fs::absolute(ResolvePath(base_dir, std::string(dir))).string());
    }
    a->set_tb_path(absl::StrJoin(dirs, ":"));
    if (absl::StatusOr<std::vector<std::string>> found =
            syzygy::Directories(a->tb_path());
        !found.ok()) {
      return Invalid("adjudication.tb_path", found.status().message());
    }
  }
  std::string tables = a->tb_path(), first_user = "adjudication.tb_path";
  for (int i = 0; i < c->players_size(); ++i) {
    const std::string& path = c->players(i).config().tablebases().syzygy_path();
    if (c->players(i).has_external() || path.empty()) continue;
    if (tables.empty()) {
      tables = path;
      first_user = absl::StrCat("players[", i, "]");
    } else if (path != tables) {
      return Invalid(
          absl::StrCat("players[", i, "].config.tablebases.syzygy_path"),
          absl::StrCat("\"", path, "\" differs from ", first_user, "'s \"",
                       tables, "\": one process holds one set of tables"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LoadedMatch> ParseMatch(absl::string_view text,
                                       absl::string_view source_name,
                                       const std::string& base_dir) {
  LoadedMatch match;
  MatchConfig& c = match.config;
  absl::Status status =
      ParseTextProto(text, source_name, &c, [&]() -> absl::Status {
        if (absl::Status s = ValidateMatchShape(c); !s.ok()) return s;
        if (absl::Status s = ResolvePlayers(&c, base_dir); !s.ok()) return s;
        if (absl::Status s = ResolveTablebases(&c, base_dir); !s.ok()) return s;
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
              LoadBook(path, format, c.openings().max_plies(),
                       c.variant() == MatchConfig::CHESS960);
          if (!book.ok())
            return Invalid("openings.file", book.status().message());
          match.openings = *std::move(book);
          c.mutable_openings()->set_file(path);
        }
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  if (match.openings.empty()) {
    match.openings.push_back(
        Opening{Position::Start(c.variant() == MatchConfig::CHESS960), {}});
  }
  match.schedule = MakeSchedule(c, int(match.openings.size()));
  match.book_fingerprint = BookFingerprint(match.openings);
  match.source = std::string(source_name);
  return match;
}

absl::StatusOr<LoadedMatch> LoadMatch(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseMatch(*text, path, fs::path(path).parent_path().string());
}

}  // namespace chess
