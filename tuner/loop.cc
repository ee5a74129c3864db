#include "tuner/loop.h"

#include <filesystem>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/openings.h"
#include "common/files.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "engine/network_file.h"
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

// A player of the loop: a config played in process, or another engine (an
// external network loop) with its network file; `path` is where it was read.
// `config` holds the evaluation the trainer starts from either way.
struct LoopPlayer {
  EngineConfig config;
  std::optional<ExternalEngine> external;
  std::string path;
};

void SetSide(const LoopPlayer& player, EngineConfig& config,
             std::optional<ExternalEngine>& external) {
  config = player.config;
  external = player.external;
}

// The engine of an external network loop playing with the network at `path`.
ExternalEngine WithNetwork(const ExternalNetworkEngine& engine,
                           const std::string& path) {
  ExternalEngine e = engine.engine();
  (*e.mutable_options())[engine.network_option()] = fs::absolute(path).string();
  return e;
}

Quantisation QuantisationOf(const ExternalNetworkEngine& engine) {
  return {engine.activation_one(), engine.output_one(), engine.output_scale()};
}

NetworkShape ShapeOf(const ExternalNetworkEngine& engine) {
  return {{engine.king_buckets().begin(), engine.king_buckets().end()},
          engine.output_buckets()};
}

// The player of `network` (read from `path`) in an external network loop.
LoopPlayer ExternalPlayer(const LoopConfig& config,
                          const NetworkParams& network,
                          const std::string& path) {
  LoopPlayer player;
  player.config = DefaultEngineConfig();
  player.config.set_name(fs::path(path).stem().string());
  *player.config.mutable_eval()->mutable_network() = network;
  player.external = WithNetwork(config.external(), path);
  player.path = path;
  return player;
}

// The data set of `best`'s games for generation `g` (a match that resumes
// when its games are there) into OUTPUT_DIR/genG/NAME.bin.
absl::StatusOr<DatagenReport> GenerationData(
    const LoopConfig& config, const std::string& config_dir,
    const fs::path& gen_dir, const LoopPlayer& best, int g, int games,
    uint64_t seed_offset, const std::string& name, const Venue& venue) {
  DatagenConfig datagen = config.datagen();
  PlayerConfig* player = datagen.mutable_player();
  player->Clear();
  player->set_name(best.external                ? config.external().name()
                   : best.config.name().empty() ? "best"
                                                : best.config.name());
  if (best.external) {
    *player->mutable_external() = *best.external;
  } else {
    *player->mutable_config() = best.config;
  }
  datagen.set_games(games);
  datagen.set_seed(datagen.seed() + seed_offset + uint64_t(g) * 1000);
  DatagenOptions options;
  options.venue = venue;
  return RunDatagen(datagen, config_dir, (gen_dir / name).string(),
                    (gen_dir / (name + ".bin")).string(), options);
}

// A network already written to `path` by an interrupted run: a config, or
// (an external network loop) bullet's file.
absl::StatusOr<EngineConfig> TrainedBefore(const LoopConfig& config,
                                           const std::string& path) {
  if (!config.has_external()) return LoadEngineConfig(path);
  absl::StatusOr<NetworkParams> network = ReadBulletNetwork(
      path, QuantisationOf(config.external()), ShapeOf(config.external()));
  if (!network.ok()) return network.status();
  return ExternalPlayer(config, *network, path).config;
}

