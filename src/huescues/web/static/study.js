// The study page: consent, then one clue at a time; a click on a square is the answer.
// Every text from the server is set with textContent, never as HTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const consentButton = document.querySelector('[data-action="consent"]');
  const state = {
    participant: null, item: null, total: 0, shownAt: 0, busy: false, visitorClues: false,
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

  async function call(method, url, body) {
    const response = await fetch(url, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (!response.ok) {
      const error = new Error(data.error || `the server answered ${response.status}`);
      error.status = response.status;
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

  function ask(item) {
    state.item = item;
    $("progress").textContent = `${item.index + 1} of ${state.total}`;
    $("clue").textContent = item.clue;
    state.shownAt = performance.now();
    state.busy = false;
    for (const old of document.querySelectorAll(".hc-cell.picked")) old.classList.remove("picked");
  }

  async function pick(square, button) {
    if (state.busy || !state.item) return;
    state.busy = true;
    button.classList.add("picked");
    const ms = Math.max(0, Math.round(performance.now() - state.shownAt));
    try {
      const data = await call("POST", "/study/api/answer", {
        participant: state.participant, item: state.item.index, square, ms,
      });
      showError("");
      if (data.done) {
        storage.clear();
        $("task").hidden = true;
        $("thanks").hidden = false;
      } else {
        ask(data.item);
      }
    } catch (e) {
      state.busy = false;
      button.classList.remove("picked");
      showError(e.message);
    }
  }

  function begin(data) {
    state.participant = data.participant;
    state.total = data.total;
    window.HuesBoard.draw($("board"), data.board, pick);
    showError("");
    $("consent").hidden = true;
    $("task").hidden = false;
    ask(data.item);
  }

  // A reload mid-session: ask the server where this tab's participant left off. An unknown or
  // finished participant starts over at the consent screen.
  async function resume() {
    const participant = storage.get();
    if (!participant) return false;
    try {
      const data = await call("POST", "/study/api/resume", { participant });
      if (!data.done) {
        begin(data);
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
    const body = { consent: true };
    for (const key of ["language", "colour_blindness", "age_range"]) {
      const value = form.elements[key].value.trim();
      if (value) body[key] = value;
    }
    // The address's clues go only to a server that takes them (serve --allow-visitor-clues);
    // another refuses the whole start.
    const clues = new URLSearchParams(window.location.search).get("clues");
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
      const info = await call("GET", "/study/api/info");
      const text = $("consent-text");
      text.replaceChildren();
      for (const paragraph of info.consent) {
        const p = document.createElement("p");
        p.textContent = paragraph;
        text.append(p);
      }
      const form = $("about");
      fillChoices(form.elements.colour_blindness, info.colour_blindness);
      fillChoices(form.elements.age_range, info.age_range);
      state.visitorClues = info.visitor_clues === true;
      if (new URLSearchParams(window.location.search).get("clues") && !state.visitorClues) {
        showError("This study asks its own clues: the clues in the address are not used.");
      }
      consentButton.disabled = false;
    } catch (e) {
      showError(e.message);
    }
  }

  consentButton.addEventListener("click", start);
  load();
})();
