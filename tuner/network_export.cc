#include "tuner/network_export.h"

#include <cstdlib>
#include <random>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/network.h"

namespace chess {

std::vector<Position> RandomGamePositions(int count, uint64_t seed) {
  std::vector<Position> positions;
  positions.reserve(size_t(std::max(0, count)));
  std::mt19937_64 rng(seed);
  Position pos = Position::Start();
  int ply = 0;
  while (int(positions.size()) < count) {
    MoveList moves = LegalMoves(pos);
    if (moves.empty() || ply++ > 120) {
      pos = Position::Start();
      ply = 0;
      continue;
    }
    pos.MakeMove(moves[rng() % moves.size()]);
    if (ply > 8) positions.push_back(pos);
  }
  return positions;
}

absl::StatusOr<ExportedNetwork> ExportBulletNetwork(
    const EngineConfig& config, const Quantisation& q,
    const std::vector<Position>& check) {
  if (!config.eval().has_network()) {
    return absl::InvalidArgumentError(
        "the config has no eval.network to export");
  }
  const NetworkParams& params = config.eval().network();
  if (!params.whole_evaluation()) {
    return absl::InvalidArgumentError(
        "the config's network is added to its linear evaluation; bullet's "
        "file holds a network that is the whole evaluation "
        "(NetworkSettings.whole_evaluation)");
  }
  absl::StatusOr<BulletExport> file = SerializeBulletNetwork(params, q);
  if (!file.ok()) return file.status();
  absl::StatusOr<NetworkParams> back =
      ParseBulletNetwork(file->bytes, q, "the exported file", ShapeOf(params));
  if (!back.ok()) return back.status();
  const Network ours = *Network::FromProto(params);
  absl::StatusOr<Network> theirs = Network::FromProto(*back);
  if (!theirs.ok()) return theirs.status();
  ExportedNetwork exported;
  exported.file = *std::move(file);
  int64_t total = 0;
  for (const Position& pos : check) {
    const int difference = std::abs(theirs->Evaluate(pos) - ours.Evaluate(pos));
    exported.max_difference_cp =
        std::max(exported.max_difference_cp, difference);
    total += difference;
  }
  exported.positions = int(check.size());
  exported.mean_difference_cp =
      check.empty() ? 0 : double(total) / double(check.size());
  exported.provenance.assign(params.provenance().begin(),
                             params.provenance().end());
  exported.provenance.push_back(absl::StrCat(
      "exported: bullet's quantised format, QA ", q.activation_one, ", QB ",
      q.output_one, ", scale ", q.output_scale, ", ",
      DescribeShape(ShapeOf(params)), "; from ", config.name(),
      exported.file.exact
          ? " exactly"
          : absl::StrCat(", output layer x", exported.file.output_factor,
                         " rounded (largest difference ",
                         exported.max_difference_cp, " cp on ",
                         exported.positions, " positions)")));
  return exported;
}

absl::StatusOr<EngineConfig> ImportBulletNetwork(const std::string& path,
                                                 const Quantisation& q,
                                                 const NetworkShape& shape,
                                                 const EngineConfig& start) {
  absl::StatusOr<NetworkParams> network = ReadBulletNetwork(path, q, shape);
  if (!network.ok()) return network.status();
  network->add_provenance(
      absl::StrCat("imported: ", path, ", bullet's quantised format, QA ",
                   q.activation_one, ", QB ", q.output_one, ", scale ",
                   q.output_scale, ", ", DescribeShape(shape)));
  EngineConfig config = start;
  *config.mutable_eval()->mutable_network() = *std::move(network);
  return config;
}

}  // namespace chess
