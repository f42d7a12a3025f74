// SPDX-License-Identifier: GPL-2.0-only
//
// HPCC-simulator text formats: topology and flow readers (good and bad
// inputs; every error names file, line and field), fct/pfc line writers and
// the ideal FCT. Expected values are worked out by hand in the comments.

#include "file-format-test-util.h"
#include "hpcc-format.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

// The spec's dumbbell: senders 0, 1; receiver 2; switches 3, 4, 5.
const char* kDumbbell = "6 3 5\n"
                        "3 4 5\n"
                        "0 3 100Gbps 0.001ms 0\n"
                        "1 3 100Gbps 0.001ms 0\n"
                        "3 4 100Gbps 0.001ms 0\n"
                        "4 5 100Gbps 0.001ms 0\n"
                        "5 2 100Gbps 0.001ms 0\n";

std::string
Replace(std::string s, const std::string& from, const std::string& to)
{
    auto pos = s.find(from);
    EXPECT_NE(pos, std::string::npos);
    return s.replace(pos, from.size(), to);
}

// Runs f with at most `headroom` more bytes of address space than the process
// has now, so a reader that allocates by a claimed count instead of by what it
// read gets std::bad_alloc. (Not under ASan, whose allocator maps its own way.)
template <typename F>
void
WithLittleMemory(size_t headroom, F f)
{
#if defined(__SANITIZE_ADDRESS__)
    (void)headroom;
    f();
#else
    long pages = 0;
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    ASSERT_NE(statm, nullptr);
    ASSERT_EQ(std::fscanf(statm, "%ld", &pages), 1);
    std::fclose(statm);
    rlimit old;
    ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
    rlimit low = old;
    low.rlim_cur = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + headroom;
    ASSERT_EQ(setrlimit(RLIMIT_AS, &low), 0);
    try
    {
        f();
    }
    catch (...)
    {
        setrlimit(RLIMIT_AS, &old);
        throw;
    }
    setrlimit(RLIMIT_AS, &old);
#endif
}

} // namespace

TEST(FilesTopology, ReadsTheSpecDumbbell)
{
    TopologySpec t = ParseTopology(kDumbbell, "db.txt");
    EXPECT_EQ(t.nNodes, 6u);
    EXPECT_EQ(t.NumSwitches(), 3u);
    EXPECT_FALSE(t.isSwitch[0]);
    EXPECT_FALSE(t.isSwitch[2]);
    EXPECT_TRUE(t.isSwitch[3]);
    EXPECT_TRUE(t.isSwitch[5]);
    ASSERT_EQ(t.links.size(), 5u);
    EXPECT_EQ(t.links[2].a, 3u);
    EXPECT_EQ(t.links[2].b, 4u);
    EXPECT_EQ(t.links[2].rateBps, 100000000000ull); // 100 x 10^9
    EXPECT_EQ(t.links[2].delayNs, 1000u);           // 0.001 ms = 1 us
    EXPECT_EQ(t.links[2].line, 5u);                 // third link line of the file
}

TEST(FilesTopology, UnitsOfRatesAndDelays)
{
    uint64_t v;
    EXPECT_TRUE(ParseRate("25Gbps", v));
    EXPECT_EQ(v, 25000000000ull);
    EXPECT_TRUE(ParseRate("400Gbps", v));
    EXPECT_EQ(v, 400000000000ull);
    EXPECT_TRUE(ParseRate("1.5Tbps", v));
    EXPECT_EQ(v, 1500000000000ull);
    EXPECT_FALSE(ParseRate("100Gb", v));
    EXPECT_FALSE(ParseRate("Gbps", v));
    EXPECT_TRUE(ParseDelay("1us", v));
    EXPECT_EQ(v, 1000u);
    EXPECT_TRUE(ParseDelay("0.0015ms", v));
    EXPECT_EQ(v, 1500u);
    EXPECT_TRUE(ParseDelay("500ns", v));
    EXPECT_EQ(v, 500u);
    EXPECT_FALSE(ParseDelay("1 us", v));
    EXPECT_FALSE(ParseDelay("-1us", v));
}

