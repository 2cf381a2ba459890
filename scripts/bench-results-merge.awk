# scripts/bench-results-merge.awk NEW OLD: bench/RESULTS.md as `make bench`
# leaves it.  NEW is what this run's benchmarks printed; OLD the file as it
# was.  What was measured by hand (a `## ` section no benchmark printed this
# run, or a `### ` subsection written under a printed section) is not lost:
#   - each `## ` section of NEW is printed, followed by the `### `
#     subsections of OLD's section of the same heading that NEW's lacks;
#   - then each `## ` section of OLD whose heading NEW lacks, in OLD's order.
# A heading is matched by its whole line.  Text before NEW's first `## ` is
# NEW's preamble; OLD's is dropped (it names the run that wrote it).
FNR == 1 { file++ }
/^## / { sec = $0; sub_ = ""; if (!((file, sec) in seen)) { seen[file, sec] = 1; order[file, ++n[file]] = sec } }
/^### / { sub_ = $0; if (!((file, sec, sub_) in subseen)) { subseen[file, sec, sub_] = 1; suborder[file, sec, ++nsub[file, sec]] = sub_ } }
{
    key = file SUBSEP sec SUBSEP sub_
    text[key] = text[key] $0 "\n"
}
END {
    printf "%s", text[1, "", ""]
    for (i = 1; i <= n[1]; i++) {
        s = order[1, i]
        printf "%s", text[1, s, ""]
        for (j = 1; j <= nsub[1, s]; j++)
            printf "%s", text[1, s, suborder[1, s, j]]
        for (j = 1; j <= nsub[2, s]; j++) {
            u = suborder[2, s, j]
            if (!((1, s, u) in subseen))
                printf "%s", text[2, s, u]
        }
    }
    for (i = 1; i <= n[2]; i++) {
        s = order[2, i]
        if ((1, s) in seen)
            continue
        printf "%s", text[2, s, ""]
        for (j = 1; j <= nsub[2, s]; j++)
            printf "%s", text[2, s, suborder[2, s, j]]
    }
}
