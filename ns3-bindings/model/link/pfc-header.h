// SPDX-License-Identifier: GPL-2.0-only
//
// IEEE 802.1Qbb Priority Flow Control PAUSE frame body (after the Ethernet
// header with EtherType 0x8808 and destination 01:80:C2:00:00:01):
//   MAC control opcode 0x0101 (16 bits)
//   priority-enable vector (16 bits, bit p = priority p, bits 8..15 zero)
//   8 x 16-bit pause quanta (quantum = 512 bit times at the link's rate)
//   zero padding to the 64-byte minimum frame (26 bytes)
#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

class PfcPauseHeader : public Header
{
  public:
    static constexpr uint16_t OPCODE_PFC = 0x0101;
    /// Opcode + vector + 8 quanta.
    static constexpr uint32_t BODY_BYTES = 20;
    /// Padding so that 14 + 46 + 4 = 64.
    static constexpr uint32_t PAD_BYTES = 26;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PfcPauseHeader();

    /// Enable priority prio with quanta (0 = resume).
    void SetQuanta(uint8_t prio, uint16_t quanta);
    bool IsEnabled(uint8_t prio) const;
    uint16_t GetQuanta(uint8_t prio) const;
    uint16_t GetEnableVector() const;
    uint16_t GetOpcode() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint16_t m_opcode;
    uint16_t m_enable;
    std::array<uint16_t, 8> m_quanta;
};

} // namespace ns3

#endif // PFC_HEADER_H
