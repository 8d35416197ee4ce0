// puzzle.js: the puzzle page's board: click (or drag) one of the solver's pieces, then
// its square, and the move is sent in UCI through the page's form (the server judges
// it, as /puzzle solve does). A pawn reaching the last rank asks which piece.
"use strict";
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    const root = document.querySelector("[data-page=puzzle]");
    const form = document.querySelector("form[data-puzzle-form]");
    if (!root || !form) return;
    const solver = root.dataset.solver === "black" ? "b" : "w";
    const input = form.querySelector("input[name=move]");
    let from = null;
    let dragFrom = null;

    function squareOf(el) {
      const sq = el && el.closest("[data-square]");
      return sq ? sq.dataset.square : null;
    }
    function pieceOn(name) {
      const el = document.querySelector('[data-square="' + name + '"] .piece');
      return el ? el.dataset.piece : "";
    }
    function mark(name, on) {
      const el = document.querySelector('[data-square="' + name + '"]');
      if (el) el.classList.toggle("selected", on);
    }
    function send(a, b) {
      let uci = a + b;
      const p = pieceOn(a);
      if (p === solver + "P" && (b[1] === "8" || b[1] === "1")) {
        const choice = (window.prompt("Promote to (q, r, b, n)", "q") || "q").toLowerCase();
        uci += "qrbn".indexOf(choice) >= 0 && choice.length === 1 ? choice : "q";
      }
      input.value = uci;
      form.requestSubmit();
    }
    function choose(name) {
      if (!name) return;
      const mine = pieceOn(name).charAt(0) === solver;
      if (from === null) {
        if (mine) { from = name; mark(name, true); }
        return;
      }
      if (name === from) { mark(from, false); from = null; return; }
      if (mine) { mark(from, false); from = name; mark(name, true); return; }
      const a = from;
      mark(from, false);
      from = null;
      send(a, name);
    }
    const board = document.querySelector("[data-board]");
    board.addEventListener("pointerdown", function (e) {
      const name = squareOf(e.target);
      dragFrom = name && pieceOn(name).charAt(0) === solver ? name : null;
    });
    board.addEventListener("pointerup", function (e) {
      const name = squareOf(document.elementFromPoint(e.clientX, e.clientY));
      if (dragFrom && name && name !== dragFrom) {
        if (from) mark(from, false);
        from = null;
        send(dragFrom, name);
      } else {
        choose(name);
      }
      dragFrom = null;
    });
  });
})();
