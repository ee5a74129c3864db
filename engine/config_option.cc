#include "engine/config_option.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/eval_weights.h"

namespace chess {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

absl::Status SetScalarField(Message* message, const FieldDescriptor* field,
                            absl::string_view value) {
  const google::protobuf::Reflection* r = message->GetReflection();
  const std::string v = absl::AsciiStrToLower(value);
  auto bad = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat("bad value \"", value, "\" for ", field->name()));
  };
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL:
      if (v != "true" && v != "false") return bad();
      r->SetBool(message, field, v == "true");
      return absl::OkStatus();
    case FieldDescriptor::CPPTYPE_INT32: {
      int32_t x;
      if (!absl::SimpleAtoi(value, &x)) return bad();
      r->SetInt32(message, field, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      uint64_t x;
      if (!absl::SimpleAtoi(value, &x)) return bad();
      r->SetUInt64(message, field, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* e =
          field->enum_type()->FindValueByName(absl::AsciiStrToUpper(value));
      if (!e) return bad();
      r->SetEnum(message, field, e);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_STRING:
      // GUIs send "<empty>" for an empty string option.
      r->SetString(message, field,
                   value == "<empty>" ? std::string() : std::string(value));
      return absl::OkStatus();
    default:
      return bad();
  }
}

const FieldDescriptor* FindScalarField(const Message& message,
                                       const std::string& name) {
  const FieldDescriptor* f = message.GetDescriptor()->FindFieldByName(name);
  if (!f || f->is_repeated() ||
      f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    return nullptr;
  }
  return f;
}
}  // namespace

std::string NormalizeOptionName(absl::string_view name) {
  std::string result = absl::AsciiStrToLower(absl::StripAsciiWhitespace(name));
  std::replace(result.begin(), result.end(), ' ', '_');
  return result;
}

namespace {

// UCI options with Stockfish's spelling (normalized) and the SearchParams or
// TablebaseParams field each one sets.
struct UciSpelling {
  const char* option;
  const char* field;
  bool tablebases;
};
constexpr UciSpelling kUciSpellings[] = {
    {"hash", "hash_mb", false},
    {"multipv", "multi_pv", false},
    {"threads", "threads", false},
    {"skill_level", "skill_level", false},
    {"uci_limitstrength", "limit_strength", false},
    {"uci_elo", "elo", false},
    {"syzygypath", "syzygy_path", true},
    {"syzygyprobelimit", "syzygy_probe_limit", true},
    {"syzygyprobedepth", "syzygy_probe_depth", true},
    {"syzygy50moverule", "syzygy_50_move_rule", true},
};

const UciSpelling* FindSpelling(const std::string& normalized_name) {
  for (const UciSpelling& s : kUciSpellings)
    if (normalized_name == s.option) return &s;
  return nullptr;
}

absl::Status SetOptionInPlace(absl::string_view raw_name,
                              absl::string_view value, EngineConfig* config) {
  const std::string name = NormalizeOptionName(raw_name);
  if (const UciSpelling* spelling = FindSpelling(name)) {
    Message* m = spelling->tablebases
                     ? static_cast<Message*>(config->mutable_tablebases())
                     : static_cast<Message*>(config->mutable_search());
    return SetScalarField(m, FindScalarField(*m, spelling->field), value);
  }
  if (const FieldDescriptor* f = FindScalarField(config->search(), name)) {
    return SetScalarField(config->mutable_search(), f, value);
  }
  if (const FieldDescriptor* f = FindScalarField(config->eval(), name)) {
    return SetScalarField(config->mutable_eval(), f, value);
  }
  if (const FieldDescriptor* f = FindScalarField(config->tablebases(), name)) {
    return SetScalarField(config->mutable_tablebases(), f, value);
  }
  int feature;
  Phase phase;
  if (EvalWeights::FindWeight(name, &feature, &phase)) {
    int weight;
    if (!absl::SimpleAtoi(value, &weight)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad value \"", value, "\" for ", name));
    }
    absl::StatusOr<EvalWeights> w = EvalWeights::FromProto(config->eval());
    if (!w.ok()) return w.status();
    w->weight[phase][feature] = weight;
    *config->mutable_eval() = w->ToProto();
    return absl::OkStatus();
  }
  return absl::NotFoundError(absl::StrCat("unknown option \"", raw_name, "\""));
}

}  // namespace

bool HasUciSpelling(absl::string_view field) {
  for (const UciSpelling& s : kUciSpellings)
    if (field == s.field) return true;
  return false;
}

absl::Status SetConfigOption(absl::string_view raw_name,
                             absl::string_view value, EngineConfig* config) {
  // On a copy: a refused value must not leave an empty submessage behind.
  EngineConfig changed = *config;
  absl::Status status = SetOptionInPlace(raw_name, value, &changed);
  if (status.ok()) *config = std::move(changed);
  return status;
}

namespace {

absl::StatusOr<double> NumericField(const google::protobuf::Message& m,
                                    const FieldDescriptor* f) {
  const google::protobuf::Reflection* r = m.GetReflection();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return double(r->GetInt32(m, f));
    case FieldDescriptor::CPPTYPE_INT64:
      return double(r->GetInt64(m, f));
    case FieldDescriptor::CPPTYPE_UINT32:
      return double(r->GetUInt32(m, f));
    case FieldDescriptor::CPPTYPE_UINT64:
      return double(r->GetUInt64(m, f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->GetBool(m, f) ? 1.0 : 0.0;
    case FieldDescriptor::CPPTYPE_ENUM:
      return double(r->GetEnumValue(m, f));
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(f->name(), " is not numeric"));
  }
}

}  // namespace

absl::StatusOr<double> GetNumericConfigOption(absl::string_view raw_name,
                                              const EngineConfig& config) {
  const std::string name = NormalizeOptionName(raw_name);
  if (const UciSpelling* spelling = FindSpelling(name)) {
    const Message& m = spelling->tablebases
                           ? static_cast<const Message&>(config.tablebases())
                           : static_cast<const Message&>(config.search());
    return NumericField(m, FindScalarField(m, spelling->field));
  }
  if (const FieldDescriptor* f = FindScalarField(config.search(), name)) {
    return NumericField(config.search(), f);
  }
  if (const FieldDescriptor* f = FindScalarField(config.eval(), name)) {
    return NumericField(config.eval(), f);
  }
  int feature;
  Phase phase;
  if (EvalWeights::FindWeight(name, &feature, &phase)) {
    absl::StatusOr<EvalWeights> w = EvalWeights::FromProto(config.eval());
    if (!w.ok()) return w.status();
    return double(w->weight[phase][feature]);
  }
  return absl::NotFoundError(absl::StrCat("unknown option \"", raw_name, "\""));
}

}  // namespace chess
