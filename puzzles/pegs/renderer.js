// English peg solitaire on the web page (the shell's renderer contract: query/static/app.js).
import { cell, decorate, fitted, fromTo, grid } from "/static/board.js";

const PEG = "#8b4513", HOLE = "#ffffff", GAP = 6;

export const title = "Peg solitaire";
export const rules = "Jump a peg over a neighbouring peg, along a row or a column, into "
  + "the empty hole beyond: the peg jumped over is removed. Finish with one peg, in the "
  + "centre. Tap a peg, then the hole to jump it to. Every hole is named by its column "
  + "(a to g, left to right) and its row (1 to 7, top to bottom), as the hints name them.";

export function settings() {
  return [{ name: "start", label: "Start", choices: [["standard", "centre empty"]] }];
}

export async function newGame() {
  return { state: "ooo.ooo.ooooooo.ooo_ooo.ooooooo.ooo.ooo", target: "solved", options: {} };
}

const onBoard = (row, col) => (row >= 2 && row <= 4) || (col >= 2 && col <= 4);
const holeName = (row, col) => `${"abcdefg"[col]}${row + 1}`;

export function describe(label) {
  const [from, to] = label.split("-");
  return `jump the peg on ${from} to ${to}`;
}

function pegsOf(state) {
  // the 7x7 square: true a peg, false an empty hole, null off the board
  const holes = state.replaceAll(".", "");
  let at = 0;
  return Array.from({ length: 7 }, (_, row) => Array.from({ length: 7 }, (_, col) => (
    onBoard(row, col) ? holes[at++] === "o" : null)));
}

const choice = fromTo();  // the peg chosen first

export function draw(board, view, ui) {
  const pegs = pegsOf(view.state);
  const selected = choice.chosen(view);
  const size = fitted(board, 7, { largest: 48, gap: GAP });
  const area = grid(board, 7, size, GAP);
  const redraw = () => draw(board, view, ui);
  const landing = view.hint ? view.hint.label.split("-")[1] : null;
  for (let row = 0; row < 7; row++) {
    for (let col = 0; col < 7; col++) {
      if (pegs[row][col] === null) {
        const spacer = document.createElement("span");
        spacer.setAttribute("aria-hidden", "true");
        area.appendChild(spacer);
        continue;
      }
      const name = holeName(row, col);
      // each hole carries its name, as the hints and the moves name them; a peg is the
      // dark disc
      const square = cell({
        row, col, text: name, size,
        background: pegs[row][col] ? PEG : HOLE,
        label: `hole ${name}, ${pegs[row][col] ? "a peg" : "empty"}`,
        onClick: () => choice.click(name, view, redraw, (from, to) => {
          const move = view.moves.find((m) => m.label === `${from}-${to}`);
          if (move) { ui.play(move); return; }
          redraw();
          ui.illegal(`No jump from ${from} to ${to}: a peg jumps over a neighbouring peg `
            + "into the empty hole just beyond it.");
        }),
      });
      square.classList.add("hole-name");
      square.style.borderRadius = "50%";
      if (selected === name) {
        square.classList.add("selected");
        square.setAttribute("aria-pressed", "true");
      }
      // a jump belongs to the hole it starts from; the hinted jump's landing hole is
      // outlined too (dashed), so that the whole jump is on the board
      decorate(square, view, (m) => m.label.split("-")[0] === name);
      if (name === landing) {
        square.classList.add("landing");
        square.setAttribute("aria-label", `${square.getAttribute("aria-label")}: the hinted `
          + "jump lands here");
      }
      area.appendChild(square);
    }
  }
}
