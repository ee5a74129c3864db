// Writing self-contained HTML reports: escaping, JSON values, and the page
// that carries its data, style and scripts inline (no network, opens from
// disk).
#ifndef COMMON_HTML_H_
#define COMMON_HTML_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace chess {

// Text for HTML element content and attribute values.
std::string HtmlEscape(absl::string_view text);

// A JSON string literal, safe inside <script> (no "</" in the output).
std::string JsonString(absl::string_view text);

// A finite double as JSON (NaN and infinities become null), rounded to
// `decimals` places.
std::string JsonNumber(double value, int decimals = 2);

struct HtmlPage {
  std::string title;
  std::string body;       // HTML rendered on our side (works without script)
  std::string data_json;  // read by the scripts as window.REPORT
  std::vector<std::string> scripts;  // after the shared plotting script
};

// The document: shared style, the body, the data, the plotting helpers
// (common/report_plot.js), then `scripts`. Script errors and console.error
// calls are shown in the page's #errors box, so a browser test sees them.
std::string RenderHtmlPage(const HtmlPage& page);

}  // namespace chess

#endif  // COMMON_HTML_H_
