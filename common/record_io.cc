#include "common/record_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <utility>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

#include "absl/strings/str_cat.h"
#include "common/files.h"

namespace chess {
namespace {

constexpr absl::string_view kMagic = "chess-harness records v1\n";

constexpr std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (c & 1 ? 0x82F63B78u : 0);
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();

uint32_t LoadLe32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | uint8_t(p[i]);
  return v;
}

void StoreLe32(uint32_t v, char* p) {
  for (int i = 0; i < 4; ++i) p[i] = char(v >> (8 * i));
}

// Length, checksum, payload.
std::string Frame(absl::string_view payload) {
  std::string frame(8, '\0');
  StoreLe32(uint32_t(payload.size()), &frame[0]);
  StoreLe32(Crc32c(payload), &frame[4]);
  frame.append(payload.data(), payload.size());
  return frame;
}

struct FrameCheck {
  bool intact = false;
  uint32_t length = 0;
};

FrameCheck CheckFrame(absl::string_view data, size_t at) {
  if (at + 8 > data.size()) return {};
  const uint32_t length = LoadLe32(&data[at]);
  if (length > kMaxRecordBytes || length > data.size() - at - 8) return {};
  const uint32_t crc = LoadLe32(&data[at + 4]);
  return {Crc32c(data.substr(at + 8, length)) == crc, length};
}

// Where the next intact record starts after damage at `at`, or the end of the
// data. The damaged frame's own length is tried first: a flipped bit in a
// payload leaves it right, and the next frame follows at once.
size_t NextIntactFrame(absl::string_view data, size_t at) {
  if (at + 8 <= data.size()) {
    const uint64_t skip = uint64_t(at) + 8 + LoadLe32(&data[at]);
    if (skip == data.size()) return data.size();
    if (skip < data.size() && CheckFrame(data, size_t(skip)).intact)
      return size_t(skip);
  }
  for (size_t p = at + 1; p + 8 <= data.size(); ++p) {
    if (CheckFrame(data, p).intact) return p;
  }
  return data.size();
}

// An interrupted append leaves the start of a frame: a header or a payload
// that the file ends inside of. A whole frame with a wrong checksum is damage.
bool IsTornTail(absl::string_view data, size_t at) {
  if (at + 8 > data.size()) return true;
  const uint32_t length = LoadLe32(&data[at]);
  return uint64_t(at) + 8 + length > data.size();
}

// The frames of `data` from `at` on, offsets within `data`: intact records,
// damage between them, and a torn tail (left out of valid_bytes).
void ParseFrames(absl::string_view data, size_t at, RecordFile* file) {
  while (at < data.size()) {
    if (const FrameCheck frame = CheckFrame(data, at); frame.intact) {
      file->records.emplace_back(data.substr(at + 8, frame.length));
      file->offsets.push_back(at);
      at += 8 + frame.length;
      file->valid_bytes = at;
      continue;
    }
    const size_t next = NextIntactFrame(data, at);
    if (next == data.size() && IsTornTail(data, at)) break;
    file->damaged.push_back(DamagedRegion{at, next - at});
    at = next;
    file->valid_bytes = at;
  }
}

}  // namespace

uint32_t Crc32c(absl::string_view data) {
  uint32_t crc = ~0u;
  const char* p = data.data();
  size_t n = data.size();
#if defined(__SSE4_2__)
  // The CPU's own CRC-32C instruction, 8 bytes at a time: a 400 MB log is
  // checked in tens of milliseconds instead of most of a second.
  uint64_t crc64 = crc;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    crc64 = _mm_crc32_u64(crc64, word);
  }
  crc = uint32_t(crc64);
  for (; n > 0; ++p, --n) crc = _mm_crc32_u8(crc, uint8_t(*p));
#else
  for (; n > 0; ++p, --n)
    crc = kCrcTable[(crc ^ uint8_t(*p)) & 0xff] ^ (crc >> 8);
#endif
  return ~crc;
}

absl::StatusOr<RecordFile> ReadRecordFile(const std::string& path) {
  absl::StatusOr<std::string> data = ReadFile(path);
  if (!data.ok()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return data.status();
  }
  auto owned = std::make_unique<std::string>(std::move(*data));
  absl::StatusOr<RecordFile> file = ParseRecordFile(*owned, path);
  if (file.ok()) file->data = std::move(owned);
  return file;
}

absl::StatusOr<RecordFile> ParseRecordFile(absl::string_view data,
                                           absl::string_view name) {
  RecordFile file;
  file.file_bytes = data.size();
  if (data.size() < kMagic.size() && kMagic.substr(0, data.size()) == data) {
    return file;  // torn while writing the magic: empty
  }
  if (data.substr(0, kMagic.size()) != kMagic) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": not a record file of this harness (bad magic)"));
  }
  file.valid_bytes = kMagic.size();
  ParseFrames(data, kMagic.size(), &file);
  return file;
}

