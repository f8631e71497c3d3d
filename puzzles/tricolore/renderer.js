// Tricolore XP on the web page (the shell's renderer contract: query/static/app.js).
import { cell, decorate, findMove, grid } from "/static/board.js";

const COLOURS = { R: "#d55e00", W: "#ffffff", B: "#0072b2" };  // Okabe–Ito: safe for colour blindness
const NAMES = { R: "red", W: "white", B: "blue" };

export const title = "Tricolore XP";
export const rules = "A click advances colours R → W → B → R. A red square advances only "
  + "itself; a white square advances its neighbours only; a blue square advances itself "
  + "and its neighbours. Neighbours are the up to 8 squares around, diagonals included. The "
  + "square just clicked (hatched) may not be clicked again. Methods on 4×2: unrestricted "
  + "(any square), restricted (bottom row only), hybrid (bottom row, or a red square of "
  + "the row above); squares the method forbids are hatched too.";

export function settings() {
  return [
    { name: "size", label: "Board", choices: [["4x2", "4×2"], ["4x4", "4×4"]] },
    { name: "method", label: "Method", choices: [["unrestricted", "unrestricted"],
      ["hybrid", "hybrid"], ["restricted", "restricted"]], shownWhen: { size: "4x2" } },
    { name: "target", label: "Target", choices: [["R", "All red"], ["W", "All white"],
      ["WB", "Alternating"], ["custom", "Any board…"]] },
    { name: "custom", label: "Custom target", type: "text", placeholder: "e.g. WBWB.BWBW",
      size: 20, shownWhen: { target: "custom" } },
  ];
}

function shape(settings) {
  const [width, height] = (settings.size || "4x2").split("x").map(Number);
  return { width, height };
}

function targetBoard(settings) {
  const { width, height } = shape(settings);
  if (settings.target === "custom" && settings.custom) return settings.custom.trim().toUpperCase();
  const rows = [];
  for (let r = 0; r < height; r++) {
    let row = "";
    for (let c = 0; c < width; c++) {
      row += settings.target === "WB" ? ((r + c) % 2 ? "B" : "W")
        : settings.target === "W" ? "W" : "R";
    }
    rows.push(row);
  }
  return rows.join(".");
}

export async function newGame(settings) {
  const { width, height } = shape(settings);
  const method = height === 4 ? "unrestricted" : settings.method || "unrestricted";
  const rows = [];
  for (let r = 0; r < height; r++) {
    let row = "";
    for (let c = 0; c < width; c++) row += "RWB"[Math.floor(Math.random() * 3)];
    rows.push(row);
  }
  // the restricted methods never reach a bottom row of all blue: deal none
  if (method !== "unrestricted" && /^B+$/.test(rows[height - 1])) {
    rows[height - 1] = "R" + rows[height - 1].slice(1);
  }
  return { state: rows.join("."), target: targetBoard(settings), options: { method } };
}

export function describe(label) {
  return `click square ${Number(label) + 1}`;
}

export function draw(board, view, ui) {
  const rows = view.state.split(".");
  const width = rows[0].length;
  const area = grid(board, width);
  const squares = rows.join("");
  [...squares].forEach((colour, index) => {
    const label = String(index);
    const move = findMove(view, label);
    const number = index + 1;
    const square = cell({
      row: Math.floor(index / width), col: index % width, text: colour,
      background: COLOURS[colour] || "#cccccc",
      label: `square ${number}, ${NAMES[colour] || colour}`
        + (move || view.pending ? "" : ", cannot be clicked now"),
      onClick: () => {
        if (move) ui.play(move);
        else ui.illegal(`Square ${number} cannot be clicked: ${label === view.context
          ? "it was clicked last" : "the method forbids it here"}.`);
      },
    });
    if (!move && !view.pending) square.classList.add("forbidden");
    decorate(square, view, (m) => m.label === label);
    area.appendChild(square);
  });
  // the target as a picture beside the board
  const picture = document.createElement("div");
  picture.className = "target-picture";
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", `target: ${view.target.split(".").map((row) =>
    [...row].map((c) => NAMES[c] || c).join(" ")).join("; ")}`);
  const caption = document.createElement("span");
  caption.textContent = "Target";
  picture.appendChild(caption);
  const mini = document.createElement("div");
  mini.className = "grid";
  mini.style.gridTemplateColumns = `repeat(${width}, 22px)`;
  for (const colour of view.target.replaceAll(".", "")) {
    const small = document.createElement("span");
    small.className = "mini";
    small.style.background = COLOURS[colour] || "#cccccc";
    mini.appendChild(small);
  }
  picture.appendChild(mini);
  board.appendChild(picture);
}
