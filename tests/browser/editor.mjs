// The board editor in a real headless browser (Debian's Chromium, driven by playwright-core).
//
//   node tests/browser/editor.mjs target/release/fianchetto [SCREENSHOT_DIR]
//
// Sets up positions as a user would: clears the board, puts pieces on it from the palette by
// clicking and by dragging, moves and drags pieces off the board, erases, chooses the side to
// move and castling rights (offered only where king and rook stand at home), types a FEN; the
// page says when a position is illegal and why, and will not play or analyse it. Then analyses
// and plays from a legal one, and keeps the position across a reload. On a phone-sized touch
// screen, plays a move and sets up pieces by dragging with a finger. Fails on any console or
// page error. Writes editor.png (the README's screenshot) to SCREENSHOT_DIR if given.
import { LIVENESS, launchBrowser, serve } from "./common.mjs";

const BIN = process.argv[2];
const SHOTS = process.argv[3];

const { server, url } = await serve(BIN);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
const errors = [];
page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));

const square = (sq) => page.locator(`#board .sq[data-square="${sq}"]`);
const tool = (t) => page.locator(`#palette button[data-tool="${t}"]`);
const fen = () => page.inputValue("#ed-fen");
const placement = async () => (await fen()).split(" ")[0];
function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}
// The message once it says `needle` (the server is asked after every change).
async function message(needle) {
  await page.waitForFunction((n) => document.getElementById("ed-message").textContent.includes(n),
    needle, { timeout: LIVENESS });
  return page.textContent("#ed-message");
}