TEST(FilesTopology, RatesAndDelaysTakeOnlyLibccDecimalForms)
{
    // libcc_parse_value's forms: sign, digits, point, exponent, then a unit.
    uint64_t v;
    EXPECT_TRUE(ParseRate("1e2Gbps", v)); // 100 x 10^9
    EXPECT_EQ(v, 100000000000ull);
    EXPECT_TRUE(ParseRate(".5Gbps", v)); // 0.5 x 10^9
    EXPECT_EQ(v, 500000000ull);
    EXPECT_TRUE(ParseRate("+40Mbps", v)); // libcc takes a '+'
    EXPECT_EQ(v, 40000000ull);
    EXPECT_TRUE(ParseRate("0.3Gbps", v)); // 0.3 x 10^9 is 299999999.99999994 in binary
    EXPECT_EQ(v, 300000000ull);
    // What strtod took and libcc refuses: hex (0x64 = 100), inf, nan.
    EXPECT_FALSE(ParseRate("0x64Gbps", v));
    EXPECT_FALSE(ParseRate("infGbps", v));
    EXPECT_FALSE(ParseRate("nanGbps", v));
    EXPECT_FALSE(ParseRate("1eGbps", v));
    // ns-3's DataRate reads "GBps" as gigabytes/s: not taken as bits.
    EXPECT_FALSE(ParseRate("100GBps", v));
    EXPECT_FALSE(ParseRate("100gbps", v));
    // A fraction of a bit/s was rounded (1.5 -> 2): refused; so are 0 and
    // more than 1000 Tbps = 10^15.
    EXPECT_FALSE(ParseRate("1.5bps", v));
    EXPECT_FALSE(ParseRate("0Gbps", v));
    EXPECT_FALSE(ParseRate("0", v));
    EXPECT_TRUE(ParseRate("1000Tbps", v));
    EXPECT_EQ(v, 1000000000000000ull);
    EXPECT_FALSE(ParseRate("1001Tbps", v));

    EXPECT_FALSE(ParseDelay("0x10us", v)); // strtod: 16 us
    EXPECT_FALSE(ParseDelay("infns", v));
    EXPECT_FALSE(ParseDelay("1.5ns", v)); // was rounded to 2 ns
    EXPECT_TRUE(ParseDelay("1e-3ms", v)); // 10^-3 x 10^6 ns
    EXPECT_EQ(v, 1000u);
    EXPECT_TRUE(ParseDelay("0.3ms", v)); // 299999.99999999994 in binary
    EXPECT_EQ(v, 300000u);
    EXPECT_TRUE(ParseDelay("0", v)); // libcc: 0 needs no unit
    EXPECT_EQ(v, 0u);
    EXPECT_FALSE(ParseDelay("5", v));   // any other number does
    EXPECT_FALSE(ParseDelay("1US", v)); // libcc's time units are case-sensitive
    EXPECT_TRUE(ParseDelay("1000000s", v));
    EXPECT_EQ(v, 1000000000000000ull);
    EXPECT_FALSE(ParseDelay("1000001s", v));
}

TEST(FilesTopology, ErrorRateIsAShareInZeroToOne)
{
    // The share of packets the link loses at random (the HPCC simulator's
    // per-packet receive error model): [0, 1). 1 would lose everything;
    // strtod's "0x0.1" (1/16) is not one of libcc's decimal spellings.
    for (const char* rate : {"1", "1.5", "0x0.1", "-1", "-0.01"})
    {
        auto e = Fails([&] {
            ParseTopology(
                Replace(kDumbbell, "0.001ms 0\n1 3", std::string("0.001ms ") + rate + "\n1 3"),
                "t");
        });
        EXPECT_EQ(e.Line(), 3u) << rate;
        EXPECT_EQ(e.Field(), "error_rate") << rate;
        EXPECT_NE(std::string(e.what()).find("in [0, 1)"), std::string::npos) << e.what();
    }
    struct Ok
    {
        const char* text;
        double rate;
    };
    for (Ok ok : {Ok{"0.000e0", 0.0}, Ok{"1e-3", 0.001}, Ok{"0.01", 0.01}, Ok{"0.999", 0.999}})
    {
        TopologySpec t = ParseTopology(
            Replace(kDumbbell, "0.001ms 0\n1 3", std::string("0.001ms ") + ok.text + "\n1 3"), "t");
        EXPECT_DOUBLE_EQ(t.links[0].errorRate, ok.rate) << ok.text;
        EXPECT_EQ(t.links[1].errorRate, 0.0);
    }
}

