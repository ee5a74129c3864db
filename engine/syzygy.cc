#include "engine/syzygy.h"

#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <tbprobe.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "absl/algorithm/container.h"
#include "absl/base/thread_annotations.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "engine/bitboard.h"
#include "engine/movegen.h"

// The sanitizers' hook (weak: absent from a build without them), which a
// fuzzer uses to record a crash as its finding.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void))
    __attribute__((weak));

namespace chess::syzygy {
namespace {

// Fathom's tables are process-wide; so is what guards them.
struct Tables {
  absl::Mutex mutex;
  TableSet loaded ABSL_GUARDED_BY(mutex);
  // loaded.largest, for the search's cheap test before it takes the lock.
  std::atomic<int> largest{0};
  // The private directory of links Fathom loaded (empty: none).
  std::string link_dir ABSL_GUARDED_BY(mutex);
};

void RemoveLinks(const std::string& dir);

Tables& TheTables() {
  static Tables* const tables = [] {
    std::atexit([] {
      Tables& t = TheTables();
      // A search may still hold the lock at exit: the links then stay.
      if (t.mutex.TryLock()) {
        RemoveLinks(t.link_dir);
        t.mutex.Unlock();
      }
    });
    return new Tables;
  }();
  return *tables;
}

// Fathom's inputs for a position: the bitboards it takes.
struct FathomPosition {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned ep;
  bool white_to_move;
};

FathomPosition ToFathom(const Position& pos) {
  const Square ep = pos.en_passant_square();
  return {pos.pieces(kWhite),
          pos.pieces(kBlack),
          pos.pieces(kKing),
          pos.pieces(kQueen),
          pos.pieces(kRook),
          pos.pieces(kBishop),
          pos.pieces(kKnight),
          pos.pieces(kPawn),
          ep == kNoSquare ? 0u : unsigned(ep),
          pos.side_to_move() == kWhite};
}

Wdl FromFathomWdl(unsigned wdl) {
  switch (wdl) {
    case TB_LOSS:
      return Wdl::kLoss;
    case TB_BLESSED_LOSS:
      return Wdl::kBlessedLoss;
    case TB_CURSED_WIN:
      return Wdl::kCursedWin;
    case TB_WIN:
      return Wdl::kWin;
    default:
      return Wdl::kDraw;
  }
}

// Fathom's root scores: a win or a loss within the 50-move rule scores beyond
// this; a cursed win or blessed loss below it, but not 0.
constexpr int32_t kFathomDecisive = TB_VALUE_MATE - 2 * TB_MAX_MATE_PLY;

Wdl FromRootScore(int32_t score) {
  if (score >= kFathomDecisive) return Wdl::kWin;
  if (score > 0) return Wdl::kCursedWin;
  if (score <= -kFathomDecisive) return Wdl::kLoss;
  if (score < 0) return Wdl::kBlessedLoss;
  return Wdl::kDraw;
}

// Fathom's move (from, to, promotion piece) among the legal moves.
std::optional<Move> FindMove(const MoveList& legal, TbMove tb_move) {
  static constexpr PieceType kPromotions[] = {kNoPieceType, kQueen, kRook,
                                              kBishop, kKnight};
  const Square from = TB_MOVE_FROM(tb_move), to = TB_MOVE_TO(tb_move);
  const unsigned promotes = TB_MOVE_PROMOTES(tb_move);
  for (Move m : legal) {
    if (m.from() != from || m.to() != to) continue;
    const PieceType promotion =
        m.is_promotion() ? m.promotion_type() : kNoPieceType;
    if (promotes < 5 && promotion == kPromotions[promotes]) return m;
  }
  return std::nullopt;
}

// A legal position of `stem`'s material (the first side White's) with the
// side to move given, its pieces placed at random from `*state`, for probing
// a table; nullopt when no placement was legal within the tries.
std::optional<Position> RandomPosition(absl::string_view stem, bool white_moves,
                                       uint64_t* state) {
  const size_t v = stem.find('v');
  for (int attempt = 0; attempt < 100; ++attempt) {
    char board[64];
    std::fill(board, board + 64, '.');
    bool placed = true;
    for (size_t i = 0; i < stem.size() && placed; ++i) {
      if (i == v) continue;
      const bool white = i < v;
      const char piece = white ? stem[i] : char(stem[i] - 'A' + 'a');
      const bool pawn = stem[i] == 'P';
      placed = false;
      for (int tries = 0; tries < 64 && !placed; ++tries) {
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        const int square = int((*state >> 33) % 64);
        const int rank = square / 8;
        if (board[square] != '.' || (pawn && (rank == 0 || rank == 7)))
          continue;
        board[square] = piece;
        placed = true;
      }
    }
    if (!placed) continue;
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < 8; ++file) {
        const char c = board[rank * 8 + file];
        if (c == '.') {
          ++empty;
          continue;
        }
        if (empty) fen += char('0' + empty);
        empty = 0;
        fen += c;
      }
      if (empty) fen += char('0' + empty);
      if (rank) fen += '/';
    }
    absl::StrAppend(&fen, white_moves ? " w" : " b", " - - 0 1");
    if (absl::StatusOr<Position> pos = Position::FromFen(fen); pos.ok())
      return *pos;
  }
  return std::nullopt;
}

