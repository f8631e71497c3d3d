// Spot Colour discs on the web page (the shell's renderer contract: query/static/app.js).
// Not a walk: the player places the seven discs, checks the contacts, or asks for the
// solutions; the shell shows its move controls only for walkable puzzles.
import { piece, sentence, textOn } from "/static/board.js";

const COLOURS = { k: ["#000000", "black"], b: ["#0072b2", "blue"], g: ["#009e73", "green"],
                  r: ["#d55e00", "red"], w: ["#ffffff", "white"], y: ["#f0e442", "yellow"] };

export const standalone = true;
export const title = "Spot Colour discs";
export const rules = "Seven discs each show six coloured spots in a clockwise order. Put "
  + "one disc in the centre and the other six around it, one at each of the centre's "
  + "spots, each turning the spot of that colour to the centre. Neighbouring satellites "
  + "touch too, and touching spots must match. Choose the discs, then Check; Show the "
  + "solutions tells whether any exists. The picture shows the discs as placed: each satellite "
  + "turned as the rules turn it, the number in a disc's middle.";

export function settings() {
  return [{ name: "set", label: "Disc set", choices: [["random", "random (solvable)"],
    ["any", "random (maybe none)"], ["1", "the document's set 1"], ["2", "the document's set 2"]] }];
}

export async function newGame(settings, api) {
  const choice = settings.set || "random";
  const params = ["1", "2"].includes(choice) ? { number: choice } : { solvable: choice === "random" };
  const dealt = await api("/api/spots/deal", params);
  return { state: dealt.discs, target: "", options: {} };
}

function spot(letter) {
  const chip = piece("spot", COLOURS[letter][0], letter.toUpperCase());
  chip.title = COLOURS[letter][1];
  return chip;
}

// ---- the discs as placed: the centre, and a satellite at each of its spots ------------
const SVG = "http://www.w3.org/2000/svg";
const DISC = 50, SPOT_RING = 31, SPOT = 12;  // px: a disc's radius, its spots' circle and size

function svg(name, attributes, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  parent.appendChild(element);
  return element;
}

function drawDisc(picture, number, letters, x, y, facing) {
  // disc ``number`` at (x, y), its spots clockwise, the first at angle ``facing``
  // (degrees clockwise from pointing right)
  const disc = svg("g", { class: "placed-disc" }, picture);
  svg("circle", { cx: x, cy: y, r: DISC, fill: "#dddddd", stroke: "#333" }, disc);
  [...letters].forEach((letter, index) => {
    const angle = ((facing + 60 * index) * Math.PI) / 180;
    const [sx, sy] = [x + SPOT_RING * Math.cos(angle), y + SPOT_RING * Math.sin(angle)];
    svg("circle", { class: "placed-spot", cx: sx, cy: sy, r: SPOT, fill: COLOURS[letter][0],
                    stroke: "#333" }, disc);
    svg("text", { x: sx, y: sy, "text-anchor": "middle", "dominant-baseline": "central",
                  "font-size": 14, "font-weight": 700, fill: textOn(COLOURS[letter][0]) },
        disc).textContent = letter.toUpperCase();
  });
  svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central",
                "font-size": 16, "font-weight": 700, fill: "#1d1d1d" }, disc)
    .textContent = String(number);
}

function placedPicture(discs, centre, satellites) {
  // the centre's spot k (clockwise from the top) faces the satellite at spot k, which
  // turns its own spot of that colour to the centre, as the rules place them
  const middle = 3 * DISC + 4;
  const picture = document.createElementNS(SVG, "svg");
  picture.setAttribute("viewBox", `0 0 ${2 * middle} ${2 * middle}`);
  picture.setAttribute("width", String(2 * middle));
  picture.setAttribute("height", String(2 * middle));
  picture.setAttribute("class", "placed");
  picture.setAttribute("role", "img");
  const around = discs[centre - 1];
  picture.setAttribute("aria-label", `The discs as placed: disc ${centre} in the centre; `
    + satellites.map((disc, k) => `disc ${disc} at its ${COLOURS[around[k]][1]} spot`)
      .join(", "));
  drawDisc(picture, centre, around, middle, middle, -90);
  satellites.forEach((disc, k) => {
    const towards = -90 + 60 * k;  // from the centre to this satellite
    const angle = (towards * Math.PI) / 180;
    const letters = discs[disc - 1];
    const touching = letters.indexOf(around[k]);
    // its spot ``touching`` points back to the centre; the others follow clockwise
    drawDisc(picture, disc, letters, middle + 2 * DISC * Math.cos(angle),
             middle + 2 * DISC * Math.sin(angle), towards + 180 - 60 * Math.max(0, touching));
  });
  return picture;
}

