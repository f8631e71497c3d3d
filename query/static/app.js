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
//                    {name, label, type: "text", placeholder, size}], first choice the
//                    default; shownWhen: {name: value} shows a field only while another
//                    has a value
//   newGame(s, api)  a fresh game for settings s: {state, target, options}; api(path,
//                    params) fetches JSON (throws Error(detail) on a 4xx)
//   draw(board, view, ui)   draws view = {state, context, target, moves, pending,
//                    distance, hint, values, sequence, settings} into board; a player's
//                    action calls ui.play(move) with one of view.moves, or
//                    ui.illegal(reason).  Cells a player can act on are <button>s with
//                    data-row/data-col (arrow keys move between them).  Moves are {label,
//                    state, context}: view.hint is the move to highlight, view.values a
//                    Map moveKey(move) -> distance after it, view.sequence the moves of
//                    an optimal path to number on the board (board.js's decorate() draws
//                    all three).  pending: the position is drawn at once after a move,
//                    before its answer is back: moves is empty and marks of what cannot
//                    move are left off; the shell holds a tap on the board meanwhile and
//                    makes it once the answer is back.  distance: the position's fewest
//                    moves (null while pending or never).
//   describe(label, from)  a move in words ("click square 6"); from is the position the
//                    move is made from (a renderer whose names are not the notation's
//                    needs it)
//   extra(view, api) optional: a line of puzzle facts under the board (a Promise of text)
// A module that draws several puzzles (the generic board, /static/generic.js, which
// /api/puzzles names for every walkable puzzle without a renderer of its own) exports
// forPuzzle(info) instead: the renderer of the puzzle /api/puzzles describes as info.
// A puzzle with nothing to walk (Spot Colour) exports standalone = true and
// mount(board, game, ui, api) instead of draw: the shell deals (newGame), hides its move
// controls and hands the board over; ui.say(text, kind) writes the status; ui.keep(text)
// keeps the player's work (the discs placed) in the URL, handed back as game.context.
//
// Where no table answers and the plug-in has an approximate solver (/api/puzzles'
// `approximation`: Tricolore 4x4's decomposition), the player chooses what hints come
// from: that solver (instant, not always optimal) or the exact search; the exact search
// is the default where it answered the game's start within a few seconds.
//
// A request whose answer may take a search (a position, a path, move values) names a
// `watch`; after a moment the page asks /api/searches/WATCH how far it has gone and
// shows it under the status: the bound searched, in words, and a bar of its seconds
// against the server's limit for a request's searches.
//
// Two kinds of work run asynchronously.  The position on the board (a move's answer, a
// deal) is replaced only by another position: a move, Undo, a new game, another puzzle
// (`replace()` bumps `game.place`).  Every player action first cancels the action
// running before it (a Solve, a hint's lookup): `cancel()` bumps `game.generation`.  An
// action that needs the position (Hint, Step, Solve, values, a tap) waits for its answer
// instead of acting on the one before (`ready()`), and a setting changed but not yet
// applied deals its game first.
//
// A search never holds play up.  A position's answer is its legal moves, and its fewest
// moves only where a table holds them: the board takes taps as soon as it is drawn.
// Where no table answers, the fewest moves are searched after (`seekDistance`), while the
// player plays on; any action and any other position end that search, and Stop ends
// every search running (its request aborted, the server stops it).  What a search of the
// game found (the par, an optimal path's positions, move values) is kept (`game.known`):
// a position returned to is answered by it.
//
// A puzzle whose path improves (/api/puzzles' `improves`: an instant solver and an exact
// search, the 3x3x3 cube's two-phase search and IDA*) is answered best so far where no
// table answers (`seekBest`): its instant path at once, not yet proved optimal, with both
// bounds (at most its length, at least what the pattern databases prove), then the exact
// search given the server's time, whose answer replaces it: the proved optimum, or the
// best bound reached when the server's limit ended the search.  Hint and Sequence show
// the best path so far without ending that search, and a better answer replaces what
// they show (`game.best`, `game.showing`).

import { moveKey, sentence } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SOLVE_DELAY_MS = 350;
const SLOW_SEARCH_MS = 1000;
// a search's progress is shown once its request has waited this long, then kept fresh
const WATCH_AFTER_MS = 400;
const WATCH_EVERY_MS = 400;
// hints wait for an exact search rather than take the instant approximation (where the
// plug-in has one) when the game's start was answered by search within this long
const EXACT_HINTS_MS = 3000;
// an improving puzzle's first answer: its instant path, the exact search given no nodes
// to search (the pattern databases' estimate at the start is its lower bound)
const QUICK_BUDGET = 1;
// then the exact search, as long as the server allows (it cuts this to its limit and
// answers the best path it has by then)
const IMPROVE_SECONDS = 3600;

class Cancelled extends Error {}

async function api(path, params = {}, method = "GET", { keep = false, signal = null } = {}) {
  // a request of a cancelled action or of a replaced position is dropped (the server's
  // search queue is short); ``keep``: one that outlives the player's actions (a table
  // build's progress)
  const used = keep ? undefined : signal || game.aborter.signal;
  let response;
  try {
    response = await fetch(path + "?" + new URLSearchParams(params), { method, signal: used });
  } catch (error) {
    if (used && used.aborted) throw new Cancelled();
    throw error;
  }
  let body;
  try { body = await response.json(); } catch { body = {}; }
  if (!response.ok) {
    const detail = typeof body.detail === "string" ? body.detail : response.statusText;
    const error = new Error(detail || `request failed (${response.status})`);
    error.status = response.status;
    throw error;
  }
  return body;
}

