// game.js: the live board of a game's page. The server renders the page and owns the
// game: this script draws the states the socket sends, counts the running clock down
// between them, and sends the player's moves and actions (drag, click-click, typed SAN
// or UCI, the keyboard), each answered by the server. No rule of chess lives here: the
// legal moves come with every state. In a correspondence game a player may switch the
// board to plan mode while the opponent is to move: the moves played then are a line
// of conditional moves (the opponent's, then the reply, alternating), each checked by
// the server, which answers with the position and the moves legal there.
"use strict";
(function () {
  const root = document.querySelector(".game");
  if (!root) return;
  const board = root.querySelector("[data-board]");
  const moveList = root.querySelector("[data-moves]");
  const statusEl = root.querySelector("[data-status]");
  const errorEl = root.querySelector("[data-error]");
  const form = root.querySelector("[data-move-form]");
  const input = form ? form.querySelector("input[name=move]") : null;
  const picker = root.querySelector("[data-promote-picker]");
  const premoveEl = root.querySelector("[data-premove]");
  const planEl = root.querySelector("[data-plan]");
  const path = root.dataset.path;
  const local = root.dataset.local === "1";
  const flipped = board.dataset.orientation === "black";
  const SVG = "http://www.w3.org/2000/svg";

  let you = root.dataset.you || "";
  let g = JSON.parse(root.dataset.state); // the last state from the server
  let moves = g.moves.slice();
  let clockAt = performance.now();
  let viewPly = null; // null: the live position; else the ply shown
  let selected = null; // the square of the piece picked up
  let premove = null; // {from, to, promo}
  let cursor = null; // the keyboard's square
  let pending = new Map(); // request id -> what it was
  let ws = null, retry = 0, wantHello = true;
  let plan = null; // the server's last plan message (the author's own plan), or null
  // draft: plan mode's line being entered, or null: {ply, base: {fen, legal}, steps:
  // [{uci, san, fen, legal, over}], waiting (a check in flight)}.
  let draft = null;

  // --- The model --------------------------------------------------------------

  function shownPly() { return viewPly === null ? moves.length : viewPly; }
  function fenAt(n) { return n === 0 ? g.start : moves[n - 1].fen; }
  function live() { return g.result === "*"; }
  function myTurn() { return live() && (local || (you !== "" && g.turn === you)); }
  function draftTop() { return draft.steps.length ? draft.steps[draft.steps.length - 1] : draft.base; }
  // The position the pieces are moved on: the draft's end in plan mode, else the game's.
  function boardFen() { return draft ? draftTop().fen : fenAt(moves.length); }
  function legalNow() { return draft ? (draftTop().legal || []) : (g.legal || []); }
  function canMove() { return draft ? !draft.waiting && !draftTop().over : myTurn(); }
  function mine(code) {
    if (draft) return !!code && code[0] === boardFen().split(" ")[1];
    if (!code || !live()) return false;
    const side = code[0] === "w" ? "white" : "black";
    if (local) return side === g.turn;
    return you !== "" && side === you;
  }

  // pieces reads a FEN's board: square name -> piece code (wK..bP).
  function pieces(fen) {
    const out = {};
    const rows = fen.split(" ")[0].split("/");
    for (let r = 0; r < 8; r++) {
      let f = 0;
      for (const ch of rows[r]) {
        if (ch >= "1" && ch <= "8") { f += Number(ch); continue; }
        const color = ch === ch.toUpperCase() ? "w" : "b";
        out[String.fromCharCode(97 + f) + (8 - r)] = color + ch.toUpperCase();
        f++;
      }
    }
    return out;
  }

  // --- Drawing ------------------------------------------------------------------

  function pieceEl(code) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "piece");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("data-piece", code);
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#" + code);
    svg.appendChild(use);
    return svg;
  }

  function square(name) { return board.querySelector('[data-square="' + name + '"]'); }

  function drawBoard() {
    const n = shownPly();
    let fen = fenAt(n), last = n > 0 ? moves[n - 1].uci : "", san = n > 0 ? moves[n - 1].san : "";
    if (draft) {
      fen = boardFen();
      const top = draft.steps.length ? draftTop() : null;
      last = top ? top.uci : last;
      san = top ? top.san : san;
    }
    const ps = pieces(fen);
    const toMove = fen.split(" ")[1] === "w" ? "w" : "b";
    let checked = "";
    if (/[+#]$/.test(san)) {
      for (const k in ps) if (ps[k] === toMove + "K") checked = k;
    }
    const targets = new Set();
    if (selected && viewPly === null) for (const t of targetsFrom(selected)) targets.add(t);
    for (const sq of board.querySelectorAll("[data-square]")) {
      const name = sq.dataset.square;
      const want = ps[name] || "";
      const cur = sq.querySelector("[data-piece]");
      if ((cur ? cur.dataset.piece : "") !== want) {
        if (cur) cur.remove();
        if (want) sq.insertBefore(pieceEl(want), sq.firstChild);
      }
      sq.classList.toggle("last", last !== "" && (last.slice(0, 2) === name || last.slice(2, 4) === name));
      sq.classList.toggle("check", name === checked);
      sq.classList.toggle("selected", name === selected);
      sq.classList.toggle("target", targets.has(name));
      sq.classList.toggle("occupied", !!want);
      sq.classList.toggle("premove", !!premove && (premove.from === name || premove.to === name));
      sq.classList.toggle("cursor", name === cursor);
    }
    board.dataset.fen = fen;
    board.dataset.result = g.result;
    if (draft) board.dataset.mode = "plan";
    else delete board.dataset.mode;
    drawMaterial(ps);
  }

  const worth = { P: 1, N: 3, B: 3, R: 5, Q: 9 };
  const full = { P: 8, N: 2, B: 2, R: 2, Q: 1 };
  function drawMaterial(ps) {
    const count = { w: { P: 0, N: 0, B: 0, R: 0, Q: 0 }, b: { P: 0, N: 0, B: 0, R: 0, Q: 0 } };
    for (const k in ps) { const c = ps[k]; if (c[1] !== "K") count[c[0]][c[1]]++; }
    let score = 0;
    for (const t in worth) score += (count.w[t] - count.b[t]) * worth[t];
    for (const side of ["white", "black"]) {
      const el = root.querySelector('[data-material="' + side + '"]');
      if (!el) continue;
      const opp = side === "white" ? "b" : "w";
      el.textContent = "";
      for (const t of ["Q", "R", "B", "N", "P"]) {
        for (let i = count[opp][t]; i < full[t]; i++) {
          const p = pieceEl(opp + t);
          p.removeAttribute("data-piece"); // a captured piece is not on the board
          p.setAttribute("class", "captured");
          el.appendChild(p);
        }
      }
      const lead = side === "white" ? score : -score;
      if (lead > 0) el.appendChild(document.createTextNode(" +" + lead));
    }
  }

  function drawMoves() {
    const startBlack = g.start.split(" ")[1] === "b";
    const fullmove = Number(g.start.split(" ")[5]) || 1;
    const items = [];
    moves.forEach(function (m, i) {
      const li = document.createElement("li");
      li.dataset.ply = String(i + 1);
      li.tabIndex = -1;
      const white = startBlack ? i % 2 === 1 : i % 2 === 0;
      const number = fullmove + Math.floor((i + (startBlack ? 1 : 0)) / 2);
      if (white || i === 0) {
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = number + (white ? "." : "…");
        li.appendChild(num);
        li.appendChild(document.createTextNode(" "));
      }
      const s = document.createElement("span");
      s.className = "san";
      s.textContent = m.san;
      li.appendChild(s);
      if (i + 1 === shownPly()) li.classList.add("current");
      items.push(li);
    });
    moveList.replaceChildren.apply(moveList, items);
    const cur = moveList.querySelector(".current");
    if (cur && viewPly === null) moveList.scrollTop = moveList.scrollHeight;
  }

  function clockText(ms, days) {
    const s = Math.max(0, Math.floor(ms / 1000));
    if (days && s >= 86400) return Math.floor(s / 86400) + "d " + Math.floor((s % 86400) / 3600) + "h";
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const pad = function (v) { return v < 10 ? "0" + v : String(v); };
    return h > 0 ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }

  function drawClocks() {
    if (!g.clock) return;
    const el = { white: root.querySelector("[data-clock=white]"), black: root.querySelector("[data-clock=black]") };
    const running = live() ? g.clock.running : "";
    for (const side of ["white", "black"]) {
      if (!el[side]) continue;
      let left = g.clock[side];
      if (side === running) left -= performance.now() - clockAt;
      const text = clockText(left, g.clock.days);
      if (el[side].textContent !== text) el[side].textContent = text;
      el[side].classList.toggle("running", side === running);
      el[side].classList.toggle("low", side === running && left < 10000 && !g.clock.days);
      // A player on vacation: their clock waits on their turns until the date shown.
      const away = root.querySelector("[data-away=" + side + "]"), until = g.clock["away" + cap(side)];
      if (away) {
        const note = until ? "on vacation until " + new Date(until).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "";
        if (away.textContent !== note) away.textContent = note;
        away.hidden = !until;
      }
    }
  }

  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

  function drawStatus() {
    let text;
    if (!live()) text = g.reason || g.result;
    else if (myTurn() && !local) text = "Your move (" + g.turn + ")";
    else text = cap(g.turn) + " to move";
    if (live() && g.drawOffer) text += " · " + cap(g.drawOffer) + " offers a draw";
    if (live() && g.takeback) text += " · " + cap(g.takeback) + " asks to take back a move";
    if (viewPly !== null) text += " · viewing move " + viewPly + " of " + moves.length + " (End: back to live)";
    if (draft) text += " · plan mode: the board shows your line, not the game";
    statusEl.textContent = text;
    const show = function (action, on) {
      const b = root.querySelector("button[data-action=" + action + "]");
      if (b) b.hidden = !on;
    };
    const player = local || you !== "";
    const other = function (side) { return side !== "" && (local || side !== you); };
    show("offer-draw", player && live() && moves.length >= 1 && !g.drawOffer);
    show("accept-draw", player && live() && other(g.drawOffer));
    show("decline-draw", player && live() && other(g.drawOffer));
    show("claim-draw", player && live() && myTurn() && (g.claim || (g.claimMoves || []).length > 0));
    show("takeback", player && live() && moves.length >= 1 && !g.takeback);
    show("accept-takeback", player && live() && other(g.takeback));
    show("decline-takeback", player && live() && other(g.takeback));
    show("abort", player && live() && moves.length < 2);
    show("resign", player && live());
    if (input) {
      input.disabled = !live();
      const ply = form.querySelector("input[name=ply]");
      if (ply) ply.value = String(moves.length);
    }
    if (premoveEl) {
      premoveEl.hidden = !premove;
      premoveEl.textContent = premove ? "Premove " + premove.from + premove.to + (premove.promo || "") + " (Escape cancels)" : "";
    }
  }

  function drawAll() {
    drawBoard();
    drawMoves();
    drawClocks();
    drawStatus();
    drawPlan();
  }

  // --- Moves --------------------------------------------------------------------

  function targetsFrom(from) {
    const out = [];
    if (canMove()) {
      for (const u of legalNow()) if (u.slice(0, 2) === from) out.push(u.slice(2, 4));
    }
    return out;
  }

  function isPromotion(from, to) {
    for (const u of legalNow()) if (u.length === 5 && u.slice(0, 2) === from && u.slice(2, 4) === to) return true;
    return false;
  }

  function lastRank(from, to) {
    const code = pieces(boardFen())[from] || "";
    return code[1] === "P" && (to[1] === "8" || to[1] === "1");
  }

  function newID() {
    const b = new Uint8Array(12);
    crypto.getRandomValues(b);
    return Array.from(b, function (x) { return (x % 36).toString(36); }).join("");
  }

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      showError("Not connected: reconnecting, try again in a moment.");
      return false;
    }
    ws.send(JSON.stringify(msg));
    return true;
  }

  function sendMove(text, what) {
    const id = newID();
    if (send({ t: "move", id: id, ply: moves.length, move: text })) pending.set(id, what || "move");
  }

  function sendAction(action) {
    const id = newID();
    const msg = { t: "action", id: id, ply: moves.length, action: action };
    // A claim with the intended move (FIDE 9.2.1): the move typed in the box.
    if (action === "claim-draw" && input && input.value.trim() !== "") msg.move = input.value.trim();
    if (send(msg)) pending.set(id, action === "claim-draw" && msg.move ? "typed" : action);
  }

  function showError(text) { if (errorEl) errorEl.textContent = text; }

  // tryMove plays from→to: asks for the piece of a promotion, keeps a premove when it
  // is not the player's turn.
  function tryMove(from, to) {
    selected = null;
    if (viewPly !== null) { viewPly = null; drawAll(); return; }
    if (draft) {
      if (!targetsFrom(from).includes(to)) { drawBoard(); return; }
      if (isPromotion(from, to)) { askPromotion(function (p) { planStep(from + to + p); }); drawBoard(); return; }
      planStep(from + to);
      return;
    }
    if (!myTurn()) {
      if (from === to) { drawBoard(); return; }
      if (lastRank(from, to)) { askPromotion(function (p) { premove = { from: from, to: to, promo: p }; drawAll(); }); return; }
      premove = { from: from, to: to, promo: "" };
      drawAll();
      return;
    }
    if (!targetsFrom(from).includes(to)) { drawBoard(); return; }
    if (isPromotion(from, to)) {
      askPromotion(function (p) { sendMove(from + to + p, "drag"); });
      drawBoard();
      return;
    }
    sendMove(from + to, "drag");
    drawBoard();
  }

  function askPromotion(done) {
    let color = local ? (g.turn === "white" ? "w" : "b") : (you === "black" ? "b" : "w");
    if (draft) color = boardFen().split(" ")[1];
    for (const b of picker.querySelectorAll("[data-promote]")) {
      const use = b.querySelector("use");
      if (use) use.setAttribute("href", "#" + color + b.dataset.promote.toUpperCase());
    }
    picker.hidden = false;
    const first = picker.querySelector("[data-promote=q]");
    if (first) first.focus();
    picker.onclick = function (e) {
      const b = e.target.closest("[data-promote]");
      if (!b) return;
      picker.hidden = true;
      picker.onclick = null;
      if (b.dataset.promote !== "cancel") done(b.dataset.promote);
      else drawBoard();
      board.focus();
    };
  }

  // firePremove plays the premove once it is the player's turn, if it is legal then.
  function firePremove() {
    if (!premove || !myTurn()) return;
    const u = premove.from + premove.to + (premove.promo || "");
    premove = null;
    if ((g.legal || []).includes(u)) sendMove(u, "premove");
  }

  // --- Pointer: drag, or click-click -----------------------------------------------

  function squareAt(x, y) {
    const r = board.getBoundingClientRect();
    if (x < r.left || y < r.top || x >= r.right || y >= r.bottom) return null;
    let f = Math.floor(((x - r.left) / r.width) * 8), rank = 7 - Math.floor(((y - r.top) / r.height) * 8);
    if (flipped) { f = 7 - f; rank = 7 - rank; }
    return String.fromCharCode(97 + f) + (rank + 1);
  }

  let drag = null;
  board.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || !picker.hidden) return;
    const name = squareAt(e.clientX, e.clientY);
    if (!name) return;
    const code = viewPly === null ? (pieces(boardFen())[name] || "") : "";
    if (selected && selected !== name && !mine(code)) { tryMove(selected, name); return; }
    if (!mine(code)) { selected = null; drawBoard(); return; }
    if (premove && !myTurn() && !draft) premove = null;
    const el = square(name).querySelector("[data-piece]");
    drag = { from: name, el: el, x: e.clientX, y: e.clientY, moved: false, wasSelected: selected === name };
    selected = name;
    drawAll();
    board.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  board.addEventListener("pointermove", function (e) {
    if (!drag || !drag.el) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    drag.el.classList.add("dragging");
    drag.el.style.transform = "translate(" + dx + "px," + dy + "px)";
    const over = squareAt(e.clientX, e.clientY);
    for (const sq of board.querySelectorAll(".hover")) sq.classList.remove("hover");
    if (over) square(over).classList.add("hover");
  });
  function endDrag(e, cancel) {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.el) { d.el.classList.remove("dragging"); d.el.style.transform = ""; }
    for (const sq of board.querySelectorAll(".hover")) sq.classList.remove("hover");
    if (cancel) { drawBoard(); return; }
    const to = squareAt(e.clientX, e.clientY);
    if (!d.moved) {
      if (d.wasSelected) { selected = null; drawBoard(); }
      return; // a click: the piece stays picked up for the second click
    }
    if (!to || to === d.from) { drawBoard(); return; }
    tryMove(d.from, to);
  }
  board.addEventListener("pointerup", function (e) { endDrag(e, false); });
  board.addEventListener("pointercancel", function (e) { endDrag(e, true); });

  // --- Keyboard ------------------------------------------------------------------

  board.tabIndex = 0;
  board.addEventListener("focus", function () { if (!cursor) { cursor = flipped ? "e7" : "e2"; drawBoard(); } });
  board.addEventListener("blur", function () { cursor = null; drawBoard(); });
  board.addEventListener("keydown", function (e) {
    if (!cursor) cursor = "e2";
    let f = cursor.charCodeAt(0) - 97, r = Number(cursor[1]) - 1;
    const step = flipped ? -1 : 1;
    switch (e.key) {
      case "ArrowUp": r = Math.min(7, Math.max(0, r + step)); break;
      case "ArrowDown": r = Math.min(7, Math.max(0, r - step)); break;
      case "ArrowLeft": f = Math.min(7, Math.max(0, f - step)); break;
      case "ArrowRight": f = Math.min(7, Math.max(0, f + step)); break;
      case "Enter": case " ": {
        e.preventDefault();
        const code = pieces(boardFen())[cursor] || "";
        if (selected && selected !== cursor && !mine(code)) tryMove(selected, cursor);
        else if (mine(code)) { selected = selected === cursor ? null : cursor; drawBoard(); }
        return;
      }
      case "Escape": selected = null; premove = null; drawAll(); return;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
    cursor = String.fromCharCode(97 + f) + (r + 1);
    drawBoard();
  });

  document.addEventListener("keydown", function (e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t === board)) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(null);
    else if (e.key === "Escape") { selected = null; premove = null; drawAll(); }
    else return;
    e.preventDefault();
  });

  // --- History --------------------------------------------------------------------

  function goTo(n) {
    if (draft) return; // plan mode shows its line; Back to the game leaves it
    viewPly = n === null || n >= moves.length ? null : Math.max(0, n);
    selected = null;
    drawAll();
  }
  function step(d) { goTo(shownPly() + d); }
  moveList.addEventListener("click", function (e) {
    const li = e.target.closest("[data-ply]");
    if (li) goTo(Number(li.dataset.ply));
  });

  root.addEventListener("click", function (e) {
    const b = e.target.closest("button[data-action]");
    if (!b || !root.contains(b)) return;
    const a = b.dataset.action;
    if (a === "first") goTo(0);
    else if (a === "prev") step(-1);
    else if (a === "next") step(1);
    else if (a === "live") goTo(null);
    else if (a === "move" || a === "sign-out") return; // the forms' own buttons
    else if (a.slice(0, 4) === "plan") { e.preventDefault(); showError(""); planAction(a, b); }
    else { e.preventDefault(); showError(""); sendAction(a); }
  });

  if (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const text = input.value.trim();
      if (text === "") { showError("Type a move, such as e4, Nf3, O-O or e7e8q."); return; }
      showError("");
      sendMove(text, "typed");
    });
  }

  // --- Plan mode (conditional moves) ----------------------------------------------

  // planStep adds a move to the line being entered: the server checks the whole line
  // so far and answers with a draft (onDraft) or an error.
  function planStep(uci) {
    const id = newID();
    const line = draft.steps.map(function (s) { return s.uci; }).concat([uci]).join(" ");
    if (send({ t: "plan-check", id: id, ply: draft.ply, line: line })) {
      pending.set(id, { check: true, uci: uci, n: draft.steps.length });
      draft.waiting = true;
    }
    drawAll();
  }

  function onDraft(m) {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (!draft || !p || !p.check || m.ply !== draft.ply || p.n !== draft.steps.length) return;
    draft.waiting = false;
    draft.steps.push({ uci: p.uci, san: m.san[m.san.length - 1], fen: m.fen, legal: m.legal || [], over: m.over || "" });
    showError("");
    drawAll();
  }

  function sendPlan(t, line) {
    const id = newID();
    const msg = { t: t, id: id, ply: moves.length };
    if (line) msg.line = line;
    if (send(msg)) pending.set(id, t);
  }

  function planAction(a, b) {
    if (a === "plan") {
      if (!plan || !plan.allowed || !live() || myTurn() || viewPly !== null) return;
      draft = { ply: moves.length, base: { fen: fenAt(moves.length), legal: g.legal || [], over: "" }, steps: [], waiting: false };
      selected = null;
      premove = null;
    } else if (a === "plan-done") {
      draft = null;
      selected = null;
    } else if (a === "plan-undo") {
      if (draft && !draft.waiting) draft.steps.pop();
    } else if (a === "plan-save") {
      if (!draft || draft.waiting) return;
      if (draft.steps.length < 2 || draft.steps.length % 2 !== 0) {
        showError("A line ends with your reply: play your answer to your opponent's move, then save.");
        return;
      }
      sendPlan("plan-add", draft.steps.map(function (s) { return s.san; }).join(" "));
    } else if (a === "plan-remove") {
      const i = Number(b.dataset.line);
      if (plan && plan.lines[i]) sendPlan("plan-remove", plan.lines[i].join(" "));
    } else if (a === "plan-clear") {
      sendPlan("plan-clear", "");
    }
    drawAll();
  }

  // lineText writes a line as "if e5 then Nf3, if Nc6 then Bb5" (English SAN).
  function lineText(sans) {
    const parts = [];
    for (let i = 0; i + 1 < sans.length; i += 2) parts.push("if " + sans[i] + " then " + sans[i + 1]);
    if (sans.length % 2 === 1) parts.push("if " + sans[sans.length - 1] + " then …");
    return parts.join(", ");
  }

  function drawPlan() {
    if (!planEl) return;
    planEl.hidden = !plan;
    if (!plan) return;
    const note = planEl.querySelector("[data-plan-note]");
    const start = planEl.querySelector("button[data-action=plan]");
    const draftEl = planEl.querySelector("[data-plan-draft]");
    let text = "";
    if (!plan.allowed) text = cap(plan.off || "conditional moves are not allowed in this game") + ".";
    else if (draft && draftTop().over) text = "The game would end there (" + draftTop().over + "): save the line, or undo.";
    else if (draft) text = draft.steps.length % 2 === 0 ? "Play your opponent's move on the board." : "Now play your reply.";
    else if (live() && myTurn()) text = "It is your move: plan your replies once you have played it.";
    else if (live()) text = "While your opponent thinks, plan replies to their possible moves: only you see them.";
    note.textContent = text;
    start.hidden = !plan.allowed || !!draft || !live();
    start.disabled = myTurn() || viewPly !== null;
    draftEl.hidden = !draft;
    if (draft) {
      const sans = draft.steps.map(function (s) { return s.san; });
      const movesEl = draftEl.querySelector("[data-plan-draft-moves]");
      movesEl.textContent = lineText(sans) || "(none yet)";
      movesEl.dataset.moves = sans.join(" ");
      draftEl.querySelector("[data-action=plan-save]").disabled = draft.waiting || draft.steps.length < 2 || draft.steps.length % 2 !== 0;
      draftEl.querySelector("[data-action=plan-undo]").disabled = draft.waiting || draft.steps.length === 0;
    }
    const list = planEl.querySelector("[data-plan-lines]");
    const items = plan.lines.map(function (l, i) {
      const li = document.createElement("li");
      li.dataset.planLine = String(i);
      const span = document.createElement("span");
      span.className = "plan-line";
      span.textContent = lineText(l);
      li.appendChild(span);
      const rm = document.createElement("button");
      rm.type = "button";
      rm.dataset.action = "plan-remove";
      rm.dataset.line = String(i);
      rm.textContent = "Remove";
      rm.setAttribute("aria-label", "Remove the line " + l.join(" "));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(rm);
      return li;
    });
    list.replaceChildren.apply(list, items);
    planEl.querySelector("button[data-action=plan-clear]").hidden = plan.lines.length === 0;
  }

  // --- The socket -------------------------------------------------------------------

  function apply(st) {
    if (st.version < g.version && st.game === g.game) return;
    if (st.from > moves.length || fenAt(st.from) !== st.base) {
      // The page missed a change before the message's moves: ask for the whole game.
      send({ t: "hello", ply: 0, fen: "" });
      return;
    }
    const before = moves.length;
    moves = moves.slice(0, st.from).concat(st.moves);
    g = st;
    clockAt = performance.now();
    if (viewPly !== null && viewPly > moves.length) viewPly = null;
    if (moves.length !== before) selected = null;
    if (!live()) premove = null;
    if (draft && (moves.length !== draft.ply || !live() || myTurn())) {
      draft = null;
      showError("The game moved on: the line you were entering is dropped (your saved lines stay).");
    }
    drawAll();
    firePremove();
  }

  function onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch (err) { return; }
    switch (m.t) {
      case "welcome": you = m.you || you; break;
      case "state": retry = 0; root.dataset.socket = "open"; apply(m); break;
      case "ok":
        if (pending.get(m.id) === "typed" && input) input.value = "";
        if (pending.get(m.id) === "plan-add" && draft) { draft.steps = []; drawAll(); }
        pending.delete(m.id);
        showError("");
        break;
      case "error":
        if (draft && pending.get(m.id) && pending.get(m.id).check) { draft.waiting = false; drawAll(); }
        pending.delete(m.id);
        showError(m.error);
        drawBoard();
        break;
      case "draft": onDraft(m); break;
      case "plan": plan = m; drawPlan(); break;
    }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + path + "/ws");
    ws.onopen = function () {
      const n = moves.length;
      ws.send(JSON.stringify({ t: "hello", ply: n, fen: fenAt(n) }));
    };
    ws.onmessage = onMessage;
    ws.onclose = function () {
      ws = null;
      root.dataset.socket = "closed";
      if (!wantHello) return;
      statusEl.textContent = "Reconnecting…";
      const wait = Math.min(5000, 300 * Math.pow(2, retry++));
      setTimeout(connect, wait);
    };
  }

  window.addEventListener("pagehide", function () { wantHello = false; if (ws) ws.close(); });
  setInterval(drawClocks, 200);
  drawAll();
  connect();
})();
