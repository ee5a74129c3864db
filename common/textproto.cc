#include "common/textproto.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace chess {
namespace {

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

std::string CommentLines(absl::string_view header_comment) {
  if (header_comment.empty()) return "";
  absl::ConsumeSuffix(&header_comment, "\n");
  std::string comment;
  for (absl::string_view line : absl::StrSplit(header_comment, '\n')) {
    const bool safe = line.empty() || absl::StartsWith(line, "#");
    absl::StrAppend(&comment, safe ? "" : "# ", line, "\n");
  }
  return comment;
}

absl::Status WriteTextProto(const google::protobuf::Message& message,
                            const std::string& path,
                            absl::string_view header_comment) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(message, &text);
  return WriteFileAtomically(path,
                             absl::StrCat(CommentLines(header_comment), text));
}

}  // namespace chess
