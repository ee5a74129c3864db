#include "tuner/packed_position.h"

#include <cstdint>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace chess {
namespace {

constexpr char kPieceLetters[] = " PNBRQK  pnbrqk";  // by 4-bit code
constexpr char kCastlingLetters[] = "KQkq";
constexpr int kNoScore = -32768;

int CodeOf(char letter) {
  for (int code = 1; code < 15; ++code)
    if (kPieceLetters[code] == letter && letter != ' ') return code;
  return 0;
}

void PutLittleEndian(std::string* out, int at, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) (*out)[at + i] = char(value >> (8 * i));
}

uint64_t GetLittleEndian(absl::string_view in, int at, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= uint64_t(uint8_t(in[at + i])) << (8 * i);
  return value;
}

// The board field of a FEN as a code per square (a1 = 0), or false.
bool ParseBoard(absl::string_view board, int codes[64]) {
  const std::vector<absl::string_view> ranks = absl::StrSplit(board, '/');
  if (ranks.size() != 8) return false;
  for (int r = 0; r < 8; ++r) {
    int file = 0;
    for (char c : ranks[r]) {
      if (c >= '1' && c <= '8') {
        for (int n = c - '0'; n > 0; --n) {
          if (file > 7) return false;
          codes[(7 - r) * 8 + file++] = 0;
        }
      } else {
        const int code = CodeOf(c);
        if (code == 0 || file > 7) return false;
        codes[(7 - r) * 8 + file++] = code;
      }
    }
    if (file != 8) return false;
  }
  return true;
}

}  // namespace

std::string FenBoardField(const int codes[64]) {
  std::string board;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      const int code = codes[r * 8 + f];
      if (code == 0) {
        ++empty;
        continue;
      }
      if (empty > 0) board += char('0' + empty);
      empty = 0;
      board += kPieceLetters[code];
    }
    if (empty > 0) board += char('0' + empty);
    if (r > 0) board += '/';
  }
  return board;
}

namespace {

// Unpacks without checking that the FEN it writes is the one packed.
std::optional<std::string> Pack(const TrainingPosition& p) {
  if (p.has_player_sign()) return std::nullopt;
  const std::vector<absl::string_view> f = absl::StrSplit(p.fen(), ' ');
  int codes[64];
  if (f.size() != 6 || !ParseBoard(f[0], codes)) return std::nullopt;
  std::string out(kPackedPositionBytes, '\0');
  uint64_t occupied = 0;
  int pieces = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (codes[sq] == 0) continue;
    if (pieces == 32) return std::nullopt;
    occupied |= uint64_t(1) << sq;
    out[8 + pieces / 2] |= char(codes[sq] << (4 * (pieces % 2)));
    ++pieces;
  }
  PutLittleEndian(&out, 0, occupied, 8);
  const int score = p.has_score_cp() ? p.score_cp() : kNoScore;
  if (p.has_score_cp() && (score <= kNoScore || score > 32767))
    return std::nullopt;
  PutLittleEndian(&out, 24, uint16_t(int16_t(score)), 2);
  if (p.result() != 0 && p.result() != 0.5f && p.result() != 1)
    return std::nullopt;
  out[26] = char(int(p.result() * 2));
  if (f[1] != "w" && f[1] != "b") return std::nullopt;
  int flags = f[1] == "b" ? 1 : 0;
  if (f[2] != "-") {
    for (char c : f[2]) {
      const char* at = std::char_traits<char>::find(kCastlingLetters, 4, c);
      if (at == nullptr) return std::nullopt;
      flags |= 2 << (at - kCastlingLetters);
    }
  }
  out[27] = char(flags);
  if (f[3] != "-") {
    if (f[3].size() != 2 || f[3][0] < 'a' || f[3][0] > 'h') return std::nullopt;
    out[28] = char(f[3][0] - 'a' + 1);
  }
  int halfmove, fullmove;
  if (!absl::SimpleAtoi(f[4], &halfmove) || halfmove < 0 || halfmove > 255 ||
      !absl::SimpleAtoi(f[5], &fullmove) || fullmove < 0 || fullmove > 65535)
    return std::nullopt;
  out[29] = char(halfmove);
  PutLittleEndian(&out, 30, uint64_t(fullmove), 2);
  return out;
}

}  // namespace

std::optional<std::string> PackPosition(const TrainingPosition& position) {
  std::optional<std::string> packed = Pack(position);
  if (!packed) return std::nullopt;
  // Only what reads back the same: "KQkq" in that order, a canonical board.
  absl::StatusOr<TrainingPosition> back = UnpackPosition(*packed);
  if (!back.ok() || back->fen() != position.fen()) return std::nullopt;
  return packed;
}

absl::StatusOr<TrainingPosition> UnpackPosition(absl::string_view bytes) {
  if (bytes.size() != kPackedPositionBytes)
    return absl::DataLossError("a packed position is not 32 bytes");
  const uint64_t occupied = GetLittleEndian(bytes, 0, 8);
  int codes[64] = {};
  int pieces = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (!(occupied >> sq & 1)) continue;
    if (pieces == 32) return absl::DataLossError("more than 32 pieces");
    const int code =
        (uint8_t(bytes[8 + pieces / 2]) >> (4 * (pieces % 2))) & 15;
    if (code == 0 || kPieceLetters[code] == ' ')
      return absl::DataLossError("an occupied square without a piece");
    codes[sq] = code;
    ++pieces;
  }
  const int result = uint8_t(bytes[26]);
  const int flags = uint8_t(bytes[27]);
  const int ep_file = uint8_t(bytes[28]);
  if (result > 2 || flags > 31 || ep_file > 8)
    return absl::DataLossError("a packed position's flags are out of range");
  std::string castling;
  for (int i = 0; i < 4; ++i)
    if (flags & (2 << i)) castling += kCastlingLetters[i];
  if (castling.empty()) castling = "-";
  const bool black = flags & 1;
  const std::string ep =
      ep_file == 0 ? "-"
                   : absl::StrCat(std::string(1, char('a' + ep_file - 1)),
                                  black ? "3" : "6");
  TrainingPosition p;
  p.set_fen(absl::StrCat(FenBoardField(codes), black ? " b " : " w ", castling,
                         " ", ep, " ", int(uint8_t(bytes[29])), " ",
                         GetLittleEndian(bytes, 30, 2)));
  p.set_result(result / 2.0f);
  const int score = int16_t(uint16_t(GetLittleEndian(bytes, 24, 2)));
  if (score != kNoScore) p.set_score_cp(score);
  return p;
}

}  // namespace chess