const game = {
  puzzles: [], info: null, renderer: null, settings: {}, options: {},
  state: "", context: "", target: "", history: [], made: 0, par: null,
  view: null, generation: 0, solving: false, slowSearch: false, searchSeconds: null,
  aborter: new AbortController(),
  // the position on the board: replaced by a move, Undo or a deal (see replace())
  place: 0, placeAborter: new AbortController(), loading: Promise.resolve(),
  inFlight: false, pending: false, dealing: false, taps: [], marks: {}, failures: 0,
  watching: null,  // the watch of the search request whose progress is shown
  dealt: {},  // the settings of the game on the board
  searches: 0,  // search requests running (Stop stops them)
  // the position's fewest moves searched while the player plays on: {aborter, atStart,
  // began} (see seekDistance)
  seeking: null,
  // what a search found in this game: moveKey(position) -> {distance, how} (a position
  // returned to is not searched again)
  known: new Map(),
  searchOver: false,  // searchSeconds is a search stopped unfinished (it takes longer)
  parStopped: false,  // the par's search was stopped before it answered
  guideChosen: false,  // the player chose where hints come from (the par's search does not)
  // an improving puzzle's best path so far for the position on the board: {key (its
  // moveKey), found (the path's answer), final (no better one is coming)}
  best: null,
  parBound: null,  // the start's best path not proved optimal: {most, least}
  // the remaining path of each position on an optimal path found in this game
  paths: new Map(),
  showing: null,  // what the board shows of the best path: {kind: hint|sequence, generation}
};

function cancel({ keepBest = false } = {}) {
  // ``keepBest``: an improving puzzle's search for the position's best path runs on (a
  // hint or a sequence shows its answer so far)
  game.generation += 1;
  game.aborter.abort();
  game.aborter = new AbortController();
  if (!(keepBest && game.seeking && game.seeking.best)) stopSeeking();
  game.solving = false;
  showSolving();
}

function guard(generation) {
  if (generation !== game.generation) throw new Cancelled();
}

function placeGuard(place) {
  if (place !== game.place) throw new Cancelled();
}

// ---- the position on the board ------------------------------------------------------
function replace(work) {
  // the position on the board changes (``work(place)`` fetches its answer or deals it):
  // the answer for the one before is no longer wanted, and actions wait for this one
  game.place += 1;
  game.placeAborter.abort();
  game.placeAborter = new AbortController();
  stopSeeking();
  const place = game.place;
  game.inFlight = true;
  if (game.dealing) { game.dealing = false; showSolving(); }  // a deal abandoned
  const running = (async () => {
    try {
      await work(place);
    } finally {
      if (place === game.place) game.inFlight = false;
    }
    if (place === game.place) replayTaps();
  })();
  game.loading = running.catch((error) => {
    if (!(error instanceof Cancelled)) game.failures += 1;
  });
  return running;
}

function placeApi(path, params = {}) {
  return api(path, params, "GET", { signal: game.placeAborter.signal });
}

let watches = 0;

async function searched(path, params, { signal = null } = {}) {
  // a request that may take a search, its progress shown while it runs (its bound, its
  // seconds against the server's limit), under the status; it is cancelled as any other
  // (``signal``: by its own aborter), and Stop cancels it
  const watch = `w${Date.now().toString(36)}${(watches += 1)}`;
  const request = api(path, { ...params, watch }, "GET", { signal });
  let running = true;
  game.watching = watch;
  game.searches += 1;
  showSolving();
  (async () => {
    await sleep(WATCH_AFTER_MS);
    while (running) {
      try {
        const progress = await api(`/api/searches/${watch}`, {}, "GET", { keep: true });
        if (running && game.watching === watch) showSearch(progress);
      } catch { /* not started yet, or over: the answer ends the loop */ }
      await sleep(WATCH_EVERY_MS);
    }
  })();
  try {
    return await request;
  } finally {
    running = false;
    game.searches -= 1;
    showSolving();
    if (game.watching === watch) { game.watching = null; $("search-box").hidden = true; }
  }
}

function showSearch(progress) {
  const bar = $("search-progress");
  if (progress.limit) {
    bar.max = progress.limit;
    bar.value = Math.min(progress.seconds, progress.limit);
  } else {
    bar.removeAttribute("value");
  }
  const limit = progress.limit ? ` of the server's ${seconds(progress.limit)}` : "";
  $("search-words").textContent = `Searching: ${progress.note || "starting"}; `
    + `${seconds(progress.seconds)}${limit}`;
  $("search-box").hidden = false;
}

async function settled() {
  // the position (or deal) on the board answered: a newer one started meanwhile is waited
  // for too
  for (;;) {
    const waiting = game.loading;
    await waiting;
    if (waiting === game.loading) return;
  }
}

