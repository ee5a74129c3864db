#include "arena/fastchess_cli.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::Status Bad(absl::string_view option, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(option, ": ", what));
}

// An option and its words up to the next option: "-engine" {"cmd=x", ...}.
struct Option {
  std::string name;
  std::vector<std::string> values;
};

absl::StatusOr<std::vector<Option>> SplitOptions(
    const std::vector<std::string>& args) {
  std::vector<Option> options;
  for (const std::string& arg : args) {
    // "-5" is a value (a negative score), "-engine" an option.
    if (arg.size() > 1 && arg[0] == '-' && absl::ascii_isalpha(arg[1])) {
      options.push_back({arg, {}});
    } else if (options.empty()) {
      return Bad(arg, "a value before any option");
    } else {
      options.back().values.push_back(arg);
    }
  }
  return options;
}

// key=value words; a word without '=' is an error naming the option.
absl::StatusOr<std::map<std::string, std::string>> KeyValues(
    const Option& option) {
  std::map<std::string, std::string> pairs;
  for (const std::string& word : option.values) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0)
      return Bad(option.name, absl::StrCat("\"", word, "\" is not key=value"));
    pairs[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return pairs;
}

absl::StatusOr<int64_t> Integer(const std::string& where,
                                const std::string& text, int64_t min,
                                int64_t max) {
  int64_t v;
  if (!absl::SimpleAtoi(text, &v) || v < min || v > max) {
    return Bad(where, absl::StrCat("\"", text, "\" is not a whole number in [",
                                   min, ", ", max, "]"));
  }
  return v;
}

absl::StatusOr<double> Number(const std::string& where,
                              const std::string& text) {
  double v;
  if (!absl::SimpleAtod(text, &v) || !std::isfinite(v))
    return Bad(where, absl::StrCat("\"", text, "\" is not a number"));
  return v;
}

absl::StatusOr<int64_t> Single(const Option& option, int64_t min, int64_t max) {
  if (option.values.size() != 1) return Bad(option.name, "expects one value");
  return Integer(option.name, option.values[0], min, max);
}

// tc=[MOVES/]BASE[+INC] in seconds ("10+0.1", "60", "40/60+0.6": 40 moves
// in 60 s, repeating), or "inf": no clock, the limit then from nodes=, depth=
// or st=.
absl::Status ParseClock(const std::string& text, TimeControl* tc,
                        bool* has_limit) {
  if (text == "inf") {
    tc->clear_base_ms();
    tc->clear_increment_ms();
    return absl::OkStatus();
  }
  *has_limit = true;
  absl::string_view clock = text;
  if (const size_t slash = clock.find('/'); slash != clock.npos) {
    absl::StatusOr<int64_t> moves =
        Integer("tc", std::string(clock.substr(0, slash)), 1, 1000);
    if (!moves.ok()) {
      return Bad("tc", absl::StrCat("\"", text,
                                    "\": MOVES/BASE[+INC] needs 1 to 1000 "
                                    "moves"));
    }
    tc->set_moves(int(*moves));
    clock.remove_prefix(slash + 1);
  }
  std::vector<std::string> parts = absl::StrSplit(clock, '+');
  if (parts.size() > 2) return Bad("tc", absl::StrCat("\"", text, "\""));
  absl::StatusOr<double> base = Number("tc", parts[0]);
  if (!base.ok()) return base.status();
  double inc = 0;
  if (parts.size() == 2) {
    absl::StatusOr<double> parsed = Number("tc", parts[1]);
    if (!parsed.ok()) return parsed.status();
    inc = *parsed;
  }
  if (*base <= 0 || inc < 0 || *base > 1e7 || inc > 1e6)
    return Bad("tc", absl::StrCat("\"", text, "\": base > 0, increment >= 0"));
  tc->set_base_ms(int64_t(std::llround(*base * 1000)));
  tc->set_increment_ms(int64_t(std::llround(inc * 1000)));
  return absl::OkStatus();
}

std::string Absolute(const std::string& dir, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(dir) / path).lexically_normal().string();
}

