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
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "common/stopwatch.h"
#include "common/subcommands.h"
#include "common/termination.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "engine/movegen.h"
#include "tuner/datagen.h"
#include "tuner/extract.h"
#include "tuner/loop.h"
#include "tuner/network_export.h"
#include "tuner/network_run.h"
#include "tuner/network_training.h"
#include "tuner/perspective_training.h"
#include "tuner/report.h"
#include "tuner/selfplay.h"
#include "tuner/spsa.h"
#include "tuner/training_data.h"
#include "tuner/tune.h"

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

namespace fs = std::filesystem;

// Prints the error; its exit code is the one every program gives it.
int Fail(const absl::Status& s) {
  std::cerr << s.message() << "\n";
  return chess::ExitCodeFor(s);
}

std::vector<std::string> DatasetPaths(const std::string& flag) {
  std::vector<std::string> paths;
  for (absl::string_view d : absl::StrSplit(flag, ',', absl::SkipEmpty()))
    paths.push_back(chess::CommandLinePath(std::string(d)));
  return paths;
}

// InvalidArgument when `out` names one of `inputs` (given by `flag`): an
// output never replaces what the run reads.
absl::Status CheckOutputIsNoInput(const std::string& out,
                                  const std::vector<std::string>& inputs,
                                  absl::string_view flag) {
  for (const std::string& input : inputs) {
    if (chess::SameFile(out, input)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--out=", out, " is also an input (", flag, "=", input,
                       "); name another file for the output"));
    }
  }
  return absl::OkStatus();
}

// --format, else the format of `out`'s extension.
absl::StatusOr<chess::DatasetFormat> OutputFormat(const std::string& out) {
  if (const std::string name = absl::GetFlag(FLAGS_format); !name.empty())
    return chess::ParseDatasetFormat(name);
  return chess::DatasetFormatOf(out);
}

int Extract(const std::vector<char*>& inputs) {
  const std::string out = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  if (out.empty() || inputs.empty())
    return Fail(absl::InvalidArgumentError("extract needs --out and inputs"));
  chess::ExtractOptions options;
  options.skip_plies = absl::GetFlag(FLAGS_skip_plies);
  options.max_per_game = absl::GetFlag(FLAGS_max_per_game);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.player = absl::GetFlag(FLAGS_player);
  options.qsearch_config = chess::DefaultEngineConfig();
  if (const std::string q = absl::GetFlag(FLAGS_qsearch_config); !q.empty()) {
    auto config = chess::LoadEngineConfig(chess::CommandLinePath(q));
    if (!config.ok()) return Fail(config.status());
    options.qsearch_config = *config;
  }
  const absl::StatusOr<chess::DatasetFormat> parsed = OutputFormat(out);
  if (!parsed.ok()) return Fail(parsed.status());
  const chess::DatasetFormat format = *parsed;
  std::vector<std::string> input_paths;
  for (char* input : inputs)
    input_paths.push_back(chess::CommandLinePath(input));
  if (absl::Status s = CheckOutputIsNoInput(out, input_paths, "input"); !s.ok())
    return Fail(s);
  const bool append = absl::GetFlag(FLAGS_append);
  if (append && format != chess::DatasetFormat::kProto) {
    return Fail(absl::InvalidArgumentError(
        "--append: only our format (data) can be appended to"));
  }
  if (!options.player.empty() && format != chess::DatasetFormat::kProto) {
    return Fail(absl::InvalidArgumentError(
        "--player: only our format (data) keeps the player's colour"));
  }
  // Positions stream to the file in chunks: memory holds one chunk (and one
  // log), however large the set.
  auto writer = append ? chess::TrainingSetWriter::Append(out)
                       : chess::TrainingSetWriter::Create(out, format);
  if (!writer.ok()) return Fail(writer.status());
  for (char* input : inputs) {
    const std::string path = chess::CommandLinePath(input);
    absl::Status s = absl::EndsWith(path, ".log")
                         ? chess::ExtractFromLog(path, options, writer->get())
                         : chess::ForEachTrainingChunk(
                               path,
                               [&](const chess::TrainingSet& chunk) {
                                 return chess::AddChunk(chunk, writer->get());
                               },
                               &std::cerr, absl::GetFlag(FLAGS_accept_torn));
    if (!s.ok()) return Fail(s);
  }
  if ((*writer)->positions() == 0 && !append) {
    // Nothing to write: an existing OUT stays as it was.
    return Fail(absl::InvalidArgumentError(absl::StrCat(
        "no valid training position in the inputs; ", out, " not written")));
  }
  if (absl::Status s = (*writer)->Finish(); !s.ok()) return Fail(s);
  std::cout << (append ? "added " : "kept ") << (*writer)->positions()
            << " positions\n";
  for (const auto& [reason, count] : (*writer)->totals().dropped())
    std::cout << "dropped " << count << " " << reason << "\n";
  return 0;
}

