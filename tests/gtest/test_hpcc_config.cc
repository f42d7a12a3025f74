// SPDX-License-Identifier: GPL-2.0-only
//
// The HPCC simulator's config.txt reader (hpcc/hpcc-config.h): every key's
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
#include <initializer_list>
#include <string>
#include <utility>

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

/// kShipped with each (from, to) replaced in turn: a config.txt as run.py
/// writes it for one algorithm.
std::string
Edited(std::initializer_list<std::pair<const char*, const char*>> edits)
{
    std::string s = kShipped;
    for (const auto& e : edits)
    {
        s = Replace(s, e.first, e.second);
    }
    return s;
}

// The DCQCN variant, as that simulator's run.py writes it for --cc dcqcn
// --bw 100: mode 1, no window, t_inc 300, ai 5*100/25 = 20, hai 50*100/25 =
// 200, MIN_RATE 1000Mb/s, ACK_HIGH_PRIO 1.
std::string
Dcqcn()
{
    return Edited({
        {"CC_MODE 3", "CC_MODE 1"},
        {"RP_TIMER 900 ", "RP_TIMER 300"},
        {"RATE_AI 50Mb/s", "RATE_AI 20Mb/s"},
        {"RATE_HAI 100Mb/s", "RATE_HAI 200Mb/s"},
        {"MIN_RATE 100Mb/s", "MIN_RATE 1000Mb/s"},
        {"HAS_WIN 1", "HAS_WIN 0"},
        {"VAR_WIN 1", "VAR_WIN 0"},
        {"ACK_HIGH_PRIO 0", "ACK_HIGH_PRIO 1"},
    });
}

// run.py --cc timely --bw 100: mode 7, t_inc 300, ai = 10 x 100 / 10 = 100,
// hai = 50 x 100 / 10 = 500 (Mb/s), MIN_RATE 1000Mb/s, no window, us 0,
// pint_log_base 1.01 (its default), ACK_HIGH_PRIO 1; the DCQCN maps stay.
std::string
Timely()
{
    return Edited({
        {"CC_MODE 3", "CC_MODE 7"},
        {"RP_TIMER 900 ", "RP_TIMER 300"},
        {"RATE_AI 50Mb/s", "RATE_AI 100Mb/s"},
        {"RATE_HAI 100Mb/s", "RATE_HAI 500Mb/s"},
        {"MIN_RATE 100Mb/s", "MIN_RATE 1000Mb/s"},
        {"HAS_WIN 1", "HAS_WIN 0"},
        {"VAR_WIN 1", "VAR_WIN 0"},
        {"FAST_REACT 1", "FAST_REACT 0"},
        {"PINT_LOG_BASE 1.05", "PINT_LOG_BASE 1.01"},
        {"ACK_HIGH_PRIO 0", "ACK_HIGH_PRIO 1"},
    });
}

// run.py --cc dctcp --bw 100: mode 8, g 0.0625, ai = hai = 10 ("useless"),
// dctcp_ai 615, window (HAS_WIN 1, VAR_WIN 1), us 0, and its own maps:
// kmin = kmax = 30 x bw / 10 = 300 KB at 100G, 1200 KB at 400G, pmax 1.0.
std::string
Dctcp()
{
    return Edited({
        {"CC_MODE 3", "CC_MODE 8"},
        {"RP_TIMER 900 ", "RP_TIMER 300"},
        {"EWMA_GAIN 0.00390625", "EWMA_GAIN 0.0625"},
        {"RATE_AI 50Mb/s", "RATE_AI 10Mb/s"},
        {"RATE_HAI 100Mb/s", "RATE_HAI 10Mb/s"},
        {"MIN_RATE 100Mb/s", "MIN_RATE 1000Mb/s"},
        {"DCTCP_RATE_AI 1000Mb/s", "DCTCP_RATE_AI 615Mb/s"},
        {"FAST_REACT 1", "FAST_REACT 0"},
        {"PINT_LOG_BASE 1.05", "PINT_LOG_BASE 1.01"},
        {"KMAX_MAP 3 25000000000 400 50000000000 800 100000000000 1600",
         "KMAX_MAP 2 100000000000 300 400000000000 1200"},
        {"KMIN_MAP 3 25000000000 100 50000000000 200 100000000000 400",
         "KMIN_MAP 2 100000000000 300 400000000000 1200"},
        {"PMAX_MAP 3 25000000000 0.2 50000000000 0.2 100000000000 0.2",
         "PMAX_MAP 2 100000000000 1.00 400000000000 1.00"},
    });
}

