// SPDX-License-Identifier: GPL-2.0-only
//
// The HPCC simulator's run configuration (its simulation/mix/config.txt,
// read by its scratch/third.cc), read unchanged and mapped to our options and
// libcc parameter text. The reader knows that simulator's key names and
// libcc's parameter names; the bindings it feeds stay generic. Every key
// and what we do with it: docs/hpcc-sim.md.
//
// A bad value, an unknown key or a key we cannot honour raises
// FileFormatError (file, line, key as the field); a file that cannot be read
// raises FileIoError. With ignoreUnsupported a key we cannot honour becomes
// one warning line instead (HpccConfig::warnings).

#ifndef LIBCC_HPCC_CONFIG_H
#define LIBCC_HPCC_CONFIG_H

#include "hpcc-format.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// ECN marking thresholds for the switch ports of one link rate, from
/// KMIN_MAP / KMAX_MAP / PMAX_MAP (KB of 1000 bytes, probability).
struct HpccRateThresholds
{
    uint64_t kminBytes = 0;
    uint64_t kmaxBytes = 0;
    double pmax = 0;
    uint64_t kBytes = 0; ///< DCTCP (CC_MODE 8): its one threshold K, from the three
    uint32_t line = 0;   ///< the KMIN_MAP line, for messages
};

struct HpccConfig
{
    std::string file; ///< the config file as named
    /// Every key the file gives, with its line (for messages and the doc).
    std::map<std::string, uint32_t> keyLines;

    uint32_t ccMode = 0;   ///< CC_MODE
    std::string algorithm; ///< libcc's algorithm for it
    /// libcc parameter text for hosts and switches (preset first, then the
    /// file's values); HPCC's additive step is added by HpccHostCcParams,
    /// HPCC-PINT switches' T by HpccSwitchCcParams.
    std::string ccParams;
    /// RATE_AI of HPCC and HPCC-PINT (bits/s), turned into libcc text by
    /// HpccHostCcParams once the topology gives T and the NIC rate; 0 when
    /// neither (or HPCC without the key: its preset's step).
    uint64_t hpccRateAiBps = 0;
    double hpccEta = 0.95;
    /// Per link rate (bits/s): ECN thresholds for DCQCN or DCTCP switch
    /// ports. Empty when the algorithm does not mark (HPCC, TIMELY,
    /// HPCC-PINT).
    std::map<uint64_t, HpccRateThresholds> thresholds;
    bool thresholdsUsed = false; ///< the algorithm marks: every port rate needs a row

    uint32_t payloadBytes = 1000; ///< PACKET_PAYLOAD_SIZE
    uint64_t stopNs = 0;          ///< SIMULATOR_STOP_TIME (0: not given)
    uint64_t bufferBytes = 0;     ///< BUFFER_SIZE MB x 2^20 (0: not given)
    bool hasAckHighPrio = false;  ///< ACK_HIGH_PRIO given
    bool ackHighPrio = false;     ///< ACK_HIGH_PRIO 1: ACKs in priority 0
    uint32_t ackIntervalPkts = 1; ///< from L2_ACK_INTERVAL (bytes) and the payload
    bool globalT = true;          ///< GLOBAL_T (third.cc default 1)

    /// Paths as the file gives them (relative to the working directory of
    /// that simulator) and as ResolveHpccPath found them.
    std::string topologyFile, flowFile, fctOutputFile, pfcOutputFile;
    std::string traceFile, traceOutputFile, qlenMonFile;
    uint64_t qlenMonStartNs = 2000000000ull, qlenMonEndNs = 2100000000ull; ///< third.cc defaults
    bool enableTrace = true;     ///< ENABLE_TRACE (third.cc default 1)
    double errorRatePerLink = 0; ///< ERROR_RATE_PER_LINK

    /// "file:line:KEY: ..." per key we could not honour (ignoreUnsupported).
    std::vector<std::string> warnings;
};

/// Parse a config text. name is what messages call the file; paths stay as
/// the file gives them.
HpccConfig ParseHpccConfig(const std::string& text, const std::string& name,
                           bool ignoreUnsupported = false);
/// Read and parse a config file; paths in it are resolved (ResolveHpccPath).
HpccConfig ReadHpccConfig(const std::string& path, bool ignoreUnsupported = false);

/**
 * A path from the config as that simulator opens it: relative to the
 * working directory (it runs from simulation/). Absolute paths are kept. A
 * relative path that does not exist there (for an output: whose directory
 * does not) is looked for relative to the config file's directory, then to
 * that directory's parent (simulation/mix/config.txt names
 * mix/topology.txt); the first that exists wins, else the working
 * directory's.
 */
std::string ResolveHpccPath(const std::string& path, const std::string& configFile, bool output);

/// The host side of HPCC's and HPCC-PINT's parameters once the network is
/// known: RATE_AI as libcc's W_ai. tNs is the T flows use (GLOBAL_T: the
/// largest base RTT), nicBps the hosts' rate. "" for the other modes.
std::string HpccHostCcParams(const HpccConfig& cfg, uint64_t tNs, uint64_t nicBps);

/// What every switch port takes on top of ccParams once the network is
/// known: HPCC-PINT's T, the largest base RTT of any host pair (maxRttNs,
/// RdmaNetwork::GetMaxHpccSimRtt). "" for the other modes.
std::string HpccSwitchCcParams(const HpccConfig& cfg, uint64_t maxRttNs);

/// The nodes of TRACE_FILE ("n" then n node ids), as third.cc reads it: ids
/// of nNodes or more are skipped. FileFormatError / FileIoError otherwise.
std::vector<uint32_t> ReadHpccTraceNodes(const std::string& path, uint32_t nNodes);

/// libcc parameter text of the ports of a rate ("" if the maps have no row):
/// DCQCN's kmin, kmax, pmax; DCTCP's k.
std::string HpccRateCcParams(const HpccConfig& cfg, uint64_t rateBps);

/// Parse a rate as ns-3's DataRate and that simulator's files spell it:
/// "50Mb/s", "100Mbps", "1Gb/s", "1000" (bits/s); false unless whole bits/s
/// in [1, 10^13] (libcc's rate parameters' range).
bool ParseHpccRate(const std::string& text, uint64_t& bps);

} // namespace ns3

#endif
