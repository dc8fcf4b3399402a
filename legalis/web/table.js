// The legalis table: a page over the generic HTTP API (/v1/{game}/...). It holds
// the states it has seen so that Undo needs no server memory; every rule answer
// (which moves, whether one is legal, what a bot plays, what a deck's findings
// are) comes from the server.
"use strict";

const API = "/v1";
const PAGE = 50; // moves fetched per page of a group
const FILTER_EACH = 400; // moves of each group looked through for a filter
const HUMAN = "human";
const CHANCE = "chance";

const table = {
  games: {}, // name -> GET /v1/games entry
  game: null, // the entry of the game played
  seats: {}, // seat -> kind
  seed: 1,
  current: null, // the last StateResponse
  opening: [], // the chance moves before the first decision
  history: [], // {by, move, description, before}
  running: false,
  picked: null, // the move chosen in the list: {move, description}
  listing: 0, // the latest listing of the moves: an older one's answers are dropped
  loggable: false, // the moves from the opening are known (not after loading a state)
};

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") made.textContent = value;
    else if (key.startsWith("on")) made.addEventListener(key.slice(2), value);
    else made.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) made.append(child);
  return made;
}

function words(name) {
  return String(name).replaceAll("_", " ");
}

// ------------------------------------------------------------------ the server

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function call(path, body) {
  const response = await fetch(API + path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer = null;
  try {
    answer = await response.json();
  } catch (_) {
    answer = null;
  }
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

function showError(error) {
  const box = $("error");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  const body = error.body || {};
  const parts = [error.message];
  if (body.path) parts.push(`at ${body.path}`);
  if (body.rule) parts.push(`rule ${body.rule}`);
  if (body.allowed) parts.push(`allowed: ${body.allowed.slice(0, 12).join(", ")}`);
  box.textContent = parts.join(" · ");
  box.hidden = false;
}

async function guarded(work) {
  try {
    showError(null);
    return await work();
  } catch (error) {
    showError(error);
    return undefined;
  }
}

// ------------------------------------------------------------------ setting up

function optionOf(game, name) {
  return game.options.find((option) => option.name === name);
}

function fillSetup() {
  const game = table.games[$("game").value];
  const scenario = optionOf(game, "scenario");
  const scenarioSelect = $("scenario");
  scenarioSelect.replaceChildren();
  $("scenario-field").hidden = !(scenario && scenario.allowed);
  if (scenario && scenario.allowed) {
    for (const value of scenario.allowed) {
      scenarioSelect.append(element("option", { value, selected: value === scenario.default, text: value }));
    }
  }
  const seats = $("seats");
  seats.replaceChildren(element("legend", { text: "Seats" }));
  game.players.forEach((seat, index) => {
    const select = element("select", { "data-seat": seat, id: `seat-${seat}` });
    for (const kind of game.seat_kinds) {
      select.append(element("option", { value: kind, text: kind, selected: kind === (index === 0 ? HUMAN : botKind(game)) }));
    }
    seats.append(element("label", {}, `${words(seat)} `, select));
  });
  const layers = $("layer");
  layers.replaceChildren(...game.layers.map((layer) => element("option", { value: layer, text: words(layer) })));
  $("layer-field").hidden = game.layers.length === 0;
  const options = $("options");
  options.replaceChildren();
  for (const option of game.options) {
    if (option.name === "scenario" || option.name === "nonplayers" || !option.allowed) continue;
    const select = element("select", { "data-option": option.name, title: option.help });
    for (const value of option.allowed) {
      const shown = JSON.stringify(value);
      select.append(element("option", { value: shown, text: value === null ? "none" : String(value), selected: shown === JSON.stringify(option.default) }));
    }
    options.append(element("label", { title: `${option.help} (${option.rule})` }, `${words(option.name)} `, select));
  }
  $("options-box").hidden = options.children.length === 0;
}

function botKind(game) {
  return game.seat_kinds.find((kind) => kind === "nonplayer") || game.seat_kinds.find((kind) => kind !== HUMAN);
}

function chosenOptions(game) {
  const options = {};
  if (!$("scenario-field").hidden) options.scenario = $("scenario").value;
  for (const select of document.querySelectorAll("#options select")) {
    const value = JSON.parse(select.value);
    const option = optionOf(game, select.dataset.option);
    if (JSON.stringify(value) !== JSON.stringify(option.default)) options[select.dataset.option] = value;
  }
  if (optionOf(game, "nonplayers")) {
    options.nonplayers = game.players.filter((seat) => table.seats[seat] === "nonplayer");
  }
  return options;
}

function readSeats(game) {
  table.seats = {};
  for (const seat of game.players) table.seats[seat] = $(`seat-${seat}`).value;
}

async function newGame() {
  stopRunning();
  const game = table.games[$("game").value];
  readSeats(game);
  table.game = game;
  table.seed = Number($("seed").value) || 0;
  const answer = await guarded(() => call(`/${game.name}/new`, { options: chosenOptions(game), seed: table.seed }));
  if (!answer) return;
  table.opening = answer.opening.map((move) => ({ by: CHANCE, move }));
  table.loggable = true;
  table.history = [];
  await show(answer);
  await botsIfTheirTurn();
}

// ------------------------------------------------------------------ showing a state

function viewer() {
  const humans = table.game.players.filter((seat) => table.seats[seat] === HUMAN);
  if (humans.length === 1) return humans[0];
  const toMove = table.current && table.current.to_move;
  return humans.includes(toMove) ? toMove : null;
}

function whoMoves(answer) {
  if (answer.is_over) return "The game is over.";
  if (answer.to_move === CHANCE) return "Chance moves next.";
  const kind = table.seats[answer.to_move] || HUMAN;
  return kind === HUMAN ? `Your move, ${words(answer.to_move)}.` : `${words(answer.to_move)} (${kind}) moves next.`;
}

function resultWords(result) {
  if (!result) return "";
  const winner = result.winner ? `${words(result.winner)} win` : "no one wins";
  return ` Result: ${winner} (${words(result.condition)}).`;
}

async function show(answer, { drawBoard = true } = {}) {
  table.current = answer;
  table.picked = null;
  $("chosen").replaceChildren();
  const summary = answer.summary || {};
  const card = summary.card && summary.card.title ? ` Card ${summary.card.number} ${summary.card.title}.` : "";
  const heading = (summary.scenario ? ` Scenario ${summary.scenario}.` : "") + card;
  $("status").textContent = `${table.game.title}.${heading} ${whoMoves(answer)}${resultWords(answer.result)}`;
  document.body.dataset.game = table.game.name;
  document.body.dataset.toMove = answer.to_move;
  document.body.dataset.over = String(answer.is_over);
  renderHistory();
  updateControls();
  if (drawBoard) await drawState();
  await listMoves();
}

async function drawState() {
  const asked = table.current;
  const body = { state: asked.state, viewer: viewer() };
  if (table.game.layers.length > 0) body.layer = $("layer").value;
  const answer = await guarded(() => call(`/${table.game.name}/board`, body));
  // An answer that arrives after the table has moved on is dropped.
  if (!answer || table.current !== asked) return;
  placeBoard($("board"), answer, (place) => {
    $("filter").value = place.name;
    listMoves();
  });
  $("words").textContent = answer.words.join("\n");
}

function placeBoard(figure, answer, onPick) {
  figure.innerHTML = answer.svg;
  const svg = figure.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const byId = Object.fromEntries(answer.places.map((place) => [place.id, place]));
  for (const space of svg.querySelectorAll(".space")) {
    const place = byId[space.dataset.space];
    if (!place) continue;
    space.setAttribute("tabindex", "0");
    space.setAttribute("role", "button");
    const pick = () => {
      for (const other of svg.querySelectorAll(".space.picked")) other.classList.remove("picked");
      space.classList.add("picked");
      $("place").textContent = place.words;
      if (onPick) onPick(place);
    };
    space.addEventListener("click", pick);
    space.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick();
      }
    });
  }
  figure.dataset.drawn = String(Date.now());
}

