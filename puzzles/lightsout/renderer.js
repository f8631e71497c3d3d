// Quinto / Lights Out on the web page (the shell's renderer contract: query/static/app.js).
import { cell, decorate, findMove, fitted, grid } from "/static/board.js";

const LIT = "#f0e442";
const DARK = "#30304a";

export const title = "Quinto / Lights Out";
export const rules = "A click inverts a button and its four neighbours (up, down, left, "
  + "right; no diagonals). Turn the board into the target, all off by default. Clicks "
  + "commute and a second click undoes the first, so the fewest clicks are a set of "
  + "buttons; the hint names a button of a fewest-click solution.";

export function settings() {
  return [
    { name: "size", label: "Board", choices: [["5x5", "5×5 (Quinto)"], ["3x3", "3×3"],
      ["4x4", "4×4"], ["6x6", "6×6"], ["7x7", "7×7"]] },
    { name: "target", label: "Target", choices: [["off", "All off"], ["on", "All on"]] },
  ];
}

export async function newGame(settings, api) {
  const [rows, cols] = (settings.size || "5x5").split("x").map(Number);
  const fill = settings.target === "on" ? "1" : "0";
  const target = Array.from({ length: rows }, () => fill.repeat(cols)).join(".");
  // press random buttons from the target: every dealt board can be solved
  const bits = target.replaceAll(".", "").split("").map(Number);
  for (let button = 0; button < rows * cols; button++) {
    if (Math.random() < 0.5) {
      const r = Math.floor(button / cols), c = button % cols;
      for (const [dr, dc] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const rr = r + dr, cc = c + dc;
        if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) bits[rr * cols + cc] ^= 1;
      }
    }
  }
  const rowsText = [];
  for (let r = 0; r < rows; r++) rowsText.push(bits.slice(r * cols, (r + 1) * cols).join(""));
  return { state: rowsText.join("."), target, options: {} };
}

export function describe(label) {
  return `click button ${Number(label) + 1}`;
}

export function draw(board, view, ui) {
  const rows = view.state.split(".");
  const cols = rows[0].length;
  // a 7x7 board fits a phone: its buttons narrow, never under a finger's size
  const size = fitted(board, cols, { largest: cols > 5 ? 48 : 56 });
  const area = grid(board, cols, size);
  [...rows.join("")].forEach((bit, index) => {
    const label = String(index);
    const button = cell({
      row: Math.floor(index / cols), col: index % cols, text: bit === "1" ? "on" : "",
      background: bit === "1" ? LIT : DARK, size,
      label: `button ${index + 1}, ${bit === "1" ? "on" : "off"}`,
      onClick: () => ui.play(findMove(view, label)),
    });
    button.style.fontSize = "0.875rem";
    decorate(button, view, (m) => m.label === label);
    area.appendChild(button);
  });
}

export async function extra(view, api) {
  const found = await api("/api/lightsout/solve", { board: view.state, target: view.target });
  if (!found.solvable) return `No click set turns this board into the target (nullity ${found.nullity}).`;
  const fewest = `${found.min_clicks} click${found.min_clicks === 1 ? "" : "s"}`;
  return found.solutions === 1
    ? `1 click set solves this board (nullity ${found.nullity}): ${fewest}.`
    : `${found.solutions} click sets solve this board (nullity ${found.nullity}); the fewest `
      + `take ${fewest}.`;
}
