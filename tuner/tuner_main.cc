// tuner: learns evaluation weights from arena games and tunes search constants.
//
//   tuner datagen DATAGEN.textproto --output_dir=DIR [--out=DATA]
//                 [--format=...] [--played_only] [--drop_damaged]
//               positions from a player's games against itself, labelled
//               with its own scores and the results (resumable;
//               --played_only: the games played so far, no more;
//               --drop_damaged: a damaged log's intact games kept)
//   tuner extract --out=DATA [--format=native|text|bulletformat|epd|fen]
//                 [--append] [--accept_torn] INPUT...
//               arena logs (*.log) and datasets (any format) into one set
//   tuner convert --out=DATA [--format=...] [--accept_torn] DATASET...
//               datasets from one format into another
//   tuner texel --data=DATA[,DATA] --start=CONFIG --out=CONFIG
//               [--record=RUN.textproto]
//   tuner net --data=DATA[,DATA] --start=CONFIG --out=CONFIG
//             [--valid=DATA[,DATA]] [--settings=NETWORK_SETTINGS.textproto]
//               a network trained on top of CONFIG's linear evaluation
//   tuner export-net --out=FILE [--format=bullet] [--qa=255 --qb=64
//                    --scale=400] CONFIG
//               CONFIG's network as bullet's quantised.bin (FILE.provenance
//               beside it)
//   tuner import-net --out=CONFIG [--start=CONFIG] [--qa --qb --scale]
//                    [--king_buckets=B,... --output_buckets=N] FILE
//               a bullet network as the evaluation of a config
//   tuner spsa SPSA.textproto --state=FILE --work_dir=DIR
//   tuner loop LOOP.textproto --output_dir=DIR
//     datagen, spsa and loop on Slurm: --shards=N [--cpus_per_shard=C]
//     [--sbatch=OPT,...] (each match through sbatch) or [--srun] (inside an
//     allocation: each match's shards as job steps)
//   tuner report LOOP_DIR|TEXEL_RECORD|SPSA_STATE [--out=FILE.html]
//               an HTML report (default: report.html in the loop directory,
//               or the record's path with .html)
//   tuner bench [--positions=1000000] [--threads=2] [--batch_size=16384]
//               a Texel gradient epoch and network training, timed
//
// Exit codes (common/exit_code.h): 0 done, 2 bad input, 3 engine failure,
// 4 I/O error.
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"
#include "common/subcommands.h"
#include "engine/network.h"
#include "tuner/commands.h"
#include "tuner/tuning.pb.h"

ABSL_FLAG(std::string, out, "",
          "extract: dataset to write; texel/net: config to write; report: the "
          "HTML file; datagen: the dataset (default OUTPUT_DIR/data.bin; .txt: "
          "bullet's text format)");
ABSL_FLAG(std::string, format, "",
          "extract, convert, datagen: the output's format: native (ours: "
          "scores, sources and drop counts kept), text (bullet's FEN | score "
          "| result), bulletformat (bullet's 32-byte binary records), epd "
          "(FEN c9 \"1-0\";) or fen (FEN [1.0]); default: by --out's "
          "extension (.txt, .bulletformat, .epd, .fen), else native");
ABSL_FLAG(bool, append, false,
          "extract: add the positions at the end of --out (our format) "
          "instead of replacing it");
ABSL_FLAG(bool, played_only, false,
          "datagen: play no more games; write the dataset of the games the "
          "run in --output_dir has finished (a run stopped early)");
ABSL_FLAG(bool, accept_torn, false,
          "extract, convert: a data set whose last chunk is torn (its writer "
          "stopped) "
          "is read up to it, the loss reported, instead of refused");
ABSL_FLAG(bool, drop_damaged, false,
          "datagen: a game log with damaged records is rewritten without "
          "them (the old one kept as games.log.damaged) and those games "
          "played again; with --played_only, they are left out");
ABSL_FLAG(int, skip_plies, 0, "extract: plies skipped after the book");
ABSL_FLAG(int, max_per_game, 0, "extract: positions kept per game (0: all)");
ABSL_FLAG(std::string, player, "",
          "extract: record which colour this player (by its name in the log) "
          "had, so that texel fits its strength edge apart from the "
          "evaluation; games it did not play are dropped");
ABSL_FLAG(std::string, qsearch_config, "",
          "extract: config whose quiescence resolves positions");
