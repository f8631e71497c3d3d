// The generic board: every walkable puzzle without a renderer of its own (a puzzle file,
// a plug-in that ships none) is played on it.  One module serves them all, so it exports
// forPuzzle(info), the renderer (the shell's contract: query/static/app.js) of the puzzle
// /api/puzzles describes as info.
//
// The position is drawn as its notation reads: rows split at '.', each letter a cell of
// its own colour (the same colour for the same letter in every puzzle, and the letter on
// it), a digit or another sign a plain cell with its text, a separator ('-', '_', '|',
// ',', ';', ':', '/', a space) an empty place in the row.  Each legal move the server
// lists is a button named by its label.
import { boardWidth, moveButtons, textOn } from "/static/board.js";

const SEPARATORS = new Set(["-", "_", "|", ",", ";", ":", "/", " "]);

// a colour per capital letter: a colour's initial gets that colour (W white, Y yellow, R
// red, O orange, G green, B blue: how sticker puzzles are written), the Okabe-Ito palette
// first; a small letter is its capital's colour lightened, a sign is plain
const LETTER_COLOURS = {
  A: "#a6d854", B: "#0072b2", C: "#56b4e9", D: "#8c564b", E: "#fb9a99", F: "#7570b3",
  G: "#009e73", H: "#c5b0d5", I: "#bcbd22", J: "#17becf", K: "#000000", L: "#aec7e8",
  M: "#e377c2", N: "#7f7f7f", O: "#e69f00", P: "#cc79a7", Q: "#9edae5", R: "#d55e00",
  S: "#c49c94", T: "#2ca02c", U: "#9467bd", V: "#6a3d9a", W: "#ffffff", X: "#dbdb8d",
  Y: "#f0e442", Z: "#ffbb78",
};
const PLAIN = "#eeeeee";
const GAP = 3;
const MOST_SCRAMBLE_STEPS = 40;  // a deal's moves towards its distance, past the random ones

function lightened(colour) {
  // halfway to white
  const channels = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return "#" + channels.map((c) => Math.round((c + 255) / 2).toString(16).padStart(2, "0"))
    .join("");
}

export function colourOf(sign) {
  const capital = sign.toUpperCase();
  if (!(capital in LETTER_COLOURS)) return PLAIN;
  return sign === capital ? LETTER_COLOURS[capital] : lightened(LETTER_COLOURS[capital]);
}

function drawPosition(board, state) {
  const rows = state.split(".");
  const columns = Math.max(1, ...rows.map((row) => row.length));
  const size = Math.max(16, Math.min(44, Math.floor(
    (boardWidth(board) - GAP * (columns - 1)) / columns)));
  const drawn = document.createElement("div");
  drawn.className = "notation-board";
  drawn.style.display = "grid";
  drawn.style.gap = `${GAP}px`;
  drawn.style.gridTemplateColumns = `repeat(${columns}, ${size}px)`;
  drawn.style.gridAutoRows = `${size}px`;
  drawn.style.marginBottom = "12px";
  drawn.setAttribute("role", "img");
  drawn.setAttribute("aria-label", "the position: " + rows.map((row, r) =>
    `row ${r + 1}: ${[...row].map((sign) => (SEPARATORS.has(sign) ? "gap" : sign)).join(" ")}`)
    .join("; "));
  rows.forEach((row, r) => {
    [...row].forEach((sign, c) => {
      const place = document.createElement("span");
      place.style.gridRow = String(r + 1);
      place.style.gridColumn = String(c + 1);
      if (!SEPARATORS.has(sign)) {
        const colour = colourOf(sign);
        place.className = "sticker";
        place.textContent = sign;
        place.style.background = colour;
        place.style.color = textOn(colour);
        place.style.fontWeight = "700";
        place.style.fontSize = `${Math.max(11, Math.round(size * 0.45))}px`;
      }
      drawn.appendChild(place);
    });
  });
  board.appendChild(drawn);
}

export function forPuzzle(info) {
  const [example, exampleTarget] = info.example;
  const unit = info.unit || "moves";
  const describe = (label) => `move ${label}`;
  let buttons = null;  // made once the labels are known: their width fits the longest
  let width = 56;

  async function away(far, api) {
    // a position about ``far`` moves from the target: from the example, ``far`` random
    // moves (every deal another), then moves that lead farther or nearer until it is
    // ``far`` away (or as far as the puzzle goes)
    const ask = (state, context) => api(`/api/play/${info.name}/position`,
                                        { state, context, target: exampleTarget, values: true });
    const pick = (moves) => moves[Math.floor(Math.random() * moves.length)];
    let here = await ask(example, "");
    for (let step = 0; step < far + MOST_SCRAMBLE_STEPS; step++) {
      const known = here.moves.filter((move) => move.distance !== null);
      if (here.distance === null || !known.length) break;
      let chosen;
      if (step < far) {
        chosen = pick(known);
      } else {
        if (here.distance === far) break;
        const toward = known.filter((move) => (here.distance < far
          ? move.distance > here.distance : move.distance < here.distance));
        if (!toward.length) break;
        chosen = pick(toward);
      }
      here = await ask(chosen.state, chosen.context);
    }
    return { state: here.state, context: here.context };
  }

  return {
    title: info.summary.split(/[:(]/)[0].trim() || info.name,
    rules: `${info.summary}. The board is the position's notation: rows split at '.', each `
      + "letter a cell of its own colour. Each button under the board makes the move it "
      + `names; reach the target (${exampleTarget}) in the fewest ${unit}.`,

    settings() {
      return [
        { name: "start", label: "Start", choices: [
          ["5", `5 ${unit} away`], ["10", `10 ${unit} away`], ["example", "the example"],
          ["custom", "a position of my own"]] },
        { name: "position", label: "Position", type: "text", placeholder: example,
          size: Math.min(40, example.length + 2), shownWhen: { start: "custom" } },
      ];
    },

    async newGame(settings, api) {
      const start = settings.start || "5";
      if (start === "example") return { state: example, target: exampleTarget, options: {} };
      if (start === "custom") {
        return { state: (settings.position || "").trim() || example, target: exampleTarget,
                 options: {} };
      }
      return { ...(await away(Number(start), api)), target: exampleTarget, options: {} };
    },

    describe,

    draw(board, view, ui) {
      board.innerHTML = "";
      drawPosition(board, view.state);
      if (!buttons && !view.pending && view.moves.length) {
        const longest = Math.max(...view.moves.map((move) => move.label.length));
        width = Math.max(56, Math.min(220, 20 + 11 * longest));
        buttons = moveButtons({ label: "moves", describe, height: 48, width });
      }
      if (!buttons) return;
      board.appendChild(buttons(view, ui, (count) => Math.max(1, Math.min(count,
        Math.floor((boardWidth(board) + 6) / (width + 6))))));
    },
  };
}
