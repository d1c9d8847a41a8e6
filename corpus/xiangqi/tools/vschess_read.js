// Runs the vschess reader (FastLight126/vschess, LGPL-3.0; not part of kyphu)
// on one XQF or DhtmlXQ file and prints its tree as JSON.
// kyphu corpus tools; MIT OR Apache-2.0. Our own driver: it only loads the
// built library `vschess/vschess.function.js` of a vschess checkout, whose path
// is given in the VSCHESS_JS environment variable.
//
// Usage: VSCHESS_JS=/path/to/vschess.function.js node vschess_read.js FILE
// Output: {"games": [{"fen": ..., "comment": ..., "next": [{"move", "comment", "next"}]}]}
"use strict";
global.window = globalThis; // the library probes window.TextDecoder
const vs = require(process.env.VSCHESS_JS);
const fs = require("fs");

const file = process.argv[2];
const buf = fs.readFileSync(file);

function decode(b) {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder("utf-8").decode(b.subarray(3));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch (e) {
    const head = b.subarray(0, 4096).toString("latin1");
    return new TextDecoder(/charset\s*=\s*["']?big5/i.test(head) ? "big5" : "gb18030").decode(b);
  }
}

function strip(n) {
  return { move: n.move, comment: n.comment || "", next: (n.next || []).map(strip) };
}

const games = [];
if (file.toLowerCase().endsWith(".xqf")) {
  const n = vs.binaryToNode(new Uint8Array(buf));
  games.push({ fen: n.fen, comment: n.comment || "", next: (n.next || []).map(strip) });
} else {
  // vschess reads one game per call: give it each block of the page.
  const text = decode(buf);
  const re = /\[(DhtmlXQ|DhtmlXQiFrame)\]([\s\S]*?)\[\/\1\]/g;
  let m;
  while ((m = re.exec(text)) !== null) {
    const n = vs.dataToNode(m[0]);
    games.push({ fen: n.fen, comment: n.comment || "", next: (n.next || []).map(strip) });
  }
}
process.stdout.write(JSON.stringify({ games: games }));
