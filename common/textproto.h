// Text-format protobufs, as every config, result and tuner record is written:
// parsing with errors a user can act on, reading from and durably writing to
// files.
#ifndef COMMON_TEXTPROTO_H_
#define COMMON_TEXTPROTO_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/files.h"
#include "google/protobuf/message.h"

namespace chess {

// Parses any text-format message, then calls `validate` (if given). Errors read
// "<source_name>:<line>:<column>: ..."; for a validation error, the location is
// that of the field path the message starts with ("players.name is empty"
// points at "players").
absl::Status ParseTextProto(absl::string_view text,
                            absl::string_view source_name,
                            google::protobuf::Message* message,
                            const std::function<absl::Status()>& validate);

// A text-format message from a file; errors read "path:line:column: ...".
template <typename Message>
absl::StatusOr<Message> ReadTextProto(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  Message m;
  if (absl::Status s = ParseTextProto(*text, path, &m, nullptr); !s.ok())
    return s;
  return m;
}

// `header_comment` as comment lines, each starting with '#' and ending with a
// newline: a newline inside a name it quotes cannot end the comment and
// start config.
std::string CommentLines(absl::string_view header_comment);

// The message in text format, `header_comment` first (as CommentLines),
// written atomically (WriteFileAtomically).
absl::Status WriteTextProto(const google::protobuf::Message& message,
                            const std::string& path,
                            absl::string_view header_comment = "");

}  // namespace chess

#endif  // COMMON_TEXTPROTO_H_
