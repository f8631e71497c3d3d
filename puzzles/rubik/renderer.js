// The 3x3x3 cube on the web page (the shell's renderer contract: query/static/app.js):
// the cube's net, and a button per turn.  Each position's hints are searched (IDA* on the
// pattern databases): the scrambles offered a few turns deep are answered proved at once;
// a random one, by the two-phase path at once, not yet proved optimal, while the server
// searches on (the shell's best-so-far answers: /api/puzzles' `improves`).
import { describeTurn, moveButtons, net, netAndTurns } from "/static/board.js";

const COLOURS = { U: "#ffffff", R: "#d55e00", F: "#009e73", D: "#f0e442", L: "#e69f00",
  B: "#0072b2" };
const FACES = "URFDLB";
const NET = { U: [0, 3], L: [3, 0], F: [3, 3], R: [3, 6], B: [3, 9], D: [6, 3] };
const STICKER = 24;
const EASY = "UUUUUUURR.BBBDRRDRR.RDDRFFRFF.DLLDDBDDB.FFFLLFLLF.LLLUBBUBB";
const RANDOM = "random";
const RANDOM_TURNS = 30;  // far more than the 20 any cube needs: about any cube at all

export const title = "3x3x3 cube";
export const rules = "Turn the faces until each face is one colour. The cube is held with "
  + "U on top and F in front (the centres never move), and every face turns: X is a "
  + "quarter turn clockwise as you face it, X' anticlockwise, X2 a half turn. Half-turn "
  + "metric: every turn is one move; quarter-turn metric: X2 is not offered.";

export function settings() {
  return [
    { name: "metric", label: "Metric", choices: [["half", "half turns"],
      ["quarter", "quarter turns"]] },
    { name: "start", label: "Scramble", choices: [[EASY, "easy (3 turns)"],
      ["FLBFUDFUD.RRURRUFFR.DLBUFBULD.LDRFDRLUU.LLLBLBBDB.RBURBDFFD", "medium (6 turns)"],
      ["BLLUURUUF.RBFDRLDBB.RRDFFFRLF.UDLUDDDUD.UFFDLRBBB.UBLFBRLLR", "harder (9 turns)"],
      [RANDOM, `random (${RANDOM_TURNS} random turns)`]] },
  ];
}

function randomScramble() {
  // random turns, never the same face twice in a row
  const turns = [];
  while (turns.length < RANDOM_TURNS) {
    const face = FACES[Math.floor(Math.random() * FACES.length)];
    if (turns.length && turns[turns.length - 1][0] === face) continue;
    turns.push(face + ["", "2", "'"][Math.floor(Math.random() * 3)]);
  }
  return turns.join(" ");
}

export async function newGame(settings, api) {
  const options = { metric: settings.metric || "half" };
  if (settings.start !== RANDOM) {
    return { state: settings.start || EASY, target: "solved", options };
  }
  // the server writes the scramble as the stickers the board draws (no search: at once)
  const scrambled = await api("/api/play/rubik/position",
                              { state: randomScramble(), target: "solved", search: false,
                                ...options });
  return { state: scrambled.state, target: "solved", options };
}

export const describe = describeTurn;

const turnButtons = moveButtons({ label: "turns", describe, width: 50, height: 44 });

export function draw(board, view, ui) {
  const state = view.state === "solved" ? FACES.split("").map((f) => f.repeat(9)).join(".")
    : view.state;
  const faces = state.split(".");
  netAndTurns(board, net(faces, { names: FACES.split(""), at: NET, side: 3, size: STICKER,
                                  colours: COLOURS, label: "the cube's net" }),
              turnButtons(view, ui, (count) => Math.max(1, count / 6) * 2));
}
