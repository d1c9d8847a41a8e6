#!/usr/bin/env python3
"""Regenerates the tables of docs/notation/real-text.md from the real-text test's report.

  cargo test --test real_text -- --nocapture | python3 corpus/text/tools/real_table.py \
      [--session 'N' --why 'record=what made it read' ...]

The per-record table printed by tests/real_text.rs gives each record's plies and result;
the reasons of the records that fail are those of EXPECTED_FAILURES in tests/real_text.rs.
A record that read right before keeps its note in the doc; one that reads right now for
the first time gets `(session N: what)` from --why."""
import argparse, collections, os, re, sys

root = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
doc_path = os.path.join(root, 'docs', 'notation', 'real-text.md')
test_path = os.path.join(root, 'tests', 'real_text.rs')

ap = argparse.ArgumentParser()
ap.add_argument('--session', default='')
ap.add_argument('--why', action='append', default=[])
args = ap.parse_args()
why = dict(w.split('=', 1) for w in args.why)

rows = {}
for line in sys.stdin:
    m = re.match(r'\| (\S+/\S+) \| (\w+) \| (\d+) \| ([^|]+) \| ([^|]+) \|', line)
    if m:
        rows[m.group(1)] = (m.group(2), m.group(3), m.group(4).strip(), m.group(5).strip())
if not rows:
    sys.exit('no table on stdin: run the test with --nocapture')
src = open(test_path, encoding='utf-8').read()
reasons = dict(re.findall(r'\(\s*"([^"]+)",\s*"((?:[^"\\]|\\.)*)",?\s*\)', src))
doc = open(doc_path, encoding='utf-8').read()
old = {}
for line in doc.splitlines():
    m = re.match(r'\| `([^`]+)` \| \w+ \| \d+ \| [^|]+ \| (.*) \|$', line)
    if m:
        old[m.group(1)] = m.group(2)

out = []
by_lang = collections.OrderedDict()
for r, (game, exp, read, res) in sorted(rows.items()):
    b = by_lang.setdefault((r.split('/')[0], game), [0, 0, 0, 0])
    b[0] += 1
    if res in ('exact', 'stops right'):
        b[1] += 1
        note = old.get(r, res)
        if 'fail' in note or 'wrong game' in note:
            note = f'{res} (session {args.session}: {why[r]})' if r in why else res
        out.append(f'| `{r}` | {game} | {exp} | {read} | {note} |')
    else:
        reason = reasons.get(r, '?').replace('\\"', '"')
        b[2 if reason.startswith('forms') else 3] += 1
        kind = 'fail' if res == 'FAIL' else 'wrong game'
        out.append(f'| `{r}` | {game} | {exp} | {read} | {kind}; {reason} |')

tab = ['| language | game | records | read right | failing on a form | failing on the reader |',
       '|---|---|---|---|---|---|']
tot = [0, 0, 0, 0]
for (lang, game), b in by_lang.items():
    tab.append(f'| {lang} | {game} | {b[0]} | {b[1]} | {b[2]} | {b[3]} |')
    tot = [x + y for x, y in zip(tot, b)]
tab.append(f'| **all** | | **{tot[0]}** | **{tot[1]}** | **{tot[2]}** | **{tot[3]}** |')
a = doc.index('| language | game | records |')
b = doc.index('## By record')
doc = doc[:a] + '\n'.join(tab) + '\n\n' + doc[b:]
a = doc.index('| record | game | plies expected |')
end = doc.find('\n\n', a)
hdr = '| record | game | plies expected | plies read | result |\n|---|---|---|---|---|\n'
doc = doc[:a] + hdr + '\n'.join(out) + '\n' + (doc[end + 1:] if end >= 0 else '')
open(doc_path, 'w', encoding='utf-8').write(doc)
print('read right:', tot[1], 'of', tot[0])