int Convert(const std::vector<char*>& inputs) {
  for (const char* input : inputs) {
    if (absl::EndsWith(input, ".log")) {
      return Fail(absl::InvalidArgumentError(absl::StrCat(
          input,
          ": convert reads data sets; `tuner extract` reads game logs")));
    }
  }
  if (absl::GetFlag(FLAGS_out).empty() || inputs.empty())
    return Fail(absl::InvalidArgumentError("convert needs --out and inputs"));
  return Extract(inputs);
}

// What texel and net both need: --data, and the --start config they fit from
// and the --out path they write.
struct FitPaths {
  std::string out;
  chess::EngineConfig start;
};
absl::StatusOr<FitPaths> FitPathsFromFlags(absl::string_view command) {
  FitPaths paths;
  paths.out = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  const std::string start = chess::CommandLinePath(absl::GetFlag(FLAGS_start));
  if (paths.out.empty() || start.empty() || absl::GetFlag(FLAGS_data).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(command, " needs --data, --start and --out"));
  }
  const std::pair<absl::string_view, std::vector<std::string>> inputs[] = {
      {"--data", DatasetPaths(absl::GetFlag(FLAGS_data))},
      {"--valid", DatasetPaths(absl::GetFlag(FLAGS_valid))},
      {"--start", {start}},
      {"--settings", DatasetPaths(absl::GetFlag(FLAGS_settings))},
      {"--record", DatasetPaths(absl::GetFlag(FLAGS_record))}};
  for (const auto& [flag, paths_of_flag] : inputs) {
    if (absl::Status s = CheckOutputIsNoInput(paths.out, paths_of_flag, flag);
        !s.ok())
      return s;
  }
  absl::StatusOr<chess::EngineConfig> config = chess::LoadEngineConfig(start);
  if (!config.ok()) return config.status();
  paths.start = *std::move(config);
  return paths;
}

