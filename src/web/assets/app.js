// Fianchetto's page: play against the engine and analyse games. The rules live on the
// server: every position comes with its legal moves, and every move is sent there.
"use strict";

const GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const FILES = "abcdefgh";
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// ---------------------------------------------------------------- the board

const board = {
  fen: "", legal: [], orientation: "white", selected: null, last: null, check: false, turn: "white",
  // Called with a UCI move when the user makes one; null while moves are not taken.
  onMove: null,
  // Which colour may move pieces ("white", "black", "both" or null).
  movable: null,
  // Arrows drawn over the board: [{from, to, kind}] with kind "engine" or "better".
  arrows: [],
  // While the engine thinks, with premoves on: the colour whose pieces may be premoved, the
  // callback that records a premove, and the one recorded ({from, to}), drawn on the board.
  premoveFor: null,
  onPremove: null,
  premove: null,
};

function pieceAt(fen, square) {
  const rows = fen.split(" ")[0].split("/");
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]);
  let col = 0;
  for (const ch of rows[8 - rank]) {
    if (/\d/.test(ch)) { col += Number(ch); continue; }
    if (col === file) return ch;
    col += 1;
  }
  return null;
}

function squares() {
  const out = [];
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const file = board.orientation === "white" ? f : 7 - f;
      const rank = board.orientation === "white" ? 8 - r : r + 1;
      out.push(FILES[file] + rank);
    }
  }
  return out;
}

function kingSquare(color) {
  const target = color === "white" ? "K" : "k";
  for (const sq of squares()) if (pieceAt(board.fen, sq) === target) return sq;
  return null;
}

function drawBoard() {
  const el = $("board");
  el.textContent = "";
  const targets = new Set(board.legal.filter((m) => m.from === board.selected).map((m) => m.to));
  const checked = board.check ? kingSquare(board.turn) : null;
  squares().forEach((sq, i) => {
    const div = document.createElement("div");
    const light = (FILES.indexOf(sq[0]) + Number(sq[1])) % 2 === 1;
    div.className = "sq " + (light ? "light" : "dark");
    div.dataset.square = sq;
    div.setAttribute("role", "gridcell");
    if (board.last && (board.last.from === sq || board.last.to === sq)) div.classList.add("last");
    if (board.premove && (board.premove.from === sq || board.premove.to === sq)) div.classList.add("premove");
    if (board.selected === sq) div.classList.add("selected");
    if (targets.has(sq)) div.classList.add("target");
    if (checked === sq) div.classList.add("check");
    const p = pieceAt(board.fen, sq);
    if (p) {
      div.classList.add("occupied");
      const span = document.createElement("span");
      span.className = "piece " + (p === p.toUpperCase() ? "w" : "b");
      span.textContent = GLYPHS[p.toLowerCase()];
      div.appendChild(span);
    }
    if (i % 8 === 0) addCoord(div, "rank", sq[1]);
    if (i >= 56) addCoord(div, "file", sq[0]);
    el.appendChild(div);
  });
  drawArrows(el);
}

// The arrows over the board, in an SVG of 8×8 units laid on it (clicks pass through).
function drawArrows(el) {
  if (!board.arrows.length) return;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.id = "arrows";
  svg.setAttribute("viewBox", "0 0 8 8");
  const centre = (sq) => {
    const f = FILES.indexOf(sq[0]), r = Number(sq[1]) - 1;
    return board.orientation === "white" ? [f + 0.5, 7.5 - r] : [7.5 - f, r + 0.5];
  };
  for (const a of board.arrows) {
    const [x1, y1] = centre(a.from), [x2, y2] = centre(a.to);
    const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    // The shaft stops short of the head, which ends short of the square's centre.
    const tip = [x2 - ux * 0.2, y2 - uy * 0.2], base = [tip[0] - ux * 0.45, tip[1] - uy * 0.45];
    const line = document.createElementNS(ns, "line");
    line.setAttribute("x1", String(x1)); line.setAttribute("y1", String(y1));
    line.setAttribute("x2", String(base[0])); line.setAttribute("y2", String(base[1]));
    line.setAttribute("class", `arrow ${a.kind}`);
    line.dataset.from = a.from;
    line.dataset.to = a.to;
    svg.appendChild(line);
    const head = document.createElementNS(ns, "polygon");
    const side = [-uy * 0.3, ux * 0.3];
    head.setAttribute("points", [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]]
      .map((p) => p.join(",")).join(" "));
    head.setAttribute("class", `arrowhead ${a.kind}`);
    svg.appendChild(head);
  }
  el.appendChild(svg);
}

function addCoord(div, kind, text) {
  const c = document.createElement("span");
  c.className = "coord " + kind;
  c.textContent = text;
  div.appendChild(c);
}

function mayMove(square) {
  const p = pieceAt(board.fen, square);
  if (!p) return false;
  const color = p === p.toUpperCase() ? "white" : "black";
  if (board.premoveFor) return color === board.premoveFor;
  if (!board.onMove || !board.movable) return false;
  return color === board.turn && (board.movable === "both" || board.movable === color);
}

function tryMove(from, to) {
  if (board.premoveFor) {
    // Not this side's turn: the move is kept, and tried once the engine has moved.
    board.selected = null;
    board.onPremove({ from, to });
    return true;
  }
  const moves = board.legal.filter((m) => m.from === from && m.to === to);
  board.selected = null;
  if (moves.length === 0) { drawBoard(); return false; }
  if (moves.length > 1 || moves[0].promotion) {
    choosePromotion((piece) => {
      const m = moves.find((x) => x.promotion === piece) || moves[0];
      board.onMove(m.uci);
    });
    drawBoard();
    return true;
  }
  board.onMove(moves[0].uci);
  return true;
}

function choosePromotion(done) {
  const box = $("promotion");
  box.hidden = false;
  box.onclick = (e) => {
    const piece = e.target.closest("button")?.dataset.piece;
    if (!piece) return;
    box.hidden = true;
    done(piece);
  };
}

function clickSquare(sq) {
  if (board.premoveFor && board.selected && board.selected !== sq) {
    tryMove(board.selected, sq);
    return;
  }
  if (board.premove && !board.selected) {
    // A click on the board cancels the premove (and may pick up a piece for another).
    board.onPremove(null);
  }
  if (board.selected && board.selected !== sq && board.legal.some((m) => m.from === board.selected && m.to === sq)) {
    tryMove(board.selected, sq);
    return;
  }
  board.selected = mayMove(sq) && board.selected !== sq ? sq : null;
  drawBoard();
}

$("board").addEventListener("click", (e) => {
  if (drag.justDropped) return; // the click a browser sends after a drag is not a click
  const sq = e.target.closest(".sq")?.dataset.square;
  if (sq && editor.active) editorClick(sq);
  else if (sq) clickSquare(sq);
});

// Dragging pieces with any pointer (mouse, finger, pen): pointer events rather than HTML5 drag
// and drop, which touch screens never send. A press that does not move is left to `click`.
// Sources: a piece that may move (any piece, and the palette's, in the board editor).
const drag = { from: null, piece: null, pointer: null, x: 0, y: 0, ghost: null, justDropped: false };

function dragSource(target) {
  const sq = target.closest("#board .sq")?.dataset.square;
  if (sq) {
    const p = pieceAt(board.fen, sq);
    return p && (editor.active || mayMove(sq)) ? { from: sq, piece: p } : null;
  }
  const tool = target.closest("#palette .piece-tool")?.dataset.tool;
  return tool && editor.active ? { from: "new:" + tool, piece: tool } : null;
}

document.addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || drag.from) return;
  const source = dragSource(e.target);
  if (!source) return;
  // A touch captures its pointer to the element first touched, which a redraw of the board
  // replaces: let the events go to whatever is under the finger instead.
  if (e.target.hasPointerCapture?.(e.pointerId)) e.target.releasePointerCapture(e.pointerId);
  Object.assign(drag, source, { pointer: e.pointerId, x: e.clientX, y: e.clientY, ghost: null });
});

document.addEventListener("pointermove", (e) => {
  if (!drag.from || e.pointerId !== drag.pointer) return;
  if (!drag.ghost) {
    // A few pixels of travel make it a drag, not a shaky click.
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    const ghost = document.createElement("span");
    const white = drag.piece === drag.piece.toUpperCase();
    ghost.className = `piece ghost ${white ? "w" : "b"}`;
    ghost.textContent = GLYPHS[drag.piece.toLowerCase()];
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    if (!drag.from.startsWith("new:")) {
      // Its square and targets show while it is carried; the board is marked, not redrawn,
      // so that the element the pointer went down on stays.
      board.selected = drag.from;
      const square = (sq) => document.querySelector(`#board .sq[data-square="${sq}"]`);
      square(drag.from)?.classList.add("selected");
      square(drag.from)?.querySelector(".piece")?.classList.add("carried");
      for (const m of board.legal) if (m.from === drag.from) square(m.to)?.classList.add("target");
    }
  }
  e.preventDefault();
  drag.ghost.style.left = `${e.clientX}px`;
  drag.ghost.style.top = `${e.clientY}px`;
});

