#include "dct/model/textformat.h"

#include <catch2/catch.hpp>

using namespace dct;

TEST_CASE("printableText makes control characters and ANSI escapes visible", "[model][text]")
{
    CHECK(printableText("plain text, UTF-8: 50 \xc2\xb0"
                        "C, \xe2\x82\xac") == "plain text, UTF-8: 50 \xc2\xb0"
                                              "C, \xe2\x82\xac");
    CHECK(printableText("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
    CHECK(printableText("a\nb\tc\rd\x7f") == "a\\nb\\tc\\rd\\x7f");
    CHECK(printableText("a\nb\tc\rd", LineBreaks::Keep) == "a\nb\tc\\rd");
    CHECK(printableText(std::string("nul\0here", 8)) == "nul\\x00here");
}

TEST_CASE("printableText escapes C1 controls, bidirectional overrides and broken UTF-8",
          "[model][text]")
{
    CHECK(printableText("\xc2\x9b"
                        "2J") == "\\u009b2J"); // C1 CSI
    CHECK(printableText("abc\xe2\x80\xae"
                        "def") == "abc\\u202edef");      // RIGHT-TO-LEFT OVERRIDE
    CHECK(printableText("\xe2\x81\xa6x") == "\\u2066x"); // LEFT-TO-RIGHT ISOLATE
    CHECK(printableText("\xff\xfe") == "\\xff\\xfe");
    CHECK(printableText("\xc0\xaf") == "\\xc0\\xaf");               // overlong '/'
    CHECK(printableText("\xed\xa0\x80") == "\\xed\\xa0\\x80");      // a surrogate
    CHECK(printableText("\xe2\x82") == "\\xe2\\x82");               // cut short
    CHECK(printableText("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80"); // an emoji stays
}

TEST_CASE("shortenedText keeps short text and cuts long text at a character with a note",
          "[model][text]")
{
    CHECK(shortenedText("short", 5) == "short");
    CHECK(shortenedText("", 0).empty());
    CHECK(shortenedText("abcdef", 3) == "abc [... shortened: the whole text has 6 characters]");
    // "é" is two bytes: a cut after one byte backs up to the start of the character.
    CHECK(shortenedText("a\xc3\xa9z", 2) == "a [... shortened: the whole text has 3 characters]");
    const std::string big(10 * 1024 * 1024, 'x');
    const std::string cut = shortenedText(big, 4000);
    CHECK(cut.size() < 4100);
    CHECK(cut.find("10,485,760 characters") != std::string::npos);
}
