// SPDX-License-Identifier: GPL-2.0-only
//
// A QbbFrame as bytes and back, for a link between two ranks of a
// distributed run: RoCEv2 frames as their headers (RoceWriteHeaders; the
// zero payload is only counted), any other frame (IP, PAUSE) as ns-3's
// Packet::Serialize of its Packet, tags and metadata included.
#ifndef QBB_FRAME_WIRE_H
#define QBB_FRAME_WIRE_H

#include "qbb-frame.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * Append frame's bytes to out; false (out unchanged) if it cannot be
 * encoded. asFields: a RoCEv2 frame travels as its RocePacketInfo as it is
 * in memory (the INT hops in use only), not as its headers: about a fifth
 * of the instructions at each end, for ranks of one build of one program
 * (what FastSimulatorImpl's distributed Run is); the wire form is for
 * anything else (ns-3's MPI engines, QbbRemoteChannel).
 */
bool QbbFrameEncode(const QbbFrame& frame, std::vector<uint8_t>& out, bool asFields = false);
/// The frame n bytes of QbbFrameEncode describe; null if they do not parse.
QbbFramePtr QbbFrameDecode(const uint8_t* b, uint32_t n);

} // namespace ns3

#endif // QBB_FRAME_WIRE_H
