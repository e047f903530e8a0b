// The study page: consent, then one item at a time. Guessing (/study): a click on a square
// chooses and Confirm answers; giving (/study/give): a one-word clue for the outlined square,
// checked live by the game's clue rules. Colour plates, practice items and attention checks come
// as the server plans them.
// Every text from the server is set with textContent, never as HTML.
"use strict";

// The study's first request goes out while the page's texts load (one round trip less before the
// first screen on a slow phone): where this tab's participant left off, or the consent's facts.
const STUDY_EARLY = (() => {
  const path = window.location.pathname.replace(/\/+$/, "");
  const kind = path.endsWith("/give") ? "give" : path.endsWith("/game") ? "game" : "guess";
  let participant = null;
  try { participant = window.sessionStorage.getItem("huescues-study-participant"); } catch (e) { /* none */ }
  const early = (promise) => { promise.catch(() => {}); return promise; };
  return {
    participant,
    resume: participant ? early(fetch("/study/api/resume", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ participant }),
    })) : null,
    info: early(fetch(`/study/api/info${kind === "guess" ? "" : `?kind=${kind}`}`)),
  };
})();

HuesI18n.ready.then(() => {
  const t = HuesI18n.t;
  const $ = (id) => document.getElementById(id);
  const consentButton = document.querySelector('[data-action="consent"]');
  const state = {
    participant: null, item: null, total: 0, shownAt: 0, busy: false, visitorClues: false,
    pick: null, panelIds: [],
  };
  // The participant's code is the secret that lets its holder answer, so it lives in
  // sessionStorage: it survives a reload of this tab, but not closing it, it is not shared with
  // other tabs (two people on one browser stay two participants) and, unlike a cookie, it is
  // never sent with requests by itself. localStorage would keep it on the device for good.
  const KEY = "huescues-study-participant";
  const storage = {
    get() { try { return window.sessionStorage.getItem(KEY); } catch (e) { return null; } },
    set(v) { try { window.sessionStorage.setItem(KEY, v); } catch (e) { /* no storage */ } },
    clear() { try { window.sessionStorage.removeItem(KEY); } catch (e) { /* no storage */ } },
  };

  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = !message;
  }

  // A request's answer, or an error with the server's status and words (a network failure: an
  // error without status, said in the page's language, never the browser's "Failed to fetch").
  async function call(method, url, body, sent) {
    let response;
    try {
      response = await (sent || fetch(url, {
        method,
        headers: body ? { "Content-Type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      }));
    } catch (e) {
      throw new Error(t("study.offline_load"));
    }
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (!response.ok) {
      const error = new Error(response.status === 429 ? t("study.busy")
        : data.error || t("study.server_answered", { status: response.status }));
      error.status = response.status;
      error.data = data;
      throw error;
    }
    return data;
  }

  function fillChoices(select, choices) {
    for (const choice of choices) {
      const option = document.createElement("option");
      option.value = choice;
      option.textContent = choice;
      select.append(option);
    }
  }

  // Which study this page runs: guessing at /study, giving clues at /study/give, a whole game
  // with bots at /study/game.
  const PATH = window.location.pathname.replace(/\/+$/, "");
  const MODE = PATH.endsWith("/give") ? "give" : PATH.endsWith("/game") ? "game" : "guess";
  const confirmButton = document.querySelector('[data-action="confirm"]');
  const clueInput = document.querySelector('[data-field="clue"]');
  const submitButton = document.querySelector('[data-action="submit-clue"]');
  let checkTimer = null;

  function clearMarks() {
    for (const old of document.querySelectorAll(".hc-cell.picked, .hc-cell.shown")) {
      old.classList.remove("picked", "shown");
    }
    // The last square clicked keeps neither focus nor a hover outline under the next item: it
    // would anchor the next pick. Hover outlines come back when the pointer moves.
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    const grid = document.querySelector(".hc-board");
    if (grid) grid.classList.add("fresh");
    state.pick = null;
    confirmButton.disabled = true;
    $("picked-name").textContent = "";
  }

  function mark(square) {
    const cell = document.querySelector(`[data-cell="${square}"]`);
    if (cell) cell.classList.add("shown");
  }

  // The game study's game: its table is made when the participant reaches it, and the game page
  // plays it (the same page as friends' tables); at its end that page shows the completion.
  // No game now (the connection lost, the server busy, or at its cap on games in play: a 503):
  // said, and asked again by itself, as an answer is sent again.
  async function playGame() {
    for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
      try {
        const game = await call("POST", "/study/api/game", { participant: state.participant });
        showError("");
        window.location.assign(`/play#t=${game.token}&study=1`);
        return;
      } catch (e) {
        if (!forNow(e) || attempt === RETRIES) {
          showError(e.message);
          return;
        }
        showError(t(e.status ? "study.game_wait" : "study.offline_game"));
        await pause(attempt);
      }
    }
  }

  function ask(item) {
    if (item.kind === "game") { playGame(); return; }
    state.item = item;
    state.shownAt = performance.now();
    state.busy = false;
    clearMarks();
    const kind = item.kind || "clue";
    $("colour").hidden = kind !== "colour";
    $("task").hidden = kind === "colour";
    if (kind === "colour") {
      const box = $("swatches");
      box.replaceChildren();
      item.swatches.forEach((colour, i) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "swatch";
        b.dataset.swatch = String(i);
        b.style.backgroundColor = colour;
        b.setAttribute("aria-label", t("study.square_n", { n: i + 1 }));
        b.addEventListener("click", () => send("/study/api/answer", { choice: i }));
        box.append(b);
      });
      return;
    }
    const giving = kind === "give" || kind === "give-practice";
    $("progress").textContent = kind === "practice" || kind === "give-practice" ? t("study.practice")
      : kind === "attention" ? t("study.check") : t("study.n_of", { n: item.number || item.index + 1, of: item.of || state.total });
    $("give").hidden = !giving;
    $("confirm-bar").hidden = giving;
    $("clue").hidden = giving;
    if (giving) {
      $("prompt").textContent = t("study.give_prompt");
      $("target-swatch").style.backgroundColor = item.colour;
      mark(item.square);
      clueInput.value = "";
      $("clue-check").textContent = "";
      $("clue-check").className = "check";
      clueInput.focus({ preventScroll: true });
    } else if (kind === "attention") {
      $("prompt").textContent = t("study.attention_prompt");
      $("clue").textContent = t("study.attention_clue");
      mark(item.square);
    } else {
      $("prompt").textContent = kind === "practice" ? t("study.practice_prompt") : t("study.prompt");
      $("clue").textContent = item.clue;
    }
  }

  function pick(square, button) {
    const kind = state.item && state.item.kind;
    if (state.busy || !state.item || kind === "give" || kind === "give-practice") return;
    // A click chooses; Confirm answers, so a mis-click can be undone by clicking another.
    for (const old of document.querySelectorAll(".hc-cell.picked")) old.classList.remove("picked");
    button.classList.add("picked");
    state.pick = square;
    $("picked-name").textContent = t("study.choice", { square });
    confirmButton.disabled = false;
  }

  function finish(data) {
    storage.clear();
    $("consent").hidden = true;
    $("task").hidden = true;
    $("colour").hidden = true;
    $("thanks").hidden = false;
    if (data.screened_out) {
      $("thanks-text").textContent = t("study.screened");
    }
    if (data.completion_code) {
      $("completion-code").textContent = data.completion_code;
      $("completion").hidden = false;
    }
    if (data.redirect) {
      $("redirect-link").href = data.redirect;
      $("redirect").hidden = false;
      window.location.assign(data.redirect);
    }
  }

  // While an answer is on its way its buttons are off (a tap during a slow request does
  // nothing twice, and shows that something is happening).
  function sending(on) {
    state.busy = on;
    document.body.classList.toggle("sending", on);
    $("task").setAttribute("aria-busy", on ? "true" : "false");
    confirmButton.disabled = on || !state.pick;
    submitButton.disabled = on;
    for (const b of document.querySelectorAll(".swatch")) b.disabled = on;
  }

  function say(url, message) {
    if (url === "/study/api/give") {
      $("clue-check").textContent = message;
      $("clue-check").className = message ? "check bad" : "check";
    } else {
      showError(message);
    }
  }

  // Waits before sending an answer again: longer each time (1, 2, 4, then 8 s), or until the
  // browser says the connection is back.
  function pause(attempt) {
    return new Promise((resolve) => {
      const done = () => { window.removeEventListener("online", done); clearTimeout(timer); resolve(); };
      const timer = setTimeout(done, Math.min(8000, 1000 * 2 ** attempt));
      window.addEventListener("online", done);
    });
  }

  // The server may have stored an answer whose reply was lost (the connection dropped on the
  // way back): the same answer sent again is then refused (409, not the item asked now), and the
  // session goes on where the server says it is, the answer kept once.
  async function rejoin() {
    const data = await call("POST", "/study/api/resume", { participant: state.participant });
    if (data.done) { finish(data); return true; }
    if (data.item && state.item && data.item.index !== state.item.index) { ask(data.item); return true; }
    return false;
  }

  // A request refused for now, not for good: no answer (the connection lost), a busy server
  // (429), or a server's failure or cap (5xx). Such a request is sent again by itself.
  function forNow(e) { return !e.status || e.status === 429 || e.status >= 500; }

  const RETRIES = 75; // about ten minutes of trying, 8 s apart at most

  async function send(url, fields) {
    if (state.busy || !state.item) return;
    sending(true);
    const ms = Math.max(0, Math.round(performance.now() - state.shownAt));
    const body = { participant: state.participant, item: state.item.index, ms, ...fields };
    for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
      try {
        const data = await call("POST", url, body);
        showError("");
        sending(false);
        if (data.done) finish(data); else ask(data.item);
        return;
      } catch (e) {
        // Lost on the way, or the server busy: the answer is kept and sent again by itself.
        if (forNow(e) && attempt < RETRIES) {
          say(url, t(e.status ? "study.busy" : "study.offline"));
          await pause(attempt);
          continue;
        }
        if (e.status === 409) {
          try {
            if (await rejoin()) { sending(false); showError(""); return; }
          } catch (again) { /* said below */ }
        }
        sending(false);
        const refused = url === "/study/api/give" && e.data && e.data.error
          ? HuesI18n.refusal({ message: e.data.error, rule: e.data.rule }) : e.message;
        say(url, refused);
        return;
      }
    }
  }

  function begin(data) {
    state.participant = data.participant;
    state.total = data.total;
    window.HuesBoard.draw($("board"), data.board, pick);
    const grid = document.querySelector(".hc-board");
    grid.addEventListener("pointermove", () => grid.classList.remove("fresh"));
    // A tap in the thin gap between squares (a finger is wider than a phone's square) chooses the
    // nearest square, never nothing; the choice is named, and Confirm answers.
    grid.addEventListener("click", (event) => {
      if (event.target.closest(".hc-cell")) return;
      const cells = grid.querySelectorAll(".hc-cell");
      const first = cells[0].getBoundingClientRect();
      const last = cells[cells.length - 1].getBoundingClientRect();
      const x = event.clientX;
      const y = event.clientY;
      if (x < first.left || x > last.right || y < first.top || y > last.bottom) return;
      let best = null;
      let bestDistance = Infinity;
      for (const cell of cells) {
        const r = cell.getBoundingClientRect();
        const distance = Math.hypot(x - (r.left + r.right) / 2, y - (r.top + r.bottom) / 2);
        if (distance < bestDistance) { best = cell; bestDistance = distance; }
      }
      if (best) pick(best.dataset.cell, best);
    });
    showError("");
    $("consent").hidden = true;
    ask(data.item);
  }

  confirmButton.addEventListener("click", () => {
    if (state.pick) send("/study/api/answer", { square: state.pick });
  });
  clueInput.addEventListener("input", () => {
    clearTimeout(checkTimer);
    const box = $("clue-check");
    box.textContent = "";
    box.className = "check";
    const text = clueInput.value;
    if (!text.trim()) return;
    // The game's own clue rules, live: the refusal names its rule, as the game page's does.
    checkTimer = setTimeout(async () => {
      try {
        const verdict = await call("POST", "/study/api/check", { text });
        if (clueInput.value !== text) return;
        box.textContent = verdict.ok ? t("study.allowed") : HuesI18n.refusal(verdict);
        box.className = verdict.ok ? "check ok" : "check bad";
      } catch (e) { /* the submit says it */ }
    }, 150);
  });
  $("give").addEventListener("submit", (event) => {
    event.preventDefault();
    // An empty clue is said here, in the page's language, and never sent.
    if (!clueInput.value.trim()) { say("/study/api/give", t("study.type_first")); return; }
    send("/study/api/give", { clue: clueInput.value });
  });

  // A reload mid-session: ask the server where this tab's participant left off. An unknown or
  // finished participant starts over at the consent screen.
  async function resume() {
    const participant = storage.get();
    if (!participant) return false;
    const sent = participant === STUDY_EARLY.participant ? STUDY_EARLY.resume : null;
    try {
      const data = await call("POST", "/study/api/resume", { participant }, sent);
      if (!data.done) {
        begin(data);
        return true;
      }
      if (MODE === "game") {
        // Back from the game page, the game over: the end, with the completion code.
        finish(data);
        return true;
      }
    } catch (e) {
      // Busy (429) or unreachable: keep the code, so that the next reload still resumes.
      if (e.status !== 400 && e.status !== 404) {
        showError(e.message);
        return false;
      }
    }
    // Unknown or finished: a new session from the consent screen.
    storage.clear();
    return false;
  }

  async function start() {
    consentButton.disabled = true;
    const form = $("about");
    const body = { consent: true, kind: MODE };
    // The panel's ids from the address (Prolific's, or participant_id), and the screen.
    const params = new URLSearchParams(window.location.search);
    const ids = {};
    for (const key of state.panelIds) {
      const value = params.get(key);
      if (value) ids[key] = value;
    }
    if (Object.keys(ids).length) body.ids = ids;
    const scr = window.screen || {};
    if (scr.width && scr.height) {
      body.screen = {
        width: scr.width, height: scr.height,
        pixel_ratio: window.devicePixelRatio || 1, colour_depth: scr.colorDepth || 24,
      };
    }
    for (const key of ["language", "colour_blindness", "age_range"]) {
      const value = form.elements[key].value.trim();
      if (value) body[key] = value;
    }
    // The address's clues go only to a server that takes them (serve --allow-visitor-clues);
    // another refuses the whole start.
    const clues = MODE === "guess" ? params.get("clues") : null;
    if (clues && state.visitorClues) body.clues = clues;
    try {
      const data = await call("POST", "/study/api/start", body);
      storage.set(data.participant);
      begin(data);
    } catch (e) {
      consentButton.disabled = false;
      showError(e.message);
    }
  }

  async function load() {
    if (await resume()) return;
    try {
      const info = await call("GET", `/study/api/info${MODE === "guess" ? "" : `?kind=${MODE}`}`, null, STUDY_EARLY.info);
      state.panelIds = info.panel_ids || [];
      const text = $("consent-text");
      text.replaceChildren();
      // The built-in consent text, made from what the study stores, in the page's language
      // (its sentences by key); a researcher's own text as it is.
      const paragraphs = info.consent_keys
        ? info.consent_keys.map((keys) => keys.map((key) => t(key)).join(" "))
        : info.consent;
      for (const paragraph of paragraphs) {
        const p = document.createElement("p");
        p.textContent = paragraph;
        text.append(p);
      }
      const form = $("about");
      fillChoices(form.elements.colour_blindness, info.colour_blindness);
      fillChoices(form.elements.age_range, info.age_range);
      state.visitorClues = info.visitor_clues === true;
      if (new URLSearchParams(window.location.search).get("clues") && !state.visitorClues) {
        showError(t("study.own_clues"));
      }
      consentButton.disabled = false;
    } catch (e) {
      showError(e.message);
    }
  }

  consentButton.addEventListener("click", start);
  load();
});
