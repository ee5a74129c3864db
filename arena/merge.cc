#include "arena/merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "arena/match_outputs.h"
#include "arena/schedule.h"
#include "arena/standings.h"
#include "common/parallel.h"
#include "common/record_io.h"
#include "google/protobuf/io/coded_stream.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::Status Invalid(absl::string_view what) {
  return absl::InvalidArgumentError(what);
}

// "3, 7, 12 and 5 more".
std::string FewOf(const std::vector<int>& values) {
  constexpr size_t kShown = 8;
  std::vector<int> shown(values.begin(),
                         values.begin() + std::min(values.size(), kShown));
  std::string text = absl::StrJoin(shown, ", ");
  if (values.size() > kShown)
    absl::StrAppend(&text, " and ", values.size() - kShown, " more");
  return text;
}

std::string ShardName(const MatchHeader& h) {
  return h.shard_count() > 0
             ? absl::StrCat("shard ", h.shard_index(), "/", h.shard_count())
             : std::string("a whole match");
}

}  // namespace

std::vector<std::string> ShardLogsIn(const std::string& dir) {
  std::vector<std::string> shards;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory(ec) &&
        entry.path().filename().string().rfind("shard-", 0) == 0 &&
        fs::exists(entry.path() / "games.log", ec)) {
      shards.push_back((entry.path() / "games.log").string());
    }
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

absl::StatusOr<std::vector<std::string>> ExpandLogPaths(
    const std::vector<std::string>& operands) {
  std::vector<std::string> paths;
  for (const std::string& operand : operands) {
    std::error_code ec;
    if (!fs::is_directory(operand, ec)) {
      paths.push_back(operand);
      continue;
    }
    if (fs::exists(fs::path(operand) / "games.log", ec)) {
      paths.push_back((fs::path(operand) / "games.log").string());
      continue;
    }
    const std::vector<std::string> shards = ShardLogsIn(operand);
    if (shards.empty()) {
      return Invalid(
          absl::StrCat(operand, ": holds no games.log, nor shard-*/games.log"));
    }
    paths.insert(paths.end(), shards.begin(), shards.end());
  }
  if (paths.empty()) return Invalid("no match logs named");
  return paths;
}

namespace {

// One log of a merge, read a batch at a time: what the merge keeps of it.
struct ShardRead {
  LogScan scan;
  std::vector<MergedGame> games;  // in log order
  absl::Time last_game_end = absl::InfinitePast();
};

absl::StatusOr<ShardRead> ReadShard(const std::string& path, int source,
                                    std::optional<Standings>* standings) {
  ShardRead read;
  absl::StatusOr<LogScan> scan = ScanLogFileAt(
      path,
      [&](const LogScan& scan) {
        // The whole match's standings, with its SPRT (a shard's has none).
        if (!*standings) standings->emplace(scan.header.config());
      },
      [&](const LogScan&, absl::Span<const GameRecord* const> games,
          absl::Span<const uint64_t> offsets) {
        for (size_t i = 0; i < games.size(); ++i) {
          const GameRecord& g = *games[i];
          read.games.push_back(MergedGame{g.index(), source, offsets[i]});
          (*standings)->Add(g);
          absl::Time end;
          if (absl::ParseTime(absl::RFC3339_full, g.end_time(), &end, nullptr))
            read.last_game_end = std::max(read.last_game_end, end);
        }
      });
  if (!scan.ok()) return scan.status();
  read.scan = *std::move(scan);
  return read;
}

// Whether a record read again is still the game a merge found there. The
// arena writes a game's index as its first field; any other record is
// parsed whole to find it.
bool HoldsGame(const std::string& payload, int index) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(payload.data()), int(payload.size()));
  uint32_t value = 0;
  if (in.ReadTag() == (GameRecord::kIndexFieldNumber << 3) &&
      in.ReadVarint32(&value))
    return int32_t(value) == index;
  GameRecord game;
  return game.ParseFromString(payload) && game.index() == index;
}

absl::Status ChangedSinceMerged(const MergedLog& merged, const MergedGame& g) {
  return absl::DataLossError(
      absl::StrCat(merged.sources[g.source], ": the record at offset ",
                   g.offset, " is no longer game ", g.index,
                   " (the log changed since it was merged); merge again"));
}

