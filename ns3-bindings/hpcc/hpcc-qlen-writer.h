// SPDX-License-Identifier: GPL-2.0-only
//
// HpccQlenWriter: the HPCC simulator's qlen file (QLEN_MON_FILE). Every
// switch port's egress bytes, sampled every interval in [start, end], as a
// cumulative histogram per KB of 1000 bytes, dumped when the time is a
// multiple of dumpEvery (that simulator: 100 ns, 100 ms) and at the end.
// Ports count from 1 as that simulator's (its loopback is device 0). A
// capped output of an RdmaTraceSink; over ranks each rank samples its own
// switches.

#ifndef HPCC_QLEN_WRITER_H
#define HPCC_QLEN_WRITER_H

#include "rdma-network.h"
#include "rdma-trace-sink.h"

#include <ns3/event-id.h>
#include <ns3/nstime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ns3
{

class HpccQlenWriter
{
  public:
    HpccQlenWriter(RdmaNetwork& net, RdmaTraceSink& sink);

    void Enable(const std::string& path, Time start, Time end, Time interval, Time dumpEvery);
    /// Over ranks: samples after one process's end (RdmaTraceHelper::EndRunAt) are taken back.
    void EndRunAt(uint64_t endStep, bool byNode);
    /// The last dump (at runEndNs, or now if negative) if samples are undumped; close.
    void Close(int64_t runEndNs);

  private:
    void Sample();
    /// Over ranks, the last dump comes after the run (trailer stamps).
    void Dump(uint64_t ns, bool final = false);

    RdmaNetwork& m_net;
    RdmaTraceSink& m_sink;
    std::FILE* m_file = nullptr;
    Time m_end;
    Time m_interval;
    int64_t m_dumpNs = 0;
    bool m_undumped = false;
    EventId m_event;
    struct Port
    {
        Ptr<SwitchNode> sw;
        uint32_t node;
        uint32_t port;
        std::vector<uint32_t> countPerKb;
        uint32_t index; ///< in one process's list of every switch port
    };
    std::vector<Port> m_ports; ///< this rank's switches' ports
    /// Over ranks: the samples of the last lookahead (KB bin per port),
    /// which EndRunAt takes back when they came after one process's end.
    struct Recent
    {
        int64_t step;
        bool undumpedAfter;
        std::vector<uint32_t> kb;
    };
    std::vector<Recent> m_recent;
    bool m_undumpedBefore = false; ///< m_undumped before m_recent's first
};

} // namespace ns3

#endif
