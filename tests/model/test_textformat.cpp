#include "dct/model/textformat.h"

#include <catch2/catch.hpp>
#include <cmath>

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

TEST_CASE("formatQuantity prints money in k, M and B, shares as percent, yes/no and microseconds",
          "[model][text][format]")
{
    CHECK(formatQuantity(143360000.0, "USD/year") == "143.4 M USD/year");
    CHECK(formatQuantity(8960000.0, "USD") == "8.96 M USD");
    CHECK(formatQuantity(28882.0, "USD/month") == "28.88 k USD/month");
    CHECK(formatQuantity(1500.0, "USD/month") == "1,500 USD/month");
    CHECK(formatQuantity(2.4e9, "USD") == "2.4 B USD");
    CHECK(formatQuantity(0.35811, "share") == "35.81 %");
    CHECK(formatQuantity(1.0, "share") == "100 %");
    CHECK(formatQuantity(1.61e-14, "share") == "< 0.0001 %");
    CHECK(formatQuantity(-2e-9, "share") == "> -0.0001 %");
    CHECK(formatQuantity(2e-6, "share") == "0.0002 %");
    CHECK(formatQuantity(0.0, "share") == "0 %");
    CHECK(formatQuantity(1.0, "yes/no") == "yes");
    CHECK(formatQuantity(0.0, "yes/no") == "no");
    CHECK(formatQuantity(2.25, "us") == "2.25 \xc2\xb5s");
    CHECK(formatQuantity(49.24, "\xc2\xb0"
                                "C") == "49.24 \xc2\xb0"
                                        "C");
    CHECK(formatQuantity(16174.0, "kW") == "16,174 kW");
    CHECK(formatQuantity(256.0, "") == "256");
    const QuantityText parts = formatQuantityParts(11359212.0, "USD");
    CHECK(parts.number == "11.36");
    CHECK(parts.unit == "M USD");
}

TEST_CASE("formatNumber groups thousands and keeps about four significant digits",
          "[model][text][format]")
{
    CHECK(formatNumber(16170.4) == "16,170");
    CHECK(formatNumber(1234567.0) == "1,234,567");
    CHECK(formatNumber(3.14159) == "3.142");
    CHECK(formatNumber(0.000123) == "0.000123");
    CHECK(formatNumber(0.0047123) == "0.004712");
    CHECK(formatNumber(1.56e23) == "1.56e+23");
    CHECK(formatNumber(-0.0) == "0");
}

TEST_CASE("formatNumber keeps a trailing zero that is a significant digit", "[model][text][format]")
{
    // A PUE of 1.1001 beside one of 1.098 reads "1.100", as precisely, not "1.1".
    CHECK(formatNumber(1.1001) == "1.100");
    CHECK(formatNumber(1.098) == "1.098");
    CHECK(formatNumber(1.1204) == "1.120");
    CHECK(formatNumber(-1.1204) == "-1.120");
    // Zeros that say nothing go: the value is the shorter number to a fifth digit.
    CHECK(formatNumber(1.1) == "1.1");
    CHECK(formatNumber(0.5) == "0.5");
    CHECK(formatNumber(2.0) == "2");
    CHECK(formatNumber(12.30001) == "12.3");
    CHECK(formatNumber(0.30000000000000004) == "0.3");
    // Rounding into the next decade keeps four digits: not "10.000" or "1000.0".
    CHECK(formatNumber(9.9996) == "10");
    CHECK(formatNumber(9.99951) == "10");
    CHECK(formatNumber(999.96) == "1,000");
    CHECK(formatNumber(0.099996) == "0.1");
    CHECK(formatNumber(0.10004) == "0.1000");
}

TEST_CASE("formatBytes prints message sizes in binary units", "[model][text][format]")
{
    CHECK(formatBytes(512.0) == "512 B");
    CHECK(formatBytes(1024.0) == "1 KiB");
    CHECK(formatBytes(64.0 * 1024 * 1024) == "64 MiB");
    CHECK(formatBytes(1.5 * 1024 * 1024 * 1024) == "1.5 GiB");
}

TEST_CASE("formatPlain keeps the display digits without separators for CSV",
          "[model][text][format]")
{
    CHECK(formatPlain(8960000.0) == "8960000");
    CHECK(formatPlain(0.358112) == "0.3581");
    CHECK(formatExact(0.358112) == "0.358112");
}

TEST_CASE("a difference below the display precision is no difference", "[model][text][compare]")
{
    // Training days that differ in the sixth decimal read the same: 45.12 days.
    CHECK_FALSE(differsAtDisplay(45.12, 45.12 + 3.882e-06, "days"));
    CHECK(differsAtDisplay(45.12, 45.13, "days"));
    // Rounding noise of a sum near zero, which formatNumber() would show as "-4.441e-16".
    CHECK_FALSE(differsAtDisplay(0.0, -4.441e-16, ""));
    CHECK_FALSE(differsAtDisplay(2.718, 2.718 - 4.441e-16, ""));
    // Money in M USD: 10 USD on 12.3 M does not show, 100 k USD does.
    CHECK_FALSE(differsAtDisplay(12.3e6, 12.3e6 + 10.0, "USD"));
    CHECK(differsAtDisplay(12.3e6, 12.4e6, "USD"));
    CHECK(differsAtDisplay(0.0, 1.0, "yes/no"));
    CHECK_FALSE(differsAtDisplay(std::nan(""), std::nan(""), "kW"));
    CHECK(differsAtDisplay(std::nan(""), 1.0, "kW"));
}

TEST_CASE("a share just below one keeps the digits that tell it from 100 %",
          "[model][text][format]")
{
    // 4.93 nines of availability (1.17e-5 unavailable) is not "100 %".
    CHECK(formatQuantity(0.9999883, "share") == "99.9988 %");
    CHECK(formatQuantity(0.99999883, "share") == "99.99988 %");
    CHECK(formatQuantity(0.9996, "share") == "99.96 %"); // four digits show it already
    CHECK(formatQuantity(1.0, "share") == "100 %");
    CHECK(formatQuantity(1.0 - 1e-15, "share") == "> 99.9999999999 %");
    CHECK(formatPlain(0.9999883, "share") == "0.999988");
    CHECK(formatPlain(0.9999883) == "1"); // without the unit: the table's four digits
    CHECK(formatPlain(0.35812, "share") == "0.3581");
    CHECK(formatPlain(0.9999883, "kW") == "1");
    CHECK(differsAtDisplay(0.9999883, 1.0, "share"));
}
