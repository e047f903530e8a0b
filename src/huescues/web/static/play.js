// The game page. It holds one seat, or several (pass-and-play: #t=TOKEN1,TOKEN2), one WebSocket
// per seat, and draws what the server sends: each seat's own view. A spectator's link
// (#t=SPECTATE_TOKEN) opens it read-only; an invite (/join#i=INVITE) asks a name and takes a
// free seat. The rules live in the server's engine only; this page shows views and sends the
// choices. Text from people (names, clues) is only ever set with textContent, never parsed as
// HTML.
"use strict";
HuesI18n.ready.then(function () {
  const t = HuesI18n.t;
  // The word between two clues, drawn by the style sheet: in the page's language.
  document.documentElement.style.setProperty("--then", JSON.stringify(t("play.then").trimStart()));
  const params = new URLSearchParams(location.hash.slice(1));
  let tokens = (params.get("t") || "").split(",").filter(Boolean);
  const invite = params.get("i");
  // The game study's page (study.js sends its participant here): one game, no reactions, no
  // play again, no links; at the end back to the study.
  let study = params.get("study") === "1";
  const conns = []; // {token, seat, ws, state, name?}
  let welcome = null; // the first welcome: seats and board
  let spectator = false;
  let cells = new Map(); // "F12" -> element
  let selected = null; // the square a guesser tapped, waiting for "place"
  let unlocked = null; // pass-and-play: the seat whose screen is showing
  let checkTimer = null;
  let zoomAt = null; // phone: the square the zoom is centred on, or null when closed
  let gone = false; // the server said the table is gone: stop reconnecting
  let startSent = false; // this page asked the server to start (it holds every person's seat)
  let lastKey = null; // what the last state showed of the game, to tell an accepted action
  let controlsKey = null; // what the controls were drawn for: redrawn only when it changes
  let myTurnBefore = false;
  let timerDue = null; // {seat, at: performance.now() deadline, why}
  let revealSeen = null; // [round key, performance.now()] of the reveal being shown
  let studyTimer = null;
  let setup = null; // GET /api/setup: the bots, for the waiting room's fill choice
  const bubbles = new Map(); // sender (seat, or "spectator") -> {emoji, until}
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  const $ = (id) => document.getElementById(id);
  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const c of children || []) if (c !== null && c !== undefined) node.append(c);
    return node;
  }
  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function stored(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }

  function seatsNow() { const s = latest(); return (s && s.seats) || (welcome && welcome.seats) || []; }
  function seatName(seat) { const seats = seatsNow(); return seats[seat] ? seats[seat].name : t("play.seat", { n: seat + 1 }); }
  function seatColour(seat) { return welcome ? welcome.seats[seat].colour : "#888"; }
  function isPerson(seat) { const seats = seatsNow(); return seats[seat] && seats[seat].kind === "person"; }
  function holds(seat) { return conns.some((c) => c.seat === seat); }
  function creator() { return holds(0); }

  // ---- the invite: a name first, then a free seat ------------------------------------------
  if (invite && !tokens.length) {
    // This device took a seat through this invite before: the same seat again.
    const mine = stored(`huescues.invite.${invite}`);
    if (mine) tokens = [mine];
  }
  if (!tokens.length && !invite) {
    $("status").textContent = t("play.no_link");
    return;
  }

  // ---- connections -----------------------------------------------------------------------
  // The server pings every joined socket every `ping_seconds` (its welcome says; 10 s until
  // then). A socket that hears nothing at all for two and a half of these is lost: a phone that
  // drops off the wifi often never sees its socket close. It is given up and a new one joins,
  // as after a close.
  let pingSeconds = 10;
  function connect(conn) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    conn.ws = ws;
    conn.heard = performance.now();
    ws.addEventListener("open", () => {
      const join = { type: "join", token: conn.token };
      if (conn.name !== undefined) join.name = conn.name;
      ws.send(JSON.stringify(join));
    });
    ws.addEventListener("message", (event) => {
      if (conn.ws !== ws) return; // a socket given up on (below)
      conn.heard = performance.now();
      onMessage(conn, JSON.parse(event.data));
    });
    ws.addEventListener("close", (event) => {
      if (conn.ws !== ws) return; // given up on already, and replaced
      // 4404: the server said the table is gone; trying again would only say it again.
      if (gone || event.code === 4404) { showGone(); return; }
      if (conn.name !== undefined && conn.seat === null) return; // an invite refused: said already
      reconnect(conn, event.code === 1013 ? 5000 : 1000);
    });
  }
  function reconnect(conn, after) {
    conn.ws = null;
    $("status").textContent = t("play.lost");
    // Above every screen: the waiting room and the end screen have no status line.
    conn.lost = true;
    $("offline").hidden = false;
    setTimeout(() => { if (!gone) connect(conn); }, after);
  }
  setInterval(() => {
    const now = performance.now();
    for (const conn of conns) {
      if (gone || !conn.ws || now - conn.heard < 2500 * pingSeconds) continue;
      const ws = conn.ws;
      reconnect(conn, 0);
      try { ws.close(); } catch (e) { /* closing already */ }
    }
  }, 1000);
  function open(token, name) {
    const conn = { token, seat: null, ws: null, state: null };
    if (name !== undefined) conn.name = name;
    conns.push(conn);
    connect(conn);
    return conn;
  }
  if (tokens.length) {
    for (const token of tokens) open(token);
  } else {
    showScreen("join");
    header("");
    $("status").textContent = "";
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = document.querySelector("[data-field=join-name]").value.trim();
      if (!name) return;
      $("join-error").textContent = "";
      document.querySelector("[data-action=join]").disabled = true;
      conns.length = 0;
      open(invite, name);
    });
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
      conn.lost = false;
      $("offline").hidden = !conns.some((c) => c.lost);
      if (typeof msg.ping_seconds === "number" && msg.ping_seconds > 0) pingSeconds = msg.ping_seconds;
      if (msg.token) {
        // A seat taken through the invite: its own token from now on, kept, so that a reload
        // (and the invite opened again on this device) returns to the seat.
        conn.token = msg.token;
        delete conn.name;
        if (invite) store(`huescues.invite.${invite}`, msg.token);
        const hash = new URLSearchParams({ t: msg.token });
        if (study) hash.set("study", "1");
        history.replaceState(null, "", `/play#${hash.toString()}`);
      }
      spectator = msg.spectator === true;
      if (msg.options && msg.options.study) study = true;
      if (!welcome || welcome.table !== msg.table) { welcome = msg; buildBoard(msg.board); drawReactions(); }
    } else if (msg.type === "state") {
      conn.state = msg;
      if (selected && msg.pawns.some(([, c]) => c === selected)) selected = null;
      render();
    } else if (msg.type === "check") {
      showCheck(msg);
    } else if (msg.type === "again") {
      onAgain(msg);
    } else if (msg.type === "reaction") {
      onReaction(msg);
    } else if (msg.type === "error") {
      if (msg.code === "gone") { gone = true; showGone(); return; }
      if (conn.name !== undefined && conn.seat === null) {
        // The invite could not be taken (a name refused, no free seat): say so on its form.
        $("join-error").textContent = HuesI18n.refusal(msg);
        document.querySelector("[data-action=join]").disabled = false;
        conns.splice(conns.indexOf(conn), 1);
        try { conn.ws.close(); } catch (e) { /* closed already */ }
        return;
      }
      $("message").textContent = HuesI18n.refusal(msg);
    }
  }

  // ---- screens ---------------------------------------------------------------------------
  function showScreen(name) {
    for (const screen of document.querySelectorAll("[data-screen]")) screen.hidden = screen.dataset.screen !== name;
  }
  function showGone() {
    gone = true;
    $("offline").hidden = true;
    $("cover").hidden = true;
    $("zoom").hidden = true;
    header("");
    showScreen("gone");
  }
  function onAgain(msg) {
    // Play again in place: the server moves this page's connections to the next game (the same
    // links open it) and sends each its welcome and state there; the page starts afresh.
    const by = msg.by === null ? null : seatName(msg.by);
    startAfresh();
    $("again-note").textContent = by === null ? t("play.again.started") : t("play.again.by", { name: by });
  }
  function startAfresh() {
    welcome = null;
    selected = null;
    unlocked = null;
    lastKey = null;
    revealSeen = null;
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
    return conns.find((c) => c.state && c.seat !== null && c.seat === state.current) || null;
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
  // A pawn's points by its distance from the target (R15: the standard 3, 2, 1; the web's
  // tables play the standard scoring).
  function pawnPoints(d) { return [3, 2, 1][d] || 0; }

  // Whether a stand-in made this move (a pawn on `cell`, or the clue `text`) in `round`.
  function byStandIn(state, round, seat, action, value) {
    return (state.stand_ins || []).some((m) => m.round === round && m.seat === seat && m.action === action && m.value === value);
  }

  function revealingRound(state, view) {
    // Between rounds (and at the end) the board shows the last reveal: target, frame, pawns.
    // The giver, once dealt a card, sees the card instead (the reveal stays in the side panel).
    const revealing = state.history.length > 0 && state.clues.length === 0 && state.pawns.length === 0 && (!view.card || state.reveal);
    return revealing ? state.history[state.history.length - 1] : null;
  }

  function drawBoard(state, conn) {
    const view = conn.state;
    const last = revealingRound(state, view);
    const pawns = last ? last.pawns : state.pawns;
    const byCell = new Map(pawns.map(([seat, c]) => [c, seat]));
    const card = view.card || [];
    const target = last ? last.target : view.target;
    const guessing = conn.seat !== null && conn.seat === state.current && (state.phase === "first_guess" || state.phase === "second_guess");
    const round = last ? last.round : state.round;
    // The frame drops onto the target once a reveal: a redraw during its motion carries on
    // where it was (a negative delay), and after it the frame stays put.
    let dropAt = null;
    if (last) {
      const key = `${welcome.table}:${last.round}:${last.tiebreak}`;
      if (!revealSeen || revealSeen[0] !== key) revealSeen = [key, performance.now()];
      dropAt = performance.now() - revealSeen[1];
    }
    for (const [name, cell] of cells) {
      cell.replaceChildren();
      cell.className = "hc-cell cell";
      const d = target ? distance(name, target) : 99;
      if (last && d <= 1) cell.classList.add(d === 0 ? "target" : "frame");
      if (last && d === 0) {
        const frame = el("span", { className: "frame-drop" });
        if (!reduced && dropAt < 900) { frame.classList.add("dropping"); frame.style.animationDelay = `-${Math.round(dropAt)}ms`; }
        cell.append(frame);
      }
      if (!last && view.target === name) cell.classList.add("target");
      const ci = last ? -1 : card.indexOf(name);
      if (ci >= 0) {
        cell.classList.add("card");
        cell.append(el("span", { className: "card-mark", textContent: String(ci + 1) }));
      }
      if (byCell.has(name)) {
        const seat = byCell.get(name);
        const pawn = pawnOf(seat);
        if (byStandIn(state, round, seat, "pawn", name)) {
          pawn.classList.add("stood-in");
          pawn.title = t("play.stand_in_move", { name: seatName(seat) });
        }
        cell.append(pawn);
        if (last) {
          // Each pawn's points on the board (R15).
          const points = pawnPoints(distance(name, last.target));
          if (points) cell.append(el("span", { className: `pawn-points p${points}`, textContent: `+${points}` }));
        }
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
    // The clue, in the sheet: on a phone the sheet covers the side panel that shows it.
    $("zoom-clues").replaceChildren(...state.clues.map((clue) => el("q", { className: "clue", textContent: clue })));
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
  // The reveal's board on a phone: twice as wide, scrolled (a pinch works too).
  document.querySelector("[data-action=zoom-board]").addEventListener("click", (event) => {
    const wrap = document.querySelector(".board-wrap");
    wrap.classList.toggle("zoomed");
    event.target.textContent = wrap.classList.contains("zoomed") ? t("play.unzoom_board") : t("play.zoom_board");
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
    // A state that changes nothing the controls show (a presence change, a reaction, another
    // seat's reconnection) leaves them as they are: redrawn, they would drop a tap or a key
    // press in flight on a slow phone (the button under the finger replaced between its
    // press and its release).
    // (A clue being typed is kept so: the box is replaced only when its turn is over.)
    const reveal = state.reveal
      ? [state.reveal.waiting_for.map(seatName), Math.ceil(state.reveal.seconds_left)] : null;
    const key = JSON.stringify([welcome.table, conn.seat, state.current, state.phase, state.round,
      state.clues.length, state.pawns.length, state.history.length, state.may_pass, state.clue_words,
      conn.state.card || null, conn.state.target || null, selected, reveal, conns.map((c) => c.seat)]);
    if (key === controlsKey && box.isConnected) return;
    controlsKey = key;
    box.replaceChildren();
    if (state.reveal) { box.append(...revealControls(state)); return; }
    if (state.phase === "game_over" || conn.seat === null || conn.seat !== state.current) return;
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
    const mine = conns.filter((c) => c.seat !== null && state.reveal.waiting_for.includes(c.seat));
    const others = state.reveal.waiting_for.filter((seat) => !holds(seat));
    const parts = [];
    const last = state.history[state.history.length - 1];
    if (last) parts.push(giverPoints(last));
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

  // The giver's points of the round revealed (R16), counted up once.
  let counted = null;
  function giverPoints(last) {
    const n = last.points[last.giver] || 0;
    const value = el("strong", { className: "giver-count", textContent: `+${n}` });
    const key = `${welcome.table}:${last.round}:${last.tiebreak}`;
    if (!reduced && n > 0 && counted !== key) {
      counted = key;
      const start = performance.now();
      value.textContent = "+0";
      const step = (now) => {
        const k = Math.min(1, (now - start) / 900);
        const shown = document.querySelector(".giver-count");
        if (shown) shown.textContent = `+${Math.round(n * k)}`;
        if (k < 1) requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    }
    return el("p", { className: "giver-points" }, [t("play.giver_points", { name: seatName(last.giver) }), " ", value]);
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
    if (conn.seat !== null && conn.seat === who) {
      return t(`turn.${state.phase}`);
    }
    const text = t(`phase.${state.phase}`, { name: seatName(who) });
    // Who the table waits for, when that person is away.
    // (With a stand-in's countdown, the timer's line says so.)
    if (state.presence && state.presence[who] === "away" && isPerson(who) && !state.timer) return `${text} ${t("play.is_away", { name: seatName(who) })}`;
    return text;
  }

  function presenceTag(state, seat) {
    const p = (state.presence || [])[seat] || "here";
    return el("span", { className: `presence ${p}`, title: t(`presence.${p}`), textContent: t(`presence.${p}`) });
  }

  function drawScores(conn, state) {
    const list = $("scores");
    list.replaceChildren();
    const scores = state.result ? state.result.scores : state.scores;
    const over = state.phase === "game_over";
    scores.forEach((score, seat) => {
      const tags = [];
      // (During a reveal the giver is the next round's: no tag until it starts.)
      if (seat === state.giver && !over && !state.reveal) tags.push(t("play.tag.giver"));
      if (holds(seat)) tags.push(t("play.tag.you"));
      const name = el("span", { className: "name" }, [el("span", { textContent: seatName(seat) }), bubbleOf(seat)]);
      name.dataset.seatName = String(seat);
      const item = el("li", {}, [el("span", { className: "dot" }), name,
        el("span", { className: "tags" }, [presenceTag(state, seat), tags.length ? ` ${tags.join(", ")}` : ""]),
        el("span", { className: "score", textContent: String(score) })]);
      item.dataset.presence = (state.presence || [])[seat] || "";
      item.firstChild.style.background = seatColour(seat);
      if (seat === state.current) item.classList.add("current");
      if (state.result && state.result.winners.includes(seat)) item.classList.add("winner");
      // The creator may give an away person's seat to a bot for the rest of the game.
      if (creator() && !over && !study && seat !== 0 && isPerson(seat) && (state.presence || [])[seat] === "away") {
        const give = el("button", { type: "button", className: "small", textContent: t("play.give_to_bot") });
        give.dataset.action = "give-to-bot";
        give.dataset.seat = String(seat);
        give.addEventListener("click", () => { send(conns.find((c) => c.seat === 0), { type: "bot", seat }); give.disabled = true; });
        item.append(give);
      }
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
    clues.forEach((clue) => {
      const q = el("q", { className: "clue", textContent: clue });
      box.append(q);
      if (byStandIn(state, state.round, state.giver, "clue", clue)) box.append(standInMark(state.giver));
    });
  }
  function standInMark(seat) {
    return el("span", { className: "stand-in-mark", title: t("play.stand_in_move", { name: seatName(seat) }), textContent: t("play.stand_in") });
  }

  function roundClues(state, round) {
    const marks = round.clues.map((x) => `“${x}”${byStandIn(state, round.round, round.giver, "clue", x) ? ` (${t("play.stand_in")})` : ""}`);
    return marks.join(t("play.then")) + (round.clues.length < 2 ? t("play.passed") : "");
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
    box.append(el("h3", { textContent: `${t("play.reveal_of", { n: last.round + 1 })}${last.tiebreak ? t("play.tiebreak_tag") : ""}` }),
      el("p", {}, [sw, t("play.target_was", { name: seatName(last.giver), cell: last.target, clues: roundClues(state, last) })]),
      el("p", { textContent: t("play.points", { points }) }));
  }

  // ---- the turn timer and the stand-in's countdown ---------------------------------------
  function noteTimer(state) {
    timerDue = state.timer && !state.reveal && state.phase !== "game_over"
      ? { seat: state.timer.seat, why: state.timer.why, at: performance.now() + state.timer.seconds_left * 1000 } : null;
    tickTimer();
  }
  function tickTimer() {
    const box = $("timer");
    if (!timerDue) { box.hidden = true; return; }
    const s = Math.max(0, Math.ceil((timerDue.at - performance.now()) / 1000));
    const name = seatName(timerDue.seat);
    const mine = holds(timerDue.seat);
    box.textContent = timerDue.why === "away"
      ? t("play.timer.away", { name, s })
      : mine ? t("play.timer.yours", { s }) : t("play.timer.turn", { name, s });
    box.classList.toggle("urgent", s <= 10);
    box.hidden = false;
  }
  setInterval(tickTimer, 250);

  // ---- reactions ---------------------------------------------------------------------------
  function drawReactions() {
    for (const id of ["reactions", "end-reactions", "waiting-reactions"]) {
      const box = $(id);
      if (!box) continue;
      box.replaceChildren();
      if (study || !welcome || !welcome.reactions) { box.hidden = true; continue; }
      for (const emoji of welcome.reactions) {
        const b = el("button", { type: "button", className: "reaction", textContent: emoji, title: emoji });
        b.dataset.action = "react";
        b.dataset.emoji = emoji;
        b.addEventListener("click", () => send(conns.find((c) => c.state) || conns[0], { type: "react", emoji }));
        box.append(b);
      }
      box.hidden = false;
    }
  }
  function onReaction(msg) {
    const sender = msg.seat === null ? "spectator" : msg.seat;
    bubbles.set(sender, { emoji: msg.emoji, until: performance.now() + 3000 });
    if (msg.seat === null) {
      const feed = $("reaction-feed");
      feed.textContent = t("play.spectator_reacts", { emoji: msg.emoji });
      feed.dataset.emoji = msg.emoji;
    }
    render();
    setTimeout(() => {
      const b = bubbles.get(sender);
      if (b && b.until <= performance.now() + 50) {
        bubbles.delete(sender);
        if (sender === "spectator") $("reaction-feed").textContent = "";
        render();
      }
    }, 3100);
  }
  function bubbleOf(seat) {
    const b = bubbles.get(seat);
    if (!b || b.until < performance.now()) return null;
    const bubble = el("span", { className: "bubble", textContent: b.emoji });
    bubble.dataset.reaction = b.emoji;
    return bubble;
  }

  // ---- a soft sound when it becomes your turn (WebAudio, made here: no file) -------------
  let audio = null;
  let muted = stored("huescues.mute") === "1";
  function drawMute() {
    const b = $("mute");
    b.textContent = muted ? "🔕" : "🔔";
    b.setAttribute("aria-pressed", String(muted));
    b.title = muted ? t("play.sound.off") : t("play.sound.on");
  }
  drawMute();
  $("mute").addEventListener("click", () => { muted = !muted; store("huescues.mute", muted ? "1" : "0"); drawMute(); });
  // Browsers let a page play sound only after a tap: the context is made (or woken) then.
  document.addEventListener("pointerdown", () => {
    try {
      if (!audio && window.AudioContext) audio = new AudioContext();
      if (audio && audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }, { passive: true });
  function chime() {
    window.__chimes = (window.__chimes || 0) + 1; // (counted, for the page's tests)
    if (muted || !audio) return;
    const now = audio.currentTime;
    for (const [i, freq] of [[0, 660], [1, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.08, now + i * 0.14 + 0.03);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.45);
    }
  }

  // ---- the waiting room ------------------------------------------------------------------
  async function loadSetup() {
    if (setup) return setup;
    try { const r = await fetch("/api/setup"); if (r.ok) setup = await r.json(); } catch (e) { setup = null; }
    return setup;
  }

  function settingsText() {
    const o = welcome.options || {};
    const parts = [t(`wait.board.${o.board === "retail" ? "retail" : "standard"}`),
      o.away_seconds ? t("wait.away", { s: o.away_seconds }) : t("wait.away.never"),
      o.turn_seconds ? t("wait.turn", { s: o.turn_seconds }) : t("wait.turn.off")];
    return parts.join(" · ");
  }

  let linksDrawn = null;
  function drawWaiting(state) {
    showScreen("waiting");
    $("cover").hidden = true;
    $("zoom").hidden = true;
    if (spectator) header(t("play.watching"));
    else { const name = seatName(shown(state).seat); header(t("wait.header", { name }), t("wait.header.short", { name })); }
    const seats = $("waiting-seats");
    seats.replaceChildren();
    const missing = [];
    state.seats.forEach((seat, i) => {
      const p = state.presence[i];
      if (seat.kind === "person" && p !== "here") missing.push(seat.name);
      const name = el("span", { className: "name" }, [el("span", { textContent: seat.name }), bubbleOf(i)]);
      name.dataset.seatName = String(i);
      const kind = seat.kind === "person" ? (i === 0 ? t("wait.creator") : "") : t(`bot.kind.${seat.kind}`);
      const item = el("li", {}, [el("span", { className: "dot" }), name,
        el("span", { className: "tags" }, [presenceTag(state, i), kind ? ` ${kind}` : "", holds(i) ? ` ${t("play.tag.you")}` : ""])]);
      item.firstChild.style.background = seat.colour;
      item.dataset.presence = p;
      seats.append(item);
    });
    $("waiting-line").textContent = missing.length ? t("wait.for", { names: missing.join(", ") }) : t("wait.everyone");
    $("waiting-settings").textContent = `${settingsText()}. ${houseText(false)}`;
    const start = $("waiting-start");
    start.hidden = !creator();
    $("waiting-creator").textContent = creator() ? "" : t("wait.creator_starts", { name: seatName(0) });
    if (creator()) drawFill();
    drawLinks();
  }

  async function drawFill() {
    const select = document.querySelector("[data-field=fill]");
    if (select.dataset.language === welcome.language) return;
    select.dataset.language = welcome.language;
    const s = await loadSetup();
    if (!s) return;
    for (const b of s.bots) {
      if (!(b.languages || ["en"]).includes(welcome.language)) continue;
      select.append(el("option", { value: b.kind, textContent: t("wait.fill.bot", { kind: t(`bot.kind.${b.kind}`) }), title: b.description }));
    }
    if (select.querySelector("option[value=default]")) select.value = "default";
  }
  document.querySelector("[data-action=start-game]").addEventListener("click", (event) => {
    const fill = document.querySelector("[data-field=fill]").value;
    const message = { type: "start" };
    if (fill) message.fill = fill;
    send(conns.find((c) => c.seat === 0), message);
    event.target.disabled = true;
  });

  function drawLinks() {
    const box = $("waiting-links");
    if (!creator() || study) { box.hidden = true; return; }
    if (linksDrawn === welcome.table) return;
    let links = null;
    try { links = JSON.parse(stored(`huescues.links.${welcome.table}`) || "null"); } catch (e) { links = null; }
    if (!links) { box.hidden = true; return; }
    linksDrawn = welcome.table;
    const drawn = (id, url, action) => {
      const target = $(id);
      target.replaceChildren(...shareLink(url, action));
    };
    if (links.invite) drawn("invite-link", links.invite, "invite");
    if (links.spectate) drawn("spectate-link", links.spectate, "spectate");
    const list = $("seat-links");
    list.replaceChildren();
    for (const seat of links.seats || []) {
      if (!seat.link || seat.seat === 0) continue;
      list.append(el("div", { className: "seat-link" }, [el("h3", { textContent: seat.name }), ...shareLink(seat.link, `seat-${seat.seat}`)]));
    }
    box.hidden = false;
  }

  // A link to share: the text, a copy button and its QR code (an SVG the server draws of its
  // own links, shown as an image: nothing of it runs here).
  function shareLink(url, action) {
    const input = el("input", { type: "text", readOnly: true, value: url });
    input.dataset.link = action;
    const copy = el("button", { type: "button", textContent: t("index.copy") });
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = t("index.copied"); } catch (e) { input.select(); copy.textContent = t("index.select"); }
    });
    const img = el("img", { className: "qr", alt: t("wait.qr", { url }) });
    img.dataset.qr = action;
    fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: url }) })
      .then((r) => (r.ok ? r.text() : null))
      // (A data: address: the pages' content policy loads images from this server or data.)
      .then((svg) => { if (svg) img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`; else img.remove(); })
      .catch(() => img.remove());
    return [el("div", { className: "share-row" }, [input, copy]), img];
  }

  // The header's line; where it does not fit (a phone), the `short` one, which names one's own
  // seat first: cut short at its end, it still shows whose screen this is.
  function header(text, short) {
    const box = $("round");
    box.textContent = text;
    box.title = text;
    if (short && box.scrollWidth > box.clientWidth) box.textContent = short;
  }

  // ---- drawing it all --------------------------------------------------------------------
  function render() {
    const state = latest();
    if (!state || !welcome) return;
    const conn = shown(state);
    const actor = acting(state);
    // An accepted action (the game moved on) clears the last refusal.
    const key = `${welcome.table}|${state.phase}|${state.round}|${state.clues.length}|${state.pawns.length}|${state.history.length}`;
    if (lastKey !== null && key !== lastKey) $("message").textContent = "";
    lastKey = key;
    noteTimer(state);
    document.body.classList.toggle("study", study);
    document.body.classList.toggle("spectating", spectator);
    const mine = Boolean(actor) && !state.reveal && state.phase !== "game_over" && state.started !== false;
    if (mine && !myTurnBefore) chime();
    myTurnBefore = mine;
    if (state.started === false) {
      // This page holds every person's seat (pass-and-play, or the only person): nobody else
      // to wait for, so the creator's page starts at once.
      const people = state.seats.map((s, i) => [s, i]).filter(([s]) => s.kind === "person");
      if (creator() && people.every(([, i]) => holds(i))) {
        if (!startSent) send(conns.find((c) => c.seat === 0), { type: "start" });
        startSent = true;
        $("status").textContent = t("play.connecting");
        return;
      }
      drawWaiting(state);
      return;
    }
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
    // The header names the round on the board: the one revealed while a reveal shows.
    const revealed = state.reveal ? state.history[state.history.length - 1] : null;
    let round;
    if (revealed) round = revealed.tiebreak ? t("play.reveal_tiebreak") : t("play.reveal_round", { n: revealed.round + 1, of: state.regular_rounds });
    else round = state.tiebreak ? t("play.tiebreak_round") : t("play.round_of", { n: Math.min(state.round + 1, state.regular_rounds), of: state.regular_rounds });
    const who = conns.length > 1 ? "play.this_device" : "play.you_are";
    if (spectator) header(t("play.watching_round", { round }));
    else header(t(who, { round, name: seatName(conn.seat) }), t(`${who}.short`, { round, name: seatName(conn.seat) }));
    $("status").textContent = statusText(conn, state);
    $("status").classList.toggle("your-turn", conn.seat !== null && conn.seat === state.current);
    drawClues(state);
    controls(conn, state);
    drawScores(conn, state);
    drawLastRound(state);
    drawBoard(state, conn);
    drawZoom(state);
    drawHouse();
    const zoomBoard = document.querySelector("[data-action=zoom-board]");
    zoomBoard.hidden = !revealingRound(state, conn.state) || (!needsZoom() && !document.querySelector(".board-wrap.zoomed"));
    const faults = $("faults");
    const storage = state.storage === "retrying" ? [el("li", { className: "storage", textContent: t("play.storage_retrying") })] : [];
    faults.replaceChildren(...storage, ...state.faults.map((f) => el("li", { textContent: f })));
  }

  function houseText(board) {
    const h = welcome.house_rules;
    if (!h) return "";
    const parts = [t("house.language", { language: t(`house.lang.${welcome.language || "en"}`) }),
      h.refuse_named_colours ? t("house.named") : t("house.basic"),
      h.rounds_per_giver === 1 ? t("house.rounds.1") : t("house.rounds", { n: h.rounds_per_giver }),
      h.reveal_seconds > 0 ? t("house.reveal", { s: h.reveal_seconds }) : t("house.no_pause")];
    if (board && welcome.options && welcome.options.board === "retail") parts.push(t("wait.board.retail"));
    return t("house.here", { parts: parts.join(" · ") });
  }
  function drawHouse() { $("house").textContent = houseText(true); }

  // ---- the end screen --------------------------------------------------------------------
  let celebrated = null;
  function drawEnd(state) {
    $("cover").hidden = true;
    $("zoom").hidden = true;
    $("timer").hidden = true;
    showScreen("end");
    header(spectator ? t("play.watching_round", { round: t("play.over") }) : t("play.over"));
    const r = state.result;
    const names = r.winners.map(seatName).join(t("play.and"));
    $("end-title").textContent = `🏆 ${r.shared ? t("play.end.shared", { names }) : t("play.end.wins", { names })}`;
    if (celebrated !== welcome.table) { celebrated = welcome.table; celebrate(r.winners); }
    const order = r.scores.map((score, seat) => [score, seat]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const standings = $("standings");
    standings.replaceChildren();
    for (const [score, seat] of order) {
      const name = el("span", { className: "name" }, [el("span", { textContent: seatName(seat) }), bubbleOf(seat)]);
      name.dataset.seatName = String(seat);
      const item = el("li", {}, [pawnOf(seat), name,
        el("span", { className: "score", textContent: t(score === 1 ? "play.point" : "play.points_n", { n: score }) })]);
      if (r.winners.includes(seat)) item.classList.add("winner");
      standings.append(item);
    }
    drawSeries(state);
    // The game study: its own way on, no play again.
    $("end-buttons").hidden = study || spectator;
    $("study-end").hidden = !study;
    if (study && studyTimer === null) {
      let left = 8;
      $("study-note").textContent = t("play.study.soon", { s: left });
      studyTimer = setInterval(() => {
        left -= 1;
        $("study-note").textContent = t("play.study.soon", { s: Math.max(0, left) });
        if (left <= 0) { clearInterval(studyTimer); location.assign("/study/game"); }
      }, 1000);
    }
    const rounds = $("rounds");
    rounds.replaceChildren();
    for (const round of state.history) {
      const [tr, tc] = parseCell(round.target);
      const sw = el("span", { className: "swatch" });
      sw.style.background = welcome.board.colours[tr][tc];
      const pawns = round.pawns.map(([seat, c]) => {
        const d = distance(c, round.target);
        const text = d === 0 ? t("play.on_target", { name: seatName(seat), cell: c }) : t("play.on_away", { name: seatName(seat), cell: c, d });
        const mark = byStandIn(state, round.round, seat, "pawn", c) ? ` (${t("play.stand_in")})` : "";
        return el("li", {}, [pawnOf(seat), text + mark]);
      });
      const points = round.points.map((p, seat) => p ? `${seatName(seat)} +${p}` : null).filter(Boolean).join(", ") || t("play.no_points");
      rounds.append(el("li", { className: "round-card" }, [
        el("h3", { textContent: t("play.round_card", { n: round.round + 1, tie: round.tiebreak ? t("play.tiebreak_tag") : "", name: seatName(round.giver), clues: roundClues(state, round) }) }),
        el("p", {}, [sw, t("play.target_points", { cell: round.target, points })]),
        el("ul", { className: "round-pawns" }, pawns),
      ]));
    }
  }

  // The games these seats played in a row ("play again"): one row a game, and the wins.
  function drawSeries(state) {
    const games = [...(state.series || []), state.result.scores];
    const box = $("series");
    box.hidden = games.length < 2;
    if (box.hidden) return;
    const table = $("series-table");
    table.replaceChildren();
    const head = el("tr", {}, [el("th", { textContent: t("play.series.game") }), ...state.seats.map((s, i) => {
      const th = el("th", {}, [pawnOf(i)]);
      th.title = s.name;
      return th;
    })]);
    table.append(el("thead", {}, [head]));
    const body = el("tbody");
    const wins = state.seats.map(() => 0);
    games.forEach((scores, g) => {
      const best = Math.max(...scores);
      scores.forEach((s, i) => { if (s === best) wins[i] += 1; });
      body.append(el("tr", {}, [el("th", { textContent: String(g + 1) }),
        ...scores.map((s) => el("td", { className: s === best ? "best" : "", textContent: String(s) }))]));
    });
    body.append(el("tr", { className: "wins" }, [el("th", { textContent: t("play.series.wins") }), ...wins.map((w) => el("td", { textContent: String(w) }))]));
    table.append(body);
  }

  function celebrate(winners) {
    const box = $("confetti");
    box.replaceChildren();
    if (reduced) return;
    const colours = winners.map(seatColour).concat(["#f59f00", "#3b5bdb", "#e03131", "#2f9e44"]);
    for (let i = 0; i < 36; i++) {
      const bit = el("span", { className: "bit" });
      bit.style.left = `${(i * 97) % 100}%`;
      bit.style.background = colours[i % colours.length];
      bit.style.animationDelay = `${(i % 9) * 0.12}s`;
      bit.style.animationDuration = `${2.2 + (i % 5) * 0.3}s`;
      box.append(bit);
    }
    setTimeout(() => box.replaceChildren(), 4500);
  }

  document.querySelector("[data-action=play-again]").addEventListener("click", (event) => {
    const conn = conns.find((c) => c.state && c.seat !== null);
    if (conn) { send(conn, { type: "again" }); event.target.disabled = true; $("again-note").textContent = t("play.making"); }
  });
  document.querySelector("[data-action=study-continue]").addEventListener("click", () => { if (studyTimer) clearInterval(studyTimer); });

  document.querySelector("[data-action=reveal-screen]").addEventListener("click", () => {
    const state = latest();
    const actor = state && acting(state);
    unlocked = actor ? actor.seat : null;
    selected = null;
    render();
  });
});
