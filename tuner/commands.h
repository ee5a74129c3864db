// The tuner's subcommands, each one function from what the command line says
// to an exit code (common/exit_code.h). They write only to the streams they
// are given: the result on `out`, progress, notes and errors on `err`. Paths
// are as the user typed them (relative to where the command ran, also under
// `bazel run`); lists of data sets are comma-separated. tuner_main.cc turns
// flags into these requests.
#ifndef TUNER_COMMANDS_H_
#define TUNER_COMMANDS_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "arena/venue.h"
#include "engine/network.h"
#include "tuner/extract.h"
#include "tuner/tuning.pb.h"

namespace chess {

// `extract` (game logs and data sets into one set) and `convert` (data sets
// from one format into another).
struct ExtractRequest {
  std::vector<std::string> inputs;
  std::string out;
  std::string format;  // by name; "": by `out`'s extension
  bool append = false;
  bool accept_torn = false;  // read a torn last chunk up to the tear
  // How games become positions; its qsearch_config is the one at
  // `qsearch_config_path` ("": the built-in config).
  ExtractOptions options;
  std::string qsearch_config_path;
};
int ExtractCommand(const ExtractRequest& request, std::ostream& out,
                   std::ostream& err);
int ConvertCommand(const ExtractRequest& request, std::ostream& out,
                   std::ostream& err);

// `texel` and `net`: a fit from `start` on `data`, written to `out`.
struct FitRequest {
  std::string data;      // the training sets
  std::string valid;     // net: held-out sets, their loss each epoch
  std::string start;     // the config fitted from
  std::string out;       // the config written
  std::string settings;  // net: a NetworkSettings textproto; "": defaults
  std::string record;    // texel: a TuningRun textproto of the run
};
int TexelCommand(const FitRequest& request, const TexelSettings& settings,
                 std::ostream& out, std::ostream& err);
int NetCommand(const FitRequest& request, std::ostream& out, std::ostream& err);

// `export-net` (a config's network as bullet's quantised file) and
// `import-net` (such a file as the evaluation of a config).
struct NetworkFileRequest {
  std::string input;   // export: the config; import: the network file
  std::string out;     // export: the file; import: the config
  std::string format;  // export: "" or "bullet"
  std::string start;   // import: the config whose evaluation it replaces
  Quantisation quantisation;
  std::string king_buckets;  // import: the file's layout ("": none)
  int output_buckets = 1;    // import
};
int ExportNetCommand(const NetworkFileRequest& request, std::ostream& out,
                     std::ostream& err);
int ImportNetCommand(const NetworkFileRequest& request, std::ostream& out,
                     std::ostream& err);

// `spsa CONFIG --state --work_dir`, `loop CONFIG --output_dir` and
// `datagen CONFIG --output_dir [--out]`.
struct TuningRunRequest {
  std::vector<std::string> operands;  // the config
  // Where the matches play; arena "": the one beside the tuner, else from
  // PATH. run_dir is the command's own.
  Venue venue;
  std::string state, work_dir;  // spsa
  std::string output_dir;       // loop, datagen
  std::string out, format;      // datagen: the data set
  bool played_only = false;     // datagen
  bool drop_damaged = false;    // datagen
};
int SpsaCommand(const TuningRunRequest& request, std::ostream& out,
                std::ostream& err);
int LoopCommand(const TuningRunRequest& request, std::ostream& out,
                std::ostream& err);
int DatagenCommand(const TuningRunRequest& request, std::ostream& out,
                   std::ostream& err);

// `report INPUT [--out]`: an HTML report of a loop, texel record or SPSA
// state.
int TuningReportCommand(const std::vector<std::string>& operands,
                        const std::string& out_path, std::ostream& out,
                        std::ostream& err);

// `bench`: a Texel gradient epoch and network training, timed.
struct BenchRequest {
  int positions = 1000000;
  int threads = 2;
  int batch_size = 0;  // network training's; 0: bullet's 16,384
  uint64_t seed = 1;
};
int BenchCommand(const BenchRequest& request, std::ostream& out);

}  // namespace chess

#endif  // TUNER_COMMANDS_H_
