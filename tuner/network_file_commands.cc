// The tuner's commands between configs and bullet's network files:
// export-net and import-net.
#include <filesystem>
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "engine/network_file.h"
#include "tuner/command_helpers.h"
#include "tuner/commands.h"
#include "tuner/network_export.h"

namespace chess {
namespace {

// The paths export-net writes, neither of them its input.
absl::Status CheckExportPaths(const std::string& out,
                              const std::string& config) {
  if (absl::Status s = CheckOutputIsNoInput(out, {config}, "the config");
      !s.ok())
    return s;
  const std::string provenance = out + ".provenance";
  if (SameFile(provenance, config)) {
    return absl::InvalidArgumentError(
        absl::StrCat(provenance,
                     " (the provenance beside --out) is the "
                     "config; name another --out"));
  }
  return absl::OkStatus();
}

void DescribeExport(const std::string& out, const std::string& input,
                    const EngineConfig& config, const Quantisation& q,
                    const ExportedNetwork& exported, std::ostream& os) {
  os << absl::StrFormat(
      "%s: (768 -> %d) x 2 -> 1, QA %d, QB %d, scale %d, %s, %d bytes\n", out,
      config.eval().network().hidden_size(), q.activation_one, q.output_one,
      q.output_scale, DescribeShape(ShapeOf(config.eval().network())),
      exported.file.bytes.size());
  if (exported.file.exact) {
    os << "exact: evaluates every position as " << input << " does\n";
    return;
  }
  os << absl::StrFormat(
      "output layer x%g, rounded: on %d positions of random games the "
      "file's evaluation differs by %.2f cp on average, %d cp at most (a "
      "QB of %g holds it exactly)\n",
      exported.file.output_factor, exported.positions,
      exported.mean_difference_cp, exported.max_difference_cp,
      q.output_one / exported.file.output_factor);
}

}  // namespace

int ExportNetCommand(const NetworkFileRequest& request, std::ostream& out,
                     std::ostream& err) {
  const std::string file = CommandLinePath(request.out);
  if (file.empty() || request.input.empty()) {
    return Fail(absl::InvalidArgumentError(
                    "export-net needs --out=FILE and one config"),
                err);
  }
  if (!request.format.empty() && request.format != "bullet") {
    return Fail(absl::InvalidArgumentError(
                    absl::StrCat("export-net --format=", request.format,
                                 ": the one network format is bullet")),
                err);
  }
  const std::string config_path = CommandLinePath(request.input);
  if (absl::Status s = CheckExportPaths(file, config_path); !s.ok())
    return Fail(s, err);
  absl::StatusOr<EngineConfig> config = LoadEngineConfig(config_path);
  if (!config.ok()) return Fail(config.status(), err);
  const Quantisation& q = request.quantisation;
  absl::StatusOr<ExportedNetwork> exported =
      ExportBulletNetwork(*config, q, RandomGamePositions(10000, 1));
  if (!exported.ok()) return Fail(exported.status(), err);
  if (absl::Status s = WriteFileAtomically(file, exported->file.bytes); !s.ok())
    return Fail(s, err);
  if (absl::Status s = WriteFileAtomically(
          file + ".provenance",
          absl::StrCat(absl::StrJoin(exported->provenance, "\n"), "\n"));
      !s.ok())
    return Fail(s, err);
  DescribeExport(file, request.input, *config, q, *exported, out);
  return kExitOk;
}

int ImportNetCommand(const NetworkFileRequest& request, std::ostream& out,
                     std::ostream& err) {
  const std::string config_path = CommandLinePath(request.out);
  if (config_path.empty() || request.input.empty()) {
    return Fail(absl::InvalidArgumentError(
                    "import-net needs --out=CONFIG and one network file"),
                err);
  }
  const std::string file = CommandLinePath(request.input);
  const std::string start_path = CommandLinePath(request.start);
  if (absl::Status s = CheckOutputIsNoInput(
          config_path, {file, start_path.empty() ? file : start_path}, "input");
      !s.ok())
    return Fail(s, err);
  EngineConfig start = DefaultEngineConfig();
  if (!start_path.empty()) {
    absl::StatusOr<EngineConfig> loaded = LoadEngineConfig(start_path);
    if (!loaded.ok()) return Fail(loaded.status(), err);
    start = *std::move(loaded);
  }
  absl::StatusOr<std::vector<int>> layout =
      ParseKingBuckets(request.king_buckets);
  if (!layout.ok()) return Fail(layout.status(), err);
  const NetworkShape shape{*std::move(layout), request.output_buckets};
  absl::StatusOr<EngineConfig> config =
      ImportBulletNetwork(file, request.quantisation, shape, start);
  if (!config.ok()) return Fail(config.status(), err);
  config->set_name(std::filesystem::path(config_path).stem().string());
  if (absl::Status s = WriteTextProto(
          *config, config_path,
          absl::StrCat("# The network of ", request.input,
                       " (bullet's quantised format), by tuner import-net\n"));
      !s.ok())
    return Fail(s, err);
  out << config_path << ": (768 -> " << config->eval().network().hidden_size()
      << ") x 2 -> 1 from " << request.input << "\n";
  return kExitOk;
}

}  // namespace chess
