#include "arena/affinity.h"

#include <cstdio>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

TEST(AffinityTest, ThreadsPerGameIsTheMostAnyPlayerUses) {
  MatchConfig config;
  config.add_players()->mutable_config()->mutable_search()->set_threads(2);
  (*config.add_players()->mutable_external()->mutable_options())["Threads"] =
      "3";
  EXPECT_EQ(ThreadsPerGame(config), 3);
  // Engines read option names in any case; so does the count.
  config.mutable_players(1)->mutable_external()->clear_options();
  (*config.mutable_players(1)
        ->mutable_external()
        ->mutable_options())["threads"] = "4";
  EXPECT_EQ(ThreadsPerGame(config), 4);
  config.mutable_players(1)->mutable_external()->clear_options();
  EXPECT_EQ(ThreadsPerGame(config), 2);
}

TEST(AffinityTest, DisjointSetsOrAClearShortfall) {
  absl::StatusOr<std::vector<std::vector<int>>> one = CoreSetsPerGame(1, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].size(), 1u);
  const int cores = int(std::thread::hardware_concurrency());
  if (cores >= 2) {
    auto two = CoreSetsPerGame(2, 1);
    ASSERT_TRUE(two.ok());
    EXPECT_NE((*two)[0][0], (*two)[1][0]);
  }
  auto too_many = CoreSetsPerGame(100000, 2);
  ASSERT_FALSE(too_many.ok());
  EXPECT_THAT(too_many.status().message(), HasSubstr("200000 cores"));
}

// A pinned game thread's engines inherit its cores: a process it starts
// runs on them alone.
TEST(AffinityTest, WhatAPinnedThreadStartsKeepsItsCores) {
  auto sets = CoreSetsPerGame(1, 1);
  ASSERT_TRUE(sets.ok());
  const int core = (*sets)[0][0];
  std::string allowed;
  std::thread game([&] {
    ASSERT_TRUE(PinCurrentThread((*sets)[0]).ok());
    FILE* child = popen("grep Cpus_allowed_list /proc/self/status", "r");
    ASSERT_NE(child, nullptr);
    char line[256] = {};
    if (fgets(line, sizeof(line), child)) allowed = line;
    pclose(child);
  });
  game.join();
  EXPECT_THAT(allowed, HasSubstr("\t" + std::to_string(core) + "\n"));
}

}  // namespace
}  // namespace chess