// Probes `table` as the search would, at positions of its material: what
// makes Fathom read it.
void ProbeSample(const TableFile& table, int positions, uint64_t seed) {
  const std::string stem = table.name.substr(0, table.name.find('.'));
  auto root_moves = std::make_unique<TbRootMoves>();
  for (int i = 0; i < positions; ++i) {
    const std::optional<Position> pos = RandomPosition(stem, i % 2 == 0, &seed);
    if (!pos) continue;
    const FathomPosition f = ToFathom(*pos);
    if (table.dtz) {
      tb_probe_root_dtz(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
                        f.knights, f.pawns, 0, 0, f.ep, f.white_to_move, false,
                        true, root_moves.get());
    } else {
      tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
                   f.knights, f.pawns, 0, 0, f.ep, f.white_to_move);
    }
  }
}

// Positions probed in each table before it is trusted, and how long probing
// one may take.
constexpr int kPositionsPerTable = 64;
constexpr int kSecondsPerTable = 10;

// Memory handed out and back in many sizes: glibc's allocator checks its
// lists as it goes, so a table whose loading wrote past Fathom's buffers
// ends the child here rather than passing.
void StirTheHeap() {
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 256; ++i) {
    // Small blocks from the free lists, large ones (to 124 KB, below the
    // allocator's mmap threshold) from the top of the heap.
    const size_t size = i % 2 ? size_t(16 + (i * 97) % 4096) : size_t(i) * 496;
    blocks.emplace_back(new char[size + 1]);
    blocks.back()[0] = 0;
    if (i % 3 == 0) blocks[size_t(i / 2)].reset();
  }
}

// In the checking child, Fathom's malloc and free are redirected to blocks
// that end at an inaccessible page (as Electric Fence places them): a damaged
// header that makes Fathom write past a buffer then faults in the child at
// once, where with glibc's heap it would spoil memory the engine reads later.
constexpr uint64_t kFencedMagic = 0x5a7e9c3b11d4f08dULL;

// A fenced block is preceded by its mapping's length, the magic number and the
// mapping's address; the magic number sits where glibc's blocks have their
// chunk header, so FencedFree can tell the two apart by it alone.
struct FenceHeader {
  size_t bytes;
  uint64_t magic;
  void* mapping;
};
static_assert(sizeof(FenceHeader) - offsetof(FenceHeader, magic) == 16,
              "the magic number 16 bytes before the block");

void* FencedMalloc(size_t size) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  const size_t rounded = (size + 15) & ~size_t(15);
  const size_t pages = (rounded + sizeof(FenceHeader) + page - 1) / page;
  const size_t bytes = (pages + 1) * page;
  void* mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  char* const fence = static_cast<char*>(mapping) + pages * page;
  mprotect(fence, page, PROT_NONE);
  char* const block = fence - rounded;
  const FenceHeader header{bytes, kFencedMagic, mapping};
  std::memcpy(block - sizeof(header), &header, sizeof(header));
  return block;
}