function endDrag(e, cancelled) {
  if (!drag.from || e.pointerId !== drag.pointer) return;
  const { from, ghost } = drag;
  drag.from = null;
  if (!ghost) return; // a press without a drag: a click
  ghost.remove();
  drag.justDropped = true;
  setTimeout(() => { drag.justDropped = false; }, 0);
  const to = cancelled ? null
    : document.elementFromPoint(e.clientX, e.clientY)?.closest("#board .sq")?.dataset.square || null;
  if (editor.active) {
    // Dropped off the board, an editor's piece leaves it; back on its square, nothing changes.
    if (cancelled || to === from) drawEditor();
    else editorMovePiece(from, to);
    return;
  }
  if (to && to !== from) tryMove(from, to);
  else { board.selected = null; drawBoard(); }
}
document.addEventListener("pointerup", (e) => endDrag(e, false));
document.addEventListener("pointercancel", (e) => endDrag(e, true));

function setPosition(view, last, arrows) {
  board.arrows = arrows || [];
  board.fen = view.fen;
  board.legal = view.legal || [];
  board.turn = view.turn;
  board.check = view.check;
  board.last = last || null;
  board.selected = null;
  // A promotion chooser still open belongs to the position before: its move is not this one's.
  $("promotion").hidden = true;
  drawBoard();
}

function moveSquares(uci) {
  return uci ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null;
}

// ---------------------------------------------------------------- play

// The game being played. Its clocks belong to it, not to whatever the board shows: they run
// for the side to move in *this* game (`turn`), on either tab, from the moment both sides have
// made their first move (as on lichess), and a flag fall ends the game on the server.
const play = {
  id: null, human: "white", over: true, turn: "white", plies: 0, clocks: null, thinking: false,
  epoch: 0, status: "", elo: null, tc: "", fens: [], uci: [], review: null,
};

function fillStrength() {
  const sel = $("strength");
  for (let elo = 1300; elo <= 2800; elo += 100) {
    const o = document.createElement("option");
    o.value = String(elo);
    o.textContent = `${elo} Elo`;
    if (elo === 1600) o.selected = true;
    sel.appendChild(o);
  }
  const full = document.createElement("option");
  full.value = "full";
  full.textContent = "Full strength";
  sel.appendChild(full);
}

// Which pieces move on the board for the game played; the analysis board, when it is shown,
// keeps its own (both sides).
function setPlayMovable(value) {
  if (!$("play-panel").hidden) board.movable = value;
}

function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Whether the clocks run: a timed game under way, both sides having moved once.
function clocksRunning() {
  return !!play.clocks && !play.over && play.plies >= 2;
}

function drawClocks() {
  if ($("play-panel").hidden) {
    for (const id of ["clock-top", "clock-bottom"]) {
      $(id).textContent = "";
      $(id).classList.remove("running");
    }
    return;
  }
  const top = board.orientation === "white" ? "black" : "white";
  const bottom = top === "white" ? "black" : "white";
  for (const [id, color] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const el = $(id);
    if (!play.clocks) { el.textContent = ""; el.classList.remove("running"); continue; }
    el.textContent = `${color === play.human ? "You" : "Fianchetto"} ${formatClock(play.clocks[color])}`;
    el.classList.toggle("running", clocksRunning() && play.turn === color);
  }
}

function tick() {
  const now = performance.now();
  if (!clocksRunning()) {
    if (play.clocks) play.clocks.since = now;
    return;
  }
  play.clocks[play.turn] -= now - play.clocks.since;
  play.clocks.since = now;
  if (play.clocks[play.turn] <= 0) {
    play.clocks[play.turn] = 0;
    flagFell(play.turn);
  }
  drawClocks();
  saveState();
}

// The side to move ran out of time: the server ends the game (a loss, or a draw when the
// other side cannot mate) and keeps the result for the PGN.
async function flagFell(loser) {
  play.over = true;
  setPlayMovable(null);
  play.epoch += 1; // an engine move still on its way is too late
  play.thinking = false;
  try {
    const view = await api(`/api/games/${play.id}/flag`, { loser });
    if (!$("play-panel").hidden) showGame(view, view.uci_moves[view.uci_moves.length - 1]);
    else endGame(view.status);
  } catch (e) {
    // Refused (a move reached the server first, or the game had ended): the server's game is
    // what counts.
    await refreshGame(true).catch((e2) => setPlayStatus(e2.message));
  }
}

function switchClock(mover) {
  if (!play.clocks) return;
  tick();
  // The increment comes with each move once the clocks run (lichess adds none before).
  if (clocksRunning()) play.clocks[mover] += play.clocks.inc;
  play.clocks.since = performance.now();
}

function setPlayStatus(text) {
  play.status = text;
  if (!$("play-panel").hidden) $("status").textContent = text;
}

function endGame(text) {
  play.over = true;
  setPlayMovable(null);
  setPlayStatus(`Game over: ${text}`);
  drawClocks();
  saveState();
}

// The number of the first move and whether Black makes it, from a FEN.
function firstMove(fen) {
  const fields = (fen || "").split(" ");
  return { number: Math.max(1, Number(fields[5]) || 1), black: fields[1] === "b" };
}

