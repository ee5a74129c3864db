#include "engine/uci.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/bench.h"
#include "engine/config.h"
#include "engine/config_option.h"
#include "engine/eval_weights.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/skill.h"
#include "engine/syzygy.h"

namespace chess {
namespace {

using google::protobuf::FieldDescriptor;

std::string UciOptionLine(const FieldDescriptor* f) {
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL:
      return absl::StrCat("option name ", f->name(), " type check default ",
                          f->default_value_bool() ? "true" : "false");
    case FieldDescriptor::CPPTYPE_INT32: {
      // The range a config must respect (one place: engine/config.cc); a
      // field without one takes any value a spin can carry here.
      const auto range = SearchFieldRange(f->name());
      return absl::StrCat("option name ", f->name(), " type spin default ",
                          f->default_value_int32(), " min ",
                          range ? range->first : -100000, " max ",
                          range ? range->second : 100000);
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      std::string line =
          absl::StrCat("option name ", f->name(), " type combo default ",
                       f->default_value_enum()->name());
      for (int i = 0; i < f->enum_type()->value_count(); ++i) {
        absl::StrAppend(&line, " var ", f->enum_type()->value(i)->name());
      }
      return line;
    }
    default:
      return absl::StrCat("option name ", f->name(), " type string default 0");
  }
}

std::string FormatScore(int score) {
  if (IsMateScore(score)) return absl::StrCat("mate ", MateInMoves(score));
  return absl::StrCat("cp ", score);
}

std::string FormatLine(const SearchInfo& info, int multipv, int score,
                       const std::vector<Move>& line) {
  std::vector<std::string> pv;
  for (Move m : line) pv.push_back(ToUci(m));
  const uint64_t nps = info.time_ms > 0 ? info.nodes * 1000 / info.time_ms : 0;
  return absl::StrFormat(
      "info depth %d seldepth %d multipv %d score %s nodes %d nps %d time %d "
      "hashfull %d tbhits %d pv %s",
      info.depth, info.seldepth, multipv, FormatScore(score), info.nodes, nps,
      info.time_ms, info.hashfull, info.tb_hits, absl::StrJoin(pv, " "));
}

// One line per principal variation, the best first.
std::string FormatInfo(const SearchInfo& info) {
  if (info.lines.empty()) return FormatLine(info, 1, info.score, info.pv);
  std::string text;
  for (size_t i = 0; i < info.lines.size(); ++i) {
    absl::StrAppend(
        &text, i ? "\n" : "",
        FormatLine(info, int(i + 1), info.lines[i].score, info.lines[i].pv));
  }
  return text;
}

}  // namespace

UciSession::UciSession(const EngineConfig& config, std::ostream& out)
    : out_(out), engine_(std::make_unique<Engine>(config)) {}

UciSession::~UciSession() { StopSearch(); }

void UciSession::Send(absl::string_view text) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << text << std::endl;
}

void UciSession::WaitForSearch() {
  if (search_thread_.joinable()) search_thread_.join();
}

void UciSession::EndOfInput() { StopSearch(); }

void UciSession::StopSearch() {
  engine_->Stop();
  perft_stop_ = true;
  WaitForSearch();
  perft_stop_ = false;
}

bool UciSession::HandleLine(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  absl::string_view command = line.substr(0, line.find(' '));
  absl::string_view args =
      absl::StripAsciiWhitespace(line.substr(command.size()));
  if (command.empty()) return true;
  if (command == "quit") {
    StopSearch();
    return false;
  }
  if (command == "isready") {
    Send("readyok");
  } else if (command == "stop") {
    StopSearch();
  } else if (command == "uci") {
    HandleUci();
  } else if (command == "ucinewgame") {
    StopSearch();
    engine_->NewGame();
    game_ = Game();
    position_valid_ = true;
  } else if (command == "position") {
    StopSearch();
    HandlePosition(args);
  } else if (command == "go") {
    StopSearch();
    HandleGo(args);
  } else if (command == "setoption") {
    StopSearch();
    HandleSetOption(args);
  } else if (command == "bench") {
    StopSearch();
    HandleBench(args);
  } else if (command == "eval") {
    StopSearch();
    HandleEval();
  } else if (command == "d") {
    Send(absl::StrCat("info string fen ", game_.position().ToFen()));
  } else if (command == "ponderhit") {
    engine_->PonderHit();
  } else if (command != "debug" && command != "register") {
    Send(absl::StrCat("info string unknown command: ", line));
  }
  return true;
}

