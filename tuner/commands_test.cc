#include "tuner/commands.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/exit_code.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kDefault[] = "configs/engines/default.textproto";

TEST(TunerCommandsTest, ANetworkGoesOutAndComesBackTheSame) {
  const std::string dir = ::testing::TempDir() + "/tuner-net-file";
  fs::remove_all(dir);
  fs::create_directories(dir);
  NetworkFileRequest request;
  request.input = kDefault;
  request.out = dir + "/default.bin";
  request.quantisation.output_one = 256;  // holds default's output exactly
  std::ostringstream out, err;
  ASSERT_EQ(ExportNetCommand(request, out, err), kExitOk) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("exact: evaluates every position as"));
  EXPECT_TRUE(fs::exists(dir + "/default.bin.provenance"));

  request.input = dir + "/default.bin";
  request.out = dir + "/back.textproto";
  request.start = kDefault;
  request.output_buckets = 8;  // default's: the file does not say them
  ASSERT_EQ(ImportNetCommand(request, out, err), kExitOk) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("(768 -> 256) x 2 -> 1 from"));
}

TEST(TunerCommandsTest, AnOutputNeverReplacesAnInput) {
  std::ostringstream out, err;
  NetworkFileRequest export_over_config;
  export_over_config.input = kDefault;
  export_over_config.out = kDefault;
  EXPECT_EQ(ExportNetCommand(export_over_config, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("is also an input"));
  err.str("");
  FitRequest fit{.data = kDefault, .start = kDefault, .out = kDefault};
  EXPECT_EQ(NetCommand(fit, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("--out=" + std::string(kDefault) +
                                   " is also an input (--data="));
}

TEST(TunerCommandsTest, MissingPiecesAreNamed) {
  std::ostringstream out, err;
  EXPECT_EQ(ExtractCommand({}, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("extract needs --out and inputs"));
  ExtractRequest convert{.inputs = {"games.log"}, .out = "x.bin"};
  EXPECT_EQ(ConvertCommand(convert, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("`tuner extract` reads game logs"));
  EXPECT_EQ(TexelCommand({}, TexelSettings(), out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("texel needs --data, --start and --out"));
  EXPECT_EQ(SpsaCommand({}, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("spsa needs one config file"));
  TuningRunRequest datagen{.operands = {"no-such-datagen.textproto"}};
  EXPECT_EQ(DatagenCommand(datagen, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("no-such-datagen.textproto"));
  TuningRunRequest bad_venue{.operands = {"x"}};
  bad_venue.venue.shards = -1;
  EXPECT_EQ(LoopCommand(bad_venue, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("--shards"));
  EXPECT_EQ(TuningReportCommand({}, "", out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("report needs one loop output directory"));
}

}  // namespace
}  // namespace chess
