// SPDX-License-Identifier: GPL-2.0-only
//
// The HPCC simulator's config.txt reader (helper/hpcc-config.h): every key's
// mapping to our options and libcc parameters, derived by hand from that
// simulator's scratch/third.cc and rdma-hw.cc (units in the comments), its
// errors, path resolution; per-link-rate CP parameters and one T for all
// flows (GLOBAL_T) in RdmaNetwork.

#include "file-format-test-util.h"
#include "hpcc-config.h"
#include "rdma-network.h"

#include <ns3/core-module.h>

#include <gtest/gtest.h>

#include <libcc/libcc.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

// The form of that simulator's shipped mix/config.txt (our own text with its
// keys and values).
const char* kShipped = "ENABLE_QCN 1\n"
                       "USE_DYNAMIC_PFC_THRESHOLD 1\n"
                       "\n"
                       "PACKET_PAYLOAD_SIZE 1000\n"
                       "\n"
                       "TOPOLOGY_FILE mix/topology.txt\n"
                       "FLOW_FILE mix/flow.txt\n"
                       "TRACE_FILE mix/trace.txt\n"
                       "TRACE_OUTPUT_FILE mix/mix.tr\n"
                       "FCT_OUTPUT_FILE mix/fct.txt\n"
                       "PFC_OUTPUT_FILE mix/pfc.txt\n"
                       "\n"
                       "SIMULATOR_STOP_TIME 4.00\n"
                       "\n"
                       "CC_MODE 3\n"
                       "ALPHA_RESUME_INTERVAL 1\n"
                       "RATE_DECREASE_INTERVAL 4\n"
                       "CLAMP_TARGET_RATE 0\n"
                       "RP_TIMER 900 \n"
                       "EWMA_GAIN 0.00390625\n"
                       "FAST_RECOVERY_TIMES 1\n"
                       "RATE_AI 50Mb/s\n"
                       "RATE_HAI 100Mb/s\n"
                       "MIN_RATE 100Mb/s\n"
                       "DCTCP_RATE_AI 1000Mb/s\n"
                       "\n"
                       "ERROR_RATE_PER_LINK 0.0000\n"
                       "L2_CHUNK_SIZE 4000\n"
                       "L2_ACK_INTERVAL 1\n"
                       "L2_BACK_TO_ZERO 0\n"
                       "\n"
                       "HAS_WIN 1\n"
                       "GLOBAL_T 1\n"
                       "VAR_WIN 1\n"
                       "FAST_REACT 1\n"
                       "U_TARGET 0.95\n"
                       "MI_THRESH 0\n"
                       "INT_MULTI 1\n"
                       "MULTI_RATE 0\n"
                       "SAMPLE_FEEDBACK 0\n"
                       "PINT_LOG_BASE 1.05\n"
                       "PINT_PROB 1.0\n"
                       "\n"
                       "RATE_BOUND 1\n"
                       "\n"
                       "ACK_HIGH_PRIO 0\n"
                       "\n"
                       "LINK_DOWN 0 0 0\n"
                       "\n"
                       "ENABLE_TRACE 1\n"
                       "\n"
                       "KMAX_MAP 3 25000000000 400 50000000000 800 100000000000 1600\n"
                       "KMIN_MAP 3 25000000000 100 50000000000 200 100000000000 400\n"
                       "PMAX_MAP 3 25000000000 0.2 50000000000 0.2 100000000000 0.2\n"
                       "BUFFER_SIZE 32\n"
                       "QLEN_MON_FILE mix/qlen.txt\n"
                       "QLEN_MON_START 2000000000\n"
                       "QLEN_MON_END 2010000000\n";

std::string
Replace(std::string s, const std::string& from, const std::string& to)
{
    auto p = s.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    if (p != std::string::npos)
    {
        s.replace(p, from.size(), to);
    }
    return s;
}

