// SPDX-License-Identifier: GPL-2.0-only
// ns-3's MPI engine (libns3-libcc-mpi) as a 2-rank job: make test-mpi, and
// the installed library's consumers of tests/install/run.sh.
//
//   scripts/mpirun.sh -np 2 build/tests/mpi-smoke [--impl=ns3::NullMessageSimulatorImpl]
//
// Both ranks build the same topology, as every ns-3 distributed program
// does: node 0 on rank 0 and node 1 on rank 1, each with a SimpleNetDevice
// in point-to-point mode on one SimpleChannel of 5 us delay, from which
// either simulator derives its lookahead (DistributedSimulatorImpl: the
// granted time window; NullMessageSimulatorImpl: the remote channel
// bundle). Each device has an MpiReceiver aggregated. Rank 0 sends a
// 64-byte packet (bytes 0xa0) to node 1 with MpiInterface::SendPacket at
// t = 1 us, due 5 us later; rank 1 a 96-byte one (bytes 0xa1) to node 0 at
// t = 2 us. Derived by hand, on rank r:
//
//   MpiInterface::GetSize() = 2 (mpirun -np 2)
//   MpiInterface::GetSystemId() = r = OMPI_COMM_WORLD_RANK (set by OpenMPI's launcher)
//   exactly one packet arrives, through node r's MpiReceiver, in node r's context,
//   at t = 1 + 5 = 6 us on rank 1 (64 bytes of 0xa0), 2 + 5 = 7 us on rank 0
//   (96 bytes of 0xa1)
//
// One line per check, then "mpi-smoke rank R: N checks ok" and exit 0, or
// exit 1 after the failed checks' lines. A bad option: one line, exit 2.

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/mpi-module.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simple-channel.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const Time kDelay = MicroSeconds(5);
const Time kSendAt[2] = {MicroSeconds(1), MicroSeconds(2)};
const uint32_t kSize[2] = {64, 96};
const uint8_t kFill[2] = {0xa0, 0xa1};

struct Arrival
{
    int64_t atNs;
    uint32_t context;
    uint32_t size;
    bool filled; // every byte is the sender's fill byte
    uint8_t first;
};

void
Received(std::vector<Arrival>* log, Ptr<Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    bool filled = !bytes.empty();
    for (uint8_t b : bytes)
    {
        filled = filled && b == bytes[0];
    }
    log->push_back({Simulator::Now().GetNanoSeconds(),
                    Simulator::GetContext(),
                    p->GetSize(),
                    filled,
                    bytes.empty() ? uint8_t(0) : bytes[0]});
}

void
Send(uint32_t from, uint32_t toNode, uint32_t toDev)
{
    std::vector<uint8_t> bytes(kSize[from], kFill[from]);
    MpiInterface::SendPacket(Create<Packet>(bytes.data(), bytes.size()),
                             Simulator::Now() + kDelay,
                             toNode,
                             toDev);
}

struct Checker
{
    uint32_t rank;
    int passed = 0;
    int failed = 0;

    void Check(const char* what, int64_t got, int64_t want)
    {
        bool ok = got == want;
        std::printf("mpi-smoke rank %" PRIu32 ": %s = %" PRId64 " (want %" PRId64 "): %s\n",
                    rank,
                    what,
                    got,
                    want,
                    ok ? "ok" : "FAILED");
        std::fflush(stdout);
        (ok ? passed : failed)++;
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string impl = "ns3::DistributedSimulatorImpl";
    CommandLine cmd(__FILE__);
    cmd.AddValue("impl",
                 "the parallel simulator: ns3::DistributedSimulatorImpl or "
                 "ns3::NullMessageSimulatorImpl",
                 impl);
    cmd.Parse(argc, argv);
    if (impl != "ns3::DistributedSimulatorImpl" && impl != "ns3::NullMessageSimulatorImpl")
    {
        std::fprintf(stderr,
                     "mpi-smoke: --impl=%s: not ns3::DistributedSimulatorImpl or "
                     "ns3::NullMessageSimulatorImpl\n",
                     impl.c_str());
        return 2;
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    MpiInterface::Enable(&argc, &argv);

    Checker c{MpiInterface::GetSystemId()};
    const char* launcherRank = std::getenv("OMPI_COMM_WORLD_RANK");
    c.Check("MpiInterface::IsEnabled()", MpiInterface::IsEnabled(), 1);
    c.Check("MpiInterface::GetSize()", MpiInterface::GetSize(), 2);
    c.Check("MpiInterface::GetSystemId() - OMPI_COMM_WORLD_RANK",
            launcherRank ? int64_t(c.rank) - std::atoll(launcherRank) : -1,
            0);
    c.Check("simulator is --impl",
            Simulator::GetImplementation()->GetInstanceTypeId().GetName() == impl,
            1);
    if (c.failed > 0 || c.rank > 1)
    {
        Simulator::Destroy();
        MpiInterface::Disable();
        return 1;
    }

    Ptr<SimpleChannel> channel = CreateObject<SimpleChannel>();
    channel->SetAttribute("Delay", TimeValue(kDelay));
    Ptr<Node> nodes[2];
    Ptr<SimpleNetDevice> devs[2];
    std::vector<Arrival> arrivals;
    for (uint32_t i = 0; i < 2; ++i)
    {
        nodes[i] = CreateObject<Node>(i); // node i simulated by rank i
        devs[i] = CreateObject<SimpleNetDevice>();
        devs[i]->SetAttribute("PointToPointMode", BooleanValue(true));
        devs[i]->SetAddress(Mac48Address::Allocate());
        devs[i]->SetChannel(channel);
        nodes[i]->AddDevice(devs[i]);
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback(MakeBoundCallback(&Received, &arrivals));
        devs[i]->AggregateObject(receiver);
    }
    const uint32_t peer = 1 - c.rank;
    Simulator::ScheduleWithContext(nodes[c.rank]->GetId(),
                                   kSendAt[c.rank],
                                   &Send,
                                   c.rank,
                                   nodes[peer]->GetId(),
                                   devs[peer]->GetIfIndex());
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();

    c.Check("packets received", int64_t(arrivals.size()), 1);
    if (arrivals.size() == 1)
    {
        const Arrival& a = arrivals[0];
        c.Check("arrival time (ns)", a.atNs, (kSendAt[peer] + kDelay).GetNanoSeconds());
        c.Check("arrival context (node id)", a.context, nodes[c.rank]->GetId());
        c.Check("packet size (bytes)", a.size, kSize[peer]);
        c.Check("payload byte", a.filled ? a.first : -1, kFill[peer]);
    }
    Simulator::Destroy();
    MpiInterface::Disable();
    if (c.failed > 0)
    {
        return 1;
    }
    std::printf("mpi-smoke rank %" PRIu32 ": %d checks ok\n", c.rank, c.passed);
    return 0;
}
