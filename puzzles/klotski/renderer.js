// Klotski (Huarong Dao) on the web page (the shell's renderer contract: query/static/app.js).
import { cell, decorate, grid } from "/static/board.js";

const SHAPE_COLOURS = { square: "#d55e00", standing: "#0072b2", lying: "#009e73",
  single: "#f0e442", hole: "#ffffff" };
const SIZE = 60;

export const title = "Klotski";
export const rules = "Slide the blocks until the big 2x2 block reaches the bottom centre, "
  + "where it can slide out. Tap a block, then the empty cell it should move into. Block "
  + "metric: one block moved any distance, round corners too, is one move; cell metric: "
  + "one block one cell.";

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

export function describe(label) {
  const [block, ...ways] = label.split(" ");
  return `move block ${block} ${ways.join(", then ")}`;
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
  const letters = view.state.replaceAll(".", "");
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
        const into = view.moves.filter((m) => m.label.split(" ")[0] === selected
          && m.state.replaceAll(".", "")[index] !== "-")
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
    decorate(square, view, (m) => letter !== "-" && m.label.split(" ")[0] === letter,
             { badges: letters.indexOf(letter) === index });
    area.appendChild(square);
  });
}
