#include "common/html.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/report_assets.h"

namespace chess {

std::string HtmlEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string JsonString(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      // Neither "</script>" nor "<!--" (which, followed by "<script",
      // would keep the element open past its end tag) can appear.
      case '/':
        out += "\\/";
        break;
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        if (c < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", c);
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

std::string JsonNumber(double value, int decimals) {
  if (!std::isfinite(value)) return "null";
  std::string s = absl::StrFormat("%.*f", decimals, value);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string RenderHtmlPage(const HtmlPage& page) {
  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width\">"
      "<title>",
      HtmlEscape(page.title), "</title><style>", kReportCss,
      "</style></head>\n<body>\n<div id=\"errors\" hidden></div>\n",
      // First, so that it sees every later error.
      "<script>", kReportErrorsJs, "</script>\n", page.body,
      "\n<script>window.REPORT = ",
      page.data_json.empty() ? "{}" : page.data_json, ";</script>\n<script>",
      kReportPlotJs, "</script>\n");
  for (const std::string& script : page.scripts)
    absl::StrAppend(&html, "<script>", script, "</script>\n");
  absl::StrAppend(&html, "</body></html>\n");
  return html;
}

}  // namespace chess
