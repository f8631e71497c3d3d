// The page's game shell: it knows no puzzle.  It lists what /api/puzzles holds, loads the
// chosen puzzle's renderer (an ES module its plug-in ships, at /renderers/NAME.js) and
// plays it through the generic game API (/api/play/NAME/...): par, hints, move values,
// the numbered optimal sequence, Solve with Step and Stop, Undo, shareable URLs.
//
// A renderer module exports:
//   title            the puzzle's name on the page
//   rules            one paragraph of rules (plain text)
//   settings()       the game's choices: [{name, label, choices: [[value, text]...]} or
//                    {name, label, type: "number", min, max, value} or
//                    {name, label, type: "text", placeholder}], first choice the default;
//                    shownWhen: {name: value} shows a field only while another has a value
//   newGame(s, api)  a fresh game for settings s: {state, target, options}; api(path,
//                    params) fetches JSON (throws Error(detail) on a 4xx)
//   draw(board, view, ui)   draws view = {state, context, target, moves, hint, values,
//                    sequence, settings} into board; a player's action calls ui.play(move)
//                    with one of view.moves, or ui.illegal(reason).  Cells a player can
//                    act on are <button>s with data-row/data-col (arrow keys move
//                    between them).  Moves are {label, state, context}: view.hint is the
//                    move to highlight, view.values a Map moveKey(move) -> distance after
//                    it, view.sequence the moves of an optimal path to number on the
//                    board (board.js's decorate() draws all three).
//   describe(label)  a move in words ("click square 6")
//   extra(view, api) optional: a line of puzzle facts under the board (a Promise of text)
// A puzzle with nothing to walk (Spot Colour) exports standalone = true and
// mount(board, game, ui, api) instead of draw: the shell deals (newGame), hides its move
// controls and hands the board over; ui.say(text, kind) writes the status.
//
// Where no table answers and the plug-in has an approximate solver (/api/puzzles'
// `approximation`: Tricolore 4x4's decomposition), the player chooses what hints come
// from: that solver (instant, not always optimal) or the exact search (seconds).
//
// Every player action first cancels whatever is running (a Solve, a pending request):
// `cancel()` bumps a generation counter and every asynchronous step checks it.

import { moveKey } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SOLVE_DELAY_MS = 350;

async function api(path, params = {}, method = "GET", { keep = false } = {}) {
  // a request of a cancelled action is dropped (the server's search queue is short);
  // ``keep``: one that outlives the player's actions (a table build's progress)
  const signal = keep ? undefined : game.aborter.signal;
  let response;
  try {
    response = await fetch(path + "?" + new URLSearchParams(params), { method, signal });
  } catch (error) {
    if (signal && signal.aborted) throw new Cancelled();
    throw error;
  }
  let body;
  try { body = await response.json(); } catch { body = {}; }
  if (!response.ok) {
    const detail = typeof body.detail === "string" ? body.detail : response.statusText;
    throw new Error(detail || `request failed (${response.status})`);
  }
  return body;
}

const game = {
  puzzles: [], info: null, renderer: null, settings: {}, options: {},
  state: "", context: "", target: "", history: [], made: 0, par: null,
  view: null, generation: 0, solving: false, slowSearch: false,
  aborter: new AbortController(),
};

class Cancelled extends Error {}

function cancel() {
  game.generation += 1;
  game.aborter.abort();
  game.aborter = new AbortController();
  game.solving = false;
  showSolving();
}

function guard(generation) {
  if (generation !== game.generation) throw new Cancelled();
}

function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = "status " + kind;
}

function failed(error) {
  if (error instanceof Cancelled) return;
  say(error.message, "warning");
}

function unitWord(count) {
  const unit = game.info ? game.info.unit : "moves";
  return count === 1 ? unit.replace(/s$/, "") : unit;
}

function approximating() {
  return !$("guide-box").hidden && $("guide").value === "approximate";
}

function positionParams(extra = {}) {
  return { state: game.state, target: game.target, context: game.context, ...game.options, ...extra };
}

function showSolving() {
  $("solve").disabled = game.solving;
  $("stop").disabled = !game.solving;
}

// ---- the URL holds the game, so that a position can be shared ------------------------
function saveUrl() {
  const params = new URLSearchParams({ puzzle: game.info.name, state: game.state,
                                       target: game.target });
  if (game.context) params.set("context", game.context);
  for (const [name, value] of Object.entries(game.options)) params.set("option." + name, value);
  for (const [name, value] of Object.entries(game.settings)) params.set("set." + name, value);
  const hash = "#" + params.toString();
  // a new game or another puzzle is a new entry of the browser's history (Back returns to
  // the game before); a move replaces the entry
  if (game.pushNext && hash !== location.hash) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
  game.pushNext = false;
  remember(hash);
}

