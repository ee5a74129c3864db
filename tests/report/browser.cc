#include "tests/report/browser.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<std::string> FindInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path ? path : "/usr/bin:/bin", ':')) {
    const fs::path candidate = fs::path(std::string(dir)) / name;
    std::error_code ec;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

}  // namespace

std::optional<Browser> Browser::Find(const std::string& scratch_dir,
                                     std::string* why) {
  std::optional<std::string> binary;
  if (const char* env = std::getenv("CHROMIUM"); env && *env) binary = env;
  for (const char* name : {"chromium", "chromium-browser"})
    if (!binary) binary = FindInPath(name);
  // Bazel's test environment has a short PATH.
  if (!binary && fs::exists("/usr/bin/chromium")) binary = "/usr/bin/chromium";
  if (!binary) {
    *why =
        "no chromium in PATH (Debian package chromium; .ci/deps installs it)";
    return std::nullopt;
  }
  fs::create_directories(scratch_dir);
  Browser browser(*binary, scratch_dir);
  const std::string probe = (fs::path(scratch_dir) / "probe.html").string();
  std::ofstream(probe) << "<p id=\"ok\">ok</p>";
  const LoadedPage page = browser.Load(FileUrl(probe));
  if (page.exit_code != 0 || !absl::StrContains(page.dom, "id=\"ok\"")) {
    *why = absl::StrCat(*binary, " cannot start here (exit code ",
                        page.exit_code, ")");
    return std::nullopt;
  }
  return browser;
}

std::string Browser::Command(const std::string& extra) const {
  return absl::StrCat(
      "HOME=", Quote(scratch_), " ", Quote(binary_),
      " --headless --no-sandbox --disable-gpu --no-first-run"
      " --disable-dev-shm-usage --hide-scrollbars --user-data-dir=",
      Quote((fs::path(scratch_) / "profile").string()),
      " --enable-logging=stderr --v=0 --virtual-time-budget=5000 ", extra);
}

LoadedPage Browser::Load(const std::string& url) const {
  const std::string dom = (fs::path(scratch_) / "dom.html").string();
  const std::string log = (fs::path(scratch_) / "browser.log").string();
  LoadedPage page;
  const int status =
      std::system(absl::StrCat(Command("--dump-dom " + Quote(url)), " > ",
                               Quote(dom), " 2> ", Quote(log))
                      .c_str());
  page.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  page.dom = Slurp(dom);
  for (absl::string_view line : absl::StrSplit(Slurp(log), '\n'))
    if (absl::StrContains(line, ":CONSOLE")) page.console.emplace_back(line);
  return page;
}

bool Browser::Screenshot(const std::string& url, const std::string& png,
                         int width, int height, double scale) const {
  std::error_code ec;
  fs::remove(png, ec);
  std::system(absl::StrCat(Command(absl::StrCat(
                               "--window-size=", width, ",", height,
                               " --force-device-scale-factor=", scale,
                               " --screenshot=", Quote(png), " ", Quote(url))),
                           " > /dev/null 2>&1")
                  .c_str());
  return fs::exists(png, ec) && fs::file_size(png, ec) > 1000;
}

std::optional<std::string> TextOfId(const std::string& dom,
                                    const std::string& id) {
  const std::string key = absl::StrCat("id=\"", id, "\"");
  size_t at = dom.find(key);
  if (at == std::string::npos) return std::nullopt;
  at = dom.find('>', at);
  if (at == std::string::npos) return std::nullopt;
  const size_t end = dom.find('<', at);
  std::string text = dom.substr(at + 1, end - at - 1);
  // The DOM dump escapes these in text.
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"&lt;", "<"},
        {"&gt;", ">"},
        {"&quot;", "\""},
        {"&#39;", "'"},
        {"&amp;", "&"}}) {
    for (size_t p = text.find(from); p != std::string::npos;
         p = text.find(from, p + to.size()))
      text.replace(p, from.size(), to);
  }
  return text;
}

std::string FileUrl(const std::string& path) {
  return "file://" + fs::absolute(path).lexically_normal().string();
}

}  // namespace chess