function drawPlayMoves(moves, startFen) {
  const list = $("play-moves");
  list.textContent = "";
  const first = firstMove(startFen);
  list.start = first.number;
  // A game that starts with Black to move opens its first row with "…".
  const rows = first.black ? [["…"].concat(moves.slice(0, 1))] : [];
  for (let i = first.black ? 1 : 0; i < moves.length; i += 2) rows.push(moves.slice(i, i + 2));
  for (const row of rows) {
    const li = document.createElement("li");
    for (const san of row) {
      if (san === "…") { li.appendChild(document.createTextNode("… ")); continue; }
      const span = document.createElement("span");
      span.className = "move";
      span.textContent = san;
      li.appendChild(span);
      li.appendChild(document.createTextNode(" "));
    }
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

// A short click on each move of the game played, unless switched off (the choice is kept).
// The audio context is made on the first user gesture, as browsers require.
const sound = { ctx: null, played: 0 };

function moveSound(capture) {
  if (!$("sound-on").checked || !sound.ctx) return;
  const t = sound.ctx.currentTime;
  const osc = sound.ctx.createOscillator();
  const gain = sound.ctx.createGain();
  osc.frequency.value = capture ? 330 : 520;
  gain.gain.setValueAtTime(0.15, t);
  gain.gain.exponentialRampToValueAtTime(0.001, t + 0.08);
  osc.connect(gain).connect(sound.ctx.destination);
  osc.start(t);
  osc.stop(t + 0.09);
  sound.played += 1;
}

document.addEventListener("pointerdown", () => {
  if (sound.ctx || !window.AudioContext) return;
  try { sound.ctx = new AudioContext(); } catch { /* no audio here: silence */ }
}, { capture: true });

function showGame(view, lastUci) {
  // A new move in the game (not a redraw of the same position): its sound.
  if (view.moves.length > play.plies && play.id === view.id && view.moves.length > 0) {
    moveSound(view.moves[view.moves.length - 1].includes("x"));
  }
  play.turn = view.turn;
  play.plies = view.moves.length;
  play.fens = view.fens || [];
  play.uci = view.uci_moves || [];
  play.review = null;
  if (!$("play-panel").hidden) setPosition(view, moveSquares(lastUci));
  drawPlayMoves(view.moves, view.start_fen);
  $("download").href = `/api/games/${view.id}/pgn`;
  if (view.status) endGame(view.status);
  else if (!play.over) setPlayStatus(view.turn === play.human ? "Your move" : "Fianchetto is thinking…");
  drawClocks();
  saveState();
}

async function newGame() {
  const side = $("side").value;
  const human = side === "random" ? (Math.random() < 0.5 ? "white" : "black") : side;
  const tc = $("tc").value;
  const strength = $("strength").value;
  const elo = strength === "full" ? null : Number(strength);
  const fen = $("start-fen").value.trim();
  const request = { human, time_control: tc || null, elo };
  if (fen) request.fen = fen;
  // The game in progress stays as it is until the server has accepted the new one (a bad FEN
  // is refused there).
  const view = await api("/api/games", request);
  play.epoch += 1;
  play.thinking = false;
  play.human = human;
  play.tc = tc;
  play.elo = elo;
  if (tc) {
    const [base, inc] = tc.split("+").map(Number);
    play.clocks = { white: base * 1000, black: base * 1000, inc: inc * 1000, since: performance.now() };
  } else {
    play.clocks = null;
  }
  play.over = false;
  board.orientation = human;
  play.id = view.id;
  setPlayMovable(play.human);
  board.onMove = humanMove;
  showGame(view, null);
  if (view.turn !== play.human) await botMove();
}

function botLimits() {
  if (play.elo) return { elo: play.elo };
  if (!play.clocks) return { movetime: 1000 };
  const left = play.clocks[play.turn];
  return { movetime: Math.max(50, Math.min(10000, left / 30 + play.clocks.inc * 0.8)) };
}

async function humanMove(uci) {
  if (play.over || play.thinking) return;
  try {
    const view = await api(`/api/games/${play.id}/move`, { move: uci });
    switchClock(play.human);
    showGame(view, uci);
    if (!play.over) await botMove();
  } catch (e) {
    setPlayStatus(e.message);
    drawBoard();
  }
}

async function botMove() {
  const epoch = play.epoch;
  play.thinking = true;
  setPlayMovable(null);
  setPremoving(true);
  setPlayStatus("Fianchetto is thinking…");
  let answered = false;
  try {
    const view = await api(`/api/games/${play.id}/bot`, botLimits());
    if (epoch !== play.epoch || play.over) return;
    switchClock(play.human === "white" ? "black" : "white");
    setPremoving(false);
    setPlayMovable(play.human);
    showGame(view, view.bot.uci);
    answered = !play.over;
  } catch (e) {
    if (epoch === play.epoch && !play.over) setPlayStatus(`Engine: ${e.message}`);
  } finally {
    if (epoch === play.epoch) {
      play.thinking = false;
      setPremoving(false);
    }
  }
  // The premove, if it is legal now (a pawn reaching the last rank becomes a queen); if not,
  // it is dropped, as on lichess.
  const pre = play.premove;
  setPremove(null);
  if (answered && pre && epoch === play.epoch) {
    const m = board.legal.find((x) => x.from === pre.from && x.to === pre.to && (!x.promotion || x.promotion === "q"));
    if (m) await humanMove(m.uci);
  }
}

// Premoves are taken (from the person's pieces) while the engine thinks, if switched on.
function setPremoving(on) {
  const active = on && $("premove-on").checked && !$("play-panel").hidden && !play.over;
  board.premoveFor = active ? play.human : null;
  board.onPremove = active ? setPremove : null;
}

function setPremove(pre) {
  play.premove = pre;
  board.premove = pre;
  if (!$("play-panel").hidden) {
    drawBoard();
    if (pre) setPlayStatus(`Premove ${pre.from}-${pre.to} (click the board to cancel)`);
    else if (play.thinking) setPlayStatus("Fianchetto is thinking…");
  }
}

async function takeBack() {
  if (!play.id || play.thinking) return;
  // Back to the human's turn: one ply after a finished game on their move, else two.
  const plies = play.turn === play.human ? 2 : 1;
  try {
    const view = await api(`/api/games/${play.id}/undo`, { plies });
    play.over = false;
    setPlayMovable(play.human);
    showGame(view, view.uci_moves[view.uci_moves.length - 1]);
    // Taken back to the engine's turn (the game began with its move): it moves again.
    if (!play.over && view.turn !== play.human) await botMove();
  } catch (e) {
    setPlayStatus(e.message);
  }
}

// Shows the game played as the server has it now (another tab's moves, the end of a review, a
// refused flag); with `adoptOver`, whether it is over is the server's word too. No piece moves
// while it is over or the engine thinks.
async function refreshGame(adoptOver) {
  const id = play.id;
  const view = await api(`/api/games/${id}`);
  if (id !== play.id) return; // a new game was started meanwhile: its view is the one to show
  if (adoptOver) play.over = !!view.status;
  setPlayMovable(play.over || play.thinking ? null : play.human);
  showGame(view, view.uci_moves[view.uci_moves.length - 1]);
}

// The players end a game: resign, or abort before each side has moved once.
async function endByPlayer(kind) {
  if (!play.id || play.over) return;
  try {
    const view = await api(`/api/games/${play.id}/${kind}`, {});
    play.epoch += 1; // an engine move on its way no longer counts
    play.thinking = false;
    showGame(view, view.uci_moves[view.uci_moves.length - 1]);
  } catch (e) {
    setPlayStatus(e.message);
  }
}

// A draw offer: the engine judges the position (it takes a draw when it is worse, or when the
// game is level after move 30) and answers at once.
async function offerDraw() {
  if (!play.id || play.over) return;
  if (play.thinking) { setPlayStatus("Offer the draw on your move."); return; }
  setPlayStatus("You offer a draw…");
  // No moves while the engine weighs the offer.
  play.thinking = true;
  setPlayMovable(null);
  try {
    const answer = await api(`/api/games/${play.id}/draw`, {});
    if (answer.accepted) {
      play.epoch += 1;
      showGame(answer, answer.uci_moves[answer.uci_moves.length - 1]);
    } else {
      setPlayStatus("Fianchetto declines the draw: play on.");
    }
  } catch (e) {
    setPlayStatus(e.message);
  } finally {
    play.thinking = false;
    if (!play.over) setPlayMovable(play.human);
  }
}

// Stepping through the game being played without leaving it: the board shows an earlier
// position (no moves taken there); End, or the next move, returns to the game.
function reviewPlay(ply) {
  if (!play.fens.length) return;
  const last = play.fens.length - 1;
  const at = Math.max(0, Math.min(ply, last));
  if (at === last) {
    play.review = null;
    if (play.id) refreshGame(false).catch((e) => setPlayStatus(e.message));
    return;
  }
  play.review = at;
  setPlayMovable(null);
  const fen = play.fens[at];
  setPosition({ fen, legal: [], turn: fen.split(" ")[1] === "w" ? "white" : "black", check: false },
    moveSquares(play.uci[at - 1]));
  $("status").textContent = `Move ${at} of ${last}: End returns to the game`;
}

// ---------------------------------------------------------------- kept across reloads

// The game in progress and the analysis loaded survive a reload: what the page needs to pick
// them up again is kept in the browser's storage (the game itself stays on the server).
const STORE = "fianchetto.v1";

function saveState() {
  try {
    const clocks = play.clocks ? { ...play.clocks, savedAt: Date.now() } : null;
    localStorage.setItem(STORE, JSON.stringify({
      tab: !$("analyse-panel").hidden ? "analyse" : !$("editor-panel").hidden ? "editor" : "play",
      editor: editor.active ? editorFen() : undefined,
      settings: { side: $("side").value, strength: $("strength").value, tc: $("tc").value,
        sound: $("sound-on").checked, premove: $("premove-on").checked },
      play: { id: play.id, human: play.human, over: play.over, elo: play.elo, tc: play.tc, clocks,
        plies: play.plies },
      analyse: { pgn: $("pgn-input").value, fens: ana.fens, moves: ana.moves, uci: ana.uci,
        report: ana.report, ply: ana.ply, games: ana.games, game: ana.game, annotated: ana.annotated,
        vars: flatVars(), at: ana.path.length ? ana.path[ana.path.length - 1].id : null, result: ana.result },
    }));
  } catch {
    // Storage full or switched off: the page works on, only without surviving a reload.
  }
}

// Two tabs on the same game: a move made in one shows in the other, rather than the other
// sending moves for a position it no longer has. A new game started elsewhere is announced;
// this tab's game is left as it is (both stay on the server).
window.addEventListener("storage", (e) => {
  if (e.key !== STORE || !e.newValue) return;
  let other;
  try { other = JSON.parse(e.newValue).play; } catch { return; }
  if (!other || !other.id || !play.id) return;
  if (other.id !== play.id) {
    if (other.id !== play.otherId) {
      play.otherId = other.id;
      setPlayStatus("A new game was started in another tab; this tab keeps its own game.");
    }
    return;
  }
  if (other.plies === play.plies && !!other.over === play.over) return;
  // The same game, moved on in the other tab: its clocks, with the increments of the moves
  // made there, are the ones to run on (between moves both tabs run the same wall clock).
  if (other.clocks && play.clocks && Number.isFinite(other.clocks.savedAt)) {
    play.clocks.white = other.clocks.white;
    play.clocks.black = other.clocks.black;
    play.clocks.since = performance.now() - Math.max(0, Date.now() - other.clocks.savedAt);
  }
  refreshGame(true).catch((err) => setPlayStatus(err.message));
});

function loadState() {
  try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch { return null; }
}

// Picks up the saved game; false when there is none, or the server no longer has it (it was
// restarted), which the status says.
async function resumeGame(saved) {
  if (!saved || !saved.play || !saved.play.id) return false;
  const p = saved.play;
  let view;
  try {
    view = await api(`/api/games/${p.id}`);
  } catch (e) {
    setPlayStatus("The server was restarted, so the game in progress is gone: a new game has started.");
    return false;
  }
  play.id = view.id;
  play.human = p.human;
  play.elo = p.elo;
  play.tc = p.tc || "";
  play.over = !!p.over || !!view.status;
  play.turn = view.turn;
  play.plies = view.moves.length;
  play.clocks = null;
  if (p.clocks && [p.clocks.white, p.clocks.black, p.clocks.inc, p.clocks.savedAt].every(Number.isFinite)) {
    play.clocks = { white: p.clocks.white, black: p.clocks.black, inc: p.clocks.inc, since: performance.now() };
    // The clock of the side to move ran on while the page was away, as on lichess.
    if (clocksRunning()) play.clocks[view.turn] -= Math.max(0, Date.now() - p.clocks.savedAt);
  }
  board.orientation = play.human;
  board.onMove = humanMove;
  setPlayMovable(play.over ? null : play.human);
  showGame(view, view.uci_moves[view.uci_moves.length - 1]);
  if (!play.over && view.turn !== play.human) botMove();
  return true;
}

// ---------------------------------------------------------------- analyse

const ana = { fens: [], moves: [], uci: [], ply: 0, report: null, source: null, lines: [], seq: 0, games: [], game: 1, annotated: null,
  // Variations the user explores: `vars[p]` lists the lines that leave the game at position p
  // (alternatives to the game's move from there). A line is a tree of nodes {id, uci, san, fen,
  // children}: children[0] continues it, any others are sub-variations. `path`: the nodes from a
  // line's first move to the position shown (empty: on the game itself, at `ply`).
  vars: {}, path: [], nextId: 1, notice: "", result: "*", loads: 0, abort: null, progressEvents: 0, partial: null };

// Variations nest at most this deep (a line inside a line inside …), and a tree holds at most
// this many moves: the move list draws them recursively, and the browser keeps them.
const MAX_NESTING = 20;
const MAX_VARIATION_MOVES = 3000;

// The position the analysis board shows: in a variation, or in the game.
function currentFen() {
  return ana.path.length ? ana.path[ana.path.length - 1].fen : ana.fens[ana.ply];
}

function showPly(ply) {
  ana.path = [];
  ana.ply = Math.max(0, Math.min(ply, ana.fens.length - 1));
  const fen = ana.fens[ana.ply];
  if (!fen) return;
  // Keys may step faster than the server answers: only the latest answer is shown.
  const seq = ++ana.seq;
  const at = ana.ply;
  api("/api/position", { fen }).then((view) => {
    if (seq !== ana.seq || $("analyse-panel").hidden) return;
    setPosition(view, moveSquares(ana.uci[at - 1]), analysisArrows(view, at));
    $("status").textContent = view.status ? `Game over: ${view.status}` : ana.notice || "";
    ana.notice = "";
  }).catch((e) => { $("status").textContent = e.message; });
  markCurrent();
  if (ana.ply === 0) $("analyse-moves").scrollTop = 0;
  // The judgement of the move that led here, in lichess's words: "Mistake. Nf5 was best."
  const judged = ana.report && ana.ply > 0 ? ana.report.moves[ana.ply - 1] : null;
  const comment = $("move-comment");
  comment.textContent = judged && judged.comment ? `${judged.san}: ${judged.comment}` : "";
  comment.className = judged && judged.judgement ? judged.judgement : "";
  drawVariationTools();
  drawGraph();
  restartEngine();
  saveState();
}

// Highlights the move shown in the list (a game move or a variation's) and keeps it in view.
function markCurrent() {
  const id = ana.path.length ? String(ana.path[ana.path.length - 1].id) : null;
  document.querySelectorAll("#analyse-moves .move").forEach((el) => {
    const current = id ? el.dataset.id === id : !el.dataset.id && Number(el.dataset.ply) === ana.ply;
    el.classList.toggle("current", current);
    // The list scrolls so that the current move stays in view, however long the game.
    if (current) el.scrollIntoView({ block: "nearest" });
  });
}

// The analysis board's arrows: the engine's best move (live lines on), and, after a whole-game
// analysis, the better move where the move played from here was judged a mistake.
function analysisArrows(view, ply) {
  const arrows = [];
  const best = ana.lines[0];
  if (best && best.fen === currentFen() && best.pv_uci && best.pv_uci[0]) {
    arrows.push({ ...moveSquares(best.pv_uci[0]), kind: "engine" });
  }
  const judged = ana.path.length === 0 && ana.report && ana.report.moves[ply];
  if (judged && judged.judgement && judged.best) {
    const m = (view.legal || []).find((x) => x.san === judged.best);
    if (m) arrows.push({ from: m.from, to: m.to, kind: "better" });
  }
  return arrows;
}

// ---------------------------------------------------------------- variations

// How deep a line inside lines the node at the end of `path` is (1: a line off the game).
function nesting(path) {
  let depth = 1;
  for (let i = 1; i < path.length; i += 1) if (path[i - 1].children.indexOf(path[i]) > 0) depth += 1;
  return depth;
}

function countNodes() {
  let n = 0;
  const stack = Object.values(ana.vars).flat();
  while (stack.length) { n += 1; stack.push(...stack.pop().children); }
  return n;
}

// A move made on the analysis board: the game's own next move steps on, a move already in the
// tree goes there; any other is added (a new line, or a sub-variation when the line already
// goes on differently) and shown.
async function analysisMove(uci) {
  if (!ana.path.length && ana.uci[ana.ply] === uci) { showPly(ana.ply + 1); return; }
  await addLine([uci]);
}

// Plays `ucis` from the position shown into the tree (moves already there are followed, not
// repeated), then shows the first of them.
// Lines are added one at a time, each from the position shown when it was asked for: a
// double click plays the same move twice, and the second must find the first's node rather
// than add the move again.
let adding = Promise.resolve();
function addLine(ucis) {
  const from = { seq: ana.seq, loads: ana.loads, path: ana.path.slice(), ply: ana.ply, fen: currentFen() };
  // A failure must not leave the chain rejected, or no move would ever be added again.
  adding = adding.then(() => addLineFrom(from, ucis)).catch((e) => { $("status").textContent = e.message; });
  return adding;
}

async function addLineFrom(from, ucis) {
  const seq = from.seq;
  let path = from.path;
  let ply = from.ply;
  let fen = from.fen;
  let firstPath = null;
  try {
    for (const uci of ucis) {
      // Another game loaded meanwhile: this line belongs to the one before.
      if (from.loads !== ana.loads) return;
      if (!path.length && ana.uci[ply] === uci) {
        // Along the game's own moves: no variation yet.
        ply += 1;
        fen = ana.fens[ply];
        continue;
      }
      const siblings = path.length ? path[path.length - 1].children : (ana.vars[ply] ||= []);
      let node = siblings.find((n) => n.uci === uci);
      if (!node) {
        const depth = path.length ? nesting(path) + (siblings.length ? 1 : 0) : 1;
        if (depth > MAX_NESTING) throw new Error(`Variations nest at most ${MAX_NESTING} deep`);
        if (countNodes() >= MAX_VARIATION_MOVES) throw new Error(`At most ${MAX_VARIATION_MOVES} variation moves are kept`);
        const r = await api("/api/move", { fen, move: uci });
        if (from.loads !== ana.loads) return;
        node = { id: ana.nextId++, uci: r.uci, san: r.san, fen: r.fen, children: [] };
        siblings.push(node);
      }
      path = [...path, node];
      fen = node.fen;
      if (!firstPath) firstPath = { ply, path };
    }
  } catch (e) {
    $("status").textContent = e.message;
    if (!firstPath) { drawBoard(); return; }
  }
  drawMoveList();
  if (seq !== ana.seq || $("analyse-panel").hidden) { saveState(); return; }
  if (firstPath) { ana.ply = firstPath.ply; showNode(firstPath.path); } else showPly(ply);
}

// Shows the position after the last node of `path`, a line leaving the game at `ana.ply`.
function showNode(path) {
  if (!path.length) { showPly(ana.ply); return; }
  ana.path = path;
  const node = path[path.length - 1];
  const seq = ++ana.seq;
  api("/api/position", { fen: node.fen }).then((view) => {
    if (seq !== ana.seq || $("analyse-panel").hidden) return;
    setPosition(view, moveSquares(node.uci), analysisArrows(view, ana.ply));
    $("status").textContent = view.status ? `Variation: ${view.status}` : "";
  }).catch((e) => { $("status").textContent = e.message; });
  markCurrent();
  $("move-comment").textContent = "";
  $("move-comment").className = "";
  drawVariationTools();
  restartEngine();
  saveState();
}

// Finds the node with `id`: the game position its line leaves from, and the path to it.
function findNode(id) {
  for (const [ply, roots] of Object.entries(ana.vars)) {
    const stack = roots.map((n) => [n]);
    while (stack.length) {
      const path = stack.pop();
      const node = path[path.length - 1];
      if (node.id === id) return { ply: Number(ply), path };
      for (const c of node.children) stack.push([...path, c]);
    }
  }
  return null;
}

// Where the line shown begins: the index in `path` of its first move (a node that is not its
// parent's main continuation) and the list that holds it.
function lineStart() {
  const path = ana.path;
  for (let i = path.length - 1; i > 0; i -= 1) {
    const siblings = path[i - 1].children;
    if (siblings.indexOf(path[i]) > 0) return { index: i, siblings };
  }
  return { index: 0, siblings: ana.vars[ana.ply] };
}

// Promote: the line shown becomes the main continuation where it branches (or the first of
// the lines leaving the game there; the game's own moves stay what they were).
// The deepest nesting in the line from `node`, which sits `depth` deep.
function deepest(node, depth) {
  let most = depth;
  const stack = [[node, depth]];
  while (stack.length) {
    const [n, d] = stack.pop();
    most = Math.max(most, d);
    n.children.forEach((c, i) => stack.push([c, i === 0 ? d : d + 1]));
  }
  return most;
}

function promoteLine() {
  if (!ana.path.length) return;
  const { index, siblings } = lineStart();
  const node = ana.path[index];
  const at = siblings.indexOf(node);
  if (at <= 0) return;
  // The line that was the main one goes one level deeper, with all inside it.
  if (index > 0 && deepest(siblings[0], nesting(ana.path.slice(0, index)) + 1) > MAX_NESTING) {
    $("status").textContent = `Variations nest at most ${MAX_NESTING} deep: this promotion would go deeper`;
    return;
  }
  siblings.splice(at, 1);
  siblings.unshift(node);
  drawMoveList();
  showNode(ana.path);
}

// Delete from here: the move shown goes, with everything after it; the board goes back one
// move (where a line inside this one continued instead, it now does).
function deleteLine() {
  if (!ana.path.length) return;
  const node = ana.path[ana.path.length - 1];
  const siblings = ana.path.length > 1 ? ana.path[ana.path.length - 2].children : ana.vars[ana.ply] || [];
  const at = siblings.indexOf(node);
  if (at < 0) return; // a path into a tree that has changed since
  siblings.splice(at, 1);
  if (ana.vars[ana.ply] && !ana.vars[ana.ply].length) delete ana.vars[ana.ply];
  const back = ana.path.slice(0, -1);
  drawMoveList();
  if (back.length) showNode(back); else showPly(ana.ply);
}

// The tools for the line shown: promote it, delete it.
function drawVariationTools() {
  const box = $("variation");
  box.hidden = !ana.path.length;
  if (!ana.path.length) return;
  const { index, siblings } = lineStart();
  const first = siblings.indexOf(ana.path[index]) === 0;
  $("variation-promote").disabled = first;
  $("variation-promote").title = first
    ? (index === 0 ? "The first line here (the game's own moves stay the main line)" : "Already the main line here")
    : "Make this line the main one where it branches";
}

// The tree kept in the browser, flat (a long line would otherwise nest as deep as it is long):
// each node with its parent's id (or the game ply its line leaves from), parents first.
function flatVars() {
  const out = [];
  for (const [ply, roots] of Object.entries(ana.vars)) {
    const stack = roots.map((n) => [n, null]).reverse();
    while (stack.length) {
      const [node, parent] = stack.pop();
      out.push({ id: node.id, parent, ply: Number(ply), uci: node.uci, san: node.san, fen: node.fen });
      for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push([node.children[i], node.id]);
    }
  }
  return out;
}

// Rebuilds the tree from `flatVars`'s list, as stored (by this version or another, or edited):
// anything malformed, past MAX_VARIATION_MOVES or nested past MAX_NESTING is left out.
function loadVars(flat, at) {
  ana.vars = {};
  ana.path = [];
  ana.nextId = 1;
  if (!Array.isArray(flat)) return;
  const byId = new Map();
  const ok = (x) => typeof x === "string" && x.length > 0 && x.length < 120;
  for (const e of flat.slice(0, MAX_VARIATION_MOVES)) {
    if (!e || !Number.isSafeInteger(e.id) || e.id < 1 || byId.has(e.id) || !ok(e.uci) || !ok(e.san) || !ok(e.fen)) continue;
    const node = { id: e.id, uci: e.uci, san: e.san, fen: e.fen, children: [] };
    if (e.parent === null) {
      if (!Number.isInteger(e.ply) || e.ply < 0 || e.ply >= ana.fens.length) continue;
      node.depth = 1;
      node.ply = e.ply;
      (ana.vars[e.ply] ||= []).push(node);
    } else {
      const parent = byId.get(e.parent);
      if (!parent) continue;
      node.depth = parent.depth + (parent.children.length ? 1 : 0);
      if (node.depth > MAX_NESTING) continue;
      node.ply = parent.ply;
      parent.children.push(node);
    }
    byId.set(e.id, node);
    ana.nextId = Math.max(ana.nextId, e.id + 1);
  }
  const found = Number.isInteger(at) ? findNode(at) : null;
  if (found) { ana.ply = found.ply; ana.path = found.path; }
}

$("variation-promote").addEventListener("click", promoteLine);
$("variation-delete").addEventListener("click", deleteLine);

// A click on an engine line plays it into a variation from the position shown.
$("engine-lines").addEventListener("click", (e) => {
  const i = Number(e.target.closest("[data-line]")?.dataset.line);
  const line = ana.lines[i];
  if (!line || line.fen !== currentFen()) return;
  addLine(line.pv_uci.slice(0, 10));
});

// A span for a move of the list: a game move (`ply`) or a variation's (`node`).
function moveSpan(san, ply, node) {
  const span = document.createElement("span");
  span.className = "move";
  span.textContent = san;
  if (node) span.dataset.id = String(node.id);
  else span.dataset.ply = String(ply);
  return span;
}

// Writes a move of a line: its number where PGN writes one ("3." before White's move, "3…"
// before Black's when `number` says the line starts or resumes there), then the move.
function writeMove(el, node, fenBefore, number) {
  const { number: n, black } = firstMove(fenBefore);
  if (!black) el.appendChild(document.createTextNode(`${n}. `));
  else if (number) el.appendChild(document.createTextNode(`${n}… `));
  el.appendChild(moveSpan(node.san, null, node));
  el.appendChild(document.createTextNode(" "));
}

// Writes the moves from the position `fen` as PGN writes variations: `kids[0]` goes on, the
// others follow it in parentheses, "3. Nf3 (3. d4 d5) 3… Nf6". Recursion follows the nesting,
// which adding a move bounds (MAX_NESTING) and loading a saved tree checks.
function writeMoves(el, fen, kids, depth) {
  let number = true;
  while (kids.length) {
    const [main, ...others] = kids;
    writeMove(el, main, fen, number);
    number = false;
    for (const alt of others) {
      el.appendChild(writeLine(fen, alt, depth + 1));
      el.appendChild(document.createTextNode(" "));
      number = true;
    }
    fen = main.fen;
    kids = main.children;
  }
}

// A line in parentheses that starts with `first`, played from `fen`.
function writeLine(fen, first, depth) {
  const line = document.createElement("span");
  line.className = `line depth${Math.min(depth, 3)}`;
  line.appendChild(document.createTextNode("("));
  writeMoves(line, fen, [first], depth);
  line.lastChild.textContent = line.lastChild.textContent.trimEnd(); // the space after its last move
  line.appendChild(document.createTextNode(")"));
  return line;
}

// The "…" that stands in a row for a move written elsewhere, as wide as a move.
function placeholder() {
  const span = document.createElement("span");
  span.className = "move placeholder";
  span.textContent = "…";
  return span;
}

// The game's moves, two to a numbered row, and under a move the lines that replace it (a row
// is split there, "12. Nf3 …", then the lines, then "12… Nc6", as lichess shows them).
function drawMoveList() {
  const list = $("analyse-moves");
  list.textContent = "";
  let li = null;
  const writeVars = (ply) => {
    const roots = ana.vars[ply];
    if (!roots || !roots.length) return;
    const box = document.createElement("li");
    box.className = "vars";
    for (const root of roots) box.append(writeLine(ana.fens[ply], root, 1), " ");
    list.appendChild(box);
    li = null;
  };
  ana.moves.forEach((san, i) => {
    const { number, black } = firstMove(ana.fens[i]);
    if (!black || !li) {
      li = document.createElement("li");
      li.value = number;
      list.appendChild(li);
      // Black's move keeps its column: White's is a placeholder.
      if (black) li.append(placeholder(), " ");
    }
    const span = moveSpan(san, i + 1, null);
    const judged = ana.report && ana.report.moves[i] && ana.report.moves[i].judgement;
    if (judged) span.classList.add(judged);
    if (judged && ana.report.moves[i].comment) span.title = ana.report.moves[i].comment;
    li.appendChild(span);
    li.appendChild(document.createTextNode(" "));
    // Lines that replace this move: after it, with its row split when Black's move follows.
    if (ana.vars[i] && ana.vars[i].length) {
      if (!black && i + 1 < ana.moves.length) li.appendChild(placeholder());
      writeVars(i);
    }
  });
  writeVars(ana.moves.length); // lines that go on from the game's last position
  if (ana.result && ana.result !== "*") {
    const end = document.createElement("li");
    end.className = "result";
    end.textContent = ana.result;
    list.appendChild(end);
  }
  markCurrent();
}

$("analyse-moves").addEventListener("click", (e) => {
  const el = e.target.closest(".move");
  if (!el) return;
  if (el.dataset.id) {
    const found = findNode(Number(el.dataset.id));
    if (found) { ana.ply = found.ply; showNode(found.path); }
  } else if (el.dataset.ply) {
    showPly(Number(el.dataset.ply));
  }
});

// A whole-game analysis streamed: progress as the positions are searched, a Cancel button, the
// result at the end. Returns the result, or null when cancelled.
async function analyseStreamed(request) {
  const ctrl = new AbortController();
  ana.abort = ctrl;
  $("analysis-running").hidden = false;
  $("analysis-progress").value = 0;
  $("analysis-count").textContent = "";
  try {
    const res = await fetch("/api/analyse-pgn/stream", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request), signal: ctrl.signal,
    });
    if (!res.ok) {
      const data = await res.json().catch(() => ({ error: res.statusText }));
      throw new Error(data.error || res.statusText);
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        let data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        if (event === "progress") {
          const p = JSON.parse(data);
          ana.progressEvents += 1;
          // The graph fills in as positions come (from the game's end backwards).
          if (!ana.partial || ana.partial.length !== p.total) ana.partial = new Array(p.total).fill(undefined);
          ana.partial[p.ply] = p.cp;
          drawGraph();
          $("analysis-progress").max = p.total;
          $("analysis-progress").value = p.done;
          $("analysis-count").textContent = `${p.done} / ${p.total} positions`;
        } else if (event === "done") {
          return JSON.parse(data);
        } else if (event === "error") {
          throw new Error(data);
        }
      }
    }
    throw new Error("the analysis ended without a result");
  } catch (e) {
    if (e.name === "AbortError") return null;
    throw e;
  } finally {
    if (ana.abort === ctrl) ana.abort = null;
    $("analysis-running").hidden = true;
    ana.partial = null;
    drawGraph();
  }
}

