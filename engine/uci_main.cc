// The engine as a UCI program.
//
//   uci [--config=FILE]                  speak UCI on stdin/stdout (default
//                                        configs/engines/default.textproto)
//   uci [--config=FILE] bench [depth]    print the bench signature
//   uci [--config=FILE] compare [depth]  minimax vs alpha-beta vs full search
//
// Exit code 2 when the config cannot be loaded.
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/bench.h"
#include "engine/config.h"
#include "engine/uci.h"

ABSL_FLAG(std::string, config, "",
          "engine config (text-format EngineConfig); default: the built-in "
          "configs/engines/default.textproto");

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "UCI chess engine. Arguments: [bench [depth] | compare [max_depth]]");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  chess::EngineConfig config = chess::DefaultEngineConfig();
  if (const std::string path = absl::GetFlag(FLAGS_config); !path.empty()) {
    absl::StatusOr<chess::EngineConfig> loaded = chess::LoadEngineConfig(path);
    if (!loaded.ok()) {
      std::cerr << loaded.status().message() << std::endl;
      return 2;
    }
    config = *loaded;
  }
  const std::string mode = args.size() > 1 ? args[1] : "";
  int depth = 0;
  if (args.size() > 2 && (!absl::SimpleAtoi(args[2], &depth) || depth < 1)) {
    std::cerr << "depth must be a positive number, not \"" << args[2] << "\"\n";
    return 2;
  }
  if (mode == "bench") {
    chess::BenchResult result =
        chess::RunBench(config, depth ? depth : 8, &std::cerr);
    absl::PrintF("%d nodes %d nps\n", result.nodes, result.nps());
    return 0;
  }
  if (mode == "compare") {
    chess::RunAlgorithmComparison(config, depth ? depth : 5, std::cout);
    return 0;
  }
  if (!mode.empty()) {
    std::cerr << "unknown argument \"" << mode
              << "\" (expected bench or compare)\n";
    return 2;
  }
  std::ios::sync_with_stdio(false);
  // std::cin is tied to std::cout: every read would flush std::cout from this
  // thread, racing the search thread's locked writes and duplicating lines
  // ("bestmove" twice, read by the GUI as the answer to its next "go").
  // UciSession flushes each line itself.
  std::cin.tie(nullptr);
  chess::UciSession session(config, std::cout);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!session.HandleLine(line)) return 0;
  }
  session.EndOfInput();
  return 0;
}
