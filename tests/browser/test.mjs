// The browser app in a real headless browser (Debian's Chromium, driven by playwright-core).
//
//   node tests/browser/test.mjs target/release/fianchetto [SCREENSHOT_DIR]
//
// Starts `fianchetto serve` on a free port, then: loads the page; plays a legal move by
// clicking and sees the engine reply; has an illegal move refused; promotes through the
// chooser; pastes a PGN, analyses it and sees judgements and the graph, and jumps by clicking
// the graph; keeps the clocks to the game played (they start with the first moves, a flag fall
// ends the game on the server, whatever tab is shown); lists a long game without spilling and
// keeps the current move in view; lets the user choose among the games of a PGN; keeps the
// game and the analysis across a reload, and says so when the server has lost the game.
// Fails on any console error or page error. Writes failure.png on a
// failure, and play.png / analysis.png (the README's screenshots) to SCREENSHOT_DIR if given.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const BIN = process.argv[2];
const SHOTS = process.argv[3];
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

function startServer(port = 0) {
  return new Promise((resolve, reject) => {
    const server = spawn(BIN, ["serve", "--port", String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:(\d+)\//);
      if (m) resolve({ server, url: m[0], port: Number(m[1]) });
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), 10000);
  });
}

let { server, url, port } = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
// One context, so that a second tab shares the first one's storage (the two-tab test).
const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
const page = await context.newPage();
const errors = [];
// A step that provokes an HTTP error on purpose (a game the server lost, a move after the
// flag) says so; Chromium logs every 4xx response as a console error.
let expectHttpErrors = 0;
// While the test has stopped the server on purpose, a request the page had in flight fails at
// the network level (reset, refused or empty, by how far the kernel got with it): expected.
let serverDown = false;
const NET_ERROR = /Failed to load resource: net::ERR_(CONNECTION_RESET|CONNECTION_REFUSED|CONNECTION_CLOSED|EMPTY_RESPONSE)/;
// Each error names the step it came in, so that a failure says where to look.
let currentStep = "start";
page.on("console", (m) => {
  if (m.type() !== "error") return;
  if (expectHttpErrors > 0 && /Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) {
    expectHttpErrors -= 1;
    return;
  }
  if (serverDown && NET_ERROR.test(m.text())) return;
  errors.push(`console (${currentStep}): ${m.text()}`);
});
page.on("pageerror", (e) => errors.push(`page error (${currentStep}): ${e.message}`));

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
  currentStep = name;
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
    await square("a1").click();
    await page.waitForSelector('#board .sq.selected[data-square="a1"]');
    await square("a5").click();
    // The refusal: the board drops the selection at once, the rook still on a1 and no move
    // listed. (A move sent to the server keeps the selection shown until the server's answer
    // redraws the board, with the move listed and the rook gone, so this never holds for it.)
    await page.waitForFunction((n) => !document.querySelector("#board .sq.selected")
      && document.querySelector('#board .sq[data-square="a1"] .piece')
      && !document.querySelector('#board .sq[data-square="a5"] .piece')
      && document.querySelector("#play-moves").innerText.trim().split(/\s+/).filter(Boolean).length === n,
    before.length, { timeout: 10000 });
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
    // The result ends the move list.
    const end = await page.locator("#analyse-moves li.result").innerText();
    if (end !== "1-0") throw new Error(`the move list ends with ${end}`);
    await page.click("#analyse-game");
    await page.waitForSelector("#graph svg", { timeout: 30000 });
    await page.waitForSelector("#analyse-moves .move.blunder");
    // The end is said, and stays said once the first position is shown.
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Analysis done");
    await page.waitForTimeout(300);
    if (await page.locator("#status").innerText() !== "Analysis done") throw new Error("the end of the analysis was not kept");
    const summary = await page.locator("#summary").innerText();
    if (!summary.includes("accuracy")) throw new Error(`summary: ${summary}`);
    // The analysis streamed its progress as it went.
    if ((await page.evaluate(() => ana.progressEvents)) < 1) throw new Error("no progress was shown");
    // The analysis downloads as an annotated PGN.
    await page.waitForSelector("#download-analysis:not([hidden])");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-analysis")]);
    const annotated = readFileSync(await download.path(), "utf8");
    if (!annotated.includes("[Annotator \"Fianchetto") || !annotated.includes("??")) {
      throw new Error(`annotated PGN:\n${annotated}`);
    }
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
    // Before the blunder 3... Nf6??, a green arrow shows the better move, a legal Black one.
    await page.click('#analyse-moves .move[data-ply="5"]');
    await page.waitForSelector("#arrows .arrow.better", { state: "attached" });
    const better = await page.locator("#arrows .arrow.better").first();
    const from = await better.getAttribute("data-from");
    if (!["a", "b", "c", "d", "e", "f", "g", "h"].includes(from[0]) || !["7", "8", "6", "5"].includes(from[1])) {
      throw new Error(`the better move starts on ${from}`);
    }
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
    // The engine's best move is drawn as an arrow: Qxf7#, h5 to f7.
    await page.waitForSelector('#arrows .arrow.engine[data-from="h5"][data-to="f7"]', { state: "attached" });
    if (await page.locator("#evalbar").isHidden()) throw new Error("no eval bar");
    await page.uncheck("#engine-on");
  });

  await step("variations: a tree of lines made on the board, promoted, deleted, kept across a reload", async () => {
    const vars = () => page.evaluate(() => [...document.querySelectorAll("#analyse-moves li.vars")].map((e) => e.innerText.trim()).join(" | "));
    const current = () => page.evaluate(() => document.querySelector("#analyse-moves .move.current")?.textContent);
    const waitVars = (want) => page.waitForFunction((w) => [...document.querySelectorAll("#analyse-moves li.vars")]
      .map((e) => e.innerText.trim()).join(" | ") === w, want).catch(async (e) => { throw new Error(`${e.message}: ${await vars()}`); });
    // Back on the Scholar's mate, after 2... Nc6: the game's own next move just steps on.
    await page.click('#analyse-moves .move[data-ply="4"]');
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "4");
    await clickMove("d1", "h5");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "5"
      && document.querySelector("#variation").hidden);
    // Another move starts a line, written under the game's move it replaces; the board shows it.
    await page.click('#analyse-moves .move[data-ply="4"]');
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "4");
    await clickMove("g1", "f3");
    await waitVars("(3. Nf3)");
    await page.waitForSelector('#board .sq[data-square="f3"] .piece');
    if (await pieceOn("g1")) throw new Error("the variation is not on the board");
    if (await page.locator("#variation").isHidden()) throw new Error("no variation tools");
    // Its next move continues it; another move from the same position makes a line inside it.
    await clickMove("g8", "f6");
    await waitVars("(3. Nf3 Nf6)");
    // ‹ and › step along the line, as ← and → do.
    await page.click("#nav-prev");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Nf3");
    await page.click("#nav-next");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Nf6");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Nf3");
    await clickMove("d7", "d5");
    await waitVars("(3. Nf3 Nf6 (3… d5))");
    if (await page.locator("#analyse-moves .line .line").count() !== 1) throw new Error("the inner line is not nested");
    // Promote: the inner line becomes the main continuation, the old one its alternative.
    await page.click("#variation-promote");
    await waitVars("(3. Nf3 d5 (3… Nf6))");
    if (await current() !== "d5") throw new Error(`promoting moved the board: ${await current()}`);
    if (!(await page.isDisabled("#variation-promote"))) throw new Error("the main line can still be promoted");
    // Escape returns to the game; a click on a move of a line goes into it.
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "4"
      && !document.querySelector('#board .sq[data-square="f3"] .piece') && document.querySelector("#variation").hidden);
    await page.click('#analyse-moves li.vars .move:text-is("Nf6")');
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Nf6"
      && document.querySelector('#board .sq[data-square="f6"] .piece') && document.querySelector('#board .sq[data-square="f3"] .piece'));
    // Delete: the line shown goes from where it branches; the board goes back there.
    await page.click("#variation-delete");
    await waitVars("(3. Nf3 d5)");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Nf3");
    // The tree and the place in it survive a reload.
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.textContent === "Nf3"
      && document.querySelector('#board .sq[data-square="f3"] .piece') && !document.querySelector('#board .sq[data-square="g1"] .piece'), null, { timeout: 20000 });
    await waitVars("(3. Nf3 d5)");
    await page.click("#variation-delete");
    await page.waitForFunction(() => !document.querySelector("#analyse-moves li.vars")
      && document.querySelector("#analyse-moves .move.current")?.dataset.ply === "4");
    // An engine line, clicked, is played into a line from the position shown.
    await page.check("#engine-on");
    await page.waitForSelector("#engine-lines [data-line='0']", { timeout: 20000 });
    await page.click("#engine-lines [data-line='0']");
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves li.vars .move").length >= 1
      && document.querySelector("#analyse-moves .move.current")?.dataset.id);
    // The README's analysis picture: a variation, the engine's lines and its arrow.
    await page.waitForSelector("#arrows .arrow.engine", { state: "attached", timeout: 20000 });
    await page.waitForTimeout(600); // the eval bar's transition
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/analysis.png`, fullPage: true });
    await page.uncheck("#engine-on");
    await page.keyboard.press("Escape");
    // A stored tree that is damaged or hostile (junk, a 5,000-move line, lines nested 100 deep)
    // is loaded within its bounds, without an error.
    await page.evaluate(() => {
      const saved = JSON.parse(localStorage.getItem("fianchetto.v1"));
      const fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
      const vars = [null, 7, "x", { id: "1" }, { id: 1, parent: 99, uci: "e2e4", san: "e4", fen }];
      // Each a second child of the one before: one line inside another, 100 deep.
      for (let i = 0; i < 100; i += 1) {
        vars.push({ id: 20000 + 2 * i, parent: i ? 20000 + 2 * i - 1 : null, ply: 1, uci: "a", san: "a", fen });
        vars.push({ id: 20001 + 2 * i, parent: i ? 20000 + 2 * i - 1 : null, ply: 1, uci: "b", san: "b", fen });
      }
      for (let i = 0; i < 5000; i += 1) vars.push({ id: 10 + i, parent: i ? 9 + i : null, ply: 0, uci: "g1f3", san: "Nf3", fen });
      saved.analyse.vars = vars;
      saved.analyse.at = 10;
      localStorage.setItem("fianchetto.v1", JSON.stringify(saved));
      // Until the reload, the page's own saves (its clock ticks save) must not overwrite it.
      Storage.prototype.setItem = () => {};
    });
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves li.vars .move").length > 0, null, { timeout: 20000 });
    const kept = await page.locator("#analyse-moves li.vars .move").count();
    const deepest = await page.evaluate(() => {
      let most = 0;
      for (const el of document.querySelectorAll("#analyse-moves .line")) {
        let d = 0;
        for (let e = el; e && e.classList; e = e.parentElement) if (e.classList.contains("line")) d += 1;
        most = Math.max(most, d);
      }
      return most;
    });
    if (kept > 3000 || kept < 100) throw new Error(`a hostile stored tree kept ${kept} moves`);
    if (deepest > 20 || deepest < 10) throw new Error(`lines nested ${deepest} deep`);
    // Another game drops the lines made in the one before; loading the same game again keeps them.
    await page.keyboard.press("Escape");
    const scholar = await page.inputValue("#pgn-input");
    await page.fill("#pgn-input", "1. d4 d5 *");
    await page.click("#load-pgn");
    await page.waitForFunction(() => !document.querySelector("#analyse-moves li.vars")
      && document.querySelectorAll("#analyse-moves .move[data-ply]").length === 2);
    await page.fill("#pgn-input", scholar);
    await page.click("#load-pgn");
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves .move[data-ply]").length === 7
      && !document.querySelector("#analyse-moves li.vars"));
    await page.click('#analyse-moves .move[data-ply="4"]');
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "4");
    await clickMove("g1", "f3");
    await waitVars("(3. Nf3)");
    await page.click("#load-pgn");
    await page.waitForFunction(() => document.querySelector("#variation").hidden
      && document.querySelector("#analyse-moves .move.current")?.dataset.ply === "7");
    await waitVars("(3. Nf3)");
  });

  await step("a reload keeps the analysis and the game in progress", async () => {
    const analysed = await page.locator("#analyse-moves .move").count();
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll("#analyse-moves .move").length === n
      && !document.querySelector("#analyse-panel").hidden, analysed);
    await page.click("#tab-play");
    await page.waitForFunction(() => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 6);
    const moves = await playMoves();
    if (moves[0] !== "d4" || moves[2] !== "Nf3") throw new Error(`resumed moves ${moves.join(" ")}`);
    // The board is redrawn when the game's view comes back from the server (the move list was
    // already there from the resume).
    await page.waitForFunction(() => document.querySelector('#board .sq[data-square="d4"] .piece')
      && !document.querySelector('#board .sq[data-square="d2"] .piece'), null, { timeout: 10000 })
      .catch(() => { throw new Error("the board is not the game's"); });
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move");
    // The resumed game goes on: a piece moves by dragging.
    const n = moves.length;
    await page.dragAndDrop('#board .sq[data-square="b1"] .piece', '#board .sq[data-square="c3"]');
    await page.waitForFunction((k) => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= k + 2, n);
  });

  await step("a server restart: the page says the game is gone and starts a new one", async () => {
    const old = server;
    serverDown = true;
    try {
      await new Promise((resolve) => { old.once("exit", resolve); old.kill(); });
      ({ server } = await startServer(port));
      expectHttpErrors = 1; // the game the new server does not have
      await page.reload();
      await page.waitForFunction(() => document.querySelector("#status").innerText.includes("server was restarted"));
      await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32
        && document.querySelector("#play-moves").innerText.trim() === "");
    } finally {
      serverDown = false;
    }
  });

  await step("clocks start with the first moves and belong to the game, not the board shown", async () => {
    await page.click("#tab-play");
    await page.selectOption("#tc", "180+2");
    await page.selectOption("#strength", "1300");
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move"
      && document.querySelectorAll("#board .piece").length === 32);
    // The page's clock ticks (every 200 ms) without charging anyone before the first moves:
    // let it tick over a second of the page's time, which a running clock would have charged.
    const since = await page.evaluate(() => play.clocks.since);
    await page.waitForFunction((s) => play.clocks.since - s >= 1000, since, { timeout: 10000 });
    const idle = await page.locator("#clock-bottom").innerText();
    const left = await page.evaluate(() => [play.clocks.white, play.clocks.black]);
    if (idle !== "You 3:00" || left[0] !== 180000 || left[1] !== 180000
      || (await page.locator(".clock.running").count()) !== 0) {
      throw new Error(`before any move the clock reads ${idle} (${left})`);
    }
    await clickMove("e2", "e4");
    await page.waitForFunction(() => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 2
      && document.querySelector("#status").innerText === "Your move");
    await page.waitForFunction(() => document.querySelector("#clock-bottom").innerText !== "You 3:00"
      && document.querySelector("#clock-bottom").classList.contains("running"), null, { timeout: 10000 })
      .catch(async () => {
        throw new Error(`the clock did not start: ${await page.locator("#clock-bottom").innerText()}`);
      });
    // On the Analyse tab, with Black to move on the analysis board, the game's clock still
    // charges the player to move in the game: White, the human. Let it fall.
    await page.click("#tab-analyse");
    await page.fill("#pgn-input", "1. e4 *");
    await page.click("#load-pgn");
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves .move").length === 1);
    await page.evaluate(() => { play.clocks.white = 1200; });
    await page.waitForFunction(() => play.over, null, { timeout: 30000 });
    const pgn = await page.evaluate(async () => (await fetch(`/api/games/${play.id}/pgn`)).text());
    for (const tag of ['[Result "0-1"]', '[Termination "time forfeit"]', '[TimeControl "180+2"]',
      '[White "You"]', '[Black "Fianchetto (1300)"]']) {
      if (!pgn.includes(tag)) throw new Error(`the PGN lacks ${tag}:\n${pgn}`);
    }
    await page.click("#tab-play");
    await page.waitForFunction(() => document.querySelector("#status").innerText.includes("White loses on time"));
    const flagged = await page.locator("#clock-bottom").innerText();
    if (!flagged.endsWith("0:00")) throw new Error(`after the flag the clock reads ${flagged}`);
    // The game is over on the server too: no more moves.
    expectHttpErrors = 1;
    const refused = await page.evaluate(async () => (await fetch(`/api/games/${play.id}/move`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ move: "d2d4" }),
    })).status);
    if (refused !== 400) throw new Error(`a move after the flag got ${refused}`);
    await page.selectOption("#tc", "");
  });

  await step("a new game the server refuses (a bad FEN) leaves the game in progress as it was", async () => {
    await page.click("#tab-play");
    const before = await playMoves();
    const id = await page.evaluate(() => play.id);
    await page.fill("#start-fen", "not a position");
    expectHttpErrors = 1;
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelector("#status").innerText.includes("bad FEN"));
    await page.fill("#start-fen", "");
    if ((await page.evaluate(() => play.id)) !== id) throw new Error("the game in progress was replaced");
    if ((await playMoves()).join(" ") !== before.join(" ")) throw new Error("the moves changed");
  });

  await step("abort, review while playing, f flips, a draw offer declined, resign", async () => {
    await page.click("#tab-play");
    await page.selectOption("#tc", "");
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move"
      && document.querySelectorAll("#board .piece").length === 32);
    await page.click("#abort");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Game over: Game aborted");
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move"
      && document.querySelector("#play-moves").innerText.trim() === "");
    await clickMove("e2", "e4");
    await page.waitForFunction(() => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 2
      && document.querySelector("#status").innerText === "Your move");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.querySelector("#status").innerText.startsWith("Move 0 of 2"));
    if (!(await pieceOn("e2")) || (await pieceOn("e4"))) throw new Error("review does not show the start");
    await page.keyboard.press("f");
    const firstSquare = await page.locator("#board .sq").first().getAttribute("data-square");
    if (firstSquare !== "h1") throw new Error(`after f the top-left square is ${firstSquare}`);
    await page.keyboard.press("f");
    await page.keyboard.press("End");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move");
    if (!(await pieceOn("e4"))) throw new Error("End did not return to the game");
    // A draw offer to an engine two queens up is declined (an even opening may be taken: the
    // engine accepts when its own search says it is half a pawn worse).
    await newGameFrom("k7/8/8/8/8/8/qq6/7K w - - 0 1", 4);
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move");
    await page.click("#offer-draw");
    await page.waitForFunction(() => document.querySelector("#status").innerText.includes("declines the draw"));
    // Moves sound (the bot's reply too), and the switch turns it off, kept across a reload.
    const sounds = await page.evaluate(() => sound.played);
    if (sounds < 2) throw new Error(`${sounds} move sounds`);
    await page.uncheck("#sound-on");
    await page.click("#resign");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Game over: White resigns");
    const pgn = await page.evaluate(async () => (await fetch(`/api/games/${play.id}/pgn`)).text());
    if (!pgn.includes('[Result "0-1"]')) throw new Error(`PGN after resigning:\n${pgn}`);
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll("#board .piece").length > 0);
    if (await page.isChecked("#sound-on")) throw new Error("the sound switch was not kept");
    await page.check("#sound-on");
  });

  await step("two tabs on one game: a move in one shows in the other", async () => {
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move"
      && document.querySelector("#play-moves").innerText.trim() === "");
    const other = await context.newPage();
    other.on("pageerror", (e) => errors.push(`page error (second tab): ${e.message}`));
    await other.goto(url);
    await other.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32
      && document.querySelector("#status").innerText === "Your move");
    const sameGame = await other.evaluate(() => play.id) === await page.evaluate(() => play.id);
    if (!sameGame) throw new Error("the second tab did not pick up the game");
    await clickMove("d2", "d4");
    await other.waitForFunction(() => document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 2,
      null, { timeout: 15000 });
    if ((await other.locator('#board .sq[data-square="d4"] .piece').count()) !== 1) throw new Error("the second tab's board lags");
    await other.close();
  });

  const ladder = readFileSync(new URL("../data/ladder.pgn", import.meta.url), "utf8");
  // Game 16 of the ladder is gnuchess–sjeng, 275 plies.
  const longGame = "[Event" + ladder.split("[Event")[16];

  await step("a long game fits the move list, which keeps the current move in view", async () => {
    await page.click("#tab-analyse");
    await page.fill("#pgn-input", longGame);
    await page.click("#load-pgn");
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves .move").length === 275);
    await page.keyboard.press("Home");
    await page.keyboard.press("End");
    await page.waitForFunction(() => document.querySelector("#analyse-moves .move.current")?.dataset.ply === "275");
    const fit = await page.evaluate(() => {
      const list = document.querySelector("#analyse-moves");
      const cur = list.querySelector(".move.current").getBoundingClientRect();
      const box = list.getBoundingClientRect();
      return { spill: list.scrollWidth - list.clientWidth, visible: cur.top >= box.top && cur.bottom <= box.bottom + 1 };
    });
    if (fit.spill > 1) throw new Error(`the move list spills ${fit.spill} px sideways`);
    if (!fit.visible) throw new Error("the current move is out of view");
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.querySelector("#analyse-moves").scrollTop === 0);
  });

  await step("a PGN of many games: the user chooses one by players and result", async () => {
    await page.fill("#pgn-input", ladder);
    await page.click("#load-pgn");
    await page.waitForFunction(() => !document.querySelector("#game-choice")?.hidden
      && document.querySelectorAll("#game-choice option").length === 26);
    const first = await page.locator("#game-choice option").first().innerText();
    if (!first.startsWith("1. ") || !first.includes(" – ")) throw new Error(`first choice ${first}`);
    await page.selectOption("#game-choice", "16");
    await page.waitForFunction(() => document.querySelectorAll("#analyse-moves .move").length === 275);
    const chosen = await page.locator("#game-choice option:checked").innerText();
    if (!chosen.includes("gnuchess – sjeng 1/2-1/2")) throw new Error(`chosen ${chosen}`);
  });

  await step("a long analysis shows its progress and fills the graph as it goes; it can be cancelled; the engine is free again", async () => {
    // Game 16 (275 plies) is loaded: at 0.3 s a position it would take over a minute.
    await page.selectOption("#analysis-time", "300");
    await page.click("#analyse-game");
    await page.waitForFunction(() => !document.querySelector("#analysis-running").hidden
      && document.querySelector("#analysis-progress").value > 0, null, { timeout: 30000 });
    // The graph draws the positions found so far: from the game's end (276 positions), backwards.
    await page.waitForFunction(() => document.querySelector("#graph svg.streaming polygon")
      && Array.isArray(ana.partial) && ana.partial.length === 276
      && Number.isFinite(ana.partial[275]) && ana.partial.filter(Number.isFinite).length >= 2,
    null, { timeout: 30000 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/analysis-streaming.png` });
    await page.click("#analysis-cancel");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Analysis cancelled"
      && document.querySelector("#analysis-running").hidden && !document.querySelector("#graph svg.streaming"));
    // A depth instead of a time: the annotated PGN says which.
    await page.selectOption("#analysis-time", "d8");
    await page.fill("#pgn-input", "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0");
    await page.click("#analyse-game");
    // The result itself, not the status line (which the position shown next may overwrite).
    await page.waitForFunction(() => ana.report && ana.report.moves.length === 7
      && document.querySelectorAll("#analyse-moves .move").length === 7
      && document.querySelector("#analysis-running").hidden, null, { timeout: 30000 });
    const annotated = await page.evaluate(() => ana.annotated);
    if (!annotated.includes("(depth 8)")) throw new Error(`annotator: ${annotated.slice(0, 300)}`);
    if (!annotated.includes("Nf6?")) throw new Error(`3...Nf6 allows mate: ${annotated}`);
  });

  await step("a premove is kept while the engine thinks and played when it has moved", async () => {
    await page.click("#tab-play");
    await page.fill("#start-fen", "");
    await page.selectOption("#side", "white");
    await page.selectOption("#strength", "full"); // no clock: the engine thinks 1 s a move
    await page.selectOption("#tc", "");
    await page.check("#premove-on");
    await page.click("#new-game");
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move"
      && document.querySelectorAll("#board .piece").length === 32);
    await clickMove("e2", "e4");
    await page.waitForFunction(() => play.thinking);
    // The knight is premoved while the engine thinks; its squares are marked.
    await clickMove("g1", "f3");
    await page.waitForFunction(() => play.premove && play.premove.to === "f3"
      && document.querySelectorAll("#board .sq.premove").length === 2
      && document.querySelector("#status").innerText.startsWith("Premove g1-f3"));
    if (!(await page.evaluate(() => play.thinking))) throw new Error("the engine had already moved: not a premove");
    // Played as soon as the engine has answered: White's second move is Nf3, and the engine
    // answers that too.
    await page.waitForFunction(() => {
      const m = document.querySelector("#play-moves").innerText.split(/\s+/).filter(Boolean);
      return m[0] === "e4" && m[2] === "Nf3" && m.length >= 4 && document.querySelector("#status").innerText === "Your move";
    }, null, { timeout: 30000 });
    if (await page.evaluate(() => play.premove !== null || document.querySelectorAll("#board .sq.premove").length > 0)) {
      throw new Error("the premove was not cleared");
    }
    // A premove that is illegal once the engine has moved is dropped; a click cancels one.
    await clickMove("f1", "b5");
    await page.waitForFunction(() => play.thinking);
    await clickMove("d1", "h5");
    await page.waitForFunction(() => play.premove && play.premove.to === "h5");
    await square("a7").click();
    await page.waitForFunction(() => play.premove === null && document.querySelectorAll("#board .sq.premove").length === 0);
    await page.waitForFunction(() => document.querySelector("#status").innerText === "Your move", null, { timeout: 30000 });
    const moves = await playMoves();
    // Bb5 may give check (after ...d6 it does), so its SAN may end in "+".
    if (moves.length !== 6 || moves[4].replace(/[+#]$/, "") !== "Bb5") {
      throw new Error(`moves after a cancelled premove: ${moves.join(" ")}`);
    }
    await page.uncheck("#premove-on");
  });

  await step("narrow (phone) width still fits the board", async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    // The layout follows the new width: wait for the board to fit it, then measure it.
    await page.waitForFunction(() => {
      const w = document.querySelector("#board").getBoundingClientRect().width;
      return w <= 390 && w >= 300;
    }, null, { timeout: 10000 }).catch(() => {});
    const box = await page.locator("#board").boundingBox();
    if (box.width > 390 || box.width < 300) throw new Error(`board ${box.width} px wide`);
    // Analysing on a phone: the moves come right under the board, the PGN box after them.
    await page.click("#tab-analyse");
    await page.waitForFunction(() => !document.getElementById("analyse-panel").hidden);
    const moves = await page.locator("#analyse-moves").boundingBox();
    const pgn = await page.locator("#pgn-input").boundingBox();
    if (!(moves.y < pgn.y)) throw new Error(`moves at ${moves.y}, the PGN box at ${pgn.y}`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/phone-analysis.png`, fullPage: true });
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