async function loadPgn(analyse, game) {
  const text = $("pgn-input").value;
  $("status").textContent = analyse ? "Analysing the game…" : "";
  if (ana.abort) ana.abort.abort(); // a new load replaces an analysis still running
  // Only the latest load is shown: a slow analysis must not replace a game loaded after it.
  const seq = ++ana.loads;
  try {
    const request = { pgn: text };
    if (game) request.game = game;
    let data;
    if (analyse) {
      const budget = $("analysis-time").value;
      if (budget.startsWith("d")) request.depth = Number(budget.slice(1));
      else request.movetime = Number(budget);
      data = await analyseStreamed(request);
      if (data === null) {
        if (seq === ana.loads) $("status").textContent = "Analysis cancelled";
        return;
      }
    } else {
      data = await api("/api/pgn", request);
    }
    if (seq !== ana.loads) return;
    // The lines made on the board stay when the same game is loaded or analysed again.
    if (ana.fens[0] !== data.fens[0] || ana.uci.join(" ") !== data.uci_moves.join(" ")) ana.vars = {};
    ana.path = [];
    ana.fens = data.fens;
    ana.moves = data.moves;
    ana.uci = data.uci_moves;
    ana.result = typeof data.result === "string" ? data.result : "*";
    ana.report = data.report || null;
    ana.games = data.games || [];
    ana.game = data.game || 1;
    ana.annotated = data.annotated_pgn || null;
    drawAnalysisDownload();
    drawGameChoice(data.game_count || 1);
    drawMoveList();
    drawSummary();
    // Said once the first position is shown: its answer would otherwise clear the status.
    ana.notice = analyse ? "Analysis done" : "";
    showPly(analyse ? 0 : ana.fens.length - 1);
  } catch (e) {
    $("status").textContent = e.message;
  }
}