// The positions of the datasets at `paths`, each set streamed in chunk by
// chunk, so that only what the visitor keeps stays in memory. The first pass
// reports a text dataset's malformed lines (skipped) on stderr, as extract
// does.
chess::PositionSource DatasetPositions(std::vector<std::string> paths) {
  auto first_pass = std::make_shared<bool>(true);
  return [paths, first_pass](const chess::PositionVisitor& visit) {
    std::ostream* report = *first_pass ? &std::cerr : nullptr;
    *first_pass = false;
    for (const std::string& path : paths) {
      absl::Status s = chess::ForEachTrainingChunk(
          path,
          [&](const chess::TrainingSet& chunk) {
            for (const chess::TrainingPosition& p : chunk.positions()) {
              if (absl::Status s = visit(p); !s.ok())
                return absl::Status(s.code(),
                                    absl::StrCat(path, ": ", s.message()));
            }
            return absl::OkStatus();
          },
          report);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  };
}

int Net() {
  absl::StatusOr<FitPaths> paths = FitPathsFromFlags("net");
  if (!paths.ok()) return Fail(paths.status());
  const std::string& out = paths->out;
  const chess::EngineConfig& start = paths->start;
  chess::NetworkSettings settings;
  if (const std::string path =
          chess::CommandLinePath(absl::GetFlag(FLAGS_settings));
      !path.empty()) {
    auto read = chess::ReadTextProto<chess::NetworkSettings>(path);
    if (!read.ok()) return Fail(read.status());
    settings = *read;
  }
  if (absl::Status s = chess::ValidateNetworkSettings(settings); !s.ok())
    return Fail(s);
  const std::string start_path = absl::GetFlag(FLAGS_start);
  if (settings.continue_from_start()) {
    if (absl::Status s = chess::CheckContinuable(start, start_path, settings);
        !s.ok())
      return Fail(s);
  }
  std::vector<chess::DatasetProvenance> datasets;
  // In memory, or spooled to disk a block at a time (stream_block_positions).
  auto source = chess::LoadSampleSource(DatasetPaths(absl::GetFlag(FLAGS_data)),
                                        start, settings, &datasets, &std::cerr);
  if (!source.ok()) return Fail(source.status());
  const chess::SampleSource& train = **source;
  auto train_loss = [&](const chess::Network& net) -> absl::StatusOr<double> {
    return chess::SourceLoss(train, net, settings.k());
  };
  std::vector<std::pair<std::string, chess::NetworkSamples>> held_out;
  for (const std::string& path : DatasetPaths(absl::GetFlag(FLAGS_valid))) {
    auto samples =
        chess::LoadNetworkSamples({path}, start, settings, nullptr, &std::cerr);
    if (!samples.ok()) return Fail(samples.status());
    held_out.emplace_back(path, *std::move(samples));
  }
  auto held_out_losses = [&](const chess::Network& net) {
    std::vector<double> losses;
    for (const auto& [path, samples] : held_out)
      losses.push_back(chess::NetworkLoss(samples, net, settings.k()));
    return losses;
  };
  auto named = [&](const std::vector<double>& losses) {
    std::string line;
    for (size_t i = 0; i < held_out.size(); ++i) {
      absl::StrAppend(
          &line,
          absl::StrFormat("  %s %.6f",
                          fs::path(held_out[i].first).filename().string(),
                          losses[i]));
    }
    return line;
  };
  // The linear evaluation's losses, the baseline of every line printed.
  const chess::Network none;
  const absl::StatusOr<double> linear_train_loss = train_loss(none);
  if (!linear_train_loss.ok()) return Fail(linear_train_loss.status());
  const std::vector<double> linear_held_out_loss = held_out_losses(none);
  std::cerr << absl::StrFormat(
                   "%d positions%s; %s: train %.6f", train.size(),
                   train.blocks() > 1
                       ? absl::StrCat(" in ", train.blocks(), " blocks on disk")
                       : "",
                   settings.whole_evaluation() ? "a score of 0"
                                               : "linear evaluation",
                   *linear_train_loss)
            << named(linear_held_out_loss) << "\n";
  if (settings.continue_from_start()) {
    // Loaded configs hold networks the engine can evaluate.
    const chess::Network start_net =
        *chess::Network::FromProto(start.eval().network());
    const absl::StatusOr<double> loss = train_loss(start_net);
    if (!loss.ok()) return Fail(loss.status());
    std::cerr << absl::StrFormat("start network: train %.6f", *loss)
              << named(held_out_losses(start_net)) << "\n";
  }
  // Mirrored positions count: they cost as much as the others.
  const size_t trained_per_epoch =
      train.size() + (settings.layout() == chess::NetworkParams::PERSPECTIVE &&
                              settings.mirror_files()
                          ? train.mirrorable()
                          : 0);
  chess::Stopwatch t0;
  absl::StatusOr<chess::TrainedConfig> trained = chess::TrainNetworkConfig(
      start, start_path, train, settings, datasets,
      [&](int epoch, const chess::NetworkParams& params) {
        std::cerr << absl::StrFormat(
            "epoch %d (%.0f s, %.0f positions/s%s)", epoch + 1, t0.Seconds(),
            trained_per_epoch * (epoch + 1) / std::max(1e-9, t0.Seconds()),
            settings.mirror_files() ? ", mirrors included" : "");
        // Weights grown too large for the engine's 16-bit sums: said, and
        // refused at the end.
        absl::StatusOr<chess::Network> net = chess::Network::FromProto(params);
        std::cerr << (net.ok() ? named(held_out_losses(*net))
                               : absl::StrCat("  ", net.status().message()))
                  << "\n";
      });
  if (!trained.ok()) return Fail(trained.status());
  const chess::Network net = *chess::Network::FromEval(trained->config.eval());
  chess::EngineConfig& config = trained->config;
  config.set_name(fs::path(out).stem().string());
  if (auto s = chess::WriteTextProto(
          config, out,
          absl::StrCat("# A network trained by `tuner net` ",
                       settings.whole_evaluation()
                           ? "as the whole evaluation, in "
                           : "on top of ",
                       absl::GetFlag(FLAGS_start), "'s evaluation, on ",
                       absl::GetFlag(FLAGS_data), "\n"));
      !s.ok()) {
    return Fail(s);
  }
  const absl::StatusOr<double> final_loss = train_loss(net);
  if (!final_loss.ok()) return Fail(final_loss.status());
  std::cout << absl::StrFormat(
                   "positions %d  hidden %d  loss %.6f -> %.6f  (%.1f s)",
                   train.size(), net.hidden_size(), *linear_train_loss,
                   *final_loss, t0.Seconds())
            << "\n";
  for (size_t i = 0; i < held_out.size(); ++i) {
    std::cout << absl::StrFormat(
        "held out %s: %.6f -> %.6f\n", held_out[i].first,
        linear_held_out_loss[i],
        chess::NetworkLoss(held_out[i].second, net, settings.k()));
  }
  return 0;
}

chess::Quantisation QuantisationFromFlags() {
  return {absl::GetFlag(FLAGS_qa), absl::GetFlag(FLAGS_qb),
          absl::GetFlag(FLAGS_scale)};
}

int ExportNet(const std::vector<char*>& operands) {
  const std::string out = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  if (out.empty() || operands.size() != 1) {
    return Fail(absl::InvalidArgumentError(
        "export-net needs --out=FILE and one config"));
  }
  if (const std::string f = absl::GetFlag(FLAGS_format);
      !f.empty() && f != "bullet") {
    return Fail(absl::InvalidArgumentError(absl::StrCat(
        "export-net --format=", f, ": the one network format is bullet")));
  }
  const std::string config_path = chess::CommandLinePath(operands[0]);
  const std::string provenance_path = out + ".provenance";
  if (absl::Status s = CheckOutputIsNoInput(out, {config_path}, "the config");
      !s.ok())
    return Fail(s);
  if (chess::SameFile(provenance_path, config_path)) {
    return Fail(absl::InvalidArgumentError(
        absl::StrCat(provenance_path,
                     " (the provenance beside --out) is the "
                     "config; name another --out")));
  }
  absl::StatusOr<chess::EngineConfig> config =
      chess::LoadEngineConfig(config_path);
  if (!config.ok()) return Fail(config.status());
  const chess::Quantisation q = QuantisationFromFlags();
  absl::StatusOr<chess::ExportedNetwork> exported = chess::ExportBulletNetwork(
      *config, q, chess::RandomGamePositions(10000, 1));
  if (!exported.ok()) return Fail(exported.status());
  if (absl::Status s = chess::WriteFileAtomically(out, exported->file.bytes);
      !s.ok())
    return Fail(s);
  if (absl::Status s = chess::WriteFileAtomically(
          provenance_path,
          absl::StrCat(absl::StrJoin(exported->provenance, "\n"), "\n"));
      !s.ok())
    return Fail(s);
  std::cout << absl::StrFormat(
      "%s: (768 -> %d) x 2 -> 1, QA %d, QB %d, scale %d, %s, %d bytes\n", out,
      config->eval().network().hidden_size(), q.activation_one, q.output_one,
      q.output_scale,
      chess::DescribeShape(chess::ShapeOf(config->eval().network())),
      exported->file.bytes.size());
  if (exported->file.exact) {
    std::cout << "exact: evaluates every position as " << operands[0]
              << " does\n";
  } else {
    std::cout << absl::StrFormat(
        "output layer x%g, rounded: on %d positions of random games the "
        "file's evaluation differs by %.2f cp on average, %d cp at most (a "
        "QB of %g holds it exactly)\n",
        exported->file.output_factor, exported->positions,
        exported->mean_difference_cp, exported->max_difference_cp,
        q.output_one / exported->file.output_factor);
  }
  return chess::kExitOk;
}

int ImportNet(const std::vector<char*>& operands) {
  const std::string out = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  if (out.empty() || operands.size() != 1) {
    return Fail(absl::InvalidArgumentError(
        "import-net needs --out=CONFIG and one network file"));
  }
  const std::string file = chess::CommandLinePath(operands[0]);
  const std::string start_path =
      chess::CommandLinePath(absl::GetFlag(FLAGS_start));
  if (absl::Status s = CheckOutputIsNoInput(
          out, {file, start_path.empty() ? file : start_path}, "input");
      !s.ok())
    return Fail(s);
  chess::EngineConfig start = chess::DefaultEngineConfig();
  if (!start_path.empty()) {
    absl::StatusOr<chess::EngineConfig> loaded =
        chess::LoadEngineConfig(start_path);
    if (!loaded.ok()) return Fail(loaded.status());
    start = *std::move(loaded);
  }
  absl::StatusOr<std::vector<int>> layout =
      chess::ParseKingBuckets(absl::GetFlag(FLAGS_king_buckets));
  if (!layout.ok()) return Fail(layout.status());
  const chess::NetworkShape shape{*std::move(layout),
                                  absl::GetFlag(FLAGS_output_buckets)};
  absl::StatusOr<chess::EngineConfig> config =
      chess::ImportBulletNetwork(file, QuantisationFromFlags(), shape, start);
  if (!config.ok()) return Fail(config.status());
  config->set_name(fs::path(out).stem().string());
  if (absl::Status s = chess::WriteTextProto(
          *config, out,
          absl::StrCat("# The network of ", operands[0],
                       " (bullet's quantised format), by tuner import-net\n"));
      !s.ok())
    return Fail(s);
  std::cout << out << ": (768 -> " << config->eval().network().hidden_size()
            << ") x 2 -> 1 from " << operands[0] << "\n";
  return chess::kExitOk;
}

chess::TexelSettings SettingsFromFlags() {
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
       absl::StrSplit(absl::GetFlag(FLAGS_blocks), ',', absl::SkipEmpty())) {
    s.add_blocks(std::string(b));
  }
  return s;
}

