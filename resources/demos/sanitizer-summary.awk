# sanitizer-summary.awk - a compute-sanitizer report reduced to what a class
# needs to see: the kind of each problem, the source line, how many times.
#
#   awk -f sanitizer-summary.awk [-v color=1] [-v srcdir=DIR] REPORT [HAZARDS]
#   awk -f sanitizer-summary.awk -v mode=status REPORT [HAZARDS]
#
# REPORT is what compute-sanitizer printed (racecheck, memcheck, ...); the
# program's own lines (those not starting with "=========") are skipped.
# racecheck's default report names each race once, with a hazard count:
#   Error: Race reported between Read access at f(int *)+0x170 in a.cu:10
#       and Write access at f(int *)+0x190 in a.cu:10 [26624 hazards]
# but not whether the read came after the write (RAW) or before it (WAR).
# HAZARDS, optional, is a second run's "--racecheck-report hazard" report (a
# sample, with --print-limit), whose blocks name the kind:
#   Warning: (Warp Level Programming) Potential WAR hazard detected at __shared__ 0x404 in block (0,0,0) :
#       Read Thread (2,0,0) at f(int *)+0x170 in a.cu:10
#       Write Thread (1,0,0) at f(int *)+0x190 in a.cu:10
# A race gets the kinds its pair of lines shows in that sample; without one,
# a read/write pair is "RAW/WAR" and a write/write pair "WAW".
# Other reports (memcheck, synccheck, initcheck) are blocks of a header and
# "at FUNC+0x.. in FILE:LINE"; they are counted by header and line.
#
# Output: per finding, one line (kind, file:line, count) and the source line(s)
# it names, with their numbers, read from srcdir (by the file's base name) or
# from the path as printed.  Nothing for a clean report.
# mode=status prints one line instead: "FINDINGS TOTAL COMPLETE MESSAGE":
#   FINDINGS  races (or error groups) found in REPORT
#   TOTAL     racecheck: hazards summed; others: the ERROR SUMMARY count
#   COMPLETE  1 if REPORT ends with the tool's summary line; 0 if the tool
#             stopped early (no device, tool error, killed)
#   MESSAGE   the tool's first error line that is not a finding, or "-"

BEGIN {
    if (color) {
        RED = "\033[1;31m"; BOLD = "\033[1m"; DIM = "\033[2m"; OFF = "\033[0m"
    }
    pad = "    "
    nrace = 0; nhaz = 0; nerr = 0; filenum = 0
    complete = 0; summary_total = -1; message = ""
}

FNR == 1 { flush(); filenum++ }

{
    line = $0
    sub(/\r$/, "", line)
    if (substr(line, 1, 9) != "=========")
        next                                   # the program's own output
    body = substr(line, 10)
    if (substr(body, 1, 1) == " ")
        body = substr(body, 2)
    if (body ~ /^[ \t]*$/) { flush(); next }   # end of a block
    if (body ~ /^[ \t]/) { continuation(body); next }
    top(body)
}

END {
    flush()
    if (mode == "status") {
        total = 0
        if (nrace) { for (j = 1; j <= nrace; j++) total += race_n[race_key[j]] }
        else if (summary_total >= 0) total = summary_total
        else if (nhaz) total = nhaz
        else for (j = 1; j <= nerr; j++) total += err_n[err_key[j]]
        findings = nrace ? nrace : (nhaz ? nhaz_groups : nerr)
        printf "%d %d %d %s\n", findings, total, complete, (message == "" ? "-" : message)
        exit 0
    }
    show()
}

# ---- parsing ---------------------------------------------------------------

function top(s,    r, p, v, parts) {
    flush()
    if (s ~ /^RACECHECK SUMMARY:/) {             # "N hazards displayed (E errors, W warnings)"
        if (filenum == 1) {
            complete = 1
            if (match(s, /\([0-9]+ errors?, [0-9]+ warnings?\)/)) {
                v = substr(s, RSTART + 1, RLENGTH - 2)
                split(v, parts, " ")
                summary_total = parts[1] + parts[3]
            }
        }
        return
    }
    if (s ~ /^ERROR SUMMARY: [0-9]+ errors?$/) {
        if (filenum == 1 && summary_total < 0) {
            v = s; sub(/^ERROR SUMMARY: /, "", v); sub(/ .*/, "", v)
            summary_total = v + 0; complete = 1
        }
        return
    }
    if (s ~ /^(ERROR SUMMARY|LEAK SUMMARY|COMPUTE-SANITIZER|Note:|Info:|Saved host backtrace|Target application returned)/)
        return
    if (s ~ /Race reported between /) {
        pend = "race"; acc1 = ""; loc1 = ""; acc2 = ""; loc2 = ""; hz = 1
        r = s; sub(/.*Race reported between /, "", r)
        p = index(r, " and ")
        if (p && r ~ / access at .* and [A-Za-z]+ access at /) {
            side(substr(r, 1, p - 1), 1)
            side(substr(r, p + 5), 2)
        } else
            side(r, 1)
        return
    }
    if (s ~ /Potential [A-Z]+ hazard detected/) {
        pend = "hazard"; hkind = s
        sub(/.*Potential /, "", hkind); sub(/ hazard detected.*/, "", hkind)
        hacc1 = ""; hloc1 = ""; hacc2 = ""; hloc2 = ""
        return
    }
    if (s ~ /^(Error|Warning): / || s ~ /[Ii]nternal [Ss]anitizer [Ee]rror/ || s ~ /not supported/) {
        if (message == "" && filenum == 1) message = s
        return
    }
    pend = "err"; ehdr = s; eloc = ""          # memcheck & co: the header of a report block
}

