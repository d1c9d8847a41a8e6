#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Print the source table of corpus/text/README.md and the per-record rows of
corpus/SOURCES.md from manifest.txt and forms.txt (run from anywhere; Markdown on stdout).
Usage: summary.py counts | readme | sources | write
  write: regenerate corpus/text/README.md from README.in and the table of corpus/SOURCES.md"""
import os
import sys
from urllib.parse import urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mkexpect import blocks  # noqa: E402


def key(src):
    if src.startswith("http"):
        host = urlparse(src.split()[0]).netloc.rstrip(".")
        for p in ("www.", "m."):
            if host.startswith(p) and host.count(".") > 1:
                host = host[len(p):]
        return host
    return src.split(",")[0]


def load():
    recs = list(blocks(os.path.join(HERE, "manifest.txt")))
    forms = {}
    with open(os.path.join(HERE, "forms.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or "|" not in line:
                continue
            k, v = line.split("|", 1)
            forms[k.strip()] = v.strip()
    return recs, forms


def counts_line(recs, groups):
    langs = sorted({r["id"].split("/")[0] for r in recs})
    games = {}
    for r in recs:
        games[r["game"]] = games.get(r["game"], 0) + 1
    return (f"records {len(recs)}, sources {len(groups)}, languages {len(langs)} ({' '.join(langs)}), "
            + ", ".join(f"{g} {n}" for g, n in sorted(games.items())))


def capture(fn, *args):
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args)
    return buf.getvalue().rstrip("\n")


def main(what=None):
    what = what or (sys.argv[1] if len(sys.argv) > 1 else "counts")
    recs, forms = load()
    if what == "write":
        root = os.path.dirname(HERE)
        groups = {}
        for r in recs:
            groups.setdefault(key(r["source"]), []).append(r)
        text = open(os.path.join(HERE, "README.in"), encoding="utf-8").read()
        text = text.replace("{{COUNTS}}", "    " + counts_line(recs, groups))
        text = text.replace("{{STOPS}}", str(sum(1 for r in recs if r.get("stops-at"))))
        text = text.replace("{{FENS}}", str(sum(1 for r in recs if r.get("fen"))))
        text = text.replace("{{TABLE}}", capture(main, "readme"))
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write(text)
        src = os.path.join(os.path.dirname(root), "SOURCES.md")
        head = open(src, encoding="utf-8").read().split("| record | source | licence | verbatim |")[0]
        with open(src, "w", encoding="utf-8") as f:
            f.write(head + capture(main, "sources") + "\n")
        print(counts_line(recs, groups))
        return
    groups = {}
    for r in recs:
        groups.setdefault(key(r["source"]), []).append(r)
    if what == "counts":
        print(counts_line(recs, groups))
        missing = [k for k in groups if k not in forms]
        if missing:
            print("no forms for:", ", ".join(missing))
    elif what == "readme":
        print("| source | language | game | records | forms seen | licence | verbatim |")
        print("|---|---|---|---|---|---|---|")
        for k in sorted(groups, key=str.lower):
            rs = groups[k]
            langs = ", ".join(sorted({r["id"].split("/")[0] for r in rs}))
            games = ", ".join(sorted({r["game"] for r in rs}))
            lic = rs[0]["licence"].split(";")[0]
            verb = ", ".join(sorted({r["verbatim"] for r in rs}))
            ids = ", ".join(f"`{r['id']}`" for r in rs)
            print(f"| {k} | {langs} | {games} | {ids} | {forms.get(k, '')} | {lic} | {verb} |")
    elif what == "sources":
        print("| record | source | licence | verbatim |")
        print("|---|---|---|---|")
        for r in recs:
            print(f"| `text/{r['id']}.txt` | {r['source']} | {r['licence']} | {r['verbatim']} |")


if __name__ == "__main__":
    main()