ABSL_FLAG(std::string, data, "",
          "texel/net: comma-separated datasets from `tuner extract`");
ABSL_FLAG(std::string, start, "",
          "texel/net: starting engine config (net: the linear evaluation "
          "the network is added to); import-net: the config whose "
          "evaluation the network replaces (default: the built-in one)");
ABSL_FLAG(std::string, valid, "",
          "net: comma-separated held-out datasets, whose loss each epoch "
          "reports");
ABSL_FLAG(std::string, settings, "",
          "net: a NetworkSettings textproto (tuner/tuning.proto); default: "
          "its defaults");
ABSL_FLAG(std::string, record, "",
          "texel: where to record the run (configs/tuning/*.textproto)");
ABSL_FLAG(int, epochs, chess::TexelSettings::default_instance().epochs(),
          "texel: epochs");
ABSL_FLAG(double, learning_rate,
          chess::TexelSettings::default_instance().learning_rate(),
          "texel: Adam step size in centipawns");
ABSL_FLAG(int, batch_size,
          chess::TexelSettings::default_instance().batch_size(),
          "texel: mini-batch size (0: full batch); bench: the network "
          "training's (0: bullet's 16384)");
ABSL_FLAG(int, threads, chess::TexelSettings::default_instance().threads(),
          "texel/bench: threads");
ABSL_FLAG(double, k, chess::TexelSettings::default_instance().k(),
          "texel: fixed K (0: fit it)");
ABSL_FLAG(std::string, blocks, "",
          "texel: feature blocks to tune, e.g. value,pst (default all)");
ABSL_FLAG(uint64_t, seed, chess::TexelSettings::default_instance().seed(),
          "random seed");
ABSL_FLAG(double, result_weight,
          chess::TexelSettings::default_instance().result_weight(),
          "texel: weight of the game result in the target; the rest is the "
          "recorded search score");
ABSL_FLAG(int32_t, refit_epochs,
          chess::TexelSettings::default_instance().refit_epochs(),
          "texel: after the fit, round the positional terms and fit the "
          "values, tables and tempo again around them for this many epochs, "
          "with --l2 pulling towards the first fit (a term counts up to "
          "dozens per position: rounding it costs)");
ABSL_FLAG(double, l2, chess::TexelSettings::default_instance().l2(),
          "texel: L2 pull towards the starting weights (per cp^2)");
ABSL_FLAG(int, qa, chess::Quantisation().activation_one,
          "export-net, import-net: bullet's QA (an activation of 1.0)");
ABSL_FLAG(int, qb, chess::Quantisation().output_one,
          "export-net, import-net: bullet's QB (an output weight of 1.0)");
ABSL_FLAG(int, scale, chess::Quantisation().output_scale,
          "export-net, import-net: centipawns per unit of the network's "
          "output (bullet's SCALE)");
ABSL_FLAG(std::string, king_buckets, "",
          "import-net: the file's king bucket layout, 64 numbers (a1 first, "
          "files e-h as a-d: bullet's ChessBucketsMirrored); none: no buckets");
ABSL_FLAG(int, output_buckets, 1,
          "import-net: the file's output buckets (bullet's MaterialCount)");
ABSL_FLAG(std::string, state, "", "spsa: checkpoint file");
ABSL_FLAG(std::string, work_dir, "", "spsa: directory for game logs");
ABSL_FLAG(std::string, output_dir, "",
          "loop, datagen: output directory (resumed when it holds a run)");
ABSL_FLAG(int, positions, 1000000, "bench: positions");
ABSL_FLAG(int, shards, 0,
          "spsa, loop, datagen: play each match as this many shards on Slurm "
          "(0: in this process)");
ABSL_FLAG(int, cpus_per_shard, 1,
          "spsa, loop, datagen: CPUs (games at once) per shard");
ABSL_FLAG(bool, srun, false,
          "spsa, loop, datagen: inside an allocation (salloc/sbatch), start "
          "the shards "
          "as job steps with srun instead of submitting each match with "
          "sbatch");
ABSL_FLAG(std::vector<std::string>, sbatch, {},
          "spsa, loop, datagen: extra sbatch options, comma-separated");
ABSL_FLAG(
    std::string, arena, "",
    "spsa, loop, datagen: the arena binary that plays the shards (default: the "
    "one built beside this tuner, else arena from PATH)");