// run.py --cc hpccPint --bw 100: mode 10, ai = 10 x 100 / 25 = 40 Mb/s (hai
// the same, unused), int_multi 100 / 25 = 4, window, us 1, u_tgt 0.95, mi 0,
// pint_log_base 1.01, pint_prob 1.0.
std::string
Pint()
{
    return Edited({
        {"CC_MODE 3", "CC_MODE 10"},
        {"RP_TIMER 900 ", "RP_TIMER 300"},
        {"RATE_AI 50Mb/s", "RATE_AI 40Mb/s"},
        {"RATE_HAI 100Mb/s", "RATE_HAI 40Mb/s"},
        {"MIN_RATE 100Mb/s", "MIN_RATE 1000Mb/s"},
        {"INT_MULTI 1", "INT_MULTI 4"},
        {"PINT_LOG_BASE 1.05", "PINT_LOG_BASE 1.01"},
    });
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

TEST(HpccConfig, EveryModeHasItsAlgorithm)
{
    for (auto m :
         {std::make_pair("1", "dcqcn"), std::make_pair("3", "hpcc"), std::make_pair("7", "timely"),
          std::make_pair("8", "dctcp"), std::make_pair("10", "hpcc-pint")})
    {
        HpccConfig c = ParseHpccConfig(std::string("CC_MODE ") + m.first + "\n", "c");
        EXPECT_EQ(c.algorithm, m.second);
        // What the reader writes, libcc takes (Param checks parse and validate).
        Param(c.algorithm, c.ccParams, "ack_interval");
    }
    auto e = Fails([] { ParseHpccConfig("CC_MODE 2\n", "c"); });
    EXPECT_TRUE(Has(e.what(), "c:1: field 'CC_MODE': '2' is not a mode of that simulator; "
                              "accepted: 1 (DCQCN -> dcqcn), 3 (HPCC -> hpcc), 7 (TIMELY -> "
                              "timely), 8 (DCTCP -> dctcp), 10 (HPCC-PINT -> hpcc-pint)"))
        << e.what();
}

// CC_MODE 7, rdma-hw.cc UpdateRateTimely: increases add m_rai (RATE_AI)
// while m_incStage < 5, else m_rhai (RATE_HAI), T_low ones too, and any
// decrease resets the stage; decreases stop at m_minRate (MIN_RATE); one
// full update per window of ACKs (ack_seq > m_lastUpdateSeq), the first
// only sets lastRtt; TimelyAlpha/Beta/TLow/THigh/MinRtt keep their
// attribute defaults (third.cc sets none): 0.875, 0.8, 50 us, 500 us, 20 us.
TEST(HpccConfig, TimelyVariantMapsEveryKey)
{
    HpccConfig c = ParseHpccConfig(Timely(), "c");
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.algorithm, "timely");
    const std::string& t = c.ccParams;
    // RATE_AI 100Mb/s, RATE_HAI 500Mb/s, MIN_RATE 1000Mb/s (bits/s).
    EXPECT_EQ(Param("timely", t, "delta"), 100e6);
    EXPECT_EQ(Param("timely", t, "hai_delta"), 500e6);
    EXPECT_EQ(Param("timely", t, "min_rate"), 1e9);
    // The simulator's fixed mechanism, from the hpcc-sim preset.
    EXPECT_EQ(Param("timely", t, "hai_thresh"), 5);
    EXPECT_EQ(Param("timely", t, "hai_all_increases"), 1);
    EXPECT_EQ(Param("timely", t, "per_window"), 1);
    EXPECT_DOUBLE_EQ(Param("timely", t, "alpha"), 0.875);
    EXPECT_DOUBLE_EQ(Param("timely", t, "beta"), 0.8);
    EXPECT_EQ(Param("timely", t, "t_low"), 50000);
    EXPECT_EQ(Param("timely", t, "t_high"), 500000);
    EXPECT_EQ(Param("timely", t, "min_rtt"), 20000);
    EXPECT_EQ(Param("timely", t, "ack_interval"), 1);
    // Read and checked, no effect: the DCQCN timers and gain, U_TARGET,
    // MI_THRESH, the PINT keys, DCTCP_RATE_AI, FAST_REACT (FastReactTimely
    // is empty), the ECN maps (TIMELY hosts ignore marks).
    EXPECT_FALSE(Has(t, "rpg_")) << t;
    EXPECT_FALSE(Has(t, " g=")) << t;
    EXPECT_FALSE(Has(t, "eta=")) << t;
    EXPECT_FALSE(c.thresholdsUsed);
    EXPECT_TRUE(c.thresholds.empty());
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "");
    EXPECT_EQ(HpccSwitchCcParams(c, 10000), "");
    EXPECT_TRUE(c.ackHighPrio);
    // ENABLE_QCN 0, FAST_REACT 1, MULTI_RATE 1, SAMPLE_FEEDBACK 1: no effect.
    std::string quiet = Replace(Timely(), "ENABLE_QCN 1", "ENABLE_QCN 0");
    quiet = Replace(quiet, "MULTI_RATE 0", "MULTI_RATE 1");
    quiet = Replace(quiet, "SAMPLE_FEEDBACK 0", "SAMPLE_FEEDBACK 1");
    EXPECT_EQ(ParseHpccConfig(quiet, "c").ccParams, t);
}