function renderHistory() {
  const list = $("history");
  const said = (entry) => (entry.description.startsWith(`${entry.by}:`) ? entry.description : `${words(entry.by)}: ${entry.description}`);
  list.replaceChildren(...table.history.map((entry) => element("li", { text: said(entry) })));
  list.scrollTop = list.scrollHeight;
}

function updateControls() {
  const on = Boolean(table.current);
  const over = on && table.current.is_over;
  $("bot-step").disabled = !on || over || table.running;
  $("bot-run").disabled = !on || over || table.running;
  $("stop").disabled = !table.running;
  $("undo").disabled = !on || table.history.length === 0 || table.running;
  $("save-log").disabled = !on || !table.loggable;
  $("save-state").disabled = !on;
  $("check-move").disabled = !on || over;
  $("apply-move").disabled = !on || over;
}

// ------------------------------------------------------------------ the moves

async function movesPage(offset, limit, groups = false) {
  return call(`/${table.game.name}/moves`, { state: table.current.state, offset, limit, groups });
}

async function listMoves() {
  const mine = ++table.listing;
  const list = $("groups");
  list.replaceChildren();
  $("filter-note").textContent = "";
  if (!table.current || table.current.is_over) {
    $("move-count").textContent = table.current ? "(none: the game is over)" : "";
    return;
  }
  const filter = $("filter").value.trim().toLowerCase();
  let first;
  try {
    showError(null);
    first = await movesPage(0, PAGE, true);
  } catch (error) {
    if (mine !== table.listing) return;
    showError(error);
    if (error.status === 503) {
      $("filter-note").textContent = "The moves could not be listed in time: a bot can move for you (b), or check a move of your own below.";
    }
    return;
  }
  if (mine !== table.listing) return;
  $("move-count").textContent = `(${first.count} at this decision, ${words(first.to_move)} to move)`;
  if (filter) {
    await listFiltered(first, filter, mine);
    return;
  }
  for (const group of first.groups) {
    const moves = element("ol", { class: "moves", hidden: true, start: group.offset === null ? null : group.offset + 1 });
    const counted = group.count === null ? "too many to count" : String(group.count);
    const header = element("button", { class: "group", type: "button", "aria-expanded": "false", "data-group": group.group },
      element("span", { text: group.group }), element("span", { class: "count", text: counted }));
    const item = element("li", {}, header, moves);
    header.addEventListener("click", () => toggleGroup(group, header, moves));
    list.append(item);
  }
  if (first.groups.length === 1) list.querySelector("button.group").click();
}

