// Drawing helpers every renderer may use (the shell's styles in index.html go with them):
// cells as focusable buttons on a grid, text colours with enough contrast, and the
// marks the shell asks for (a hint, move values, a numbered optimal sequence).

export function textOn(background) {
  // the WCAG relative luminance: black or white text, whichever contrasts more
  const [r, g, b] = [1, 3, 5].map((i) => {
    const channel = parseInt(background.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}

// the least width and height of anything a player taps: a finger's size
export const TAP = 44;

export function boardWidth(board) {
  // the width a board's pieces may fill: a phone's screen less the margins (the board
  // never scrolls sideways)
  const style = getComputedStyle(board);
  return board.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

export function fitted(board, count, { largest = 56, gap = 6 } = {}) {
  // the size of ``count`` cells side by side that fills at most the board's width, never
  // under a finger's size
  const room = Math.floor((boardWidth(board) - gap * (count - 1)) / count);
  return Math.max(TAP, Math.min(largest, room));
}

export function grid(board, columns, size = 56, gap = 6) {
  board.innerHTML = "";
  const area = document.createElement("div");
  area.className = "grid";
  area.setAttribute("role", "group");
  area.style.gridTemplateColumns = `repeat(${columns}, ${size}px)`;
  area.style.gap = `${gap}px`;
  board.appendChild(area);
  return area;
}

export function cell({ row, col, text, background = "#ffffff", label, onClick, size = 56 }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cell";
  button.dataset.row = row;
  button.dataset.col = col;
  button.style.width = button.style.height = `${size}px`;
  button.style.background = background;
  button.style.color = textOn(background);
  const face = document.createElement("span");
  face.className = "face";  // drawn above a mark on the cell (the hatching of .forbidden)
  face.textContent = text;
  button.appendChild(face);
  button.setAttribute("aria-label", label);
  if (onClick) button.onclick = onClick;
  return button;
}

export function stacks(board, className) {
  // the area a row of stacks (tubes, pegs) is drawn in
  board.innerHTML = "";
  const area = document.createElement("div");
  area.className = className;
  area.setAttribute("role", "group");
  return area;
}

export function stack({ col, className, selected, height, name }) {
  // one place pieces stack in from the bottom (a tube, a peg): a focusable button with its
  // name at the foot; add the pieces with piece(), the bottom one first
  const element = document.createElement("button");
  element.type = "button";
  element.className = className + (selected ? " selected" : "");
  element.dataset.row = 0;
  element.dataset.col = col;
  element.style.height = `${height}px`;
  element.setAttribute("aria-pressed", String(selected));
  const foot = document.createElement("span");
  foot.className = "tube-number";
  foot.textContent = name;
  element.appendChild(foot);
  return element;
}

export function piece(className, background, text) {
  // a ball or a disc: its colour, and its letter or number in a contrasting colour
  const shape = document.createElement("span");
  shape.className = className;
  shape.style.background = background;
  shape.style.color = textOn(background);
  shape.textContent = text;
  return shape;
}

export function badge(element, text, kind) {
  const mark = document.createElement("span");
  mark.className = "badge " + kind;
  mark.textContent = text;
  element.appendChild(mark);
}

export const moveKey = (move) => `${move.state}\n${move.context}`;

export function sentence(text) {
  // a server's one-line message as the page says it: the server's are a command line's
  // (they start in lower case), the page's are sentences
  const words = String(text || "").trim();
  if (!words) return words;
  const opened = words[0].toUpperCase() + words.slice(1);
  return /[.!?…]$/.test(opened) ? opened : `${opened}.`;
}

export function keepsOptimum(view, after) {
  // a move keeps the optimum when it leaves one move fewer than the position needs; at
  // the target none does (every move leads away); without the position's distance, the
  // best of the moves valued
  if (after === null || after === undefined) return false;
  if (typeof view.distance === "number") return after === view.distance - 1;
  return after === Math.min(...[...view.values.values()].filter((v) => v !== null));
}

export function decorate(element, view, belongs, { badges = true } = {}) {
  // the shell's marks on an element: belongs(move) says whether a move (one of view.moves,
  // the hinted move, a step of the optimal sequence) is this element's.  An element with
  // several moves (a block that slides one or two cells, a peg with two jumps) shows its
  // best one's value.  badges: false marks the element (outline, words) without badges,
  // for the other cells of a piece whose first cell carries them (one badge a piece).
  const words = [];
  if (view.hint && belongs(view.hint)) {
    element.classList.add("hinted");
    if (badges) badge(element, "hint", "hint");
    words.push("hinted");
  }
  const mine = view.values ? view.moves.filter((move) => belongs(move)
                                               && view.values.has(moveKey(move))) : [];
  if (mine.length) {
    const reached = mine.map((move) => view.values.get(moveKey(move))).filter((v) => v !== null);
    const after = reached.length ? Math.min(...reached) : null;
    const keeps = keepsOptimum(view, after);
    if (badges) {
      badge(element, after === null ? "✗ never" : `${keeps ? "✓" : "✗"} ${after}`,
            keeps ? "good" : "bad");
    }
    const its = mine.length > 1 ? `its best of ${mine.length} moves: ` : "";
    words.push(after === null ? `${its}never reaches the target`
      : `${its}${after} after it${keeps ? ", optimal" : ""}`);
  }
  if (view.sequence) {
    const steps = view.sequence.flatMap((move, i) => (belongs(move) ? [i + 1] : []));
    if (steps.length) {
      // the next step that moves it only (a list of every step would run over the
      // neighbours' marks); the words say them all
      if (badges) badge(element, String(steps[0]), "step");
      words.push(`step ${steps.join(" and ")} of the optimal sequence`);
    }
  }
  if (words.length) {
    element.setAttribute("aria-label", `${element.getAttribute("aria-label")}: ${words.join("; ")}`);
  }
}

export function findMove(view, label) {
  return view.moves.find((move) => move.label === label);
}

export function fromTo() {
  // a move made by choosing one place, then another (a tube, then the tube to move to);
  // a choice lasts only as long as the position it was made in
  let chosen = null;
  let chosenIn = null;
  return {
    chosen: (view) => (chosenIn === view.state ? chosen : null),
    click(place, view, redraw, complete) {
      const first = chosenIn === view.state ? chosen : null;
      chosen = null;
      if (first === null) { chosen = place; chosenIn = view.state; redraw(); return; }
      if (first === place) { redraw(); return; }
      complete(first, place);
    },
  };
}

export function note(board, text) {
  // a line of words under the board (a hint, a sequence, move values)
  const paragraph = document.createElement("p");
  paragraph.className = "hint-note";
  paragraph.textContent = text;
  board.appendChild(paragraph);
}

const FACE_GAP = 6;  // px between two faces of a net, more than between stickers

export function net(faces, { names, at, side, size, colours, label = "the net" }) {
  // square faces of side x side stickers laid out flat on a grid (a net): ``faces`` are
  // the faces' stickers in the order of ``names``, ``at[name]`` a face's top-left
  // [row, column] in stickers; each sticker shows its letter on its colour, and the
  // whole is one image named ``label`` face by face.  A track of FACE_GAP px follows
  // each face's stickers, so that the faces stand apart
  const drawn = document.createElement("div");
  drawn.className = "cube-net";
  drawn.setAttribute("role", "img");
  drawn.setAttribute("aria-label", `${label}: ` + names.map(
    (name, i) => `${name} face ${faces[i].split("").join(" ")}`).join("; "));
  const extent = (axis) => Math.max(...names.map((name) => at[name][axis])) / side + 1;
  const tracks = (count) => Array(count).fill(`repeat(${side}, ${size}px)`)
    .join(` ${FACE_GAP}px `);
  drawn.style.gridTemplateColumns = tracks(extent(1));
  drawn.style.gridTemplateRows = tracks(extent(0));
  // sticker n of a line of faces: its track, past the spacers of the faces before it
  const track = (n) => n + Math.floor(n / side) + 1;
  names.forEach((name, f) => {
    const [row, col] = at[name];
    [...faces[f]].forEach((colour, i) => {
      const sticker = document.createElement("span");
      sticker.className = "sticker";
      sticker.textContent = colour;
      sticker.style.background = colours[colour];
      sticker.style.color = textOn(colours[colour]);
      sticker.style.gridRow = String(track(row + Math.floor(i / side)));
      sticker.style.gridColumn = String(track(col + (i % side)));
      drawn.appendChild(sticker);
    });
  });
  return drawn;
}

export function netAndTurns(board, drawnNet, turns) {
  // a cube's net and its turn buttons: side by side where the screen is wide enough
  // (every turn in the first screen of a desktop), the buttons under the net on a phone
  board.innerHTML = "";
  const layout = document.createElement("div");
  layout.className = "net-and-turns";
  layout.append(drawnNet, turns);
  board.appendChild(layout);
}

export function moveButtons({ label, describe, width, height }) {
  // a button per move offered, ``columns(count)`` to a row, named by ``describe``: while
  // a position's answer is pending the moves of the one before are drawn again, so the
  // buttons stay where they were (the moves offered are the same in every position)
  let labels = [];
  return (view, ui, columns) => {
    const offered = view.pending ? labels.map((move) => ({ label: move })) : view.moves;
    if (!view.pending) labels = view.moves.map((move) => move.label);
    const perRow = columns(offered.length);
    const buttons = document.createElement("div");
    buttons.className = "grid";
    buttons.setAttribute("role", "group");
    buttons.setAttribute("aria-label", label);
    buttons.style.gridTemplateColumns = `repeat(${perRow}, ${width}px)`;
    offered.forEach((move, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cell";
      button.dataset.row = Math.floor(index / perRow);
      button.dataset.col = index % perRow;
      button.style.width = `${width}px`;
      button.style.height = `${height}px`;
      button.textContent = move.label;
      button.setAttribute("aria-label", describe(move.label));
      button.onclick = () => ui.play(move);
      decorate(button, view, (m) => m.label === move.label);
      buttons.appendChild(button);
    });
    return buttons;
  };
}

const TURN_WAYS = { "": "clockwise", "'": "anticlockwise", 2: "a half turn" };

export function describeTurn(label) {
  // a turn in Singmaster's notation in words: "R'" is "turn R anticlockwise"
  return `turn ${label[0]} ${TURN_WAYS[label.slice(1)]}`;
}
