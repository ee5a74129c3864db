// The tuner's commands that run tunings and report on them: spsa, loop and
// report.
#include <ostream>
#include <string>
#include <vector>

#include "common/exit_code.h"
#include "common/files.h"
#include "tuner/command_helpers.h"
#include "tuner/commands.h"
#include "tuner/loop.h"
#include "tuner/report.h"
#include "tuner/spsa.h"

namespace chess {

int SpsaCommand(const TuningRunRequest& request, std::ostream& out,
                std::ostream& err) {
  auto run = TuningRunFrom<SpsaConfig>("spsa", request);
  if (!run.ok()) return Fail(run.status(), err);
  const std::string state = CommandLinePath(request.state);
  const std::string work = CommandLinePath(request.work_dir);
  if (state.empty() || work.empty()) {
    return Fail(absl::InvalidArgumentError("spsa needs --state and --work_dir"),
                err);
  }
  run->venue.run_dir = work;  // one copy of the arena for every iteration
  if (absl::Status s =
          RunSpsa(run->config, run->dir, state, work, out, run->venue);
      !s.ok())
    return Fail(s, err);
  return kExitOk;
}

int LoopCommand(const TuningRunRequest& request, std::ostream& out,
                std::ostream& err) {
  const auto run = OutputRunFrom<LoopConfig>("loop", request);
  if (!run.ok()) return Fail(run.status(), err);
  auto report =
      RunLoop(run->config, run->dir, run->output_dir, err, run->venue);
  if (!report.ok()) return Fail(report.status(), err);
  out << FormatLoopReport(*report);
  return kExitOk;
}

int TuningReportCommand(const std::vector<std::string>& operands,
                        const std::string& out_path, std::ostream& out,
                        std::ostream& err) {
  if (operands.size() != 1) {
    return Fail(absl::InvalidArgumentError("report needs one loop output "
                                           "directory, texel record or SPSA "
                                           "state"),
                err);
  }
  const std::string input = CommandLinePath(operands[0]);
  auto report = MakeTuningReport(input);
  if (!report.ok()) return Fail(report.status(), err);
  std::string html = CommandLinePath(out_path);
  if (html.empty()) html = report->default_path;
  if (absl::Status s = CheckReportPath(input, html); !s.ok())
    return Fail(s, err);
  if (auto s = WriteFileAtomically(html, report->html); !s.ok())
    return Fail(s, err);
  out << html << " (" << report->kind << ")\n";
  return kExitOk;
}

}  // namespace chess