async function toggleGroup(group, header, moves) {
  const open = header.getAttribute("aria-expanded") === "true";
  header.setAttribute("aria-expanded", String(!open));
  moves.hidden = open;
  if (!open && moves.children.length === 0) await loadMore(group, moves, group.offset);
}

async function loadMore(group, moves, from) {
  if (from === null) return;
  const end = group.count === null ? from + PAGE : group.offset + group.count;
  const page = await guarded(() => movesPage(from, Math.min(PAGE, end - from)));
  if (!page) return;
  const stale = moves.querySelector("button.more");
  if (stale) stale.parentElement.remove();
  for (const listed of page.moves) moves.append(moveItem(listed));
  const next = from + page.moves.length;
  if (next < end && page.moves.length > 0) {
    const more = element("button", { class: "more", type: "button", text: `more (${end - next} left)` });
    more.addEventListener("click", () => loadMore(group, moves, next));
    moves.append(element("li", {}, more));
  }
}

function moveItem(listed) {
  const button = element("button", { class: "move", type: "button", "aria-pressed": "false", text: listed.description });
  button.addEventListener("click", () => pickMove(listed, button));
  button.addEventListener("dblclick", () => applyMove(listed.move));
  return element("li", {}, button);
}

// A filter looks through the first moves of each group (so a click on a space
// finds that space's Rallies as well as its Marches), at most FILTER_EACH of each.
async function listFiltered(first, filter, mine) {
  const list = $("groups");
  const found = element("ol", { class: "moves" });
  list.append(element("li", {}, element("button", { class: "group", type: "button", "aria-expanded": "true", text: `Moves mentioning “${filter}”` }), found));
  let seen = 0;
  let matched = 0;
  let partly = false;
  for (const group of first.groups) {
    if (group.offset === null) {
      partly = true;
      continue;
    }
    const end = group.offset + Math.min(group.count === null ? FILTER_EACH : group.count, FILTER_EACH);
    partly = partly || group.count === null || group.count > FILTER_EACH;
    for (let from = group.offset; from < end; from += 100) {
      const page = await guarded(() => movesPage(from, Math.min(100, end - from)));
      if (mine !== table.listing) return;
      if (!page || page.moves.length === 0) break;
      for (const listed of page.moves) {
        const haystack = `${listed.description} ${listed.group} ${JSON.stringify(listed.move)}`.toLowerCase();
        if (haystack.includes(filter)) {
          found.append(moveItem(listed));
          matched += 1;
        }
      }
      seen += page.moves.length;
    }
  }
  const looked = partly ? ` among ${seen} of the ${first.count} (the first ${FILTER_EACH} of each group)` : "";
  $("filter-note").textContent = `${matched} moves mention “${filter}”${looked}.`;
}