// Generation `g` of a network loop: `best` makes its data, a network is
// trained on it (and the earlier generations' data, with accumulate_data),
// and `row` gets its data, losses and provenance. A network already written
// to `candidate_path` by an interrupted run is read back, not trained again.
absl::StatusOr<EngineConfig> NetworkCandidate(
    const LoopConfig& config, const std::string& config_dir,
    const std::string& output_dir, const std::string& candidate_path,
    const LoopPlayer& best, int g, const Venue& venue, std::ostream& log,
    NetworkData& data, GenerationRow& row) {
  const fs::path gen_dir = fs::path(output_dir) / absl::StrCat("gen", g);
  log << "generation " << g << ": data from the best's games\n";
  absl::StatusOr<DatagenReport> made =
      GenerationData(config, config_dir, gen_dir, best, g,
                     config.datagen().games(), 0, "data", venue);
  if (!made.ok()) return made.status();
  log << FormatDatagenReport(*made);
  absl::StatusOr<DatagenReport> held_out =
      GenerationData(config, config_dir, gen_dir, best, g,
                     config.held_out_games(), 500, "held_out", venue);
  if (!held_out.ok()) return held_out.status();
  if (!config.accumulate_data()) {
    data.paths.clear();
    data.positions.clear();
  }
  data.paths.push_back(made->data_path);
  data.positions.push_back(made->positions);
  std::vector<std::string> paths = data.kept;
  paths.insert(paths.end(), data.paths.begin(), data.paths.end());

  NetworkSettings settings = config.network();
  // Another engine's network is trained from where it stands.
  if (config.has_external()) settings.set_continue_from_start(true);
  std::error_code ec;
  absl::StatusOr<EngineConfig> candidate;
  // The positions the loop made (initial_data's are not counted).
  int64_t positions = 0;
  for (int64_t p : data.positions) positions += p;
  if (fs::exists(candidate_path, ec)) {
    log << "generation " << g << ": the network trained before, "
        << candidate_path << "\n";
    candidate = TrainedBefore(config, candidate_path);
  } else {
    std::vector<DatasetProvenance> datasets;
    absl::StatusOr<NetworkSamples> samples =
        LoadNetworkSamples(paths, best.config, settings, &datasets);
    if (!samples.ok()) return samples.status();
    log << "generation " << g << ": training on " << samples->size()
        << " positions\n";
    absl::StatusOr<TrainedConfig> trained = TrainNetworkConfig(
        best.config, best.path, *samples, settings, datasets);
    if (!trained.ok()) return trained.status();
    candidate = trained->config;
  }
  if (!candidate.ok()) return candidate.status();
  const std::vector<std::string> held = {held_out->data_path};
  absl::StatusOr<double> before = EvaluationLoss(best.config, held, settings);
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

// Where the loop starts: start_config, or (an external network loop) the
// engine with its start network.
absl::StatusOr<LoopPlayer> StartPlayer(const LoopConfig& config,
                                       const std::string& config_dir) {
  if (!config.has_external()) {
    const std::string path =
        ResolvePath(config_dir, config.start_config().empty()
                                    ? "../engines/simplified.textproto"
                                    : config.start_config());
    absl::StatusOr<EngineConfig> start = LoadEngineConfig(path);
    if (!start.ok()) return start.status();
    if (config.has_network() && config.network().continue_from_start()) {
      if (absl::Status s = CheckContinuable(*start, path, config.network());
          !s.ok())
        return s;
    }
    return LoopPlayer{*std::move(start), std::nullopt, path};
  }
  const ExternalNetworkEngine& e = config.external();
  auto invalid = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("loop config: ", parts...));
  };
  if (!config.has_network() || !config.has_datagen())
    return invalid("`external` needs `network` and `datagen`");
  if (e.engine().argv().empty())
    return invalid("external.engine.argv is empty");
  if (e.start_network().empty())
    return invalid(
        "external.start_network: the network the engine starts from");
  if (config.network().layout() != NetworkParams::PERSPECTIVE ||
      !config.network().whole_evaluation()) {
    return invalid(
        "network: another engine's network is bullet's (768 -> N) x 2 -> 1: "
        "layout PERSPECTIVE and whole_evaluation");
  }
  const std::string path = ResolvePath(config_dir, e.start_network());
  absl::StatusOr<NetworkParams> network =
      ReadBulletNetwork(path, QuantisationOf(e), ShapeOf(e));
  if (!network.ok()) return network.status();
  if (network->hidden_size() != config.network().hidden_size()) {
    return invalid("network.hidden_size = ", config.network().hidden_size(),
                   ", but ", path, " has ", network->hidden_size(),
                   " units; the loop trains from it");
  }
  return ExternalPlayer(config, *network, path);
}