void FencedFree(void* pointer) {
  if (pointer == nullptr) return;
  char* const block = static_cast<char*>(pointer);
  uint64_t magic;
  // Before glibc's own blocks lie their chunk headers: readable, never this
  // 64-bit constant in practice.
  std::memcpy(&magic, block - 16, sizeof(magic));
  if (magic != kFencedMagic) {
    free(pointer);  // the parent's Fathom tables, freed by tb_init
    return;
  }
  FenceHeader header;
  std::memcpy(&header, block - sizeof(header), sizeof(header));
  munmap(header.mapping, header.bytes);
}

// Points libfathom's GOT entries of malloc and free at the fenced ones.
int RedirectAllocation(dl_phdr_info* info, size_t, void*) {
  if (info->dlpi_name == nullptr ||
      std::strstr(info->dlpi_name, "libfathom") == nullptr)
    return 0;
  const ElfW(Addr) base = info->dlpi_addr;
  const auto absolute = [base](ElfW(Addr) address) {
    return address < base ? address + base : address;
  };
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dynamic =
          reinterpret_cast<const ElfW(Dyn)*>(base + info->dlpi_phdr[i].p_vaddr);
  }
  if (dynamic == nullptr) return 1;
  const ElfW(Rela)* relocations = nullptr;
  size_t relocation_bytes = 0;
  const ElfW(Sym)* symbols = nullptr;
  const char* names = nullptr;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_JMPREL)
      relocations =
          reinterpret_cast<const ElfW(Rela)*>(absolute(d->d_un.d_ptr));
    if (d->d_tag == DT_PLTRELSZ) relocation_bytes = d->d_un.d_val;
    if (d->d_tag == DT_SYMTAB)
      symbols = reinterpret_cast<const ElfW(Sym)*>(absolute(d->d_un.d_ptr));
    if (d->d_tag == DT_STRTAB)
      names = reinterpret_cast<const char*>(absolute(d->d_un.d_ptr));
  }
  if (!relocations || !symbols || !names) return 1;
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  for (size_t i = 0; i < relocation_bytes / sizeof(ElfW(Rela)); ++i) {
    const char* name =
        names + symbols[ELF64_R_SYM(relocations[i].r_info)].st_name;
    void* replacement = std::strcmp(name, "malloc") == 0
                            ? reinterpret_cast<void*>(&FencedMalloc)
                        : std::strcmp(name, "free") == 0
                            ? reinterpret_cast<void*>(&FencedFree)
                            : nullptr;
    if (replacement == nullptr) continue;
    void** slot = reinterpret_cast<void**>(base + relocations[i].r_offset);
    // The table is read-only after loading (RELRO): writable in this child.
    void* slot_page = reinterpret_cast<void*>(
        reinterpret_cast<uintptr_t>(slot) / page * page);
    if (mprotect(slot_page, page, PROT_READ | PROT_WRITE) == 0)
      *slot = replacement;
  }
  return 1;
}

// The child's side of Survives: loads Fathom from `dir`, probes `table` and
// exits 0 when that went well.
[[noreturn]] void ProbeInChild(const std::string& dir, const TableFile& table,
                               int fd) {
  // A fault is the answer here, not a report: the default actions, not the
  // handlers of a sanitizer or fuzzer this process may run under.
  for (int fault : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE})
    ::signal(fault, SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
  if (!tb_init(dir.c_str())) _exit(1);
  // After tb_init, whose allocations are many and small: a table's buffers
  // are allocated when it is first probed.
  dl_iterate_phdr(RedirectAllocation, nullptr);
  ProbeSample(table, kPositionsPerTable, 0x5eed);
  StirTheHeap();
  const char done = 1;
  if (write(fd, &done, 1) != 1) _exit(1);
  _exit(0);
}

