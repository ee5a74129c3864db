#include "arena/merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "arena/match.h"
#include "arena/schedule.h"
#include "arena/standings.h"
#include "common/parallel.h"
#include "common/record_io.h"

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

absl::StatusOr<MergedLog> MergeLogs(const std::vector<std::string>& paths,
                                    bool final_merge) {
  if (paths.empty()) return Invalid("no match logs to merge");
  MergedLog merged;
  std::map<int, std::string> game_source;  // index -> file
  std::map<int, std::string> shard_source;
  const MatchHeader* first = nullptr;
  // Read and checked on every core: replaying each game's moves dominates.
  std::vector<absl::StatusOr<LogContents>> read(paths.size());
  ForEachIndex(paths.size(), CoreCount(),
               [&](size_t i) { read[i] = ReadLog(paths[i]); });
  std::vector<LogContents> logs;
  logs.reserve(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    absl::StatusOr<LogContents>& log = read[i];
    if (!log.ok()) return log.status();
    if (log->empty()) return Invalid(absl::StrCat(path, ": empty log"));
    if (!log->damage.empty()) {
      return Invalid(absl::StrCat(path, ": damaged records (",
                                  absl::StrJoin(log->damage, "; "),
                                  "); nothing was merged or changed"));
    }
    if (log->torn) {
      if (final_merge) {
        return Invalid(
            absl::StrCat(path,
                         ": ends in a torn record (the shard was interrupted); "
                         "resume it first, then merge"));
      }
      merged.notes.push_back(
          absl::StrCat(path, ": a torn record at the end was not counted"));
    }
    logs.push_back(*std::move(log));
  }
  for (size_t i = 0; i < logs.size(); ++i) {
    const LogContents& log = logs[i];
    const std::string& path = paths[i];
    const MatchHeader& h = log.header;
    if (!first) {
      first = &h;
    } else if (!SameMatch(h, first->config(), first->book_fingerprint()) ||
               h.has_book_fingerprint() != first->has_book_fingerprint()) {
      return Invalid(absl::StrCat(path, ": a different match from ", paths[0],
                                  " (engines, book, time control, "
                                  "adjudication, seed or pairing differ)"));
    } else if (h.shard_count() != first->shard_count()) {
      return Invalid(absl::StrCat(path, ": ", ShardName(h), ", but ", paths[0],
                                  " is ", ShardName(*first)));
    } else if (h.scheduled_games() != first->scheduled_games()) {
      return Invalid(
          absl::StrCat(path, ": scheduled for ", h.scheduled_games(),
                       " games, ", paths[0], " for ", first->scheduled_games(),
                       "; resume every shard with the same games or rounds"));
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
    for (const GameRecord& g : log.games) {
      auto [at, fresh] = game_source.emplace(g.index(), path);
      if (!fresh) {
        twice.push_back(g.index());
        other = at->second;
      }
    }
    if (!twice.empty()) {
      return Invalid(absl::StrCat(path, ": games ", FewOf(twice),
                                  " are also in ", other,
                                  "; nothing was merged or changed"));
    }
    merged.sources.push_back(path);
    merged.start_times.push_back(h.start_time());
  }

  MatchHeader& header = merged.log.header;
  header = *first;
  header.clear_shard_index();
  header.clear_shard_count();
  header.clear_merged_from();
  for (const LogContents& log : logs)
    for (const GameRecord& g : log.games) merged.log.games.push_back(g);
  std::sort(merged.log.games.begin(), merged.log.games.end(),
            [](const GameRecord& a, const GameRecord& b) {
              return a.index() < b.index();
            });
  for (int i = 0; i < header.scheduled_games(); ++i)
    if (!game_source.count(i)) merged.missing_games.push_back(i);
  if (first->shard_count() > 0) {
    std::vector<int> absent;
    for (int s = 0; s < first->shard_count(); ++s)
      if (!shard_source.count(s)) absent.push_back(s);
    for (int s : absent) {
      const std::string note = absl::StrCat(
          "shard ", s, "/", first->shard_count(), " is missing: its ",
          ShardSize(header.scheduled_games(), s, first->shard_count()),
          " games are in no log");
      if (final_merge) {
        return Invalid(
            absl::StrCat(note, " (logs given: ", absl::StrJoin(paths, ", "),
                         "); nothing was merged or changed"));
      }
      merged.notes.push_back(note);
    }
  }
  if (!merged.missing_games.empty()) {
    merged.notes.push_back(absl::StrCat(
        merged.missing_games.size(),
        " scheduled games are in no log: ", FewOf(merged.missing_games)));
  }
  return merged;
}

std::string FormatProgress(const MergedLog& merged, absl::Time now) {
  const MatchSummary summary = SummarizeLog(merged.log);
  const int done = int(merged.log.games.size());
  const int scheduled = merged.log.header.scheduled_games();
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
  absl::Time end = now;
  if (merged.missing_games.empty()) {
    end = absl::InfinitePast();
    for (const GameRecord& g : merged.log.games) {
      absl::Time t;
      if (absl::ParseTime(absl::RFC3339_full, g.end_time(), &t, nullptr))
        end = std::max(end, t);
    }
  }
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
  if (absl::StatusOr<LogContents> old = ReadLog(log_path);
      old.ok() && !old->empty() && old->header.merged_from_size() == 0) {
    return Invalid(absl::StrCat(log_path,
                                ": a match log, not a merge; merge into "
                                "another output_dir"));
  } else if (!old.ok() && !absl::IsNotFound(old.status())) {
    return Invalid(absl::StrCat(old.status().message(),
                                "; merge into another output_dir"));
  }
  MatchHeader header = merged.log.header;
  for (const std::string& source : merged.sources)
    header.add_merged_from(source);
  std::vector<std::string> records = {header.SerializeAsString()};
  for (const GameRecord& g : merged.log.games)
    records.push_back(g.SerializeAsString());
  if (absl::StatusOr<uint64_t> size = ReplaceRecordFile(log_path, records);
      !size.ok()) {
    return size.status();
  }
  MatchSummary summary = SummarizeLog(merged.log);
  if (absl::Status s = WriteDerivedFiles(output_dir, merged.log, &summary);
      !s.ok()) {
    return s;
  }
  return summary;
}

}  // namespace chess
