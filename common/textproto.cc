#include "common/textproto.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"

namespace chess {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;
using google::protobuf::io::Tokenizer;

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

// protobuf's text parser skips, without a word, a field whose name its message
// reserves; a config naming an option that was removed must fail to load
// instead of silently meaning nothing. Walks the text that parsed, tracking
// the message type each field opens.
class ReservedNameFinder {
 public:
  explicit ReservedNameFinder(absl::string_view text)
      : input_(text.data(), static_cast<int>(text.size())),
        tokenizer_(&input_, &errors_) {
    // As protobuf's text parser reads the same text.
    tokenizer_.set_comment_style(Tokenizer::SH_COMMENT_STYLE);
    tokenizer_.set_allow_f_after_float(true);
    tokenizer_.set_require_space_after_number(false);
    tokenizer_.set_allow_multiline_strings(true);
    tokenizer_.Next();
  }

  // "line:column: ..." of the first reserved name in the text, or "".
  std::string Find(const Descriptor* type) {
    Message(type, "");
    return found_;
  }

 private:
  bool At(absl::string_view token) {
    return tokenizer_.current().text == token;
  }
  bool Done() {
    return !found_.empty() || tokenizer_.current().type == Tokenizer::TYPE_END;
  }

  // Fields up to `close` ("" for the end of the text), then past it.
  void Message(const Descriptor* type, absl::string_view close) {
    while (!Done() && !At(close)) Field(type);
    if (!Done()) tokenizer_.Next();
  }

  void Field(const Descriptor* type) {
    const Tokenizer::Token name = tokenizer_.current();
    const FieldDescriptor* field = nullptr;
    if (At("[")) {  // an extension or Any type name: not checked inside
      while (!Done() && !At("]")) tokenizer_.Next();
    } else if (type != nullptr && type->IsReservedName(name.text)) {
      found_ = absl::StrCat(name.line + 1, ":", name.column + 1, ": ",
                            type->name(), " field \"", name.text,
                            "\" was removed (its name is reserved); delete it");
      return;
    } else if (type != nullptr) {
      field = type->FindFieldByName(name.text);
    }
    tokenizer_.Next();
    const Descriptor* value_type = field ? field->message_type() : nullptr;
    if (At(":")) tokenizer_.Next();
    if (At("[")) {
      tokenizer_.Next();
      while (!Done() && !At("]")) {
        Value(value_type);
        if (At(",")) tokenizer_.Next();
      }
      if (!Done()) tokenizer_.Next();
    } else {
      Value(value_type);
    }
    if (At(";") || At(",")) tokenizer_.Next();
  }

  void Value(const Descriptor* type) {
    if (Done()) return;
    if (At("{") || At("<")) {
      const bool brace = At("{");
      tokenizer_.Next();
      Message(type, brace ? "}" : ">");
      return;
    }
    if (At("-")) tokenizer_.Next();
    const bool string = tokenizer_.current().type == Tokenizer::TYPE_STRING;
    if (!Done()) tokenizer_.Next();
    while (string && tokenizer_.current().type == Tokenizer::TYPE_STRING) {
      tokenizer_.Next();  // adjacent strings are one value
    }
  }

  google::protobuf::io::ArrayInputStream input_;
  CollectFirstError errors_;
  Tokenizer tokenizer_;
  std::string found_;
};

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
  if (std::string reserved =
          ReservedNameFinder(text).Find(message->GetDescriptor());
      !reserved.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(source_name, ":", reserved));
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
