# SPDX-License-Identifier: GPL-2.0-only
"""What the FNCC paper (../shared/specs/fncc-paper.md) reports, figure by
figure, as the results page compares it with our runs. Each entry quotes
the sentence it comes from, so a reader can check it with one grep."""

# Section 5.1, Figure 9b: when flow0 first slows down after flow1 joins at
# 300 us. "FNCC is the first to slow down at 300us, followed by HPCC at 330us,
# DCQCN at 346us, and RoCC at 370us."
FIRST_SLOWDOWN_US = {"fncc": 300.0, "hpcc": 330.0, "dcqcn": 346.0, "rocc": 370.0}

# Section 5.1 and section 6, Figure 9b: how long RoCC takes to share the
# link. "And RoCC is hard to converge at the microsecond level." and "RoCC
# relies on at least nine parameters to tune, and requires millisecond-level
# delays to converge, see Figure 9." No number is quoted for RoCC's queue,
# utilisation or convergence time; the paper's RoCC parameters are "the
# default values recommended in research [25, 31]" ([25] is the RoCC paper),
# not listed.
ROCC_CONVERGENCE = "millisecond-level, not microsecond-level"

# Section 5.4.2, Figure 13a-c: "FNCC reduces queue depth by 37.5% in
# first-hop congestion, 29.5% in middle-hop congestion, 8.4% in last-hop
# congestion without enabling Last-Hop Congestion Speedup (FNCC without
# LHCS), and 38.5% in last-hop congestion with enabling Last-Hop Congestion
# Speedup" (against HPCC).
QUEUE_REDUCTION_VS_HPCC = {
    "first": 0.375,
    "middle": 0.295,
    "last-nolhcs": 0.084,
    "last": 0.385,
}

# Section 5.5, Figure 14: "for flows larger than 1 MB, FNCC has a 12.4% and
# 42.8% reduction in medium FCT slowdown than HPCC and DCQCN, respectively."
WEBSEARCH_LARGE_MEDIAN_REDUCTION = {"hpcc": 0.124, "dcqcn": 0.428}

# Figure 15: "For flows shorter than 100KB, FNCC has a 27.4% and 88.9%
# reduction in 95th FCT slowdown than HPCC and DCQCN, respectively."
HADOOP_SMALL_P95_REDUCTION = {"hpcc": 0.274, "dcqcn": 0.889}

# Orderings the paper states without numbers.
ORDERINGS = {
    # Figure 9b, the order of FIRST_SLOWDOWN_US.
    "reaction": "fncc, hpcc, dcqcn, rocc",
    # Figures 1b-d, 9a/c/e: "FNCC always maintains the shortest queue length
    # at the congestion point compared with RoCC, DCQCN and HPCC."
    "queue_peak": "fncc lowest at 100, 200 and 400 Gbps",
    # Figures 9g-h: "FNCC consistently maintains the highest utilization."
    "utilization": "fncc highest at 200 and 400 Gbps",
    # Figure 3: "the number of pause frames generated when applying the FNCC
    # algorithm is the lowest at both 200Gbps and 400Gbps rates."
    "pfc_pauses": "fncc lowest at 200 and 400 Gbps",
}
