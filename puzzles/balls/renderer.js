// Ball tubes on the web page (the shell's renderer contract: query/static/app.js).
import { decorate, findMove, fromTo, note, piece, stack, stacks } from "/static/board.js";

// Okabe–Ito's eight first (the letters r g b y o p c w keep their colours), then six
// picked so that every pair of the page's 14 stays apart (CIELAB distance at least 16)
// to normal sight and under simulated protanopia, deuteranopia and tritanopia
// (tests/test_web_app.py checks it); every ball also carries its letter.
const COLOURS = {
  r: "#d55e00", g: "#009e73", b: "#0072b2", y: "#f0e442", o: "#e69f00", p: "#cc79a7",
  c: "#56b4e9", w: "#ffffff", a: "#000000", d: "#8800ff", e: "#663311", f: "#112288",
  h: "#aaff88", i: "#554455", j: "#ddcc77", k: "#661100", l: "#cc6677", m: "#882255",
  n: "#aa4499", q: "#000000", s: "#bbbbbb", t: "#6699cc", u: "#994f00", v: "#e1be6a",
  x: "#40b0a6", z: "#5d3a9b",
};

export const title = "Ball tubes";
export const rules = "Move the top ball of a tube onto an empty tube or onto a ball of its "
  + "own colour, if the tube has room (water sort: pour every top ball of that colour that "
  + "fits, in one move). Choose a tube, then the tube to move to. Cleared: every colour "
  + "gathered in a tube of its own. Tubes are numbered from 1.";

export function settings() {
  return [
    { name: "rules", label: "Rules", choices: [["balls", "A ball a move"],
      ["water", "Water sort (pour)"]] },
    { name: "colours", label: "Colours", type: "number", min: 2, max: 14, value: 3 },
    { name: "capacity", label: "Balls per tube", type: "number", min: 2, max: 8, value: 4 },
    { name: "empty", label: "Empty tubes", type: "number", min: 1, max: 3, value: 1 },
    { name: "difficulty", label: "Moves at least", type: "number", min: 0, max: 60, value: 8 },
  ];
}

export async function newGame(settings, api) {
  const rules = settings.rules || "balls";
  const dealt = await api("/api/balls/random", {
    colours: settings.colours || 3, capacity: settings.capacity || 4,
    empty: settings.empty || 1, min_moves: settings.difficulty || 0, rules });
  return { state: dealt.state, target: "cleared", options: rules === "water" ? { rules } : {} };
}

const tube = (index) => `tube ${Number(index) + 1}`;

export function describe(label) {
  const [source, destination] = label.split(" -> ");
  return `move ${tube(source)} → ${tube(destination)}`;
}

const choice = fromTo();  // the tube chosen first

export function draw(board, view, ui) {
  const selected = choice.chosen(view);
  const tubes = view.state.split("|");
  const capacity = Math.max(4, ...tubes.map((t) => t.length));
  const area = stacks(board, "tubes");
  tubes.forEach((balls, index) => {
    const element = stack({ col: index, className: "tube", selected: index === selected,
                            height: capacity * 42 + 34, name: index + 1 });
    // the notation names a tube's balls from the top (the ball a move takes first); a
    // tube is filled from the bottom
    for (const colour of [...balls].reverse()) {
      element.appendChild(piece("ball", COLOURS[colour] || "#cccccc", colour.toUpperCase()));
    }
    const words = balls ? `holds ${[...balls].map((c) => c.toUpperCase()).join(", ")} from the top`
      : "empty";
    element.setAttribute("aria-label", `${tube(index)}, ${words}`
      + (index === selected ? ", chosen" : ""));
    if (view.hint && view.hint.label.split(" -> ").map(Number).includes(index)) {
      element.classList.add("hinted");
    }
    const redraw = () => draw(board, view, ui);
    element.onclick = () => choice.click(index, view, redraw, (from, to) => {
      const label = `${from} -> ${to}`;
      const move = findMove(view, label);
      if (move) { ui.play(move); return; }
      redraw();
      ui.illegal(`Moving ${tube(from)} → ${tube(to)} is not legal: ${tubes[from]
        ? "the tube must be empty or topped by the same colour, with room"
        : `${tube(from)} is empty`}.`);
    });
    area.appendChild(element);
  });
  board.appendChild(area);
  if (view.values) {
    // the moves themselves, valued, as a list under the tubes (the shell lists a
    // sequence)
    const list = document.createElement("ol");
    list.className = "move-list";
    for (const { label } of view.moves) {
      const item = document.createElement("li");
      item.textContent = describe(label);
      item.setAttribute("aria-label", describe(label));
      decorate(item, { ...view, sequence: null }, (m) => m.label === label);
      list.appendChild(item);
    }
    board.appendChild(list);
  }
  if (view.hint) note(board, `Hint: ${describe(view.hint.label)}`);
}
