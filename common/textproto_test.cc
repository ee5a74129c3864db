#include "common/textproto.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/textproto_test.pb.h"
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

// protobuf's own parser skips reserved names silently; ours must refuse them,
// wherever they stand, and still read everything around them.
TEST(TextProtoTest, AReservedNameFailsNamingLineAndColumn) {
  struct Case {
    const char* text;
    const char* location;
    const char* name;
  };
  for (const Case& c : std::vector<Case>{
           {"removed_root_field: 1\n", "1:1", "removed_root_field"},
           {"name: \"a\" also_removed { x: 1 }\n", "1:11", "also_removed"},
           {"leaf {\n  value: 2\n  removed_leaf_field: \"s\"\n}\n", "3:3",
            "removed_leaf_field"},
           {"# removed_root_field: 1\nleaves [{ value: 1 }, <\n"
            "  words: [\"a\" \"b\", 'c'] removed_leaf_field: [1, 2] >]\n",
            "3:25", "removed_leaf_field"},
           {"numbers: [1.5f, -2, inf]; name: 'x'\nleaf: { value: -3 };\n"
            "also_removed: -1\n",
            "3:1", "also_removed"},
       }) {
    SCOPED_TRACE(c.text);
    textproto_test::Root message;
    const absl::Status s =
        ParseTextProto(c.text, "r.textproto", &message, nullptr);
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(absl::StartsWith(
        s.message(), absl::StrCat("r.textproto:", c.location, ": ")))
        << s;
    EXPECT_TRUE(absl::StrContains(s.message(), c.name)) << s;
  }
}

TEST(TextProtoTest, NamesThatAreNotReservedStillParse) {
  textproto_test::Root message;
  const std::string text =
      "# also_removed: 1\nname: \"removed_root_field\"\n"
      "leaves [{ value: 1 words: ['removed_leaf_field'] }, { value: 2 }]\n"
      "leaf < value: 7 > numbers: [1, 2.5]\n";
  ASSERT_TRUE(ParseTextProto(text, "ok.textproto", &message, nullptr).ok());
  EXPECT_EQ(message.name(), "removed_root_field");
  EXPECT_EQ(message.leaves_size(), 2);
  EXPECT_EQ(message.leaf().value(), 7);
  EXPECT_EQ(message.numbers_size(), 2);
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