// `config` with its external engine's program and working directory
// resolved against the loop file's directory, as the arena resolves a
// player's.
LoopConfig WithResolvedEngine(LoopConfig config,
                              const std::string& config_dir) {
  if (!config.has_external()) return config;
  ExternalEngine& engine = *config.mutable_external()->mutable_engine();
  if (engine.argv_size() > 0 && engine.argv(0).find('/') != std::string::npos) {
    engine.set_argv(
        0, fs::absolute(ResolvePath(config_dir, engine.argv(0))).string());
  }
  if (!engine.working_dir().empty())
    engine.set_working_dir(ResolvePath(config_dir, engine.working_dir()));
  return config;
}

// A generation's network: a config, or bullet's file with its provenance
// beside it (FILE.provenance). The file holds the trained network exactly:
// it was trained in its quantisation.
absl::Status WriteCandidate(const LoopConfig& config, int g,
                            const EngineConfig& candidate,
                            const std::string& path) {
  if (!config.has_external()) {
    return WriteTextProto(candidate, path,
                          absl::StrCat("# Generation ", g, " of tuner loop \"",
                                       config.name(), "\"\n"));
  }
  const NetworkParams& network = candidate.eval().network();
  absl::StatusOr<BulletExport> file =
      SerializeBulletNetwork(network, QuantisationOf(config.external()));
  if (!file.ok()) return file.status();
  if (!file->exact) {
    return absl::InternalError(
        absl::StrCat(path,
                     ": the trained network does not fit the file's "
                     "quantisation exactly"));
  }
  std::string provenance;
  for (const std::string& line : network.provenance())
    absl::StrAppend(&provenance, line, "\n");
  if (absl::Status s = WriteFileAtomically(path + ".provenance", provenance);
      !s.ok())
    return s;
  return WriteFileAtomically(path, file->bytes);
}

// The best so far as OUTPUT_DIR/best.textproto, or best.bin (with its
// provenance) in an external network loop.
absl::Status WriteBest(const LoopConfig& config, const LoopPlayer& best,
                       const std::string& output_dir) {
  if (!config.has_external()) {
    return WriteTextProto(best.config,
                          (fs::path(output_dir) / "best.textproto").string(),
                          "# The best config of the tuner loop so far\n");
  }
  return WriteCandidate(config, 0, best.config,
                        (fs::path(output_dir) / "best.bin").string());
}

}  // namespace