// ---- what the URL cannot hold (moves made, Undo, par) survives a reload or Back ------
const STORED = "tablebase-games";
const STORED_GAMES = 30;

function remember(hash) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORED) || "[]")
      .filter((entry) => entry.hash !== hash).slice(-(STORED_GAMES - 1));
    kept.push({ hash, history: game.history, made: game.made, par: game.par });
    sessionStorage.setItem(STORED, JSON.stringify(kept));
  } catch { /* storage off or full: a reload starts the count afresh */ }
}

function recalled(hash) {
  try {
    return JSON.parse(sessionStorage.getItem(STORED) || "[]").find((e) => e.hash === hash);
  } catch { return undefined; }
}

function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  const found = { puzzle: params.get("puzzle"), state: params.get("state"),
                  target: params.get("target") || "", context: params.get("context") || "",
                  options: {}, settings: {} };
  for (const [key, value] of params) {
    if (key.startsWith("option.")) found.options[key.slice(7)] = value;
    if (key.startsWith("set.")) found.settings[key.slice(4)] = value;
  }
  return found;
}

// ---- drawing -----------------------------------------------------------------------
function draw(extra = {}) {
  const view = { state: game.state, context: game.context, target: game.target,
                 moves: game.view ? game.view.moves : [], hint: null, values: null,
                 sequence: null, settings: game.settings, ...extra };
  // a keyboard player keeps their place on the board when it is drawn again
  const focused = document.activeElement;
  const place = focused && $("board").contains(focused) && focused.dataset.row !== undefined
    ? `[data-row="${focused.dataset.row}"][data-col="${focused.dataset.col}"]` : null;
  game.renderer.draw($("board"), view, { play: (move) => playerMove(move),
                                         illegal: (reason) => say(reason, "warning") });
  if (place) {
    const again = $("board").querySelector(place);
    if (again) again.focus();
  }
  $("state-text").textContent = game.state;
  $("target-text").textContent = game.target;
  $("made").textContent = game.made;
}

function showPar() {
  const par = $("par");
  if (game.par === null || game.par === undefined) {
    par.textContent = game.view && game.view.answered_by !== "none"
      ? "This position can never reach the target." : "";
  } else {
    par.textContent = `Par: this game needs ${game.par} ${unitWord(game.par)}.`;
  }
}

function describeView(view) {
  if (view.at_target) {
    const par = game.par === null ? "" : `, optimal ${game.par}`;
    return [`Target reached: ${game.made} ${unitWord(game.made)}${par}.`,
            game.par !== null && game.made === game.par ? "success" : ""];
  }
  const hintsFrom = approximating()
    ? `hints come from ${game.info.approximation} (instant, not always optimal)`
    : "hints search (a few seconds each)";
  if (view.answered_by === "none") {
    return [view.buildable ? `No table for this target yet: ${hintsFrom}; build the `
            + "table below for instant exact hints." : view.detail, ""];
  }
  if (view.distance === null) return ["This position can never reach the target.", "warning"];
  const searched = view.answered_by === "search" ? ` (found by search: no table for this `
    + `target yet, ${hintsFrom}${view.buildable ? "; build it (the button above the board) for instant exact hints"
      : ""})` : "";
  return [`${view.distance} ${unitWord(view.distance)} remain at best${searched}.`, ""];
}

// ---- the game's position ------------------------------------------------------------
async function refresh(generation, { atStart = false } = {}) {
  const started = performance.now();
  const search = atStart || !game.slowSearch;
  const view = await api(`/api/play/${game.info.name}/position`, positionParams({ search }));
  guard(generation);
  // a position answered by a slow search: the next ones are not searched (a player
  // stepping fast would queue searches the server can only run a few at a time)
  const slow = view.answered_by === "search" && performance.now() - started > 1000;
  if (atStart) {
    game.slowSearch = slow;
    game.par = view.distance;
  } else if (slow) {
    game.slowSearch = true;
  }
  game.view = view;
  game.state = view.state; game.context = view.context; game.target = view.target;
  game.shown = { state: game.state, target: game.target, context: game.context,
                 options: game.options, history: [...game.history], made: game.made,
                 par: game.par, view };
  draw();
  showPar();
  $("build").hidden = !view.buildable;
  $("guide-box").hidden = !game.info.approximation || view.answered_by === "table";
  const [text, kind] = describeView(view);
  say(text, kind);
  saveUrl();
  if (game.renderer.extra) {
    game.renderer.extra(view, api).then((text) => {
      if (generation === game.generation) $("extra").textContent = text || "";
    }).catch(() => {});
  } else {
    $("extra").textContent = "";
  }
  return view;
}

