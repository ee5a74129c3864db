#include "engine/bench.h"

#include "absl/strings/str_format.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/search.h"

namespace chess {

const std::vector<std::string>& BenchPositions() {
  static const auto* positions = new std::vector<std::string>{
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 "
      "10",
      "rnbqkb1r/pp1ppppp/5n2/2p5/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
      "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
      "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
      "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
      "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
      "r2q1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/R2Q1RK1 w - - 4 10",
      "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP2P/1BN1BP2/PPPQ2P1/2KR3R w - - 1 13",
      "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2NB4/PPP1Q1PP/2KR3R w - - 0 13",
      "3r1rk1/pp3pp1/2pq1n1p/3p4/3P4/2PBP3/PP3PPP/R2Q1RK1 w - - 0 16",
      "r4rk1/pp1n1ppp/2p1pn2/q7/2BP4/2N1P3/PP3PPP/R2Q1RK1 w - - 0 12",
      "2r2rk1/1b2qppp/p3pn2/1p6/3N4/P1N1P3/1PQ2PPP/2R2RK1 w - - 0 18",
      "r1bq1rk1/ppp1nppp/4p3/3pP3/3P4/P1P5/2P2PPP/R1BQKBNR w KQ - 1 7",
      "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
      "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
      "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
      "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
      "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
      "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
      "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
      "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
      "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
      "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 5 39",
      "8/1p4k1/2p2p2/3p3p/3P3P/2P2PP1/1P6/6K1 w - - 0 40",
      "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
      "6k1/5pp1/p3p2p/3bP2P/6QN/8/rq4P1/2R4K w - - 0 33",
      "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
      "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
  };
  return *positions;
}

BenchResult RunBench(const EngineConfig& config, int depth, std::ostream* log) {
  Engine engine(config);
  SearchLimits limits;
  limits.depth = depth;
  BenchResult total;
  int index = 0;
  for (const std::string& fen : BenchPositions()) {
    engine.NewGame();
    Position pos = *Position::FromFen(fen);
    SearchInfo info = engine.Search(pos, {}, limits);
    total.nodes += info.nodes;
    total.time_ms += info.time_ms;
    if (log) {
      *log << absl::StrFormat("position %2d  bestmove %-6s nodes %10d  %s\n",
                              ++index, ToUci(info.best_move), info.nodes, fen);
    }
  }
  return total;
}

void RunAlgorithmComparison(const EngineConfig& config, int max_depth,
                            std::ostream& out) {
  EngineConfig plain = config;
  SearchParams* p = plain.mutable_search();
  DisableSelectiveSearch(p);
  // And no move ordering: the plain searches of the founding documents.
  p->set_order_tt_move(false);
  p->set_order_mvv_lva(false);
  p->set_order_killers(false);
  p->set_order_history(false);
  p->set_order_counter_moves(false);
  p->set_iterative_deepening(false);
  p->set_see_ordering(false);
  EngineConfig minimax = plain, alpha_beta = plain;
  minimax.mutable_search()->set_algorithm(SearchParams::MINIMAX);
  alpha_beta.mutable_search()->set_algorithm(SearchParams::ALPHA_BETA);
  struct Column {
    const char* name;
    EngineConfig config;
  };
  const Column columns[] = {{"minimax", minimax},
                            {"alpha-beta", alpha_beta},
                            {"full search", config}};
  // A Markdown table, so it can be pasted into the README as printed.
  out << "| depth |";
  for (const Column& c : columns)
    out << absl::StrFormat(" %s nodes | ms | score |", c.name);
  out << "\n|---:|";
  for (size_t i = 0; i < std::size(columns); ++i) out << "---:|---:|---:|";
  out << "\n";
  const Position start = Position::Start();
  for (int depth = 1; depth <= max_depth; ++depth) {
    out << absl::StrFormat("| %d |", depth);
    for (const Column& c : columns) {
      Engine engine(c.config);
      SearchLimits limits;
      limits.depth = depth;
      SearchInfo info = engine.Search(start, {}, limits);
      out << absl::StrFormat(" %d | %d | %d %s |", info.nodes, info.time_ms,
                             info.score, ToUci(info.best_move));
    }
    out << "\n";
  }
}

}  // namespace chess
