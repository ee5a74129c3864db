#include "engine/config.h"

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/eval_weights.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace chess {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;

class CollectFirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (error_.empty()) {
      error_ = absl::StrCat(line + 1, ":", column + 1, ": ", message);
    }
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

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
};

struct PathElement {
  std::string field;
  int index = 0;  // of a repeated field
};

// "players[1].overrides.search: ..." or "time_control: ..." -> the leading
// field names, with the index of each repeated one (0 when not given).
std::vector<PathElement> LeadingFieldPath(absl::string_view message) {
  absl::string_view path = message.substr(0, message.find_first_of(" :"));
  std::vector<PathElement> elements;
  for (absl::string_view part : absl::StrSplit(path, '.')) {
    PathElement e;
    const size_t bracket = part.find('[');
    e.field = std::string(part.substr(0, bracket));
    if (bracket != absl::string_view::npos) {
      absl::string_view index = part.substr(bracket + 1);
      index = index.substr(0, index.find(']'));
      if (!absl::SimpleAtoi(index, &e.index) || e.index < 0) e.index = 0;
    }
    elements.push_back(std::move(e));
  }
  return elements;
}

// Line and column of the field at `path` in the parsed text; for a field that
// is not in the text, of its innermost enclosing field that is, or the start
// of the text.
std::string LocationOf(const google::protobuf::Message& message,
                       const TextFormat::ParseInfoTree* tree,
                       const std::vector<PathElement>& path) {
  TextFormat::ParseLocation location;
  const google::protobuf::Message* current = &message;
  for (size_t i = 0; i < path.size() && tree && current; ++i) {
    const FieldDescriptor* field =
        current->GetDescriptor()->FindFieldByName(path[i].field);
    if (!field) break;
    const google::protobuf::Reflection* reflection = current->GetReflection();
    const int index = field->is_repeated() ? path[i].index : -1;
    if (field->is_repeated() ? reflection->FieldSize(*current, field) <= index
                             : !reflection->HasField(*current, field)) {
      break;
    }
    const TextFormat::ParseLocation here = tree->GetLocation(field, index);
    if (here.line < 0) break;
    location = here;
    if (field->type() != FieldDescriptor::TYPE_MESSAGE) break;
    tree = tree->GetTreeForNested(field, index);
    current = field->is_repeated()
                  ? &reflection->GetRepeatedMessage(*current, field, index)
                  : &reflection->GetMessage(*current, field);
  }
  if (location.line < 0) return "1:1: ";
  return absl::StrCat(location.line + 1, ":", location.column + 1, ": ");
}

}  // namespace

extern const char kDefaultConfigText[];

const EngineConfig& DefaultEngineConfig() {
  static const EngineConfig* config = [] {
    absl::StatusOr<EngineConfig> parsed =
        ParseEngineConfig(kDefaultConfigText, "default.textproto");
    // The build embeds a file that config_test parses, so this cannot fail.
    return new EngineConfig(parsed.ok() ? *parsed : EngineConfig());
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
  return absl::OkStatus();
}

absl::Status ParseTextProto(absl::string_view text,
                            absl::string_view source_name,
                            google::protobuf::Message* message,
                            const std::function<absl::Status()>& validate) {
  CollectFirstError errors;
  TextFormat::ParseInfoTree tree;
  TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&tree);
  if (!parser.ParseFromString(std::string(text), message)) {
    return absl::InvalidArgumentError(
        absl::StrCat(source_name, ":", errors.error()));
  }
  if (!validate) return absl::OkStatus();
  if (absl::Status status = validate(); !status.ok()) {
    std::string location =
        LocationOf(*message, &tree, LeadingFieldPath(status.message()));
    return absl::InvalidArgumentError(
        absl::StrCat(source_name, ":", location, status.message()));
  }
  return absl::OkStatus();
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

std::string ResolvePath(const std::string& base_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

std::string CommandLinePath(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  return cwd ? ResolvePath(cwd, path) : path;
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
}

}  // namespace chess
