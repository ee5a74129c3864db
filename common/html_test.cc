#include "common/html.h"

#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(HtmlTest, EscapesMarkup) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\">Tom & 'Jerry'</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
}

TEST(HtmlTest, JsonStringsCannotCloseTheScript) {
  EXPECT_EQ(JsonString("a\"b\\c\n</script>\x01"),
            "\"a\\\"b\\\\c\\n\\u003c\\/script\\u003e\\u0001\"");
  // A player named "<!--<script>" once left the report's script open.
  EXPECT_EQ(JsonString("<!--<script>&"),
            "\"\\u003c!--\\u003cscript\\u003e\\u0026\"");
}

TEST(HtmlTest, JsonNumbersAreShortAndFinite) {
  EXPECT_EQ(JsonNumber(12.3456), "12.35");
  EXPECT_EQ(JsonNumber(2.0), "2");
  EXPECT_EQ(JsonNumber(-0.001), "0");
  EXPECT_EQ(JsonNumber(1.0 / 0.0), "null");
  EXPECT_EQ(JsonNumber(0.5, 0), "0");  // printf rounds half to even
}

TEST(HtmlTest, PageCarriesEverythingInline) {
  HtmlPage page;
  page.title = "A <b> match";
  page.body = "<p id=\"x\">body</p>";
  page.data_json = "{\"games\":3}";
  page.scripts = {"render();"};
  const std::string html = RenderHtmlPage(page);
  EXPECT_NE(html.find("<title>A &lt;b&gt; match</title>"), std::string::npos);
  EXPECT_NE(html.find("window.REPORT = {\"games\":3};"), std::string::npos);
  EXPECT_NE(html.find("function linePlot"), std::string::npos);
  EXPECT_NE(html.find("<script>render();</script>"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"))
      << "no address but the SVG namespace";
  EXPECT_EQ(html.find("src="), std::string::npos);
}

}  // namespace
}  // namespace chess
