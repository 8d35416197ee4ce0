// activity.js: the board inside Discord (docs/activity.md). The Embedded App SDK does
// the handshake with Discord's client (ready), has the user authorize the application
// (scope identify) and authenticates with the access token our server obtained for
// the code; the server then learns from Discord who the user is and which Activity
// instance they are in, and gives a session for that instance's channel. The page
// shows the channel's game (the thread's) or its live games to pick from; a game is the
// live board's own view and script (game.js), its socket through Discord's proxy; in
// the list, two participants can start a game (a challenge and its acceptance).
// Every request goes through the proxy (/.proxy/ paths, the URL mappings); the session
// travels in the Authorization header, as no cookie reaches a third party's frame.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const body = document.body;
const statusEl = document.querySelector("[data-activity-status]");
const gamesEl = document.querySelector("[data-activity-games]");
const listEl = document.querySelector("[data-game-list]");
const noGamesEl = document.querySelector("[data-no-games]");
const backEl = document.querySelector("[data-activity-back]");
const boardEl = document.querySelector("[data-activity-board]");

// api is the proxied address of one of our server's Activity routes.
function api(path) { return "/.proxy/" + path; }

function say(text, state) {
  statusEl.textContent = text;
  body.dataset.activity = state;
}

async function call(path, init) {
  const res = await fetch(api(path), init);
  let out = {};
  try { out = await res.json(); } catch (e) { /* an answer without a body */ }
  if (!res.ok) {
    const err = new Error(out.error || "The server answered " + res.status + ".");
    err.status = res.status;
    throw err;
  }
  return out;
}

function post(path, v) {
  return call(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(v) });
}

let session = "";

function showList(games) {
  gamesEl.hidden = false;
  backEl.hidden = true;
  listEl.textContent = "";
  noGamesEl.hidden = games.length > 0;
  for (const g of games) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.openGame = String(g.id);
    b.textContent = "Game " + g.id + ": " + g.white + " vs " + g.black + (g.moves ? " (" + g.moves + " moves)" : "");
    b.addEventListener("click", function () { openGame(g.id, true); });
    li.appendChild(b);
    listEl.appendChild(li);
  }
}

async function openGame(id, fromList) {
  lobbyOn = false;
  lobbyEl.hidden = true;
  say("Opening game " + id + "…", "loading");
  const v = await call("api/games/" + id, { headers: { Authorization: "Bearer " + session } });
  gamesEl.hidden = true;
  backEl.hidden = !fromList;
  body.className = "activity theme-" + v.theme;
  boardEl.innerHTML = v.html; // the server's own markup of the live board
  const root = boardEl.querySelector(".game");
  root.dataset.path = api(v.socket); // game.js opens its socket at path + "/ws"
  // The links and the form of the web page lead outside the Activity: the board and
  // its buttons do everything here.
  for (const el of root.querySelectorAll(".downloads, .signout")) el.remove();
  const watching = root.querySelector(".watching");
  if (watching) watching.textContent = "You are watching: the players move on this board.";
  const s = document.createElement("script");
  s.src = body.dataset.gameScript;
  document.head.appendChild(s);
  say(v.you ? "You play " + v.you + "." : "You are watching.", v.you ? "playing" : "watching");
}

backEl.addEventListener("click", function () { location.reload(); });

// The lobby: the other participants (as Discord lists them to the server), whom the
// user challenges with a time control, and the challenges made or received here. The
// page asks for it every few seconds while the list is shown; a challenge the user
// made is followed until it is answered, and its game, once accepted, opens here as it
// opens in the page of the one who accepted it.
const lobbyEl = document.querySelector("[data-activity-lobby]");
const controlEl = document.querySelector("[data-control]");
const peopleEl = document.querySelector("[data-participants]");
const noPeopleEl = document.querySelector("[data-no-participants]");
const challengesEl = document.querySelector("[data-challenges]");
const lobbyErrorEl = document.querySelector("[data-lobby-error]");
const lobbyEvery = 1500; // ms between two looks at the lobby
let lobbyOn = false;
let lastLobby = "";
const mine = new Set(); // the challenges this page made, followed until answered

