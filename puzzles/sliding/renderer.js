// Sliding tiles on the web page (the shell's renderer contract: query/static/app.js).
import { cell, decorate, grid } from "/static/board.js";

export const title = "Sliding tiles";
export const rules = "Slide a tile next to the blank into it (no diagonals) until the tiles "
  + "read in order with the blank last. Click a tile next to the blank to slide it.";

export function settings() {
  return [
    { name: "board", label: "Board", choices: [["3x3", "3×3 (the 8-puzzle)"], ["2x3", "2×3"],
      ["2x4", "2×4"], ["2x2", "2×2"]] },
  ];
}

export async function newGame(settings) {
  const [rows, cols] = (settings.board || "3x3").split("x").map(Number);
  const tiles = [...Array(rows * cols - 1).keys()].map((t) => t + 1).concat([0]);
  const target = chunk(tiles, cols);
  // random slides from the goal: every dealt board can be solved
  let blank = tiles.length - 1;
  for (let step = 0; step < 400; step++) {
    const options = [blank - cols, blank + cols, blank - 1, blank + 1].filter((other) =>
      other >= 0 && other < tiles.length
      && (Math.abs(other - blank) === cols || Math.floor(other / cols) === Math.floor(blank / cols)));
    const other = options[Math.floor(Math.random() * options.length)];
    [tiles[blank], tiles[other]] = [tiles[other], 0];
    blank = other;
  }
  return { state: chunk(tiles, cols), target, options: {} };
}

function chunk(tiles, cols) {
  const rows = [];
  for (let i = 0; i < tiles.length; i += cols) rows.push(tiles.slice(i, i + cols).join(""));
  return rows.join(".");
}

export function describe(label) {
  const [tile, way] = label.split(" ");
  return `slide tile ${tile} ${way}`;
}

export function draw(board, view, ui) {
  const rows = view.state.split(".");
  const cols = rows[0].length;
  const area = grid(board, cols);
  [...rows.join("")].forEach((tile, index) => {
    const move = view.moves.find((m) => m.label.startsWith(`${tile} `));
    const square = cell({
      row: Math.floor(index / cols), col: index % cols, text: tile === "0" ? "" : tile,
      background: tile === "0" ? "#f1f1f1" : "#56b4e9",
      label: tile === "0" ? "the blank"
        : `tile ${tile}${move || view.pending ? "" : ", not next to the blank"}`,
      onClick: () => {
        if (move && tile !== "0") ui.play(move);
        else ui.illegal(tile === "0" ? "Click a tile next to the blank."
          : `Tile ${tile} is not next to the blank.`);
      },
    });
    if (tile !== "0") decorate(square, view, (m) => m.label.startsWith(`${tile} `));
    area.appendChild(square);
  });
}