// Whether probing `table` (linked into `dir` beside the tables already proven)
// goes well in a child process, since a damaged table can crash Fathom, spoil
// its memory or make it spin; otherwise why not.
absl::Status Survives(const std::string& dir, const TableFile& table) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return absl::UnavailableError("no pipe for its check");
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    ProbeInChild(dir, table, fds[1]);
  }
  close(fds[1]);
  if (child < 0) {
    close(fds[0]);
    return absl::UnavailableError("no process for its check");
  }
  pollfd wait_for{fds[0], POLLIN, 0};
  const bool answered = poll(&wait_for, 1, kSecondsPerTable * 1000) > 0;
  char done = 0;
  const bool passed = answered && read(fds[0], &done, 1) == 1 && done == 1;
  close(fds[0]);
  if (!answered) kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  if (!answered) {
    return absl::DataLossError(absl::StrCat(
        "damaged (probing it did not end within ", kSecondsPerTable, " s)"));
  }
  if (passed && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return absl::OkStatus();
  return absl::DataLossError(
      WIFSIGNALED(status) ? absl::StrCat("damaged (probing it crashed, signal ",
                                         WTERMSIG(status), ")")
                          : "damaged (probing it failed)");
}

// Links into `dir` each of `tables` (fewest pieces first, so that a table's
// captures reach tables already proven) that Survives; the others are named
// in `skipped`. Returns the tables linked.
std::vector<TableFile> LinkProvenTables(const std::string& dir,
                                        std::vector<TableFile> tables,
                                        std::vector<std::string>* skipped) {
  std::vector<TableFile> kept;
  for (TableFile& table : tables) {
    std::error_code error;
    const std::filesystem::path link = std::filesystem::path(dir) / table.name;
    std::filesystem::create_symlink(
        std::filesystem::absolute(table.path, error), link, error);
    if (absl::Status s = Survives(dir, table); !s.ok()) {
      skipped->push_back(
          absl::StrCat("\"", table.path, "\" skipped: ", s.message()));
      std::filesystem::remove(link, error);
      continue;
    }
    kept.push_back(std::move(table));
  }
  return kept;
}

constexpr absl::string_view kLinkDirectoryPrefix = "chess-harness-syzygy-";

// Whether `dir` holds nothing but symbolic links: the links of ours, never a
// directory someone else named alike.
bool HoldsOnlyLinks(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (!entry.is_symlink(error)) return false;
  }
  return !error;
}

// The link directories of processes that ended without removing theirs
// (killed, or ended while a search held the tables). Each directory is named
// after its process: PREFIX PID-XXXXXX.
void RemoveStaleLinkDirectories(const std::string& root) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
    std::string name = entry.path().filename().string();
    absl::string_view rest = name;
    if (!absl::ConsumePrefix(&rest, kLinkDirectoryPrefix) ||
        entry.is_symlink(error) || !entry.is_directory(error)) {
      continue;
    }
    const std::vector<absl::string_view> parts = absl::StrSplit(rest, '-');
    int pid = 0;
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &pid) || pid <= 0 ||
        pid == ::getpid()) {
      continue;
    }
    const bool alive = ::kill(pid, 0) == 0 || errno == EPERM;
    if (!alive && HoldsOnlyLinks(entry.path()))
      std::filesystem::remove_all(entry.path(), error);
  }
}

// A new private directory, for the links to the tables Fathom loads.
absl::StatusOr<std::string> MakeLinkDirectory() {
  const char* tmp = std::getenv("TMPDIR");
  const std::string root = tmp && *tmp ? tmp : "/tmp";
  RemoveStaleLinkDirectories(root);
  std::string dir =
      absl::StrCat(root, "/", kLinkDirectoryPrefix, ::getpid(), "-XXXXXX");
  if (mkdtemp(dir.data()) == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot make a directory for the tables' links in \"",
                     dir.substr(0, dir.rfind('/')), "\""));
  }
  return dir;
}

void RemoveLinks(const std::string& dir) {
  if (dir.empty()) return;
  std::error_code error;
  std::filesystem::remove_all(dir, error);
}

// A fault inside Fathom while it probes: a table damaged where the probes of
// its check did not reach. The probe is abandoned (siglongjmp out of Fathom,
// which holds no lock of its own) and the tables are turned off; a fault
// anywhere else goes to the handler that was there before.
constexpr int kFaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
thread_local sigjmp_buf* fathom_fault_jump = nullptr;

struct PreviousFaultActions {
  struct sigaction actions[NSIG];
};
PreviousFaultActions& ThePreviousFaultActions() {
  static PreviousFaultActions* const previous = new PreviousFaultActions;
  return *previous;
}