function standalone() {
  return Boolean(game.renderer && game.renderer.standalone);
}

async function start(position) {
  cancel();
  $("extra").textContent = "";  // the last puzzle's facts are not this one's
  if (standalone()) {
    Object.assign(game, { state: position.state, target: "", context: "", options: {},
                          history: [], made: 0, par: null, view: null });
    game.renderer.mount($("board"), game, { illegal: (reason) => say(reason, "warning"),
                                            say }, api);
    $("state-text").textContent = game.state;
    say("");
    saveUrl();
    return;
  }
  const generation = game.generation;
  const previous = game.shown;  // the last game the board showed whole
  Object.assign(game, { state: position.state, target: position.target || "",
                        context: position.context || "", options: position.options || {},
                        history: [], made: 0, par: null, view: null });
  $("par").textContent = "";
  say("Working out the par…");
  try {
    await refresh(generation, { atStart: true });
    if (position.resume) {
      Object.assign(game, { history: position.resume.history, made: position.resume.made,
                            par: position.resume.par });
      draw();
      showPar();
      saveUrl();
    }
  } catch (error) {
    // a game the server refuses (a bad custom target): the one on the board stands
    if (!(error instanceof Cancelled) && generation === game.generation && previous) {
      Object.assign(game, previous, { history: [...previous.history] });
      draw();
      showPar();
      saveUrl();
    }
    throw error;
  }
}

async function playerMove(move) {
  cancel();
  try { await makeMove(move, game.generation); } catch (error) { failed(error); }
}

async function makeMove(move, generation) {
  game.history.push([game.state, game.context, game.made]);
  game.state = move.state; game.context = move.context; game.made += 1;
  draw();
  saveUrl();  // at once: a reload before the server answers keeps this move
  await refresh(generation);
}

async function optimalPath(generation) {
  const guide = approximating() ? "approximate" : "exact";
  const found = await api(`/api/play/${game.info.name}/path`, positionParams({ guide }));
  guard(generation);
  return found;
}

function fromWhat(found) {
  return found.optimal ? "" : ` (${found.how}: not always optimal)`;
}

async function hint() {
  cancel();
  const generation = game.generation;
  say("Looking up the best move…");
  const found = await optimalPath(generation);
  if (!found.moves.length) { say("Already at the target."); return; }
  const first = found.moves[0];
  draw({ hint: first });
  say(`Hint${fromWhat(found)}: ${game.renderer.describe(first.label)}; ${found.length} `
      + `${unitWord(found.length)} ${found.optimal ? "remain" : "by this route"}.`);
}

async function step() {
  cancel();
  const generation = game.generation;
  const found = await optimalPath(generation);
  if (!found.moves.length) { say("Already at the target."); return; }
  await makeMove(found.moves[0], generation);
}

async function solve() {
  cancel();
  const generation = game.generation;
  game.solving = true;
  showSolving();
  try {
    const found = await optimalPath(generation);
    for (const move of found.moves) {
      draw({ hint: move });
      await sleep(SOLVE_DELAY_MS);
      guard(generation);
      await makeMove(move, generation);
    }
  } finally {
    if (generation === game.generation) { game.solving = false; showSolving(); }
  }
}

async function showValues() {
  cancel();
  const generation = game.generation;
  say("Valuing every move…");
  const view = await api(`/api/play/${game.info.name}/position`,
                         positionParams({ values: true, search: true }));
  guard(generation);
  const values = new Map(view.moves.map((move) => [moveKey(move), move.distance]));
  draw({ values });
  say(view.distance === null ? "No move leads to the target."
      : `Moves marked ✓ keep the optimum (${view.distance} ${unitWord(view.distance)}); `
        + "the others cost more.");
}

async function showSequence() {
  cancel();
  const generation = game.generation;
  const found = await optimalPath(generation);
  draw({ sequence: found.moves });
  const which = found.optimal ? "An optimal sequence" : `A sequence${fromWhat(found)}`;
  say(found.length ? `${which}, numbered: ${found.moves.map((m, i) => `${i + 1}. `
      + game.renderer.describe(m.label)).join("; ")}.` : "Already at the target.");
}

