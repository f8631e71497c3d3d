// Lucas' inverted pieces on the web page (the shell's renderer contract: query/static/app.js).
import { boardWidth, cell, decorate, grid, TAP } from "/static/board.js";

const COLOURS = { A: "#e69f00", B: "#0072b2", _: "#ffffff" };

export const title = "Lucas' inverted pieces";
export const rules = "Swap the A's and the B's across the one gap. A piece slides into "
  + "the gap next to it, or jumps over one piece of the other colour into the gap behind "
  + "it (never over its own colour). Either way: any piece moves in both directions; "
  + "forward only: A's move right and B's left. Click a piece to move it into the gap. "
  + "A hatched piece cannot move now: click it to read which rule stops it.";

function whyNot(cells, index, variant) {
  // the rule a piece that cannot move breaks, in words
  const piece = cells[index];
  const gap = cells.indexOf("_");
  const away = Math.abs(index - gap);
  if (away > 2) {
    return `it is ${away - 1} pieces from the gap: a piece moves into the gap next to it, `
      + "or jumps one piece into it";
  }
  const forward = piece === "A" ? gap > index : gap < index;
  if (variant === "forward" && !forward) {
    return `forward only: ${piece === "A" ? "A's move right" : "B's move left"}`;
  }
  if (away === 2 && cells[(index + gap) / 2] === piece) {
    return `a piece never jumps over its own colour (${piece} over ${piece})`;
  }
  return "no move";
}

export function settings() {
  return [
    { name: "n", label: "Pieces of each kind", choices: [["3", "3"], ["2", "2"], ["4", "4"],
      ["5", "5"], ["6", "6"]] },
    { name: "variant", label: "Rule", choices: [["either way", "either way"],
      ["forward", "forward only"]] },
  ];
}

export async function newGame(settings) {
  const n = Number(settings.n || 3);
  return { state: "A".repeat(n) + "_" + "B".repeat(n), target: "B".repeat(n) + "_" + "A".repeat(n),
           options: { variant: settings.variant || "either way" } };
}

export function describe(label) {
  const [piece, kind] = label.split(" ");
  return `${piece} ${kind}s into the gap`;
}

function cellsPerLine(count, most) {
  // a row of ``count`` cells run on in lines of at most ``most``: never broken beside its
  // middle cell (the gap at the start), which would read as the row's end
  if (count <= most) return count;
  const middle = Math.floor(count / 2);
  for (let perLine = most; perLine >= 3; perLine--) {
    const at = middle % perLine;
    if (at !== 0 && at !== perLine - 1) return perLine;
  }
  return most;
}

export function draw(board, view, ui) {
  const cells = view.state;
  // the row fits the board's width (a phone's too) with cells a finger can tap: where it
  // cannot, it runs on in further lines, as text does
  const spacing = 6, width = boardWidth(board);
  const perLine = Math.max(1, cellsPerLine(cells.length,
                                           Math.floor((width + spacing) / (TAP + spacing))));
  const size = Math.min(52, Math.floor((width - spacing * (perLine - 1)) / perLine));
  const area = grid(board, perLine, size, spacing);
  area.style.rowGap = "16px";  // room for the marks of the line below
  const gap = cells.indexOf("_");
  [...cells].forEach((piece, index) => {
    // the move of this piece is the one that leaves the gap where the piece was
    const move = view.moves.find((m) => m.state.indexOf("_") === index);
    const square = cell({
      row: Math.floor(index / perLine), col: index % perLine, text: piece === "_" ? "" : piece,
      background: COLOURS[piece],
      size,
      label: piece === "_" ? `cell ${index + 1}, the gap` : `cell ${index + 1}, piece ${piece}`
        + (move || view.pending ? "" : ", cannot move"),
      onClick: () => {
        if (move) ui.play(move);
        else ui.illegal(piece === "_" ? "Click a piece, not the gap."
          : `That ${piece} cannot move: ${whyNot(cells, index,
            (view.settings && view.settings.variant) || "either way")}.`);
      },
    });
    if (!move && index !== gap && !view.pending) square.classList.add("forbidden");
    // a move belongs to the cell its piece leaves: the gap after it
    decorate(square, view, (m) => m.state.indexOf("_") === index);
    area.appendChild(square);
  });
}