void UciSession::HandleUci() {
  const std::string name = engine_->config().name().empty()
                               ? "chess-harness"
                               : engine_->config().name();
  Send(absl::StrCat("id name ", name));
  Send("id author the chess-harness authors");
  Send("option name Hash type spin default 16 min 0 max 65536");
  // The range a config accepts (engine/config.cc), as Stockfish's 1 to 1024.
  const auto threads = SearchFieldRange("threads");
  Send(absl::StrCat("option name Threads type spin default 1 min ",
                    threads->first, " max ", threads->second));
  Send("option name Move Overhead type spin default 10 min 0 max 5000");
  Send("option name ConfigFile type string default <empty>");
  // Stockfish's name for the network file; here bullet's quantised format.
  Send("option name EvalFile type string default <empty>");
  Send(absl::StrCat("option name EvalFileQA type spin default 255 min 1 max ",
                    kMaxActivationOne));
  Send(absl::StrCat("option name EvalFileQB type spin default 64 min 1 max ",
                    kMaxOutputOne));
  Send(
      absl::StrCat("option name EvalFileScale type spin default 400 min 1 max ",
                   kMaxOutputScale));
  Send("option name Clear Hash type button");
  Send("option name Ponder type check default false");
  Send("option name UCI_Chess960 type check default false");
  Send("option name Skill Level type spin default 20 min 0 max 20");
  Send("option name UCI_LimitStrength type check default false");
  Send(absl::StrCat("option name UCI_Elo type spin default ", kHighestElo,
                    " min ", kLowestElo, " max ", kHighestElo));
  Send("option name MultiPV type spin default 1 min 1 max 256");
  Send("option name SyzygyPath type string default <empty>");
  Send("option name SyzygyProbeDepth type spin default 1 min 1 max 100");
  Send("option name Syzygy50MoveRule type check default true");
  Send("option name SyzygyProbeLimit type spin default 7 min 0 max 7");
  const auto* search = SearchParams::descriptor();
  for (int i = 0; i < search->field_count(); ++i) {
    if (!HasUciSpelling(search->field(i)->name()))
      Send(UciOptionLine(search->field(i)));
  }
  const auto* eval = EvalParams::descriptor();
  for (int i = 0; i < eval->field_count(); ++i) {
    if (!eval->field(i)->is_repeated() &&
        eval->field(i)->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
      Send(UciOptionLine(eval->field(i)));
    }
  }
  Send("uciok");
}

void UciSession::HandlePosition(absl::string_view args) {
  position_valid_ = false;  // until the whole command was read
  std::vector<absl::string_view> words =
      absl::StrSplit(args, ' ', absl::SkipEmpty());
  auto moves_at = std::find(words.begin(), words.end(), "moves");
  Position start = Position::Start(chess960_);
  if (!words.empty() && words[0] == "fen") {
    absl::StatusOr<Position> pos = Position::FromFen(
        absl::StrJoin(words.begin() + 1, moves_at, " "), chess960_);
    if (!pos.ok()) {
      Send(absl::StrCat("info string error: ", pos.status().message()));
      return;
    }
    start = *pos;
  } else if (words.empty() || words[0] != "startpos") {
    Send(
        "info string error: expected \"position startpos|fen <fen> [moves "
        "...]\"");
    return;
  }
  game_ = Game(start);
  if (moves_at != words.end()) {
    for (auto it = moves_at + 1; it != words.end(); ++it) {
      if (absl::Status s = game_.PlayUci(*it); !s.ok()) {
        Send(absl::StrCat("info string error: ", s.message()));
        return;
      }
    }
  }
  position_valid_ = true;
}

