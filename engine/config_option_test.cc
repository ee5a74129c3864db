#include "engine/config_option.h"

#include "engine/config.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(ConfigOptionTest, NamesAreCaseAndSpaceInsensitive) {
  EXPECT_EQ(NormalizeOptionName("  Null Move "), "null_move");
  EngineConfig config = DefaultEngineConfig();
  ASSERT_TRUE(SetConfigOption("Null Move", "false", &config).ok());
  EXPECT_FALSE(config.search().null_move());
  ASSERT_TRUE(SetConfigOption("NULL_MOVE", "TRUE", &config).ok());
  EXPECT_TRUE(config.search().null_move());
}

TEST(ConfigOptionTest, SearchFieldsHashAndEvalWeights) {
  EngineConfig config = DefaultEngineConfig();
  ASSERT_TRUE(SetConfigOption("Hash", "32", &config).ok());
  EXPECT_EQ(config.search().hash_mb(), 32);
  ASSERT_TRUE(SetConfigOption("lmr_divisor_x100", "250", &config).ok());
  EXPECT_EQ(config.search().lmr_divisor_x100(), 250);
  ASSERT_TRUE(SetConfigOption("value.knight.mg", "345", &config).ok());
  ASSERT_TRUE(SetConfigOption("pst.knight.e4.eg", "-7", &config).ok());
  EXPECT_EQ(*GetNumericConfigOption("value.knight.mg", config), 345);
  EXPECT_EQ(*GetNumericConfigOption("PST.Knight.E4.EG", config), -7);
  EXPECT_EQ(*GetNumericConfigOption("hash", config), 32);
  EXPECT_EQ(*GetNumericConfigOption("null_move", config), 1);
  EXPECT_TRUE(ValidateEngineConfig(config).ok());
}

TEST(ConfigOptionTest, UnknownNamesAndBadValuesAreErrorsThatNameThem) {
  EngineConfig config = DefaultEngineConfig();
  const EngineConfig before = config;
  absl::Status s = SetConfigOption("no_such_option", "1", &config);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "unknown option \"no_such_option\"");
  s = SetConfigOption("null_move", "maybe", &config);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "bad value \"maybe\" for null_move");
  EXPECT_FALSE(SetConfigOption("hash_mb", "12abc", &config).ok());
  EXPECT_FALSE(SetConfigOption("value.knight.mg", "1.5", &config).ok());
  EXPECT_EQ(config.SerializeAsString(), before.SerializeAsString());
  EngineConfig empty;
  EXPECT_FALSE(SetConfigOption("null_move", "maybe", &empty).ok());
  EXPECT_FALSE(SetConfigOption("value.knight.mg", "x", &empty).ok());
  EXPECT_FALSE(empty.has_search() || empty.has_eval())
      << "a refused value leaves no empty submessage";
  EXPECT_EQ(GetNumericConfigOption("nothing", config).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ConfigOptionTest, RangesAreLeftToValidation) {
  EngineConfig config = DefaultEngineConfig();
  ASSERT_TRUE(SetConfigOption("hash_mb", "70000", &config).ok());
  EXPECT_FALSE(ValidateEngineConfig(config).ok());
}

// Stockfish's spellings set and read the fields they name, field names too.
TEST(ConfigOptionTest, StockfishSpellingsNameTheirFields) {
  EngineConfig config = DefaultEngineConfig();
  ASSERT_TRUE(SetConfigOption("UCI_Elo", "1500", &config).ok());
  ASSERT_TRUE(SetConfigOption("MultiPV", "3", &config).ok());
  ASSERT_TRUE(SetConfigOption("SyzygyProbeLimit", "5", &config).ok());
  ASSERT_TRUE(SetConfigOption("syzygy_probe_depth", "4", &config).ok());
  ASSERT_TRUE(SetConfigOption("SyzygyPath", "<empty>", &config).ok());
  EXPECT_EQ(config.search().elo(), 1500);
  EXPECT_EQ(config.search().multi_pv(), 3);
  EXPECT_EQ(config.tablebases().syzygy_probe_limit(), 5);
  EXPECT_EQ(config.tablebases().syzygy_probe_depth(), 4);
  EXPECT_EQ(config.tablebases().syzygy_path(), "");
  EXPECT_EQ(*GetNumericConfigOption("UCI_Elo", config), 1500);
  EXPECT_EQ(*GetNumericConfigOption("Hash", config), config.search().hash_mb());
  EXPECT_TRUE(HasUciSpelling("hash_mb"));
  EXPECT_FALSE(HasUciSpelling("null_move"));
}

}  // namespace
}  // namespace chess