TEST(HpccConfig, TimelyRefusesAWindowAndRatesLibccCannotTake)
{
    // HAS_WIN 1 (run.py's timely_vwin): libcc's timely has no window.
    auto e = Fails([] { ParseHpccConfig(Replace(Timely(), "HAS_WIN 0", "HAS_WIN 1"), "c"); });
    EXPECT_EQ(e.Line(), 32u);
    EXPECT_EQ(e.Field(), "HAS_WIN");
    EXPECT_TRUE(Has(e.what(), "1 with CC_MODE 7 is not supported: libcc's timely sets a rate, "
                              "no window (HAS_WIN 0"))
        << e.what();
    // RATE_HAI 2 Tb/s: a rate the simulator takes, above libcc's hai_delta
    // range (0 .. 1 Tbit/s).
    e = Fails(
        [] { ParseHpccConfig(Replace(Timely(), "RATE_HAI 500Mb/s", "RATE_HAI 2Tb/s"), "c"); });
    EXPECT_TRUE(Has(e.what(), "c:23: field 'RATE_HAI': '2Tb/s' is above the largest hai_delta of "
                              "libcc's timely; accepted: 1bps .. 1Tb/s"))
        << e.what();
    // A bad value: MIN_RATE is a rate.
    e = Fails([] { ParseHpccConfig(Replace(Timely(), "MIN_RATE 1000Mb/s", "MIN_RATE 0"), "c"); });
    EXPECT_TRUE(Has(e.what(), "c:24: field 'MIN_RATE': '0' is not accepted: a rate like 50Mb/s "
                              "or 100Mbps, whole bits/s, 1bps .. 10Tb/s"))
        << e.what();
}

// CC_MODE 8, rdma-hw.cc HandleAckDctcp: alpha = (1 - m_g) alpha + m_g F with
// m_g = EwmaGain (EWMA_GAIN), starting at 1; a mark outside CWR sets rate =
// max(m_minRate, rate (1 - alpha / 2)) (MIN_RATE); each new window outside
// CWR adds m_dctcp_rai (DCTCP_RATE_AI). HAS_WIN 1 + VAR_WIN 1: window =
// maxBdp x rate / line rate (RdmaQueuePair::GetWin), libcc's window=1.
// Switches: SwitchMmu::ShouldSendCN at dequeue with kmin = kmax = K marks
// every packet leaving a queue above K: k per link rate.
TEST(HpccConfig, DctcpVariantMapsEveryKey)
{
    HpccConfig c = ParseHpccConfig(Dctcp(), "c");
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.algorithm, "dctcp");
    const std::string& t = c.ccParams;
    EXPECT_DOUBLE_EQ(Param("dctcp", t, "g"), 0.0625);
    EXPECT_EQ(Param("dctcp", t, "rate_ai"), 615e6);
    EXPECT_EQ(Param("dctcp", t, "min_rate"), 1e9);
    EXPECT_EQ(Param("dctcp", t, "window"), 1);
    EXPECT_EQ(Param("dctcp", t, "initial_alpha"), 1);
    EXPECT_EQ(Param("dctcp", t, "mark_at_dequeue"), 1);
    // RATE_AI, RATE_HAI (10Mb/s, "useless" in run.py) and the HPCC keys: no
    // effect.
    EXPECT_FALSE(Has(t, "delta")) << t;
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "");
    EXPECT_EQ(HpccSwitchCcParams(c, 10000), "");
    // KMIN_MAP = KMAX_MAP in KB of 1000 bytes: K = 300 KB at 100G, 1200 KB
    // at 400G; PMAX 1 changes nothing when the band is empty.
    ASSERT_TRUE(c.thresholdsUsed);
    ASSERT_EQ(c.thresholds.size(), 2u);
    EXPECT_EQ(HpccRateCcParams(c, 100000000000ull), "k=300000B");
    EXPECT_EQ(HpccRateCcParams(c, 400000000000ull), "k=1200000B");
    EXPECT_EQ(Param("dctcp", t + " " + HpccRateCcParams(c, 400000000000ull), "k"), 1200000);
    EXPECT_EQ(HpccRateCcParams(c, 25000000000ull), "");
    // HAS_WIN 0: rate only (m_win = 0, GetWin 0), whatever VAR_WIN says.
    c = ParseHpccConfig(Replace(Dctcp(), "HAS_WIN 1", "HAS_WIN 0"), "c");
    EXPECT_EQ(Param("dctcp", c.ccParams, "window"), 0);
    // kmin below kmax with pmax 0: the band never marks, K = kmax (400 KB).
    c = ParseHpccConfig("CC_MODE 8\nKMIN_MAP 1 100000000000 100\n"
                        "KMAX_MAP 1 100000000000 400\nPMAX_MAP 1 100000000000 0\n",
                        "c");
    EXPECT_EQ(HpccRateCcParams(c, 100000000000ull), "k=400000B");
    // kmax 0 marks whenever a packet waits; libcc's k=0 would be 3 KB/Gbps.
    c = ParseHpccConfig("CC_MODE 8\nKMIN_MAP 1 100000000000 0\n"
                        "KMAX_MAP 1 100000000000 0\nPMAX_MAP 1 100000000000 1\n",
                        "c");
    EXPECT_EQ(HpccRateCcParams(c, 100000000000ull), "k=1B");
}

