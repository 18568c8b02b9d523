// The tablebase panel in a real headless browser (Debian's Chromium, driven by playwright-core).
//
//   node tests/browser/tablebase.mjs target/release/fianchetto TABLE_DIR [SCREENSHOT_DIR]
//
// A server started with `--syzygy TABLE_DIR` (the 3-4-piece tables .ci/run fetches): an
// endgame set up in the editor and analysed shows the tables' verdict and every move's, best
// first; a click on a move plays it into a variation, and the panel follows the board; a
// double click plays a move once; a promotion chooser closes when the board moves on; a
// position with more pieces than the tables hold shows no panel; a server without tables never
// shows one (and asks without an error). Fails on any console or page error. Writes tablebase.png to SCREENSHOT_DIR.
import { LIVENESS, launchBrowser, serve } from "./common.mjs";

const [BIN, TABLES, SHOTS] = process.argv.slice(2);

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

const withTables = await serve(BIN, ["--syzygy", TABLES]);
const without = await serve(BIN);
const browser = await launchBrowser();
const errors = [];
const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
const panelText = () => page.textContent("#tablebase");

// Sets up `fen` in the editor and analyses it.
async function analyse(p, fen) {
  await p.click("#tab-editor");
  await p.fill("#ed-fen", fen);
  await p.waitForFunction(() => /to move/.test(document.getElementById("ed-message").textContent), null, { timeout: LIVENESS });
  await p.click("#ed-analyse");
  await p.waitForFunction(() => !document.getElementById("analyse-panel").hidden, null, { timeout: LIVENESS });
}

try {
  check(/Tablebases: \d+ tables, up to 4 pieces/.test(withTables.out), `the server names its tables: ${withTables.out}`);
  await page.goto(withTables.url);
  await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32, null, { timeout: LIVENESS });

  // King and rook against king, White to move: a win; the rook's moves that hang it are losses
  // of the win, the best move comes first and says how far the next capture or pawn move is.
  await analyse(page, "8/8/8/4k3/8/8/3K4/7R w - - 0 1");
  await page.waitForFunction(() => !document.getElementById("tablebase").hidden
    && document.querySelectorAll("#tablebase .tb-move").length > 0, null, { timeout: LIVENESS });
  const text = await panelText();
  check(/Tablebase: White wins · DTZ \d+/.test(text), `the verdict: ${text}`);
  const groups = await page.$$eval("#tablebase .tb-group", (els) => els.map((e) => e.dataset.wdl));
  check(groups[0] === "win", `winning moves first: ${groups}`);
  const rows = await page.locator("#tablebase .tb-move").count();
  const legal = await page.evaluate(async () => (await (await fetch("/api/position", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fen: "8/8/8/4k3/8/8/3K4/7R w - - 0 1" }) })).json()).legal.length);
  check(rows === legal, `one row per legal move: ${rows} of ${legal}`);
  const dtzs = await page.$$eval('#tablebase .tb-group[data-wdl="win"] .tb-dtz', (els) => els.map((e) => Number(e.textContent.replace("DTZ ", ""))));
  check(dtzs.every((d, i) => i === 0 || d >= dtzs[i - 1]), `quickest win first: ${dtzs}`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/tablebase.png` });

  // A click plays the move into a variation; the panel now judges Black's moves: all lose.
  const best = await page.locator("#tablebase .tb-move span").first().textContent();
  await page.locator("#tablebase .tb-move").first().click();
  await page.waitForFunction((san) => !document.getElementById("variation").hidden
    && document.querySelector("#analyse-moves li.vars .move.current")?.textContent === san, best, { timeout: LIVENESS });
  await page.waitForFunction(() => /Tablebase: White wins/.test(document.getElementById("tablebase").textContent)
    && document.querySelector("#tablebase .tb-group")?.dataset.wdl === "loss", null, { timeout: LIVENESS });
  check(!(await page.$('#tablebase .tb-group[data-wdl="win"]')), "Black has no winning move");

  // A drawn ending: king and knight against king.
  await analyse(page, "8/8/8/4k3/8/8/3K4/7N b - - 0 1");
  await page.waitForFunction(() => /Tablebase: Draw/.test(document.getElementById("tablebase").textContent), null, { timeout: LIVENESS });

  // A double click on a move plays it once: the second click finds the line the first made.
  await page.locator("#tablebase .tb-move").first().dblclick();
  await page.waitForFunction(() => document.querySelectorAll("#analyse-moves li.vars .move").length > 0, null, { timeout: LIVENESS });
  await page.waitForTimeout(1500);
  const roots = await page.$$eval("#analyse-moves li.vars > .line", (els) => els.map((e) => e.innerText));
  const firsts = roots.map((r) => r.split(" ").slice(0, 2).join(" "));
  check(new Set(firsts).size === firsts.length, `one line per move: ${roots.join(" | ")}`);

  // A promotion chooser left open closes when the board shows another position.
  await analyse(page, "8/4P3/8/4k3/8/8/3K4/8 w - - 0 1");
  await page.waitForFunction(() => document.querySelectorAll("#tablebase .tb-move").length > 0, null, { timeout: LIVENESS });
  await page.locator('#tablebase .tb-move[data-uci="d2d3"]').click();
  await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Kd3", null, { timeout: LIVENESS });
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => !document.querySelector("#analyse-moves .move.current") && document.querySelector('#board .sq[data-square="d2"] .piece'), null, { timeout: LIVENESS });
  await page.click('#board .sq[data-square="e7"]');
  await page.click('#board .sq[data-square="e8"]');
  await page.waitForSelector("#promotion:not([hidden])");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Kd3"
    && document.getElementById("promotion").hidden, null, { timeout: LIVENESS });

  // More pieces than the tables hold: no panel.
  await analyse(page, "8/8/8/4k3/8/2p5/3KP3/7N w - - 0 1");
  await page.waitForFunction(() => document.getElementById("tablebase").hidden, null, { timeout: LIVENESS });

  // A server without tables shows no panel, even in a three-piece ending, and says nothing wrong.
  const plain = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  plain.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  plain.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  await plain.goto(without.url);
  await plain.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32, null, { timeout: LIVENESS });
  await analyse(plain, "8/8/8/4k3/8/8/3K4/7R w - - 0 1");
  await plain.waitForTimeout(1000);
  check(await plain.locator("#tablebase").isHidden(), "no panel without tables");

  check(errors.length === 0, `no console errors: ${errors.join("; ")}`);
  console.log("tablebase panel test passed");
} catch (e) {
  await page.screenshot({ path: "failure.png" }).catch(() => {});
  console.error(e);
  console.error(errors.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
  withTables.server.kill();
  without.server.kill();
}
