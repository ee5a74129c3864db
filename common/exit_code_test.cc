#include "common/exit_code.h"

#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(ExitCodeTest, EachStatusCodeHasOneMeaning) {
  EXPECT_EQ(ExitCodeFor(absl::OkStatus()), kExitOk);
  EXPECT_EQ(ExitCodeFor(absl::InvalidArgumentError("x")), kExitBadInput);
  EXPECT_EQ(ExitCodeFor(absl::NotFoundError("x")), kExitBadInput);
  EXPECT_EQ(ExitCodeFor(absl::DataLossError("x")), kExitBadInput);
  EXPECT_EQ(ExitCodeFor(absl::UnavailableError("x")), kExitEngineFailure);
  EXPECT_EQ(ExitCodeFor(absl::InternalError("x")), kExitIoError);
  EXPECT_EQ(ExitCodeFor(absl::UnknownError("x")), kExitIoError);
}

TEST(ExitCodeTest, AChildsExitCodeMapsBackToTheSameExitCode) {
  for (int code : {kExitBadInput, kExitEngineFailure, kExitIoError})
    EXPECT_EQ(ExitCodeFor(absl::Status(StatusCodeForExit(code), "x")), code);
  EXPECT_EQ(StatusCodeForExit(kExitOk), absl::StatusCode::kOk);
  EXPECT_EQ(StatusCodeForExit(kExitH0), absl::StatusCode::kOk);
  EXPECT_EQ(StatusCodeForExit(-1), absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace chess