async function pickMove(listed, button) {
  for (const other of document.querySelectorAll("button.move[aria-pressed='true']")) other.setAttribute("aria-pressed", "false");
  if (button) button.setAttribute("aria-pressed", "true");
  table.picked = listed;
  $("move-json").value = JSON.stringify(listed.move);
  await showVerdict(listed.move);
}

async function showVerdict(move) {
  const asked = table.current;
  const verdict = await guarded(() => call(`/${table.game.name}/check`, { state: asked.state, move }));
  if (table.current !== asked) return;
  const chosen = $("chosen");
  if (!verdict) {
    chosen.replaceChildren();
    return;
  }
  const mark = verdict.legal
    ? element("span", { class: "legal", text: "Legal. " })
    : element("span", { class: "refused", text: "Refused. " });
  const why = element("span", { class: "reason", text: `${verdict.reason}${verdict.rule ? ` (rule ${verdict.rule})` : ""}` });
  const parts = [element("p", { class: "verdict" }, mark, element("span", { text: verdict.description + ": " }), why)];
  if (verdict.legal) {
    const apply = element("button", { id: "apply-picked", type: "button", text: "Apply this move (Enter)" });
    apply.addEventListener("click", () => applyMove(verdict.move));
    parts.push(apply);
  }
  chosen.replaceChildren(...parts);
  chosen.dataset.legal = String(verdict.legal);
}

async function applyMove(move) {
  const before = table.current;
  const answer = await guarded(() => call(`/${table.game.name}/apply`, { state: before.state, move }));
  if (!answer || table.current !== before) return;
  table.history.push({ by: before.to_move, move: answer.move, description: answer.description, before });
  $("filter").value = "";
  await show(answer);
  await botsIfTheirTurn();
}

async function ownMove(apply) {
  let move;
  try {
    move = JSON.parse($("move-json").value);
  } catch (error) {
    showError(new Error(`not JSON: ${error.message}`));
    return;
  }
  if (apply) await applyMove(move);
  else await showVerdict(move);
}

// ------------------------------------------------------------------ bots

function seatKindFor(toMove) {
  if (toMove === CHANCE) return "random"; // the server draws chance's move by the seed
  const kind = table.seats[toMove];
  return kind && kind !== HUMAN ? kind : botKind(table.game) === "nonplayer" && !nonplayer(toMove) ? "random" : botKind(table.game);
}

function nonplayer(seat) {
  const given = table.current.state.options && table.current.state.options.nonplayers;
  return Array.isArray(given) ? given.includes(seat) : true;
}

async function botStep({ drawBoard = true } = {}) {
  const before = table.current;
  if (!before || before.is_over) return false;
  const seed = table.seed * 100003 + table.history.length;
  const answer = await guarded(() => call(`/${table.game.name}/bot-move`, { state: before.state, seat: seatKindFor(before.to_move), seed }));
  if (!answer || table.current !== before) return false;
  table.history.push({ by: answer.by, move: answer.move, description: answer.description, before });
  await show(answer, { drawBoard });
  return true;
}

function isBotTurn() {
  const now = table.current;
  if (!now || now.is_over) return false;
  return now.to_move === CHANCE || (table.seats[now.to_move] || HUMAN) !== HUMAN;
}

function hasHuman() {
  return table.game.players.some((seat) => table.seats[seat] === HUMAN);
}

// Bots move until a person's seat is to move or the game ends; the first move is
// made even at a person's turn (pressing the button asks a bot to move for them).
async function runBots() {
  if (table.running) return;
  table.running = true;
  updateControls();
  let steps = 0;
  try {
    while (table.running && table.current && !table.current.is_over) {
      if (steps > 0 && !isBotTurn()) break;
      steps += 1;
      // Redraw the board every few moves while bots play: the list and words follow each one.
      if (!(await botStep({ drawBoard: steps % 5 === 0 }))) break;
    }
  } finally {
    table.running = false;
    updateControls();
    if (steps > 0 && steps % 5 !== 0) await drawState();
  }
}

// After a person's move, the bots' seats answer on their own; with no person
// seated, the bots wait for the buttons.
async function botsIfTheirTurn() {
  if (hasHuman() && isBotTurn()) await runBots();
}

function stopRunning() {
  table.running = false;
  updateControls();
}

async function undo() {
  if (table.history.length === 0) return;
  // Back to the last decision a person made (or the start): bots' moves after it go
  // too. With no person seated, one move back.
  let entry = table.history.pop();
  while (hasHuman() && table.history.length > 0 && (entry.by === CHANCE || (table.seats[entry.by] || HUMAN) !== HUMAN)) {
    entry = table.history.pop();
  }
  await show(entry.before);
}