absl::StatusOr<LoopReport> RunLoop(const LoopConfig& loop_config,
                                   const std::string& config_dir,
                                   const std::string& output_dir,
                                   std::ostream& log, const Venue& venue) {
  const LoopConfig config = WithResolvedEngine(loop_config, config_dir);
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
  absl::StatusOr<LoopPlayer> start = StartPlayer(config, config_dir);
  if (!start.ok()) return start.status();
  const std::string& start_path = start->path;
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
          start->config, (fs::path(output_dir) / "start.textproto").string(),
          absl::StrCat("# The start of tuner loop \"", config.name(),
                       "\": ", start_path, "\n"));
      !s.ok()) {
    return s;
  }
  LoopReport report;
  *report.mutable_config() = config;
  LoopPlayer best = *start;
  TrainingSet data;
  TrainingSetSink sink(&data);
  auto request_for = [&](const LoopPlayer& a, const std::string& a_name,
                         const LoopPlayer& b, const std::string& b_name,
                         int games, uint64_t seed, bool sprt,
                         const std::string& dir) {
    MatchRequest r;
    SetSide(a, r.first, r.first_external);
    SetSide(b, r.second, r.second_external);
    r.first_name = a_name;
    r.second_name = b_name;
    r.openings = &openings;
    r.book_path = book;
    r.venue = venue;
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
  for (int g = 1; g <= config.generations(); ++g) {
    const std::string gen = absl::StrCat("gen", g);
    GenerationRow* row = report.add_generations();
    row->set_generation(g);
    const std::string candidate_path =
        (fs::path(output_dir) /
         (gen + (config.has_external() ? ".bin" : ".textproto")))
            .string();
    EngineConfig candidate;
    if (config.has_network()) {
      absl::StatusOr<EngineConfig> trained =
          NetworkCandidate(config, config_dir, output_dir, candidate_path, best,
                           g, venue, log, network_data, *row);
      if (!trained.ok()) return trained.status();
      candidate = *std::move(trained);
    } else {
      log << "generation " << g << ": self-play\n";
      LoopPlayer noisy = best;
      noisy.config.mutable_search()->set_eval_noise_cp(
          config.selfplay_noise_cp());
      noisy.config.mutable_search()->set_eval_noise_seed(config.seed() +
                                                         uint64_t(g));
      const MatchRequest selfplay_request =
          request_for(noisy, "best-a", noisy, "best-b", config.selfplay_games(),
                      config.seed() * 7919 + g, false, gen + "/selfplay");
      absl::StatusOr<MatchSummary> selfplay = PlayMatch(selfplay_request);
      if (!selfplay.ok()) return selfplay.status();

      ExtractOptions extract;
      extract.qsearch_config = best.config;
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
          TuneEvaluation(data, best.config, config.texel(), nullptr);
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
    if (absl::Status s = WriteCandidate(config, g, candidate, candidate_path);
        !s.ok()) {
      return s;
    }
    const LoopPlayer candidate_player =
        config.has_external()
            ? ExternalPlayer(config, candidate.eval().network(), candidate_path)
            : LoopPlayer{candidate, std::nullopt, candidate_path};
    if (config.has_network()) {
      log << absl::StrFormat(
          "generation %d: held-out loss %.6f (the best) -> %.6f\n", g,
          row->start_loss(), row->loss());
    } else {
      log << DescribeChanges(best.config.eval(), candidate.eval());
    }

    log << "generation " << g << ": SPRT against the current best\n";
    absl::StatusOr<MatchSummary> vs_best =
        match(candidate_player, "candidate", best, "best", config.sprt_games(),
              config.seed() * 31 + g, true, gen + "/sprt");
    if (!vs_best.ok()) return vs_best.status();
    const PairingSummary& p = vs_best->pairings(0);
    // No LOS when every game went one way: the sweep decides.
    const double los = p.has_los()             ? p.los()
                       : p.wins() > p.losses() ? 1
                       : p.wins() < p.losses() ? 0
                                               : 0.5;
    const bool accepted = p.sprt_verdict() == SPRT_ACCEPT_H1 ||
                          (p.sprt_verdict() == SPRT_CONTINUE && los >= 0.95);

    if (p.has_elo()) {
      row->set_elo_vs_previous(p.elo());
      row->set_elo_vs_previous_error(p.elo_error());
    }
    row->set_accepted(accepted);
    row->set_config(config.has_external() ? candidate_path : candidate.name());
    if (accepted) {
      // Against the start, unless the SPRT just played that very match.
      if (best.path == start_path) {
        if (p.has_elo()) {
          row->set_elo_vs_start(p.elo());
          row->set_elo_vs_start_error(p.elo_error());
        }
      } else {
        absl::StatusOr<MatchSummary> vs_start = match(
            candidate_player, "best", *start, "start", config.sprt_games(),
            config.seed() * 97 + g, false, gen + "/vs_start");
        if (!vs_start.ok()) return vs_start.status();
        if (vs_start->pairings(0).has_elo()) {
          row->set_elo_vs_start(vs_start->pairings(0).elo());
          row->set_elo_vs_start_error(vs_start->pairings(0).elo_error());
        }
      }
      best = candidate_player;
      if (absl::Status s = WriteBest(config, best, output_dir); !s.ok())
        return s;
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
    // Absent when every game of the SPRT went one way.
    const std::string vs_previous =
        r.has_elo_vs_previous()
            ? absl::StrFormat("%+7.1f +- %5.1f", r.elo_vs_previous(),
                              r.elo_vs_previous_error())
            : std::string("one-sided");
    absl::StrAppendFormat(&s, "%-4d %7d %10d %9.5f %6.3f %18s %18s %s\n",
                          r.generation(), r.games(), r.positions(), r.loss(),
                          r.k(), vs_previous, vs_start,
                          r.accepted() ? "yes" : "no");
  }
  return s;
}

}  // namespace chess