async function ready(generation, { keepBest = false } = {}) {
  // an action acts on the position the player sees: a setting changed but not applied
  // deals its game first, and a position whose answer is not back is waited for; a deal
  // refused meanwhile ends the action, its words stay the status.  The action ends the
  // search that position started, as it ended the one before (``cancel``): its late
  // answer would say the position's words over the action's
  const failures = game.failures;
  if (settingsChanged()) {
    game.pushNext = true;
    deal().catch(failed);
  } else if (game.pending && !game.inFlight && !standalone()) {
    replace((place) => refresh(place)).catch(failed);  // its answer failed: ask again
  }
  await settled();
  guard(generation);
  if (game.failures !== failures) throw new Cancelled();
  if (!(keepBest && game.seeking && game.seeking.best)) stopSeeking();
}

function holdTaps(event) {
  // a tap on a board whose position is not answered yet is made once it is (it would
  // otherwise act on the position before); a tap during a deal is dropped, its board is
  // being replaced
  if (!(game.pending || game.dealing) || standalone() || game.replaying) return;
  const place = event.target.closest("[data-row]");
  if (!place || !$("board").contains(place)) return;
  event.stopPropagation();
  event.preventDefault();
  if (game.dealing) return;
  cancel();  // the tap is the player's latest action: a Solve stops, as on a tap now
  game.taps.push(`[data-row="${place.dataset.row}"][data-col="${place.dataset.col}"]`);
  if (!game.inFlight) replace((at) => refresh(at)).catch(failed);
}

function replayTaps() {
  game.replaying = true;
  try {
    while (game.taps.length && !game.pending) {
      const again = $("board").querySelector(game.taps.shift());
      if (again) again.click();
    }
  } finally {
    game.replaying = false;
  }
}

function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = "status " + kind;
}

function failed(error) {
  if (error instanceof Cancelled) return;
  say(sentence(error.message), "warning");
}

function unitWord(count) {
  const unit = game.info ? game.info.unit : "moves";
  return count === 1 ? unit.replace(/s$/, "") : unit;
}

function remain(count) {
  return `${count} ${unitWord(count)} ${count === 1 ? "remains" : "remain"}`;
}

function approximating() {
  return !$("guide-box").hidden && $("guide").value === "approximate";
}

function improving() {
  // hints, the par and the paths of this position come best so far (``seekBest``)
  return Boolean(game.info && game.info.improves && game.view
                 && game.view.answered_by !== "table" && !game.view.at_target);
}

function positionParams(extra = {}) {
  return { state: game.state, target: game.target, context: game.context, ...game.options, ...extra };
}

function showSolving() {
  $("solve").disabled = game.solving;
  $("stop").disabled = !game.solving && !game.dealing && !game.searches;
}