absl::StatusOr<std::unique_ptr<RecordScanner>> RecordScanner::OpenFile(
    const std::string& path, size_t window_bytes) {
  std::unique_ptr<RecordScanner> scanner(new RecordScanner(path));
  scanner->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (scanner->fd_ < 0) {
    if (errno == ENOENT)
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return ErrnoError("cannot open", path);
  }
  // A small file gets a small window: no 8 MiB to clear for a few games.
  // (A file that grows meanwhile is read on as the window is refilled.)
  struct stat info;
  if (::fstat(scanner->fd_, &info) == 0 && info.st_size >= 0)
    window_bytes = std::min<size_t>(window_bytes, size_t(info.st_size) + 4096);
  scanner->buffer_.resize(std::max<size_t>(window_bytes, kMagic.size()));
  if (absl::Status s = scanner->Start(); !s.ok()) return s;
  return scanner;
}

absl::StatusOr<std::unique_ptr<RecordScanner>> RecordScanner::OverData(
    absl::string_view data, absl::string_view name, size_t window_bytes) {
  std::unique_ptr<RecordScanner> scanner(new RecordScanner(std::string(name)));
  scanner->source_ = data;
  if (window_bytes >= data.size()) {
    scanner->whole_ = true;
    scanner->window_size_ = data.size();
    scanner->eof_ = true;
  } else {
    scanner->buffer_.resize(std::max<size_t>(window_bytes, kMagic.size()));
  }
  if (absl::Status s = scanner->Start(); !s.ok()) return s;
  return scanner;
}

RecordScanner::~RecordScanner() {
  if (fd_ >= 0) ::close(fd_);
}

absl::Status RecordScanner::Start() {
  if (absl::Status s = Fill(kMagic.size()); !s.ok()) return s;
  const absl::string_view start = Window().substr(0, kMagic.size());
  if (start.size() < kMagic.size() && kMagic.substr(0, start.size()) == start) {
    file_bytes_ = start.size();
    ended_ = true;  // torn while writing the magic: empty
    return absl::OkStatus();
  }
  if (start != kMagic) {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ": not a record file of this harness (bad magic)"));
  }
  begin_ = kMagic.size();
  valid_bytes_ = kMagic.size();
  return absl::OkStatus();
}

absl::string_view RecordScanner::Window() const {
  return absl::string_view(whole_ ? source_.data() : buffer_.data(),
                           window_size_);
}

absl::StatusOr<size_t> RecordScanner::Read(char* to, size_t n) {
  if (fd_ < 0) {
    const absl::string_view part = source_.substr(source_read_, n);
    std::memcpy(to, part.data(), part.size());
    source_read_ += part.size();
    return part.size();
  }
  for (;;) {
    const ssize_t got = ::read(fd_, to, n);
    if (got >= 0) return size_t(got);
    if (errno != EINTR) return ErrnoError("cannot read", name_);
  }
}

absl::Status RecordScanner::Fill(size_t need) {
  if (eof_) return absl::OkStatus();
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_,
                 window_size_ - begin_);
    base_ += begin_;
    window_size_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() < need) buffer_.resize(need);
  while (window_size_ < buffer_.size()) {
    absl::StatusOr<size_t> got =
        Read(buffer_.data() + window_size_, buffer_.size() - window_size_);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      eof_ = true;
      break;
    }
    window_size_ += *got;
  }
  return absl::OkStatus();
}

absl::Status RecordScanner::ReadRest() {
  rest_base_ = base_ + begin_;
  const absl::string_view unread = Window().substr(begin_);
  rest_.assign(unread.data(), unread.size());
  if (!eof_) {
    char chunk[1 << 16];
    for (;;) {
      absl::StatusOr<size_t> got = Read(chunk, sizeof(chunk));
      if (!got.ok()) return got.status();
      if (*got == 0) break;
      rest_.append(chunk, *got);
    }
  }
  ParseFrames(rest_, 0, &rest_file_);
  for (const DamagedRegion& d : rest_file_.damaged)
    damaged_.push_back(DamagedRegion{rest_base_ + d.offset, d.bytes});
  valid_bytes_ = rest_base_ + rest_file_.valid_bytes;
  file_bytes_ = rest_base_ + rest_.size();
  in_rest_ = true;
  return absl::OkStatus();
}