function continuation(s,    t) {
    t = s; sub(/^[ \t]+/, "", t)
    if (pend == "race" && t ~ /^and [A-Za-z]+ access at /)
        side(substr(t, 5), 2)
    else if (pend == "hazard" && t ~ /^[A-Za-z]+ Thread /) {
        if (hacc1 == "") { hacc1 = t; sub(/ .*/, "", hacc1); hloc1 = where(t) }
        else if (hacc2 == "") { hacc2 = t; sub(/ .*/, "", hacc2); hloc2 = where(t) }
    } else if (pend == "err" && t ~ /^at / && eloc == "")
        eloc = where(t)
}

# "Write access at f(int *)+0x190 in a.cu:10 [26624 hazards]" -> side n of the pending race
function side(t, n,    a, c) {
    if (match(t, /\[[0-9]+ hazards?\]/)) {
        c = substr(t, RSTART + 1, RLENGTH - 2); sub(/ .*/, "", c)
        hz = c + 0
        t = substr(t, 1, RSTART - 1)
    }
    a = t; sub(/ .*/, "", a)
    if (n == 1) { acc1 = a; loc1 = where(t) } else { acc2 = a; loc2 = where(t) }
}

# The "FILE:LINE" of "... at FUNC+0xOFF in FILE:LINE" (also the old
# "0xOFF in FILE:LINE:FUNC"); "?" when the report has no line (no -lineinfo).
function where(t,    p, q, rest) {
    sub(/[ \t]*\[[0-9]+ hazards?\][ \t]*$/, "", t)
    sub(/[ \t]+$/, "", t)
    p = 0
    while ((q = index(substr(t, p + 1), " in ")) > 0) p += q
    if (!p) return "?"
    rest = substr(t, p + 4)
    if (match(rest, /:[0-9]+(:|$)/))
        return substr(rest, 1, RSTART + RLENGTH - 1 - (substr(rest, RSTART + RLENGTH - 1, 1) == ":"))
    return "?"
}

function flush(    k, a, b, lk) {
    if (pend == "race" && acc1 != "") {
        a = acc1 "@" loc1; b = (acc2 == "" ? "?@?" : acc2 "@" loc2)
        k = (a <= b) ? a SUBSEP b : b SUBSEP a
        if (!(k in race_n)) { race_key[++nrace] = k; race_n[k] = 0 }
        race_n[k] += hz
    } else if (pend == "hazard" && hacc1 != "") {
        lk = pairkey(hloc1, hloc2 == "" ? hloc1 : hloc2)
        if (!(lk in haz_kinds)) {
            haz_kinds[lk] = ""; haz_key[++nhaz_groups] = lk; haz_n[lk] = 0
            haz_acc[lk] = hacc1 "@" hloc1 SUBSEP (hacc2 == "" ? hacc1 "@" hloc1 : hacc2 "@" hloc2)
        }
        if (index(" " haz_kinds[lk] " ", " " hkind " ") == 0)
            haz_kinds[lk] = haz_kinds[lk] (haz_kinds[lk] == "" ? "" : " ") hkind
        haz_n[lk]++; nhaz++
    } else if (pend == "err") {
        k = ehdr SUBSEP (eloc == "" ? "?" : eloc)
        if (!(k in err_n)) { err_key[++nerr] = k; err_n[k] = 0 }
        err_n[k]++
    }
    pend = ""
}

function pairkey(x, y) { x = base(x); y = base(y); return (x <= y) ? x SUBSEP y : y SUBSEP x }

# ---- output ----------------------------------------------------------------