// The keys -engine and -each share: an engine (cmd, args, dir, options) and
// its limits.
absl::Status ApplyEngineKeys(const std::string& option,
                             const std::map<std::string, std::string>& keys,
                             const std::string& working_dir,
                             PlayerConfig* player, bool* has_limit) {
  ExternalEngine* e = player->mutable_external();
  TimeControl* tc = player->mutable_time_control();
  for (const auto& [key, value] : keys) {
    const std::string where = absl::StrCat(option, " ", key);
    if (key == "cmd" || key == "args") {
      continue;  // below: the program first, then its arguments
    } else if (key == "name") {
      player->set_name(value);
    } else if (key == "dir") {
      e->set_working_dir(Absolute(working_dir, value));
    } else if (absl::StartsWith(key, "option.")) {
      (*e->mutable_options())[key.substr(7)] = value;
    } else if (key == "proto") {
      if (value != "uci") return Bad(where, "only uci engines are supported");
    } else if (key == "tc") {
      if (absl::Status s = ParseClock(value, tc, has_limit); !s.ok()) return s;
    } else if (key == "st") {
      absl::StatusOr<double> seconds = Number(where, value);
      if (!seconds.ok()) return seconds.status();
      if (*seconds <= 0 || *seconds > 1e7)
        return Bad(where, "must be above 0 and at most 1e7 seconds");
      tc->set_movetime_ms(int64_t(std::llround(*seconds * 1000)));
      *has_limit = true;
    } else if (key == "nodes") {
      absl::StatusOr<int64_t> n = Integer(where, value, 1, int64_t(1) << 50);
      if (!n.ok()) return n.status();
      tc->set_nodes(*n);
      *has_limit = true;
    } else if (key == "depth") {
      absl::StatusOr<int64_t> n = Integer(where, value, 1, 200);
      if (!n.ok()) return n.status();
      tc->set_depth(int(*n));
      *has_limit = true;
    } else if (key == "timemargin") {
      absl::StatusOr<int64_t> n = Integer(where, value, 0, 1000000);
      if (!n.ok()) return n.status();
      tc->set_margin_ms(*n);
    } else {
      return Bad(where,
                 "not supported (cmd, name, args, dir, option.NAME, "
                 "proto, tc, st, nodes, depth, timemargin are)");
    }
  }
  if (const auto cmd = keys.find("cmd"); cmd != keys.end()) {
    // A bare name is looked up in PATH, as fastchess does; a path is made
    // absolute.
    e->add_argv(cmd->second.find('/') != std::string::npos
                    ? Absolute(working_dir, cmd->second)
                    : cmd->second);
    if (const auto args = keys.find("args"); args != keys.end()) {
      for (absl::string_view a :
           absl::StrSplit(args->second, ' ', absl::SkipEmpty()))
        e->add_argv(std::string(a));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool LooksLikeFastchess(const std::vector<std::string>& args) {
  return std::find(args.begin(), args.end(), "-engine") != args.end();
}

absl::StatusOr<FastchessMatch> TranslateFastchessArgs(
    const std::vector<std::string>& args, const std::string& working_dir) {
  for (const std::string& arg : args) {
    if (std::any_of(arg.begin(), arg.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        })) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument \"", absl::CEscape(arg),
                       "\" holds a control character (a newline?)"));
    }
  }
  absl::StatusOr<std::vector<Option>> options = SplitOptions(args);
  if (!options.ok()) return options.status();
  FastchessMatch out;
  MatchConfig& c = out.config;
  std::vector<std::map<std::string, std::string>> engines;
  std::map<std::string, std::string> each;
  int64_t rounds = 0, games_per_round = 0;
  bool repeat = false;
  for (const Option& o : *options) {
    const std::string& name = o.name;
    if (name == "-engine" || name == "-each") {
      absl::StatusOr<std::map<std::string, std::string>> kv = KeyValues(o);
      if (!kv.ok()) return kv.status();
      if (name == "-engine") {
        engines.push_back(*kv);
      } else {
        for (const auto& [k, v] : *kv) each[k] = v;
      }
    } else if (name == "-rounds") {
      absl::StatusOr<int64_t> v = Single(o, 1, 5000000);
      if (!v.ok()) return v.status();
      rounds = *v;
    } else if (name == "-games") {
      absl::StatusOr<int64_t> v = Single(o, 1, 2);
      if (!v.ok()) return v.status();
      games_per_round = *v;
    } else if (name == "-repeat") {
      if (!o.values.empty()) return Bad(name, "takes no value");
      repeat = true;
    } else if (name == "-concurrency") {
      absl::StatusOr<int64_t> v = Single(o, 1, 4096);
      if (!v.ok()) return v.status();
      c.set_concurrency(int(*v));
    } else if (name == "-event") {
      if (o.values.size() != 1) return Bad(name, "expects one value");
      c.set_name(o.values[0]);
    } else if (name == "-srand") {
      if (o.values.size() != 1) return Bad(name, "expects one value");
      uint64_t seed;
      if (!absl::SimpleAtoi(o.values[0], &seed))
        return Bad(name, absl::StrCat("\"", o.values[0], "\" is not a seed"));
      c.set_seed(seed);
    } else if (name == "-maxmoves") {
      absl::StatusOr<int64_t> v = Single(o, 1, 100000);
      if (!v.ok()) return v.status();
      c.mutable_adjudication()->set_max_moves(int(*v));
    } else if (name == "-tb") {
      if (o.values.size() != 1) return Bad(name, "expects one value");
      // fastchess separates directories by ';' (Windows) or ':'.
      std::vector<std::string> dirs;
      for (absl::string_view dir : absl::StrSplit(
               o.values[0], absl::ByAnyChar(":;"), absl::SkipEmpty())) {
        dirs.push_back(Absolute(working_dir, std::string(dir)));
      }
      if (dirs.empty()) return Bad(name, "needs a directory");
      c.mutable_adjudication()->set_tb_path(absl::StrJoin(dirs, ":"));
    } else if (name == "-tbpieces") {
      absl::StatusOr<int64_t> v = Single(o, 3, 7);
      if (!v.ok()) return v.status();
      c.mutable_adjudication()->set_tb_pieces(int(*v));
    } else if (name == "-tbadjudicate") {
      if (o.values.size() != 1) return Bad(name, "expects one value");
      Adjudication::TbResults results;
      if (!Adjudication::TbResults_Parse(o.values[0], &results))
        return Bad(name, absl::StrCat("\"", o.values[0],
                                      "\" is not BOTH, WIN_LOSS or DRAW"));
      c.mutable_adjudication()->set_tb_adjudicate(results);
    } else if (name == "-variant") {
      if (o.values.size() != 1 ||
          (o.values[0] != "standard" && o.values[0] != "fischerandom"))
        return Bad(name, "standard or fischerandom (Chess960, also double)");
      c.set_variant(o.values[0] == "fischerandom" ? MatchConfig::CHESS960
                                                  : MatchConfig::STANDARD);
    } else if (name == "-use-affinity") {
      if (!o.values.empty())
        return Bad(name, "takes no core list here: games take cores in order");
      c.set_use_affinity(true);
    } else if (name == "-tbignore50") {
      if (!o.values.empty()) return Bad(name, "takes no value");
      c.mutable_adjudication()->set_tb_ignore_50_move_rule(true);
    } else if (name == "-openings") {
      absl::StatusOr<std::map<std::string, std::string>> kv = KeyValues(o);
      if (!kv.ok()) return kv.status();
      Openings* book = c.mutable_openings();
      for (const auto& [k, v] : *kv) {
        const std::string where = absl::StrCat(name, " ", k);
        if (k == "file") {
          book->set_file(Absolute(working_dir, v));
        } else if (k == "format") {
          if (v != "epd" && v != "pgn") return Bad(where, "epd or pgn");
          book->set_format(v == "epd" ? Openings::EPD : Openings::PGN);
        } else if (k == "order") {
          if (v != "random" && v != "sequential")
            return Bad(where, "random or sequential");
          book->set_order(v == "random" ? Openings::SHUFFLED
                                        : Openings::SEQUENTIAL);
        } else if (k == "plies") {
          absl::StatusOr<int64_t> n = Integer(where, v, 1, 10000);
          if (!n.ok()) return n.status();
          book->set_max_plies(int(*n));
        } else if (k == "start") {  // 1-based in fastchess
          absl::StatusOr<int64_t> n = Integer(where, v, 1, 100000000);
          if (!n.ok()) return n.status();
          book->set_start_index(int(*n - 1));
        } else {
          return Bad(where,
                     "not supported (file, format, order, plies, "
                     "start are)");
        }
      }
      if (book->file().empty()) return Bad(name, "needs file=");
    } else if (name == "-sprt") {
      absl::StatusOr<std::map<std::string, std::string>> kv = KeyValues(o);
      if (!kv.ok()) return kv.status();
      SprtConfig* sprt = c.mutable_sprt();
      for (const auto& [k, v] : *kv) {
        const std::string where = absl::StrCat(name, " ", k);
        if (k == "model") {
          if (v != "normalized" && v != "logistic")
            return Bad(where,
                       "normalized or logistic (bayesian is not "
                       "supported)");
          sprt->set_model(v == "logistic" ? SprtConfig::LOGISTIC
                                          : SprtConfig::NORMALIZED);
          continue;
        }
        absl::StatusOr<double> x = Number(where, v);
        if (!x.ok()) return x.status();
        if (k == "elo0") {
          sprt->set_elo0(*x);
        } else if (k == "elo1") {
          sprt->set_elo1(*x);
        } else if (k == "alpha") {
          sprt->set_alpha(*x);
        } else if (k == "beta") {
          sprt->set_beta(*x);
        } else {
          return Bad(where,
                     "not supported (elo0, elo1, alpha, beta, model "
                     "are)");
        }
      }
      if (!kv->count("elo0") || !kv->count("elo1"))
        return Bad(name, "needs elo0= and elo1=");
    } else if (name == "-draw") {
      absl::StatusOr<std::map<std::string, std::string>> kv = KeyValues(o);
      if (!kv.ok()) return kv.status();
      // fastchess's defaults: from move 0, one move, score 0.
      Adjudication* a = c.mutable_adjudication();
      a->set_draw_move_number(0);
      a->set_draw_moves(1);
      a->set_draw_score_cp(0);
      for (const auto& [k, v] : *kv) {
        const std::string where = absl::StrCat(name, " ", k);
        absl::StatusOr<int64_t> n = Integer(where, v, 0, 100000);
        if (!n.ok()) return n.status();
        if (k == "movenumber") {
          a->set_draw_move_number(int(*n));
        } else if (k == "movecount") {
          a->set_draw_moves(int(std::max<int64_t>(1, *n)));
        } else if (k == "score") {
          a->set_draw_score_cp(int(*n));
        } else {
          return Bad(where,
                     "not supported (movenumber, movecount, score "
                     "are)");
        }
      }
    } else if (name == "-resign") {
      absl::StatusOr<std::map<std::string, std::string>> kv = KeyValues(o);
      if (!kv.ok()) return kv.status();
      Adjudication* a = c.mutable_adjudication();
      for (const auto& [k, v] : *kv) {
        const std::string where = absl::StrCat(name, " ", k);
        if (k == "twosided") {
          // Ours is always two-sided: both engines must agree.
          if (v != "true")
            return Bad(where,
                       "only twosided=true (both engines agree) is "
                       "supported");
          continue;
        }
        absl::StatusOr<int64_t> n = Integer(where, v, 1, 100000);
        if (!n.ok()) return n.status();
        if (k == "movecount") {
          a->set_resign_moves(int(*n));
        } else if (k == "score") {
          a->set_resign_score_cp(int(*n));
        } else {
          return Bad(where, "not supported (movecount, score, twosided are)");
        }
      }
      if (!kv->count("score")) return Bad(name, "needs score=");
    } else if (name == "-pgnout") {
      absl::StatusOr<std::map<std::string, std::string>> kv = KeyValues(o);
      if (!kv.ok()) return kv.status();
      for (const auto& [k, v] : *kv) {
        if (k == "notation" && v == "san") continue;  // ours is SAN
        if (k != "file") {
          return Bad(absl::StrCat(name, " ", k, "=", v),
                     "not supported (file= and notation=san are)");
        }
        out.pgn_out = Absolute(working_dir, v);
      }
      if (out.pgn_out.empty()) return Bad(name, "needs file=");
    } else {
      return Bad(name,
                 "not supported: arena understands -engine, -each, -rounds, "
                 "-games, -repeat, -concurrency, -openings, -sprt, -draw, "
                 "-resign, -maxmoves, -tb, -tbpieces, -tbadjudicate, "
                 "-tbignore50, -use-affinity, -variant, -pgnout, -srand, "
                 "-event");
    }
  }
  if (engines.size() < 2) return Bad("-engine", "name at least two engines");
  const Adjudication& tb = c.adjudication();
  if (tb.tb_path().empty() && (tb.tb_pieces() > 0 || tb.has_tb_adjudicate() ||
                               tb.tb_ignore_50_move_rule())) {
    return Bad("-tbpieces/-tbadjudicate/-tbignore50", "need -tb PATHS");
  }
  for (size_t i = 0; i < engines.size(); ++i) {
    PlayerConfig* p = c.add_players();
    std::map<std::string, std::string> keys = each;
    for (const auto& [k, v] : engines[i]) keys[k] = v;
    bool has_limit = false;
    if (absl::Status s = ApplyEngineKeys(absl::StrCat("-engine ", i + 1), keys,
                                         working_dir, p, &has_limit);
        !s.ok())
      return s;
    if (p->external().argv().empty())
      return Bad(absl::StrCat("-engine ", i + 1), "needs cmd=");
    if (p->name().empty())
      return Bad(absl::StrCat("-engine ", i + 1), "needs name=");
    if (!has_limit)
      return Bad(absl::StrCat("-engine ", i + 1),
                 "no tc=, st=, nodes= or depth= (here or in -each)");
  }
  // The first engine's limit is the match's; another engine's own limit
  // stays its own.
  *c.mutable_time_control() = c.players(0).time_control();
  for (PlayerConfig& p : *c.mutable_players()) {
    if (p.time_control().SerializeAsString() ==
        c.time_control().SerializeAsString())
      p.clear_time_control();
  }
  c.set_pairing(engines.size() == 2 ? MatchConfig::HEAD_TO_HEAD
                                    : MatchConfig::ROUND_ROBIN);
  if (rounds == 0) rounds = 1;
  if (games_per_round == 0) games_per_round = repeat ? 2 : 1;
  if (repeat && games_per_round != 2)
    return Bad("-repeat", "plays each opening twice: -games must be 2");
  // -games 1 without -repeat: single games, each from its own opening.
  if (games_per_round == 1) c.set_unpaired(true);
  c.set_games(int(rounds * games_per_round));
  if (c.name().empty()) {
    std::vector<std::string> names;
    for (const PlayerConfig& p : c.players()) names.push_back(p.name());
    c.set_name(absl::StrJoin(names, " vs "));
  }
  return out;
}

std::string FastchessOutputDir(const std::string& match_name,
                               const std::string& working_dir) {
  std::string name = match_name;
  for (char& c : name)
    if (!absl::ascii_isalnum(c) && c != '-' && c != '_' && c != '.') c = '_';
  if (name.empty() || name[0] == '.') name.insert(0, "_");
  return (std::filesystem::path(working_dir) / "fastchess-out" / name).string();
}

constexpr absl::string_view kTranslationHeader =
    "# arena's translation of: arena ";

std::string FastchessConfigHeader(const std::vector<std::string>& args) {
  std::vector<std::string> quoted;
  for (const std::string& arg : args) quoted.push_back(absl::CEscape(arg));
  return absl::StrCat(kTranslationHeader, absl::StrJoin(quoted, " "), "\n");
}

bool IsFastchessTranslation(const std::string& text) {
  return absl::StartsWith(text, kTranslationHeader);
}

}  // namespace chess
