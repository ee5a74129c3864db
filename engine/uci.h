// The UCI protocol over any pair of streams: the binary wires it to
// stdin/stdout, tests drive it directly.
#ifndef ENGINE_UCI_H_
#define ENGINE_UCI_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"
#include "engine/game.h"
#include "engine/network_file.h"
#include "engine/search.h"

namespace chess {

class UciSession {
 public:
  // Writes everything to `out`; `config` must be valid.
  UciSession(const EngineConfig& config, std::ostream& out);
  ~UciSession();

  // Handles one line of input; returns false after "quit".
  bool HandleLine(absl::string_view line);
  // Input has ended, as if "quit" had come (Stockfish does the same): a search
  // still running stops at once and prints its "bestmove".
  void EndOfInput();

 private:
  void Send(absl::string_view text);
  void HandleUci();
  void HandlePosition(absl::string_view args);
  void HandleGo(absl::string_view args);
  void HandlePerft(absl::string_view depth_text);
  void HandleSetOption(absl::string_view args);
  void HandleBench(absl::string_view args);
  void HandleEval();
  // EvalFile and its quantisation options; false when `normalized` is none
  // of them.
  bool HandleEvalFileOption(const std::string& normalized,
                            absl::string_view value);
  // Loads eval_file_ (or, when empty, goes back to the config's own
  // evaluation) and reports what it loaded.
  void ApplyEvalFile();
  void StopSearch();
  void WaitForSearch();
  // Applies a changed config if valid (true); otherwise reports why and keeps
  // the old one.
  bool TryConfig(const EngineConfig& config, absl::string_view what);

  std::ostream& out_;
  std::mutex out_mutex_;
  std::unique_ptr<Engine> engine_;
  Game game_;
  bool chess960_ = false;  // UCI_Chess960: positions parsed with its rules
  // Runs a search or `go perft`; `perft_stop_` ends the latter.
  std::thread search_thread_;
  std::atomic<bool> perft_stop_{false};
  // False after a rejected "position": "go" then refuses to search rather
  // than answer for another position.
  bool position_valid_ = true;
  // EvalFile: a network in bullet's quantised format that replaces the
  // config's evaluation, read with this quantisation; `own_eval_` is the
  // evaluation it replaced, restored when EvalFile is emptied.
  std::string eval_file_;
  Quantisation eval_file_quantisation_;
  NetworkShape eval_file_shape_;
  std::optional<EvalParams> own_eval_;
};

}  // namespace chess

#endif  // ENGINE_UCI_H_
