"""Places the external (not copyable) corpus files where the tests look for them.

kyphu corpus tools; MIT OR Apache-2.0. For each external source of
MANIFEST-xqf-dhtmlxq.md, give a local git clone of its repository; every file
listed in expected/<source>/ is taken from the commit named in the manifest
(`git show COMMIT:PATH`), checked against the recorded sha256 and written to
DEST/<source>/<path> (DEST defaults to ../shared/corpus/xiangqi next to the
checkout). Nothing is downloaded here.

Usage:
  python3 fetch_external.py hbsxcjp-cchess_qt=/path/to/cchess_qt \
      xqbase-eleeye=/path/to/eleeye fastlight126-vschess=/path/to/vschess [--dest DIR]
"""

import argparse
import bz2
import gzip
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CORPUS))

# Commits the expected readings were made from (see the manifest).
COMMITS = {
    "walker8088-cchess": ["0a17e69b0bfb2eb3861bf636c92288cc64ef0ead"],
    "hbsxcjp-cchess_qt": ["9875b8fc30a8bba54ae2b2964f3bfce932e8e3d4"],
    "xqbase-eleeye": ["a9d3914e596da93a150d74af8967edecc0810ef7"],
    "fastlight126-vschess": ["d62eae41ea06f45cd8f61d1ef91eb80c55057042",
                             "36b48f05c09ac67e402b7adae320b8a8787418b6"],
}
# Folder of the shared corpus -> path prefix inside the upstream repository.
UPSTREAM_PREFIX = {"walker8088-cchess": "tests/data/"}


def load(path):
    if path.endswith(".bz2"):
        with bz2.open(path, "rt") as f:
            return json.load(f)
    if path.endswith(".gz"):
        with gzip.open(path, "rt") as f:
            return json.load(f)
    with open(path) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("clones", nargs="+", help="SOURCE=PATH_TO_GIT_CLONE")
    ap.add_argument("--dest", default=os.path.join(os.path.dirname(REPO), "shared", "corpus", "xiangqi"))
    args = ap.parse_args()
    bad = 0
    for spec in args.clones:
        src, clone = spec.split("=", 1)
        exp = os.path.join(CORPUS, "expected", src)
        for d, _, fs in os.walk(exp):
            for f in fs:
                rec = load(os.path.join(d, f))
                up = UPSTREAM_PREFIX.get(src, "") + rec["path"]
                data = None
                for c in COMMITS[src]:
                    r = subprocess.run(["git", "-C", clone, "show", f"{c}:{up}"], capture_output=True)
                    if r.returncode == 0 and hashlib.sha256(r.stdout).hexdigest() == rec["sha256"]:
                        data = r.stdout
                        break
                if data is None:
                    print(f"{src}/{rec['path']}: not found with sha256 {rec['sha256']}", file=sys.stderr)
                    bad += 1
                    continue
                out = os.path.join(args.dest, src, rec["path"])
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, "wb") as fh:
                    fh.write(data)
                print(out)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
