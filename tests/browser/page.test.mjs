// The page of `kyphu serve` in a real browser (Debian's chromium, headless): what an
// arbiter and an editor do with it. A screenshot of each state is kept in artifacts/.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checked, launch, openPage, root, shot, startServer } from "./helpers.mjs";

const data = (f) => readFileSync(path.join(root, f), "utf8");
let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.stop();
});

/// How many check answers the page has shown.
const answers = (page) => page.evaluate(() => Number(document.body.dataset.checks || 0));

/// Waits for the answer after `seen` answers (the text was changed since).
async function recheck(page, seen) {
  await page.waitForFunction((n) => Number(document.body.dataset.checks || 0) > n, seen);
}

/// The error mark in the text for token `token`, hovered: the card shows its message.
async function hoverMark(page, token) {
  const mark = page.locator("#backdrop mark.error", { hasText: token });
  await mark.waitFor();
  const box = await mark.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.locator("#card:not([hidden])").waitFor();
  return page.locator("#card");
}

test("a Vietnamese scoresheet with slips: each diagnostic, fixed by clicking candidates, exported as PGN", async () => {
  const page = await openPage(browser, server.url, "vi-VN");
  assert.equal(await page.textContent("#tab-check"), "Kiểm tra");
  await page.fill("#record", data("tests/browser/data/scoresheet-vi-3-slips.pgn"));
  await checked(page);
  const fixes = [
    ["Mg3", "Mf3"],
    ["Tc5", "Tc4"],
    ["Tg6", "Tg5"],
  ];
  for (const [i, [wrong, right]] of fixes.entries()) {
    // every slip left is listed at once (one run finds them all), underlined in the
    // text, and explained on hover
    const item = page.locator("#diags li.error");
    await item.filter({ hasText: wrong }).waitFor();
    assert.equal(await item.count(), fixes.length - i);
    assert.match(await page.textContent("#summary"), new RegExp(`${fixes.length - i} chỗ cần xem`));
    // two plies say nothing of the letters; after the first fix they are Vietnamese
    if (i > 0) assert.match(await page.textContent("#reading"), /Vietnamese \(vi, tự nhận ra\)/);
    const card = await hoverMark(page, wrong);
    assert.match(await card.textContent(), new RegExp(`illegal move ${wrong}`));
    assert.match(await card.textContent(), /dòng \d+, cột \d+/);
    const candidates = await card.locator("button.cand").allTextContents();
    assert.ok(candidates.includes(right), `${right} in ${candidates}`);
    await shot(page, `vi-slip-${i + 1}`);
    const old = await answers(page);
    await card.locator("button.cand", { hasText: new RegExp(`^${right}$`) }).click();
    await recheck(page, old);
    assert.ok((await page.inputValue("#record")).includes(` ${right} `));
  }
  await page.locator("#summary.clean").waitFor();
  assert.equal(await page.locator("#diags li.error").count(), 0);
  assert.equal(await page.locator("#backdrop mark.error").count(), 0);
  await shot(page, "vi-clean");
  // export in the record's own letters (chosen from the reading)
  assert.equal(await page.inputValue("#exp-lang"), "vi");
  const download = page.waitForEvent("download");
  await page.click("#exp-go");
  const file = await download;
  assert.equal(file.suggestedFilename(), "record.pgn");
  const pgn = await page.inputValue("#exp-out");
  assert.match(pgn, /\[White "Nguyễn Văn An"\]/);
  assert.match(pgn, /2\. Mf3 d6 3\. d4 Tg4/);
  assert.match(pgn, /6\. Tc4 Mf6/);
  assert.match(pgn, /Xd8# 1-0/);
  await shot(page, "vi-exported");
  assert.deepEqual(page.kyphuErrors, []);
  await page.context().close();
});

test("a xiangqi record in Chinese: the slip shown, fixed, exported in its notation", async () => {
  const page = await openPage(browser, server.url, "zh-CN");
  assert.equal(await page.textContent("#tab-check"), "检查");
  await page.fill("#record", data("tests/browser/data/xiangqi-chinese-slip.pgn"));
  await checked(page);
  const card = await hoverMark(page, "马二进四");
  assert.match(await card.textContent(), /illegal move 马二进四/);
  assert.match(await page.textContent("#reading"), /chinese/);
  assert.equal(await page.locator("#board svg.xiangqi").count(), 1);
  await shot(page, "xiangqi-slip");
  const old = await answers(page);
  const candidate = card.locator("button.cand", { hasText: /^马二进三$/ });
  if ((await candidate.count()) > 0) {
    await candidate.click();
  } else {
    // no candidate for this slip: the editor retypes the move in place
    const d = await page.evaluate(() => {
      const m = document.querySelector("#backdrop mark.error");
      const text = document.getElementById("record").value;
      const start = text.indexOf(m.textContent);
      return { start, end: start + m.textContent.length };
    });
    await page.focus("#record");
    await page.evaluate(({ start, end }) => document.getElementById("record").setSelectionRange(start, end), d);
    await page.keyboard.insertText("马二进三");
  }
  await recheck(page, old);
  await page.locator("#summary.clean").waitFor();
  await shot(page, "xiangqi-clean");
  assert.equal(await page.inputValue("#exp-xiangqi"), "chinese");
  await page.click("#exp-go");
  await page.waitForFunction(() => document.getElementById("exp-out").value.length > 0);
  const pgn = await page.inputValue("#exp-out");
  assert.match(pgn, /\[Game "Chinese Chess"\]/);
  assert.match(pgn, /马二进三/);
  assert.doesNotMatch(pgn, /马二进四/);
  assert.deepEqual(page.kyphuErrors, []);
  await page.context().close();
});

/// Drops `text` as a file named `name` on `selector`.
async function drop(page, selector, name, text, type) {
  const dt = await page.evaluateHandle(
    ({ name, text, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type }));
      return dt;
    },
    { name, text, type },
  );
  await page.dispatchEvent(selector, "drop", { dataTransfer: dt });
}