TEST(HpccConfig, DctcpRefusesWhatLibccCannotDo)
{
    // The shipped maps (kmin 400 < kmax 1600 KB, pmax 0.2 at 100G): marking
    // with a probability, libcc's dctcp has one K.
    std::string shippedMaps = Replace(Dctcp(), "KMAX_MAP 2 100000000000 300 400000000000 1200",
                                      "KMAX_MAP 3 25000000000 400 50000000000 800 100000000000 "
                                      "1600");
    shippedMaps = Replace(shippedMaps, "KMIN_MAP 2 100000000000 300 400000000000 1200",
                          "KMIN_MAP 3 25000000000 100 50000000000 200 100000000000 400");
    shippedMaps = Replace(shippedMaps, "PMAX_MAP 2 100000000000 1.00 400000000000 1.00",
                          "PMAX_MAP 3 25000000000 0.2 50000000000 0.2 100000000000 0.2");
    auto e = Fails([&] { ParseHpccConfig(shippedMaps, "c"); });
    EXPECT_EQ(e.Line(), 53u);
    EXPECT_EQ(e.Field(), "KMIN_MAP");
    EXPECT_TRUE(Has(e.what(), "rate 25000000000: kmin 100 KB below kmax 400 KB with pmax 0.2 "
                              "(marking with a probability) is not supported with CC_MODE 8"))
        << e.what();
    EXPECT_TRUE(Has(e.what(), "accepted: KMIN_MAP equal to KMAX_MAP (K), or PMAX_MAP 0"))
        << e.what();
    // Ignored: one warning per rate, K = kmax.
    HpccConfig c = ParseHpccConfig(shippedMaps, "c", true);
    EXPECT_EQ(c.warnings.size(), 3u);
    EXPECT_EQ(HpccRateCcParams(c, 100000000000ull), "k=1600000B");
    // VAR_WIN 0 with HAS_WIN 1: a fixed window of maxBdp.
    e = Fails([] { ParseHpccConfig(Replace(Dctcp(), "VAR_WIN 1", "VAR_WIN 0"), "c"); });
    EXPECT_EQ(e.Field(), "VAR_WIN");
    EXPECT_TRUE(Has(e.what(), "0 (a fixed window) with CC_MODE 8 is not supported: libcc's dctcp "
                              "varies its window (1), or has none (HAS_WIN 0)"))
        << e.what();
    // ENABLE_QCN 0: DCTCP would never see a mark.
    e = Fails([] { ParseHpccConfig(Replace(Dctcp(), "ENABLE_QCN 1", "ENABLE_QCN 0"), "c"); });
    EXPECT_EQ(e.Field(), "ENABLE_QCN");
    // A bad value: EWMA_GAIN is DCTCP's g, a ratio.
    e = Fails([] { ParseHpccConfig(Replace(Dctcp(), "EWMA_GAIN 0.0625", "EWMA_GAIN 1.5"), "c"); });
    EXPECT_TRUE(Has(e.what(), "c:20: field 'EWMA_GAIN': '1.5' is not accepted: a decimal number, "
                              "0 .. 1"))
        << e.what();
    e = Fails([] {
        ParseHpccConfig(Replace(Dctcp(), "DCTCP_RATE_AI 615Mb/s", "DCTCP_RATE_AI 5Tb/s"), "c");
    });
    EXPECT_TRUE(Has(e.what(), "c:25: field 'DCTCP_RATE_AI': '5Tb/s' is above the largest rate_ai "
                              "of libcc's dctcp; accepted: 1bps .. 1Tb/s"))
        << e.what();
}