// ------------------------------------------------------------------ saving and loading

function download(name, text, type) {
  const link = element("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

function logText() {
  const state = table.current.state;
  const moves = [
    ...table.opening,
    ...table.history.map((entry) => ({ by: entry.by, move: entry.move })),
  ];
  const lines = [{ type: "header", version: 1, game: table.game.name, seed: table.seed, options: state.options || {}, players: table.seats }];
  moves.forEach((entry, index) => lines.push({ type: "move", index, by: entry.by, move: entry.move }));
  if (table.current.is_over) lines.push({ type: "result", result: table.current.result, turns: 0, decisions: table.history.length });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

async function loadFile(file) {
  const text = await file.text();
  let document_ = null;
  try {
    document_ = JSON.parse(text);
  } catch (_) {
    document_ = null; // not one JSON document: a log of JSON lines
  }
  if (document_ && document_.type === "header") document_ = null; // a log of one line
  const game = document_ ? document_.game : guessLogGame(text);
  if (!table.games[game] || (!document_ && !logLines(text))) {
    showError(new Error(`${file.name}: not a state or a log of a game served here`));
    return;
  }
  $("game").value = game;
  fillSetup();
  const logged = document_ ? null : logLines(text);
  seatFrom(table.games[game], logged ? logged[0].players : {}, (logged ? logged[0].options : document_.options) || {});
  table.game = table.games[game];
  readSeats(table.game);
  stopRunning();
  const answer = document_
    ? await guarded(() => call(`/${game}/validate`, { state: document_ }))
    : await guarded(() => call(`/${game}/replay`, { log: text }));
  if (!answer) return;
  // A log's moves lead to its state: a log saved later starts with them. A state's
  // past is unknown, so no log can be saved after loading one.
  table.opening = logged ? logged.filter((line) => line.type === "move").map(({ by, move }) => ({ by, move })) : [];
  table.loggable = Boolean(logged);
  if (logged) table.seed = logged[0].seed;
  table.history = [];
  await show(answer);
}

// The set-up shows a loaded file's seats (a log's header names them) and scenario;
// a seat the game's options give the Non-player rules is a nonplayer seat.
function seatFrom(game, players, options) {
  const nonplayers = Array.isArray(options.nonplayers) ? options.nonplayers : [];
  for (const seat of game.players) {
    const kind = players[seat] || (nonplayers.includes(seat) ? "nonplayer" : null);
    if (kind && game.seat_kinds.includes(kind)) $(`seat-${seat}`).value = kind;
  }
  if (options.scenario && !$("scenario-field").hidden) $("scenario").value = options.scenario;
}

function logLines(text) {
  try {
    return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  } catch (_) {
    return null;
  }
}

function guessLogGame(text) {
  try {
    const header = JSON.parse(text.split("\n", 1)[0]);
    return header.type === "header" ? header.game : null;
  } catch (_) {
    return null;
  }
}

// ------------------------------------------------------------------ checking a deck

async function verifyDeck(bundled) {
  const game = $("verify-game").value;
  const body = { strict: $("strict").checked };
  if (!bundled) {
    const text = $("deck-text").value;
    if (!text.trim()) {
      showError(new Error("paste or upload a deck first (or check the bundled data)"));
      return;
    }
    body.text = text;
  }
  $("verify-status").textContent = "Checking…";
  $("findings").replaceChildren();
  $("witness").replaceChildren();
  const report = await guarded(() => call(`/${game}/verify`, body));
  if (!report) {
    $("verify-status").textContent = "The deck could not be read: see the error above.";
    return;
  }
  const findings = report.findings;
  const errors = findings.filter((finding) => finding.severity === "error").length;
  $("verify-status").textContent = `${findings.length} findings (${errors} errors, ${findings.length - errors} others): ${report.ok ? "no error" : "errors found"}.`;
  const byCard = new Map();
  for (const finding of findings) {
    const key = finding.card !== undefined && finding.card !== null ? `Card ${finding.card}` : finding.subject || "The rules";
    if (!byCard.has(key)) byCard.set(key, []);
    byCard.get(key).push(finding);
  }
  for (const [card, found] of byCard) {
    const list = element("ul", {});
    for (const finding of found) list.append(findingItem(game, finding));
    $("findings").append(element("section", { class: "card-findings" }, element("h3", { text: `${card} (${found.length})` }), list));
  }
}

function findingItem(game, finding) {
  const item = element("li", { class: `finding ${finding.severity}`, "data-code": finding.code },
    element("strong", { text: `${finding.severity}: ` }), element("span", { class: "code", text: finding.code }),
    element("p", { text: finding.message }),
    element("p", { text: `Rule ${finding.rule}; ${finding.subject}${finding.side ? `, ${finding.side}` : ""}` }));
  if (finding.witness) {
    const show = element("button", { type: "button", class: "witness", text: "Draw the witness state" });
    show.addEventListener("click", () => drawWitness(game, finding, item));
    item.append(show);
  } else if (finding.proof) {
    item.append(element("p", { text: `Proof: ${finding.proof}` }));
  }
  return item;
}

async function drawWitness(game, finding, item) {
  const caption = `Witness of ${finding.code}: ${finding.subject}`;
  try {
    showError(null);
    const answer = await call(`/${game}/board`, { witness: finding.witness, caption });
    placeBoard($("witness"), answer, null);
    $("verify-status").textContent = caption;
  } catch (error) {
    // A proof's witness is values, not a board: show them as they are.
    const values = element("pre", { text: JSON.stringify(finding.witness, null, 2) });
    item.append(values);
    $("witness").replaceChildren(element("p", { text: `${caption}: values, shown beside the finding.` }));
  }
}

// ------------------------------------------------------------------ the page

function selectTab(which) {
  for (const name of ["play", "verify"]) {
    const on = name === which;
    $(`tab-${name}`).setAttribute("aria-selected", String(on));
    $(`tab-${name}`).tabIndex = on ? 0 : -1;
    $(`${name}-panel`).hidden = !on;
  }
}

function inField(event) {
  const tag = event.target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || inField(event)) return;
  const keys = {
    n: () => newGame(),
    b: () => !$("bot-step").disabled && botStep(),
    p: () => !$("bot-run").disabled && runBots(),
    s: () => stopRunning(),
    u: () => !$("undo").disabled && undo(),
    "/": () => $("filter").focus(),
    "?": () => $("words").focus(),
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  } else if (event.key === "Enter" && table.picked && $("chosen").dataset.legal === "true" && event.target.classList.contains("move")) {
    event.preventDefault();
    applyMove(table.picked.move);
  }
}

async function start() {
  const listing = await guarded(() => call("/games"));
  if (!listing) return;
  for (const game of listing.games) table.games[game.name] = game;
  const names = Object.keys(table.games).sort();
  for (const name of names) $("game").append(element("option", { value: name, text: table.games[name].title }));
  for (const name of names.filter((name) => table.games[name].supports.includes("verify"))) {
    $("verify-game").append(element("option", { value: name, text: table.games[name].title }));
  }
  const asked = new URLSearchParams(window.location.search).get("game");
  if (asked && table.games[asked]) $("game").value = asked;
  fillSetup();
  $("game").addEventListener("change", fillSetup);
  $("layer").addEventListener("change", () => table.current && table.game.name === $("game").value && drawState());
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  $("bot-step").addEventListener("click", () => botStep());
  $("bot-run").addEventListener("click", () => runBots());
  $("stop").addEventListener("click", stopRunning);
  $("undo").addEventListener("click", undo);
  $("save-log").addEventListener("click", () => download(`${table.game.name}-log.jsonl`, logText(), "application/x-ndjson"));
  $("save-state").addEventListener("click", () => download(`${table.game.name}-state.json`, JSON.stringify(table.current.state, null, 1), "application/json"));
  $("load-file").addEventListener("change", (event) => event.target.files[0] && loadFile(event.target.files[0]));
  $("check-move").addEventListener("click", () => ownMove(false));
  $("apply-move").addEventListener("click", () => ownMove(true));
  let typing = null;
  $("filter").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(listMoves, 300);
  });
  $("tab-play").addEventListener("click", () => selectTab("play"));
  $("tab-verify").addEventListener("click", () => selectTab("verify"));
  $("verify-form").addEventListener("submit", (event) => {
    event.preventDefault();
    verifyDeck(false);
  });
  $("verify-bundled").addEventListener("click", () => verifyDeck(true));
  $("deck-file").addEventListener("change", async (event) => {
    if (event.target.files[0]) $("deck-text").value = await event.target.files[0].text();
  });
  document.addEventListener("keydown", onKey);
  document.body.dataset.ready = "true";
}

start();
