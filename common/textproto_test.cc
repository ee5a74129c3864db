#include "common/textproto.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using google::protobuf::FileDescriptorProto;

TEST(TextProtoTest, ASyntaxErrorNamesSourceLineAndColumn) {
  FileDescriptorProto message;
  const absl::Status s = ParseTextProto("name: \"a\"\nsyntax: 3\n",
                                        "a.textproto", &message, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StartsWith(s.message(), "a.textproto:2:9: ")) << s;
}

TEST(TextProtoTest, AValidationErrorPointsAtTheFieldItNames) {
  FileDescriptorProto message;
  const std::string text =
      "name: \"a\"\n"
      "message_type { name: \"M\" }\n"
      "message_type {\n  name: \"N\"\n  field { name: \"f\" }\n}\n";
  const absl::Status s = ParseTextProto(text, "b.textproto", &message, [&] {
    return absl::InvalidArgumentError("message_type[1].field: needs a number");
  });
  EXPECT_EQ(s.message(),
            "b.textproto:5:3: message_type[1].field: needs a number");
  // A path that is not in the text: the innermost enclosing field that is.
  const absl::Status missing =
      ParseTextProto(text, "b.textproto", &message, [&] {
        return absl::InvalidArgumentError("message_type[1].options: bad");
      });
  EXPECT_EQ(missing.message(), "b.textproto:3:1: message_type[1].options: bad");
}

TEST(TextProtoTest, WrittenAndReadBack) {
  const std::string path =
      (std::filesystem::path(testing::TempDir()) / "m.textproto").string();
  FileDescriptorProto message;
  message.set_name("x.proto");
  message.add_dependency("y.proto");
  ASSERT_TRUE(WriteTextProto(message, path, "# a comment\n").ok());
  auto back = ReadTextProto<FileDescriptorProto>(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->DebugString(), message.DebugString());
  auto none = ReadTextProto<FileDescriptorProto>(path + ".missing");
  EXPECT_FALSE(none.ok());
}

// A name with a newline, quoted in the header, stays inside the comment.
TEST(TextProtoTest, AHeaderCommentCannotAddConfig) {
  EXPECT_EQ(CommentLines("# loop \"x\nname: \"evil\"\"\n"),
            "# loop \"x\n# name: \"evil\"\"\n");
  EXPECT_EQ(CommentLines("# no newline"), "# no newline\n");
  EXPECT_EQ(CommentLines(""), "");
  const std::string path =
      (std::filesystem::path(testing::TempDir()) / "h.textproto").string();
  FileDescriptorProto message;
  message.set_name("x.proto");
  ASSERT_TRUE(
      WriteTextProto(message, path, "# run \"a\npackage: \"evil\"\n").ok());
  auto back = ReadTextProto<FileDescriptorProto>(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->DebugString(), message.DebugString());
}

}  // namespace
}  // namespace chess
