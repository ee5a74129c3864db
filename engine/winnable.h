// Endings the side ahead cannot win, or seldom can: how much of its advantage
// the evaluation keeps. A piece up with no pawns left is no win, however many
// pawns' worth the material counts say it is.
#ifndef ENGINE_WINNABLE_H_
#define ENGINE_WINNABLE_H_

#include "engine/position.h"
#include "engine/types.h"

namespace chess {

inline constexpr int kFullWinnable = 64;

// The share, out of kFullWinnable, of `strong`'s advantage it can hope to
// turn into a win. Without pawns, an edge of at most a minor piece keeps
// nothing when `strong` has less than a rook (a lone minor piece), 4 when the
// defender has at most a minor piece left (rook against minor), 14 otherwise
// (rook and minor against rook); two knights against a bare king keep nothing.
// Everything else keeps kFullWinnable.
int WinnableShare(const Position& pos, Color strong);

// `score` (the side to move's) scaled by the winnable share of whoever it
// favours.
int ScaleByWinnable(const Position& pos, int score);

}  // namespace chess

#endif  // ENGINE_WINNABLE_H_
