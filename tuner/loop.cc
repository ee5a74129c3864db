#include "tuner/loop.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/openings.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "tuner/datagen.h"
#include "tuner/extract.h"
#include "tuner/network_run.h"
#include "tuner/selfplay.h"
#include "tuner/tune.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

// The data sets a network loop trains on: those it was given, and those it
// has made so far with their positions.
struct NetworkData {
  std::vector<std::string> kept;
  std::vector<std::string> paths;
  std::vector<int64_t> positions;
};

// The data set of `best`'s games for generation `g` (a match that resumes
// when its games are there) into OUTPUT_DIR/genG/NAME.bin.
absl::StatusOr<DatagenReport> GenerationData(
    const LoopConfig& config, const std::string& config_dir,
    const fs::path& gen_dir, const EngineConfig& best, int g, int games,
    uint64_t seed_offset, const std::string& name, const SlurmOptions& slurm) {
  DatagenConfig datagen = config.datagen();
  PlayerConfig* player = datagen.mutable_player();
  player->Clear();
  player->set_name(best.name().empty() ? "best" : best.name());
  *player->mutable_config() = best;
  datagen.set_games(games);
  datagen.set_seed(datagen.seed() + seed_offset + uint64_t(g) * 1000);
  return RunDatagen(datagen, config_dir, (gen_dir / name).string(),
                    (gen_dir / (name + ".bin")).string(), {.slurm = slurm});
}

// Generation `g` of a network loop: `best` (read from `best_path`) makes its
// data, a network is trained on it (and the earlier generations' data, with
// accumulate_data), and `row` gets its data, losses and provenance. A
// network already written to `candidate_path` by an interrupted run is read
// back, not trained again.
absl::StatusOr<EngineConfig> NetworkCandidate(
    const LoopConfig& config, const std::string& config_dir,
    const std::string& output_dir, const std::string& candidate_path,
    const EngineConfig& best, const std::string& best_path, int g,
    const SlurmOptions& slurm, std::ostream& log, NetworkData& data,
    GenerationRow& row) {
  const fs::path gen_dir = fs::path(output_dir) / absl::StrCat("gen", g);
  log << "generation " << g << ": data from the best's games\n";
  absl::StatusOr<DatagenReport> made =
      GenerationData(config, config_dir, gen_dir, best, g,
                     config.datagen().games(), 0, "data", slurm);
  if (!made.ok()) return made.status();
  log << FormatDatagenReport(*made);
  absl::StatusOr<DatagenReport> held_out =
      GenerationData(config, config_dir, gen_dir, best, g,
                     config.held_out_games(), 500, "held_out", slurm);
  if (!held_out.ok()) return held_out.status();
  if (!config.accumulate_data()) {
    data.paths.clear();
    data.positions.clear();
  }
  data.paths.push_back(made->data_path);
  data.positions.push_back(made->positions);
  std::vector<std::string> paths = data.kept;
  paths.insert(paths.end(), data.paths.begin(), data.paths.end());

  const NetworkSettings& settings = config.network();
  std::error_code ec;
  absl::StatusOr<EngineConfig> candidate;
  // The positions the loop made (initial_data's are not counted).
  int64_t positions = 0;
  for (int64_t p : data.positions) positions += p;
  if (fs::exists(candidate_path, ec)) {
    log << "generation " << g << ": the network trained before, "
        << candidate_path << "\n";
    candidate = LoadEngineConfig(candidate_path);
  } else {
    std::vector<DatasetProvenance> datasets;
    absl::StatusOr<NetworkSamples> samples =
        LoadNetworkSamples(paths, best, settings, &datasets);
    if (!samples.ok()) return samples.status();
    log << "generation " << g << ": training on " << samples->size()
        << " positions\n";
    absl::StatusOr<TrainedConfig> trained =
        TrainNetworkConfig(best, best_path, *samples, settings, datasets);
    if (!trained.ok()) return trained.status();
    candidate = trained->config;
  }
  if (!candidate.ok()) return candidate.status();
  const std::vector<std::string> held = {held_out->data_path};
  absl::StatusOr<double> before = EvaluationLoss(best, held, settings);
  if (!before.ok()) return before.status();
  absl::StatusOr<double> after = EvaluationLoss(*candidate, held, settings);
  if (!after.ok()) return after.status();
  row.set_start_loss(*before);
  row.set_loss(*after);
  row.set_games(made->games);
  row.set_positions(positions);
  row.set_k(settings.k());
  for (const std::string& p : paths) row.add_data(p);
  for (const std::string& line : candidate->eval().network().provenance())
    row.add_provenance(line);
  return candidate;
}

}  // namespace