// The analysed game as PGN, with the evaluations, judgements and better moves in it.
function drawAnalysisDownload() {
  const link = $("download-analysis");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.hidden = !ana.annotated;
  link.href = ana.annotated
    ? URL.createObjectURL(new Blob([ana.annotated], { type: "application/x-chess-pgn" }))
    : "#";
}

// A PGN of several games: the user picks one (players, result, date), as lichess's study
// import does; a single game needs no choice.
function drawGameChoice(count) {
  const sel = $("game-choice");
  sel.textContent = "";
  sel.hidden = ana.games.length < 2;
  ana.games.forEach((g, i) => {
    const o = document.createElement("option");
    o.value = String(i + 1);
    const date = g.date && g.date !== "?" && !g.date.startsWith("????") ? `, ${g.date}` : "";
    o.textContent = g.error ? `${i + 1}. (unreadable: ${g.error})` : `${i + 1}. ${g.white} – ${g.black} ${g.result}${date}`;
    o.selected = i + 1 === ana.game;
    sel.appendChild(o);
  });
  if (count > ana.games.length) {
    const o = document.createElement("option");
    o.disabled = true;
    o.textContent = `… ${count - ana.games.length} more games`;
    sel.appendChild(o);
  }
}

function drawSummary() {
  const el = $("summary");
  el.textContent = "";
  if (!ana.report) return;
  if (ana.report.opening) {
    const div = document.createElement("div");
    div.textContent = `${ana.report.opening.eco} ${ana.report.opening.name}`;
    el.appendChild(div);
  }
  for (const side of ["white", "black"]) {
    const p = ana.report[side];
    const div = document.createElement("div");
    const acc = p.accuracy == null ? "–" : `${p.accuracy.toFixed(1)}%`;
    const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    div.textContent = `${side === "white" ? "White" : "Black"} ${p.name || ""}: accuracy ${acc}, ` +
      `${count(p.inaccuracies, "inaccuracy", "inaccuracies")}, ` +
      `${count(p.mistakes, "mistake", "mistakes")}, ${count(p.blunders, "blunder", "blunders")}`;
    el.appendChild(div);
  }
}

