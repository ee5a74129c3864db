// Headless Chromium for the report tests: loads a page from file://, returns
// the DOM after its scripts ran and every console message, takes screenshots.
#ifndef TESTS_REPORT_BROWSER_H_
#define TESTS_REPORT_BROWSER_H_

#include <optional>
#include <string>
#include <vector>

namespace chess {

struct LoadedPage {
  std::string dom;
  std::vector<std::string> console;  // "CONSOLE" lines of the browser's log
  int exit_code = 0;
};

class Browser {
 public:
  // $CHROMIUM, else chromium or chromium-browser in PATH; nullopt (with the
  // reason in `why`) when none can start.
  static std::optional<Browser> Find(const std::string& scratch_dir,
                                     std::string* why);

  LoadedPage Load(const std::string& url) const;
  // Writes a PNG of the page laid out at `width` x `height` CSS pixels and
  // drawn at `scale` device pixels each; false if none appeared.
  bool Screenshot(const std::string& url, const std::string& png, int width,
                  int height, double scale = 1) const;

 private:
  Browser(std::string binary, std::string scratch)
      : binary_(std::move(binary)), scratch_(std::move(scratch)) {}
  std::string Command(const std::string& extra) const;
  std::string binary_, scratch_;
};

// The text of the element with id `id` (its first text run); nullopt if the
// page has no such element.
std::optional<std::string> TextOfId(const std::string& dom,
                                    const std::string& id);

// The file:// address of a local path.
std::string FileUrl(const std::string& path);

}  // namespace chess

#endif  // TESTS_REPORT_BROWSER_H_
