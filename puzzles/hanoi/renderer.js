// The Tower of Hanoi on the web page (the shell's renderer contract: query/static/app.js).
import { fitted, fromTo, keepsOptimum, moveKey, note, piece, stack, stacks } from "/static/board.js";

const DISC_COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00",
  "#cc79a7", "#7f7f7f", "#332288", "#88ccee", "#44aa99", "#117733"];

export const title = "Tower of Hanoi";
export const rules = "Move the whole tower to the last peg, one disc at a time, never a "
  + "larger disc on a smaller one. Choose a peg, then the peg to move its top disc to. On "
  + "4 pegs it is the Reve's puzzle.";

export function settings() {
  return [
    { name: "pegs", label: "Pegs", choices: [["3", "3"], ["4", "4"]] },
    { name: "discs", label: "Discs", choices: [["4", "4"], ["3", "3"], ["5", "5"], ["6", "6"],
      ["7", "7"], ["8", "8"]] },
  ];
}

export async function newGame(settings) {
  const pegs = Number(settings.pegs || 3), discs = Number(settings.discs || 4);
  return { state: "A".repeat(discs), target: "ABCD"[pegs - 1].repeat(discs),
           options: { variant: String(pegs) } };
}

export function describe(label) {
  const [, disc, way] = label.split(" ");
  return `move disc ${disc} from peg ${way.replace("->", " to peg ")}`;
}

const choice = fromTo();  // the peg chosen first

export function draw(board, view, ui) {
  const selected = choice.chosen(view);
  const discs = view.state.length;
  const pegs = Math.max(3, ..."ABCD".split("").filter((p) => (view.state + view.target).includes(p))
    .map((p) => "ABCD".indexOf(p) + 1));
  const area = stacks(board, "pegs");
  // the pegs side by side on any screen: a phone's narrows them and their discs
  const width = fitted(board, pegs, { largest: 110, gap: 10 });
  for (let index = 0; index < pegs; index++) {
    const peg = "ABCD"[index];
    const element = stack({ col: index, className: "peg", selected: selected === peg,
                            height: discs * 24 + 40, name: peg });
    element.style.width = `${width}px`;
    const here = [];
    for (let disc = discs - 1; disc >= 0; disc--) if (view.state[disc] === peg) here.push(disc);
    for (const disc of here) {
      const shape = piece("disc", DISC_COLOURS[disc % DISC_COLOURS.length], disc + 1);
      const share = 0.28 + (0.64 * disc) / Math.max(1, discs - 1);  // of the peg's width
      shape.style.width = `${Math.round(width * share)}px`;
      element.appendChild(shape);
    }
    element.setAttribute("aria-label", `peg ${peg}, ${here.length ? "discs "
      + here.map((d) => d + 1).join(", ") + " from the bottom" : "empty"}`);
    if (view.hint && view.hint.label.split(" ")[2].split("->").includes(peg)) {
      element.classList.add("hinted");
    }
    const redraw = () => draw(board, view, ui);
    element.onclick = () => choice.click(peg, view, redraw, (from, to) => {
      const move = view.moves.find((m) => m.label.endsWith(` ${from}->${to}`));
      if (move) { ui.play(move); return; }
      redraw();
      ui.illegal(`No disc can move from peg ${from} to peg ${to}: ${view.state.includes(from)
        ? "a larger disc may not go on a smaller one" : `peg ${from} is empty`}.`);
    });
    area.appendChild(element);
  }
  board.appendChild(area);
  if (view.hint) note(board, `Hint: ${describe(view.hint.label)}`);
  if (view.values) {
    note(board, view.moves.map((m) => {
      const after = view.values.get(moveKey(m));
      return `${describe(m.label)}: ${keepsOptimum(view, after) ? "✓" : "✗"} ${after}`;
    }).join("; "));
  }
}
