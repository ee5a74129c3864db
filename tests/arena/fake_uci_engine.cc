// A misbehaving UCI engine for arena tests. Usage: fake_uci_engine MODE
//   good       plays the first legal move, instantly
//   crash      exits in the middle of its first search
//   hang       never answers "go"
//   illegal    answers every "go" with an illegal move
//   garbage    prints noise, then "bestmove" with a malformed move
//   die        exits before answering "uci"
//   slow       takes 1.5 s per move (loses on time at short controls)
//   nobestmove prints "info" lines and then exits without "bestmove"
//   nouciok    answers "uci" with its name but never "uciok"
//   none       answers every "go" with "bestmove (none)"
//   malformed  answers with a move off the board, "bestmove e2e9"
//   flood      writes 4 MB of "info" lines before its first move, then plays
//   deaf       plays, but ignores "quit" and the end of its input (sleeps)
//   forkcrash  starts a child that keeps the output pipe open, then crashes
//              in its first search (a wrapper script that does not exec)
// Further arguments are ignored: tests pass a marker to find the processes.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace {

std::string FirstLegalMove(const std::string& position_command) {
  std::vector<std::string> words =
      absl::StrSplit(position_command, ' ', absl::SkipEmpty());
  chess::Game game;
  size_t i = 1;
  if (i < words.size() && words[i] == "fen") {
    std::string fen;
    for (++i; i < words.size() && words[i] != "moves"; ++i)
      fen += words[i] + " ";
    auto pos = chess::Position::FromFen(fen);
    if (pos.ok()) game = chess::Game(*pos);
  } else {
    ++i;
  }
  for (++i; i < words.size(); ++i) (void)game.PlayUci(words[i]);
  chess::MoveList moves = chess::LegalMoves(game.position());
  return moves.empty() ? "0000" : chess::ToUci(moves[0]);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "good";
  if (mode == "die") return 3;
  if (mode == "forkcrash" && ::fork() == 0) {
    for (;;) ::pause();  // the child: holds stdout, never writes
  }
  std::string line, position = "position startpos";
  bool flooded = false;
  while (std::getline(std::cin, line)) {
    if (line == "uci") {
      std::cout << "id name fake-" << mode << "\n"
                << (mode == "nouciok" ? "" : "uciok\n") << std::flush;
    } else if (line == "isready") {
      std::cout << "readyok" << std::endl;
    } else if (absl::StartsWith(line, "position")) {
      position = line;
    } else if (absl::StartsWith(line, "go")) {
      if (mode == "crash" || mode == "forkcrash") std::abort();
      if (mode == "flood" && !flooded) {
        const std::string info = "info string " + std::string(200, 'x') + "\n";
        for (int i = 0; i < 20000; ++i) std::cout << info;
        flooded = true;
      }
      if (mode == "hang") continue;
      if (mode == "nobestmove") {
        std::cout << "info depth 1 score cp 0" << std::endl;
        return 0;
      }
      if (mode == "slow")
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      if (mode == "illegal") {
        std::cout << "bestmove a1a1" << std::endl;
      } else if (mode == "none") {
        std::cout << "bestmove (none)" << std::endl;
      } else if (mode == "malformed") {
        std::cout << "bestmove e2e9" << std::endl;
      } else if (mode == "garbage") {
        // Control bytes, a carriage return and bytes that are not UTF-8.
        std::cout << "info score banana\n\x01\x02\x1b[31m\r nonsense \xff\xfe"
                  << std::string(1, '\0') << "\nbestmove Zz9" << std::endl;
      } else {
        std::cout << "info depth 1 score cp 12 nodes 1\nbestmove "
                  << FirstLegalMove(position) << std::endl;
      }
    } else if (line == "quit" && mode != "deaf") {
      return 0;
    }
  }
  if (mode == "deaf") {
    for (;;) ::pause();
  }
  return 0;
}
