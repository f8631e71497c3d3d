// Klotski (Huarong Dao) on the web page (the shell's renderer contract: query/static/app.js).
//
// The board carries the notation's letters, the one lettering of a position (the 2x2 block
// A, the others B, C, ... in reading order of their top-left cells): the board, the
// position line and a shared address read alike, whatever moves led there.  A move may
// so letter the blocks afresh.  A numbered sequence is said in the letters of the board it
// is drawn on: each step's block is followed from the board along the sequence (one block
// moved a step: every other stays in place).
import { cell, decorate, grid } from "/static/board.js";

const SHAPE_COLOURS = { square: "#d55e00", standing: "#0072b2", lying: "#009e73",
  single: "#f0e442", hole: "#ffffff" };
const SIZE = 60;

export const title = "Klotski";
export const rules = "Slide the blocks until the big 2x2 block reaches the bottom centre, "
  + "where it can slide out. Tap a block, then the empty cell it should move into. Block "
  + "metric: one block moved any distance, round corners too, is one move; cell metric: "
  + "one block one cell. Blocks are lettered as the position is written: the big block A, "
  + "the others B, C, ... in reading order, so a move may letter them afresh.";

export function settings() {
  return [
    { name: "metric", label: "Metric", choices: [["block", "a block any distance"],
      ["cell", "one cell at a time"]] },
    { name: "start", label: "Start", choices: [["BAAC.BAAC.DEEF.DGHF.I--J", "classic"],
      ["AABC.AADC.EEFG.HIFG.JI--", "halfway"],
      ["BCDE.BCDE.FGAA.HHAA.IJ--", "near the goal"]] },
  ];
}

export async function newGame(settings) {
  return { state: settings.start || "BAAC.BAAC.DEEF.DGHF.I--J", target: "solved",
           options: { metric: settings.metric || "block" } };
}

// ---- a sequence said in the board's letters -----------------------------------------
const cellsOf = (state) => state.replaceAll(".", "");

function blocksOf(state) {
  // each block of a position: its notation letter -> the cells it covers
  const found = new Map();
  [...cellsOf(state)].forEach((letter, index) => {
    if (letter === "-") return;
    if (!found.has(letter)) found.set(letter, []);
    found.get(letter).push(index);
  });
  return found;
}

function follow(before, names, after) {
  // the names of ``after``'s blocks when it is one block's move from ``before`` (whose
  // blocks are named ``names``, one letter a cell): the blocks that stayed keep theirs,
  // the one that moved takes its own; null when the positions are not one move apart
  // (a sequence's steps are said in the letters of the board it is drawn on)
  const stayed = new Map([...blocksOf(before).values()].map((cells) => [cells.join(","),
                                                                         names[cells[0]]]));
  const named = [...cellsOf(after)];
  const moved = [];
  for (const cells of blocksOf(after).values()) {
    const name = stayed.get(cells.join(","));
    if (name === undefined) { moved.push(cells); continue; }
    stayed.delete(cells.join(","));
    for (const index of cells) named[index] = name;
  }
  const left = [...stayed.entries()];
  if (moved.length !== 1 || left.length !== 1
      || left[0][0].split(",").length !== moved[0].length) return null;
  for (const index of moved[0]) named[index] = left[0][1];
  return named.join("");
}

let known = new Map();  // the board's names of the positions numbered just now

function namesOf(state) {
  return known.get(state) || cellsOf(state);
}

function mover(move, from) {
  // the name of the block a move (labelled in the notation of ``from``) moves
  const letter = move.label.split(" ")[0];
  return namesOf(from)[cellsOf(from).indexOf(letter)];
}

export function describe(label, from) {
  const [letter, ...ways] = label.split(" ");
  const name = from ? namesOf(from)[cellsOf(from).indexOf(letter)] || letter : letter;
  return `move block ${name} ${ways.join(", then ")}`;
}

function shapeOf(letters, index) {
  const letter = letters[index];
  if (letter === "-") return "hole";
  const count = [...letters].filter((l) => l === letter).length;
  if (count === 4) return "square";
  if (count === 1) return "single";
  return letters[index + 4] === letter || letters[index - 4] === letter ? "standing" : "lying";
}

let chosen = null, chosenIn = null;  // the block chosen first, and the position it was in

export function draw(board, view, ui) {
  const names = cellsOf(view.state);
  known = new Map([[view.state, names]]);
  // the block each move moves, by its name: the position's moves and hint, and each step
  // of the sequence from the position before it
  const moves = new Map();
  for (const move of [...view.moves, ...(view.hint ? [view.hint] : [])]) {
    moves.set(move, mover(move, view.state));
  }
  let from = view.state;
  for (const move of view.sequence || []) {
    moves.set(move, mover(move, from));
    known.set(move.state, follow(from, namesOf(from), move.state) || cellsOf(move.state));
    from = move.state;
  }

  const letters = names;
  const selected = chosenIn === view.state ? chosen : null;
  const area = grid(board, 4, SIZE);
  const redraw = () => draw(board, view, ui);
  [...letters].forEach((letter, index) => {
    const shape = shapeOf(letters, index);
    const square = cell({
      row: Math.floor(index / 4), col: index % 4, text: letter === "-" ? "" : letter,
      size: SIZE, background: SHAPE_COLOURS[shape],
      label: letter === "-" ? `cell ${index + 1}, empty` : `cell ${index + 1}, block ${letter}`,
      onClick: () => {
        if (letter !== "-") {
          [chosen, chosenIn] = selected === letter ? [null, null] : [letter, view.state];
          redraw();
          return;
        }
        if (selected === null) { ui.illegal("Tap a block first, then the empty cell."); return; }
        // the shortest of the chosen block's moves that brings it into this cell
        const into = view.moves.filter((m) => moves.get(m) === selected
          && cellsOf(m.state)[index] !== "-")
          .sort((a, b) => a.label.length - b.label.length);
        chosen = chosenIn = null;
        if (into.length) { ui.play(into[0]); return; }
        redraw();
        ui.illegal(`Block ${selected} cannot move into that cell: it slides along empty `
          + "cells only.");
      },
    });
    if (selected !== null && letter === selected) {
      square.classList.add("selected");
      square.setAttribute("aria-pressed", "true");
    }
    // a move belongs to the cells of the block it moves; the block's first cell (in
    // reading order) carries its badges, one a block
    decorate(square, view, (m) => letter !== "-" && moves.get(m) === letter,
             { badges: letters.indexOf(letter) === index });
    area.appendChild(square);
  });
}