absl::StatusOr<LoopReport> RunLoop(const LoopConfig& config,
                                   const std::string& config_dir,
                                   const std::string& output_dir,
                                   std::ostream& log,
                                   const SlurmOptions& slurm) {
  if (config.has_network()) {
    if (!config.has_datagen()) {
      return absl::InvalidArgumentError(
          "loop config: a network loop needs `datagen`, the games its data "
          "comes from");
    }
    if (absl::Status s = ValidateNetworkSettings(config.network()); !s.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("loop config: network ", s.message()));
    if (config.held_out_games() < 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "loop config: held_out_games = ", config.held_out_games(),
          " is below 2"));
    }
  }
  const std::string start_path =
      ResolvePath(config_dir, config.start_config().empty()
                                  ? "../engines/simplified.textproto"
                                  : config.start_config());
  absl::StatusOr<EngineConfig> start = LoadEngineConfig(start_path);
  if (!start.ok()) return start.status();
  if (config.has_network() && config.network().continue_from_start()) {
    if (absl::Status s = CheckContinuable(*start, start_path, config.network());
        !s.ok())
      return s;
  }
  std::vector<Opening> openings;
  const std::string book =
      config.book().empty() ? "" : ResolvePath(config_dir, config.book());
  if (!book.empty()) {
    absl::StatusOr<std::vector<Opening>> loaded =
        LoadBook(book, /*max_plies=*/0);
    if (!loaded.ok()) return loaded.status();
    openings = *std::move(loaded);
  }
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  if (ec)
    return absl::InternalError(absl::StrCat(output_dir, ": ", ec.message()));

  // The starting point beside the results, for `tuner report`'s before and
  // after.
  if (absl::Status s = WriteTextProto(
          *start, (fs::path(output_dir) / "start.textproto").string(),
          absl::StrCat("# The start of tuner loop \"", config.name(),
                       "\": ", start_path, "\n"));
      !s.ok()) {
    return s;
  }
  LoopReport report;
  *report.mutable_config() = config;
  EngineConfig best = *start;
  TrainingSet data;
  TrainingSetSink sink(&data);
  auto request_for = [&](const EngineConfig& a, const std::string& a_name,
                         const EngineConfig& b, const std::string& b_name,
                         int games, uint64_t seed, bool sprt,
                         const std::string& dir) {
    MatchRequest r;
    r.first = a;
    r.second = b;
    r.first_name = a_name;
    r.second_name = b_name;
    r.openings = &openings;
    r.book_path = book;
    r.slurm = slurm;
    r.games = games;
    r.nodes = config.selfplay_nodes();
    r.seed = seed;
    r.concurrency = config.concurrency();
    r.sprt = sprt;
    r.elo0 = config.sprt_elo0();
    r.elo1 = config.sprt_elo1();
    r.output_dir = (fs::path(output_dir) / dir).string();
    return r;
  };
  auto match = [&](auto&&... args) { return PlayMatch(request_for(args...)); };

  NetworkData network_data;
  for (const std::string& path : config.initial_data()) {
    network_data.kept.push_back(ResolvePath(config_dir, path));
  }
  std::string best_path = start_path;
  for (int g = 1; g <= config.generations(); ++g) {
    const std::string gen = absl::StrCat("gen", g);
    GenerationRow* row = report.add_generations();
    row->set_generation(g);
    const std::string candidate_path =
        (fs::path(output_dir) / (gen + ".textproto")).string();
    EngineConfig candidate;
    if (config.has_network()) {
      absl::StatusOr<EngineConfig> trained =
          NetworkCandidate(config, config_dir, output_dir, candidate_path, best,
                           best_path, g, slurm, log, network_data, *row);
      if (!trained.ok()) return trained.status();
      candidate = *std::move(trained);
    } else {
      log << "generation " << g << ": self-play\n";
      EngineConfig noisy = best;
      noisy.mutable_search()->set_eval_noise_cp(config.selfplay_noise_cp());
      noisy.mutable_search()->set_eval_noise_seed(config.seed() + uint64_t(g));
      const MatchRequest selfplay_request =
          request_for(noisy, "best-a", noisy, "best-b", config.selfplay_games(),
                      config.seed() * 7919 + g, false, gen + "/selfplay");
      absl::StatusOr<MatchSummary> selfplay = PlayMatch(selfplay_request);
      if (!selfplay.ok()) return selfplay.status();

      ExtractOptions extract;
      extract.qsearch_config = best;
      extract.skip_plies = config.skip_book_plies();
      extract.max_per_game = config.max_positions_per_game();
      extract.seed = config.seed() + uint64_t(g);
      if (!config.accumulate_data()) data.Clear();
      if (absl::Status s =
              ExtractFromLog(PlayedLogPath(selfplay_request), extract, &sink);
          !s.ok()) {
        return s;
      }
      log << "generation " << g << ": tuning on " << data.positions_size()
          << " positions\n";
      absl::StatusOr<TunedConfig> tuned =
          TuneEvaluation(data, best, config.texel(), nullptr);
      if (!tuned.ok()) return tuned.status();
      candidate = tuned->config;
      row->set_games(selfplay->played_games());
      row->set_positions(data.positions_size());
      row->set_start_loss(tuned->texel.start_loss);
      row->set_loss(tuned->texel.final_loss);
      row->set_k(tuned->texel.k);
    }
    candidate.set_name(absl::StrCat(
        config.name().empty() ? "tuned" : config.name(), "-gen", g));
    if (absl::Status s =
            WriteTextProto(candidate, candidate_path,
                           absl::StrCat("# Generation ", g, " of tuner loop \"",
                                        config.name(), "\"\n"));
        !s.ok()) {
      return s;
    }
    if (config.has_network()) {
      log << absl::StrFormat(
          "generation %d: held-out loss %.6f (the best) -> %.6f\n", g,
          row->start_loss(), row->loss());
    } else {
      log << DescribeChanges(best.eval(), candidate.eval());
    }

    log << "generation " << g << ": SPRT against the current best\n";
    absl::StatusOr<MatchSummary> vs_best =
        match(candidate, "candidate", best, "best", config.sprt_games(),
              config.seed() * 31 + g, true, gen + "/sprt");
    if (!vs_best.ok()) return vs_best.status();
    const PairingSummary& p = vs_best->pairings(0);
    const bool accepted =
        p.sprt_verdict() == SPRT_ACCEPT_H1 ||
        (p.sprt_verdict() == SPRT_CONTINUE && p.los() >= 0.95);

    row->set_elo_vs_previous(p.elo());
    row->set_elo_vs_previous_error(p.elo_error());
    row->set_accepted(accepted);
    row->set_config(candidate.name());
    if (accepted) {
      // Against the start, unless the SPRT just played that very match.
      if (best_path == start_path) {
        row->set_elo_vs_start(p.elo());
        row->set_elo_vs_start_error(p.elo_error());
      } else {
        absl::StatusOr<MatchSummary> vs_start =
            match(candidate, "best", *start, "start", config.sprt_games(),
                  config.seed() * 97 + g, false, gen + "/vs_start");
        if (!vs_start.ok()) return vs_start.status();
        row->set_elo_vs_start(vs_start->pairings(0).elo());
        row->set_elo_vs_start_error(vs_start->pairings(0).elo_error());
      }
      best = candidate;
      best_path = candidate_path;
      if (absl::Status s = WriteTextProto(
              best, (fs::path(output_dir) / "best.textproto").string(),
              "# The best config of the tuner loop so far\n");
          !s.ok()) {
        return s;
      }
    }
    log << FormatLoopReport(report);
    if (absl::Status s = WriteTextProto(
            report, (fs::path(output_dir) / "report.textproto").string(),
            "# tuner loop generation table\n");
        !s.ok()) {
      return s;
    }
  }
  return report;
}

std::string FormatLoopReport(const LoopReport& report) {
  std::string s = absl::StrFormat(
      "%-4s %7s %10s %9s %6s %18s %18s %s\n", "gen", "games", "positions",
      "loss", "K", "Elo vs previous", "Elo vs gen 0", "accepted");
  for (const GenerationRow& r : report.generations()) {
    const std::string vs_start =
        r.has_elo_vs_start()
            ? absl::StrFormat("%+7.1f +- %5.1f", r.elo_vs_start(),
                              r.elo_vs_start_error())
            : std::string("-");
    absl::StrAppendFormat(
        &s, "%-4d %7d %10d %9.5f %6.3f %18s %18s %s\n", r.generation(),
        r.games(), r.positions(), r.loss(), r.k(),
        absl::StrFormat("%+7.1f +- %5.1f", r.elo_vs_previous(),
                        r.elo_vs_previous_error()),
        vs_start, r.accepted() ? "yes" : "no");
  }
  return s;
}

}  // namespace chess
