// Every config the repository ships parses as the message its header names
// ("# proto-message: chess.LoopConfig"), so that a renamed or removed field
// fails here and not at a user's desk; and the files a tuning run starts from
// exist. The match configs' deeper checks (books, schedules) are
// arena/match_test.cc's.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "arena/match_config.pb.h"
#include "common/files.h"
#include "common/textproto.h"
#include "engine/engine_config.pb.h"
#include "google/protobuf/message.h"
#include "gtest/gtest.h"
#include "tuner/tuning.pb.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

const std::string kHeader = "# proto-message: ";

// The messages a shipped config may hold, by full name.
std::map<std::string, const google::protobuf::Message*> KnownMessages() {
  std::map<std::string, const google::protobuf::Message*> known;
  for (const google::protobuf::Message* m :
       std::vector<const google::protobuf::Message*>{
           &EngineConfig::default_instance(), &MatchConfig::default_instance(),
           &LoopConfig::default_instance(), &LoopReport::default_instance(),
           &SpsaConfig::default_instance(), &DatagenConfig::default_instance(),
           &NetworkSettings::default_instance()}) {
    known[m->GetDescriptor()->full_name()] = m;
  }
  return known;
}

std::vector<std::string> ShippedConfigs() {
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator("configs")) {
    if (entry.path().extension() == ".textproto")
      paths.push_back(entry.path().string());
  }
  return paths;
}

std::string MessageNamedIn(const std::string& text) {
  const size_t at = text.find(kHeader);
  if (at == std::string::npos) return "";
  const size_t start = at + kHeader.size();
  return text.substr(start, text.find('\n', start) - start);
}

// A path of a config that must exist; the public books count only when
// unpacked (configs/openings/unpack_shared_books.sh).
void ExpectExists(const std::string& config_path, const std::string& path) {
  if (path.empty()) return;
  if (absl::StartsWith(path, "/tmp/books/") && !fs::exists("/tmp/books"))
    return;
  const std::string resolved =
      ResolvePath(fs::path(config_path).parent_path().string(), path);
  EXPECT_TRUE(fs::exists(resolved))
      << config_path << " names " << path << ", which does not exist";
}

// Where a tuning run starts from: its engine config and its book. Whether
// `message` is a tuning run.
bool ExpectStartingPointsExist(const std::string& path,
                               const google::protobuf::Message& message) {
  if (const auto* loop = dynamic_cast<const LoopConfig*>(&message)) {
    ExpectExists(path, loop->start_config());
    ExpectExists(path, loop->book());
    return true;
  }
  if (const auto* datagen = dynamic_cast<const DatagenConfig*>(&message)) {
    ExpectExists(path, datagen->player().config_file());
    ExpectExists(path, datagen->book());
    return true;
  }
  if (const auto* spsa = dynamic_cast<const SpsaConfig*>(&message)) {
    ExpectExists(path, spsa->engine_config());
    ExpectExists(path, spsa->book());
    return true;
  }
  return false;
}

TEST(ShippedConfigsTest, EachParsesAsItsHeaderSaysAndStartsFromFilesThatExist) {
  const auto known = KnownMessages();
  const std::vector<std::string> paths = ShippedConfigs();
  EXPECT_GE(paths.size(), 14u);
  int tuning_runs = 0;
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    const absl::StatusOr<std::string> text = ReadFile(path);
    ASSERT_TRUE(text.ok()) << text.status();
    const std::string name = MessageNamedIn(*text);
    const auto it = known.find(name);
    ASSERT_NE(it, known.end())
        << "the header must name the message, one of this test's: \"" << kHeader
        << "chess.EngineConfig\" (found \"" << name << "\")";
    std::unique_ptr<google::protobuf::Message> message(it->second->New());
    const absl::Status parsed =
        ParseTextProto(*text, path, message.get(), nullptr);
    EXPECT_TRUE(parsed.ok()) << parsed;
    if (parsed.ok()) tuning_runs += ExpectStartingPointsExist(path, *message);
  }
  EXPECT_GE(tuning_runs, 3);
}

}  // namespace
}  // namespace chess
