// The system headers most tests include, compiled once per build configuration into a
// precompiled header (common/precompiled_header.bzl) that every cc_test loaded from
// //common:cc_test.bzl reads first: parsing GoogleTest, protobuf and abseil took half of
// each test file's compile time. Only headers from /usr/include belong here, so that a
// test sees nothing of the project it did not include itself.
#ifndef COMMON_TEST_HEADERS_H_
#define COMMON_TEST_HEADERS_H_

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/generated_message_reflection.h"
#include "google/protobuf/message.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

#endif  // COMMON_TEST_HEADERS_H_
