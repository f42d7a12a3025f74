// SPDX-License-Identifier: GPL-2.0-only

#include "hpcc-config-reader.h"

#include "libcc/libcc.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

using Item = HpccConfigItem;
using Reader = HpccConfigReader;
using Mode = HpccCcMode;

std::string
Bytes(uint64_t b)
{
    return std::to_string(b) + "B";
}

std::string
Bps(uint64_t b)
{
    return std::to_string(b) + "bps";
}

std::string
Ns(uint64_t n)
{
    return std::to_string(n) + "ns";
}

std::string
Real(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// DCTCP's K of one link rate from its KMIN/KMAX/PMAX row. SwitchMmu::
/// ShouldSendCN marks a packet leaving a queue above kmax, and between kmin
/// and kmax with probability pmax x (q - kmin) / (kmax - kmin): one
/// threshold, kmax, when that band marks nothing (kmin = kmax, as run.py
/// writes for dctcp, or pmax 0). libcc's k 0 means "3 KB per Gbit/s of the
/// port", so kmax 0 (mark whenever a packet waits) is k = 1 B: the same
/// test on queues of whole packets.
uint64_t
DctcpK(HpccConfig& cfg, const Reader& r, const HpccRateThresholds& t, uint64_t rate,
       const Item& kminItem, const Item& kmaxItem)
{
    if (t.kminBytes != t.kmaxBytes && t.pmax > 0)
    {
        std::ostringstream os;
        os << "rate " << rate << ": kmin " << t.kminBytes / 1000 << " KB below kmax "
           << t.kmaxBytes / 1000 << " KB with pmax " << t.pmax
           << " (marking with a probability) is not supported with CC_MODE 8: libcc's dctcp "
              "marks every packet above one K; accepted: KMIN_MAP equal to KMAX_MAP (K), or "
              "PMAX_MAP 0 (K = KMAX_MAP)";
        r.Unsupported(cfg, kminItem, os.str());
    }
    if (t.kmaxBytes > kLibccMaxKBytes)
    {
        r.Unsupported(cfg, kmaxItem,
                      "rate " + std::to_string(rate) + ": " + std::to_string(t.kmaxBytes / 1000) +
                          " KB is above the largest k of libcc's dctcp; accepted: 0 .. " +
                          std::to_string(kLibccMaxKBytes / 1000) + " KB");
        return kLibccMaxKBytes;
    }
    return std::max<uint64_t>(t.kmaxBytes, 1);
}

} // namespace

