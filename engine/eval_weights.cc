#include "engine/eval_weights.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace chess {
namespace {

constexpr const char* kPieceNames[6] = {"pawn", "knight", "bishop",
                                        "rook", "queen",  "king"};

using PstField = google::protobuf::RepeatedField<int32_t>;

const PstField& PstOf(const PieceSquareTables& t, int piece) {
  switch (piece) {
    case kPawn:
      return t.pawn();
    case kKnight:
      return t.knight();
    case kBishop:
      return t.bishop();
    case kRook:
      return t.rook();
    case kQueen:
      return t.queen();
    default:
      return t.king();
  }
}

PstField* MutablePstOf(PieceSquareTables* t, int piece) {
  switch (piece) {
    case kPawn:
      return t->mutable_pawn();
    case kKnight:
      return t->mutable_knight();
    case kBishop:
      return t->mutable_bishop();
    case kRook:
      return t->mutable_rook();
    case kQueen:
      return t->mutable_queen();
    default:
      return t->mutable_king();
  }
}

int ValueOf(const PieceValues& v, int piece) {
  const int values[6] = {v.pawn(), v.knight(), v.bishop(),
                         v.rook(), v.queen(),  v.king()};
  return values[piece];
}

void SetValue(PieceValues* v, int piece, int value) {
  switch (piece) {
    case kPawn:
      v->set_pawn(value);
      break;
    case kKnight:
      v->set_knight(value);
      break;
    case kBishop:
      v->set_bishop(value);
      break;
    case kRook:
      v->set_rook(value);
      break;
    case kQueen:
      v->set_queen(value);
      break;
    default:
      v->set_king(value);
      break;
  }
}

// Weights beyond this are surely typos, and large sums could overflow the
// search's scores.
constexpr int kMaxWeight = 5000;

}  // namespace

absl::StatusOr<EvalWeights> EvalWeights::FromProto(const EvalParams& params) {
  EvalWeights w;
  const PieceValues* values[2] = {&params.value_mg(), &params.value_eg()};
  const PieceSquareTables* psts[2] = {&params.pst_mg(), &params.pst_eg()};
  const char* phase_names[2] = {"mg", "eg"};
  for (int phase = 0; phase < 2; ++phase) {
    for (int piece = 0; piece < 6; ++piece) {
      int value = ValueOf(*values[phase], piece);
      if (piece != kKing && (value < 0 || value > kMaxWeight)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "eval.value_", phase_names[phase], ".", kPieceNames[piece], " = ",
            value, " is outside [0, ", kMaxWeight, "]"));
      }
      // Both kings are always on the board, so the king's value cancels out.
      w.weight[phase][kValueFeatures + piece] = piece == kKing ? 0 : value;
      const PstField& table = PstOf(*psts[phase], piece);
      if (table.size() != 0 && table.size() != 64) {
        return absl::InvalidArgumentError(absl::StrCat(
            "eval.pst_", phase_names[phase], ".", kPieceNames[piece], " has ",
            table.size(), " entries, expected 64 (or none)"));
      }
      for (int i = 0; i < table.size(); ++i) {
        if (std::abs(table[i]) > kMaxWeight) {
          return absl::InvalidArgumentError(absl::StrCat(
              "eval.pst_", phase_names[phase], ".", kPieceNames[piece], "[", i,
              "] = ", table[i], " is outside [-", kMaxWeight, ", ", kMaxWeight,
              "]"));
        }
        w.weight[phase][kPstFeatures + piece * 64 + i] = table[i];
      }
    }
  }
  for (int tempo : {params.tempo_mg(), params.tempo_eg()}) {
    if (std::abs(int64_t(tempo)) > kMaxWeight) {
      return absl::InvalidArgumentError(
          absl::StrCat("eval.tempo_mg/tempo_eg = ", tempo, " is outside [-",
                       kMaxWeight, ", ", kMaxWeight, "]"));
    }
  }
  w.weight[kMg][kTempoFeature] = params.tempo_mg();
  w.weight[kEg][kTempoFeature] = params.tempo_eg();
  for (int i = 0; i < params.terms_size(); ++i) {
    const TermWeight& term = params.terms(i);
    int found = -1;
    for (int t = 0; t < kNumEvalTerms; ++t) {
      if (term.name() == EvalTermName(t)) found = t;
    }
    if (found < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "eval.terms[", i, "].name: \"", term.name(),
          "\" is not a term (mobility.knight, passed.rank5, king.shield, ...: "
          "engine/eval_terms.h)"));
    }
    if (std::abs(int64_t(term.mg())) > kMaxWeight ||
        std::abs(int64_t(term.eg())) > kMaxWeight) {
      return absl::InvalidArgumentError(absl::StrCat(
          "eval.terms[", i, "] (", term.name(),
          "): mg and eg must be within [-", kMaxWeight, ", ", kMaxWeight, "]"));
    }
    w.weight[kMg][kTermFeatures + found] = term.mg();
    w.weight[kEg][kTermFeatures + found] = term.eg();
  }
  w.phase_weight = {0,
                    params.phase_knight(),
                    params.phase_bishop(),
                    params.phase_rook(),
                    params.phase_queen(),
                    0};
  for (int p : w.phase_weight) {
    if (p < 0 || p > kMaxPhase) {
      return absl::InvalidArgumentError(
          absl::StrCat("eval.phase_* must be in [0, ", kMaxPhase, "]"));
    }
  }
  return w;
}

