// A misbehaving UCI engine for arena tests. Usage: fake_uci_engine MODE
//   good       plays the first legal move, instantly
//   crash      exits in the middle of its first search
//   hang       never answers "go"
//   illegal    answers every "go" with an illegal move
//   garbage    prints noise, then "bestmove" with a malformed move
//   die        exits before answering "uci"
//   slow       takes 1.5 s per move (loses on time at short controls)
//   nobestmove prints "info" lines and then exits without "bestmove"
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
  std::string line, position = "position startpos";
  while (std::getline(std::cin, line)) {
    if (line == "uci") {
      std::cout << "id name fake-" << mode << "\nuciok" << std::endl;
    } else if (line == "isready") {
      std::cout << "readyok" << std::endl;
    } else if (absl::StartsWith(line, "position")) {
      position = line;
    } else if (absl::StartsWith(line, "go")) {
      if (mode == "crash") std::abort();
      if (mode == "hang") continue;
      if (mode == "nobestmove") {
        std::cout << "info depth 1 score cp 0" << std::endl;
        return 0;
      }
      if (mode == "slow")
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      if (mode == "illegal") {
        std::cout << "bestmove a1a1" << std::endl;
      } else if (mode == "garbage") {
        std::cout << "info score banana\n\x01\x02 nonsense\nbestmove Zz9"
                  << std::endl;
      } else {
        std::cout << "info depth 1 score cp 12 nodes 1\nbestmove "
                  << FirstLegalMove(position) << std::endl;
      }
    } else if (line == "quit") {
      return 0;
    }
  }
  return 0;
}