int Texel() {
  absl::StatusOr<FitPaths> paths = FitPathsFromFlags("texel");
  if (!paths.ok()) return Fail(paths.status());
  const std::string& out = paths->out;
  const chess::EngineConfig& start = paths->start;
  chess::TuningRun run;
  for (absl::string_view d :
       absl::StrSplit(absl::GetFlag(FLAGS_data), ',', absl::SkipEmpty())) {
    run.add_datasets(std::string(d));
  }
  const chess::PositionSource positions =
      DatasetPositions(DatasetPaths(absl::GetFlag(FLAGS_data)));
  const chess::TexelSettings settings = SettingsFromFlags();
  chess::Stopwatch t0;
  auto tuned = chess::TuneEvaluation(positions, start, settings, &std::cerr);
  if (!tuned.ok()) return Fail(tuned.status());
  const double seconds = t0.Seconds();
  tuned->config.set_name(fs::path(out).stem().string());
  if (auto s = chess::WriteTextProto(
          tuned->config, out,
          absl::StrCat("# Texel-tuned from ", absl::GetFlag(FLAGS_start),
                       " on ", absl::GetFlag(FLAGS_data), "\n"));
      !s.ok()) {
    return Fail(s);
  }
  std::cout << absl::StrFormat(
      "positions %d  K %.4f  loss %.6f -> %.6f  (%.1f s)\n", tuned->positions,
      tuned->texel.k, tuned->texel.start_loss, tuned->texel.final_loss,
      seconds);
  if (tuned->texel.player_offset) {
    std::cout << absl::StrFormat(
        "player offset %+.1f cp (the extracted player's edge, from its side; "
        "not part of the evaluation)\n",
        *tuned->texel.player_offset);
  }
  std::cout << chess::DescribeChanges(start.eval(), tuned->config.eval());
  if (const std::string record =
          chess::CommandLinePath(absl::GetFlag(FLAGS_record));
      !record.empty()) {
    run.set_date(
        absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone()));
    run.set_start_config(absl::GetFlag(FLAGS_start));
    run.set_output_config(absl::GetFlag(FLAGS_out));
    *run.mutable_settings() = settings;
    run.set_positions(int64_t(tuned->positions));
    run.set_k(tuned->texel.k);
    run.set_start_loss(tuned->texel.start_loss);
    run.set_final_loss(tuned->texel.final_loss);
    run.set_seconds(seconds);
    if (tuned->texel.player_offset)
      run.set_player_offset(*tuned->texel.player_offset);
    for (double loss : tuned->texel.epoch_loss) run.add_epoch_loss(loss);
    for (const auto& [k, loss] : tuned->texel.k_fit) {
      chess::KFitPoint* point = run.add_k_fit();
      point->set_k(k);
      point->set_loss(loss);
    }
    if (auto s = chess::WriteTextProto(run, record, "# A tuner texel run\n");
        !s.ok())
      return Fail(s);
  }
  return 0;
}

