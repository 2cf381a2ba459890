#!/usr/bin/env python3
"""pcs_by_kernel.py DIR: the load PCs of a warpscope profile, per kernel.

DIR is the directory `warpscope profile` wrote (or its --csv DIR, or the
DIR of `analyze --csv DIR`). Joins pcs.csv (one row per kernel launch and
PC: what the analysis and the replay measured) with hints_pcs.csv (one row
per load PC, over every launch of its kernel: the bypass hint) on
(kernel, pc_offset), then prints the L1 hit rate of each kernel launch and
the PCs that miss L1 the most, with their bypass verdicts. Without
hints_pcs.csv (analyze writes none) the verdict columns are empty. The
tables are described in docs/report-schema.md.
"""
import os
import sys

import pandas as pd


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: pcs_by_kernel.py DIR  (a `warpscope profile` directory)")
    tables = argv[1]
    pcs = pd.read_csv(f"{tables}/pcs.csv")
    hint_columns = ["kernel", "pc_offset", "bypass_share", "recommend", "traffic_change_bytes"]
    hints_path = f"{tables}/hints_pcs.csv"
    hints = (pd.read_csv(hints_path) if os.path.exists(hints_path)
             else pd.DataFrame(columns=hint_columns))

    # Counted PCs only (global loads, by default); a hint covers every
    # launch of its kernel, so the join is on the name, not kernel_id.
    loads = pcs[pcs["requests"] > 0].merge(hints[hint_columns], on=["kernel", "pc_offset"],
                                           how="left")

    per_kernel = loads.groupby(["kernel_id", "kernel"], as_index=False)[
        ["requests", "l1_requests", "l1_hits", "l1_misses", "l1_to_l2_read_bytes"]].sum()
    per_kernel["l1_hit_rate"] = per_kernel["l1_hits"] / per_kernel["l1_requests"]
    pd.set_option("display.width", 200)
    print("L1 hit rate per kernel launch (replay of the config's policies):")
    print(per_kernel.to_string(index=False, float_format=lambda v: f"{v:.3f}"))

    top = loads.sort_values("l1_misses", ascending=False).head(10)
    print("\nload PCs with the most L1 misses, and their bypass hints:")
    print(top[["kernel_id", "kernel", "pc_offset", "sass", "source_line", "u_sector",
               "locality_class", "l1_hit_rate", "l1_misses", "bypass_share", "recommend",
               "traffic_change_bytes"]].to_string(index=False,
                                                  float_format=lambda v: f"{v:.3f}"))


if __name__ == "__main__":
    main(sys.argv)
