// A UCI engine whose strength is one option: with probability Skill/100 a
// move is our engine's depth-2 choice, otherwise a random legal move
// (deterministic: drawn from the position and the option). SPSA of Skill must
// walk upwards: the test of tuning another program's options.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/search.h"

int main() {
  int skill = 10;
  chess::EngineConfig config = chess::DefaultEngineConfig();
  config.mutable_search()->set_hash_mb(1);
  chess::Engine engine(config);
  chess::Position pos = chess::Position::Start();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    if (command == "uci") {
      std::cout
          << "id name skill_engine\n"
             "option name Skill type spin default 10 min 0 max 100\n"
             "option name Style type combo default calm var calm var wild\n"
             "uciok"
          << std::endl;
    } else if (command == "isready") {
      std::cout << "readyok" << std::endl;
    } else if (command == "setoption") {
      std::string word, name, value;
      in >> word >> name >> word >> value;  // name Skill value N
      if (name == "Skill") skill = std::stoi(value);
    } else if (command == "position") {
      std::string kind, word;
      in >> kind;
      if (kind == "startpos") {
        pos = chess::Position::Start();
      } else {
        std::string fen, field;
        for (int i = 0; i < 6 && in >> field; ++i)
          fen += (i ? " " : "") + field;
        pos = *chess::Position::FromFen(fen);
      }
      while (in >> word) {
        if (word == "moves") continue;
        pos.MakeMove(*chess::ParseUci(pos, word));
      }
    } else if (command == "go") {
      const chess::MoveList moves = chess::LegalMoves(pos);
      const uint64_t draw =
          (pos.key() ^ (uint64_t(skill) * 0x9e3779b97f4a7c15)) *
          0xbf58476d1ce4e5b9;
      chess::Move move = moves[(draw >> 40) % moves.size()];
      if (int((draw >> 8) % 100) < skill) {
        chess::SearchLimits limits;
        limits.depth = 2;
        move = engine.Search(pos, {}, limits).best_move;
      }
      std::cout << "info depth 1 score cp 0 nodes 1\nbestmove "
                << chess::ToUci(move) << std::endl;
    } else if (command == "quit") {
      return 0;
    }
  }
  return 0;
}