// Where spsa, loop and datagen play their matches, from the flags (the
// arena's vocabulary: shards, CPUs per shard, sbatch or srun).
absl::StatusOr<chess::Venue> VenueFromFlags() {
  chess::Venue venue;
  venue.shards = absl::GetFlag(FLAGS_shards);
  venue.cpus_per_shard = absl::GetFlag(FLAGS_cpus_per_shard);
  venue.use_srun = absl::GetFlag(FLAGS_srun);
  venue.sbatch_options = absl::GetFlag(FLAGS_sbatch);
  venue.arena = chess::CommandLinePath(absl::GetFlag(FLAGS_arena));
  if (venue.arena.empty()) venue.arena = chess::DefaultArenaBinary();
  if (venue.arena.find('/') != std::string::npos)
    venue.arena = fs::absolute(venue.arena).string();
  if (absl::Status s = chess::ValidateVenue(venue); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--", s.message()));
  }
  return venue;
}

int Report(const std::vector<char*>& rest) {
  if (rest.size() != 1) {
    return Fail(absl::InvalidArgumentError(
        "report needs one loop output directory, texel record or SPSA state"));
  }
  const std::string input = chess::CommandLinePath(rest[0]);
  auto report = chess::MakeTuningReport(input);
  if (!report.ok()) return Fail(report.status());
  std::string out = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  if (out.empty()) out = report->default_path;
  if (absl::Status s = chess::CheckReportPath(input, out); !s.ok())
    return Fail(s);
  if (auto s = chess::WriteFileAtomically(out, report->html); !s.ok())
    return Fail(s);
  std::cout << out << " (" << report->kind << ")\n";
  return 0;
}