EvalParams EvalWeights::ToProto() const {
  EvalParams params;
  PieceValues* values[2] = {params.mutable_value_mg(),
                            params.mutable_value_eg()};
  PieceSquareTables* psts[2] = {params.mutable_pst_mg(),
                                params.mutable_pst_eg()};
  for (int phase = 0; phase < 2; ++phase) {
    for (int piece = 0; piece < 6; ++piece) {
      SetValue(values[phase], piece, weight[phase][kValueFeatures + piece]);
      PstField* table = MutablePstOf(psts[phase], piece);
      for (int i = 0; i < 64; ++i) {
        table->Add(weight[phase][kPstFeatures + piece * 64 + i]);
      }
    }
  }
  params.set_tempo_mg(weight[kMg][kTempoFeature]);
  params.set_tempo_eg(weight[kEg][kTempoFeature]);
  for (int t = 0; t < kNumEvalTerms; ++t) {
    const int mg = weight[kMg][kTermFeatures + t];
    const int eg = weight[kEg][kTermFeatures + t];
    if (mg == 0 && eg == 0) continue;  // a config without terms stays so
    TermWeight* term = params.add_terms();
    term->set_name(EvalTermName(t));
    term->set_mg(mg);
    term->set_eg(eg);
  }
  params.set_phase_knight(phase_weight[kKnight]);
  params.set_phase_bishop(phase_weight[kBishop]);
  params.set_phase_rook(phase_weight[kRook]);
  params.set_phase_queen(phase_weight[kQueen]);
  return params;
}

std::string EvalWeights::FeatureName(int feature) {
  if (feature < kPstFeatures) {
    return absl::StrCat("value.", kPieceNames[feature - kValueFeatures]);
  }
  if (feature < kTempoFeature) {
    int piece = (feature - kPstFeatures) / 64;
    int index = (feature - kPstFeatures) % 64;
    return absl::StrCat("pst.", kPieceNames[piece], ".",
                        SquareName(Flip(index)));
  }
  if (feature == kTempoFeature) return "tempo";
  return EvalTermName(feature - kTermFeatures);
}

bool EvalWeights::FindWeight(absl::string_view name, int* feature,
                             Phase* phase) {
  if (absl::ConsumeSuffix(&name, ".mg")) {
    *phase = kMg;
  } else if (absl::ConsumeSuffix(&name, ".eg")) {
    *phase = kEg;
  } else {
    return false;
  }
  for (int f = 0; f < kNumFeatures; ++f) {
    if (FeatureName(f) == name) {
      *feature = f;
      return true;
    }
  }
  return false;
}

int GamePhase(const Position& pos, const std::array<int, 6>& phase_weight) {
  int phase = 0;
  for (int piece = kKnight; piece <= kQueen; ++piece) {
    phase += phase_weight[piece] * PopCount(pos.pieces(PieceType(piece)));
  }
  return std::min(phase, kMaxPhase);
}

std::vector<FeatureCount> CountFeatures(const Position& pos) {
  int counts[kNumFeatures] = {};
  for (Bitboard b = pos.occupied(); b;) {
    Square s = PopLowest(b);
    Piece p = pos.piece_on(s);
    int sign = ColorOf(p) == kWhite ? 1 : -1;
    counts[kValueFeatures + TypeOf(p)] += sign;
    counts[kPstFeatures + TypeOf(p) * 64 + PstIndex(ColorOf(p), s)] += sign;
  }
  counts[kTempoFeature] = pos.side_to_move() == kWhite ? 1 : -1;
  const std::array<int, kNumEvalTerms> terms = CountEvalTerms(pos);
  for (int t = 0; t < kNumEvalTerms; ++t) counts[kTermFeatures + t] = terms[t];
  std::vector<FeatureCount> result;
  for (int f = 0; f < kNumFeatures; ++f) {
    if (counts[f]) result.push_back({f, counts[f]});
  }
  return result;
}

}  // namespace chess
