// The 2x2x2 cube on the web page (the shell's renderer contract: query/static/app.js):
// the cube's net, and a button per turn.
import { describeTurn, moveButtons, net, netAndTurns } from "/static/board.js";

const COLOURS = { U: "#ffffff", R: "#d55e00", F: "#009e73", D: "#f0e442", L: "#e69f00",
  B: "#0072b2" };
const FACES = "URFDLB";
const NET = { U: [0, 2], L: [2, 0], F: [2, 2], R: [2, 4], B: [2, 6], D: [4, 2] };
const STICKER = 30;

export const title = "2x2x2 cube";
export const rules = "Turn the faces until each face is one colour. The cube is held with "
  + "its down-back-left corner fixed, so only the up (U), right (R) and front (F) faces "
  + "turn: X is a quarter turn clockwise as you face it, X' anticlockwise, X2 a half turn. "
  + "Half-turn metric: every turn is one move; quarter-turn metric: X2 is not offered.";

export function settings() {
  return [
    { name: "metric", label: "Metric", choices: [["half", "half turns"],
      ["quarter", "quarter turns"]] },
    { name: "start", label: "Scramble", choices: [["BBUF.DURU.LLFF.LDDF.DBLU.RRRB", "easy"],
      ["UULF.UBDD.URLB.FRDR.BFLD.LRFB", "medium"],
      ["RUBU.RRUB.DFFL.DFDL.DRLL.BFUB", "hardest (11 half turns)"]] },
  ];
}

export async function newGame(settings) {
  return { state: settings.start || "BBUF.DURU.LLFF.LDDF.DBLU.RRRB", target: "solved",
           options: { metric: settings.metric || "half" } };
}

export const describe = describeTurn;

const turnButtons = moveButtons({ label: "turns", describe, width: 64, height: 48 });

export function draw(board, view, ui) {
  const faces = view.state.split(".");
  netAndTurns(board, net(faces, { names: FACES.split(""), at: NET, side: 2, size: STICKER,
                                  colours: COLOURS, label: "the cube's net" }),
              turnButtons(view, ui, (count) => Math.max(1, count / 3)));
}