// The clock /proc/cpuinfo reports for the first processor, in GHz (0 when
// it says none).
double ClockGhz() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    double mhz;
    if (absl::StartsWith(line, "cpu MHz") &&
        absl::SimpleAtod(line.substr(line.find(':') + 1), &mhz))
      return mhz / 1000;
  }
  return 0;
}

// bullet's reference shape, (768 -> 256) x 2 -> 1 at bullet's batch of
// 16,384, trained on positions of random games with random labels: the
// arithmetic is what is timed.
void BenchNetworkTraining(int positions, int threads, int batch) {
  chess::NetworkSamples samples;
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  for (const chess::Position& pos :
       chess::RandomGamePositions(positions, absl::GetFlag(FLAGS_seed)))
    samples.Add(pos, 0, float(rng() % 1001) / 1000);
  chess::NetworkSettings settings;
  settings.set_layout(chess::NetworkParams::PERSPECTIVE);
  settings.set_whole_evaluation(true);
  settings.set_hidden_size(256);
  settings.set_batch_size(batch);
  settings.set_epochs(1);
  settings.set_threads(threads);
  chess::TrainPerspectiveNetwork(samples, settings);  // warm-up
  settings.set_epochs(2);
  chess::Stopwatch t0;
  chess::TrainPerspectiveNetwork(samples, settings);
  const double seconds = t0.Seconds();
  const double rate = 2 * positions / seconds;
  std::cout << absl::StrFormat(
      "net training: %.0f positions/s (%d threads; (768 -> 256) x 2 -> 1, "
      "batch %d, %d positions x 2 epochs in %.2f s)\n",
      rate, threads, batch, positions, seconds);
  // The arithmetic: each input's row of 256 sums added forward and its
  // gradient row backward, from both sides (4 n H), and about 16 operations
  // per unit and side through the activation and the output layer.
  double inputs = 0;
  for (size_t i = 0; i < samples.size(); ++i) inputs += samples.input_count(i);
  inputs /= std::max<size_t>(1, samples.size());
  const double flops = 4 * inputs * 256 + 2 * 256 * 16;
  const double ghz = ClockGhz();
  std::cout << absl::StrFormat(
      "net training arithmetic: %.0f float operations a position (%.1f "
      "inputs); %.1f GFLOP/s",
      flops, inputs, rate * flops / 1e9);
  if (ghz > 0) {
    // AVX2: two 8-float adds a cycle per core (the bulk of the work is adds).
    const double peak = threads * 16 * ghz;
    std::cout << absl::StrFormat(
        ", %.0f%% of %d cores x 16 FLOP/cycle x %.2f GHz = %.1f GFLOP/s",
        100 * rate * flops / 1e9 / peak, threads, ghz, peak);
  }
  std::cout << "\n";
}

int Bench() {
  // Positions from seeded random play: the coefficient layout is what matters,
  // not the labels.
  const int n = absl::GetFlag(FLAGS_positions);
  chess::CoefficientSet set;
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  const std::array<int, 6> phase = {0, 1, 1, 2, 4, 0};
  chess::Position pos = chess::Position::Start();
  int ply = 0;
  while (int(set.size()) < n) {
    chess::MoveList moves = chess::LegalMoves(pos);
    if (moves.empty() || ply++ > 120) {
      pos = chess::Position::Start();
      ply = 0;
      continue;
    }
    pos.MakeMove(moves[rng() % moves.size()]);
    if (ply > 8) set.Add(pos, float(rng() % 3) / 2, phase);
  }
  const chess::Weights w = chess::ToWeights(
      *chess::EvalWeights::FromProto(chess::DefaultEngineConfig().eval()));
  chess::Weights g;
  const int threads = absl::GetFlag(FLAGS_threads);
  chess::Loss(set, w, 1.0, threads, &g);  // warm-up
  double best = 1e9;
  for (int i = 0; i < 10; ++i) {
    chess::Stopwatch t0;
    chess::Loss(set, w, 1.0, threads, &g);
    best = std::min(best, t0.Seconds());
  }
  std::cout << absl::StrFormat(
      "full-batch gradient epoch: %d positions, %d threads: %.1f ms (best of "
      "10), %.1f M positions/s\n",
      n, threads, best * 1000, n / best / 1e6);
  const int batch = absl::GetFlag(FLAGS_batch_size);
  BenchNetworkTraining(std::min(n, 400000), threads, batch > 0 ? batch : 16384);
  return 0;
}

