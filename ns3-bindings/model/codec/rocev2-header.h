// SPDX-License-Identifier: GPL-2.0-only
//
// The INT header of RoCEv2 packets (rocev2-codec.h has the packet layouts
// and the other headers' fields): libcc's 8-byte hop encodings, kept as
// wire bytes. The codec encodes and decodes hop lists through it, and a
// switch quantizes the hop it stamps with it.
#ifndef ROCEV2_HEADER_H
#define ROCEV2_HEADER_H

#include "ns3/header.h"

#include "libcc/libcc.h"

#include <cstdint>

namespace ns3
{

/**
 * INT header: format(8) | n hops(8) | n x 8-byte hop records, first switch
 * first. format selects libcc's hop encoding: FORMAT_HPCC
 * (libcc_int_hpcc_encode, default units) or FORMAT_FNCC
 * (libcc_int_fncc_encode, default units). Hops are kept as wire bytes so
 * that forwarding never re-quantizes them.
 */
class RoceIntHeader : public Header
{
  public:
    static constexpr uint8_t FORMAT_HPCC = 0;
    static constexpr uint8_t FORMAT_FNCC = 1;
    /// The FORMAT_* that writes libcc's wire format f (HPCC for NONE).
    static constexpr uint8_t WireFormat(libcc_int_format f)
    {
        return f == LIBCC_INT_FORMAT_FNCC ? FORMAT_FNCC : FORMAT_HPCC;
    }
    /**
     * Make list an empty hop list as GetList returns it for format (the
     * wire's wrap widths); the hop slots are left as they are.
     */
    static void InitWireList(uint8_t format, libcc_int_list& list);
    /**
     * Replace hop with what a receiver decodes after format's 8-byte
     * encoding (units, wrap, saturation; switch and port ids are not on the
     * wire). False, hop unchanged, if it does not encode (PushHop would fail).
     */
    static bool QuantizeHop(uint8_t format, libcc_int_hop& hop);
    static constexpr uint32_t HOP_BYTES = 8;
    static constexpr uint32_t BASE_BYTES = 2;
    static constexpr uint32_t Size(uint32_t nHops)
    {
        return BASE_BYTES + HOP_BYTES * nHops;
    }

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RoceIntHeader();

    void SetFormat(uint8_t format);
    uint8_t GetNHops() const;
    /// Append one hop encoded in this header's format; false if full
    /// (LIBCC_INT_MAX_HOPS) or the hop does not encode.
    bool PushHop(const libcc_int_hop& hop);
    /// Append raw 8 wire bytes; false if full.
    bool PushRaw(const uint8_t hop[8]);
    /// Encode a whole list (replaces the hops); false if a hop fails.
    bool SetList(const libcc_int_list& list);
    /// Decode every hop into list (ts_bits / tx_bits set for the format);
    /// false if a record does not decode.
    bool GetList(libcc_int_list& list) const;

    /// Write the serialized header (Size(GetNHops()) bytes) to out; returns its length.
    uint32_t CopyTo(uint8_t* out) const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_format;
    uint8_t m_nHops;
    uint8_t m_hops[LIBCC_INT_MAX_HOPS][HOP_BYTES];
};

} // namespace ns3

#endif // ROCEV2_HEADER_H