TEST(FilesTopology, OutOfRangeValuesNameTheRange)
{
    // The dumbbell has nodes 0..5; link line "4 5" is line 6.
    struct Case
    {
        const char* to;
        const char* field;
        const char* says;
    } cases[] = {
        {"-1 5 100Gbps 0.001ms", "node_a",
         "'-1' is not a whole number in decimal digits in [0, 5]"},
        {"4 6 100Gbps 0.001ms", "node_b", "'6' is outside [0, 5]"},
        {"4 5 0Gbps 0.001ms", "rate", "'0Gbps' is not a rate in [1bps, 1000Tbps]"},
        {"4 5 100Gbps -1us", "delay", "'-1us' is not a delay in [0ns, 1000000s]"},
    };
    for (const Case& k : cases)
    {
        auto e =
            Fails([&] { ParseTopology(Replace(kDumbbell, "4 5 100Gbps 0.001ms", k.to), "t"); });
        EXPECT_EQ(e.Line(), 6u) << k.to;
        EXPECT_EQ(e.Field(), k.field) << k.to;
        EXPECT_NE(
            std::string(e.what()).find(std::string("t:6: field '") + k.field + "': " + k.says),
            std::string::npos)
            << e.what();
    }
}

TEST(FilesTopology, BadRateNamesFileLineField)
{
    auto e =
        Fails([] { ParseTopology(Replace(kDumbbell, "3 4 100Gbps", "3 4 100Gbs"), "topo.txt"); });
    EXPECT_EQ(e.File(), "topo.txt");
    EXPECT_EQ(e.Line(), 5u);
    EXPECT_EQ(e.Field(), "rate");
    EXPECT_NE(std::string(e.what()).find("topo.txt:5"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("100Gbs"), std::string::npos);
}

TEST(FilesTopology, BadDelayAndErrorRate)
{
    auto e = Fails([] { ParseTopology(Replace(kDumbbell, "0.001ms 0\n1 3", "1xs 0\n1 3"), "t"); });
    EXPECT_EQ(e.Line(), 3u);
    EXPECT_EQ(e.Field(), "delay");
    e = Fails([] {
        ParseTopology(Replace(kDumbbell, "5 2 100Gbps 0.001ms 0", "5 2 100Gbps 0.001ms 2"), "t");
    });
    EXPECT_EQ(e.Line(), 7u);
    EXPECT_EQ(e.Field(), "error_rate");
}

TEST(FilesTopology, NodeOutOfRangeAndSelfLink)
{
    auto e = Fails([] { ParseTopology(Replace(kDumbbell, "4 5 100", "4 6 100"), "t"); });
    EXPECT_EQ(e.Line(), 6u);
    EXPECT_EQ(e.Field(), "node_b");
    e = Fails([] { ParseTopology(Replace(kDumbbell, "4 5 100", "4 4 100"), "t"); });
    EXPECT_EQ(e.Line(), 6u);
    EXPECT_EQ(e.Field(), "node_b");
}

TEST(FilesTopology, CountsAndFieldCounts)
{
    // link_count says 6 but only 5 links follow: names the last line.
    auto e = Fails([] { ParseTopology(Replace(kDumbbell, "6 3 5", "6 3 6"), "t"); });
    EXPECT_EQ(e.Line(), 7u);
    EXPECT_NE(std::string(e.what()).find("5 of 6 links"), std::string::npos);
    // A link line with 4 fields.
    e = Fails([] { ParseTopology(Replace(kDumbbell, "0.001ms 0\n4 5", "0.001ms\n4 5"), "t"); });
    EXPECT_EQ(e.Line(), 5u);
    EXPECT_NE(std::string(e.what()).find("expected 5 fields"), std::string::npos);
    // Switch id listed twice.
    e = Fails([] { ParseTopology(Replace(kDumbbell, "3 4 5\n", "3 4 4\n"), "t"); });
    EXPECT_EQ(e.Line(), 2u);
    EXPECT_EQ(e.Field(), "switch_id");
    // Header not a number.
    e = Fails([] { ParseTopology(Replace(kDumbbell, "6 3 5", "six 3 5"), "t"); });
    EXPECT_EQ(e.Line(), 1u);
    EXPECT_EQ(e.Field(), "node_count");
}

TEST(FilesTopology, HugeCountsInATinyFileAllocateNothing)
{
    // 2^24 = 16777216 nodes (the largest node_count) and 2^26 = 67108864 links
    // claimed by a 24-byte file: node tables of that size would take over
    // 100 MB; 32 MB of headroom is far more than two lines need. The file ends
    // on line 2 after 1 of 67108864 links.
    WithLittleMemory(32 << 20, [] {
        auto e = Fails([] { ParseTopology("16777216 0 67108864\n0 1 1Gbps 1us 0\n", "big"); });
        EXPECT_EQ(e.Line(), 2u);
        EXPECT_NE(std::string(e.what()).find("after 1 of 67108864 links"), std::string::npos)
            << e.what();
    });
    // All links there, but 16777216 nodes cannot all be linked by one link:
    // node 2 is the first without one.
    WithLittleMemory(32 << 20, [] {
        auto e = Fails([] { ParseTopology("16777216 0 1\n0 1 1Gbps 1us 0\n", "big"); });
        EXPECT_EQ(e.Line(), 1u);
        EXPECT_EQ(e.Field(), "node_count");
        EXPECT_NE(std::string(e.what()).find("host 2 has no link"), std::string::npos) << e.what();
    });
}

TEST(FilesTopology, HostWithTwoLinks)
{
    // Host 0 linked to switches 3 and 4 (dual-homed, as in the HPCC
    // simulator's mix/ali_32host_10rack.txt): refused, saying why.
    auto e = Fails([] { ParseTopology(Replace(kDumbbell, "1 3 100Gbps", "0 4 100Gbps"), "t"); });
    EXPECT_EQ(e.Line(), 4u);
    EXPECT_EQ(e.Field(), "node_a");
    EXPECT_NE(std::string(e.what()).find("host 0 already has a link (line 3): dual-homed hosts "
                                         "are not supported (an RdmaNic drives one QbbNetDevice"),
              std::string::npos)
        << e.what();
}

TEST(FilesTopology, LinesAfterTheLinksAreAWarning)
{
    // The HPCC simulator reads link_count links and stops; its own
    // mix/topology.txt has more links and text after them. Lines 8 and 10
    // (a blank line 9 is no data): 2 lines, one warning naming the first.
    std::string text =
        std::string(kDumbbell) + "0 9 25Gbps 0.001ms 0\n\nFirst line: total node #\n";
    TopologySpec t = ParseTopology(text, "t");
    EXPECT_EQ(t.links.size(), 5u);
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_EQ(t.warnings[0],
              "t:8: 2 line(s) after the 5 links of link_count are ignored, as the HPCC "
              "simulator does");
    EXPECT_TRUE(ParseTopology(kDumbbell, "t").warnings.empty());
}

TEST(FilesTopology, MissingFileNamesIt)
{
    auto e = Fails([] { ReadTopologyFile("/nonexistent/dir/topo.txt"); });
    EXPECT_EQ(e.File(), "/nonexistent/dir/topo.txt");
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
}

TEST(FilesTopology, UnreadableFilesAreIoErrors)
{
    // Not a bad line but an I/O failure (exit 1 in rdma-sim, docs/errors.md):
    // a missing file, and a directory, which opens but cannot be read.
    for (const char* path : {"/nonexistent/dir/topo.txt", "/"})
    {
        try
        {
            ReadTopologyFile(path);
            ADD_FAILURE() << path << " was read";
        }
        catch (const FileIoError& e)
        {
            EXPECT_EQ(e.File(), path);
            EXPECT_EQ(e.Line(), 0u);
        }
        catch (const std::exception& e)
        {
            ADD_FAILURE() << path << ": not a FileIoError: " << e.what();
        }
    }
    try
    {
        ReadFlowFile("/");
        ADD_FAILURE() << "/ was read";
    }
    catch (const FileIoError& e)
    {
        EXPECT_NE(std::string(e.what()).find("/: cannot read: Is a directory"), std::string::npos)
            << e.what();
    }
}

TEST(FilesFlow, ReadsFlowsWithTopology)
{
    TopologySpec t = ParseTopology(kDumbbell, "t");
    auto flows = ParseFlows("2\n0 2 3 100 1000000 2.0\n1 2 3 200 500 2.0003\n", "f", &t);
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(flows[0].src, 0u);
    EXPECT_EQ(flows[0].dst, 2u);
    EXPECT_EQ(flows[0].pg, 3u);
    EXPECT_EQ(flows[0].dport, 100u);
    EXPECT_EQ(flows[0].sizeBytes, 1000000u);
    EXPECT_EQ(flows[0].startNs, 2000000000u); // 2 s
    EXPECT_EQ(flows[1].startNs, 2000300000u); // 2.0003 s = 2 s + 300 us
    EXPECT_EQ(flows[1].line, 3u);
}

TEST(FilesFlow, HugeCountInATinyFileEndsWhereTheFileEnds)
{
    // A 12-byte file claiming 4000000000 flows (48-byte FlowSpecs: 192 GB if
    // reserved by the count): the file ends on line 1 after 0 flows.
    WithLittleMemory(32 << 20, [] {
        auto e = Fails([] { ParseFlows("4000000000\n", "f"); });
        EXPECT_EQ(e.Line(), 1u);
        EXPECT_NE(std::string(e.what()).find("f:1: file ends after 0 of 4000000000 flows"),
                  std::string::npos)
            << e.what();
    });
    // 2^28 flows (the old largest count: 12.9 GB reserved) and one flow line:
    // ends on line 2 after 1 of them.
    WithLittleMemory(32 << 20, [] {
        auto e = Fails([] { ParseFlows("268435456\n0 1 3 100 1000 0\n", "f"); });
        EXPECT_EQ(e.Line(), 2u);
        EXPECT_NE(std::string(e.what()).find("after 1 of 268435456 flows"), std::string::npos)
            << e.what();
    });
    // Past uint32 (flow ids are 32-bit): refused on line 1 naming the range.
    auto e = Fails([] { ParseFlows("4294967296\n", "f"); });
    EXPECT_EQ(e.Line(), 1u);
    EXPECT_EQ(e.Field(), "flow_count");
    EXPECT_NE(std::string(e.what()).find("[0, 4294967295]"), std::string::npos) << e.what();
}

TEST(FilesFlow, LinesPastTheCountAreRefused)
{
    // flow_count says 1, a second flow follows on line 3: it was ignored, so
    // the run silently had one flow fewer than the file lists.
    auto e = Fails([] { ParseFlows("1\n0 2 3 100 10 0\n1 2 3 100 10 0\n", "f"); });
    EXPECT_EQ(e.Line(), 3u);
    EXPECT_NE(std::string(e.what()).find("f:3: more flow lines than flow_count=1 (line 1)"),
              std::string::npos)
        << e.what();
    // Blank lines and comments after the last flow are no data.
    auto flows = ParseFlows("1\n0 2 3 100 10 0\n\n# end\n", "f");
    EXPECT_EQ(flows.size(), 1u);
    // A caller that takes warnings (rdma-sim) gets them read as the HPCC
    // simulator reads them: flow_count flows, one line about the rest.
    std::vector<std::string> w;
    flows = ParseFlows("1\n0 2 3 100 10 0\n1 2 3 100 10 0\ntext\n", "f", nullptr, &w);
    EXPECT_EQ(flows.size(), 1u);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0], "f:3: more flow lines than flow_count=1 (line 1): 2 line(s) ignored, as the "
                    "HPCC simulator does");
}

