// Sliding tiles on the web page (the shell's renderer contract: query/static/app.js).
import { cell, decorate, grid } from "/static/board.js";

export const title = "Sliding tiles";
export const rules = "Slide a tile next to the blank into it (no diagonals) until the tiles "
  + "read in order with the blank last. Click a tile next to the blank to slide it.";

// The 15-puzzle has no full table: every answer is an exact search (IDA* on pattern
// databases), whose work grows fast with the moves left.  A deal is this many random
// slides from the goal, never straight back, so it is at most this many moves from it
// and its search is quick; the smaller boards are shuffled thoroughly (their tables
// answer at once).
const SEARCHED_DEAL_SLIDES = 50;
const TABLE_DEAL_SLIDES = 400;

export function settings() {
  return [
    { name: "board", label: "Board", choices: [["3x3", "3×3 (the 8-puzzle)"],
      ["4x4", "4×4 (the 15-puzzle)"], ["2x3", "2×3"], ["2x4", "2×4"], ["2x2", "2×2"]] },
  ];
}

export async function newGame(settings) {
  const [rows, cols] = (settings.board || "3x3").split("x").map(Number);
  const tiles = [...Array(rows * cols - 1).keys()].map((t) => t + 1).concat([0]);
  const target = written(tiles, cols);
  // random slides from the goal: every dealt board can be solved
  let blank = tiles.length - 1;
  let before = -1;  // the blank's cell before its last slide: never slid straight back
  const slides = rows * cols > 9 ? SEARCHED_DEAL_SLIDES : TABLE_DEAL_SLIDES;
  for (let step = 0; step < slides; step++) {
    const options = [blank - cols, blank + cols, blank - 1, blank + 1].filter((other) =>
      other >= 0 && other < tiles.length && other !== before
      && (Math.abs(other - blank) === cols || Math.floor(other / cols) === Math.floor(blank / cols)));
    const other = options[Math.floor(Math.random() * options.length)];
    [tiles[blank], tiles[other]] = [tiles[other], 0];
    [before, blank] = [blank, other];
  }
  return { state: written(tiles, cols), target, options: {} };
}

function written(tiles, cols) {
  // the notation: rows joined by '.'; past 10 cells a row's numbers joined by ','
  const joint = tiles.length > 10 ? "," : "";
  const rows = [];
  for (let i = 0; i < tiles.length; i += cols) rows.push(tiles.slice(i, i + cols).join(joint));
  return rows.join(".");
}

function tilesOf(state) {
  // the notation read back: each row's tiles (numbers joined by ',', or one digit each)
  return state.split(".").map((row) => (row.includes(",") ? row.split(",") : [...row]));
}

export function describe(label) {
  const [tile, way] = label.split(" ");
  return `slide tile ${tile} ${way}`;
}

export function draw(board, view, ui) {
  const rows = tilesOf(view.state);
  const cols = rows[0].length;
  const area = grid(board, cols);
  rows.flat().forEach((tile, index) => {
    const mine = (m) => m.label.startsWith(`${tile} `);
    const move = view.moves.find(mine);
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
    if (tile !== "0") decorate(square, view, mine);
    area.appendChild(square);
  });
}
