// SPDX-License-Identifier: GPL-2.0-only
//
// SwitchNode as the host of libcc's congestion points: their parameters
// (one set, or one per link rate), building them per port once the ports'
// rates are known, their timers, and their random numbers. The data path
// that feeds them packets is switch-node.cc's; SwitchCc (switch-cc.h) holds
// the congestion points themselves.
#include "libcc-agent.h"
#include "switch-node.h"

#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchNodeCc");

int
SwitchNode::TrySetCongestionControl(const std::string& algo, const std::string& params,
                                    std::string& err)
{
    NS_LOG_FUNCTION(this << algo << params);
    libcc_params* p = nullptr;
    int rc = libcc_params_new(&p, algo.c_str());
    if (rc != LIBCC_OK)
    {
        err = "congestion control '" + algo + "': " + libcc_strerror(rc);
        return rc;
    }
    if (!params.empty())
    {
        rc = libcc_params_parse(p, params.c_str());
        if (rc != LIBCC_OK)
        {
            const char* msg = libcc_params_error(p);
            err = "congestion control '" + algo + "' parameters: " +
                  (msg && *msg ? std::string(msg) : std::string(libcc_strerror(rc)));
            libcc_params_del(p);
            return rc;
        }
    }
    m_cc.SetParams(p);
    libcc_params_del(p);
    err.clear();
    return LIBCC_OK;
}

void
SwitchNode::SetCongestionControl(const std::string& algo, const std::string& params)
{
    std::string err;
    if (TrySetCongestionControl(algo, params, err) != LIBCC_OK)
    {
        NS_FATAL_ERROR("SwitchNode " << GetId() << ": " << err);
    }
}

void
SwitchNode::SetCongestionControl(const libcc_params* params)
{
    NS_LOG_FUNCTION(this << params);
    m_cc.SetParams(params);
}

void
SwitchNode::SetCongestionControlForRate(uint64_t rateBps, const libcc_params* params)
{
    m_cc.SetRateParams(rateBps, params);
}

const libcc_params*
SwitchNode::GetCpParams(uint32_t port) const
{
    return m_cc.GetPortParams(port);
}

bool
SwitchNode::CheckCongestionControl(std::string& err)
{
    std::vector<uint64_t> rates(m_ports.size(), 0);
    for (uint32_t i = 0; i < m_ports.size(); i++)
    {
        if (m_ports[i])
        {
            rates[i] = m_ports[i]->GetDevice()->GetDataRate().GetBitRate();
        }
    }
    if (!m_cc.Build(GetId(), rates, err))
    {
        return false;
    }
    ArmCpTimers();
    return true;
}

void
SwitchNode::ArmCpTimers()
{
    // Timers of an earlier set of CPs stop at their next firing: one chain
    // per port however often the CPs are built.
    const uint64_t gen = ++m_cpTimerGen;
    // In a distributed run every rank holds every node; only the rank that
    // simulates this switch runs its timers.
    if (GetSystemId() != Simulator::GetSystemId())
    {
        return;
    }
    for (uint32_t port = 0; port < m_ports.size(); port++)
    {
        ScheduleCpTimer(port, gen);
    }
}

void
SwitchNode::ScheduleCpTimer(uint32_t port, uint64_t gen)
{
    uint64_t d = m_cc.GetDeadline(port);
    if (d != LIBCC_NO_DEADLINE)
    {
        uint64_t now = LibccNow();
        Simulator::ScheduleWithContext(GetId(), NanoSeconds(d > now ? d - now : 0),
                                       &SwitchNode::CpTimer, this, port, gen);
    }
}

void
SwitchNode::CpTimer(uint32_t port, uint64_t gen)
{
    if (gen != m_cpTimerGen)
    {
        return;
    }
    size_t n = m_cc.OnTimer(port, LibccNow());
    const std::vector<libcc_cp_feedback>& fb = m_cc.GetTimerFeedback();
    for (size_t i = 0; i < n; i++)
    {
        QueueFeedbackTo(m_cc.GetFlowAddr(fb[i].flow_id), port, fb[i].rate_bps);
    }
    if (!m_feedback.empty())
    {
        FlushFeedback();
    }
    ScheduleCpTimer(port, gen);
}

void
SwitchNode::SetupCc()
{
    NS_LOG_FUNCTION(this);
    std::string err;
    if (!CheckCongestionControl(err))
    {
        NS_FATAL_ERROR(err);
    }
}

int64_t
SwitchNode::AssignStreams(int64_t stream)
{
    // Only with a fixed stream do the CPs draw from ns-3's generator; by
    // default they use libcc's own, seeded from RngSeed/RngRun (creating an
    // ns-3 stream costs more than a small simulation's whole set-up).
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    m_cc.SetRandom(rng);
    return 1;
}

const libcc_cp*
SwitchNode::GetCp(uint32_t port) const
{
    return m_cc.GetCp(port);
}

const libcc_int_table*
SwitchNode::GetIntTable() const
{
    return m_cc.GetIntTable();
}

} // namespace ns3
