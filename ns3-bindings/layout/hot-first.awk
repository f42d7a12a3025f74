# SPDX-License-Identifier: GPL-2.0-only
# ld's default linker script (ld --verbose, on stdin) with the input sections
# listed in the file `list` (awk -v list=...) first in the .text output
# section, crtbegin's code (run at load) before them: libns3-libcc.so's
# layout (ns3-bindings/ns3.mk, docs/performance.md, Memory). Kept in .text,
# not an output section of their own: valgrind reads a library's code
# ranges from .text, and callgrind would not name functions elsewhere.
# Exits 1, printing nothing, if the input has no .text statement (a linker
# other than GNU ld).
BEGIN {
    while ((getline line < list) > 0)
        if (line !~ /^#/ && line ~ /[^ \t]/)
            hot[++n] = line
}
/^==================================================/ { part++; next }
part != 1 { next }
{ script = script $0 "\n" }
/^  \.text[ \t]+:/ { text = 1; next }
text && /^  \{/ {
    script = script "    *crtbegin*.o(.text)\n"
    for (i = 1; i <= n; i++)
        script = script "    *(" hot[i] ")\n"
    text = 0
    done = 1
}
END {
    if (!done)
        exit 1
    printf "%s", script
}
