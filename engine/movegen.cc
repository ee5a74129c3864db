#include "engine/movegen.h"

#include <algorithm>

namespace chess {

bool MoveList::Contains(Move m) const {
  return std::find(begin(), end(), m) != end();
}

}  // namespace chess