// CC_MODE 10, rdma-hw.cc UpdateRateHpPint: max_c = U / m_targetUtil
// (U_TARGET); rate = curRate / max_c + m_rai (RATE_AI) when max_c >= 1 or
// m_incStage >= m_miThresh (MI_THRESH), else curRate + m_rai; every ACK
// reacts (FAST_REACT, MULTI_RATE, SAMPLE_FEEDBACK are not read). Pint::
// set_log_base(PINT_LOG_BASE); the sender keeps an ACK's feedback when
// rand() % 65536 < (uint32_t)(65536 x PINT_PROB). Switches: the EWMA's T is
// SwitchNode MaxRtt = maxRtt.
TEST(HpccConfig, PintVariantMapsEveryKey)
{
    HpccConfig c = ParseHpccConfig(Pint(), "c");
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.algorithm, "hpcc-pint");
    const std::string& t = c.ccParams;
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", t, "eta"), 0.95);
    EXPECT_EQ(Param("hpcc-pint", t, "max_stage"), 0);
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", t, "log_base"), 1.01);
    EXPECT_EQ(Param("hpcc-pint", t, "sample_prob"), 1);
    EXPECT_EQ(Param("hpcc-pint", t, "max_flows"), 512); // Pint::max_concurrent
    // RATE_AI 40 Mb/s at 100G NICs, as HPCC's: step = 100e9 x (1 - 0.95) / N
    // -> N = 125.
    EXPECT_EQ(c.hpccRateAiBps, 40000000u);
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "w_ai=0B expected_flows=125");
    // Switches' T: the largest base RTT (6240 ns on GlobalTIsTheLargestBaseRtt's
    // fabric), hosts keep their flows'.
    EXPECT_EQ(HpccSwitchCcParams(c, 6240), "base_rtt=6240ns");
    EXPECT_EQ(Param("hpcc-pint", t + " " + HpccSwitchCcParams(c, 6240), "base_rtt"), 6240);
    EXPECT_EQ(Param("hpcc-pint", t, "base_rtt"), 0);
    // PINT hosts ignore ECN; INT_MULTI scales HPCC's INT only.
    EXPECT_FALSE(c.thresholdsUsed);
    EXPECT_TRUE(c.thresholds.empty());
    // FAST_REACT 0, MULTI_RATE 1, SAMPLE_FEEDBACK 1 are HPCC's: no effect.
    std::string quiet = Replace(Pint(), "FAST_REACT 1", "FAST_REACT 0");
    quiet = Replace(quiet, "MULTI_RATE 0", "MULTI_RATE 1");
    quiet = Replace(quiet, "SAMPLE_FEEDBACK 0", "SAMPLE_FEEDBACK 1");
    HpccConfig q = ParseHpccConfig(quiet, "c");
    EXPECT_TRUE(q.warnings.empty());
    EXPECT_EQ(q.ccParams, t);
    // PINT_PROB 0.1: the threshold (uint32_t)(65536 x 0.1) = 6553 of 65536.
    c = ParseHpccConfig(Replace(Pint(), "PINT_PROB 1.0", "PINT_PROB 0.1"), "c");
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", c.ccParams, "sample_prob"), 6553.0 / 65536);
    // U_TARGET 0.9, MI_THRESH 5.
    c = ParseHpccConfig(
        Replace(Replace(Pint(), "U_TARGET 0.95", "U_TARGET 0.9"), "MI_THRESH 0", "MI_THRESH 5"),
        "c");
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", c.ccParams, "eta"), 0.9);
    EXPECT_EQ(Param("hpcc-pint", c.ccParams, "max_stage"), 5);
    // At 25G, RATE_AI 40Mb/s, eta 0.9: N = 25e9 x 0.1 / 40e6 = 62.5, not
    // whole: W_ai = 40e6 x 10 us / 8 = 50 bytes.
    EXPECT_EQ(HpccHostCcParams(c, 10000, 25000000000ull), "w_ai=50B");
}