HpccConfig
ParseHpccConfig(const std::string& text, const std::string& name, bool ignoreUnsupported)
{
    Reader r(name, ignoreUnsupported);
    HpccConfig cfg;
    cfg.file = name;

    // Lines of whitespace-separated words, as third.cc's `conf >> key`
    // reads them; a key's values are on its line. '#' starts a comment (an
    // addition: that simulator would read it as an unknown key).
    std::vector<Item> items;
    for (auto& l : SplitHpccTextLines(text, name))
    {
        Item it{l.first, l.second[0], {}};
        it.values.assign(l.second.begin() + 1, l.second.end());
        items.push_back(std::move(it));
    }

    // Pass 1: CC_MODE decides what the other keys mean.
    std::map<std::string, const Item*> byKey;
    for (const Item& it : items)
    {
        auto ins = byKey.emplace(it.key, &it);
        if (!ins.second)
        {
            r.Fail(it,
                   "given twice (first on line " + std::to_string(ins.first->second->line) + ")");
        }
        cfg.keyLines[it.key] = it.line;
    }
    auto expectCount = [&](const Item& it, size_t n) {
        if (it.values.size() != n)
        {
            r.Fail(it, "expected " + std::to_string(n) + " value" + (n == 1 ? "" : "s") +
                           ", found " + std::to_string(it.values.size()));
        }
    };
    cfg.ccMode = 1; // third.cc's default
    if (byKey.count("CC_MODE"))
    {
        const Item& it = *byKey["CC_MODE"];
        expectCount(it, 1);
        cfg.ccMode = static_cast<uint32_t>(r.Whole(it, 0, 0, UINT32_MAX));
        if (!FindHpccCcMode(cfg.ccMode))
        {
            r.Fail(it, "'" + it.values[0] +
                           "' is not a mode of that simulator; accepted: " + AcceptedHpccCcModes());
        }
    }
    const Mode& mode = *FindHpccCcMode(cfg.ccMode);
    cfg.algorithm = mode.algorithm;
    const bool dcqcn = cfg.ccMode == 1;
    const bool hpcc = cfg.ccMode == 3;
    const bool timely = cfg.ccMode == 7;
    const bool dctcp = cfg.ccMode == 8;
    const bool pint = cfg.ccMode == 10;
    // HPCC and HPCC-PINT share U_TARGET, MI_THRESH, RATE_AI and the window
    // (rdma-hw.cc UpdateRateHp, UpdateRateHpPint).
    const bool hpccLike = hpcc || pint;
    // "with CC_MODE 8 ... libcc's dctcp" in messages.
    const std::string inMode = "with CC_MODE " + std::to_string(cfg.ccMode);
    const std::string libccs = std::string("libcc's ") + mode.algorithm;
    // The modes whose hosts react to ECN marks (cnp_received_mlx,
    // HandleAckDctcp): their switch ports need a KMIN/KMAX/PMAX row.
    cfg.thresholdsUsed = dcqcn || dctcp;
    // Keys the file leaves out keep the shipped config.txt's values, not
    // third.cc's built-in defaults, some of which cannot run (EWMA_GAIN 1/16
    // is an integer 0 there, RP_TIMER and RATE_AI are unset). DCQCN and HPCC:
    // the hpcc-sim-config presets. TIMELY, DCTCP, HPCC-PINT: the hpcc-sim
    // presets (what run.py writes and rdma-hw.cc fixes: TIMELY's constants,
    // DCTCP's initial alpha, PINT's max_concurrent), then the shipped file's
    // values of the keys below written out.
    std::vector<std::string> params = {dcqcn || hpcc ? "preset=hpcc-sim-config"
                                                     : "preset=hpcc-sim"};
    std::map<std::string, std::string> assign; // libcc name -> value text
    auto set = [&](const std::string& p, const std::string& v) { assign[p] = v; };
    // A key of another mode is read and checked, and changes nothing, as in
    // that simulator.
    auto setD = [&](const std::string& p, const std::string& v) {
        if (dcqcn)
        {
            set(p, v);
        }
    };
    if (timely)
    {
        set("delta", Bps(50000000));      // RATE_AI 50Mb/s
        set("hai_delta", Bps(100000000)); // RATE_HAI 100Mb/s
        set("min_rate", Bps(100000000));  // MIN_RATE 100Mb/s
    }
    if (dctcp)
    {
        set("rate_ai", Bps(1000000000)); // DCTCP_RATE_AI 1000Mb/s
        set("g", Real(0.00390625));      // EWMA_GAIN
        set("min_rate", Bps(100000000)); // MIN_RATE 100Mb/s
    }
    if (pint)
    {
        set("eta", Real(0.95));       // U_TARGET
        set("max_stage", "0");        // MI_THRESH
        set("log_base", Real(1.05));  // PINT_LOG_BASE
        set("sample_prob", "1");      // PINT_PROB 1.0
        cfg.hpccRateAiBps = 50000000; // RATE_AI 50Mb/s
    }
    // A rate for a libcc parameter whose range ends at 1 Tbit/s.
    auto setRate = [&](const Item& it, const std::string& p, uint64_t v) {
        if (v > kLibccMaxRateBps)
        {
            r.Unsupported(cfg, it,
                          "'" + it.values[0] + "' is above the largest " + p + " of " + libccs +
                              "; accepted: 1bps .. 1Tb/s");
            return;
        }
        set(p, Bps(v));
    };

    uint32_t l2AckInterval = 1;
    uint32_t l2Chunk = 4000;
    bool hasWin = true, varWin = false;

    using Handler = std::function<void(const Item&)>;
    std::map<std::string, std::pair<size_t, Handler>> table = {
        {"CC_MODE", {1, [](const Item&) {}}},
        {"ENABLE_QCN",
         {1,
          [&](const Item& it) {
              // TIMELY, HPCC, HPCC-PINT hosts ignore the marks: no effect.
              if (!r.Flag(it) && (dcqcn || dctcp))
              {
                  r.Unsupported(cfg, it,
                                "0 (switches never mark) " + inMode +
                                    " is not supported: " + libccs + " switches mark by " +
                                    (dcqcn ? "kmin/kmax" : "K") + "; accepted: 1");
              }
          }}},
        // That simulator's switch never reads it (its MMU's thresholds are
        // always dynamic), nor its QbbNetDevice PauseTime: accepted, no effect
        // there or here.
        {"USE_DYNAMIC_PFC_THRESHOLD", {1, [&](const Item& it) { r.Flag(it); }}},
        {"PAUSE_TIME", {1, [&](const Item& it) { r.Real(it, 0, 0, 1e9, ""); }}},
        // Read by third.cc and never used (links take the topology's).
        {"DATA_RATE", {1, [](const Item&) {}}},
        {"LINK_DELAY", {1, [](const Item&) {}}},
        {"PACKET_PAYLOAD_SIZE",
         {1, [&](const Item& it) { cfg.payloadBytes = r.Whole(it, 0, 1, 1460); }}},
        {"L2_CHUNK_SIZE", {1, [&](const Item& it) { l2Chunk = r.Whole(it, 0, 1, UINT32_MAX); }}},
        {"L2_ACK_INTERVAL",
         {1, [&](const Item& it) { l2AckInterval = r.Whole(it, 0, 0, UINT32_MAX); }}},
        {"L2_BACK_TO_ZERO",
         {1,
          [&](const Item& it) {
              if (r.Flag(it))
              {
                  r.Unsupported(cfg, it,
                                "1 (go back to the chunk start) is not supported: ours goes "
                                "back to the NACKed byte (0)");
              }
          }}},
        {"TOPOLOGY_FILE", {1, [&](const Item& it) { cfg.topologyFile = it.values[0]; }}},
        {"FLOW_FILE", {1, [&](const Item& it) { cfg.flowFile = it.values[0]; }}},
        {"TRACE_FILE", {1, [&](const Item& it) { cfg.traceFile = it.values[0]; }}},
        {"TRACE_OUTPUT_FILE", {1, [&](const Item& it) { cfg.traceOutputFile = it.values[0]; }}},
        {"FCT_OUTPUT_FILE", {1, [&](const Item& it) { cfg.fctOutputFile = it.values[0]; }}},
        {"PFC_OUTPUT_FILE", {1, [&](const Item& it) { cfg.pfcOutputFile = it.values[0]; }}},
        {"QLEN_MON_FILE", {1, [&](const Item& it) { cfg.qlenMonFile = it.values[0]; }}},
        {"QLEN_MON_START",
         {1, [&](const Item& it) { cfg.qlenMonStartNs = r.Whole(it, 0, 0, 1000000000000000ull); }}},
        {"QLEN_MON_END",
         {1, [&](const Item& it) { cfg.qlenMonEndNs = r.Whole(it, 0, 0, 1000000000000000ull); }}},
        {"ENABLE_TRACE", {1, [&](const Item& it) { cfg.enableTrace = r.Flag(it); }}},
        {"SIMULATOR_STOP_TIME",
         {1,
          [&](const Item& it) {
              double s = r.Real(it, 0, 1e-9, 1000, " of seconds");
              cfg.stopNs = static_cast<uint64_t>(std::llround(s * 1e9));
          }}},
        // DCQCN (rdma-hw.cc, the Mlx functions); times in microseconds.
        {"ALPHA_RESUME_INTERVAL",
         {1, [&](const Item& it) { setD("dce_tcp_rtt", Ns(r.Micros(it, 1))); }}},
        {"RATE_DECREASE_INTERVAL",
         {1, [&](const Item& it) { setD("rate_reduce_monitor_period", Ns(r.Micros(it, 0))); }}},
        {"RP_TIMER", {1, [&](const Item& it) { setD("rpg_time_reset", Ns(r.Micros(it, 1))); }}},
        {"CLAMP_TARGET_RATE",
         {1, [&](const Item& it) { setD("clamp_tgt_rate", r.Flag(it) ? "1" : "0"); }}},
        // DCQCN's alpha gain, and DCTCP's (HandleAckDctcp uses the same m_g).
        {"EWMA_GAIN",
         {1,
          [&](const Item& it) {
              double g = r.Real(it, 0, 0, 1, "");
              if (dcqcn || dctcp)
              {
                  set("g", Real(g));
              }
          }}},
        {"FAST_RECOVERY_TIMES",
         {1,
          [&](const Item& it) {
              setD("rpg_threshold", std::to_string(r.Whole(it, 0, 1, 1000000)));
          }}},
        {"RATE_AI",
         {1,
          [&](const Item& it) {
              // DCQCN's AI step; TIMELY's (UpdateRateTimely's m_rai); HPCC's
              // and HPCC-PINT's per-update step (as W_ai: HpccHostCcParams);
              // DCTCP has its own key.
              uint64_t v = r.Rate(it, 0);
              if (dcqcn)
              {
                  set("rpg_ai_rate", Bps(v));
              }
              else if (timely)
              {
                  setRate(it, "delta", v);
              }
              else if (hpccLike)
              {
                  cfg.hpccRateAiBps = v;
              }
          }}},
        {"RATE_HAI",
         {1,
          [&](const Item& it) {
              // TIMELY: the step once m_incStage reaches 5.
              uint64_t v = r.Rate(it, 0);
              if (dcqcn)
              {
                  set("rpg_hai_rate", Bps(v));
              }
              else if (timely)
              {
                  setRate(it, "hai_delta", v);
              }
          }}},
        {"MIN_RATE",
         {1,
          [&](const Item& it) {
              // The floor of every decrease. HPCC and HPCC-PINT floor their
              // rate too; libcc's windows floor at one MTU instead (a
              // difference, docs/hpcc-sim.md).
              uint64_t v = r.Rate(it, 0);
              if (dcqcn)
              {
                  set("rpg_min_rate", Bps(v));
              }
              else if (timely || dctcp)
              {
                  setRate(it, "min_rate", v);
              }
          }}},
        // DCTCP's step once per window outside CWR; CC_MODE 8 only.
        {"DCTCP_RATE_AI",
         {1,
          [&](const Item& it) {
              uint64_t v = r.Rate(it, 0);
              if (dctcp)
              {
                  setRate(it, "rate_ai", v);
              }
          }}},
        {"ERROR_RATE_PER_LINK",
         {1,
          [&](const Item& it) {
              // third.cc gives it to every link whose topology error_rate is 0.
              cfg.errorRatePerLink = r.Real(it, 0, 0, 0.999999, "");
          }}},
        // HPCC (rdma-hw.cc UpdateRateHp).
        {"HAS_WIN", {1, [&](const Item& it) { hasWin = r.Flag(it); }}},
        {"VAR_WIN", {1, [&](const Item& it) { varWin = r.Flag(it); }}},
        {"GLOBAL_T", {1, [&](const Item& it) { cfg.globalT = r.Flag(it); }}},
        {"FAST_REACT",
         {1,
          [&](const Item& it) {
              // Only HPCC reads it: HPCC-PINT always reacts per ACK,
              // TIMELY's FastReactTimely is empty, DCTCP has none.
              if (!r.Flag(it) && hpcc)
              {
                  r.Unsupported(cfg, it,
                                "0 (react once per RTT) is not supported: libcc's hpcc reacts "
                                "to every ACK (1)");
              }
          }}},
        {"U_TARGET",
         {1,
          [&](const Item& it) {
              cfg.hpccEta = r.Real(it, 0, 0.01, 1, "");
              if (hpccLike)
              {
                  set("eta", Real(cfg.hpccEta));
              }
          }}},
        {"MI_THRESH",
         {1,
          [&](const Item& it) {
              uint64_t v = r.Whole(it, 0, 0, 1000);
              if (hpccLike)
              {
                  set("max_stage", std::to_string(v));
              }
          }}},
        // Our INT hop keeps 128 B / 80 B units whatever the rate (docs/hpcc-sim.md).
        {"INT_MULTI", {1, [&](const Item& it) { r.Whole(it, 0, 1, 1000000); }}},
        {"MULTI_RATE",
         {1,
          [&](const Item& it) {
              if (r.Flag(it) && hpcc) // UpdateRateHpPint has one rate
              {
                  r.Unsupported(cfg, it,
                                "1 (a rate per hop) is not supported: libcc's hpcc keeps one "
                                "window from the most utilised hop (0)");
              }
          }}},
        {"SAMPLE_FEEDBACK",
         {1,
          [&](const Item& it) {
              if (r.Flag(it) && hpcc) // UpdateRateHp only
              {
                  r.Unsupported(cfg, it,
                                "1 (INT once per RTT) is not supported: libcc's hpcc takes INT "
                                "from every ACK (0)");
              }
          }}},
        {"RATE_BOUND",
         {1,
          [&](const Item& it) {
              if (!r.Flag(it))
              {
                  r.Unsupported(cfg, it,
                                "0 (no rate limiter) is not supported: our hosts always pace at "
                                "libcc's rate (1)");
              }
          }}},
        // HPCC-PINT's (CC_MODE 10) only: Pint::set_log_base, and the
        // sender's rand() % 65536 < (uint32_t)(65536 x PINT_PROB).
        {"PINT_LOG_BASE",
         {1,
          [&](const Item& it) {
              double v = r.Real(it, 0, 1, 1e9, "");
              if (!pint)
              {
                  return;
              }
              if (v < 1.001 || v > 2)
              {
                  r.Unsupported(cfg, it,
                                "'" + it.values[0] + "' is outside the log_base range of " +
                                    libccs + "; accepted: 1.001 .. 2");
                  return;
              }
              set("log_base", Real(v));
          }}},
        {"PINT_PROB",
         {1,
          [&](const Item& it) {
              double v = r.Real(it, 0, 0, 1, "");
              if (pint)
              {
                  // The share of ACKs the simulator keeps, exactly.
                  set("sample_prob", Real(std::floor(65536.0 * v) / 65536.0));
              }
          }}},
        {"ACK_HIGH_PRIO",
         {1,
          [&](const Item& it) {
              cfg.hasAckHighPrio = true;
              cfg.ackHighPrio = r.Flag(it);
          }}},
        {"LINK_DOWN",
         {3,
          [&](const Item& it) {
              uint64_t t = r.Whole(it, 0, 0, UINT64_MAX >> 1);
              r.Whole(it, 1, 0, UINT32_MAX);
              r.Whole(it, 2, 0, UINT32_MAX);
              if (t != 0)
              {
                  r.Unsupported(cfg, it,
                                "taking a link down is not supported: only '0 0 0' (no link "
                                "down)");
              }
          }}},
        {"BUFFER_SIZE",
         {1, [&](const Item& it) { cfg.bufferBytes = r.Whole(it, 0, 1, 1u << 20) << 20; }}},
    };
    // The three maps: "n rate value rate value ...", rate in bits/s,
    // thresholds in KB of 1000 bytes (SwitchMmu::ConfigEcn), pmax a ratio.
    std::map<uint64_t, uint64_t> kmin, kmax;
    std::map<uint64_t, double> pmax;
    auto readMap = [&](const Item& it, bool isPmax, std::map<uint64_t, uint64_t>* k) {
        if (it.values.empty())
        {
            r.Fail(it, "expected 'n rate value ...'");
        }
        uint64_t n = r.Whole(it, 0, 1, 64);
        expectCount(it, 1 + 2 * n);
        for (uint64_t i = 0; i < n; i++)
        {
            uint64_t rate = r.Whole(it, 1 + 2 * i, 1, 1000000000000000ull);
            bool dup = isPmax ? pmax.count(rate) != 0 : k->count(rate) != 0;
            if (dup)
            {
                r.Fail(it, "rate " + std::to_string(rate) + " given twice");
            }
            if (isPmax)
            {
                pmax[rate] = r.Real(it, 2 + 2 * i, 0, 1, "");
            }
            else
            {
                (*k)[rate] = r.Whole(it, 2 + 2 * i, 0, 1000000000) * 1000;
            }
        }
    };

    for (const Item& it : items)
    {
        if (it.key == "KMIN_MAP" || it.key == "KMAX_MAP" || it.key == "PMAX_MAP")
        {
            readMap(it, it.key == "PMAX_MAP", it.key == "KMIN_MAP" ? &kmin : &kmax);
            continue;
        }
        auto h = table.find(it.key);
        if (h == table.end())
        {
            r.Fail(it, "not a key of the HPCC simulator's config (third.cc); the keys: "
                       "docs/hpcc-sim.md");
        }
        expectCount(it, h->second.first);
        h->second.second(it);
    }

    // What the keys mean together.
    auto at = [&](const char* key) -> const Item& { return *byKey.at(key); };
    // The window (third.cc: HAS_WIN gives a flow maxBdp, or its pair's BDP
    // without GLOBAL_T; VAR_WIN scales it by rate / line rate).
    if ((dcqcn || timely) && hasWin && byKey.count("HAS_WIN"))
    {
        // Left out, they run without one, as run.py writes them, although
        // third.cc's default is 1.
        r.Unsupported(cfg, at("HAS_WIN"),
                      "1 " + inMode + " is not supported: " + libccs +
                          " sets a rate, no window (HAS_WIN 0, as that simulator's run.py "
                          "writes for " +
                          mode.algorithm + ")");
    }
    if (hpccLike && !hasWin)
    {
        r.Unsupported(cfg, at("HAS_WIN"),
                      "0 " + inMode + " is not supported: " + libccs + " always has a window (1)");
    }
    // VAR_WIN left out: 1, the shipped config.txt's.
    if ((hpccLike || dctcp) && hasWin && !varWin && byKey.count("VAR_WIN"))
    {
        r.Unsupported(cfg, at("VAR_WIN"),
                      "0 (a fixed window) " + inMode + " is not supported: " + libccs +
                          " varies its window (1)" +
                          (dctcp ? std::string(", or has none (HAS_WIN 0)") : std::string()));
    }
    if (dctcp)
    {
        // window=1: rate plus a window of rate x T (VAR_WIN 1); 0: rate only.
        set("window", hasWin ? "1" : "0");
    }
    // ACKs: that simulator acknowledges when the bytes received pass the next
    // multiple of L2_ACK_INTERVAL, and at each multiple of L2_CHUNK_SIZE.
    if (byKey.count("L2_ACK_INTERVAL"))
    {
        const Item& it = at("L2_ACK_INTERVAL");
        if (l2AckInterval == 0)
        {
            r.Unsupported(cfg, it, "0 (no ACKs) is not supported");
        }
        else if (l2AckInterval <= cfg.payloadBytes)
        {
            cfg.ackIntervalPkts = 1;
        }
        else if (l2AckInterval % cfg.payloadBytes == 0 && l2Chunk % l2AckInterval == 0)
        {
            cfg.ackIntervalPkts = l2AckInterval / cfg.payloadBytes;
        }
        else
        {
            r.Unsupported(cfg, it,
                          std::to_string(l2AckInterval) +
                              " bytes is not supported: accepted up to PACKET_PAYLOAD_SIZE (an "
                              "ACK per packet) or a multiple of it that divides L2_CHUNK_SIZE");
        }
    }
    if (cfg.ackIntervalPkts != 1)
    {
        set("ack_interval", std::to_string(cfg.ackIntervalPkts));
    }
    if (cfg.thresholdsUsed && (!kmin.empty() || !kmax.empty() || !pmax.empty()))
    {
        for (const auto& k : kmin)
        {
            HpccRateThresholds t;
            t.kminBytes = k.second;
            t.line = byKey.count("KMIN_MAP") ? at("KMIN_MAP").line : 0;
            if (!kmax.count(k.first) || !pmax.count(k.first))
            {
                const char* lacking = kmax.count(k.first) ? "PMAX_MAP" : "KMAX_MAP";
                std::string msg = "no entry for rate " + std::to_string(k.first) +
                                  " of KMIN_MAP (every rate needs kmin, kmax and pmax)";
                if (!byKey.count(lacking))
                {
                    // The whole map is missing: the file, not a line, lacks it.
                    throw FileFormatError(name, 0, lacking, "missing: " + msg);
                }
                r.Fail(*byKey.at(lacking), msg);
            }
            t.kmaxBytes = kmax[k.first];
            t.pmax = pmax[k.first];
            if (t.kminBytes > t.kmaxBytes)
            {
                r.Fail(at("KMIN_MAP"), "kmin of rate " + std::to_string(k.first) + " (" +
                                           std::to_string(t.kminBytes / 1000) +
                                           " KB) exceeds its KMAX_MAP value (" +
                                           std::to_string(t.kmaxBytes / 1000) + " KB)");
            }
            if (dctcp)
            {
                t.kBytes = DctcpK(cfg, r, t, k.first, at("KMIN_MAP"), at("KMAX_MAP"));
            }
            cfg.thresholds[k.first] = t;
        }
        for (const auto& k : kmax)
        {
            if (!kmin.count(k.first))
            {
                r.Fail(byKey.count("KMIN_MAP") ? at("KMIN_MAP") : at("KMAX_MAP"),
                       "no entry for rate " + std::to_string(k.first) +
                           " of KMAX_MAP (every rate needs kmin, kmax and pmax)");
            }
        }
        for (const auto& k : pmax)
        {
            if (!kmin.count(k.first))
            {
                r.Fail(byKey.count("KMIN_MAP") ? at("KMIN_MAP") : at("PMAX_MAP"),
                       "no entry for rate " + std::to_string(k.first) +
                           " of PMAX_MAP (every rate needs kmin, kmax and pmax)");
            }
        }
    }
    for (const auto& a : assign)
    {
        params.push_back(a.first + "=" + a.second);
    }
    for (const std::string& p : params)
    {
        cfg.ccParams += (cfg.ccParams.empty() ? "" : " ") + p;
    }
    return cfg;
}