TEST(FilesFlow, BadFieldsNameLineAndField)
{
    TopologySpec t = ParseTopology(kDumbbell, "t");
    auto e = Fails([&] { ParseFlows("2\n0 2 3 100 1000 0\n1 2 3 100 1k 0\n", "flows.txt", &t); });
    EXPECT_EQ(e.File(), "flows.txt");
    EXPECT_EQ(e.Line(), 3u);
    EXPECT_EQ(e.Field(), "size");
    e = Fails([&] { ParseFlows("1\n0 4 3 100 1000 0\n", "f", &t); }); // 4 is a switch
    EXPECT_EQ(e.Field(), "dst");
    e = Fails([&] { ParseFlows("1\n0 9 3 100 1000 0\n", "f", &t); }); // no node 9
    EXPECT_EQ(e.Field(), "dst");
    e = Fails([&] { ParseFlows("1\n0 2 8 100 1000 0\n", "f", &t); }); // 8 priorities: 0..7
    EXPECT_EQ(e.Field(), "pg");
    e = Fails([&] { ParseFlows("1\n0 2 3 100 1000 soon\n", "f", &t); });
    EXPECT_EQ(e.Field(), "start_s");
    e = Fails([&] { ParseFlows("2\n0 2 3 100 1000 1\n1 2 3 100 1000 0.5\n", "f", &t); });
    EXPECT_EQ(e.Line(), 3u);
    EXPECT_EQ(e.Field(), "start_s");
    e = Fails([&] { ParseFlows("3\n0 2 3 100 1000 1\n", "f", &t); });
    EXPECT_NE(std::string(e.what()).find("1 of 3 flows"), std::string::npos);
    e = Fails([&] { ParseFlows("1\n0 2 3 100 1000\n", "f", &t); });
    EXPECT_EQ(e.Line(), 2u);
    EXPECT_NE(std::string(e.what()).find("expected 6 fields"), std::string::npos);
}

