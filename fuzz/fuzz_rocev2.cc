// SPDX-License-Identifier: GPL-2.0-only
// The RoCEv2 header codec (ns3-bindings/model/codec/rocev2-codec.h) on arbitrary
// bytes: the parser and the forwarding peek never read past n, and whatever
// parses writes back to bytes that parse to the same packet (a switch
// re-encodes what it parsed when it stamps INT or marks CE).
#include "rocev2-codec.h"

#include <cstdlib>
#include <cstring>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 4 || size > ROCE_MAX_PARSE_BYTES + 4)
    {
        return 0;
    }
    // The first 4 bytes: the IPv4 packet's claimed size (the rest is its
    // leading block); any value, as a frame's length field could carry.
    uint32_t ipBytes;
    std::memcpy(&ipBytes, data, 4);
    const uint8_t* b = data + 4;
    const uint32_t n = static_cast<uint32_t>(size - 4);

    RoceFlowKey key;
    RocePeekKeyBytes(b, n, key);
    if (key.intHops > static_cast<int8_t>(LIBCC_INT_MAX_HOPS))
    {
        std::abort();
    }

    RocePacketInfo info;
    if (!RoceParseHeaders(b, n, ipBytes, info))
    {
        return 0;
    }
    uint8_t out[ROCE_MAX_HEADER_BYTES];
    const uint32_t written = RoceWriteHeaders(info, out);
    if (written == 0)
    {
        return 0; // parsed, but a field the writer refuses (reported by its 0)
    }
    RocePacketInfo again;
    if (!RoceParseHeaders(out, written, RocePacketBytes(info), again) ||
        !RoceWireEqual(info, again))
    {
        std::abort();
    }
    uint8_t marked[ROCE_MAX_HEADER_BYTES];
    std::memcpy(marked, out, written);
    RoceMarkCeBytes(marked, written);
    return 0;
}
