#include "tuner/bullet_board.h"

#include <fstream>
#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "tuner/training_data.h"

namespace chess {
namespace {

TrainingPosition Labelled(const std::string& fen, int score_cp, float result) {
  TrainingPosition p;
  p.set_fen(fen);
  p.set_score_cp(score_cp);
  p.set_result(result);
  return p;
}

TEST(BulletBoardTest, TheStartPositionIsBulletsRecord) {
  absl::StatusOr<std::string> record = PackBulletBoard(Labelled(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 25, 1));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(absl::BytesToHexString(*record),
            "ffff00000000ffff"         // occupancy
            "13422531000000008888888"  // pieces: R N B Q K B N R, P..
            "89bcaadb9"                // p.., r n b q k b n r
            "1900"                     // score 25
            "02"                       // a win for the side to move
            "0404"                     // e1, e8 mirrored
            "000000");
}

TEST(BulletBoardTest, BlackToMoveIsSeenFromBlacksSide) {
  absl::StatusOr<std::string> record = PackBulletBoard(Labelled(
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", -30, 0));
  ASSERT_TRUE(record.ok()) << record.status();
  absl::StatusOr<TrainingPosition> seen = UnpackBulletBoard(*record);
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_EQ(seen->fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
  EXPECT_EQ(seen->score_cp(), 30);  // Black's +30, now the side to move's
  EXPECT_EQ(seen->result(), 1);     // Black won
}

TEST(BulletBoardTest, RecordsThatAreNoPositionAreRefused) {
  std::string record =
      *PackBulletBoard(Labelled("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0, 0.5));
  ASSERT_TRUE(UnpackBulletBoard(record).ok());
  std::string bad_result = record;
  bad_result[26] = 3;
  EXPECT_FALSE(UnpackBulletBoard(bad_result).ok());
  std::string bad_king = record;
  bad_king[27] = 5;
  EXPECT_FALSE(UnpackBulletBoard(bad_king).ok());
  std::string bad_piece = record;
  bad_piece[8] = 0x77;
  EXPECT_FALSE(UnpackBulletBoard(bad_piece).ok());
  std::string stray_code = record;
  stray_code[20] = 1;
  EXPECT_FALSE(UnpackBulletBoard(stray_code).ok());
  EXPECT_FALSE(UnpackBulletBoard(record.substr(1)).ok());
  TrainingPosition no_score = Labelled("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0, 1);
  no_score.clear_score_cp();
  EXPECT_FALSE(PackBulletBoard(no_score).ok());
}

// The positions of a set as bullet sees them, through every format and back.
TEST(BulletBoardTest, DataRoundTripsThroughAllThreeFormats) {
  TrainingSet set;
  for (const TrainingPosition& p :
       {Labelled("r3k2r/pp3ppp/2n5/3pp3/8/2N2N2/PPP2PPP/R3K2R b KQkq - 4 12",
                 -45, 0.5),
        Labelled("8/8/3k4/8/3K4/8/3P4/8 w - - 0 60", 310, 1),
        Labelled("6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 30", -2000, 0)}) {
    *set.add_positions() = *AsBulletSeesIt(p);
  }
  const std::string dir = ::testing::TempDir();
  ASSERT_TRUE(WriteTrainingSet(set, dir + "/a.bulletformat",
                               DatasetFormat::kBulletFormat)
                  .ok());
  ASSERT_TRUE(WriteTrainingSet(*ReadTrainingSet(dir + "/a.bulletformat"),
                               dir + "/b.data", DatasetFormat::kProto)
                  .ok());
  ASSERT_TRUE(WriteTrainingSet(*ReadTrainingSet(dir + "/b.data"),
                               dir + "/c.txt", DatasetFormat::kBulletText)
                  .ok());
  // No extension: read by its content.
  ASSERT_TRUE(WriteTrainingSet(*ReadTrainingSet(dir + "/c.txt"), dir + "/d",
                               DatasetFormat::kBulletFormat)
                  .ok());
  absl::StatusOr<TrainingSet> back = ReadTrainingSet(dir + "/d");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->positions_size(), set.positions_size());
  for (int i = 0; i < set.positions_size(); ++i) {
    EXPECT_EQ(back->positions(i).SerializeAsString(),
              set.positions(i).SerializeAsString())
        << set.positions(i).fen();
  }
  auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes(dir + "/a.bulletformat"), bytes(dir + "/d"));
}

TEST(BulletBoardTest, ATornOrForeignFileIsAClearError) {
  const std::string dir = ::testing::TempDir();
  TrainingSet set;
  *set.add_positions() = Labelled("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 12, 1);
  const std::string path = dir + "/torn.bulletformat";
  ASSERT_TRUE(WriteTrainingSet(set, path, DatasetFormat::kBulletFormat).ok());
  std::ofstream(path, std::ios::binary | std::ios::app) << "0123456789";
  absl::Status torn = ReadTrainingSet(path).status();
  EXPECT_TRUE(absl::IsDataLoss(torn)) << torn;
  EXPECT_NE(torn.message().find("10 bytes after its 1 whole records"),
            std::string::npos)
      << torn;
  const std::string foreign = dir + "/foreign.bulletformat";
  std::ofstream(foreign, std::ios::binary) << std::string(64, '\x7f');
  absl::Status refused = ReadTrainingSet(foreign).status();
  EXPECT_TRUE(absl::IsInvalidArgument(refused)) << refused;
  EXPECT_NE(refused.message().find("record 0 (byte 0)"), std::string::npos)
      << refused;
}

TEST(BulletBoardTest, PositionsWithoutScoresAreCountedNotWritten) {
  TrainingSet set;
  *set.add_positions() = Labelled("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 12, 1);
  set.mutable_positions(0)->clear_score_cp();
  *set.add_positions() = Labelled("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 12, 1);
  const std::string path = ::testing::TempDir() + "/scoreless.bulletformat";
  auto writer = TrainingSetWriter::Create(path, DatasetFormat::kBulletFormat);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(AddChunk(set, writer->get()).ok());
  EXPECT_EQ((*writer)->positions(), 1);
  EXPECT_EQ((*writer)->totals().dropped().at("no_score_for_bulletformat"), 1);
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_EQ(ReadTrainingSet(path)->positions_size(), 1);
}

}  // namespace
}  // namespace chess
