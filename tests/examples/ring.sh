# SPDX-License-Identifier: GPL-2.0-only
# The PFC deadlock ring both test scripts run (sourced, not executed).
# write_ring DIR: DIR/ring.txt and DIR/ring-flows.txt. Five switches
# (5..9), host i on switch 5+i, 100 Gbps, 1 us. Host i sends to host i+2:
# the shortest path (2 hops) turns the same way for every flow, each ring
# link carries two flows at line rate, and with a 20 KB PFC threshold the
# ring's queues end paused by each other.
write_ring() {
  {
    echo "10 5 10"; echo "5 6 7 8 9"
    for i in 0 1 2 3 4; do echo "$i $((5 + i)) 100Gbps 0.001ms 0"; done
    for i in 0 1 2 3 4; do echo "$((5 + i)) $((5 + (i + 1) % 5)) 100Gbps 0.001ms 0"; done
  } > "$1/ring.txt"
  {
    echo 5
    for i in 0 1 2 3 4; do echo "$i $(((i + 2) % 5)) 3 100 10000000 0"; done
  } > "$1/ring-flows.txt"
}