function undo() {
  cancel();
  const previous = game.history.pop();
  if (!previous) { say("Nothing to undo."); return; }
  [game.state, game.context, game.made] = previous;
  // drawn at once, as a move is: the position's answer may take a search
  draw();
  refresh(game.generation).catch(failed);
}

async function newGame() {
  cancel();
  game.pushNext = true;  // Back returns to the game before
  const generation = game.generation;
  readSettings();
  $("par").textContent = "";
  say("Dealing…");
  let fresh;
  try {
    fresh = await game.renderer.newGame(game.settings, api);
  } finally {
    if (generation === game.generation) showPar();  // a refused deal: the game stands
  }
  guard(generation);
  await start(fresh);
}

async function buildTable() {
  // The build goes on while the player plays on (its line and bar are its own, not the
  // status): its progress is shown until it ends, then the position is answered again.
  const puzzle = game.info.name, target = game.target;
  const job = await api(`/api/play/${puzzle}/table`,
                        { state: game.state, target, ...game.options }, "POST");
  const progress = $("build-progress"), line = $("build-status");
  const here = () => game.info.name === puzzle;  // another puzzle: its page is untouched
  progress.hidden = false;
  progress.removeAttribute("value");
  $("build").disabled = true;
  line.textContent = "Building this target's table…";
  let ended;
  try {
    for (;;) {
      await sleep(500);
      ended = await api(`/api/jobs/${job.id}`, {}, "GET", { keep: true });
      if (!here()) return;
      if (ended.state === "done" || ended.state === "failed") break;
      line.textContent = `Building this target's table: ${ended.step ? `level ${ended.step}`
        + (ended.note ? ` (${ended.note})` : "") + ", " : ""}${ended.seconds.toFixed(0)} s`;
      progress.value = ended.step;
      progress.max = Math.max(ended.step + 1, 20);  // a 4x4 target's search: about 20 levels
    }
  } finally {
    if (here()) { progress.hidden = true; $("build").disabled = false; }
  }
  if (ended.state === "failed") {
    line.textContent = `Building the table failed: ${ended.detail}`;
    return;
  }
  line.textContent = `Table built in ${ended.seconds.toFixed(0)} s: hints are exact now.`;
  if (game.target !== target) return;
  cancel();
  game.slowSearch = false;
  await refresh(game.generation, { atStart: game.made === 0 });
}

// ---- settings and puzzles -----------------------------------------------------------
function readSettings() {
  for (const field of game.renderer.settings()) {
    const input = $("setting-" + field.name);
    if (input) game.settings[field.name] = input.value;
  }
}

function drawSettings(initial) {
  const form = $("settings");
  form.innerHTML = "";
  for (const field of game.renderer.settings(game.settings)) {
    const label = document.createElement("label");
    label.textContent = field.label + " ";
    let input;
    if (field.choices) {
      input = document.createElement("select");
      for (const [value, text] of field.choices) {
        const option = document.createElement("option");
        option.value = value; option.textContent = text;
        input.appendChild(option);
      }
      input.value = initial[field.name] ?? field.choices[0][0];
    } else {
      input = document.createElement("input");
      input.type = field.type || "text";
      if (field.min !== undefined) input.min = field.min;
      if (field.max !== undefined) input.max = field.max;
      if (field.placeholder) input.placeholder = field.placeholder;
      input.value = initial[field.name] ?? (field.value ?? "");
    }
    input.id = "setting-" + field.name;
    input.name = field.name;
    input.onchange = () => { showApplicableSettings(); newGame().catch(failed); };
    if (field.shownWhen) label.dataset.shownWhen = JSON.stringify(field.shownWhen);
    label.appendChild(input);
    form.appendChild(label);
  }
  showApplicableSettings();
  readSettings();
}

function showApplicableSettings() {
  // a setting that applies only with others (shownWhen: {name: value}) is shown only then
  for (const label of document.querySelectorAll("#settings label[data-shown-when]")) {
    const when = JSON.parse(label.dataset.shownWhen);
    label.hidden = !Object.entries(when).every(
      ([name, value]) => ($("setting-" + name) || {}).value === value);
  }
}

