// SPDX-License-Identifier: GPL-2.0-only

#include "cc-log-writer.h"

#include "rank-merge.h"
#include "rdma-network.h"

#include <libcc/algorithm.h>

#include <ns3/callback.h>
#include <ns3/log.h>

#include <cinttypes>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcLogWriter");

namespace
{

constexpr const char* kHeader = "time_ns,flow_id,event,action,old_rate_bps,new_rate_bps,"
                                "old_window_bytes,new_window_bytes,inputs\n";

// A flow id of text[pos..]: decimal digits up to UINT32_MAX; pos moves past them.
bool
ParseId(const std::string& text, size_t& pos, uint32_t& id)
{
    uint64_t v = 0;
    size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
    {
        v = v * 10 + static_cast<uint64_t>(text[pos] - '0');
        if (v > UINT32_MAX)
        {
            return false;
        }
        pos++;
    }
    id = static_cast<uint32_t>(v);
    return pos > start;
}

// Names are the algorithm's (a plugin's too): nothing in them may break a
// row or the `name=value;` list.
void
PutName(std::FILE* f, const char* s)
{
    for (; s && *s; s++)
    {
        const char c = *s;
        std::fputc(c == ',' || c == ';' || c == '=' || c == '"' || c == '\n' || c == '\r' ? '_' : c,
                   f);
    }
}

int64_t
WindowColumn(uint64_t w)
{
    return w == LIBCC_WINDOW_UNLIMITED ? int64_t(-1) : static_cast<int64_t>(w);
}

} // namespace

const char*
FlowIdSet::Accepted()
{
    return "all, none, or flow ids and ranges separated by commas (0-3,7)";
}

bool
FlowIdSet::Contains(uint32_t id) const
{
    if (all)
    {
        return true;
    }
    for (const auto& r : ranges)
    {
        if (id >= r.first && id <= r.second)
        {
            return true;
        }
    }
    return false;
}

bool
FlowIdSet::Parse(const std::string& text, FlowIdSet& out, std::string& why)
{
    FlowIdSet s;
    s.text = text;
    if (text == "all")
    {
        s.all = true;
        out = s;
        return true;
    }
    if (text == "none")
    {
        out = s;
        return true;
    }
    size_t pos = 0;
    while (true)
    {
        const size_t item = pos;
        uint32_t first;
        uint32_t last;
        if (!ParseId(text, pos, first))
        {
            if (pos == text.size() || text[pos] == ',')
            {
                why = "an empty item";
            }
            else if (text[pos] >= '0' && text[pos] <= '9')
            {
                why = "flow id " + text.substr(item) + " is above 4294967295";
            }
            else
            {
                why = "'" + text.substr(item) + "' is not a flow id";
            }
            return false;
        }
        last = first;
        if (pos < text.size() && text[pos] == '-')
        {
            pos++;
            if (!ParseId(text, pos, last))
            {
                why = "range '" + text.substr(item) + "' has no last flow id";
                return false;
            }
            if (last < first)
            {
                why = "range " + std::to_string(first) + "-" + std::to_string(last) +
                      " ends before it starts";
                return false;
            }
        }
        s.ranges.emplace_back(first, last);
        if (pos == text.size())
        {
            break;
        }
        if (text[pos] != ',')
        {
            why = "'" + text.substr(pos) + "' after flow id " + std::to_string(last);
            return false;
        }
        pos++;
    }
    out = s;
    return true;
}

CcLogWriter::~CcLogWriter()
{
    Close();
}

bool
CcLogWriter::CheckFlows(const FlowIdSet& flows, size_t nFlows, std::string& why)
{
    if (flows.all)
    {
        return true;
    }
    for (const auto& r : flows.ranges)
    {
        if (r.second >= nFlows)
        {
            const uint32_t missing = r.first >= nFlows ? r.first : static_cast<uint32_t>(nFlows);
            why = "no flow " + std::to_string(missing) +
                  (nFlows ? ": the flows are 0 .. " + std::to_string(nFlows - 1)
                          : std::string(": there are no flows"));
            return false;
        }
    }
    return true;
}

int
CcLogWriter::Start(const std::string& program, RdmaNetwork& net, const FlowIdSet& flows,
                   const std::string& path, uint32_t rank, uint32_t ranks)
{
    NS_LOG_FUNCTION(this << path << rank << ranks);
    if (flows.Empty())
    {
        return -1;
    }
    std::string why;
    if (!CheckFlows(flows, net.GetFlows().size(), why))
    {
        std::fprintf(stderr, "%s: --ccLog=%s: %s\n", program.c_str(), flows.text.c_str(),
                     why.c_str());
        return 2;
    }
    m_path = path;
    m_rank = rank;
    m_ranks = ranks;
    const std::string file = m_ranks > 1 ? RankFilePath(path, m_rank) : path;
    m_file = std::fopen(file.c_str(), "w");
    if (!m_file)
    {
        std::fprintf(stderr, "%s: --ccLog: cannot write %s\n", program.c_str(), file.c_str());
        return 1;
    }
    if (m_ranks <= 1)
    {
        std::fputs(kHeader, m_file); // over ranks the merge writes it
    }
    for (const auto& qp : net.GetFlows())
    {
        if (flows.Contains(qp->GetFlow().flowId))
        {
            qp->TraceConnectWithoutContext("CcStart",
                                           MakeBoundCallback(&CcLogWriter::OnCcStart, this));
        }
    }
    return -1;
}

void
CcLogWriter::OnCcStart(CcLogWriter* self, uint32_t flowId, libcc_rp* rp)
{
    NS_LOG_FUNCTION(self << flowId);
    int rc = libcc_rp_set_decision_log(rp, &CcLogWriter::OnDecision, self);
    if (rc != LIBCC_OK)
    {
        // Only a failed allocation: say so once per flow, and run unlogged.
        NS_LOG_WARN("flow " << flowId << ": no decision log: " << libcc_strerror(rc));
        std::fprintf(stderr, "warning: --ccLog: flow %u is not logged: %s\n", flowId,
                     libcc_strerror(rc));
    }
}

void
CcLogWriter::OnDecision(const libcc_rp* rp, const libcc_decision* d, void* user)
{
    (void)rp;
    CcLogWriter* self = static_cast<CcLogWriter*>(user);
    std::FILE* f = self->m_file;
    if (!f)
    {
        return; // closed: the run is over
    }
    if (self->m_ranks > 1)
    {
        WriteRankStamp(f);
    }
    std::fprintf(f, "%" PRIu64 ",%" PRIu64 ",%s,", d->now_ns, d->flow_id,
                 libcc_rp_event_name(d->event));
    PutName(f, d->action);
    std::fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",", d->old_rate_bps,
                 d->new_rate_bps, WindowColumn(d->old_window_bytes),
                 WindowColumn(d->new_window_bytes));
    for (size_t i = 0; i < d->n_inputs; i++)
    {
        if (i)
        {
            std::fputc(';', f);
        }
        PutName(f, d->inputs[i].name);
        std::fprintf(f, "=%.9g", d->inputs[i].value);
    }
    std::fputc('\n', f);
    self->m_rows++;
}

void
CcLogWriter::Close()
{
    if (m_file)
    {
        std::fclose(m_file);
        m_file = nullptr;
    }
}

bool
CcLogWriter::MergeRanks(std::string& err, const std::string& endStamp)
{
    if (m_ranks <= 1 || m_path.empty())
    {
        return true;
    }
    return MergeRankFiles(m_path, m_ranks, kHeader, err, endStamp);
}

} // namespace ns3