// White's winning chances in [-1, 1] from a White-view centipawn score, as lichess draws them.
function chances(cp) {
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

// The evaluation graph: the report's, or while an analysis streams, the positions found so
// far (`ana.partial`, White's view in capped centipawns, gaps where nothing is known yet).
function drawGraph() {
  const el = $("graph");
  el.textContent = "";
  const streaming = Array.isArray(ana.partial);
  let cps;
  if (streaming) {
    cps = ana.partial;
  } else if (ana.report) {
    cps = [ana.report.moves[0] ? ana.report.moves[0].cp_before : 0];
    ana.report.moves.forEach((m) => cps.push(m.cp_after));
  } else {
    return;
  }
  const w = 600, h = 120, n = Math.max(1, cps.length - 1);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const point = (cp, i) => [(i / n) * w, h / 2 - chances(cp ?? 0) * (h / 2 - 2)];
  const known = [];
  cps.forEach((cp, i) => { if (!streaming || Number.isFinite(cp)) known.push(point(cp, i)); });
  if (known.length) {
    const area = document.createElementNS(ns, "polygon");
    area.setAttribute("points", `${known[0][0]},${h} ${known.map((p) => p.join(",")).join(" ")} ${known[known.length - 1][0]},${h}`);
    area.setAttribute("fill", "#ddd");
    svg.appendChild(area);
  }
  const mid = document.createElementNS(ns, "line");
  mid.setAttribute("x1", "0"); mid.setAttribute("x2", String(w));
  mid.setAttribute("y1", String(h / 2)); mid.setAttribute("y2", String(h / 2));
  mid.setAttribute("stroke", "#888");
  svg.appendChild(mid);
  if (streaming) {
    svg.classList.add("streaming");
    el.appendChild(svg);
    return;
  }
  const cursor = document.createElementNS(ns, "line");
  const x = (ana.ply / n) * w;
  cursor.setAttribute("x1", String(x)); cursor.setAttribute("x2", String(x));
  cursor.setAttribute("y1", "0"); cursor.setAttribute("y2", String(h));
  cursor.setAttribute("stroke", "#6a9f58"); cursor.setAttribute("stroke-width", "2");
  svg.appendChild(cursor);
  ana.report.moves.forEach((m, i) => {
    if (!m.judgement) return;
    const dot = document.createElementNS(ns, "circle");
    const [px, py] = point(cps[i + 1], i + 1);
    dot.setAttribute("cx", String(px)); dot.setAttribute("cy", String(py)); dot.setAttribute("r", "4");
    dot.setAttribute("fill", { inaccuracy: "#56b4e9", mistake: "#e69f00", blunder: "#df5353" }[m.judgement]);
    svg.appendChild(dot);
  });
  svg.addEventListener("click", (e) => {
    const rect = svg.getBoundingClientRect();
    showPly(Math.round(((e.clientX - rect.left) / rect.width) * n));
  });
  el.appendChild(svg);
}

function restartEngine() {
  drawTablebase();
  if (ana.source) { ana.source.close(); ana.source = null; }
  $("engine-lines").textContent = "";
  ana.lines = [];
  if (board.arrows.some((a) => a.kind === "engine")) {
    board.arrows = board.arrows.filter((a) => a.kind !== "engine");
    drawBoard();
  }
  const fen = currentFen();
  if (!$("engine-on").checked || !fen || $("analyse-panel").hidden) { $("evalbar").hidden = true; return; }
  $("evalbar").hidden = false;
  ana.lines = [];
  const url = `/api/analysis?fen=${encodeURIComponent(fen)}&multipv=3&movetime=30000`;
  const source = new EventSource(url);
  ana.source = source;
  source.addEventListener("info", (e) => {
    const line = JSON.parse(e.data);
    line.fen = fen;
    const newBest = line.multipv === 1 && (!ana.lines[0] || ana.lines[0].pv_uci[0] !== line.pv_uci[0]);
    ana.lines[line.multipv - 1] = line;
    drawEngineLines();
    if (newBest && board.fen === fen) {
      board.arrows = board.arrows.filter((a) => a.kind !== "engine");
      board.arrows.unshift({ ...moveSquares(line.pv_uci[0]), kind: "engine" });
      drawBoard();
    }
  });
  source.addEventListener("done", () => { source.close(); });
  source.onerror = () => { source.close(); };
}

// ---------------------------------------------------------------- tablebase

// With tables on the server (`serve --syzygy`), a position with few enough pieces shows the
// result with perfect play and each move's, best first, as lichess's tablebase panel does; a
// click plays the move. `maxPieces`: 0 when the server has no tables, null until it has said.
const tb = { maxPieces: null, seq: 0 };

// Whether the tables may hold `fen`: few enough pieces and no castling rights.
function tablebaseMayCover(fen) {
  const [placement, , castling] = fen.split(" ");
  const pieces = [...placement].filter((c) => /[a-z]/i.test(c)).length;
  return pieces <= tb.maxPieces && castling === "-";
}

const TB_WORDS = { win: "Winning", "cursed-win": "Win the 50-move rule draws", draw: "Drawn",
  "blessed-loss": "Loss the 50-move rule saves", loss: "Losing" };

async function drawTablebase() {
  const box = $("tablebase");
  const fen = currentFen();
  const seq = ++tb.seq;
  if (tb.maxPieces === null) {
    // The server says once up to how many pieces its tables hold (0: it has none).
    try {
      tb.maxPieces = (await api(`/api/tablebase?fen=${encodeURIComponent(START_FEN)}`)).max_pieces;
    } catch {
      tb.maxPieces = 0;
    }
    if (seq !== tb.seq) return;
  }
  if (!fen || !tb.maxPieces || $("analyse-panel").hidden || !tablebaseMayCover(fen)) {
    box.hidden = true;
    return;
  }
  let view;
  try {
    view = await api(`/api/tablebase?fen=${encodeURIComponent(fen)}`);
  } catch (e) {
    view = { covered: false, error: e.message };
  }
  if (seq !== tb.seq) return;
  box.textContent = "";
  box.hidden = false;
  box.dataset.fen = fen; // a click plays a move only in the position its rows are for
  const head = document.createElement("div");
  head.className = "tb-verdict";
  if (!view.covered) {
    head.textContent = view.error ? `Tablebase: ${view.error}` : "Tablebase: no table for this position";
    box.appendChild(head);
    return;
  }
  const mover = fen.split(" ")[1] === "w" ? "White" : "Black";
  const other = mover === "White" ? "Black" : "White";
  const verdict = {
    win: `${mover} wins`, "cursed-win": `${mover} wins, but the 50-move rule draws it`, draw: "Draw",
    "blessed-loss": `${other} wins, but the 50-move rule draws it`, loss: `${other} wins`,
  }[view.wdl];
  const over = view.over ? ` (${view.over})` : "";
  head.textContent = `Tablebase: ${verdict}${over}` + (view.dtz != null && view.wdl !== "draw" && !view.over ? ` · DTZ ${Math.abs(view.dtz)}` : "");
  box.appendChild(head);
  let group = null;
  for (const m of view.moves) {
    if (!group || group.dataset.wdl !== m.wdl) {
      group = document.createElement("div");
      group.className = `tb-group ${m.wdl}`;
      group.dataset.wdl = m.wdl;
      const title = document.createElement("div");
      title.className = "tb-title";
      title.textContent = TB_WORDS[m.wdl];
      group.appendChild(title);
      box.appendChild(group);
    }
    const row = document.createElement("div");
    row.className = "tb-move";
    row.dataset.uci = m.uci;
    row.title = "Play this move on the board";
    const san = document.createElement("span");
    san.textContent = m.san;
    const detail = document.createElement("span");
    detail.className = "tb-dtz";
    detail.textContent = m.checkmate ? "Checkmate" : m.wdl === "draw" || m.dtz == null ? ""
      : `DTZ ${Math.abs(m.dtz)}`;
    row.append(san, detail);
    group.appendChild(row);
  }
}

$("tablebase").addEventListener("click", (e) => {
  const uci = e.target.closest("[data-uci]")?.dataset.uci;
  if (uci && $("tablebase").dataset.fen === currentFen()) analysisMove(uci);
});

function scoreText(line) {
  if (line.mate != null) return `#${line.mate}`;
  const p = (line.cp / 100).toFixed(2);
  return line.cp > 0 ? `+${p}` : p;
}

function drawEngineLines() {
  const el = $("engine-lines");
  el.textContent = "";
  ana.lines.forEach((line, i) => {
    if (!line) return;
    const div = document.createElement("div");
    div.dataset.line = String(i);
    div.title = "Play this line on the board";
    div.textContent = `${scoreText(line)}  d${line.depth}  ${(line.nps / 1000).toFixed(0)} kn/s  ${line.pv.slice(0, 10).join(" ")}`;
    el.appendChild(div);
  });
  const best = ana.lines[0];
  if (best) {
    const c = best.mate != null ? Math.sign(best.mate) : chances(best.cp);
    const white = board.orientation === "white" ? (c + 1) / 2 : (1 - c) / 2;
    $("evalbar-fill").style.height = `${white * 100}%`;
    $("evalbar-text").textContent = scoreText(best);
  }
}

$("pgn-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  $("pgn-input").value = await file.text();
  loadPgn(false);
});
$("game-choice").addEventListener("change", (e) => loadPgn(false, Number(e.target.value)));
// New text: its first game, whatever was chosen in the old one.
$("pgn-input").addEventListener("input", () => { ana.game = 1; });

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.ctrlKey || e.metaKey || e.altKey) return; // the browser's own shortcuts (find, back)
  if (e.key === "f") { flip(); return; }
  if (editor.active) return; // no moves to step through while setting up
  if ($("analyse-panel").hidden) {
    // Play: step through the game being played.
    const at = play.review ?? play.fens.length - 1;
    const steps = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: play.fens.length - 1 };
    if (e.key in steps) { e.preventDefault(); reviewPlay(steps[e.key]); }
    return;
  }
  if (e.key === "ArrowLeft") { e.preventDefault(); stepBack(); return; }
  if (e.key === "ArrowRight") { e.preventDefault(); stepForward(); return; }
  if (e.key === "Escape" && ana.path.length) { showPly(ana.ply); return; }
  const moves = { Home: 0, End: ana.fens.length - 1 };
  if (e.key in moves) { e.preventDefault(); showPly(moves[e.key]); }
});