void UciSession::HandlePerft(absl::string_view depth_text) {
  int depth;
  if (!absl::SimpleAtoi(depth_text, &depth) || depth < 1 || depth > 10) {
    Send("info string error: go perft needs a depth from 1 to 10");
    return;
  }
  // On the search thread, as a search: "stop", "quit", "isready" and the end
  // of input are answered while it counts.
  search_thread_ = std::thread([this, depth, pos = game_.position()] {
    // As Stockfish answers it: each root move's count, then the total.
    uint64_t total = 0;
    std::string lines;
    for (const auto& [move, count] : PerftDivide(pos, depth, &perft_stop_)) {
      absl::StrAppend(&lines, ToUci(move), ": ", count, "\n");
      total += count;
    }
    if (perft_stop_.load()) {
      Send("info string perft stopped; no count");
      return;
    }
    Send(absl::StrCat(lines, "\nNodes searched: ", total, "\n"));
  });
}

void UciSession::HandleGo(absl::string_view args) {
  if (!position_valid_) {
    // A GUI waits for a bestmove: the null move, never one for a position it
    // did not send.
    Send(
        "info string error: the last \"position\" was rejected; send a valid "
        "one before \"go\"");
    if (!absl::StartsWith(args, "perft")) Send("bestmove 0000");
    return;
  }
  if (absl::ConsumePrefix(&args, "perft")) {
    HandlePerft(absl::StripAsciiWhitespace(args));
    return;
  }
  SearchLimits limits;
  bool ponder = false;
  std::vector<absl::string_view> words =
      absl::StrSplit(args, ' ', absl::SkipEmpty());
  for (size_t i = 0; i < words.size(); ++i) {
    const absl::string_view key = words[i];
    int64_t value = 0;
    const bool has_value =
        i + 1 < words.size() && absl::SimpleAtoi(words[i + 1], &value);
    if (key == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (key == "ponder") {
      ponder = true;
      continue;
    }
    if (key == "searchmoves") {
      // The moves that follow, up to the first word that is not one.
      while (i + 1 < words.size()) {
        absl::StatusOr<Move> m = ParseUci(game_.position(), words[i + 1]);
        if (!m.ok()) break;
        limits.search_moves.push_back(*m);
        ++i;
      }
      continue;
    }
    static constexpr absl::string_view kNumeric[] = {
        "depth", "nodes", "movetime", "wtime",
        "btime", "winc",  "binc",     "movestogo"};
    const bool numeric = std::find(std::begin(kNumeric), std::end(kNumeric),
                                   key) != std::end(kNumeric);
    if (numeric && !has_value) {
      Send(absl::StrCat("info string error: go: \"", key,
                        "\" needs a number; not searching"));
      return;
    }
    if (!has_value) continue;  // unknown words are skipped
    ++i;
    if (key == "depth")
      limits.depth = int(std::max<int64_t>(value, 1));
    else if (key == "nodes")
      limits.nodes = uint64_t(std::max<int64_t>(value, 1));
    else if (key == "movetime")
      limits.movetime_ms = std::max<int64_t>(value, 1);
    else if (key == "wtime")
      limits.time_left_ms[kWhite] = std::max<int64_t>(value, 0);
    else if (key == "btime")
      limits.time_left_ms[kBlack] = std::max<int64_t>(value, 0);
    else if (key == "winc")
      limits.increment_ms[kWhite] = std::max<int64_t>(value, 0);
    else if (key == "binc")
      limits.increment_ms[kBlack] = std::max<int64_t>(value, 0);
    else if (key == "movestogo")
      limits.moves_to_go = int(std::max<int64_t>(value, 0));
  }
  engine_->ClearStop();  // a "stop" that arrived after the previous search had
                         // ended
  if (ponder) engine_->BeginPonder();
  search_thread_ = std::thread([this, limits, game = game_]() {
    const size_t tablebase_notes = syzygy::Loaded().skipped.size();
    SearchInfo info = engine_->Search(
        game, limits, [this](const SearchInfo& i) { Send(FormatInfo(i)); });
    // A table that faulted Fathom in this search turned the tables off.
    const std::vector<std::string> notes = syzygy::Loaded().skipped;
    for (size_t i = tablebase_notes; i < notes.size(); ++i)
      Send(absl::StrCat("info string ", notes[i]));
    // The reply the search expects, which a GUI ponders on.
    const bool has_reply = info.pv.size() >= 2 && info.pv[0] == info.best_move;
    Send(absl::StrCat(
        "bestmove ", ToUci(info.best_move),
        has_reply ? absl::StrCat(" ponder ", ToUci(info.pv[1])) : ""));
  });
}

bool UciSession::TryConfig(const EngineConfig& config, absl::string_view what) {
  if (absl::Status s = ValidateEngineConfig(config); !s.ok()) {
    Send(absl::StrCat("info string error: ", what, ": ", s.message()));
    return false;
  }
  engine_->SetConfig(config);
  if (engine_->hash_mb_in_use() != uint64_t(config.search().hash_mb())) {
    Send(absl::StrCat("info string Hash ", config.search().hash_mb(),
                      " MB could not be allocated; using ",
                      engine_->hash_mb_in_use(), " MB"));
  }
  return true;
}

void UciSession::HandleSetOption(absl::string_view args) {
  // "name <name words> [value <value words>]"
  if (!absl::ConsumePrefix(&args, "name ")) {
    Send(
        "info string error: expected \"setoption name <name> [value "
        "<value>]\"");
    return;
  }
  size_t at = args.find(" value ");
  absl::string_view name = absl::StripAsciiWhitespace(args.substr(0, at));
  absl::string_view value =
      at == absl::string_view::npos
          ? ""
          : absl::StripAsciiWhitespace(args.substr(at + 7));
  const std::string normalized = NormalizeOptionName(name);
  if (normalized == "ponder") return;
  if (normalized == "uci_chess960") {
    const std::string v = absl::AsciiStrToLower(value);
    if (v != "true" && v != "false") {
      Send(absl::StrCat("info string error: bad UCI_Chess960 \"", value, "\""));
      return;
    }
    chess960_ = v == "true";
    return;
  }
  if (normalized == "clear_hash") {
    // As Stockfish: the table and every history, the state a new game starts
    // from.
    engine_->NewGame();
    return;
  }
  if (normalized == "move_overhead") {
    int64_t ms;
    if (absl::SimpleAtoi(value, &ms) && ms >= 0 && ms <= 5000)
      engine_->set_move_overhead_ms(ms);
    else
      Send(
          absl::StrCat("info string error: bad Move Overhead \"", value, "\""));
    return;
  }
  if (normalized == "configfile") {
    absl::StatusOr<EngineConfig> config = LoadEngineConfig(std::string(value));
    if (!config.ok()) {
      Send(absl::StrCat("info string error: ", config.status().message()));
      return;
    }
    if (TryConfig(*config, value)) {
      // A new config brings its own evaluation.
      own_eval_.reset();
      eval_file_.clear();
    }
    return;
  }
  if (HandleEvalFileOption(normalized, value)) return;
  EngineConfig config = engine_->config();
  if (absl::Status s = SetConfigOption(name, value, &config); !s.ok()) {
    Send(absl::StrCat("info string error: ", s.message()));
    return;
  }
  if (TryConfig(config, name) && normalized == "syzygypath" &&
      !config.tablebases().syzygy_path().empty()) {
    const syzygy::TableSet tables = syzygy::Loaded();
    for (const std::string& skipped : tables.skipped)
      Send(absl::StrCat("info string ", skipped));
    Send(absl::StrCat("info string Found ", tables.tables,
                      " tablebases, up to ", tables.largest, " pieces"));
  }
}

bool UciSession::HandleEvalFileOption(const std::string& normalized,
                                      absl::string_view value) {
  if (normalized == "evalfile") {
    eval_file_ = value == "<empty>" ? "" : std::string(value);
    ApplyEvalFile();
    return true;
  }
  if (normalized == "evalfilekingbuckets") {
    absl::StatusOr<std::vector<int>> layout =
        ParseKingBuckets(value == "<empty>" ? "" : value);
    if (!layout.ok()) {
      Send(absl::StrCat("info string error: EvalFileKingBuckets: ",
                        layout.status().message()));
      return true;
    }
    eval_file_shape_.king_buckets = *std::move(layout);
    if (!eval_file_.empty()) ApplyEvalFile();
    return true;
  }
  const struct {
    const char* name;
    int* field;
    int max;
  } constants[] = {
      {"evalfileqa", &eval_file_quantisation_.activation_one,
       kMaxActivationOne},
      {"evalfileqb", &eval_file_quantisation_.output_one, kMaxOutputOne},
      {"evalfilescale", &eval_file_quantisation_.output_scale, kMaxOutputScale},
      {"evalfileoutputbuckets", &eval_file_shape_.output_buckets,
       kMaxOutputBuckets}};
  for (const auto& c : constants) {
    if (normalized != c.name) continue;
    int v;
    if (!absl::SimpleAtoi(value, &v) || v < 1 || v > c.max) {
      Send(absl::StrCat("info string error: ", c.name, " must be 1 to ", c.max,
                        ", not \"", value, "\""));
      return true;
    }
    *c.field = v;
    if (!eval_file_.empty()) ApplyEvalFile();
    return true;
  }
  return false;
}

void UciSession::ApplyEvalFile() {
  EngineConfig config = engine_->config();
  if (!own_eval_) own_eval_ = config.eval();
  *config.mutable_eval() = *own_eval_;
  if (eval_file_.empty()) {
    TryConfig(config, "EvalFile");
    own_eval_.reset();
    return;
  }
  absl::StatusOr<NetworkParams> network =
      ReadBulletNetwork(eval_file_, eval_file_quantisation_, eval_file_shape_);
  if (!network.ok()) {
    Send(absl::StrCat(
        "info string error: EvalFile: ", network.status().message(),
        "; the evaluation stays as it was"));
    return;
  }
  network->add_provenance(absl::StrCat("EvalFile ", eval_file_));
  *config.mutable_eval()->mutable_network() = *std::move(network);
  if (!TryConfig(config, "EvalFile")) return;
  const Quantisation& q = eval_file_quantisation_;
  Send(absl::StrCat("info string EvalFile ", eval_file_, ": (768 -> ",
                    config.eval().network().hidden_size(), ") x 2 -> 1, QA ",
                    q.activation_one, ", QB ", q.output_one, ", scale ",
                    q.output_scale));
}

void UciSession::HandleEval() {
  if (!position_valid_) {
    Send(
        "info string error: the last \"position\" was rejected; send a valid "
        "one before \"eval\"");
    return;
  }
  const Position& pos = game_.position();
  const EvalParams& eval = engine_->config().eval();
  std::string source = "the linear evaluation of the config";
  if (eval.has_network()) {
    const NetworkParams& n = eval.network();
    source = absl::StrCat(
        eval_file_.empty() ? "the config's network" : "EvalFile " + eval_file_,
        ", ", n.layout() == NetworkParams::PERSPECTIVE ? "(768 -> " : "768 -> ",
        n.hidden_size(),
        n.layout() == NetworkParams::PERSPECTIVE ? ") x 2 -> 1" : " -> 1",
        n.whole_evaluation() ? "" : " added to the linear evaluation");
  }
  Send(absl::StrCat("Evaluation: ", source));
  Send(absl::StrCat("Side to move: ",
                    pos.side_to_move() == kWhite ? "white" : "black"));
  Send(absl::StrCat("Final evaluation: ", engine_->Evaluate(pos)));
}

void UciSession::HandleBench(absl::string_view args) {
  int depth = 8;
  if (!args.empty() && (!absl::SimpleAtoi(args, &depth) || depth < 1))
    depth = 8;
  std::ostringstream log;
  BenchResult result = RunBench(engine_->config(), depth, &log);
  Send(log.str());
  Send(absl::StrFormat("%d nodes %d nps", result.nodes, result.nps()));
}

}  // namespace chess