namespace {

using Operands = std::vector<std::string>;

chess::ExtractRequest ExtractRequestFromFlags(const Operands& inputs) {
  chess::ExtractRequest request;
  request.inputs = inputs;
  request.out = absl::GetFlag(FLAGS_out);
  request.format = absl::GetFlag(FLAGS_format);
  request.append = absl::GetFlag(FLAGS_append);
  request.accept_torn = absl::GetFlag(FLAGS_accept_torn);
  request.options.skip_plies = absl::GetFlag(FLAGS_skip_plies);
  request.options.max_per_game = absl::GetFlag(FLAGS_max_per_game);
  request.options.seed = absl::GetFlag(FLAGS_seed);
  request.options.player = absl::GetFlag(FLAGS_player);
  request.qsearch_config_path = absl::GetFlag(FLAGS_qsearch_config);
  return request;
}

chess::FitRequest FitRequestFromFlags() {
  return {absl::GetFlag(FLAGS_data),     absl::GetFlag(FLAGS_valid),
          absl::GetFlag(FLAGS_start),    absl::GetFlag(FLAGS_out),
          absl::GetFlag(FLAGS_settings), absl::GetFlag(FLAGS_record)};
}

chess::TexelSettings TexelSettingsFromFlags() {
  chess::TexelSettings s;
  s.set_epochs(absl::GetFlag(FLAGS_epochs));
  s.set_learning_rate(absl::GetFlag(FLAGS_learning_rate));
  s.set_batch_size(absl::GetFlag(FLAGS_batch_size));
  s.set_threads(absl::GetFlag(FLAGS_threads));
  s.set_seed(absl::GetFlag(FLAGS_seed));
  s.set_k(absl::GetFlag(FLAGS_k));
  s.set_l2(absl::GetFlag(FLAGS_l2));
  s.set_result_weight(absl::GetFlag(FLAGS_result_weight));
  s.set_refit_epochs(absl::GetFlag(FLAGS_refit_epochs));
  for (absl::string_view b :
       absl::StrSplit(absl::GetFlag(FLAGS_blocks), ',', absl::SkipEmpty()))
    s.add_blocks(std::string(b));
  return s;
}

// export-net and import-net: their one operand ("" when not exactly one).
chess::NetworkFileRequest NetworkFileRequestFromFlags(
    const Operands& operands) {
  chess::NetworkFileRequest request;
  request.input = operands.size() == 1 ? operands[0] : "";
  request.out = absl::GetFlag(FLAGS_out);
  request.format = absl::GetFlag(FLAGS_format);
  request.start = absl::GetFlag(FLAGS_start);
  request.quantisation = {absl::GetFlag(FLAGS_qa), absl::GetFlag(FLAGS_qb),
                          absl::GetFlag(FLAGS_scale)};
  request.king_buckets = absl::GetFlag(FLAGS_king_buckets);
  request.output_buckets = absl::GetFlag(FLAGS_output_buckets);
  return request;
}

chess::TuningRunRequest TuningRunRequestFromFlags(const Operands& operands) {
  chess::TuningRunRequest request;
  request.operands = operands;
  request.venue.shards = absl::GetFlag(FLAGS_shards);
  request.venue.cpus_per_shard = absl::GetFlag(FLAGS_cpus_per_shard);
  request.venue.use_srun = absl::GetFlag(FLAGS_srun);
  request.venue.sbatch_options = absl::GetFlag(FLAGS_sbatch);
  request.venue.arena = absl::GetFlag(FLAGS_arena);
  request.state = absl::GetFlag(FLAGS_state);
  request.work_dir = absl::GetFlag(FLAGS_work_dir);
  request.output_dir = absl::GetFlag(FLAGS_output_dir);
  request.out = absl::GetFlag(FLAGS_out);
  request.format = absl::GetFlag(FLAGS_format);
  request.played_only = absl::GetFlag(FLAGS_played_only);
  request.drop_damaged = absl::GetFlag(FLAGS_drop_damaged);
  return request;
}

// Each subcommand's operands and flags: a flag of another subcommand is an
// error, and `tuner SUBCOMMAND --help` lists these.
chess::SubcommandProgram Tuner() {
  const std::vector<std::string> venue = {"shards", "cpus_per_shard", "srun",
                                          "sbatch", "arena"};
  auto with_venue = [&](std::vector<std::string> flags) {
    flags.insert(flags.end(), venue.begin(), venue.end());
    return flags;
  };
  return {
      "tuner",
      {
          {"extract",
           "--out=DATA INPUT...",
           {"out", "format", "append", "skip_plies", "max_per_game", "player",
            "accept_torn", "qsearch_config", "seed"},
           [](const Operands& inputs) {
             return chess::ExtractCommand(ExtractRequestFromFlags(inputs),
                                          std::cout, std::cerr);
           }},
          {"convert",
           "--out=DATA DATASET...",
           {"out", "format", "accept_torn"},
           [](const Operands& inputs) {
             return chess::ConvertCommand(ExtractRequestFromFlags(inputs),
                                          std::cout, std::cerr);
           }},
          {"texel",
           "--data=DATA[,DATA] --start=CONFIG --out=CONFIG",
           {"data", "start", "out", "record", "epochs", "learning_rate",
            "batch_size", "threads", "k", "blocks", "seed", "l2",
            "result_weight", "refit_epochs"},
           [](const Operands&) {
             return chess::TexelCommand(FitRequestFromFlags(),
                                        TexelSettingsFromFlags(), std::cout,
                                        std::cerr);
           }},
          {"net",
           "--data=DATA[,DATA] --start=CONFIG --out=CONFIG",
           {"data", "valid", "start", "out", "settings"},
           [](const Operands&) {
             return chess::NetCommand(FitRequestFromFlags(), std::cout,
                                      std::cerr);
           }},
          {"export-net",
           "--out=FILE [--format=bullet] [--qa=255 --qb=64 --scale=400] "
           "CONFIG",
           {"out", "format", "qa", "qb", "scale"},
           [](const Operands& operands) {
             return chess::ExportNetCommand(
                 NetworkFileRequestFromFlags(operands), std::cout, std::cerr);
           }},
          {"import-net",
           "--out=CONFIG [--start=CONFIG] [--qa=255 --qb=64 --scale=400] "
           "[--king_buckets=B,...] [--output_buckets=N] FILE",
           {"out", "start", "qa", "qb", "scale", "king_buckets",
            "output_buckets"},
           [](const Operands& operands) {
             return chess::ImportNetCommand(
                 NetworkFileRequestFromFlags(operands), std::cout, std::cerr);
           }},
          {"spsa", "SPSA.textproto --state=FILE --work_dir=DIR",
           with_venue({"state", "work_dir"}),
           [](const Operands& operands) {
             return chess::SpsaCommand(TuningRunRequestFromFlags(operands),
                                       std::cout, std::cerr);
           }},
          {"loop", "LOOP.textproto --output_dir=DIR",
           with_venue({"output_dir"}),
           [](const Operands& operands) {
             return chess::LoopCommand(TuningRunRequestFromFlags(operands),
                                       std::cout, std::cerr);
           }},
          {"datagen",
           "DATAGEN.textproto --output_dir=DIR [--out=DATA] "
           "[--format=FORMAT] [--played_only] [--drop_damaged]",
           with_venue(
               {"output_dir", "out", "format", "played_only", "drop_damaged"}),
           [](const Operands& operands) {
             return chess::DatagenCommand(TuningRunRequestFromFlags(operands),
                                          std::cout, std::cerr);
           }},
          {"report",
           "LOOP_DIR|TEXEL_RECORD|SPSA_STATE",
           {"out"},
           [](const Operands& operands) {
             return chess::TuningReportCommand(
                 operands, absl::GetFlag(FLAGS_out), std::cout, std::cerr);
           }},
          {"bench",
           "[--positions=1000000] [--threads=2] [--batch_size=16384]",
           {"positions", "threads", "seed", "batch_size"},
           [](const Operands&) {
             return chess::BenchCommand(
                 {absl::GetFlag(FLAGS_positions), absl::GetFlag(FLAGS_threads),
                  absl::GetFlag(FLAGS_batch_size), absl::GetFlag(FLAGS_seed)},
                 std::cout);
           }},
      },
      /*default_subcommand=*/"",
      /*chosen_by_shape=*/nullptr,
      "Exit codes: 0 done, 2 bad input, 3 engine failure, 4 I/O error.",
  };
}

}  // namespace

int main(int argc, char** argv) {
  return chess::RunSubcommand(Tuner(), argc, argv);
}
