// activity.js: the board inside Discord (docs/activity.md). The Embedded App SDK does
// the handshake with Discord's client (ready), has the user authorize the application
// (scope identify) and authenticates with the access token our server obtained for
// the code; the server then learns from Discord who the user is and which Activity
// instance they are in, and gives a session for that instance's channel. The page
// shows the channel's game (the thread's) or its live games to pick from; a game is the
// live board's own view and script (game.js), its socket through Discord's proxy.
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
}

start().catch(function (err) {
  say(err && err.message ? err.message : "The Activity could not start.", "error");
  if (err && err.status) body.dataset.activityStatus = String(err.status);
});