void OnFault(int signal, siginfo_t*, void*) {
  if (sigjmp_buf* jump = fathom_fault_jump) {
    fathom_fault_jump = nullptr;
    siglongjmp(*jump, signal);
  }
  // Not Fathom's: the previous handler gets the fault when the instruction
  // runs again.
  sigaction(signal, &ThePreviousFaultActions().actions[signal], nullptr);
}

void CatchFathomFaults() {
  static const bool installed = [] {
    struct sigaction action = {};
    action.sa_sigaction = OnFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int fault : kFaults)
      sigaction(fault, &action, &ThePreviousFaultActions().actions[fault]);
    return true;
  }();
  (void)installed;
}

// A stack for the fault handler of this thread, where it has none: a damaged
// table can make Fathom recurse until the thread's own stack is gone.
class SignalStack {
 public:
  SignalStack() {
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE))
      return;  // one of a sanitizer's, or the program's
    memory_ = std::make_unique<char[]>(kBytes);
    stack_t ours = {};
    ours.ss_sp = memory_.get();
    ours.ss_size = kBytes;
    sigaltstack(&ours, nullptr);
  }
  ~SignalStack() {
    if (!memory_) return;
    stack_t off = {};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  }

 private:
  static constexpr size_t kBytes = 64 * 1024;
  std::unique_ptr<char[]> memory_;
};

void EnsureSignalStack() { thread_local SignalStack stack; }

// Runs `probe` (calls into Fathom); the signal number of a fault inside it, or
// 0. Called with the tables' lock held.
template <typename Probe>
int GuardedProbe(const Probe& probe) {
  EnsureSignalStack();
  sigjmp_buf jump;
  if (const int signal = sigsetjmp(jump, 1); signal != 0) return signal;
  fathom_fault_jump = &jump;
  probe();
  fathom_fault_jump = nullptr;
  return 0;
}

// After a fault: no more probes until other tables are loaded.
void TurnOffAfterFault(Tables& tables, int signal)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(tables.mutex) {
  tables.largest = 0;
  tables.loaded.largest = 0;
  tables.loaded.skipped.push_back(
      absl::StrCat("every table turned off: probing faulted in Fathom (signal ",
                   signal, "), a table is damaged"));
}

}  // namespace

absl::StatusOr<TableSet> Load(absl::string_view paths) {
  absl::StatusOr<std::vector<std::string>> directories = Directories(paths);
  if (!directories.ok()) {
    return absl::NotFoundError(absl::StrCat("Syzygy path ",
                                            directories.status().message(),
                                            " (SyzygyPath \"", paths, "\")"));
  }
  Tables& tables = TheTables();
  absl::MutexLock lock(&tables.mutex);
  if (tables.loaded.paths == paths) return tables.loaded;
  CatchFathomFaults();
  TableScan scan = ScanDirectories(*directories);
  std::stable_sort(scan.tables.begin(), scan.tables.end(),
                   [](const TableFile& a, const TableFile& b) {
                     return a.pieces < b.pieces;
                   });
  absl::StatusOr<std::string> dir = MakeLinkDirectory();
  if (!dir.ok()) return dir.status();
  const std::vector<TableFile> kept =
      LinkProvenTables(*dir, std::move(scan.tables), &scan.skipped);
  const bool loaded = tb_init(dir->c_str());
  RemoveLinks(tables.link_dir);
  tables.link_dir = *dir;
  if (!loaded) {
    tables.loaded = TableSet();
    tables.largest = 0;
    return absl::InternalError(
        absl::StrCat("Fathom could not load the tables of \"", paths, "\""));
  }
  const int wdl_tables = int(absl::c_count_if(
      kept, [](const TableFile& table) { return !table.dtz; }));
  tables.loaded = TableSet{std::string(paths), wdl_tables, int(TB_LARGEST),
                           std::move(scan.skipped)};
  tables.largest = tables.loaded.largest;
  return tables.loaded;
}

TableSet Loaded() {
  Tables& tables = TheTables();
  absl::ReaderMutexLock lock(&tables.mutex);
  return tables.loaded;
}