// One move back: along a line (back past its first move: to the game, where it left), or the
// game. The ‹ button and ← do this.
function stepBack() {
  if (ana.path.length) showNode(ana.path.slice(0, -1));
  else showPly(ana.ply - 1);
}

// One move on: along the line shown, or the game; at the game's end into the first line that
// goes on from there. The › button and → do this.
function stepForward() {
  if (ana.path.length) {
    const node = ana.path[ana.path.length - 1];
    if (node.children.length) showNode([...ana.path, node.children[0]]);
    return;
  }
  const onward = ana.ply === ana.fens.length - 1 && ana.vars[ana.ply] && ana.vars[ana.ply][0];
  if (onward) showNode([onward]);
  else showPly(ana.ply + 1);
}

// ---------------------------------------------------------------- board editor

// The position being set up: a piece letter (FEN's) for each occupied square, the side to move
// and the castling rights asked for. The server judges legality (/api/position), as it does
// every rule.
const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// `tail` is the FEN's en passant square and move counters: kept from a FEN typed in, reset by
// any change to the pieces or the side to move (which could make them false).
const editor = { active: false, pieces: {}, turn: "w", rights: "KQkq", tail: "- 0 1", tool: "move", seq: 0, valid: false };

// Castling rights a position can have: the king and that rook on their starting squares.
const CASTLING = { K: ["e1", "K", "h1", "R"], Q: ["e1", "K", "a1", "R"], k: ["e8", "k", "h8", "r"], q: ["e8", "k", "a8", "r"] };

function editorFromFen(fen) {
  const [placement, turn, rights, ep, half, full] = fen.trim().split(/\s+/);
  const pieces = {};
  const rows = (placement || "").split("/");
  if (rows.length !== 8) return false;
  for (let r = 0; r < 8; r++) {
    let f = 0;
    for (const ch of rows[r]) {
      if (/[1-8]/.test(ch)) { f += Number(ch); continue; }
      if (!/[kqrbnpKQRBNP]/.test(ch) || f > 7) return false;
      pieces[FILES[f] + (8 - r)] = ch;
      f += 1;
    }
    if (f !== 8) return false;
  }
  editor.pieces = pieces;
  editor.turn = turn === "b" ? "b" : "w";
  editor.rights = rights && rights !== "-" ? rights.replace(/[^KQkq]/g, "") : "";
  editor.tail = [/^[a-h][36]$/.test(ep) ? ep : "-", /^\d+$/.test(half) ? half : "0", /^\d+$/.test(full) ? full : "1"].join(" ");
  return true;
}

function castlingPossible(right) {
  const [k, king, r, rook] = CASTLING[right];
  return editor.pieces[k] === king && editor.pieces[r] === rook;
}

function editorFen() {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = "", empty = 0;
    for (const file of FILES) {
      const p = editor.pieces[file + rank];
      if (!p) { empty += 1; continue; }
      if (empty) row += empty;
      row += p;
      empty = 0;
    }
    rows.push(row + (empty ? empty : ""));
  }
  const rights = "KQkq".split("").filter((c) => editor.rights.includes(c) && castlingPossible(c)).join("");
  return `${rows.join("/")} ${editor.turn} ${rights || "-"} ${editor.tail}`;
}

// Shows the position being set up, and asks the server whether it is legal.
function drawEditor() {
  const fen = editorFen();
  Object.assign(board, { fen, legal: [], arrows: [], last: null, check: false, turn: editor.turn === "w" ? "white" : "black" });
  drawBoard();
  if (document.activeElement !== $("ed-fen")) $("ed-fen").value = fen;
  $("ed-turn").value = editor.turn;
  for (const box of document.querySelectorAll("#ed-castling input")) {
    const right = box.dataset.right;
    const possible = castlingPossible(right);
    box.checked = possible && editor.rights.includes(right);
    box.disabled = !possible;
    box.parentElement.classList.toggle("impossible", !possible);
  }
  for (const b of document.querySelectorAll("#palette button")) {
    b.classList.toggle("active", b.dataset.tool === editor.tool);
  }
  const seq = ++editor.seq;
  api("/api/position/check", { fen }).then((check) => {
    if (seq !== editor.seq) return;
    editor.valid = check.legal;
    if (!check.legal) { showEditorMessage(`Illegal position: ${check.error}.`, true); return; }
    const view = check.position;
    const said = view.status ? `: ${view.status}` : view.check ? ", in check" : "";
    showEditorMessage(`${view.turn === "white" ? "White" : "Black"} to move${said}.`, false);
  }, (e) => {
    if (seq !== editor.seq) return;
    editor.valid = false;
    showEditorMessage(e.message, true);
  });
  saveState();
}