// The config of `tuner spsa|loop CONFIG`, its directory (paths in it are
// relative to it) and the Slurm flags.
struct TuningRunArgs {
  std::string path, dir;
  chess::Venue venue;
};
absl::StatusOr<TuningRunArgs> TuningRunFrom(
    const std::string& command, const std::vector<char*>& operands) {
  if (operands.size() != 1)
    return absl::InvalidArgumentError(command + " needs one config file");
  TuningRunArgs run;
  run.path = chess::CommandLinePath(operands[0]);
  run.dir = fs::path(run.path).parent_path().string();
  absl::StatusOr<chess::Venue> venue = VenueFromFlags();
  if (!venue.ok()) return venue.status();
  run.venue = *venue;
  return run;
}

int Spsa(const std::vector<char*>& operands) {
  const absl::StatusOr<TuningRunArgs> run = TuningRunFrom("spsa", operands);
  if (!run.ok()) return Fail(run.status());
  auto config = chess::ReadTextProto<chess::SpsaConfig>(run->path);
  if (!config.ok()) return Fail(config.status());
  const std::string state = chess::CommandLinePath(absl::GetFlag(FLAGS_state));
  const std::string work =
      chess::CommandLinePath(absl::GetFlag(FLAGS_work_dir));
  if (state.empty() || work.empty())
    return Fail(
        absl::InvalidArgumentError("spsa needs --state and --work_dir"));
  chess::Venue venue = run->venue;
  venue.run_dir = work;  // one copy of the arena for every iteration
  if (absl::Status s =
          chess::RunSpsa(*config, run->dir, state, work, std::cout, venue);
      !s.ok())
    return Fail(s);
  return chess::kExitOk;
}

// The config of `tuner COMMAND CONFIG --output_dir=DIR`, read as `Config`.
template <typename Config>
struct OutputRun {
  TuningRunArgs args;
  Config config;
  std::string output_dir;
};
template <typename Config>
absl::StatusOr<OutputRun<Config>> OutputRunFrom(
    const std::string& command, const std::vector<char*>& operands) {
  absl::StatusOr<TuningRunArgs> args = TuningRunFrom(command, operands);
  if (!args.ok()) return args.status();
  absl::StatusOr<Config> config = chess::ReadTextProto<Config>(args->path);
  if (!config.ok()) return config.status();
  const std::string dir =
      chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (dir.empty())
    return absl::InvalidArgumentError(command + " needs --output_dir");
  args->venue.run_dir = dir;  // one copy of the arena for the whole run
  return OutputRun<Config>{*std::move(args), *std::move(config), dir};
}

int Loop(const std::vector<char*>& operands) {
  const auto run = OutputRunFrom<chess::LoopConfig>("loop", operands);
  if (!run.ok()) return Fail(run.status());
  auto report = chess::RunLoop(run->config, run->args.dir, run->output_dir,
                               std::cerr, run->args.venue);
  if (!report.ok()) return Fail(report.status());
  std::cout << chess::FormatLoopReport(*report);
  return chess::kExitOk;
}

int Datagen(const std::vector<char*>& operands) {
  const auto run = OutputRunFrom<chess::DatagenConfig>("datagen", operands);
  if (!run.ok()) return Fail(run.status());
  std::string data = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  if (data.empty()) data = (fs::path(run->output_dir) / "data.bin").string();
  if (absl::Status s = CheckOutputIsNoInput(data, {run->args.path}, "config");
      !s.ok())
    return Fail(s);
  chess::DatagenOptions options;
  options.venue = run->args.venue;
  options.played_only = absl::GetFlag(FLAGS_played_only);
  options.drop_damaged = absl::GetFlag(FLAGS_drop_damaged);
  if (!absl::GetFlag(FLAGS_format).empty()) {
    absl::StatusOr<chess::DatasetFormat> format = OutputFormat(data);
    if (!format.ok()) return Fail(format.status());
    options.format = *format;
  }
  auto report = chess::RunDatagen(run->config, run->args.dir, run->output_dir,
                                  data, options);
  if (!report.ok()) return Fail(report.status());
  std::cout << chess::FormatDatagenReport(*report);
  return chess::kExitOk;
}

}  // namespace