async function choosePuzzle(name, shared = null) {
  cancel();
  $("par").textContent = "";
  const info = game.puzzles.find((p) => p.name === name);
  if (!info) throw new Error(`no puzzle ${name} on this page`);
  game.info = info;
  game.renderer = await import(info.renderer);
  game.shown = null;  // no game of another puzzle to fall back on
  $("build-status").textContent = "";
  $("build-progress").hidden = true;
  $("build").disabled = false;
  const guide = $("guide");
  guide.innerHTML = "";
  if (info.approximation) {
    for (const [value, text] of [["approximate", `${info.approximation} (instant)`],
                                 ["exact", "exact search: seconds each"]]) {
      const option = document.createElement("option");
      option.value = value; option.textContent = text;
      guide.appendChild(option);
    }
  }
  $("guide-box").hidden = true;
  for (const button of document.querySelectorAll("#puzzles button")) {
    button.setAttribute("aria-pressed", String(button.dataset.puzzle === name));
    // on a phone the list scrolls sideways: the chosen puzzle is shown in it
    if (button.dataset.puzzle === name) button.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  $("game-title").textContent = game.renderer.title;
  $("game-rules").textContent = game.renderer.rules;
  const charts = $("chart-list");
  charts.innerHTML = "";
  for (const address of info.figures) {
    const image = document.createElement("img");
    image.className = "chart";
    image.src = address;
    image.alt = `${game.renderer.title}: ${address.split("/").pop().replace(".svg", "")} chart`;
    charts.appendChild(image);
  }
  $("charts").hidden = !info.figures.length;
  game.settings = {};
  for (const element of document.querySelectorAll(".walk-only")) element.hidden = standalone();
  drawSettings(shared ? shared.settings : {});
  if (shared && shared.state) await start(shared);
  else await newGame();
}

function arrowKeys(event) {
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  const delta = moves[event.key];
  const here = document.activeElement;
  if (!delta || !here || here.dataset.row === undefined) return;
  const row = Number(here.dataset.row) + delta[0];
  const col = Number(here.dataset.col) + delta[1];
  const next = $("board").querySelector(`[data-row="${row}"][data-col="${col}"]`);
  if (next) { next.focus(); event.preventDefault(); }
}

function keepBoardFocus() {
  // a renderer redraws its board when a piece is chosen (a tube, a peg): the control the
  // keyboard player was on is drawn anew, and focus stays on its place, not on the page
  let place = null;
  const board = $("board");
  board.addEventListener("focusin", (event) => {
    const here = event.target;
    place = here.dataset.row === undefined ? null
      : `[data-row="${here.dataset.row}"][data-col="${here.dataset.col}"]`;
  });
  document.addEventListener("mousedown", (event) => {
    if (!board.contains(event.target)) place = null;
  });
  new MutationObserver(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (place && lost) {
      const again = board.querySelector(place);
      if (again) again.focus();
    }
  }).observe(board, { childList: true, subtree: true });
}

const SHORTCUTS = { h: "hint", s: "step", n: "new", u: "undo", v: "values", o: "sequence" };

function shortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) return;
  const button = SHORTCUTS[event.key] && $(SHORTCUTS[event.key]);
  if (button && !button.disabled) { button.click(); event.preventDefault(); }
}

function wire(id, action) {
  $(id).onclick = () => { action().catch(failed); };
}

async function main() {
  game.puzzles = (await api("/api/puzzles")).filter((p) => p.renderer);
  const list = $("puzzles");
  for (const info of game.puzzles) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.puzzle = info.name;
    button.textContent = info.summary.split(/[:(]/)[0].trim();
    button.title = info.summary;
    button.onclick = () => { game.pushNext = true; choosePuzzle(info.name).catch(failed); };
    list.appendChild(button);
  }
  wire("new", newGame); wire("hint", hint); wire("step", step); wire("solve", solve);
  wire("values", showValues); wire("sequence", showSequence); wire("build", buildTable);
  $("stop").onclick = () => { cancel(); say("Stopped."); };
  $("undo").onclick = undo;
  $("guide").onchange = () => { cancel(); if (game.view) say(describeView(game.view)[0]); };
  $("board").addEventListener("keydown", arrowKeys);
  keepBoardFocus();
  $("skip").onclick = () => {
    const first = $("board").querySelector("[data-row]");
    if (first) first.focus();
  };
  document.addEventListener("keydown", shortcut);
  showSolving();
  // Back and Forward, or a shared link pasted into this tab: play the game it holds
  window.addEventListener("popstate", () => openShared().catch(failed));
  await openShared();
}

async function openShared() {
  const shared = readUrl();
  shared.resume = recalled(location.hash);
  const first = game.puzzles.some((p) => p.name === shared.puzzle) ? shared.puzzle
    : game.puzzles[0].name;
  await choosePuzzle(first, shared.puzzle === first ? shared : null);
}

main().catch(failed);