// The DCQCN variant, as that simulator's run.py writes it for --cc dcqcn
// --bw 100: mode 1, no window, t_inc 300, ai 5*100/25 = 20, hai 50*100/25 =
// 200, MIN_RATE 1000Mb/s, ACK_HIGH_PRIO 1.
std::string
Dcqcn()
{
    std::string s = kShipped;
    s = Replace(s, "CC_MODE 3", "CC_MODE 1");
    s = Replace(s, "RP_TIMER 900 ", "RP_TIMER 300");
    s = Replace(s, "RATE_AI 50Mb/s", "RATE_AI 20Mb/s");
    s = Replace(s, "RATE_HAI 100Mb/s", "RATE_HAI 200Mb/s");
    s = Replace(s, "MIN_RATE 100Mb/s", "MIN_RATE 1000Mb/s");
    s = Replace(s, "HAS_WIN 1", "HAS_WIN 0");
    s = Replace(s, "VAR_WIN 1", "VAR_WIN 0");
    s = Replace(s, "ACK_HIGH_PRIO 0", "ACK_HIGH_PRIO 1");
    return s;
}

// libcc parameters of algo after text (what --algo/--cc would build).
double
Param(const std::string& algo, const std::string& text, const char* name)
{
    libcc_params* p = nullptr;
    EXPECT_EQ(libcc_params_new(&p, algo.c_str()), LIBCC_OK);
    EXPECT_EQ(libcc_params_parse(p, text.c_str()), LIBCC_OK) << libcc_params_error(p);
    EXPECT_EQ(libcc_params_validate(p), LIBCC_OK) << libcc_params_error(p);
    double v = -1;
    EXPECT_EQ(libcc_params_get(p, name, &v), LIBCC_OK) << name;
    libcc_params_del(p);
    return v;
}

bool
Has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST(HpccConfig, ShippedConfigMapsToHpcc)
{
    HpccConfig c = ParseHpccConfig(kShipped, "config.txt");
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.ccMode, 3u);
    EXPECT_EQ(c.algorithm, "hpcc");
    // PACKET_PAYLOAD_SIZE bytes; SIMULATOR_STOP_TIME 4.00 s; BUFFER_SIZE 32
    // MB of 2^20 (third.cc ConfigBufferSize(buffer_size * 1024 * 1024)).
    EXPECT_EQ(c.payloadBytes, 1000u);
    EXPECT_EQ(c.stopNs, 4000000000ull);
    EXPECT_EQ(c.bufferBytes, 32ull * 1024 * 1024);
    // ACK_HIGH_PRIO 0: ACKs share the data's queue.
    EXPECT_TRUE(c.hasAckHighPrio);
    EXPECT_FALSE(c.ackHighPrio);
    // L2_ACK_INTERVAL 1 byte: an ACK for every packet.
    EXPECT_EQ(c.ackIntervalPkts, 1u);
    EXPECT_TRUE(c.globalT);
    EXPECT_TRUE(c.enableTrace);
    EXPECT_EQ(c.topologyFile, "mix/topology.txt");
    EXPECT_EQ(c.flowFile, "mix/flow.txt");
    EXPECT_EQ(c.traceFile, "mix/trace.txt");
    EXPECT_EQ(c.traceOutputFile, "mix/mix.tr");
    EXPECT_EQ(c.fctOutputFile, "mix/fct.txt");
    EXPECT_EQ(c.pfcOutputFile, "mix/pfc.txt");
    EXPECT_EQ(c.qlenMonFile, "mix/qlen.txt");
    EXPECT_EQ(c.qlenMonStartNs, 2000000000ull);
    EXPECT_EQ(c.qlenMonEndNs, 2010000000ull);
    // U_TARGET 0.95 -> eta; MI_THRESH 0 -> max_stage.
    EXPECT_DOUBLE_EQ(Param("hpcc", c.ccParams, "eta"), 0.95);
    EXPECT_DOUBLE_EQ(Param("hpcc", c.ccParams, "max_stage"), 0);
    // RATE_AI 50 Mb/s at 100G NICs: step = 100e9 x (1 - 0.95) / N -> N = 100.
    EXPECT_EQ(c.hpccRateAiBps, 50000000u);
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "w_ai=0B expected_flows=100");
    // HPCC hosts ignore ECN (only CC_MODE 1 reacts to CNPs): no per-rate sets.
    EXPECT_FALSE(c.thresholdsUsed);
    EXPECT_TRUE(c.thresholds.empty());
    EXPECT_EQ(HpccRateCcParams(c, 100000000000ull), "");
    EXPECT_EQ(c.keyLines.at("CC_MODE"), 15u);
}