function showEditorMessage(text, illegal) {
  $("ed-message").textContent = text;
  $("ed-message").classList.toggle("illegal", illegal);
  $("ed-play").disabled = illegal;
  $("ed-analyse").disabled = illegal;
}

// A click on a square: put the chosen piece there (or take it off if it is already there),
// erase, or with "move pieces" pick a piece up and put it down on the next square clicked.
function editorClick(sq) {
  const tool = editor.tool;
  if (tool !== "move") editor.tail = "- 0 1";
  if (tool === "erase") {
    delete editor.pieces[sq];
  } else if (tool === "move") {
    if (board.selected && board.selected !== sq) {
      editorMovePiece(board.selected, sq);
    } else {
      board.selected = !board.selected && editor.pieces[sq] ? sq : null;
      drawBoard();
      return;
    }
  } else if (editor.pieces[sq] === tool) {
    delete editor.pieces[sq];
  } else {
    editor.pieces[sq] = tool;
  }
  board.selected = null;
  drawEditor();
}

// Moves a piece across the board (`from` a square), or puts a new one on it (`from` "new:<piece>");
// `to` null takes it off the board.
function editorMovePiece(from, to) {
  editor.tail = "- 0 1";
  let piece;
  if (from.startsWith("new:")) {
    piece = from.slice(4);
  } else {
    piece = editor.pieces[from];
    delete editor.pieces[from];
  }
  if (to && /^[kqrbnpKQRBNP]$/.test(piece || "")) editor.pieces[to] = piece;
  board.selected = null;
  drawEditor();
}

$("palette").addEventListener("click", (e) => {
  const tool = e.target.closest("button")?.dataset.tool;
  if (!tool) return;
  editor.tool = tool;
  board.selected = null;
  drawEditor();
});
$("ed-turn").addEventListener("change", () => { editor.turn = $("ed-turn").value; editor.tail = "- 0 1"; drawEditor(); });
$("ed-castling").addEventListener("change", (e) => {
  const right = e.target.dataset.right;
  if (!right) return;
  editor.rights = e.target.checked ? editor.rights + right : editor.rights.replace(right, "");
  drawEditor();
});
$("ed-fen").addEventListener("input", () => {
  if (editorFromFen($("ed-fen").value)) drawEditor();
  else showEditorMessage("Not a FEN yet: eight ranks of pieces (KQRBNP, kqrbnp) and digits.", true);
});
$("ed-start").addEventListener("click", () => { editorFromFen(START_FEN); drawEditor(); });
// Clearing keeps the castling rights asked for: they apply again once king and rook are home.
$("ed-clear").addEventListener("click", () => { editor.pieces = {}; editor.tail = "- 0 1"; drawEditor(); });
$("ed-flip").addEventListener("click", () => flip());
$("ed-play").addEventListener("click", () => {
  if (!editor.valid) return;
  $("start-fen").value = editorFen();
  showTab("play");
  newGame().catch((e) => setPlayStatus(e.message));
});
$("ed-analyse").addEventListener("click", async () => {
  if (!editor.valid) return;
  $("pgn-input").value = editorFen();
  showTab("analyse");
  await loadPgn(false);
});

// ---------------------------------------------------------------- tabs and start

function showTab(name) {
  for (const tab of ["play", "analyse", "editor"]) {
    $(`tab-${tab}`).classList.toggle("active", name === tab);
    $(`${tab}-panel`).hidden = name !== tab;
  }
  $("status").textContent = name === "play" ? play.status : "";
  // Premoves belong to the game's board: off elsewhere, back (with the one kept) on Play.
  board.premove = name === "play" ? play.premove : null;
  const wasEditing = editor.active;
  editor.active = name === "editor";
  if (name === "editor") {
    // The editor starts from the position on the board, whichever tab showed it.
    restartEngine();
    ana.seq += 1;
    board.onMove = null;
    board.movable = null;
    if (!wasEditing) editorFromFen(board.fen || START_FEN);
    drawClocks();
    drawEditor();
  } else if (name === "analyse") {
    // On the analysis board either side's pieces move: into the game's next move, or a variation.
    board.onMove = analysisMove;
    board.movable = "both";
    if (ana.fens.length === 0) {
      ana.fens = [board.fen || START_FEN];
    }
    if (ana.path.length) showNode(ana.path); else showPly(ana.ply);
    drawClocks();
  } else {
    restartEngine();
    ana.seq += 1; // an analysis position still on its way is not for this board
    board.orientation = play.human;
    board.onMove = humanMove;
    board.movable = play.over || play.thinking ? null : play.human;
    drawClocks(); // at once, not only when the game's view comes back
    if (play.id) refreshGame(false).catch((e) => setPlayStatus(e.message));
  }
  setPremoving(name === "play" && play.thinking);
  saveState();
}

$("tab-play").addEventListener("click", () => showTab("play"));
$("tab-analyse").addEventListener("click", () => showTab("analyse"));
$("tab-editor").addEventListener("click", () => showTab("editor"));
$("new-game").addEventListener("click", () => newGame().catch((e) => { $("status").textContent = e.message; }));
$("takeback").addEventListener("click", takeBack);
$("resign").addEventListener("click", () => endByPlayer("resign"));
$("abort").addEventListener("click", () => endByPlayer("abort"));
$("offer-draw").addEventListener("click", offerDraw);
$("sound-on").addEventListener("change", saveState);
$("premove-on").addEventListener("change", () => {
  if (!$("premove-on").checked) setPremove(null);
  setPremoving(play.thinking);
  saveState();
});
const flip = () => { board.orientation = board.orientation === "white" ? "black" : "white"; drawBoard(); drawClocks(); };
$("flip").addEventListener("click", flip);
$("flip2").addEventListener("click", flip);
$("load-pgn").addEventListener("click", () => loadPgn(false));
$("analyse-game").addEventListener("click", () => loadPgn(true, ana.game));
$("analysis-cancel").addEventListener("click", () => { if (ana.abort) ana.abort.abort(); });
$("engine-on").addEventListener("change", restartEngine);
$("nav-first").addEventListener("click", () => showPly(0));
$("nav-prev").addEventListener("click", stepBack);
$("nav-next").addEventListener("click", stepForward);
$("nav-last").addEventListener("click", () => showPly(ana.fens.length - 1));

fillStrength();
setInterval(tick, 200);

// Start: the analysis and the game the last visit left, else a new game.
(async () => {
  let saved = loadState();
  try {
    const texts = (x, n) => Array.isArray(x) && x.length === n && x.every((t) => typeof t === "string" && t.length < 120);
    const a0 = saved && saved.analyse;
    if (a0 && Array.isArray(a0.fens) && a0.fens.length && !(texts(a0.fens, a0.fens.length)
        && texts(a0.moves, a0.fens.length - 1) && texts(a0.uci, a0.fens.length - 1))) {
      throw new Error("a stored analysis that is not one");
    }
    if (saved && saved.analyse && Array.isArray(saved.analyse.fens) && saved.analyse.fens.length) {
      const a = saved.analyse;
      $("pgn-input").value = a.pgn || "";
      Object.assign(ana, { fens: a.fens, moves: a.moves || [], uci: a.uci || [], report: a.report || null,
        ply: a.ply || 0, games: a.games || [], game: a.game || 1, annotated: a.annotated || null });
      ana.result = ["1-0", "0-1", "1/2-1/2"].includes(a.result) ? a.result : "*";
      loadVars(a.vars, a.at);
      drawAnalysisDownload();
      drawGameChoice(ana.games.length);
      drawMoveList();
      drawSummary();
    }
  } catch {
    // Stored by another version, or damaged: start afresh rather than fail on every visit.
    Object.assign(ana, { fens: [], moves: [], uci: [], report: null, ply: 0, games: [], game: 1, annotated: null, vars: {}, path: [] });
    localStorage.removeItem(STORE);
    saved = null;
  }
  // The game settings chosen last time (each only if it is still one of the choices).
  const settings = (saved && saved.settings) || {};
  for (const [id, value] of [["side", settings.side], ["strength", settings.strength], ["tc", settings.tc]]) {
    if (typeof value === "string" && [...$(id).options].some((o) => o.value === value)) $(id).value = value;
  }
  if (typeof settings.sound === "boolean") $("sound-on").checked = settings.sound;
  if (typeof settings.premove === "boolean") $("premove-on").checked = settings.premove;
  let resumed = false;
  try {
    resumed = await resumeGame(saved);
  } catch {
    localStorage.removeItem(STORE);
  }
  if (!resumed) {
    const note = play.status;
    await newGame();
    if (note) setPlayStatus(note);
  }
  if (saved && saved.tab === "analyse") showTab("analyse");
  if (saved && saved.tab === "editor") {
    if (typeof saved.editor === "string") editorFromFen(saved.editor);
    editor.active = true; // keep the saved position rather than the board's
    showTab("editor");
  }
})().catch((e) => { $("status").textContent = e.message; });