try {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll("#board .piece").length === 32, null, { timeout: LIVENESS });
  await page.click("#tab-editor");
  // It starts from the position on the board: the game's.
  await message("White to move");
  check((await placement()) === "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "editor starts from the board");

  // An empty board is illegal, and says why; play and analyse refuse it.
  await page.click("#ed-clear");
  const empty = await message("Illegal position");
  check(/White has 0 kings/.test(empty), `why an empty board is illegal: ${empty}`);
  check(await page.isDisabled("#ed-play") && await page.isDisabled("#ed-analyse"), "illegal: no play or analyse");

  // Pieces by clicking: choose one in the palette, click squares.
  await tool("K").click();
  await square("e1").click();
  await tool("k").click();
  await square("e8").click();
  await tool("R").click();
  await square("h1").click();
  await message("White to move");
  check((await placement()) === "4k3/8/8/8/8/8/8/4K2R", `placed by clicks: ${await placement()}`);
  check(!(await page.isDisabled("#ed-play")), "legal: may play");
  // Castling is offered where king and rook stand at home, and only there.
  check(!(await page.isDisabled('#ed-castling input[data-right="K"]')), "O-O offered");
  check(await page.isDisabled('#ed-castling input[data-right="Q"]'), "O-O-O not offered (no rook on a1)");
  check((await fen()).split(" ")[2] === "K", `castling field ${await fen()}`);
  await page.uncheck('#ed-castling input[data-right="K"]');
  await page.waitForFunction(() => document.getElementById("ed-fen").value.split(" ")[2] === "-", null, { timeout: LIVENESS });

  // A pawn on the last rank: illegal, by name; clicking it again with the same piece takes it off.
  await tool("P").click();
  await square("h8").click();
  check(/pawn on h8/.test(await message("Illegal position")), "pawn on the last rank named");
  await square("h8").click();
  await message("White to move");

  // Drag and drop: across the board, from the palette, off the board.
  await tool("move").click();
  await square("h1").locator(".piece").dragTo(square("h7"));
  await page.waitForFunction(() => document.getElementById("ed-fen").value.startsWith("4k3/7R/"), null, { timeout: LIVENESS });
  await tool("Q").dragTo(square("d1"));
  await page.waitForFunction(() => document.getElementById("ed-fen").value.includes("/3QK3 "), null, { timeout: LIVENESS });
  await square("h7").locator(".piece").dragTo(page.locator("#ed-message"));
  await page.waitForFunction(() => document.getElementById("ed-fen").value.startsWith("4k3/8/"), null, { timeout: LIVENESS });
  // Click to pick up, click to put down; erase.
  await square("d1").click();
  await square("d7").click();
  await page.waitForFunction(() => document.getElementById("ed-fen").value.startsWith("4k3/3Q4/"), null, { timeout: LIVENESS });
  check(/Black|White/.test(await page.textContent("#ed-message")), "a message for the position");

  // Side to move: Black in check from the queen on d7 is fine to move; White to move while
  // Black is in check is not.
  await page.selectOption("#ed-turn", "b");
  check(/Black to move, in check/.test(await message("Black to move")), "Black in check");
  await page.selectOption("#ed-turn", "w");
  check(/not to move but is in check/.test(await message("Illegal position")), "side not to move in check");
  await tool("erase").click();
  await square("d7").click();
  await message("White to move");
  check((await placement()) === "4k3/8/8/8/8/8/8/4K3", `after erasing: ${await placement()}`);

  // A FEN typed in: half-typed text is not a FEN yet; a whole one sets the board.
  await page.fill("#ed-fen", "rnbqk");
  await message("Not a FEN yet");
  const scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
  await page.fill("#ed-fen", scholar);
  await message("White to move");
  check(await square("h5").locator(".piece").count() === 1, "the typed FEN is on the board");
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/editor.png` });

  // Analyse from here: the analysis board shows it.
  await page.click("#ed-analyse");
  await page.waitForFunction(() => !document.getElementById("analyse-panel").hidden, null, { timeout: LIVENESS });
  await page.waitForFunction((want) => document.querySelector('#board .sq[data-square="h5"] .piece') !== null
    && document.querySelector('#board .sq[data-square="f6"] .piece') !== null
    && document.querySelectorAll("#board .piece").length === 32, scholar, { timeout: LIVENESS });

  // Play from here: a new game from that position, White (the person) to move, who mates.
  await page.click("#tab-editor");
  await message("White to move");
  check((await fen()) === scholar, `the editor kept its position, counters included: ${await fen()}`);
  await page.click("#ed-play");
  await page.waitForFunction(() => !document.getElementById("play-panel").hidden, null, { timeout: LIVENESS });
  await page.waitForFunction(() => document.getElementById("status").textContent.includes("Your move"), null, { timeout: LIVENESS });
  await square("h5").click();
  await square("f7").click();
  await page.waitForFunction(() => /checkmate/i.test(document.getElementById("status").textContent), null, { timeout: LIVENESS });

  // A reload in the editor keeps the position being set up.
  await page.click("#tab-editor");
  await page.click("#ed-clear");
  await tool("K").click();
  await square("a1").click();
  await tool("k").click();
  await square("h8").click();
  await message("insufficient material");
  await page.reload();
  await page.waitForFunction(() => !document.getElementById("editor-panel").hidden, null, { timeout: LIVENESS });
  await page.waitForFunction(() => document.getElementById("ed-fen").value.startsWith("7k/8/8/8/8/8/8/K7 "), null, { timeout: LIVENESS });
  await message("to move: draw by insufficient material");

  // A phone: pieces are dragged with a finger (touch events, which HTML5 drag and drop never
  // sees), in play and in the editor.
  const phone = await browser.newContext({ viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true });
  const mobile = await phone.newPage();
  mobile.on("console", (m) => { if (m.type() === "error") errors.push(`phone console: ${m.text()}`); });
  mobile.on("pageerror", (e) => errors.push(`phone page error: ${e.message}`));
  await mobile.goto(url);
  await mobile.waitForFunction(() => document.getElementById("status").textContent === "Your move"
    && document.querySelectorAll("#board .piece").length === 32, null, { timeout: LIVENESS });
  const touch = await phone.newCDPSession(mobile);
  const centre = async (selector) => {
    const box = await mobile.locator(selector).boundingBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const fingerDrag = async (fromSelector, toSelector) => {
    // The page's top: the board and the palette below it both in view (a finger cannot drag
    // to what is scrolled away, and pressing a button below scrolled the page).
    await mobile.evaluate(() => window.scrollTo(0, 0));
    const a = await centre(fromSelector), b = await centre(toSelector);
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [a] });
    for (let i = 1; i <= 5; i++) {
      const p = { x: a.x + ((b.x - a.x) * i) / 5, y: a.y + ((b.y - a.y) * i) / 5 };
      await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [p] });
    }
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  };
  const onPhone = (sq) => `#board .sq[data-square="${sq}"]`;
  await fingerDrag(`${onPhone("e2")} .piece`, onPhone("e4"));
  await mobile.waitForFunction(() => document.querySelector('#board .sq[data-square="e4"] .piece')
    && document.querySelector("#play-moves").innerText.includes("e4"), null, { timeout: LIVENESS });
  // The engine answers, and the game goes on by finger.
  await mobile.waitForFunction(() => document.getElementById("status").textContent === "Your move"
    && document.querySelector("#play-moves").innerText.trim().split(/\s+/).length >= 2, null, { timeout: LIVENESS })
    .catch(async (e) => {
      throw new Error(`${e.message}: status ${await mobile.textContent("#status")}, moves ${await mobile.textContent("#play-moves")}`);
    });
  await mobile.click("#tab-editor");
  await mobile.waitForFunction(() => !document.getElementById("editor-panel").hidden, null, { timeout: LIVENESS });
  await mobile.click("#ed-clear");
  await fingerDrag('#palette button[data-tool="K"]', onPhone("c3"));
  await mobile.waitForFunction(() => document.getElementById("ed-fen").value.startsWith("8/8/8/8/8/2K5/8/8 "), null, { timeout: LIVENESS })
    .catch(async (e) => {
      await mobile.screenshot({ path: "failure.png" });
      throw new Error(`${e.message}: ${await mobile.inputValue("#ed-fen")} ${JSON.stringify(await mobile.locator('#palette button[data-tool="K"]').boundingBox())}`);
    });
  await fingerDrag(`${onPhone("c3")} .piece`, onPhone("f6"));
  await mobile.waitForFunction(() => document.getElementById("ed-fen").value.startsWith("8/8/5K2/8/8/8/8/8 "), null, { timeout: LIVENESS })
    .catch(async (e) => {
      await mobile.screenshot({ path: "failure.png" });
      throw new Error(`${e.message}: ${await mobile.inputValue("#ed-fen")}`);
    });
  if (SHOTS) await mobile.screenshot({ path: `${SHOTS}/phone-editor.png` });
  await phone.close();

  check(errors.length === 0, `no console errors: ${errors.join("; ")}`);
  console.log("board editor test passed");
} catch (e) {
  await page.screenshot({ path: "failure.png" }).catch(() => {});
  console.error(e);
  console.error(errors.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
  server.kill();
}