test("a dropped CSV scoresheet is read; in a dropped archive the game is picked", async () => {
  const page = await openPage(browser, server.url, "en-GB");
  await drop(page, "#editor", "scoresheet-vi.csv", data("corpus/csv/scoresheet-vi.csv"), "text/csv");
  await checked(page);
  assert.match(await page.inputValue("#record"), /^TT,Trắng,Đen/);
  await page.locator("#summary.clean").waitFor();
  assert.ok((await page.locator("#moves .mv").count()) > 20);
  assert.equal(await page.isHidden("#pick-wrap"), true);
  await shot(page, "csv-dropped");
  // an archive of several games: the picker lists them, and picks one
  await drop(page, "#editor", "games.pgn", data("corpus/chess/games.pgn"), "application/x-chess-pgn");
  await page.locator("#pick-wrap:not([hidden])").waitFor();
  const options = await page.locator("#game-pick option").count();
  assert.ok(options > 1, `${options} games`);
  const firstGame = await page.locator("#moves .mv").allTextContents();
  await page.selectOption("#game-pick", "2");
  await page.waitForFunction(
    (first) => [...document.querySelectorAll("#moves .mv")].map((e) => e.textContent).join(" ") !== first,
    firstGame.join(" "),
  );
  await shot(page, "archive-game-2");
  assert.deepEqual(page.kyphuErrors, []);
  await page.context().close();
});

test("two sheets compared side by side", async () => {
  const page = await openPage(browser, server.url, "vi-VN");
  await page.click("#tab-diff");
  await page.fill("#diff-a", data("corpus/chess/diff/sheet-white.pgn"));
  await page.fill("#diff-b", data("corpus/chess/diff/sheet-black.pgn"));
  await page.click("#diff-go");
  await page.locator("#diff-result.differ").waitFor();
  const said = await page.textContent("#diff-result");
  assert.match(said, /Hai biên bản khớp \d+ nửa nước đầu/);
  assert.ok((await page.locator("#diff-moves-a li.agree").count()) > 0);
  assert.ok((await page.locator("#diff-moves-a li.part, #diff-moves-b li.part").count()) > 0);
  assert.match(await page.textContent("#diff-common"), /\d+\./);
  await shot(page, "diff");
  // the same sheet twice is the same game
  await page.fill("#diff-b", data("corpus/chess/diff/sheet-white.pgn"));
  await page.click("#diff-go");
  await page.locator("#diff-result.same").waitFor();
  assert.deepEqual(page.kyphuErrors, []);
  await page.context().close();
});

test("keyboard navigation of the move list; the board follows the cursor in the text", async () => {
  const page = await openPage(browser, server.url, "en-US");
  await page.fill("#record", data("corpus/chess/scoresheet-vi.pgn"));
  await page.locator("#summary.clean").waitFor();
  const at = async () => Number(await page.getAttribute("#board", "data-ply"));
  const boardAt = async (ply) => page.waitForFunction((p) => document.getElementById("board").dataset.ply === String(p), ply);
  await page.focus("#moves");
  await page.keyboard.press("Home");
  await boardAt(0);
  assert.equal(await page.textContent("#nav-at"), "start position");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await boardAt(3);
  // after 1. e4 e5 2. Mf3: the board's title is its FEN
  assert.equal(
    await page.textContent("#board svg title"),
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
  );
  assert.equal(await page.textContent("#moves .mv[aria-selected=true]"), "Mf3");
  await page.keyboard.press("ArrowDown");
  await boardAt(5);
  await page.keyboard.press("End");
  await boardAt(33);
  await page.keyboard.press("ArrowLeft");
  await boardAt(32);
  await page.keyboard.press("ArrowUp");
  await boardAt(30);
  await shot(page, "keyboard");
  // the cursor in the text: the board shows the move under it
  const offset = (await page.inputValue("#record")).indexOf("Hb3");
  await page.focus("#record");
  await page.evaluate((o) => document.getElementById("record").setSelectionRange(o + 1, o + 1), offset);
  await page.keyboard.press("Shift"); // a key, as a person moving the cursor
  await boardAt(13);
  assert.equal(await at(), 13);
  assert.equal(await page.locator("#board svg rect.last").count(), 2);
  await shot(page, "cursor-follows");
  assert.deepEqual(page.kyphuErrors, []);
  await page.context().close();
});

test("a newcomer fixes the bundled slip sheet without reading anything", async () => {
  const page = await openPage(browser, server.url, "en-US");
  await page.click("#load-sample");
  const item = page.locator("#diags li.error", { hasText: "illegal move Mc3" });
  await item.waitFor();
  const seen = await answers(page);
  // the first candidate is the move meant (see the README's tour)
  await item.locator("button.cand", { hasText: /^Mc6$/ }).click();
  await recheck(page, seen);
  await page.locator("#summary.clean").waitFor();
  assert.match(await page.inputValue("#record"), /7\. 0-0 Mc6/);
  await shot(page, "sample-fixed");
  assert.deepEqual(page.kyphuErrors, []);
  await page.context().close();
});
