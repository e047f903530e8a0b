// The game page. It holds one seat, or several (pass-and-play: #t=TOKEN1,TOKEN2), one WebSocket
// per seat, and draws what the server sends: each seat's own view. The rules live in the
// server's engine only; this page shows views and sends the choices. Text from people (names,
// clues) is only ever set with textContent, never parsed as HTML.
"use strict";
HuesI18n.ready.then(function () {
  const t = HuesI18n.t;
  const params = new URLSearchParams(location.hash.slice(1));
  const tokens = (params.get("t") || "").split(",").filter(Boolean);
  const conns = []; // {token, seat, ws, state}
  let welcome = null; // the first welcome: seats and board
  let cells = new Map(); // "F12" -> element
  let selected = null; // the square a guesser tapped, waiting for "place"
  let unlocked = null; // pass-and-play: the seat whose screen is showing
  let checkTimer = null;
  let zoomAt = null; // phone: the square the zoom is centred on, or null when closed
  let gone = false; // the server said the table is gone: stop reconnecting

  const $ = (id) => document.getElementById(id);
  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const c of children || []) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function seatName(seat) { return welcome ? welcome.seats[seat].name : t("play.seat", { n: seat + 1 }); }
  function seatColour(seat) { return welcome ? welcome.seats[seat].colour : "#888"; }
  function isPerson(seat) { return welcome && welcome.seats[seat].kind === "person"; }

  if (!tokens.length) {
    $("status").textContent = t("play.no_link");
    return;
  }

  // ---- connections -----------------------------------------------------------------------
  function connect(conn) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    conn.ws = ws;
    ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "join", token: conn.token })));
    ws.addEventListener("message", (event) => onMessage(conn, JSON.parse(event.data)));
    ws.addEventListener("close", (event) => {
      // 4404: the server said the table is gone; trying again would only say it again.
      if (gone || event.code === 4404) { showGone(); return; }
      $("status").textContent = t("play.lost");
      setTimeout(() => connect(conn), event.code === 1013 ? 5000 : 1000);
    });
  }
  for (const token of tokens) {
    const conn = { token, seat: null, ws: null, state: null };
    conns.push(conn);
    connect(conn);
  }

  function send(conn, message) {
    if (conn && conn.ws && conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(message));
  }

  function onMessage(conn, msg) {
    if (msg.type === "ping") {
      // The server pings every few seconds; an answer keeps this seat "here" (a page that
      // stops answering, asleep or closed, is away after 30 s).
      send(conn, { type: "pong" });
    } else if (msg.type === "welcome") {
      conn.seat = msg.seat;
      if (!welcome || welcome.table !== msg.table) { welcome = msg; buildBoard(msg.board); }
    } else if (msg.type === "state") {
      conn.state = msg;
      if (selected && msg.pawns.some(([, c]) => c === selected)) selected = null;
      render();
    } else if (msg.type === "check") {
      showCheck(msg);
    } else if (msg.type === "again") {
      onAgain(msg);
    } else if (msg.type === "error") {
      if (msg.code === "gone") { gone = true; showGone(); return; }
      $("message").textContent = HuesI18n.refusal(msg);
    }
  }

  // ---- screens ---------------------------------------------------------------------------
  function showScreen(name) {
    for (const screen of document.querySelectorAll("[data-screen]")) screen.hidden = screen.dataset.screen !== name;
  }
  function showGone() {
    gone = true;
    $("cover").hidden = true;
    $("zoom").hidden = true;
    $("round").textContent = "";
    showScreen("gone");
  }
  function onAgain(msg) {
    // Play again in place: the server moves this page's connections to the next game (the same
    // links open it) and sends each its welcome and state there; the page starts afresh.
    startAfresh();
    $("again-note").textContent = msg.by === null ? t("play.again.started") : t("play.again.by", { name: seatName(msg.by) });
  }
  function startAfresh() {
    welcome = null;
    selected = null;
    unlocked = null;
    for (const c of conns) { c.state = null; }
    const again = document.querySelector("[data-action=play-again]");
    again.disabled = false;
  }

  // ---- which seat the screen shows -------------------------------------------------------
  function latest() {
    return conns.find((c) => c.state) ? conns.find((c) => c.state).state : null;
  }
  function acting(state) {
    // The held seat whose turn it is, if any.
    return conns.find((c) => c.state && c.seat === state.current) || null;
  }
  function shown(state) {
    const actor = acting(state);
    if (actor) return actor;
    // Nobody here to act: show a view without the card (a guesser's), so no secret shows.
    return conns.find((c) => c.state && c.seat !== state.giver) || conns.find((c) => c.state);
  }

  // ---- the board -------------------------------------------------------------------------
  function buildBoard(board) {
    // The shared drawer (board.js) reads the welcome's board as it comes.
    const grid = HuesBoard.draw($("board"), board, (name) => onCell(name));
    cells = new Map([...grid.querySelectorAll("[data-cell]")].map((cell) => [cell.dataset.cell, cell]));
  }

  function parseCell(name) {
    const r = welcome.board.row_letters.indexOf(name[0]);
    return [r, Number(name.slice(1)) - 1];
  }
  function distance(a, b) {
    const [ar, ac] = parseCell(a), [br, bc] = parseCell(b);
    return Math.max(Math.abs(ar - br), Math.abs(ac - bc));
  }

  function drawBoard(state, conn) {
    const view = conn.state;
    // Between rounds (and at the end) the board shows the last reveal: target, frame, pawns.
    // The giver, once dealt a card, sees the card instead (the reveal stays in the side panel).
    const revealing = state.history.length > 0 && state.clues.length === 0 && state.pawns.length === 0 && (!view.card || state.reveal);
    const last = revealing ? state.history[state.history.length - 1] : null;
    const pawns = last ? last.pawns : state.pawns;
    const byCell = new Map(pawns.map(([seat, c]) => [c, seat]));
    const card = view.card || [];
    const target = last ? last.target : view.target;
    const guessing = conn.seat === state.current && (state.phase === "first_guess" || state.phase === "second_guess");
    for (const [name, cell] of cells) {
      cell.replaceChildren();
      cell.className = "hc-cell cell";
      const d = target ? distance(name, target) : 99;
      if (last && d <= 1) cell.classList.add(d === 0 ? "target" : "frame");
      if (!last && view.target === name) cell.classList.add("target");
      const ci = last ? -1 : card.indexOf(name);
      if (ci >= 0) {
        cell.classList.add("card");
        cell.append(el("span", { className: "card-mark", textContent: String(ci + 1) }));
      }
      if (byCell.has(name)) {
        const seat = byCell.get(name);
        cell.append(pawnOf(seat));
      } else if (guessing) {
        cell.classList.add("open");
      }
      if (name === selected) cell.classList.add("selected");
    }
  }

  // A pawn: the seat's colour and its number, so pawns differ whatever one's colour vision.
  function pawnOf(seat) {
    const pawn = el("span", { className: "pawn", title: seatName(seat), textContent: String(seat + 1) });
    const colour = seatColour(seat);
    pawn.style.setProperty("--pawn", colour);
    pawn.style.color = light(colour) ? "#000" : "#fff";
    return pawn;
  }
  function light(hex) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45;
  }

  // ---- the zoom (phone) ------------------------------------------------------------------
  // Squares narrower than a fingertip: a tap opens the area around it, in big squares.
  function needsZoom() {
    const any = cells.values().next().value;
    return any ? any.getBoundingClientRect().width < 24 : false;
  }
  function drawZoom(state) {
    const zoom = $("zoom");
    const guessing = state && !state.reveal && (state.phase === "first_guess" || state.phase === "second_guess") && acting(state);
    if (!zoomAt || !guessing) { zoom.hidden = true; zoomAt = null; return; }
    const rows = welcome.board.rows, cols = welcome.board.cols;
    const [r0, c0] = parseCell(zoomAt);
    const top = Math.max(0, Math.min(rows - 5, r0 - 2)), left = Math.max(0, Math.min(cols - 7, c0 - 3));
    const taken = new Map(state.pawns.map(([seat, c]) => [c, seat]));
    const grid = $("zoom-grid");
    grid.replaceChildren();
    for (let r = top; r < top + 5; r++) {
      for (let c = left; c < left + 7; c++) {
        const name = welcome.board.row_letters[r] + String(c + 1);
        const b = el("button", { type: "button", className: "zoom-cell", title: name });
        b.dataset.zoomCell = name;
        b.style.backgroundColor = welcome.board.colours[r][c];
        b.append(el("span", { className: "zoom-name", textContent: name }));
        if (taken.has(name)) { b.append(pawnOf(taken.get(name))); b.disabled = true; }
        if (name === selected) b.classList.add("selected");
        b.addEventListener("click", () => { selected = name; render(); });
        grid.append(b);
      }
    }
    const place = document.querySelector("[data-action=zoom-place]");
    place.disabled = !selected;
    place.textContent = selected ? t("play.place_on", { cell: selected }) : t("play.tap");
    zoom.hidden = false;
  }
  document.querySelector("[data-action=zoom-close]").addEventListener("click", () => { zoomAt = null; render(); });
  document.querySelector("[data-action=zoom-place]").addEventListener("click", () => {
    const state = latest();
    const conn = state && acting(state);
    if (conn && selected) { send(conn, { type: "pawn", cell: selected }); selected = null; zoomAt = null; render(); }
  });

  function onCell(name) {
    const state = latest();
    if (!state) return;
    const conn = acting(state);
    if (!conn) return;
    $("message").textContent = "";
    if (state.phase === "choose_target") {
      const index = (conn.state.card || []).indexOf(name);
      if (index >= 0) send(conn, { type: "target", index });
      return;
    }
    if (state.phase === "first_guess" || state.phase === "second_guess") {
      if (needsZoom()) { zoomAt = name; if (!state.pawns.some(([, c]) => c === name)) selected = name; render(); return; }
      if (state.pawns.some(([, c]) => c === name)) { $("message").textContent = t("play.taken", { cell: name }); return; }
      selected = name;
      render();
    }
  }

  // ---- the side panel --------------------------------------------------------------------
  function showCheck(msg) {
    const box = $("clue-check");
    const input = document.querySelector("[data-field=clue]");
    if (!box || !input || input.value !== msg.text) return;
    box.className = msg.ok ? "check ok" : "check bad";
    box.textContent = msg.ok ? t("play.allowed") : HuesI18n.refusal(msg);
  }

  function clueControls(conn, state) {
    const second = state.phase === "second_clue";
    const input = el("input", { type: "text", maxLength: 60, autocomplete: "off", spellcheck: false,
      placeholder: second ? t("play.words.up_to", { n: state.clue_words }) : t("play.words.one", { n: state.clue_words }) });
    input.dataset.field = "clue";
    const check = el("p", { id: "clue-check", className: "check" });
    input.addEventListener("input", () => {
      clearTimeout(checkTimer);
      check.textContent = "";
      if (input.value.trim()) checkTimer = setTimeout(() => send(conn, { type: "check", text: input.value }), 120);
    });
    const give = el("button", { type: "submit", className: "primary", textContent: t("play.give") });
    give.dataset.action = "clue";
    const form = el("form", { className: "clue-form" }, [input, give]);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (input.value.trim()) send(conn, { type: "clue", text: input.value });
    });
    const parts = [el("p", { textContent: second ? t("play.second.help") : t("play.first.help") }),
      targetSwatch(conn.state), form, check];
    if (second && state.may_pass) {
      const pass = el("button", { type: "button", textContent: t("play.pass") });
      pass.dataset.action = "pass";
      pass.addEventListener("click", () => send(conn, { type: "pass" }));
      parts.push(pass);
    }
    setTimeout(() => input.focus(), 0);
    return parts;
  }

  function targetSwatch(view) {
    if (!view.target) return null;
    const [r, c] = parseCell(view.target);
    const sw = el("span", { className: "swatch" });
    sw.style.background = welcome.board.colours[r][c];
    return el("p", { className: "your-target" }, [sw, t("play.your_target", { cell: view.target })]);
  }

  function controls(conn, state) {
    const box = $("controls");
    box.replaceChildren();
    if (state.reveal) { box.append(...revealControls(state)); return; }
    if (state.phase === "game_over" || conn.seat !== state.current) return;
    if (state.phase === "choose_target") {
      const buttons = (conn.state.card || []).map((name, index) => {
        const [r, c] = parseCell(name);
        const b = el("button", { type: "button", className: "target-choice" }, [el("span", { className: "swatch" }), `${index + 1}: ${name}`]);
        b.firstChild.style.background = welcome.board.colours[r][c];
        b.dataset.action = `target-${index}`;
        b.addEventListener("click", () => send(conn, { type: "target", index }));
        return b;
      });
      box.append(el("p", { textContent: t("play.card.help") }),
        el("div", { className: "target-choices" }, buttons));
    } else if (state.phase === "first_clue" || state.phase === "second_clue") {
      box.append(...clueControls(conn, state).filter(Boolean));
    } else {
      const place = el("button", { type: "button", className: "primary", disabled: !selected,
        textContent: selected ? t("play.place_on", { cell: selected }) : t("play.tap_first") });
      place.dataset.action = "place";
      place.addEventListener("click", () => {
        if (selected) { send(conn, { type: "pawn", cell: selected }); selected = null; }
      });
      box.append(el("p", { textContent: t("play.guess.help") }), place);
    }
  }

  // The reveal waits for everyone here to press "Next round" (or for its time).
  function revealControls(state) {
    const mine = conns.filter((c) => state.reveal.waiting_for.includes(c.seat));
    const others = state.reveal.waiting_for.filter((seat) => !conns.some((c) => c.seat === seat));
    const parts = [];
    if (mine.length) {
      const next = el("button", { type: "button", className: "primary", textContent: t("play.next") });
      next.dataset.action = "next-round";
      next.addEventListener("click", () => { for (const c of mine) send(c, { type: "next" }); next.disabled = true; });
      parts.push(next);
    }
    const waiting = others.length ? t("play.waiting", { names: others.map(seatName).join(", ") }) : mine.length ? "" : t("play.starting");
    parts.push(el("p", { className: "hint", textContent: `${waiting}${waiting ? " · " : ""}${t("play.next_in", { s: Math.ceil(state.reveal.seconds_left) })}` }));
    return parts;
  }

  function statusText(conn, state) {
    if (state.reveal) {
      const last = state.history[state.history.length - 1];
      return t("play.reveal", { name: seatName(last.giver), cell: last.target });
    }
    if (state.phase === "game_over") {
      const r = state.result;
      const names = r.winners.map(seatName).join(t("play.and"));
      return r.shared ? t("play.over.shared", { names }) : t("play.over.wins", { names });
    }
    if (!state.ready && !isPerson(state.current)) return t("play.bots_ready");
    const who = state.current;
    if (conn.seat === who) {
      return t(`turn.${state.phase}`);
    }
    return t(`phase.${state.phase}`, { name: seatName(who) });
  }

  function drawScores(conn, state) {
    const list = $("scores");
    list.replaceChildren();
    const scores = state.result ? state.result.scores : state.scores;
    scores.forEach((score, seat) => {
      const tags = [];
      if (seat === state.giver && state.phase !== "game_over") tags.push(t("play.tag.giver"));
      if (conns.some((c) => c.seat === seat)) tags.push(t("play.tag.you"));
      const item = el("li", {}, [el("span", { className: "dot" }), el("span", { className: "name", textContent: seatName(seat) }),
        el("span", { className: "tags", textContent: tags.join(", ") }), el("span", { className: "score", textContent: String(score) })]);
      item.firstChild.style.background = seatColour(seat);
      if (seat === state.current) item.classList.add("current");
      if (state.result && state.result.winners.includes(seat)) item.classList.add("winner");
      list.append(item);
    });
  }

  function drawClues(state) {
    const box = $("clues");
    box.replaceChildren();
    const revealing = state.history.length > 0 && state.clues.length === 0;
    const clues = revealing ? [] : state.clues;
    if (!clues.length) return;
    box.append(el("span", { className: "label", textContent: t("play.clue_of", { name: seatName(state.giver) }) }));
    clues.forEach((clue) => box.append(el("q", { className: "clue", textContent: clue })));
  }

  function drawLastRound(state) {
    const box = $("last-round");
    box.replaceChildren();
    if (!state.history.length) return;
    const last = state.history[state.history.length - 1];
    const [r, c] = parseCell(last.target);
    const sw = el("span", { className: "swatch" });
    sw.style.background = welcome.board.colours[r][c];
    const points = last.points.map((p, seat) => p ? `${seatName(seat)} +${p}` : null).filter(Boolean).join(", ") || t("play.no_points");
    const clues = last.clues.map((x) => `“${x}”`).join(t("play.then")) + (last.clues.length < 2 ? t("play.passed") : "");
    box.append(el("h3", { textContent: `${t("play.reveal_of", { n: last.round + 1 })}${last.tiebreak ? t("play.tiebreak_tag") : ""}` }),
      el("p", {}, [sw, t("play.target_was", { name: seatName(last.giver), cell: last.target, clues })]),
      el("p", { textContent: t("play.points", { points }) }));
  }

  function render() {
    const state = latest();
    if (!state || !welcome) return;
    const conn = shown(state);
    const actor = acting(state);
    // Pass-and-play: a different person's turn on this device hides the screen first.
    if (state.phase === "game_over") {
      // The game's panel is kept up to date under the end screen (its scores, the last reveal).
      $("status").textContent = statusText(conn, state);
      drawScores(conn, state);
      drawLastRound(state);
      drawEnd(state);
      return;
    }
    showScreen("game");
    if (conns.length > 1 && actor && !state.reveal && unlocked !== actor.seat) {
      $("cover-text").textContent = t("play.pass_device", { name: seatName(actor.seat) });
      $("cover").hidden = false;
      document.querySelector(".game").classList.add("hidden-screen");
      return;
    }
    $("cover").hidden = true;
    document.querySelector(".game").classList.remove("hidden-screen");
    const round = state.tiebreak ? t("play.tiebreak_round") : t("play.round_of", { n: Math.min(state.round + 1, state.regular_rounds), of: state.regular_rounds });
    $("round").textContent = t(conns.length > 1 ? "play.this_device" : "play.you_are", { round, name: seatName(conn.seat) });
    $("status").textContent = statusText(conn, state);
    $("status").classList.toggle("your-turn", conn.seat === state.current);
    drawClues(state);
    const active = document.activeElement;
    const keep = active && active.dataset && active.dataset.field === "clue" && conn.seat === state.current ? active.value : null;
    controls(conn, state);
    if (keep !== null) {
      const input = document.querySelector("[data-field=clue]");
      if (input) { input.value = keep; }
    }
    drawScores(conn, state);
    drawLastRound(state);
    drawBoard(state, conn);
    drawZoom(state);
    drawHouse();
    const faults = $("faults");
    const storage = state.storage === "retrying" ? [el("li", { className: "storage", textContent: t("play.storage_retrying") })] : [];
    faults.replaceChildren(...storage, ...state.faults.map((f) => el("li", { textContent: f })));
  }

  function drawHouse() {
    const h = welcome.house_rules;
    if (!h) return;
    const parts = [t("house.language", { language: t(`house.lang.${welcome.language || "en"}`) }),
      h.refuse_named_colours ? t("house.named") : t("house.basic"),
      h.rounds_per_giver === 1 ? t("house.rounds.1") : t("house.rounds", { n: h.rounds_per_giver }),
      h.reveal_seconds > 0 ? t("house.reveal", { s: h.reveal_seconds }) : t("house.no_pause")];
    $("house").textContent = t("house.here", { parts: parts.join(" · ") });
  }

  // ---- the end screen --------------------------------------------------------------------
  function drawEnd(state) {
    $("cover").hidden = true;
    $("zoom").hidden = true;
    showScreen("end");
    $("round").textContent = t("play.over");
    const r = state.result;
    const names = r.winners.map(seatName).join(t("play.and"));
    $("end-title").textContent = r.shared ? t("play.end.shared", { names }) : t("play.end.wins", { names });
    const order = r.scores.map((score, seat) => [score, seat]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const standings = $("standings");
    standings.replaceChildren();
    for (const [score, seat] of order) {
      const item = el("li", {}, [pawnOf(seat), el("span", { className: "name", textContent: seatName(seat) }),
        el("span", { className: "score", textContent: t(score === 1 ? "play.point" : "play.points_n", { n: score }) })]);
      if (r.winners.includes(seat)) item.classList.add("winner");
      standings.append(item);
    }
    const rounds = $("rounds");
    rounds.replaceChildren();
    for (const round of state.history) {
      const [tr, tc] = parseCell(round.target);
      const sw = el("span", { className: "swatch" });
      sw.style.background = welcome.board.colours[tr][tc];
      const clues = round.clues.map((x) => `“${x}”`).join(t("play.then")) + (round.clues.length < 2 ? t("play.passed") : "");
      const pawns = round.pawns.map(([seat, c]) => {
        const d = distance(c, round.target);
        return el("li", {}, [pawnOf(seat), d === 0 ? t("play.on_target", { name: seatName(seat), cell: c }) : t("play.on_away", { name: seatName(seat), cell: c, d })]);
      });
      const points = round.points.map((p, seat) => p ? `${seatName(seat)} +${p}` : null).filter(Boolean).join(", ") || t("play.no_points");
      rounds.append(el("li", { className: "round-card" }, [
        el("h3", { textContent: t("play.round_card", { n: round.round + 1, tie: round.tiebreak ? t("play.tiebreak_tag") : "", name: seatName(round.giver), clues }) }),
        el("p", {}, [sw, t("play.target_points", { cell: round.target, points })]),
        el("ul", { className: "round-pawns" }, pawns),
      ]));
    }
  }
  document.querySelector("[data-action=play-again]").addEventListener("click", (event) => {
    const conn = conns.find((c) => c.state);
    if (conn) { send(conn, { type: "again" }); event.target.disabled = true; $("again-note").textContent = t("play.making"); }
  });

  document.querySelector("[data-action=reveal-screen]").addEventListener("click", () => {
    const state = latest();
    const actor = state && acting(state);
    unlocked = actor ? actor.seat : null;
    selected = null;
    render();
  });
});