TEST(HpccConfig, PintRefusesWhatLibccCannotDo)
{
    for (auto kv :
         {std::make_pair("HAS_WIN 1", "HAS_WIN 0"), std::make_pair("VAR_WIN 1", "VAR_WIN 0")})
    {
        std::string key = std::string(kv.first).substr(0, std::string(kv.first).find(' '));
        auto e = Fails([&] { ParseHpccConfig(Replace(Pint(), kv.first, kv.second), "c"); });
        EXPECT_EQ(e.Field(), key) << e.what();
        EXPECT_TRUE(Has(e.what(), "with CC_MODE 10 is not supported: libcc's hpcc-pint"))
            << e.what();
    }
    // PINT_LOG_BASE 3: that simulator takes it, libcc's log_base is 1.001 .. 2.
    auto e = Fails(
        [] { ParseHpccConfig(Replace(Pint(), "PINT_LOG_BASE 1.01", "PINT_LOG_BASE 3"), "c"); });
    EXPECT_TRUE(Has(e.what(), "c:41: field 'PINT_LOG_BASE': '3' is outside the log_base range of "
                              "libcc's hpcc-pint; accepted: 1.001 .. 2"))
        << e.what();
    HpccConfig c =
        ParseHpccConfig(Replace(Pint(), "PINT_LOG_BASE 1.01", "PINT_LOG_BASE 3"), "c", true);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", c.ccParams, "log_base"), 1.05); // config.txt's
    // A bad value: PINT_PROB is a probability.
    e = Fails([] { ParseHpccConfig(Replace(Pint(), "PINT_PROB 1.0", "PINT_PROB 1.5"), "c"); });
    EXPECT_TRUE(Has(e.what(), "c:42: field 'PINT_PROB': '1.5' is not accepted: a decimal number, "
                              "0 .. 1"))
        << e.what();
}

TEST(HpccConfig, MissingKeysOfTheNewModesKeepTheShippedValues)
{
    // config.txt's RATE_AI 50Mb/s, RATE_HAI 100Mb/s, MIN_RATE 100Mb/s.
    HpccConfig c = ParseHpccConfig("CC_MODE 7\n", "c");
    EXPECT_EQ(Param("timely", c.ccParams, "delta"), 50e6);
    EXPECT_EQ(Param("timely", c.ccParams, "hai_delta"), 100e6);
    EXPECT_EQ(Param("timely", c.ccParams, "min_rate"), 100e6);
    // DCTCP_RATE_AI 1000Mb/s, EWMA_GAIN 1/256, MIN_RATE 100Mb/s, HAS_WIN 1
    // and VAR_WIN 1; no maps: every switch port will lack its row.
    c = ParseHpccConfig("CC_MODE 8\n", "c");
    EXPECT_EQ(Param("dctcp", c.ccParams, "rate_ai"), 1e9);
    EXPECT_DOUBLE_EQ(Param("dctcp", c.ccParams, "g"), 1.0 / 256);
    EXPECT_EQ(Param("dctcp", c.ccParams, "min_rate"), 100e6);
    EXPECT_EQ(Param("dctcp", c.ccParams, "window"), 1);
    EXPECT_TRUE(c.thresholdsUsed);
    EXPECT_EQ(HpccRateCcParams(c, 100000000000ull), "");
    // U_TARGET 0.95, MI_THRESH 0, PINT_LOG_BASE 1.05, PINT_PROB 1, RATE_AI
    // 50Mb/s: N = 100 at 100G.
    c = ParseHpccConfig("CC_MODE 10\n", "c");
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", c.ccParams, "eta"), 0.95);
    EXPECT_EQ(Param("hpcc-pint", c.ccParams, "max_stage"), 0);
    EXPECT_DOUBLE_EQ(Param("hpcc-pint", c.ccParams, "log_base"), 1.05);
    EXPECT_EQ(Param("hpcc-pint", c.ccParams, "sample_prob"), 1);
    EXPECT_EQ(HpccHostCcParams(c, 10000, 100000000000ull), "w_ai=0B expected_flows=100");
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
