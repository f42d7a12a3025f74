#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""RoCC's sensitivity to the values its sources leave open, for
docs/algorithms/rocc.md: the gathered tables of examples/sweeps/rocc-dumbbell.toml
and rocc-fattree.toml -> one small CSV and one PNG.

    nice analysis/sweep.py run examples/sweeps/rocc-dumbbell.toml --jobs 1
    nice analysis/sweep.py run examples/sweeps/rocc-fattree.toml --jobs 1
    examples/sweeps/rocc_sensitivity.py [--out docs/algorithms/rocc-sensitivity]

Only the model's two gain pairs are kept (alpha/beta 5000/25000 and
13333/40000 bit/s per byte, its 0.3/1.5 and 0.8/2.4).
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

def gains(df):
    """'0.3/1.5' or '0.8/2.4' for the model's two pairs; drops mixed ones."""
    low = df["cc.alpha"] < 6000
    df = df[(low & (df["cc.beta"] == 25000)) | (~low & (df["cc.beta"] == 40000))].copy()
    df["gains"] = low.map({True: "0.3/1.5", False: "0.8/2.4"})
    return df


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweeps", default="out/sweeps")
    ap.add_argument("--out", default="docs/algorithms/rocc-sensitivity")
    a = ap.parse_args(argv)
    try:
        db = pd.read_csv(a.sweeps + "/rocc-dumbbell/summary.csv")
        ft = pd.read_csv(a.sweeps + "/rocc-fattree/summary.csv")
    except OSError as e:
        print("rocc_sensitivity: %s (run the two sweeps first)" % e, file=sys.stderr)
        return 1
    db = gains(db)
    ft = gains(ft)
    rows = []
    for _, r in db.iterrows():
        rows.append({"scene": "dumbbell", "q_ref": r["cc.q_ref"], "q_mid": r["cc.q_mid"],
                     "q_max": r["cc.q_max"], "gains": r.gains, "apply_delay": r["cc.apply_delay"],
                     "reaction_us": r.flow0_first_decrease_us - r.flow1_start_us,
                     "utilization": r.bottleneck_utilization, "queue_mean_kb": r.queue_mean_kb,
                     "pfc_pauses": r.pfc_pauses})
    for _, r in ft.iterrows():
        rows.append({"scene": "fattree-k4", "q_ref": r["cc.q_ref"], "q_mid": r["cc.q_mid"],
                     "q_max": "360KB", "gains": r.gains, "apply_delay": "0us",
                     "pfc_pauses": r.pfc_pauses, "last_finish_ms": r.simulated_ms,
                     "slowdown_avg": r.slowdown_avg, "slowdown_p99": r.slowdown_p99})
    t = pd.DataFrame(rows)
    t.to_csv(a.out + ".csv", index=False, float_format="%.3f")

    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    d = t[(t.scene == "dumbbell") & (t.q_max == "360KB")]
    for (g, dl), s in d.groupby(["gains", "apply_delay"]):
        lab = ["%s/%s" % k for k in zip(s.q_ref, s.q_mid)]
        ax[0].plot(lab, s.utilization, "o-", label="gains %s, delay %s" % (g, dl))
    ax[0].set_ylabel("bottleneck utilization, 2 ms")
    ax[0].set_xlabel("q_ref/q_mid (q_max 360KB)")
    ax[0].set_title("Figure 9 dumbbell, 100 Gbps")
    ax[0].tick_params(axis="x", rotation=60)
    ax[0].legend(fontsize=7)
    f = t[t.scene == "fattree-k4"]
    for g, s in f.groupby("gains"):
        lab = ["%s/%s" % k for k in zip(s.q_ref, s.q_mid)]
        ax[1].plot(lab, s.slowdown_p99, "o-", label="p99, gains %s" % g)
        ax[1].plot(lab, s.slowdown_avg, "s--", label="avg, gains %s" % g)
    ax[1].set_ylabel("FCT slowdown")
    ax[1].set_xlabel("q_ref/q_mid")
    ax[1].set_title("k=4 fat tree, WebSearch 50%, 5 ms")
    ax[1].tick_params(axis="x", rotation=60)
    ax[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(a.out + ".png", dpi=90)
    print("rocc_sensitivity: %s.csv %s.png" % (a.out, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
