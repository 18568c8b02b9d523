// The browser app in a real headless browser (Debian's Chromium, driven by playwright-core).
//
//   node tests/browser/test.mjs target/release/fianchetto [SCREENSHOT_DIR]
//
// Starts `fianchetto serve` on a free port, then: loads the page; plays a legal move by
// clicking and sees the engine reply; has an illegal move refused; promotes through the
// chooser; pastes a PGN, analyses it and sees judgements and the graph, and jumps by clicking
// the graph; reloads. Fails on any console error or page error. Writes failure.png on a
// failure, and play.png / analysis.png (the README's screenshots) to SCREENSHOT_DIR if given.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

const BIN = process.argv[2];
const SHOTS = process.argv[3];
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(BIN, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+\//);
      if (m) resolve({ server, url: m[0] });
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), 10000);
  });
}

const { server, url } = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
const errors = [];
page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));

const square = (sq) => page.locator(`#board .sq[data-square="${sq}"]`);
const pieceOn = async (sq) => (await square(sq).locator(".piece").count()) > 0;
const playMoves = async () => (await page.locator("#play-moves").innerText()).split(/\s+/).filter(Boolean);
let failed = false;

// Moves a piece by two clicks.
async function clickMove(from, to) {
  await square(from).click();
  await square(to).click();
}

// A new game from `fen` (the engine waits for the human when White is to move), once its
// `pieces` pieces stand on the board.
async function newGameFrom(fen, pieces) {
  await page.fill("#start-fen", fen);
  await page.click("#new-game");
  await page.waitForFunction((n) => document.querySelectorAll("#board .piece").length === n, pieces);
  await page.fill("#start-fen", "");
}

async function step(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (e) {
    failed = true;
    console.log(`FAIL ${name}: ${e.message}`);
    await page.screenshot({ path: "failure.png" }).catch(() => {});
    throw e;
  }
}

try {
  await step("the page loads with a board of 64 squares and 32 pieces", async () => {
    await page.goto(url);
    await page.waitForSelector("#board .sq");
    if ((await page.locator("#board .sq").count()) !== 64) throw new Error("not 64 squares");
    await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32);
  });

  await step("a legal move by clicking, and the engine replies", async () => {
    await page.selectOption("#strength", "1300");
    await square("e2").click();
    if ((await page.locator("#board .sq.target").count()) !== 2) throw new Error("e2 should show 2 targets");
    await square("e4").click();
    await page.waitForFunction(() => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 2);
    const moves = await playMoves();
    if (moves[0] !== "e4") throw new Error(`first move ${moves[0]}`);
    if (!(await pieceOn("e4")) || (await pieceOn("e2"))) throw new Error("the pawn did not move");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move");
  });

  await step("an illegal move is refused", async () => {
    const before = await playMoves();
    await clickMove("a1", "a5");
    await page.waitForTimeout(300);
    if (!(await pieceOn("a1")) || (await pieceOn("a5"))) throw new Error("the rook moved");
    if ((await playMoves()).length !== before.length) throw new Error("a move was recorded");
  });

  await step("promotion through the chooser", async () => {
    await newGameFrom("8/P6k/8/8/8/8/8/K7 w - - 0 1", 3);
    await clickMove("a7", "a8");
    await page.waitForSelector("#promotion:not([hidden])");
    await page.click('#promotion button[data-piece="n"]');
    await page.waitForFunction(() => document.querySelector("#play-moves").innerText.includes("a8=N"));
    const glyph = await square("a8").locator(".piece").innerText();
    if (glyph !== "♞") throw new Error(`a8 holds ${glyph}`);
  });

  await step("the game's end is announced", async () => {
    await newGameFrom("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 6);
    await clickMove("a1", "a8");
    await page.waitForFunction(() => document.querySelector("#status").innerText.includes("checkmate"));
  });

  await step("a new game, then the play view's screenshot", async () => {
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32);
    for (const [from, to] of [["d2", "d4"], ["g1", "f3"], ["c2", "c4"]]) {
      const n = (await playMoves()).length;
      await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move");
      await clickMove(from, to);
      await page.waitForFunction((k) => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= k + 2, n);
    }
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/play.png` });
  });

  await step("a pasted PGN is shown, analysed, judged and graphed", async () => {
    await page.click("#tab-analyse");
    await page.fill("#pgn-input",
      '[White "Scholar"]\n[Black "Victim"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0');
    await page.click("#load-pgn");
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves .move").length === 7);
    await page.click("#analyse-game");
    await page.waitForSelector("#graph svg", { timeout: 30000 });
    await page.waitForSelector("#analyse-moves .move.blunder");
    const summary = await page.locator("#summary").innerText();
    if (!summary.includes("accuracy")) throw new Error(`summary: ${summary}`);
    // A click on the graph's right end jumps to the last position.
    const box = await page.locator("#graph svg").boundingBox();
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "7");
    await page.waitForFunction(() => document.querySelector("#status").innerText.includes("checkmate"));
    // Keys step through the game.
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "1");
    // A judged move says what was best, in words, as lichess does (3... Nf6?? allows mate).
    await page.click('#analyse-moves .move[data-ply="6"]');
    await page.waitForFunction(() => /^Nf6: .*Checkmate is now unavoidable\. .+ was best\.$|^Nf6: Blunder\. .+ was best\.$/
      .test(document.querySelector("#move-comment").innerText));
  });

  await step("live engine lines and the eval bar", async () => {
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32
      && document.querySelector("#analyse-moves .move.current")?.dataset.ply === "6");
    await page.check("#engine-on");
    await page.waitForFunction(() => document.querySelector("#engine-lines").innerText.includes("#1"), null, { timeout: 20000 });
    if (await page.locator("#evalbar").isHidden()) throw new Error("no eval bar");
    await page.waitForTimeout(600); // the eval bar's transition
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/analysis.png` });
    await page.uncheck("#engine-on");
  });

  await step("a reload leaves nothing broken, and a piece moves by dragging", async () => {
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32);
    await page.dragAndDrop('#board .sq[data-square="g1"] .piece', '#board .sq[data-square="f3"]');
    await page.waitForFunction(() => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 2);
  });

  await step("narrow (phone) width still fits the board", async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.waitForTimeout(200);
    const box = await page.locator("#board").boundingBox();
    if (box.width > 390 || box.width < 300) throw new Error(`board ${box.width} px wide`);
  });

  if (errors.length) {
    failed = true;
    console.log(`FAIL console errors:\n  ${errors.join("\n  ")}`);
  }
} catch {
  failed = true;
} finally {
  await browser.close();
  server.kill();
}
console.log(failed ? "browser tests failed" : "browser tests passed");
process.exit(failed ? 1 : 0);