TEST(FilesFlow, NumbersTakeOnlyDecimalForms)
{
    // Start times in seconds, as libcc reads "<number>s": 1e-9 s = 1 ns.
    auto flows = ParseFlows("2\n0 1 3 100 1000 1e-9\n0 1 3 100 1000 +0.000002\n", "f");
    EXPECT_EQ(flows[0].startNs, 1u);
    EXPECT_EQ(flows[1].startNs, 2000u);
    // strtod took hex ("0x1" = 1 s) and rounded 1.5 ns to 2.
    for (const char* start : {"0x1", "1.5e-9", "inf", "nan", "1000000.5", "-1", "5m"})
    {
        auto e = Fails([&] { ParseFlows(std::string("1\n0 1 3 100 1000 ") + start + "\n", "f"); });
        EXPECT_EQ(e.Line(), 2u) << start;
        EXPECT_EQ(e.Field(), "start_s") << start;
        EXPECT_NE(std::string(e.what()).find("[0, 1000000] seconds"), std::string::npos)
            << e.what();
    }
    // Whole numbers are decimal digits only: no sign, exponent, point or hex.
    for (const char* size : {"1e3", "+1000", "-1", "1000.0", "0x3e8"})
    {
        auto e = Fails([&] { ParseFlows(std::string("1\n0 1 3 100 ") + size + " 0\n", "f"); });
        EXPECT_EQ(e.Field(), "size") << size;
        EXPECT_NE(std::string(e.what()).find("[1, 72057594037927935]"), std::string::npos)
            << e.what(); // 2^56 - 1
    }
    // Digits past 2^64 - 1: out of the range, not "not a number".
    auto e = Fails([] { ParseFlows("1\n0 1 3 99999999999999999999999 1000 0\n", "f"); });
    EXPECT_EQ(e.Field(), "dport");
    EXPECT_NE(std::string(e.what()).find("'99999999999999999999999' is outside [0, 65535]"),
              std::string::npos)
        << e.what();
}