TEST(HpccConfig, HpccRateAiWithoutAWholeNBecomesWai)
{
    // RATE_AI 30 Mb/s at 100G: N = 5e9 / 30e6 = 166.7, not whole; W_ai =
    // RATE_AI x T / 8 = 30e6 x 10 us / 8 = 37.5 -> 38 bytes.
    HpccConfig c = ParseHpccConfig(Replace(kShipped, "RATE_AI 50Mb/s", "RATE_AI 30Mb/s"), "c");
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "w_ai=38B");
    // U_TARGET 0.9, RATE_AI 50 Mb/s at 25G: N = 25e9 x 0.1 / 50e6 = 50.
    c = ParseHpccConfig(Replace(kShipped, "U_TARGET 0.95", "U_TARGET 0.9"), "c");
    EXPECT_DOUBLE_EQ(Param("hpcc", c.ccParams, "eta"), 0.9);
    EXPECT_EQ(HpccHostCcParams(c, 10000, 25000000000ull), "w_ai=0B expected_flows=50");
}

TEST(HpccConfig, DcqcnVariantMapsEveryKey)
{
    HpccConfig c = ParseHpccConfig(Dcqcn(), "c");
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.algorithm, "dcqcn");
    const std::string& t = c.ccParams;
    // ALPHA_RESUME_INTERVAL 1 us, RATE_DECREASE_INTERVAL 4 us, RP_TIMER 300 us.
    EXPECT_EQ(Param("dcqcn", t, "dce_tcp_rtt"), 1000);
    EXPECT_EQ(Param("dcqcn", t, "rate_reduce_monitor_period"), 4000);
    EXPECT_EQ(Param("dcqcn", t, "rpg_time_reset"), 300000);
    // EWMA_GAIN 0.00390625 = 1/256; FAST_RECOVERY_TIMES 1; CLAMP_TARGET_RATE 0.
    EXPECT_DOUBLE_EQ(Param("dcqcn", t, "g"), 1.0 / 256);
    EXPECT_EQ(Param("dcqcn", t, "rpg_threshold"), 1);
    EXPECT_EQ(Param("dcqcn", t, "clamp_tgt_rate"), 0);
    // RATE_AI 20Mb/s, RATE_HAI 200Mb/s, MIN_RATE 1000Mb/s (bits/s).
    EXPECT_EQ(Param("dcqcn", t, "rpg_ai_rate"), 20e6);
    EXPECT_EQ(Param("dcqcn", t, "rpg_hai_rate"), 200e6);
    EXPECT_EQ(Param("dcqcn", t, "rpg_min_rate"), 1e9);
    // The mechanism of the simulator's Mlx functions (from the preset).
    EXPECT_EQ(Param("dcqcn", t, "increase_kind_by_timer"), 1);
    EXPECT_EQ(Param("dcqcn", t, "min_time_between_cnps"), 0);
    EXPECT_EQ(Param("dcqcn", t, "ack_interval"), 1);
    EXPECT_TRUE(c.ackHighPrio);
    // KMIN_MAP / KMAX_MAP in KB of 1000 bytes (SwitchMmu::ConfigEcn), PMAX_MAP.
    ASSERT_TRUE(c.thresholdsUsed);
    ASSERT_EQ(c.thresholds.size(), 3u);
    EXPECT_EQ(c.thresholds.at(25000000000ull).kminBytes, 100000u);
    EXPECT_EQ(c.thresholds.at(25000000000ull).kmaxBytes, 400000u);
    EXPECT_EQ(c.thresholds.at(50000000000ull).kminBytes, 200000u);
    EXPECT_EQ(c.thresholds.at(50000000000ull).kmaxBytes, 800000u);
    EXPECT_EQ(c.thresholds.at(100000000000ull).kminBytes, 400000u);
    EXPECT_EQ(c.thresholds.at(100000000000ull).kmaxBytes, 1600000u);
    EXPECT_DOUBLE_EQ(c.thresholds.at(100000000000ull).pmax, 0.2);
    std::string r25 = t + " " + HpccRateCcParams(c, 25000000000ull);
    EXPECT_EQ(Param("dcqcn", r25, "kmin"), 100000);
    EXPECT_EQ(Param("dcqcn", r25, "kmax"), 400000);
    EXPECT_DOUBLE_EQ(Param("dcqcn", r25, "pmax"), 0.2);
    EXPECT_EQ(HpccRateCcParams(c, 400000000000ull), "");
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "");
}