// The merge's logs, opened to read its games again where it found them.
class MergedSources {
 public:
  static absl::StatusOr<MergedSources> Open(const MergedLog& merged) {
    MergedSources sources(merged);
    for (const std::string& path : merged.sources) {
      absl::StatusOr<std::unique_ptr<RecordFileReader>> reader =
          RecordFileReader::Open(path);
      if (!reader.ok()) return reader.status();
      sources.readers_.push_back(*std::move(reader));
    }
    return sources;
  }

  // The record of game `g`, checked to be that game still.
  absl::Status Read(const MergedGame& g, std::string* payload) {
    if (absl::Status s = readers_[g.source]->ReadAt(g.offset, payload); !s.ok())
      return s;
    return HoldsGame(*payload, g.index) ? absl::OkStatus()
                                        : ChangedSinceMerged(*merged_, g);
  }

 private:
  explicit MergedSources(const MergedLog& merged) : merged_(&merged) {}
  const MergedLog* merged_;
  std::vector<std::unique_ptr<RecordFileReader>> readers_;
};

// A log that cannot join the merge: empty, damaged, or (final) torn.
absl::Status CheckShardLog(const std::string& path, const LogScan& scan,
                           bool final_merge, std::vector<std::string>* notes) {
  if (scan.empty()) return Invalid(absl::StrCat(path, ": empty log"));
  if (!scan.damage.empty()) {
    return Invalid(absl::StrCat(path, ": damaged records (",
                                absl::StrJoin(scan.damage, "; "),
                                "); nothing was merged or changed"));
  }
  if (scan.torn) {
    if (final_merge) {
      return Invalid(
          absl::StrCat(path,
                       ": ends in a torn record (the shard was interrupted); "
                       "resume it first, then merge"));
    }
    notes->push_back(
        absl::StrCat(path, ": a torn record at the end was not counted"));
  }
  return absl::OkStatus();
}

// A log whose header does not belong with the first one's.
absl::Status CheckSameMatch(const std::string& path, const MatchHeader& h,
                            const std::string& first_path,
                            const MatchHeader& first) {
  if (!SameMatch(h, first.config(), first.book_fingerprint()) ||
      h.has_book_fingerprint() != first.has_book_fingerprint()) {
    return Invalid(absl::StrCat(path, ": a different match from ", first_path,
                                " (engines, book, time control, "
                                "adjudication, seed or pairing differ)"));
  }
  if (h.shard_count() != first.shard_count()) {
    return Invalid(absl::StrCat(path, ": ", ShardName(h), ", but ", first_path,
                                " is ", ShardName(first)));
  }
  if (h.scheduled_games() != first.scheduled_games()) {
    return Invalid(
        absl::StrCat(path, ": scheduled for ", h.scheduled_games(), " games, ",
                     first_path, " for ", first.scheduled_games(),
                     "; resume every shard with the same games or rounds"));
  }
  return absl::OkStatus();
}