absl::Status RecordScanner::Next(size_t max_records,
                                 std::vector<ScannedRecord>* records) {
  records->clear();
  while (records->size() < max_records && !ended_) {
    if (in_rest_) {
      if (rest_next_ == rest_file_.records.size()) {
        ended_ = true;
        break;
      }
      records->push_back(
          ScannedRecord{rest_file_.records[rest_next_],
                        rest_base_ + rest_file_.offsets[rest_next_]});
      ++rest_next_;
      continue;
    }
    const absl::string_view window = Window();
    const size_t available = window.size() - begin_;
    const uint32_t length = available >= 8 ? LoadLe32(&window[begin_]) : 0;
    const bool whole_frame =
        available >= 8 && length <= kMaxRecordBytes && 8 + length <= available;
    if (!whole_frame && !eof_ && (available < 8 || length <= kMaxRecordBytes)) {
      // Records already given point into the window: refill on the next call.
      if (!records->empty()) break;
      if (absl::Status s = Fill(available < 8 ? 8 : 8 + size_t(length));
          !s.ok())
        return s;
      continue;
    }
    if (!whole_frame || Crc32c(window.substr(begin_ + 8, length)) !=
                            LoadLe32(&window[begin_ + 4])) {
      if (available == 0) {  // the end, every frame intact
        file_bytes_ = base_ + window.size();
        ended_ = true;
        break;
      }
      // Damage or a torn tail: where it ends depends on what follows, so
      // the rest is read whole and parsed as ParseRecordFile parses it.
      if (absl::Status s = ReadRest(); !s.ok()) return s;
      continue;
    }
    records->push_back(
        ScannedRecord{window.substr(begin_ + 8, length), base_ + begin_});
    begin_ += 8 + length;
    valid_bytes_ = base_ + begin_;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<RecordFileReader>> RecordFileReader::Open(
    const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return ErrnoError("cannot open", path);
  }
  return std::unique_ptr<RecordFileReader>(new RecordFileReader(fd, path));
}

RecordFileReader::~RecordFileReader() { ::close(fd_); }

absl::Status RecordFileReader::ReadAt(uint64_t offset, std::string* payload) {
  auto read_at = [&](char* to, size_t n, uint64_t at) -> absl::Status {
    while (n > 0) {
      const ssize_t got = ::pread(fd_, to, n, off_t(at));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return ErrnoError("cannot read", path_);
      if (got == 0) {
        return absl::DataLossError(
            absl::StrCat(path_, ": the record at offset ", offset,
                         " is gone (the file changed since it was read)"));
      }
      to += got;
      n -= size_t(got);
      at += uint64_t(got);
    }
    return absl::OkStatus();
  };
  char header[8];
  if (absl::Status s = read_at(header, sizeof(header), offset); !s.ok())
    return s;
  const uint32_t length = LoadLe32(header);
  if (length > kMaxRecordBytes) {
    return absl::DataLossError(
        absl::StrCat(path_, ": no record at offset ", offset,
                     " (the file changed since it was read)"));
  }
  payload->resize(length);
  if (absl::Status s = read_at(payload->data(), length, offset + 8); !s.ok())
    return s;
  if (Crc32c(*payload) != LoadLe32(header + 4)) {
    return absl::DataLossError(absl::StrCat(
        path_, ": the record at offset ", offset,
        " fails its checksum (the file changed since it was read)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<RecordReader> RecordReader::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    if (errno == ENOENT)
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return ErrnoError("cannot open", path);
  }
  RecordReader reader(file, path);
  struct stat info;
  if (::fstat(::fileno(file), &info) == 0 && S_ISDIR(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory, not a file"));
  }
  std::string magic(kMagic.size(), '\0');
  const size_t got = std::fread(magic.data(), 1, magic.size(), file);
  magic.resize(got);
  if (got < kMagic.size() && kMagic.substr(0, got) == magic) {
    return reader;  // torn while writing the magic: empty
  }
  if (magic != kMagic) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a record file of this harness (bad magic)"));
  }
  reader.valid_bytes_ = kMagic.size();
  return reader;
}

RecordReader::RecordReader(RecordReader&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)),
      path_(std::move(other.path_)),
      valid_bytes_(other.valid_bytes_) {}

RecordReader& RecordReader::operator=(RecordReader&& other) noexcept {
  if (this != &other) {
    if (file_ != nullptr) std::fclose(file_);
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    valid_bytes_ = other.valid_bytes_;
  }
  return *this;
}

RecordReader::~RecordReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool RecordReader::EndAtTornRecord() {
  struct stat info;
  if (::fstat(::fileno(file_), &info) == 0 &&
      uint64_t(info.st_size) > valid_bytes_) {
    torn_bytes_ = uint64_t(info.st_size) - valid_bytes_;
  }
  return false;
}

absl::StatusOr<bool> RecordReader::Next(std::string* payload) {
  if (valid_bytes_ == 0) return false;  // empty: not even the magic
  char header[8];
  const size_t got = std::fread(header, 1, sizeof(header), file_);
  if (got < sizeof(header)) {
    if (std::ferror(file_)) return ErrnoError("cannot read", path_);
    return got == 0 ? false : EndAtTornRecord();  // the end, or a torn header
  }
  const uint32_t length = LoadLe32(header);
  if (length > kMaxRecordBytes) {
    return absl::DataLossError(absl::StrCat(path_, ": damaged at byte ",
                                            valid_bytes_, " (a record of ",
                                            length, " bytes)"));
  }
  payload->resize(length);
  if (std::fread(payload->data(), 1, length, file_) < length) {
    if (std::ferror(file_)) return ErrnoError("cannot read", path_);
    return EndAtTornRecord();
  }
  if (Crc32c(*payload) != LoadLe32(header + 4)) {
    return absl::DataLossError(absl::StrCat(
        path_, ": damaged at byte ", valid_bytes_, " (checksum mismatch)"));
  }
  valid_bytes_ += sizeof(header) + length;
  return true;
}

absl::StatusOr<uint64_t> ReplaceRecordFile(
    const std::string& path, const std::vector<std::string>& records) {
  std::string data(kMagic);
  for (const std::string& payload : records) data += Frame(payload);
  if (absl::Status s = WriteFileAtomically(path, data); !s.ok()) return s;
  return data.size();
}

absl::Status ReplaceRecordFileWith(
    const std::string& path,
    absl::FunctionRef<absl::Status(RecordWriter&)> write) {
  // A special file (/dev/null, a pipe) is written in place, never renamed
  // over.
  const bool in_place = IsSpecialFile(path);
  const std::string temp = in_place ? path : path + ".tmp";
  absl::Status written = [&]() -> absl::Status {
    absl::StatusOr<RecordWriter> writer = RecordWriter::Create(temp);
    if (!writer.ok()) return writer.status();
    if (absl::Status s = write(*writer); !s.ok()) return s;
    return writer->Sync();
  }();
  if (in_place) return written;
  if (written.ok() && ::rename(temp.c_str(), path.c_str()) != 0)
    written = ErrnoError("cannot rename over it", path);
  if (!written.ok()) {
    ::unlink(temp.c_str());
    return written;
  }
  SyncDirectoryOf(path);
  return absl::OkStatus();
}

absl::StatusOr<RecordWriter> RecordWriter::Create(const std::string& path) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", path);
  RecordWriter writer(fd, path);
  if (absl::Status s = WriteAllToFd(fd, kMagic, path); !s.ok()) return s;
  if (!SyncFd(fd)) return ErrnoError("fsync failed", path);
  return writer;
}

absl::StatusOr<RecordWriter> RecordWriter::Append(const std::string& path,
                                                  uint64_t valid_bytes) {
  if (valid_bytes < kMagic.size()) return Create(path);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open", path);
  RecordWriter writer(fd, path);
  if (::ftruncate(fd, off_t(valid_bytes)) != 0)
    return ErrnoError("cannot cut torn tail", path);
  if (::lseek(fd, off_t(valid_bytes), SEEK_SET) < 0)
    return ErrnoError("seek failed", path);
  return writer;
}

RecordWriter::RecordWriter(RecordWriter&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

RecordWriter& RecordWriter::operator=(RecordWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

RecordWriter::~RecordWriter() {
  if (fd_ >= 0) ::close(fd_);
}

absl::Status RecordWriter::Write(absl::string_view payload) {
  if (absl::Status s = WriteUnsynced(payload); !s.ok()) return s;
  return Sync();
}

absl::Status RecordWriter::WriteUnsynced(absl::string_view payload) {
  return WriteAllToFd(fd_, Frame(payload), path_);
}

absl::Status RecordWriter::Sync() {
  if (!SyncFd(fd_, /*data_only=*/true))
    return ErrnoError("fdatasync failed", path_);
  return absl::OkStatus();
}

absl::Status SharedRecordWriter::Write(absl::string_view payload) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!failed_.ok()) return failed_;
  if (absl::Status s = writer_.WriteUnsynced(payload); !s.ok()) {
    failed_ = s;
    return s;
  }
  const uint64_t mine = ++written_;
  while (synced_ < mine && failed_.ok()) {
    if (syncing_) {
      synced_cv_.wait(lock);
      continue;
    }
    syncing_ = true;
    const uint64_t covered = written_;
    lock.unlock();
    absl::Status s = writer_.Sync();
    lock.lock();
    syncing_ = false;
    if (s.ok()) {
      synced_ = covered;
    } else {
      failed_ = s;
    }
    synced_cv_.notify_all();
  }
  return failed_;
}

}  // namespace chess
