#include "engine/config.h"

#include <cstdlib>
#include <functional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/textproto.h"
#include "engine/eval_weights.h"
#include "engine/network.h"
#include "engine/skill.h"
#include "engine/syzygy.h"
#include "google/protobuf/text_format.h"

namespace chess {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;

struct Range {
  const char* field;
  int64_t min, max;
};

// Numeric search fields and their sane ranges.
constexpr Range kSearchRanges[] = {
    {"hash_mb", 0, 65536},
    {"null_move_min_depth", 1, 64},
    {"null_move_base", 0, 16},
    {"null_move_depth_divisor", 1, 64},
    {"lmr_min_depth", 1, 64},
    {"lmr_min_move_number", 1, 256},
    {"lmr_base_x100", -500, 1000},
    {"lmr_divisor_x100", 10, 10000},
    {"aspiration_window_cp", 1, 1000},
    {"aspiration_min_depth", 1, 64},
    {"eval_noise_cp", 0, 1000},
    {"rfp_max_depth", 0, 64},
    {"rfp_margin_cp", 0, 2000},
    {"futility_max_depth", 0, 64},
    {"futility_base_cp", 0, 2000},
    {"futility_margin_cp", 0, 2000},
    {"lmp_max_depth", 0, 64},
    {"lmp_base", 0, 256},
    {"iir_min_depth", 1, 64},
    {"time_moves_to_go", 2, 1000},
    {"time_increment_percent", 0, 100},
    {"time_soft_percent", 10, 100},
    {"see_pruning_max_depth", 0, 64},
    {"see_quiet_margin_cp", 0, 2000},
    {"see_noisy_margin_cp", 0, 2000},
    {"singular_min_depth", 1, 64},
    {"singular_margin_cp", 0, 1000},
    {"singular_double_margin_cp", 0, 1000},
    {"singular_double_limit", 0, 64},
    {"multi_pv", 1, 256},
    {"threads", 1, 1024},
    {"skill_level", 0, 20},
    {"elo", kLowestElo, kHighestElo},
};

absl::Status ValidateTablebases(const TablebaseParams& tb) {
  if (tb.syzygy_probe_limit() < 0 || tb.syzygy_probe_limit() > 7) {
    return absl::InvalidArgumentError(
        absl::StrCat("tablebases.syzygy_probe_limit (SyzygyProbeLimit) = ",
                     tb.syzygy_probe_limit(), " is outside [0, 7]"));
  }
  if (tb.syzygy_probe_depth() < 1 || tb.syzygy_probe_depth() > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("tablebases.syzygy_probe_depth (SyzygyProbeDepth) = ",
                     tb.syzygy_probe_depth(), " is outside [1, 100]"));
  }
  if (absl::StatusOr<std::vector<std::string>> dirs =
          syzygy::Directories(tb.syzygy_path());
      !dirs.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "tablebases.syzygy_path (SyzygyPath): ", dirs.status().message()));
  }
  return absl::OkStatus();
}

}  // namespace

// configs/engines/default.textproto in protobuf's binary encoding (the
// default_config_cc rule in engine/BUILD).
extern const char kDefaultConfigBinary[];
extern const size_t kDefaultConfigBinarySize;

const EngineConfig& DefaultEngineConfig() {
  static const EngineConfig* config = [] {
    auto* parsed = new EngineConfig;
    // The build encodes a file that config_test loads and validates, so this
    // cannot fail.
    if (!parsed->ParseFromArray(kDefaultConfigBinary,
                                int(kDefaultConfigBinarySize))) {
      parsed->Clear();
    }
    return parsed;
  }();
  return *config;
}

std::optional<std::pair<int64_t, int64_t>> SearchFieldRange(
    absl::string_view field) {
  for (const Range& range : kSearchRanges)
    if (field == range.field) return std::pair{range.min, range.max};
  return std::nullopt;
}

absl::Status ValidateEngineConfig(const EngineConfig& config) {
  if (absl::StatusOr<EvalWeights> w = EvalWeights::FromProto(config.eval());
      !w.ok()) {
    return w.status();
  }
  if (absl::StatusOr<Network> net = Network::FromEval(config.eval());
      !net.ok()) {
    return net.status();
  }
  const google::protobuf::Reflection* reflection =
      config.search().GetReflection();
  const Descriptor* descriptor = config.search().GetDescriptor();
  for (const Range& range : kSearchRanges) {
    const FieldDescriptor* field = descriptor->FindFieldByName(range.field);
    int64_t value = field->cpp_type() == FieldDescriptor::CPPTYPE_INT32
                        ? reflection->GetInt32(config.search(), field)
                        : reflection->GetInt64(config.search(), field);
    if (value < range.min || value > range.max) {
      return absl::InvalidArgumentError(
          absl::StrCat("search.", range.field, " = ", value, " is outside [",
                       range.min, ", ", range.max, "]"));
    }
  }
  return ValidateTablebases(config.tablebases());
}

absl::StatusOr<EngineConfig> ParseEngineConfig(absl::string_view text,
                                               absl::string_view source_name) {
  EngineConfig config;
  if (absl::Status s =
          ParseTextProto(text, source_name, &config,
                         [&] { return ValidateEngineConfig(config); });
      !s.ok()) {
    return s;
  }
  return config;
}

absl::StatusOr<EngineConfig> LoadEngineConfig(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseEngineConfig(*text, path);
}

void DisableSelectiveSearch(SearchParams* p) {
  p->set_quiescence(false);
  p->set_hash_mb(0);
  p->set_null_move(false);
  p->set_late_move_reductions(false);
  p->set_aspiration_windows(false);
  p->set_check_extension(false);
  p->set_reverse_futility_pruning(false);
  p->set_futility_pruning(false);
  p->set_late_move_pruning(false);
  p->set_internal_iterative_reduction(false);
  p->set_improving(false);
  p->set_qsearch_tt(false);
  p->set_see_pruning(false);
  p->set_pruning_lmr_depth(false);
}

}  // namespace chess
