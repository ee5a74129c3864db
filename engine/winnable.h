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

// The share, out of kFullWinnable, of `strong`'s end-game advantage that
// survives in endings where the side ahead has few pawns left or the bishops
// are of opposite colours (Stockfish's classical scale factors): with
// opposite-coloured bishops, 22 if the bishops are the only pieces, else 22 +
// 3 per man (king and pawns included) of `strong`; otherwise 36 + 7 per pawn
// of `strong`, so that an edge without pawns to promote keeps a bit over
// half. At most kFullWinnable.
int EndgameShare(const Position& pos, Color strong);

// `score` (the side to move's) scaled as a tapered evaluation scales its end
// game part: by EndgameShare of whoever it favours when only kings and pawns
// are left, not at all with every piece on the board, and in between in
// proportion to the game phase (minor piece 1, rook 2, queen 4, of 24).
int ScaleByEndgame(const Position& pos, int score);

}  // namespace chess

#endif  // ENGINE_WINNABLE_H_