export function mount(board, game, ui, api) {
  const discs = game.state.split(".");
  board.innerHTML = "";
  const list = document.createElement("div");
  list.className = "discs";
  discs.forEach((disc, index) => {
    const row = document.createElement("div");
    row.className = "disc-row";
    row.setAttribute("role", "group");  // a named group: a plain paragraph takes no name
    row.setAttribute("aria-label", `disc ${index + 1}: ${[...disc].map((l) => COLOURS[l][1]).join(", ")} clockwise`);
    row.append(`Disc ${index + 1} `);
    for (const letter of disc) row.appendChild(spot(letter));
    list.appendChild(row);
  });
  board.appendChild(list);

  const form = document.createElement("div");
  form.className = "controls placement";
  const choose = (id, text) => {
    const label = document.createElement("label");
    label.textContent = text + " ";
    const select = document.createElement("select");
    select.id = id;
    for (let d = 1; d <= 7; d++) {
      const option = document.createElement("option");
      option.value = d; option.textContent = `disc ${d}`;
      select.appendChild(option);
    }
    label.appendChild(select);
    form.appendChild(label);
    return select;
  };
  const centre = choose("spots-centre", "Centre");
  const satellites = [];
  const shown = document.createElement("div");  // the picture of the discs as placed
  const labelSpots = () => {
    const around = discs[Number(centre.value) - 1];
    satellites.forEach((select, k) => {
      select.parentElement.firstChild.textContent = `At centre spot ${k + 1} (${COLOURS[around[k]][1]}) `;
    });
    shown.replaceChildren(placedPicture(discs, Number(centre.value),
                                        satellites.map((select) => Number(select.value))));
  };
  for (let k = 0; k < 6; k++) satellites.push(choose(`spots-at-${k + 1}`, `At centre spot ${k + 1}`));
  const place = (middle, around) => {
    centre.value = middle;
    around.forEach((d, k) => { satellites[k].value = d; });
    labelSpots();
  };
  // the discs placed are kept in the URL ("centre,spot 1,...,spot 6"): a reload or a
  // shared link shows them placed
  const keep = () => ui.keep([centre, ...satellites].map((select) => select.value).join(","));
  for (const select of [centre, ...satellites]) {
    select.onchange = () => { labelSpots(); keep(); };
  }
  const kept = (game.context || "").split(",").map(Number);
  if (kept.length === 7 && kept.every((d) => d >= 1 && d <= 7)) place(kept[0], kept.slice(1));
  else place(1, [2, 3, 4, 5, 6, 7]);
  board.appendChild(shown);
  board.appendChild(form);

  const buttons = document.createElement("div");
  buttons.className = "controls";
  const button = (text, action) => {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    element.onclick = () => action().catch((error) => ui.illegal(sentence(error.message)));
    buttons.appendChild(element);
    return element;
  };
  button("Check", async () => {
    const found = await api("/api/spots/check", { discs: game.state, centre: centre.value,
      satellites: satellites.map((s) => s.value).join(",") });
    const wrong = found.contacts.flatMap((ok, k) => (ok ? [] : [`${k + 1}–${(k + 1) % 6 + 1}`]));
    if (found.solved) ui.say("Solved: every touching pair of spots matches.", "success");
    else ui.say(`Not yet: the satellites at spots ${wrong.join(", ")} do not match.`, "warning");
  }).id = "spots-check";
  button("Show the solutions", async () => {
    const found = await api("/api/spots/solve", { discs: game.state });
    if (!found.solutions.length) { ui.say("This set has no solution at all.", "warning"); return; }
    const first = found.solutions[0];
    place(first.centre, first.satellites);
    keep();
    ui.say(`${found.solutions.length} solution${found.solutions.length > 1 ? "s" : ""}; the `
      + `first is placed: disc ${first.centre} in the centre.`, "success");
  }).id = "spots-solve";
  board.appendChild(buttons);
}