TEST(HpccConfig, MissingKeysKeepTheShippedValues)
{
    // Only CC_MODE 1: the DCQCN values are hpcc-sim-config's (config.txt's):
    // RP_TIMER 900 us, RATE_AI 50 Mb/s, MIN_RATE 100 Mb/s; third.cc defaults
    // GLOBAL_T 1, payload 1000, no stop time given.
    HpccConfig c = ParseHpccConfig("CC_MODE 1\n", "c");
    EXPECT_EQ(Param("dcqcn", c.ccParams, "rpg_time_reset"), 900000);
    EXPECT_EQ(Param("dcqcn", c.ccParams, "rpg_ai_rate"), 50e6);
    EXPECT_EQ(Param("dcqcn", c.ccParams, "rpg_min_rate"), 100e6);
    EXPECT_TRUE(c.globalT);
    EXPECT_EQ(c.payloadBytes, 1000u);
    EXPECT_EQ(c.stopNs, 0u);
    EXPECT_FALSE(c.hasAckHighPrio);
}

TEST(HpccConfig, AckIntervalInBytes)
{
    // rdma-hw.cc ReceiverCheckSeq: an ACK when the bytes received pass the
    // next multiple of L2_ACK_INTERVAL, or hit a multiple of L2_CHUNK_SIZE.
    // 4000 B with 1000 B payloads and 4000 B chunks: every 4th packet.
    HpccConfig c =
        ParseHpccConfig(Replace(Dcqcn(), "L2_ACK_INTERVAL 1", "L2_ACK_INTERVAL 4000"), "c");
    EXPECT_EQ(c.ackIntervalPkts, 4u);
    EXPECT_EQ(Param("dcqcn", c.ccParams, "ack_interval"), 4);
    // 1500 B: not whole packets; refused with the key and line.
    auto e = Fails([] {
        ParseHpccConfig(Replace(Dcqcn(), "L2_ACK_INTERVAL 1", "L2_ACK_INTERVAL 1500"), "c");
    });
    EXPECT_EQ(e.Field(), "L2_ACK_INTERVAL");
    EXPECT_EQ(e.Line(), 29u);
}

