// SPDX-License-Identifier: GPL-2.0-only
//
// FnccIngressPortTag: the port an ACK entered a switch on (FNCC Algorithm 1
// line 3). Switch metadata carried as an ns-3 packet tag, never on the wire:
// the switch adds it at ingress and removes it at egress.
#ifndef SWITCH_TAG_H
#define SWITCH_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

class FnccIngressPortTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    FnccIngressPortTag();
    explicit FnccIngressPortTag(uint32_t port);
    void SetPort(uint32_t port);
    uint32_t GetPort() const;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_port;
};

} // namespace ns3

#endif // SWITCH_TAG_H