function show(    k, i, p, a, b, aa, al, ba, bl, kinds) {
    for (k = 1; k <= nrace; k++) {
        split(race_key[k], p, SUBSEP)
        aa = p[1]; sub(/@.*/, "", aa); al = p[1]; sub(/^[^@]*@/, "", al)
        ba = p[2]; sub(/@.*/, "", ba); bl = p[2]; sub(/^[^@]*@/, "", bl)
        kinds = kinds_of(al, bl, aa, ba)
        finding(kinds " hazard", al, bl, aa, ba, race_n[race_key[k]], "hazard", "hazards")
    }
    if (!nrace)                                # a hazard report on its own: its sample
        for (k = 1; k <= nhaz_groups; k++) {
            split(haz_acc[haz_key[k]], p, SUBSEP)
            aa = p[1]; sub(/@.*/, "", aa); al = p[1]; sub(/^[^@]*@/, "", al)
            ba = p[2]; sub(/@.*/, "", ba); bl = p[2]; sub(/^[^@]*@/, "", bl)
            finding(order(haz_kinds[haz_key[k]]) " hazard", al, bl, aa, ba, haz_n[haz_key[k]], "hazard shown", "hazards shown")
        }
    for (k = 1; k <= nerr; k++) {
        split(err_key[k], p, SUBSEP)
        finding(p[1], p[2], p[2], "", "", err_n[err_key[k]], "report", "reports")
    }
}

# RAW/WAR/WAW from the hazard sample for this pair of lines, else from the accesses.
# (A write/write race takes only WAW from the sample, a read/write one only RAW and WAR.)
function kinds_of(al, bl, aa, ba,    lk, got, ww, rw) {
    ww = (aa == "Write" && ba == "Write")
    rw = (aa == "Read" && ba == "Write") || (aa == "Write" && ba == "Read")
    lk = pairkey(al, bl); got = ""
    if (lk in haz_kinds) {
        got = " " haz_kinds[lk] " "
        if (ww) got = index(got, " WAW ") ? "WAW" : ""
        else if (rw) { gsub(/ WAW /, " ", got); got = order(got) }
        else got = order(got)
    }
    if (got != "") return got
    if (ww) return "WAW"
    if (rw) return "RAW/WAR"
    return aa "/" ba
}

function order(list,    out, i, k, n, w) {
    n = split("RAW WAR WAW", k, " "); out = ""
    for (i = 1; i <= n; i++)
        if (index(" " list " ", " " k[i] " ")) out = out (out == "" ? "" : "/") k[i]
    w = list                                   # any kind not in the usual three
    for (i = 1; i <= n; i++) gsub(k[i], "", w)
    gsub(/ +/, " ", w); sub(/^ /, "", w); sub(/ $/, "", w)
    if (w != "") out = out (out == "" ? "" : "/") w
    return out
}

# kind  file:line[,line]  (N units)   then the source lines
function finding(kind, al, bl, aa, ba, n, one, many,    f, where_, la, lb, t) {
    if (file_of(al) == file_of(bl) && line_of(bl) + 0 < line_of(al) + 0) {
        t = al; al = bl; bl = t; t = aa; aa = ba; ba = t      # lower line first
    }
    f = base(file_of(al)); la = line_of(al); lb = line_of(bl)
    where_ = f ":" la
    if (bl != al && lb != "")
        where_ = (base(file_of(bl)) == f) ? where_ "," lb : where_ " and " base(file_of(bl)) ":" lb
    printf "%s%s%s%s  %s%s%s  (%s %s)\n", pad, RED, kind, OFF, BOLD, where_, OFF, grp(n), (n == 1 ? one : many)
    if (bl != al) {
        source(al, aa == "" ? "" : tolower(aa))
        source(bl, ba == "" ? "" : tolower(ba))
    } else
        source(al, (aa != "" && ba != "" && aa != ba) ? tolower(aa) "+" tolower(ba) : "")
}

function source(loc, label,    f, n, path, l, got, i, text, code) {
    n = line_of(loc)
    if (n == "" || n + 0 < 1) return
    f = file_of(loc)
    got = 0
    if (srcdir != "") { path = srcdir "/" base(f); got = readline(path, n + 0) }
    if (!got) { path = f; got = readline(path, n + 0) }
    if (!got) return
    text = got_line
    gsub(/\t/, "    ", text)
    code = text; gsub(/\/\*.*\*\//, "", code); sub(/\/\/.*$/, "", code)   # comments off, if code is left
    if (code ~ /[^ ]/) text = code
    sub(/^[ ]+/, "", text); sub(/[ ]+$/, "", text)
    if (length(text) > 60) text = substr(text, 1, 57) "..."
    printf "%s  %s%5d |%s %s%s", pad, DIM, n, OFF, text, (label == "" ? "" : "   " DIM "<- " label OFF)
    printf "\n"
}

function readline(path, n,    l, i, r) {
    i = 0; got_line = ""
    while ((r = (getline l < path)) > 0)
        if (++i == n) { got_line = l; close(path); return 1 }
    if (r >= 0) close(path)
    return 0
}

function file_of(loc,    f) { f = loc; sub(/:[0-9]+$/, "", f); return f }
function line_of(loc,    l) { if (!match(loc, /:[0-9]+$/)) return ""; return substr(loc, RSTART + 1) }
function base(f) { sub(/.*\//, "", f); return f }

function grp(n,    s, r) {
    s = sprintf("%d", n); r = ""
    while (length(s) > 3) { r = " " substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
    return s r
}