std::string
HpccHostCcParams(const HpccConfig& cfg, uint64_t tNs, uint64_t nicBps)
{
    if ((cfg.ccMode != 3 && cfg.ccMode != 10) || cfg.hpccRateAiBps == 0)
    {
        return "";
    }
    // UpdateRateHp and UpdateRateHpPint add RATE_AI to the rate per update; libcc adds W_ai to
    // the window, R = W / T: W_ai = RATE_AI x T / 8. With the rule of thumb
    // W_ai = line x T x (1 - eta) / N the step is line x (1 - eta) / N,
    // exact for every T when N comes out whole.
    double n = static_cast<double>(nicBps) * (1.0 - cfg.hpccEta) / cfg.hpccRateAiBps;
    if (n >= 1 && n <= 1e6 && std::fabs(n - std::round(n)) < 1e-6)
    {
        return "w_ai=0B expected_flows=" + std::to_string(std::llround(n));
    }
    uint64_t w =
        static_cast<uint64_t>(std::llround(static_cast<double>(cfg.hpccRateAiBps) * tNs / 8e9));
    return "w_ai=" + Bytes(std::max<uint64_t>(w, 1));
}

std::string
HpccRateCcParams(const HpccConfig& cfg, uint64_t rateBps)
{
    auto t = cfg.thresholds.find(rateBps);
    if (t == cfg.thresholds.end())
    {
        return "";
    }
    if (cfg.ccMode == 8)
    {
        return "k=" + Bytes(t->second.kBytes);
    }
    return "kmin=" + Bytes(t->second.kminBytes) + " kmax=" + Bytes(t->second.kmaxBytes) +
           " pmax=" + Real(t->second.pmax);
}

std::string
HpccSwitchCcParams(const HpccConfig& cfg, uint64_t maxRttNs)
{
    // HPCC-PINT's switches: T of the utilisation EWMA is the fabric's
    // largest base RTT (third.cc sets every SwitchNode's MaxRtt to maxRtt,
    // whatever GLOBAL_T), libcc's base_rtt on a CP.
    if (cfg.ccMode != 10 || maxRttNs == 0)
    {
        return "";
    }
    return "base_rtt=" + Ns(maxRttNs);
}

} // namespace ns3