// No byte below 0x20 or above 0x7e in a message.
bool
Printable(const std::string& s)
{
    for (unsigned char ch : s)
    {
        if (ch < 0x20 || ch > 0x7e)
        {
            return false;
        }
    }
    return true;
}

TEST(FilesBinary, FieldsAreEscapedAndCapped)
{
    // A size field of 60 bytes: 0x01, 0xff, 0xfe (no UTF-8), then 57 'A':
    // the first 40 bytes are shown, the three as \xHH, then "...".
    std::string size = std::string("\x01\xff\xfe") + std::string(57, 'A');
    auto e = Fails([&] { ParseFlows("1\n0 1 3 100 " + size + " 0\n", "f"); });
    EXPECT_EQ(e.Line(), 2u);
    EXPECT_EQ(e.Field(), "size");
    std::string want = "'\\x01\\xff\\xfe" + std::string(37, 'A') + "...' is not a whole number";
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    EXPECT_TRUE(Printable(e.what())) << e.what();
    // An escape character in a rate; a backslash is escaped too, so what is
    // shown reads back unambiguously.
    e = Fails([] { ParseTopology(Replace(kDumbbell, "3 4 100Gbps", "3 4 100G\x1b\\bps"), "t"); });
    EXPECT_EQ(e.Line(), 5u);
    EXPECT_NE(std::string(e.what()).find("'100G\\x1b\\x5cbps'"), std::string::npos) << e.what();
    EXPECT_TRUE(Printable(e.what())) << e.what();
}