TEST(HpccConfig, ModesWeDoNotHaveAreNamed)
{
    for (auto m : {std::make_pair("7", "TIMELY"), std::make_pair("8", "DCTCP"),
                   std::make_pair("10", "HPCC-PINT")})
    {
        auto e = Fails([&] {
            ParseHpccConfig(Replace(kShipped, "CC_MODE 3", std::string("CC_MODE ") + m.first), "c");
        });
        EXPECT_EQ(e.Line(), 15u);
        EXPECT_EQ(e.Field(), "CC_MODE");
        EXPECT_TRUE(Has(e.what(), std::string(m.first) + " (" + m.second + ") is not in libcc"))
            << e.what();
        EXPECT_TRUE(Has(e.what(), "accepted: 1 (DCQCN -> dcqcn), 3 (HPCC -> hpcc)")) << e.what();
    }
    auto e = Fails([] { ParseHpccConfig("CC_MODE 2\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "c:1: field 'CC_MODE': '2' is not a mode")) << e.what();
}

TEST(HpccConfig, UnsupportedKeysFailOrWarn)
{
    std::string text = Replace(kShipped, "MULTI_RATE 0", "MULTI_RATE 1");
    auto e = Fails([&] { ParseHpccConfig(text, "c"); });
    EXPECT_EQ(e.Line(), 39u);
    EXPECT_EQ(e.Field(), "MULTI_RATE");
    EXPECT_TRUE(Has(e.what(), "--configIgnoreUnsupported")) << e.what();
    HpccConfig c = ParseHpccConfig(text, "c", true);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_TRUE(Has(c.warnings[0], "c:39:MULTI_RATE: 1 (a rate per hop) is not supported"))
        << c.warnings[0];
    // One line per key.
    text = Replace(Replace(text, "LINK_DOWN 0 0 0", "LINK_DOWN 100 1 2"), "RATE_BOUND 1",
                   "RATE_BOUND 0");
    c = ParseHpccConfig(text, "c", true);
    EXPECT_EQ(c.warnings.size(), 3u);
    // HAS_WIN 1 with DCQCN: libcc's dcqcn has no window.
    e = Fails([] { ParseHpccConfig(Replace(Dcqcn(), "HAS_WIN 0", "HAS_WIN 1"), "c"); });
    EXPECT_EQ(e.Field(), "HAS_WIN");
    for (auto kv :
         {std::make_pair("FAST_REACT 1", "FAST_REACT 0"),
          std::make_pair("SAMPLE_FEEDBACK 0", "SAMPLE_FEEDBACK 1"),
          std::make_pair("L2_BACK_TO_ZERO 0", "L2_BACK_TO_ZERO 1"),
          std::make_pair("HAS_WIN 1", "HAS_WIN 0"), std::make_pair("VAR_WIN 1", "VAR_WIN 0")})
    {
        std::string key = std::string(kv.first).substr(0, std::string(kv.first).find(' '));
        e = Fails([&] { ParseHpccConfig(Replace(kShipped, kv.first, kv.second), "c"); });
        EXPECT_EQ(e.Field(), key) << e.what();
    }
}

TEST(HpccConfig, BadInputNamesLineAndKey)
{
    auto e = Fails([] { ParseHpccConfig("CC_MODE 3\nNOT_A_KEY 1\n", "c"); });
    EXPECT_EQ(e.Line(), 2u);
    EXPECT_EQ(e.Field(), "NOT_A_KEY");
    e = Fails([] { ParseHpccConfig("RATE_AI fast\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "c:1: field 'RATE_AI': 'fast' is not accepted: a rate")) << e.what();
    e = Fails([] { ParseHpccConfig("CC_MODE 1\nCC_MODE 3\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "given twice (first on line 1)")) << e.what();
    e = Fails([] { ParseHpccConfig("PACKET_PAYLOAD_SIZE 9000\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "a whole number, 1 .. 1460")) << e.what();
    e = Fails([] { ParseHpccConfig("RP_TIMER 300 us\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "expected 1 value, found 2")) << e.what();
    // A rate in KMIN_MAP without its KMAX_MAP row.
    e = Fails([] {
        ParseHpccConfig("CC_MODE 1\nHAS_WIN 0\nKMIN_MAP 1 25000000000 100\n"
                        "KMAX_MAP 1 100000000000 1600\nPMAX_MAP 1 25000000000 0.2\n",
                        "c");
    });
    EXPECT_EQ(e.Field(), "KMAX_MAP");
    EXPECT_TRUE(Has(e.what(), "no entry for rate 25000000000")) << e.what();
    // A map left out altogether (found by fuzz_hpcc_config: the reader
    // threw std::out_of_range looking up the missing key's line).
    e = Fails([] {
        ParseHpccConfig("CC_MODE 1\nHAS_WIN 0\nKMIN_MAP 1 25000000000 100\n"
                        "PMAX_MAP 1 25000000000 0.2\n",
                        "c");
    });
    EXPECT_EQ(e.Field(), "KMAX_MAP");
    EXPECT_EQ(e.Line(), 0u);
    EXPECT_TRUE(Has(e.what(), "c: field 'KMAX_MAP': missing: no entry for rate 25000000000"))
        << e.what();
    // kmin above kmax.
    e = Fails([] {
        ParseHpccConfig("CC_MODE 1\nHAS_WIN 0\nKMIN_MAP 1 25000000000 500\n"
                        "KMAX_MAP 1 25000000000 400\nPMAX_MAP 1 25000000000 0.2\n",
                        "c");
    });
    EXPECT_TRUE(Has(e.what(), "(500 KB) exceeds its KMAX_MAP value (400 KB)")) << e.what();
    e = Fails([] { ParseHpccConfig("KMIN_MAP 2 25000000000 100\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "expected 5 values, found 3")) << e.what();
}

TEST(HpccConfig, Rates)
{
    uint64_t b = 0;
    EXPECT_TRUE(ParseHpccRate("50Mb/s", b));
    EXPECT_EQ(b, 50000000u);
    EXPECT_TRUE(ParseHpccRate("100Gbps", b));
    EXPECT_EQ(b, 100000000000u);
    EXPECT_TRUE(ParseHpccRate("1000", b)); // ns-3 DataRate: bits/s
    EXPECT_EQ(b, 1000u);
    EXPECT_TRUE(ParseHpccRate("5MB/s", b)); // bytes: x 8
    EXPECT_EQ(b, 40000000u);
    EXPECT_FALSE(ParseHpccRate("1.5b/s", b));
    EXPECT_FALSE(ParseHpccRate("-5Mb/s", b));
    EXPECT_FALSE(ParseHpccRate("Mb/s", b));
    EXPECT_FALSE(ParseHpccRate("0", b));
}

TEST(HpccConfig, PathsResolveFromTheWorkingDirectoryThenTheConfigsPlace)
{
    char tmpl[] = "/tmp/hpcccfgXXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string root = tmpl;
    ASSERT_EQ(mkdir((root + "/sim").c_str(), 0755), 0);
    ASSERT_EQ(mkdir((root + "/sim/mix").c_str(), 0755), 0);
    ASSERT_EQ(mkdir((root + "/run").c_str(), 0755), 0);
    std::ofstream(root + "/sim/mix/topology.txt") << "x\n";
    std::ofstream(root + "/sim/mix/flow.txt") << "x\n";
    std::ofstream(root + "/sim/mix/config.txt")
        << "TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE flow.txt\nFCT_OUTPUT_FILE mix/fct.txt\n"
           "PFC_OUTPUT_FILE pfc.txt\n";
    char old[4096];
    ASSERT_NE(getcwd(old, sizeof old), nullptr);
    ASSERT_EQ(chdir((root + "/run").c_str()), 0);
    std::string cfg = root + "/sim/mix/config.txt";
    // Not in the working directory: mix/topology.txt is found from the
    // config's parent (that simulator's layout), flow.txt beside the config;
    // the output mix/fct.txt likewise (no mix/ here). A bare output name is
    // always the working directory's, as there.
    HpccConfig c = ReadHpccConfig(cfg);
    EXPECT_EQ(c.topologyFile, root + "/sim/mix/topology.txt");
    EXPECT_EQ(c.flowFile, root + "/sim/mix/flow.txt");
    EXPECT_EQ(c.fctOutputFile, root + "/sim/mix/fct.txt");
    EXPECT_EQ(c.pfcOutputFile, "pfc.txt");
    // In the working directory: it wins, as in that simulator.
    ASSERT_EQ(mkdir((root + "/run/mix").c_str(), 0755), 0);
    std::ofstream(root + "/run/mix/topology.txt") << "x\n";
    std::ofstream(root + "/run/flow.txt") << "x\n";
    c = ReadHpccConfig(cfg);
    EXPECT_EQ(c.topologyFile, "mix/topology.txt");
    EXPECT_EQ(c.flowFile, "flow.txt");
    EXPECT_EQ(c.fctOutputFile, "mix/fct.txt");
    EXPECT_EQ(c.pfcOutputFile, "pfc.txt");
    // Absolute paths stay; a path found nowhere stays as given.
    EXPECT_EQ(ResolveHpccPath("/abs/x.txt", cfg, false), "/abs/x.txt");
    EXPECT_EQ(ResolveHpccPath("none/x.txt", cfg, false), "none/x.txt");
    ASSERT_EQ(chdir(old), 0);
    std::string rm = "rm -rf '" + root + "'";
    ASSERT_EQ(std::system(rm.c_str()), 0);
    // A config that cannot be read is an I/O failure.
    EXPECT_THROW(ReadHpccConfig(root + "/nothing.txt"), FileIoError);
}

// A fabric with 100G hosts and a 400G core: hosts 0 and 1, switches 2 and
// 3; 0-2 100G, 2-3 400G, 3-1 100G. Base set: DCQCN, kmin 400 KB, kmax 1600
// KB, pmax 0.2 (config.txt's 100G row); 400G ports: 4x (run.py's core row,
// 100 x 4 x bw / 25 KB): kmin 1600 KB, kmax 6400 KB.
TEST(HpccConfig, PerRateThresholdsReachTheRightPorts)
{
    TopologySpec t;
    t.nNodes = 4;
    t.isSwitch = {false, false, true, true};
    t.links = {{0, 2, 100000000000ull, 1000, 0, 1},
               {2, 3, 400000000000ull, 1000, 0, 2},
               {3, 1, 100000000000ull, 1000, 0, 3}};
    RdmaNetwork net;
    net.SetCongestionControl("dcqcn", "preset=hpcc-sim");
    net.SetCongestionControlForRate(400000000000ull, "kmin=1600KB kmax=6400KB pmax=0.2");
    // A bad set is refused at once, naming the rate.
    try
    {
        net.SetCongestionControlForRate(200000000000ull, "kmin=7000KB");
        ADD_FAILURE() << "kmin above kmax accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_TRUE(Has(e.what(), "ports of 200000000000 bps")) << e.what();
        EXPECT_TRUE(Has(e.what(), "kmin")) << e.what();
    }
    net.SetCongestionControlForRate(200000000000ull, "");
    net.Build(t);
    for (uint32_t sw : {2u, 3u})
    {
        Ptr<SwitchNode> s = net.GetSwitch(sw);
        std::string err;
        ASSERT_TRUE(s->CheckCongestionControl(err)) << err;
        uint32_t host = sw == 2 ? 0 : 1;
        uint32_t edge = net.GetLinkDevice(sw, host)->GetIfIndex();
        uint32_t core = net.GetLinkDevice(sw, sw == 2 ? 3 : 2)->GetIfIndex();
        double kmin = 0;
        ASSERT_EQ(libcc_params_get(s->GetCpParams(edge), "kmin", &kmin), LIBCC_OK);
        EXPECT_EQ(kmin, 400000);
        ASSERT_EQ(libcc_params_get(s->GetCpParams(core), "kmin", &kmin), LIBCC_OK);
        EXPECT_EQ(kmin, 1600000);
        // Marking at a 1 MB queue: 100G port (1e6 - 4e5) / (1.6e6 - 4e5) x
        // 0.2 = 0.1; 400G port below its kmin: 0. At 4 MB the 400G port:
        // (4e6 - 1.6e6) / (6.4e6 - 1.6e6) x 0.2 = 0.1.
        EXPECT_NEAR(libcc_cp_mark_probability(s->GetCp(edge), 1000000), 0.1, 1e-12);
        EXPECT_EQ(libcc_cp_mark_probability(s->GetCp(core), 1000000), 0.0);
        EXPECT_NEAR(libcc_cp_mark_probability(s->GetCp(core), 4000000), 0.1, 1e-12);
    }
    // Hosts keep the base set.
    double kmin = 0;
    libcc_params_get(net.GetCcConfig()->GetParams(), "kmin", &kmin);
    EXPECT_EQ(kmin, 400000);
    Simulator::Destroy();
}

// Paths of different lengths: hosts 0, 1 on switch 3, host 2 on switch 4,
// 3-4 linked; every link 100G, 1 us. That simulator's base RTT (third.cc
// CalculateRoute, then rtt = 2 x delay + txDelay): per link 2 x 1000 ns +
// 1000 B x 8 / 100G = 80 ns. 0->1: 2 links, 4160 ns; 0->2: 3 links, 6240 ns
// = the largest, T of every flow with GLOBAL_T.
TEST(HpccConfig, GlobalTIsTheLargestBaseRtt)
{
    TopologySpec t;
    t.nNodes = 5;
    t.isSwitch = {false, false, false, true, true};
    t.links = {{0, 3, 100000000000ull, 1000, 0, 1},
               {1, 3, 100000000000ull, 1000, 0, 2},
               {3, 4, 100000000000ull, 1000, 0, 3},
               {4, 2, 100000000000ull, 1000, 0, 4}};
    for (bool global : {true, false})
    {
        RdmaNetwork net;
        net.SetCongestionControl("hpcc");
        net.SetGlobalBaseRtt(global);
        net.Build(t);
        EXPECT_EQ(net.GetPath(0, 1).hpccBaseRttNs, 4160u);
        EXPECT_EQ(net.GetPath(0, 2).hpccBaseRttNs, 6240u);
        EXPECT_EQ(net.GetMaxHpccSimRtt(), 6240u);
        FlowSpec f{0, 1, 3, 100, 10000, 0, 1};
        Ptr<RdmaTxQueuePair> qp = net.AddFlow(f, 0);
        EXPECT_EQ(qp->GetFlow().ccBaseRttNs, global ? 6240u : 0u);
        // The ideal FCT keeps the path's own base RTT either way.
        EXPECT_EQ(qp->GetFlow().baseRttNs, net.GetPath(0, 1).baseRttNs);
        Simulator::Destroy();
    }
}

// AddSwitchCongestionControl after Build (rdma-sim gives HPCC-PINT switches
// T this way): every switch port takes the assignments on top of its set,
// the per-rate ones kept; hosts keep theirs. Same fabric as above, dctcp
// with K = 300 KB on 100G ports.
TEST(HpccConfig, SwitchParametersAfterBuild)
{
    TopologySpec t;
    t.nNodes = 5;
    t.isSwitch = {false, false, false, true, true};
    t.links = {{0, 3, 100000000000ull, 1000, 0, 1},
               {1, 3, 100000000000ull, 1000, 0, 2},
               {3, 4, 100000000000ull, 1000, 0, 3},
               {4, 2, 100000000000ull, 1000, 0, 4}};
    RdmaNetwork net;
    net.SetCongestionControl("dctcp", "preset=hpcc-sim");
    net.SetCongestionControlForRate(100000000000ull, "k=300KB");
    net.Build(t);
    net.AddSwitchCongestionControl("base_rtt=" + std::to_string(net.GetMaxHpccSimRtt()) + "ns");
    for (uint32_t sw : {3u, 4u})
    {
        Ptr<SwitchNode> s = net.GetSwitch(sw);
        uint32_t port = net.GetLinkDevice(sw, sw == 3 ? 4 : 3)->GetIfIndex();
        double v = 0;
        ASSERT_EQ(libcc_params_get(s->GetCpParams(port), "base_rtt", &v), LIBCC_OK);
        EXPECT_EQ(v, 6240);
        ASSERT_EQ(libcc_params_get(s->GetCpParams(port), "k", &v), LIBCC_OK);
        EXPECT_EQ(v, 300000);
    }
    double v = -1;
    libcc_params_get(net.GetCcConfig()->GetParams(), "base_rtt", &v);
    EXPECT_EQ(v, 0);
    EXPECT_THROW(net.AddSwitchCongestionControl("base_rtt=2s"), std::invalid_argument);
    Simulator::Destroy();
}

// A k = 4 fat-tree, 100G, 1 us: the longest host-to-host path crosses 6
// links (host, edge, aggregation, core, aggregation, edge, host): 6 x (2 x
// 1000 + 80) = 12480 ns, and GetMaxHpccSimRtt agrees with GetPath over
// every pair.
TEST(HpccConfig, MaxRttOfAFatTree)
{
    RdmaNetwork net;
    net.SetCongestionControl("hpcc");
    TopologySpec t = MakeFatTreeTopology(4, 100000000000ull, 1000);
    net.Build(t);
    uint64_t brute = 0;
    for (uint32_t a = 0; a < 16; a++)
    {
        for (uint32_t b = 0; b < 16; b++)
        {
            if (a != b)
            {
                brute = std::max(brute, net.GetPath(a, b).hpccBaseRttNs);
            }
        }
    }
    EXPECT_EQ(brute, 12480u);
    EXPECT_EQ(net.GetMaxHpccSimRtt(), 12480u);
    Simulator::Destroy();
}

TEST(HpccConfig, LossAndTraceNodes)
{
    // ERROR_RATE_PER_LINK: a probability, given by rdma-sim to every link
    // whose topology error_rate is 0 (third.cc's global error model).
    HpccConfig c = ParseHpccConfig(
        Replace(kShipped, "ERROR_RATE_PER_LINK 0.0000", "ERROR_RATE_PER_LINK 0.01"), "c");
    EXPECT_DOUBLE_EQ(c.errorRatePerLink, 0.01);
    EXPECT_TRUE(c.warnings.empty());
    auto e = Fails([] { ParseHpccConfig("ERROR_RATE_PER_LINK 1\n", "c"); });
    EXPECT_EQ(e.Field(), "ERROR_RATE_PER_LINK");
    // TRACE_FILE: "n" then n ids over any lines; ids past the last node are
    // skipped (third.cc), what follows the n ids is not read.
    char path[] = "/tmp/hpcctraceXXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    std::ofstream(path) << "4\n0 5\n70 2\nFirst line: tracing node #\n";
    std::vector<uint32_t> ids = ReadHpccTraceNodes(path, 66);
    EXPECT_EQ(ids, (std::vector<uint32_t>{0, 5, 2}));
    std::ofstream(path) << "3\n0 1\n";
    e = Fails([&] { ReadHpccTraceNodes(path, 66); });
    EXPECT_TRUE(Has(e.what(), "file ends after 2 of 3 node ids")) << e.what();
    std::ofstream(path) << "2\n0 x\n";
    e = Fails([&] { ReadHpccTraceNodes(path, 66); });
    EXPECT_EQ(e.Line(), 2u);
    EXPECT_EQ(e.Field(), "node_id");
    unlink(path);
}
