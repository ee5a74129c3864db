#include "arena/player.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/stopwatch.h"
#include "common/termination.h"
#include "engine/notation.h"

extern char** environ;

namespace chess {

void InProcessPlayer::SetGameSeed(uint64_t seed) {
  if (config_.search().eval_noise_cp() == 0) return;
  EngineConfig seeded = config_;
  seeded.mutable_search()->set_eval_noise_seed(
      config_.search().eval_noise_seed() ^ seed);
  engine_.SetConfig(seeded);
}

absl::Status InProcessPlayer::NewGame() {
  engine_.NewGame();
  return absl::OkStatus();
}

absl::StatusOr<MoveReply> InProcessPlayer::Go(const Game& game,
                                              const SearchLimits& limits,
                                              int64_t /*timeout_ms*/) {
  const SearchInfo info = engine_.Search(game, limits);
  MoveReply reply;
  reply.move = info.best_move.is_none() ? "0000" : ToUci(info.best_move);
  reply.has_score = true;
  if (IsMateScore(info.score)) {
    reply.mate = MateInMoves(info.score);
  } else {
    reply.score_cp = info.score;
  }
  reply.depth = info.depth;
  reply.seldepth = info.seldepth;
  reply.nodes = info.nodes;
  return reply;
}

UciProcessPlayer::~UciProcessPlayer() {
  if (pid_ > 0) {
    (void)Send("quit");
    // Give it a moment to exit by itself, then make sure.
    for (int i = 0; i < 20; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      ::usleep(5000);
    }
  }
  Kill();
}

void UciProcessPlayer::Kill() {
  // The whole process group: a wrapper script's children too.
  if (pgid_ > 0) {
    ::kill(-pgid_, SIGKILL);
    UnregisterChildGroup(pgid_);
  }
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = pgid_ = -1;
  if (to_engine_ >= 0) ::close(to_engine_);
  if (from_engine_ >= 0) ::close(from_engine_);
  to_engine_ = from_engine_ = -1;
  buffer_.clear();
}

std::string UciProcessPlayer::ExitDescription() {
  if (!exit_description_.empty()) return exit_description_;
  if (pid_ <= 0) return "the engine is not running";
  // The pipe closed: the process is gone or about to be.
  for (int i = 0; i < 100; ++i) {
    if (Exited()) return exit_description_;
    ::usleep(2000);
  }
  return "closed its output";
}

bool UciProcessPlayer::Exited() {
  if (pid_ <= 0) return !exit_description_.empty();
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
  pid_ = -1;
  exit_description_ =
      WIFSIGNALED(status)
          ? absl::StrCat("killed by signal ", WTERMSIG(status))
          : absl::StrCat("exited with code ", WEXITSTATUS(status));
  return true;
}

absl::Status UciProcessPlayer::Start() {
  Kill();
  if (config_.argv().empty())
    return absl::InvalidArgumentError("external engine has no argv");
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0)
    return absl::InternalError("pipe failed");
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    return absl::InternalError("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  if (!config_.working_dir().empty()) {
    posix_spawn_file_actions_addchdir_np(&actions,
                                         config_.working_dir().c_str());
  }
  // Its own process group, so that ending it ends whatever it started.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  SetUpChildGroup(&attributes);
  std::vector<std::string> args(config_.argv().begin(), config_.argv().end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // A name with a slash is a path: never looked up in PATH.
  const bool is_path = args[0].find('/') != std::string::npos;
  int error = 0;
  const pid_t pid = SpawnChildGroup([&] {
    pid_t child = -1;
    error = is_path ? ::posix_spawn(&child, argv[0], &actions, &attributes,
                                    argv.data(), environ)
                    : ::posix_spawnp(&child, argv[0], &actions, &attributes,
                                     argv.data(), environ);
    return error == 0 ? child : -1;
  });
  if (pid < 0 && error == 0) error = ECANCELED;  // the program is ending
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  if (error != 0) {
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    return absl::UnavailableError(
        absl::StrCat("cannot start \"", args[0], "\": ", std::strerror(error)));
  }
  pid_ = pgid_ = pid;
  exit_description_.clear();
  to_engine_ = in_pipe[1];
  from_engine_ = out_pipe[0];

  if (absl::Status s = Send("uci"); !s.ok()) return s;
  advertised_.clear();
  if (absl::Status s = WaitFor("uciok", config_.startup_timeout_ms());
      !s.ok()) {
    Kill();
    return absl::UnavailableError(
        absl::StrCat("\"", args[0], "\" did not start: ", s.message()));
  }
  for (const auto& [name, value] : config_.options()) {
    if (absl::Status s =
            Send(absl::StrCat("setoption name ", name, " value ", value));
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = Send("isready"); !s.ok()) return s;
  if (absl::Status s = WaitFor("readyok", config_.startup_timeout_ms());
      !s.ok()) {
    Kill();
    return absl::UnavailableError(
        absl::StrCat("\"", args[0], "\" not ready: ", s.message()));
  }
  return absl::OkStatus();
}

void UciProcessPlayer::Remember(absl::string_view direction,
                                absl::string_view line) {
  transcript_.push_back(absl::StrCat(direction, " ", line.substr(0, 200)));
  if (transcript_.size() > 12) transcript_.pop_front();
}

std::string UciProcessPlayer::Transcript() const {
  return absl::StrJoin(transcript_, " / ");
}

absl::Status UciProcessPlayer::Send(const std::string& line) {
  if (to_engine_ < 0)
    return absl::UnavailableError("the engine is not running");
  Remember(">", line);
  std::string data = line + "\n";
  absl::string_view rest = data;
  while (!rest.empty()) {
    const ssize_t n = ::write(to_engine_, rest.data(), rest.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(
          absl::StrCat("the engine ", ExitDescription()));
    }
    rest.remove_prefix(size_t(n));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> UciProcessPlayer::ReadLine(int64_t deadline_ms) {
  while (true) {
    if (const size_t eol = buffer_.find('\n'); eol != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      Remember("<", line);
      return line;
    }
    if (from_engine_ < 0) {
      return absl::UnavailableError(
          exit_description_.empty()
              ? "the engine is not running"
              : absl::StrCat("the engine ", exit_description_));
    }
    const int64_t wait = deadline_ms > 0 ? deadline_ms - SteadyNowMs() : -1;
    if (deadline_ms > 0 && wait <= 0) {
      if (!Exited()) return absl::DeadlineExceededError("no answer in time");
      // On a loaded machine this thread can come late to an engine that has
      // already ended: what it wrote decides (a move, or a crash), never the
      // lateness of the reader.
      DrainEndedEngine();
      continue;
    }
    // In slices: a process that has exited while a child of its own keeps
    // the pipe open is a crash, not a hang.
    constexpr int64_t kSliceMs = 50;
    pollfd pfd{from_engine_, POLLIN, 0};
    const int ready =
        ::poll(&pfd, 1, int(wait >= 0 ? std::min(wait, kSliceMs) : kSliceMs));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (Exited()) {
        return absl::UnavailableError(
            absl::StrCat("the engine ", exit_description_,
                         " (a process it started still held its output)"));
      }
      continue;
    }
    char chunk[4096];
    const ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return absl::UnavailableError(
          absl::StrCat("the engine ", ExitDescription()));
    buffer_.append(chunk, size_t(n));
    if (buffer_.size() > (1 << 20) && buffer_.find('\n') == std::string::npos) {
      return absl::UnavailableError("the engine wrote a line over 1 MiB");
    }
  }
}

void UciProcessPlayer::DrainEndedEngine() {
  char chunk[4096];
  // A child of the engine may still hold the pipe and write on: what fits in
  // the line limit is read, and the pipe is closed either way.
  while (buffer_.size() <= (1 << 20)) {
    pollfd pfd{from_engine_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, 0);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer_.append(chunk, size_t(n));
  }
  ::close(from_engine_);
  from_engine_ = -1;
}

absl::Status UciProcessPlayer::WaitFor(const std::string& token,
                                       int64_t timeout_ms) {
  const int64_t deadline = SteadyNowMs() + timeout_ms;
  while (true) {
    absl::StatusOr<std::string> line = ReadLine(deadline);
    if (!line.ok()) {
      return absl::Status(line.status().code(),
                          absl::StrCat("waiting for \"", token,
                                       "\": ", line.status().message()));
    }
    if (absl::StripAsciiWhitespace(*line) == token) return absl::OkStatus();
    if (token == "uciok" && absl::StartsWith(*line, "option ") &&
        advertised_.size() < 10000)
      advertised_.push_back(*line);
  }
}

absl::StatusOr<UciOption> ParseUciOptionLine(absl::string_view line) {
  std::vector<absl::string_view> words =
      absl::StrSplit(line, ' ', absl::SkipWhitespace());
  if (words.size() < 5 || words[0] != "option" || words[1] != "name")
    return absl::InvalidArgumentError(
        absl::StrCat("not a UCI option line: \"", line, "\""));
  UciOption option;
  // The name runs to " type "; the other fields follow as keyword value
  // (a default may be several words, a string option's even empty).
  size_t i = 2;
  std::vector<absl::string_view> name;
  while (i < words.size() && words[i] != "type") name.push_back(words[i++]);
  if (name.empty() || i + 1 >= words.size())
    return absl::InvalidArgumentError(
        absl::StrCat("no name or type in \"", line, "\""));
  option.name = absl::StrJoin(name, " ");
  option.type = std::string(words[i + 1]);
  bool has_min = false, has_max = false;
  for (i += 2; i < words.size(); ++i) {
    const absl::string_view key = words[i];
    std::vector<absl::string_view> value;
    while (i + 1 < words.size() && words[i + 1] != "default" &&
           words[i + 1] != "min" && words[i + 1] != "max" &&
           words[i + 1] != "var")
      value.push_back(words[++i]);
    const std::string text = absl::StrJoin(value, " ");
    if (key == "default") {
      option.default_value = text;
    } else if (key == "min") {
      has_min = absl::SimpleAtoi(text, &option.min);
    } else if (key == "max") {
      has_max = absl::SimpleAtoi(text, &option.max);
    }
  }
  option.has_range = has_min && has_max && option.min <= option.max;
  return option;
}

absl::StatusOr<std::vector<UciOption>> ProbeUciOptions(
    const ExternalEngine& engine) {
  UciProcessPlayer player(engine);
  if (absl::Status s = player.NewGame(); !s.ok()) return s;
  std::vector<UciOption> options;
  for (const std::string& line : player.advertised()) {
    absl::StatusOr<UciOption> option = ParseUciOptionLine(line);
    if (option.ok()) options.push_back(*std::move(option));
  }
  return options;
}

absl::Status UciProcessPlayer::NewGame() {
  if (pid_ <= 0) {
    if (absl::Status s = Start(); !s.ok()) return s;
  }
  absl::Status s = Send("ucinewgame");
  if (s.ok()) s = Send("isready");
  if (s.ok()) s = WaitFor("readyok", config_.startup_timeout_ms());
  if (!s.ok()) {
    // Dead or hung since the last game: one fresh start.
    if (absl::Status restart = Start(); !restart.ok()) return restart;
  }
  return absl::OkStatus();
}

void ParseUciInfo(absl::string_view line, MoveReply* reply) {
  std::vector<absl::string_view> w =
      absl::StrSplit(line, ' ', absl::SkipEmpty());
  for (size_t i = 1; i + 1 < w.size(); ++i) {
    if (w[i] == "pv" || w[i] == "string") return;
    // With MultiPV the other lines score other moves: the best line counts.
    if (w[i] == "multipv" && w[i + 1] != "1") return;
    int64_t v;
    if (w[i] == "score" && i + 2 < w.size() && absl::SimpleAtoi(w[i + 2], &v)) {
      if (w[i + 1] == "cp") {
        reply->has_score = true;
        reply->score_cp = int(v);
        reply->mate = 0;
      } else if (w[i + 1] == "mate") {
        reply->has_score = true;
        reply->mate = int(v);
      }
      i += 2;
    } else if (absl::SimpleAtoi(w[i + 1], &v)) {
      if (w[i] == "depth") reply->depth = int(v);
      if (w[i] == "seldepth") reply->seldepth = int(v);
      if (w[i] == "nodes") reply->nodes = uint64_t(v);
    }
  }
}

absl::StatusOr<MoveReply> UciProcessPlayer::Go(const Game& game,
                                               const SearchLimits& limits,
                                               int64_t timeout_ms) {
  std::string position = absl::StrCat("position fen ", game.start().ToFen());
  if (!game.moves().empty()) {
    absl::StrAppend(
        &position, " moves ",
        absl::StrJoin(game.moves(), " ",
                      [](std::string* out, Move m) { out->append(ToUci(m)); }));
  }
  std::string go = "go";
  if (limits.depth > 0) absl::StrAppend(&go, " depth ", limits.depth);
  if (limits.nodes > 0) absl::StrAppend(&go, " nodes ", limits.nodes);
  if (limits.movetime_ms > 0)
    absl::StrAppend(&go, " movetime ", limits.movetime_ms);
  if (limits.time_left_ms[kWhite] >= 0) {
    absl::StrAppend(&go, " wtime ", limits.time_left_ms[kWhite], " btime ",
                    limits.time_left_ms[kBlack], " winc ",
                    limits.increment_ms[kWhite], " binc ",
                    limits.increment_ms[kBlack]);
    if (limits.moves_to_go > 0)
      absl::StrAppend(&go, " movestogo ", limits.moves_to_go);
  }
  if (absl::Status s = Send(position); !s.ok()) return s;
  if (absl::Status s = Send(go); !s.ok()) return s;
  const int64_t deadline = timeout_ms > 0 ? SteadyNowMs() + timeout_ms : 0;
  MoveReply reply;
  while (true) {
    absl::StatusOr<std::string> line = ReadLine(deadline);
    if (!line.ok()) {
      if (absl::IsDeadlineExceeded(line.status()))
        Kill();  // hung: restart next game
      return line.status();
    }
    if (absl::StartsWith(*line, "info string ")) {
      if (reply.notes.size() < 2000)
        absl::StrAppend(&reply.notes, reply.notes.empty() ? "" : " | ",
                        line->substr(12));
    } else if (absl::StartsWith(*line, "info ")) {
      ParseUciInfo(*line, &reply);
    } else if (absl::StartsWith(*line, "bestmove")) {
      std::vector<absl::string_view> words =
          absl::StrSplit(*line, ' ', absl::SkipEmpty());
      reply.move = words.size() > 1 ? std::string(words[1]) : "";
      return reply;
    }
  }
}

}  // namespace chess
