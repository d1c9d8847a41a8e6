// Shared by the browser tests: a real `kyphu serve` on a free port of 127.0.0.1, and
// Debian's chromium driven by playwright-core (no browser download).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const artifacts = path.join(here, "artifacts");
mkdirSync(artifacts, { recursive: true });

/// The kyphu binary: $KYPHU, else the debug build of $CARGO_TARGET_DIR or ./target.
export function binary() {
  if (process.env.KYPHU) return process.env.KYPHU;
  const target = process.env.CARGO_TARGET_DIR || path.join(root, "target");
  return path.join(target, "debug", "kyphu");
}

/// Starts `kyphu serve --port 0` and resolves to { url, stop }.
export function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(binary(), ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`kyphu serve did not start: ${out}`)), 20000);
    child.on("error", reject);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/serving on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => child.kill("SIGTERM") });
      }
    });
  });
}

export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

export async function launch() {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/// A page of the server in `locale`, ready (its menus filled).
export async function openPage(browser, url, locale = "en-US") {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  page.kyphuErrors = errors;
  return page;
}

/// Keeps a screenshot of the page as a test artefact.
export async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/// Waits until the check answer for the current text is shown.
export async function checked(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById("summary");
    return s && s.textContent.trim().length > 0;
  });
}