function authed(init) {
  const out = Object.assign({}, init || {});
  out.headers = Object.assign({ Authorization: "Bearer " + session }, out.headers || {});
  return out;
}

function lobbyError(text) {
  lobbyErrorEl.textContent = text || "";
  lobbyErrorEl.hidden = !text;
}

function button(label, data, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  for (const k in data) b.dataset[k] = data[k];
  b.addEventListener("click", function () {
    b.disabled = true; // one click, one request
    onClick().catch(function (err) { lobbyError(err.message); }).finally(function () { b.disabled = false; });
  });
  return b;
}

function renderLobby(l) {
  const key = JSON.stringify(l);
  if (key === lastLobby) return;
  lastLobby = key;
  if (!controlEl.options.length) {
    for (const c of l.controls) {
      const o = document.createElement("option");
      o.value = c;
      o.textContent = c;
      controlEl.appendChild(o);
    }
    controlEl.value = l.controls.includes("10+5") ? "10+5" : l.controls[0];
  }
  peopleEl.textContent = "";
  noPeopleEl.hidden = l.participants.length > 0;
  for (const p of l.participants) {
    const li = document.createElement("li");
    li.appendChild(document.createTextNode(p.name + " "));
    li.appendChild(button("Challenge", { challengeTo: p.id }, async function () {
      const out = await authedPost("api/challenges", { to: p.id, control: controlEl.value });
      mine.add(out.challenge.id);
      lobbyError("");
      await lookAtLobby();
    }));
    peopleEl.appendChild(li);
  }
  challengesEl.textContent = "";
  for (const c of l.challenges) {
    const li = document.createElement("li");
    li.dataset.challenge = String(c.id);
    if (c.incoming) {
      li.appendChild(document.createTextNode(c.from.name + " challenges you (" + c.control + "). "));
      li.appendChild(button("Accept", { accept: String(c.id) }, async function () {
        const out = await authedPost("api/challenges/" + c.id + "/accept", {});
        await openGame(out.game, true);
      }));
      li.appendChild(button("Decline", { decline: String(c.id) }, async function () {
        await authedPost("api/challenges/" + c.id + "/decline", {});
        await lookAtLobby();
      }));
    } else {
      mine.add(c.id);
      li.appendChild(document.createTextNode("You challenged " + c.to.name + " (" + c.control + "): waiting for an answer."));
    }
    challengesEl.appendChild(li);
  }
}

// authedPost posts JSON to one of our routes with the session.
function authedPost(path, v) {
  return call(path, authed({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(v) }));
}

async function lookAtLobby() {
  const l = await call("api/lobby", authed());
  if (!lobbyOn) return;
  renderLobby(l);
  const pending = new Set(l.challenges.map(function (c) { return c.id; }));
  for (const id of Array.from(mine)) {
    if (pending.has(id)) continue;
    mine.delete(id);
    const c = await call("api/challenges/" + id, authed());
    if (c.status === "accepted" && c.game) {
      await openGame(c.game, true);
      return;
    }
    lobbyError("Your challenge was " + c.status + ".");
  }
}

function startLobby() {
  lobbyOn = true;
  lobbyEl.hidden = false;
  const tick = function () {
    if (!lobbyOn) return;
    lookAtLobby().catch(function (err) { lobbyError(err.message); }).finally(function () {
      if (lobbyOn) setTimeout(tick, lobbyEvery);
    });
  };
  tick();
}

async function start() {
  const sdk = new DiscordSDK(body.dataset.clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  say("Asking Discord who you are…", "authorizing");
  const { code } = await sdk.commands.authorize({
    client_id: body.dataset.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const { access_token } = await post("api/token", { code: code });
  await sdk.commands.authenticate({ access_token: access_token });
  const ses = await post("api/session", { access_token: access_token, instance_id: sdk.instanceId });
  session = ses.session;
  body.dataset.user = ses.user.id;
  if (ses.game) {
    await openGame(ses.game, false);
    return;
  }
  say("Signed in as " + ses.user.name + ".", "list");
  showList(ses.games);
  startLobby();
}

start().catch(function (err) {
  say(err && err.message ? err.message : "The Activity could not start.", "error");
  if (err && err.status) body.dataset.activityStatus = String(err.status);
});