// Each subcommand's operands and flags: a flag of another subcommand is an
// error, and `tuner SUBCOMMAND --help` lists these.
const std::vector<chess::Subcommand>& Subcommands() {
  static const auto* subcommands = new std::vector<chess::Subcommand>{
      {"extract",
       "--out=DATA INPUT...",
       {"out", "format", "append", "skip_plies", "max_per_game", "player",
        "accept_torn", "qsearch_config", "seed"},
       Extract},
      {"convert",
       "--out=DATA DATASET...",
       {"out", "format", "accept_torn"},
       Convert},
      {"texel",
       "--data=DATA[,DATA] --start=CONFIG --out=CONFIG",
       {"data", "start", "out", "record", "epochs", "learning_rate",
        "batch_size", "threads", "k", "blocks", "seed", "l2", "result_weight",
        "refit_epochs"},
       [](const std::vector<char*>&) { return Texel(); }},
      {"net",
       "--data=DATA[,DATA] --start=CONFIG --out=CONFIG",
       {"data", "valid", "start", "out", "settings"},
       [](const std::vector<char*>&) { return Net(); }},
      {"export-net",
       "--out=FILE [--format=bullet] [--qa=255 --qb=64 --scale=400] CONFIG",
       {"out", "format", "qa", "qb", "scale"},
       ExportNet},
      {"import-net",
       "--out=CONFIG [--start=CONFIG] [--qa=255 --qb=64 --scale=400] "
       "[--king_buckets=B,...] [--output_buckets=N] FILE",
       {"out", "start", "qa", "qb", "scale", "king_buckets", "output_buckets"},
       ImportNet},
      {"spsa",
       "SPSA.textproto --state=FILE --work_dir=DIR",
       {"state", "work_dir", "shards", "cpus_per_shard", "srun", "sbatch",
        "arena"},
       Spsa},
      {"loop",
       "LOOP.textproto --output_dir=DIR",
       {"output_dir", "shards", "cpus_per_shard", "srun", "sbatch", "arena"},
       Loop},
      {"datagen",
       "DATAGEN.textproto --output_dir=DIR [--out=DATA] [--format=FORMAT] "
       "[--played_only] [--drop_damaged]",
       {"output_dir", "out", "format", "played_only", "drop_damaged", "shards",
        "cpus_per_shard", "srun", "sbatch", "arena"},
       Datagen},
      {"report", "LOOP_DIR|TEXEL_RECORD|SPSA_STATE", {"out"}, Report},
      {"bench",
       "[--positions=1000000] [--threads=2] [--batch_size=16384]",
       {"positions", "threads", "seed", "batch_size"},
       [](const std::vector<char*>&) { return Bench(); }},
  };
  return *subcommands;
}

int main(int argc, char** argv) {
  {
    const std::vector<std::string> words(argv + 1, argv + argc);
    const auto first = std::find_if(
        words.begin(), words.end(),
        [](const std::string& w) { return !w.empty() && w[0] != '-'; });
    const auto sub =
        std::find_if(Subcommands().begin(), Subcommands().end(),
                     [&](const chess::Subcommand& s) {
                       return first != words.end() && s.name == *first;
                     });
    if (sub != Subcommands().end()) {
      if (chess::AsksForHelp(words)) {
        std::cout << chess::SubcommandHelp("tuner", *sub);
        return 0;
      }
      if (absl::Status s = chess::CheckSubcommandFlags(words, *sub); !s.ok())
        return Fail(s);
    }
  }
  absl::SetProgramUsageMessage(
      "tuner "
      "datagen|extract|convert|texel|net|export-net|import-net|spsa|loop|"
      "report|bench ... (see "
      "tuner_main.cc)");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  chess::EndChildrenOnTermination("tuner");
  ::signal(SIGPIPE, SIG_IGN);
  const std::string command = args.size() > 1 ? args[1] : "";
  std::vector<char*> rest(args.begin() + std::min<size_t>(2, args.size()),
                          args.end());
  const auto sub = std::find_if(
      Subcommands().begin(), Subcommands().end(),
      [&](const chess::Subcommand& s) { return s.name == command; });
  if (sub == Subcommands().end()) {
    return Fail(
        absl::InvalidArgumentError("usage: tuner "
                                   "datagen|extract|convert|texel|net|export-"
                                   "net|import-net|spsa|loop|report|bench "
                                   "(see "
                                   "--help)"));
  }
  return sub->run(rest);
}