TEST(FilesBinary, ANulByteIsNotText)
{
    // "1000\0junk": the NUL ended the C string, so the size was read as 1000
    // and the rest ignored. Line 2 "0 1 3 100 1000" is 14 bytes: the NUL is
    // column 15.
    auto e = Fails([] { ParseFlows(std::string("1\n0 1 3 100 1000\0junk 0\n", 24), "f"); });
    EXPECT_EQ(e.Line(), 2u);
    EXPECT_NE(std::string(e.what()).find("f:2: a NUL byte at column 15: not a text file"),
              std::string::npos)
        << e.what();
    // /dev/zero never ends: the reader stops at its first byte (before, it
    // read until memory ran out).
    WithLittleMemory(64 << 20, [] {
        auto e = Fails([] { ReadFlowFile("/dev/zero"); });
        EXPECT_NE(std::string(e.what()).find("/dev/zero:1: a NUL byte at column 1"),
                  std::string::npos)
            << e.what();
    });
}

TEST(FilesOutput, FctLineHasTheHpccColumns)
{
    // Node 2 -> 11.0.2.1 = 0x0b000201; node 300 -> 0x0b000001 + 1 x 0x10000 +
    // 44 x 0x100 = 0x0b012c01.
    char* buf = nullptr;
    size_t len = 0;
    std::FILE* f = open_memstream(&buf, &len);
    WriteFctLine(f, 2, 300, 10000, 100, 1000000, 2000000000, 95000, 93000);
    WritePfcLine(f, 385373, 3, 1, 2, true);
    std::fclose(f);
    EXPECT_EQ(std::string(buf), "0b000201 0b012c01 10000 100 1000000 2000000000 95000 93000\n"
                                "385373 3 1 2 1\n");
    free(buf);
}

TEST(FilesOutput, IdealFct)
{
    // 1 MB in 1000-byte payloads = 1000 packets, 94 bytes of overhead each:
    // 1,094,000 bytes = 8,752,000 bits at 100 Gbps = 87,520 ns, plus the
    // 10 us base RTT = 97,520 ns.
    EXPECT_EQ(IdealFctNs(10000, 1000000, 1000, 94, 100000000000ull), 97520u);
    // 1001 bytes: 2 packets, 1001 + 188 = 1189 bytes = 9512 bits at 25 Gbps
    // = 380.48 ns, truncated to 380, plus 1000.
    EXPECT_EQ(IdealFctNs(1000, 1001, 1000, 94, 25000000000ull), 1380u);
}
