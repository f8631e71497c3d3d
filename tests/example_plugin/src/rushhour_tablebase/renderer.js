// Rush Hour on the web page (the shell's renderer contract: query/static/app.js), shipped
// beside the plug-in's module like any built-in puzzle's renderer.
import { cell, decorate, grid } from "/static/board.js";

const COLOURS = { red: "#d55e00", car: "#56b4e9", truck: "#009e73", empty: "#ffffff" };
const SIZE = 56;
const CARDS = { easy: "BB---C.D--E-C.DAAE-C.D--E--.F---GG.F-HHH-",
  hard: "BCDDEF.BC--EF.BAAG-H.IIIG-H.JKKK-H.J-LLMM" };

export const title = "Rush Hour";
export const rules = "Slide the cars, each along its own row or column, until the red car "
  + "A reaches the exit on the right of the third row. Tap a car, then the empty cell it "
  + "should slide into. One car slid any number of cells is one move.";

export function settings() {
  return [{ name: "card", label: "Card", choices: [["easy", "easy"], ["hard", "hard"]] }];
}

export async function newGame(settings) {
  const card = settings.card || "easy";
  return { state: CARDS[card], target: "solved", options: { card } };
}

export function describe(label) {
  const [car, way, cells] = label.split(" ");
  return `slide car ${car} ${way} ${cells} cell${cells === "1" ? "" : "s"}`;
}

function kind(letters, letter) {
  if (letter === "-") return "empty";
  if (letter === "A") return "red";
  return [...letters].filter((l) => l === letter).length === 3 ? "truck" : "car";
}

let chosen = null, chosenIn = null;  // the car chosen first, and the position it was in

export function draw(board, view, ui) {
  const letters = view.state.replaceAll(".", "");
  const selected = chosenIn === view.state ? chosen : null;
  const area = grid(board, 6, SIZE);
  const redraw = () => draw(board, view, ui);
  [...letters].forEach((letter, index) => {
    const exit = index === 17 ? " (the exit is on its right)" : "";
    const square = cell({
      row: Math.floor(index / 6), col: index % 6, text: letter === "-" ? "" : letter,
      size: SIZE, background: COLOURS[kind(letters, letter)],
      label: `cell ${index + 1}${exit}, ${letter === "-" ? "empty" : `car ${letter}`}`,
      onClick: () => {
        if (letter !== "-") {
          [chosen, chosenIn] = selected === letter ? [null, null] : [letter, view.state];
          redraw();
          return;
        }
        if (selected === null) { ui.illegal("Tap a car first, then the empty cell."); return; }
        // the shortest slide of the chosen car that covers this cell
        const into = view.moves.filter((m) => m.label.split(" ")[0] === selected
          && m.state.replaceAll(".", "")[index] === selected)
          .sort((a, b) => Number(a.label.split(" ")[2]) - Number(b.label.split(" ")[2]));
        chosen = chosenIn = null;
        if (into.length) { ui.play(into[0]); return; }
        redraw();
        ui.illegal(`Car ${selected} cannot slide into that cell: it moves along its own `
          + "row or column, over empty cells only.");
      },
    });
    if (index === 17) square.style.borderRight = `6px solid ${COLOURS.red}`;
    if (selected !== null && letter === selected) {
      square.classList.add("selected");
      square.setAttribute("aria-pressed", "true");
    }
    // a move belongs to the cells of the car it slides; the car's first cell carries its
    // badges, one a car
    decorate(square, view, (m) => letter !== "-" && m.label.split(" ")[0] === letter,
             { badges: letters.indexOf(letter) === index });
    area.appendChild(square);
  });
}