// The shards that no log holds: noted, or an error for a final merge.
absl::Status CheckShardsPresent(const std::vector<std::string>& paths,
                                const std::map<int, std::string>& shard_source,
                                const MatchHeader& first, bool final_merge,
                                MergedLog* merged) {
  for (int s = 0; s < first.shard_count(); ++s) {
    if (shard_source.count(s)) continue;
    const std::string note =
        absl::StrCat("shard ", s, "/", first.shard_count(), " is missing: its ",
                     ShardSize(first.scheduled_games(), s, first.shard_count(),
                               GamesPerRound(first.config())),
                     " games are in no log");
    if (final_merge) {
      return Invalid(absl::StrCat(note,
                                  " (logs given: ", absl::StrJoin(paths, ", "),
                                  "); nothing was merged or changed"));
    }
    merged->notes.push_back(note);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MergedLog> MergeLogs(const std::vector<std::string>& paths,
                                    bool final_merge) {
  if (paths.empty()) return Invalid("no match logs to merge");
  MergedLog merged;
  std::map<int, std::string> game_source;  // index -> file
  std::map<int, std::string> shard_source;
  std::optional<MatchHeader> first;
  // One standings for every log: its counts do not depend on the order.
  std::optional<Standings> standings;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    absl::StatusOr<ShardRead> read = ReadShard(path, int(i), &standings);
    if (!read.ok()) return read.status();
    if (absl::Status s =
            CheckShardLog(path, read->scan, final_merge, &merged.notes);
        !s.ok())
      return s;
    const MatchHeader& h = read->scan.header;
    if (!first) {
      first = h;
    } else if (absl::Status s = CheckSameMatch(path, h, paths[0], *first);
               !s.ok()) {
      return s;
    }
    if (h.shard_count() > 0) {
      auto [at, fresh] = shard_source.emplace(h.shard_index(), path);
      if (!fresh) {
        return Invalid(
            absl::StrCat(path, ": ", ShardName(h), " is also ", at->second));
      }
    }
    std::vector<int> twice;
    std::string other;
    for (const MergedGame& g : read->games) {
      auto [at, fresh] = game_source.emplace(g.index, path);
      if (!fresh) {
        twice.push_back(g.index);
        other = at->second;
      }
    }
    if (!twice.empty()) {
      return Invalid(absl::StrCat(path, ": games ", FewOf(twice),
                                  " are also in ", other,
                                  "; nothing was merged or changed"));
    }
    merged.sources.push_back(path);
    merged.progress.push_back(SourceProgress{
        .shard_index = h.shard_count() > 0 ? h.shard_index() : -1,
        .games = int(read->games.size()),
        .scheduled = h.shard_count() > 0
                         ? ShardSize(h.scheduled_games(), h.shard_index(),
                                     h.shard_count(), GamesPerRound(h.config()))
                         : h.scheduled_games()});
    merged.start_times.push_back(h.start_time());
    merged.games.insert(merged.games.end(), read->games.begin(),
                        read->games.end());
    merged.last_game_end = std::max(merged.last_game_end, read->last_game_end);
  }

  MatchHeader& header = merged.header;
  header = *first;
  header.clear_shard_index();
  header.clear_shard_count();
  header.clear_merged_from();
  std::sort(merged.games.begin(), merged.games.end(),
            [](const MergedGame& a, const MergedGame& b) {
              return a.index < b.index;
            });
  LogScan whole;
  whole.header = header;
  merged.summary = SummarizeScan(whole, *standings);
  for (int i = 0; i < header.scheduled_games(); ++i)
    if (!game_source.count(i)) merged.missing_games.push_back(i);
  if (absl::Status s =
          CheckShardsPresent(paths, shard_source, *first, final_merge, &merged);
      !s.ok())
    return s;
  if (!merged.missing_games.empty()) {
    merged.notes.push_back(absl::StrCat(
        merged.missing_games.size(),
        " scheduled games are in no log: ", FewOf(merged.missing_games)));
  }
  return merged;
}

absl::StatusOr<LogScan> ScanMerged(const MergedLog& merged, StartScan start,
                                   TakeGames take) {
  absl::StatusOr<MergedSources> sources = MergedSources::Open(merged);
  if (!sources.ok()) return sources.status();
  LogScan scan;
  scan.header = merged.header;
  start(scan);
  // Checked when merged: read again, each record need only be the same game.
  constexpr size_t kBatch = 256;
  std::vector<std::string> payloads(kBatch);
  std::vector<GameRecord> games(kBatch);
  std::vector<const GameRecord*> batch;
  for (size_t first = 0; first < merged.games.size(); first += kBatch) {
    const size_t n = std::min(kBatch, merged.games.size() - first);
    for (size_t i = 0; i < n; ++i) {
      if (absl::Status s = sources->Read(merged.games[first + i], &payloads[i]);
          !s.ok())
        return s;
    }
    std::vector<bool> parsed(n);
    ForEachSlice(n, n < 64 ? 1 : CoreCount(),
                 [&](size_t, size_t begin, size_t end) {
                   for (size_t i = begin; i < end; ++i)
                     parsed[i] = games[i].ParseFromString(payloads[i]);
                 });
    batch.clear();
    for (size_t i = 0; i < n; ++i) {
      if (!parsed[i])
        return ChangedSinceMerged(merged, merged.games[first + i]);
      batch.push_back(&games[i]);
    }
    scan.game_records += n;
    take(scan, batch);
  }
  return scan;
}

namespace {

// One line a shard: index, node, games of its share, state.
std::string FormatShards(const MergedLog& merged,
                         const std::map<int, ShardRun>& runs) {
  bool decided = false;
  for (const PairingSummary& pairing : merged.summary.pairings()) {
    decided |= pairing.sprt_verdict() == SPRT_ACCEPT_H0 ||
               pairing.sprt_verdict() == SPRT_ACCEPT_H1;
  }
  std::string text;
  for (const SourceProgress& p : merged.progress) {
    if (p.shard_index < 0) continue;
    const auto run = runs.find(p.shard_index);
    const int starts = run == runs.end() ? 0 : run->second.starts;
    std::string state = p.games >= p.scheduled ? "done"
                        : decided              ? "stopped: the SPRT is decided"
                        : starts > 1           ? "requeued, running again"
                                               : "running";
    if (starts > 1) absl::StrAppend(&state, " (started ", starts, " times)");
    absl::StrAppendFormat(
        &text, "  shard %d  %-12s %d of %d games  %s\n", p.shard_index,
        run == runs.end() || run->second.node.empty() ? "-" : run->second.node,
        p.games, p.scheduled, state);
  }
  return text.empty() ? text : "shards:\n" + text;
}

}  // namespace

std::string FormatProgress(const MergedLog& merged, absl::Time now,
                           const std::map<int, ShardRun>& runs) {
  const MatchSummary& summary = merged.summary;
  const int done = int(merged.games.size());
  const int scheduled = merged.header.scheduled_games();
  std::string text = absl::StrFormat(
      "%d of %d games played, %d missing, from %d logs\n", done, scheduled,
      int(merged.missing_games.size()), int(merged.sources.size()));
  absl::Time start = absl::InfiniteFuture();
  for (const std::string& t : merged.start_times) {
    absl::Time parsed;
    if (absl::ParseTime(absl::RFC3339_full, t, &parsed, nullptr))
      start = std::min(start, parsed);
  }
  // A finished match is timed to its last game, a running one to now.
  const absl::Time end =
      merged.missing_games.empty() ? merged.last_game_end : now;
  const double hours = absl::ToDoubleHours(end - start);
  if (start != absl::InfiniteFuture() && hours > 0 && done > 0) {
    const double per_hour = done / hours;
    absl::StrAppendFormat(&text, "%.0f games/hour since the first start",
                          per_hour);  // every shard's games, all machines
    const int left = int(merged.missing_games.size());
    if (left > 0) {
      absl::StrAppendFormat(&text, ", ETA %.1f min for %d games",
                            60.0 * left / per_hour, left);
    }
    text += "\n";
  }
  text += FormatShards(merged, runs);
  for (const std::string& note : merged.notes)
    absl::StrAppend(&text, note, "\n");
  return text + FormatSummary(summary);
}

absl::StatusOr<MatchSummary> WriteMerge(const MergedLog& merged,
                                        const std::string& output_dir) {
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  if (ec || !fs::is_directory(output_dir, ec)) {
    return absl::InternalError(
        absl::StrCat(output_dir, ": cannot create the output directory"));
  }
  const std::string log_path = (fs::path(output_dir) / "games.log").string();
  if (absl::StatusOr<MatchHeader> old = ReadLogHeader(log_path);
      old.ok() && old->has_config() && old->merged_from_size() == 0) {
    return Invalid(absl::StrCat(log_path,
                                ": a match log, not a merge; merge into "
                                "another output_dir"));
  } else if (!old.ok() && !absl::IsNotFound(old.status())) {
    return Invalid(absl::StrCat(old.status().message(),
                                "; merge into another output_dir"));
  }
  MatchHeader header = merged.header;
  for (const std::string& source : merged.sources)
    header.add_merged_from(source);
  // The records as the shards wrote them, copied in schedule order.
  absl::StatusOr<MergedSources> sources = MergedSources::Open(merged);
  if (!sources.ok()) return sources.status();
  if (absl::Status s = ReplaceRecordFileWith(
          log_path,
          [&](RecordWriter& log) {
            if (absl::Status s = log.WriteUnsynced(header.SerializeAsString());
                !s.ok())
              return s;
            std::string payload;
            for (const MergedGame& g : merged.games) {
              if (absl::Status s = sources->Read(g, &payload); !s.ok())
                return s;
              if (absl::Status s = log.WriteUnsynced(payload); !s.ok())
                return s;
            }
            return absl::OkStatus();
          });
      !s.ok()) {
    return s;
  }
  // Read back as any log is: what the PGN and report show is what it holds.
  MatchSummary summary = merged.summary;
  if (absl::Status s = WriteDerivedFiles(output_dir, log_path, &summary);
      !s.ok()) {
    return s;
  }
  return summary;
}

}  // namespace chess