// ---- the URL holds the game, so that a position can be shared ------------------------
function saveUrl() {
  const params = new URLSearchParams({ puzzle: game.info.name, state: game.state,
                                       target: game.target });
  if (game.context) params.set("context", game.context);
  for (const [name, value] of Object.entries(game.options)) params.set("option." + name, value);
  for (const [name, value] of Object.entries(game.settings)) params.set("set." + name, value);
  const hash = "#" + params.toString();
  // a new game or another puzzle chosen on the page is a new entry of the browser's
  // history (Back returns to the game before); a move, or an address typed or returned
  // to (Back), replaces the entry
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
function draw(marks = {}) {
  const answered = game.view && !game.pending;
  const view = { state: game.state, context: game.context, target: game.target,
                 moves: answered ? game.view.moves : [], pending: !answered,
                 distance: answered ? game.view.distance : null, hint: null, values: null,
                 sequence: null, settings: game.settings, ...marks };
  game.marks = marks;  // drawn again as they are when the screen turns
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
  showSequenceWords(view);
  $("state-text").textContent = game.state;
  $("target-text").textContent = game.target;
  $("made").textContent = game.made;
}

function showSequenceWords(view) {
  // the optimal sequence in words, under the board (the board numbers it)
  const words = $("sequence-words");
  const steps = view.sequence || [];
  words.hidden = !steps.length;
  if (!steps.length) return;
  $("sequence-count").textContent = `The ${steps.length} ${unitWord(steps.length)} in words`;
  const list = $("sequence-list");
  list.innerHTML = "";
  steps.forEach((move, index) => {
    const item = document.createElement("li");
    item.textContent = game.renderer.describe(move.label,
                                              index ? steps[index - 1].state : view.state);
    list.appendChild(item);
  });
}

function showHinted() {
  // the hinted piece is on the screen (a phone shows part of a tall board): its last
  // cell, then its first
  const marked = [...$("board").querySelectorAll(".hinted")];
  for (const element of [marked[marked.length - 1], marked[0]]) {
    if (element) element.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

function showPar() {
  const par = $("par");
  if (standalone()) {
    par.textContent = "";
  } else if ((game.par === null || game.par === undefined) && game.parBound) {
    par.textContent = `Par: not ${game.parBound.final ? "" : "yet "}proved optimal `
      + `(${bounds(game.parBound.most, game.parBound.least)}).`;
  } else if (game.par === null || game.par === undefined) {
    par.textContent = game.parStopped ? "Par: not worked out (its search was stopped)."
      : game.view && game.view.answered_by !== "none"
        ? "This position can never reach the target." : "";
  } else {
    par.textContent = `Par: this game needs ${game.par} ${unitWord(game.par)}.`;
  }
}

function seconds(value) {
  return value < 0.95 ? `${Math.max(0.1, value).toFixed(1)} s` : `${Math.round(value)} s`;
}

function bounds(most, least) {
  // a path not proved optimal: its length, and the fewest moves proved (if any)
  return `at most ${most} ${unitWord(most)}`
    + (least === null || least === undefined ? "" : `, at least ${least}`);
}

function notProved(best) {
  // how a best path not proved optimal is named: while the search runs on, and after
  return `not ${best.final ? "" : "yet "}proved optimal (${bounds(best.found.length,
                                                                   best.found.lower_bound)})`;
}

function bestWords(best) {
  const found = best.found;
  if (best.final || best.stopped) {
    return `Not ${best.final ? "" : "yet "}proved optimal (${bounds(found.length,
                                                                 found.lower_bound)}): `
      + (best.final ? "the server's limit ended its search"
        : "its search was stopped; Hint searches again")
      + `; Hint, Step and Solve follow the best path found (${found.how}).`;
  }
  return `Not yet proved optimal (${bounds(found.length, found.lower_bound)}): `
    + `${found.how} answered at once; the server searches on for the optimum (play on `
    + "meanwhile; a move or Stop ends the search).";
}

function describeView(view) {
  if (view.at_target) {
    const par = game.par === null ? "" : `, optimal ${game.par}`;
    return [`Target reached: ${game.made} ${unitWord(game.made)}${par}.`,
            game.par !== null && game.made === game.par ? "success" : ""];
  }
  const each = game.searchSeconds === null ? ""
    : `, about ${seconds(game.searchSeconds)} each`;
  const hintsFrom = approximating()
    ? `hints come from ${game.info.approximation}, instant but not always optimal`
    : `hints come from an exact search${each}`;
  const best = bestOf(view);
  if (view.answered_by === "none" && best && !best.found.optimal) return [bestWords(best), ""];
  if (view.answered_by === "none") {
    if (view.buildable) {
      return [`No table for this target yet: ${hintsFrom}; build the table below for `
              + "instant exact hints.", ""];
    }
    if (game.slowSearch) {
      // positions are not searched after every move (see refresh): said in words, not
      // in the missing table's message
      const took = game.searchSeconds === null ? "takes seconds"
        : `${game.searchOver ? "ran over" : "took about"} ${seconds(game.searchSeconds)}`;
      return ["The fewest moves are not worked out after every move here: the last search "
              + `${took}; Hint, Step, Solve and Move values search for them.`, ""];
    }
    return [sentence(view.detail), ""];
  }
  if (view.distance === null) return ["This position can never reach the target.", "warning"];
  if (view.answered_by !== "search") return [`${remain(view.distance)} at best.`, ""];
  const table = view.buildable ? "; no table for this target yet" : "";
  const build = view.buildable
    ? "; build it (the button above the board) for instant exact hints" : "";
  const hints = approximating() ? hintsFrom : `hints come from it too${each}`;
  return [`${remain(view.distance)} at best, found by an exact search `
          + `(${view.how || "the puzzle's own"})${table}; ${hints}${build}.`, ""];
}

function unanswerable() {
  // a hint, a step or a sequence asked of a position with none: said here, in words
  if (game.view && game.view.at_target) { say("Already at the target."); return true; }
  if (game.view && game.view.answered_by !== "none" && game.view.distance === null) {
    say("This position can never reach the target: Undo, or deal a new game.", "warning");
    return true;
  }
  return false;
}

// ---- the game's position ------------------------------------------------------------
async function refresh(place, { atStart = false } = {}) {
  // the position's legal moves, and its fewest moves where a table holds them, at once:
  // the board takes the player's taps as soon as it is drawn.  Where no table answers,
  // the fewest moves are searched after, while the player plays on (seekDistance)
  const view = withKnown(await placeApi(`/api/play/${game.info.name}/position`,
                                        positionParams({ search: false })));
  placeGuard(place);
  if (atStart) {
    Object.assign(game, { slowSearch: false, searchSeconds: null, searchOver: false,
                          parStopped: false, parBound: null });
    game.par = view.answered_by === "none" ? null : view.distance;
    // hints from the instant approximation until the par's search shows the exact one
    // quick enough (a player's own choice stands)
    $("guide").value = "approximate";
    game.guideChosen = false;
  }
  // a position answered by a slow search: the next ones are not searched (a player
  // stepping fast would queue searches the server can only run a few at a time)
  const seek = view.answered_by === "none" && (atStart || !game.slowSearch)
    && !(game.solving && game.info.improves);  // a Solve's positions: it plays on
  show(view, place, { seeking: seek });
  if (seek && improving()) seekBest(place, atStart);
  else if (seek) seekDistance(place, atStart);
  return view;
}

function withKnown(view) {
  // a position whose fewest moves a search of this game found (the start, a position on
  // an optimal path, one returned to) is answered by what it found
  const found = view.answered_by === "none" ? game.known.get(moveKey(view)) : undefined;
  return found ? { ...view, distance: found.distance, answered_by: "search", how: found.how,
                   detail: "" } : view;
}

function learn(state, context, distance, how) {
  game.known.set(moveKey({ state, context }), { distance, how });
}

function learnPath(found, generation) {
  // an optimal path's positions, each with the moves left after it (and, for a puzzle
  // whose paths improve, the rest of the path: its hints there need no search)
  if (!found.optimal || generation !== game.generation) return;
  learn(game.state, game.context, found.length, found.how);
  found.moves.forEach((move, index) => learn(move.state, move.context,
                                             found.length - index - 1, found.how));
  if (game.info.improves) {
    [{ state: game.state, context: game.context }, ...found.moves].forEach((at, index) => {
      const moves = found.moves.slice(index);
      game.paths.set(moveKey(at), { ...found, moves, length: moves.length,
                                    lower_bound: moves.length });
    });
  }
  if (game.made === 0 && game.par === null && game.view && !game.view.at_target) {
    game.par = found.length;  // the start's path is its par
    game.parStopped = false;
    showPar();
  }
}

function show(view, place, { seeking = false, facts = true } = {}) {
  game.view = view;
  game.pending = false;
  game.state = view.state; game.context = view.context; game.target = view.target;
  game.shown = { state: game.state, target: game.target, context: game.context,
                 options: game.options, history: [...game.history], made: game.made,
                 par: game.par, parBound: game.parBound, view,
                 searchSeconds: game.searchSeconds,
                 slowSearch: game.slowSearch, guide: $("guide").value, known: game.known,
                 paths: game.paths };
  draw(seeking ? {} : game.marks);
  showPar();
  $("build").hidden = !view.buildable;
  $("guide-box").hidden = !game.info.approximation || game.info.improves
    || view.answered_by === "table";
  const [text, kind] = seeking
    ? ["Searching for the fewest moves: play on meanwhile (a move or Stop ends the search).",
       ""]
    : describeView(view);
  say(text, kind);
  saveUrl();
  if (!facts) return;
  if (game.renderer.extra) {
    game.renderer.extra(view, placeApi).then((text) => {
      if (place === game.place) $("extra").textContent = text || "";
    }).catch(() => {});
  } else {
    $("extra").textContent = "";
  }
}

function seekDistance(place, atStart) {
  // where no table answers: the position's fewest moves by the plug-in's search, while
  // the player plays on.  Any action (a tap, Hint, Stop) and any other position end it:
  // its request is aborted, and the server stops the search
  stopSeeking();
  const seeking = { aborter: new AbortController(), atStart, began: performance.now() };
  game.seeking = seeking;
  const current = () => game.seeking === seeking && place === game.place;
  searched(`/api/play/${game.info.name}/position`, positionParams({ search: true }),
           { signal: seeking.aborter.signal }).then((view) => {
    if (!current()) return;
    game.seeking = null;
    const bySearch = view.answered_by === "search";
    const took = bySearch ? searchTook(seeking) : null;
    if (bySearch && view.distance !== null) {
      learn(view.state, view.context, view.distance, view.how);
    }
    if (atStart) {
      game.par = view.answered_by === "none" ? null : view.distance;
      if (!game.guideChosen) {
        $("guide").value = bySearch && took * 1000 <= EXACT_HINTS_MS ? "exact" : "approximate";
      }
    }
    show(view, place, { facts: false });
  }).catch((error) => {
    if (!current() || error instanceof Cancelled) return;
    game.seeking = null;
    if (atStart) game.parStopped = true;
    showPar();
    say(`${sentence(error.message)} The board still takes your moves.`, "warning");
  });
}

function searchTook(seeking, { over = false } = {}) {
  // a position's search answered: how long it took, quoted to the player, and whether
  // it was slow (the next positions are then not searched: see refresh); ``over``: it
  // ran to the server's limit unproved
  const took = (performance.now() - seeking.began) / 1000;
  Object.assign(game, { searchSeconds: took, searchOver: over });
  if (took * 1000 > SLOW_SEARCH_MS) game.slowSearch = true;
  return took;
}

function bestOf(view) {
  // the best path so far of the position ``view`` shows, if one is known
  const best = game.best;
  return best && view && best.key === moveKey(view) ? best : null;
}

function seekBest(place, atStart) {
  // an improving puzzle's position where no table answers: its instant path at once,
  // then the exact search for the server's time, each answer shown as it comes; any
  // action but Hint and Sequence, and any other position, end it (its request aborted,
  // the server stops the search).  Returns the search: its ``first`` answer is awaited
  // by a hint asked meanwhile
  stopSeeking();
  const seeking = { aborter: new AbortController(), atStart, began: performance.now(),
                    best: true };
  game.seeking = seeking;
  const key = moveKey({ state: game.state, context: game.context });
  const current = () => game.seeking === seeking && place === game.place;
  const ask = (limits) => searched(`/api/play/${game.info.name}/path`,
                                   positionParams(limits), { signal: seeking.aborter.signal });
  const failed = (error) => {
    if (!current() || error instanceof Cancelled) return;
    game.seeking = null;
    if (atStart && !game.parBound) game.parStopped = true;
    showPar();
    say(`${sentence(error.message)} The board still takes your moves.`, "warning");
  };
  seeking.first = (async () => {
    const first = await ask({ budget: QUICK_BUDGET });
    if (!current()) throw new Cancelled();
    if (first.optimal) { game.seeking = null; searchTook(seeking); }  // proved at once
    bestFound(key, first, place, atStart, first.optimal);
    if (first.optimal) return first;
    ask({ seconds: IMPROVE_SECONDS }).then((better) => {
      if (!current()) return;
      game.seeking = null;
      searchTook(seeking, { over: !better.optimal });
      bestFound(key, better, place, atStart, true);
    }).catch(failed);
    return first;
  })();
  seeking.first.catch(failed);
  return seeking;
}

function bestFound(key, found, place, atStart, final) {
  // a best path of the position on the board: a proved one answers it (its par, the
  // positions on it), one not proved is shown with its bounds; a hint or a sequence on
  // the board is drawn again from it
  game.best = { key, found, final };
  let view = game.view;
  if (found.optimal) {
    learnPath(found, game.generation);
    if (atStart) { game.par = found.length; game.parBound = null; }
    view = { ...view, distance: found.length, answered_by: "search", how: found.how,
             detail: "" };
  } else if (atStart) {
    game.parBound = { most: found.length, least: found.lower_bound, final };
  }
  show(view, place, { facts: false });
  showBest();
}

async function bestPath(generation, improve = true) {
  // the best path known for the position on the board (an improving puzzle's): the rest
  // of an optimal path through it, the answer of its search, else asked now (with
  // ``improve``: the search started, to improve it while the player looks)
  const key = moveKey({ state: game.state, context: game.context });
  if (game.paths.has(key)) return game.paths.get(key);
  const best = game.best && game.best.key === key ? game.best : null;
  if (best && (best.final || (game.seeking && !best.stopped) || !improve)) return best.found;
  if (!improve) {
    const found = await searched(`/api/play/${game.info.name}/path`,
                                 positionParams({ budget: QUICK_BUDGET }));
    guard(generation);
    learnPath(found, generation);
    return found;
  }
  const seeking = game.seeking && game.seeking.best ? game.seeking
    : seekBest(game.place, false);
  const found = await seeking.first;
  guard(generation);
  return game.best && game.best.key === key ? game.best.found : found;
}

function showBest() {
  // the hint or the sequence the board shows of the best path, drawn again from the
  // latest one (nothing where the player has acted since)
  const showing = game.showing;
  const best = bestOf(game.view);
  if (!showing || showing.generation !== game.generation || !best) return;
  if (showing.kind === "hint") showHint(best.found, best);
  else showPath(best.found, best);
}

function stopSeeking() {
  // the position's search ends unanswered: a search that ran past the slow mark makes the
  // next positions unsearched, as one that answered so late would
  const seeking = game.seeking;
  if (!seeking) return;
  game.seeking = null;
  seeking.aborter.abort();
  const took = (performance.now() - seeking.began) / 1000;
  if (took * 1000 > SLOW_SEARCH_MS) {
    game.slowSearch = true;
    if (game.searchSeconds === null || took > game.searchSeconds) {
      Object.assign(game, { searchSeconds: took, searchOver: true });
    }
  }
  if (seeking.atStart && game.par === null) { game.parStopped = true; showPar(); }
  if (seeking.best && game.best && !game.best.final) game.best.stopped = true;
}

function standalone() {
  return Boolean(game.renderer && game.renderer.standalone);
}

function keep(text) {
  // a standalone puzzle's work (the discs placed) kept in the URL
  game.context = text;
  saveUrl();
}

async function start(position, place) {
  $("extra").textContent = "";  // the last puzzle's facts are not this one's
  if (standalone()) {
    Object.assign(game, { state: position.state, target: "", context: position.context || "",
                          options: {}, history: [], made: 0, par: null, view: null,
                          pending: false });
    game.renderer.mount($("board"), game, { illegal: (reason) => say(reason, "warning"),
                                            say, keep }, api);
    $("state-text").textContent = game.state;
    showPar();
    say("");
    saveUrl();
    game.dealt = { ...game.settings };
    return;
  }
  const previous = game.shown;  // the last game the board showed whole
  Object.assign(game, { state: position.state, target: position.target || "",
                        context: position.context || "", options: position.options || {},
                        history: [], made: 0, par: null, view: null, pending: true,
                        known: new Map(), paths: new Map(), best: null, parBound: null });
  $("par").textContent = "";
  say("Working out the par…");
  try {
    // the game is drawn while its par is worked out (a search may take seconds); one
    // its renderer cannot draw waits for the server's answer, which refuses it
    try { draw(); } catch { $("board").innerHTML = ""; }
    await refresh(place, { atStart: true });
    if (position.resume) {
      Object.assign(game, { history: position.resume.history, made: position.resume.made,
                            par: position.resume.par });
      draw();
      showPar();
      saveUrl();
    }
    game.dealt = { ...game.settings };
  } catch (error) {
    // a game the server refuses (a bad custom target): the one on the board stands
    if (!(error instanceof Cancelled) && place === game.place && previous) {
      Object.assign(game, previous, { history: [...previous.history], pending: false });
      game.parStopped = false;
      $("guide").value = previous.guide;
      draw();
      showPar();
      restoreSettings();
      saveUrl();
    }
    throw error;
  }
}

function playerMove(move) {
  if (!move || move.state === undefined) return;  // no move of an answered position
  if (!game.replaying) cancel();
  makeMove(move).catch(failed);
}

function makeMove(move) {
  game.history.push([game.state, game.context, game.made]);
  game.state = move.state; game.context = move.context; game.made += 1;
  return replace(async (place) => {
    game.pending = true;
    draw();
    saveUrl();  // at once: a reload before the server answers keeps this move
    await refresh(place);
  });
}

async function optimalPath(generation, { improve = false } = {}) {
  // ``improve``: an improving puzzle's best path, its search left running to better it
  if (improving()) return bestPath(generation, improve);
  const guide = approximating() ? "approximate" : "exact";
  let found;
  try {
    found = await searched(`/api/play/${game.info.name}/path`, positionParams({ guide }));
  } catch (error) {
    // the server's words for a position that can never reach the target quote its code
    if (error.status === 422) throw new Error("This position can never reach the target.");
    throw error;
  }
  guard(generation);
  learnPath(found, generation);
  return found;
}

function fromWhat(found) {
  // how a path was found, where it was not by a table walk: a search (optimal) or an
  // approximate solver (not always)
  if (!found.optimal) return ` (${found.how}: not always optimal)`;
  if (found.how === "table walk") return "";
  return /optimal/.test(found.how) ? ` (${found.how})` : ` (${found.how}: optimal)`;
}

async function hint() {
  cancel({ keepBest: true });
  const generation = game.generation;
  await ready(generation, { keepBest: true });
  if (unanswerable()) return;
  say("Looking up the best move…");
  const found = await optimalPath(generation, { improve: true });
  if (!found.moves.length) { say("Already at the target."); return; }
  game.showing = { kind: "hint", generation };
  showHint(found, bestOf(game.view));
}

function showHint(found, best) {
  // ``best``: the position's best path so far, when ``found`` is it (an improving puzzle)
  const first = found.moves[0];
  draw({ hint: first });
  const move = game.renderer.describe(first.label, game.state);
  if (best && !found.optimal) {
    say(`Hint (${found.how}), ${notProved(best)}: ${move}`
        + (best.final ? "; the server's limit ended its search."
          : best.stopped ? "." : "; the server searches on for the optimum."));
  } else {
    say(`Hint${fromWhat(found)}: ${move}; `
        + (found.optimal ? `${remain(found.length)}.`
          : `${found.length} ${unitWord(found.length)} by this route.`));
  }
  showHinted();  // once the words above the board are written: they may push it down
}

async function step() {
  cancel();
  const generation = game.generation;
  await ready(generation);
  if (unanswerable()) return;
  const found = await optimalPath(generation);
  if (!found.moves.length) { say("Already at the target."); return; }
  await makeMove(found.moves[0]);
}

async function solve() {
  cancel();
  const generation = game.generation;
  game.solving = true;
  showSolving();
  try {
    await ready(generation);
    if (game.view && game.view.at_target) return;  // its status says so already
    if (unanswerable()) return;
    const found = await optimalPath(generation);
    for (const move of found.moves) {
      draw({ hint: move });
      showHinted();
      await sleep(SOLVE_DELAY_MS);
      guard(generation);
      await makeMove(move);
      guard(generation);
    }
  } finally {
    if (generation === game.generation) { game.solving = false; showSolving(); }
  }
}

async function showValues() {
  cancel();
  const generation = game.generation;
  await ready(generation);
  say("Valuing every move…");
  const view = await searched(`/api/play/${game.info.name}/position`,
                              positionParams({ values: true, search: true }));
  guard(generation);
  if (view.answered_by === "search") {  // searched: kept for the positions they lead to
    if (view.distance !== null) learn(view.state, view.context, view.distance, view.how);
    for (const move of view.moves) {
      if (move.distance !== null) learn(move.state, move.context, move.distance, view.how);
    }
  }
  const values = new Map(view.moves.map((move) => [moveKey(move), move.distance]));
  draw({ values, distance: view.distance });
  if (view.at_target) {
    say("At the target: every move leads away from it (each is marked with the "
        + `${game.info.unit} back).`);
  } else if (view.distance === null) {
    say("No move leads to the target.");
  } else {
    say(`Moves marked ✓ keep the optimum of ${view.distance} ${unitWord(view.distance)} `
        + `(${view.distance - 1} after the move); the others cost more.`);
  }
}

async function showSequence() {
  cancel({ keepBest: true });
  const generation = game.generation;
  await ready(generation, { keepBest: true });
  if (unanswerable()) return;
  const found = await optimalPath(generation, { improve: true });
  game.showing = { kind: "sequence", generation };
  showPath(found, bestOf(game.view));
}

function showPath(found, best) {
  // ``best``: as showHint's
  draw({ sequence: found.moves });
  const more = !best || best.stopped ? ""
    : best.final ? "; the server's limit ended its search"
      : "; the server searches on for the optimum";
  const which = found.optimal
    ? `An optimal sequence${found.how === "table walk" ? "" : ` (${found.how})`} of `
      + `${found.length} ${unitWord(found.length)}`
    : best ? `A sequence (${found.how}), ${notProved(best)}`
      : `A sequence${fromWhat(found)} of ${found.length} ${unitWord(found.length)}`;
  say(found.length ? `${which}, numbered on the board and listed under it`
      + `${found.optimal ? "" : more}.` : "Already at the target.");
}

function undo() {
  cancel();
  game.taps = [];
  const previous = game.history.pop();
  if (!previous) { say("Nothing to undo."); return; }
  [game.state, game.context, game.made] = previous;
  // drawn at once, as a move is: the position's answer may take a search
  replace(async (place) => {
    game.pending = true;
    draw();
    saveUrl();
    await refresh(place);
  }).catch(failed);
}

function newGame() {
  cancel();
  return deal();
}

function deal() {
  // the game the settings ask for, dealt (a search, for some puzzles) while the one on the
  // board stands: Stop, another deal or another puzzle abandons it
  readSettings();
  game.taps = [];
  return replace(async (place) => {
    game.dealing = true;
    showSolving();
    $("par").textContent = "";
    const began = performance.now();
    say("Dealing…");
    const ticking = setInterval(() => {
      const waited = Math.round((performance.now() - began) / 1000);
      if (place === game.place) say(`Dealing… ${waited} s`);
    }, 1000);
    let fresh;
    try {
      fresh = await game.renderer.newGame({ ...game.settings }, placeApi);
    } catch (error) {
      if (place === game.place && !(error instanceof Cancelled) && game.shown) {
        refused();
        throw new Error(`${error.message} The game on the board stands.`);
      }
      throw error;
    } finally {
      clearInterval(ticking);
      if (place === game.place) { game.dealing = false; showSolving(); }
    }
    placeGuard(place);
    await start(fresh, place);
  });
}

function refused() {
  // a deal refused or abandoned: the board's game stands, and so do its settings and par
  restoreSettings();
  showPar();
}

function stop() {
  cancel();
  if (!game.dealing) { say("Stopped."); return; }
  replace(async () => {}).catch(() => {});  // the deal is abandoned
  refused();
  say("Stopped: the game on the board stands.");
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
  const fromStart = game.made === 0;
  await replace((place) => refresh(place, { atStart: fromStart }));
}

// ---- settings and puzzles -----------------------------------------------------------
function readSettings() {
  for (const field of game.renderer.settings()) {
    const input = $("setting-" + field.name);
    if (input) game.settings[field.name] = input.value;
  }
}

function settingsChanged() {
  return game.renderer.settings().some((field) => {
    const input = $("setting-" + field.name);
    return input && input.value !== String(game.settings[field.name] ?? "");
  });
}

function restoreSettings() {
  // the settings of the game on the board, shown again after a game refused; a text typed
  // stays, to be mended (the next action deals it again)
  game.settings = { ...game.dealt };
  for (const [name, value] of Object.entries(game.settings)) {
    const input = $("setting-" + name);
    if (input && input.type !== "text") input.value = value;
  }
  showApplicableSettings();
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
      if (field.size !== undefined) input.size = field.size;
      if (field.placeholder) input.placeholder = field.placeholder;
      input.value = initial[field.name] ?? (field.value ?? "");
    }
    input.id = "setting-" + field.name;
    input.name = field.name;
    input.onchange = () => {
      showApplicableSettings();
      game.pushNext = true;  // Back returns to the game before
      newGame().catch(failed);
    };
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

function showChosen(name) {
  // on a phone the list scrolls sideways: the chosen puzzle is shown in it (scrolled by
  // hand: scrollIntoView would scroll the page too)
  const list = $("puzzles");
  for (const button of list.querySelectorAll("button")) {
    const chosen = button.dataset.puzzle === name;
    button.setAttribute("aria-pressed", String(chosen));
    if (!chosen || list.scrollWidth <= list.clientWidth) continue;
    const left = button.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft) list.scrollLeft = left;
    else if (left + button.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left + button.offsetWidth - list.clientWidth;
    }
  }
}

async function choosePuzzle(name, shared = null) {
  cancel();
  $("par").textContent = "";
  const info = game.puzzles.find((p) => p.name === name);
  if (!info) throw new Error(`no puzzle ${name} on this page`);
  game.info = info;
  const module = await import(info.renderer);
  game.renderer = module.forPuzzle ? module.forPuzzle(info) : module;
  game.shown = null;  // no game of another puzzle to fall back on
  Object.assign(game, { par: null, view: null, pending: false, taps: [], dealt: {} });
  $("build-status").textContent = "";
  $("build-progress").hidden = true;
  $("build").disabled = false;
  const guide = $("guide");
  guide.innerHTML = "";
  if (info.approximation) {
    for (const [value, text] of [["exact", "exact search"],
                                 ["approximate", info.approximation]]) {
      const option = document.createElement("option");
      option.value = value; option.textContent = text;
      guide.appendChild(option);
    }
  }
  $("guide-box").hidden = true;
  $("sequence-words").hidden = true;
  showChosen(name);
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
  for (const element of document.querySelectorAll(".standalone-only")) {
    element.hidden = !standalone();
  }
  drawSettings(shared ? shared.settings : {});
  if (shared && shared.state) await replace((place) => start(shared, place));
  else await deal();
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
  if (button && !button.disabled && !button.hidden) { button.click(); event.preventDefault(); }
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
  wire("new", () => { game.pushNext = true; return newGame(); });
  wire("hint", hint); wire("step", step); wire("solve", solve);
  wire("values", showValues); wire("sequence", showSequence); wire("build", buildTable);
  $("stop").onclick = stop;
  $("undo").onclick = undo;
  $("guide").onchange = () => {
    cancel();
    game.guideChosen = true;
    if (game.view) say(describeView(game.view)[0]);
  };
  $("board").addEventListener("keydown", arrowKeys);
  $("board").addEventListener("click", holdTaps, true);
  keepBoardFocus();
  $("skip").onclick = () => {
    const first = $("board").querySelector("[data-row]");
    if (first) first.focus();
  };
  document.addEventListener("keydown", shortcut);
  let turning = null;
  window.addEventListener("resize", () => {
    // a phone turned: the board is drawn again to the new width, with its marks
    clearTimeout(turning);
    turning = setTimeout(() => { if (game.view && !standalone()) draw(game.marks); }, 150);
  });
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