bool Probeable(const Position& pos, int max_pieces) {
  const int pieces = PopCount(pos.occupied());
  return pos.castling_rights() == 0 && pieces <= max_pieces &&
         pieces <= TheTables().largest.load(std::memory_order_relaxed);
}

std::optional<Wdl> ProbeWdl(const Position& pos) {
  if (pos.halfmove_clock() != 0 || pos.castling_rights() != 0) {
    return std::nullopt;
  }
  const FathomPosition f = ToFathom(pos);
  Tables& tables = TheTables();
  // Exclusive: Debian's Fathom has no locks of its own (it is built with
  // TB_NO_THREADS: libfathom imports no mutex) and loads a table on its first
  // probe, so two probes at once could both load it.
  absl::MutexLock lock(&tables.mutex);
  if (PopCount(pos.occupied()) > tables.largest.load()) return std::nullopt;
  unsigned result = TB_RESULT_FAILED;
  if (const int fault = GuardedProbe([&] {
        result = tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks,
                              f.bishops, f.knights, f.pawns, 0, 0, f.ep,
                              f.white_to_move);
      })) {
    TurnOffAfterFault(tables, fault);
    return std::nullopt;
  }
  if (result == TB_RESULT_FAILED) return std::nullopt;
  return FromFathomWdl(result);
}

std::optional<RootRanking> RankRootMoves(const Position& pos, bool has_repeated,
                                         bool use_rule50) {
  if (pos.castling_rights() != 0) return std::nullopt;
  const MoveList legal = LegalMoves(pos);
  if (legal.empty()) return std::nullopt;
  const FathomPosition f = ToFathom(pos);
  auto ranked = std::make_unique<TbRootMoves>();
  bool by_dtz = true;
  {
    // Fathom's root probes share state between calls: one at a time.
    Tables& tables = TheTables();
    absl::MutexLock lock(&tables.mutex);
    if (PopCount(pos.occupied()) > tables.largest.load()) return std::nullopt;
    bool ranked_by_any = false;
    if (const int fault = GuardedProbe([&] {
          by_dtz = tb_probe_root_dtz(
              f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
              f.knights, f.pawns, unsigned(pos.halfmove_clock()), 0, f.ep,
              f.white_to_move, has_repeated, use_rule50, ranked.get());
          ranked_by_any =
              by_dtz ||
              tb_probe_root_wdl(f.white, f.black, f.kings, f.queens, f.rooks,
                                f.bishops, f.knights, f.pawns,
                                unsigned(pos.halfmove_clock()), 0, f.ep,
                                f.white_to_move, use_rule50, ranked.get());
        })) {
      TurnOffAfterFault(tables, fault);
      return std::nullopt;
    }
    if (!ranked_by_any) return std::nullopt;
  }
  if (ranked->size == 0) return std::nullopt;
  int32_t best_rank = ranked->moves[0].tbRank;
  int32_t best_score = ranked->moves[0].tbScore;
  for (unsigned i = 1; i < ranked->size; ++i) {
    if (ranked->moves[i].tbRank > best_rank) {
      best_rank = ranked->moves[i].tbRank;
      best_score = ranked->moves[i].tbScore;
    }
  }
  RootRanking ranking;
  ranking.by_dtz = by_dtz;
  ranking.value = FromRootScore(best_score);
  std::vector<Move> best;
  for (unsigned i = 0; i < ranked->size; ++i) {
    if (ranked->moves[i].tbRank != best_rank) continue;
    if (const std::optional<Move> m = FindMove(legal, ranked->moves[i].move))
      best.push_back(*m);
  }
  for (Move m : legal)
    if (absl::c_linear_search(best, m)) ranking.best_moves.push_back(m);
  if (ranking.best_moves.empty()) return std::nullopt;
  return ranking;
}

Wdl WithRule50(Wdl wdl, bool use_rule50) {
  if (use_rule50) {
    if (wdl == Wdl::kCursedWin || wdl == Wdl::kBlessedLoss) return Wdl::kDraw;
    return wdl;
  }
  if (wdl == Wdl::kCursedWin) return Wdl::kWin;
  if (wdl == Wdl::kBlessedLoss) return Wdl::kLoss;
  return wdl;
}

}  // namespace chess::syzygy
