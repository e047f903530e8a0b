// The page that creates a table: seats, kinds and names go to POST /api/tables; the answer's
// tokens become links. The bots and the seat counts come from GET /api/setup (the library's
// catalogue of players, and R2's bounds). Text from people is only ever set with textContent.
"use strict";
(async function () {
  await HuesI18n.ready;
  const t = HuesI18n.t;
  const count = document.getElementById("seat-count");
  const list = document.getElementById("seat-list");
  const language = document.getElementById("table-language");
  let setup;
  try {
    const response = await fetch("/api/setup");
    setup = await response.json();
    if (!response.ok) throw new Error(setup.error || response.statusText);
  } catch (e) {
    document.getElementById("create-error").textContent = t("index.no_bots", { e: e.message || e });
    return;
  }
  // The table's language (its clue rules, R19-R21): the server's default first. A bot that
  // does not speak it is labelled so ("English clues").
  for (const code of setup.languages || ["en"]) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = t(`lang.name.${code}`);
    language.append(option);
  }
  language.value = setup.language || "en";
  function kinds() {
    const bots = setup.bots.map((b) => [b.kind,
      (b.languages || ["en"]).includes(language.value) ? t("index.bot", { kind: b.kind }) : t("index.english_clues", { kind: b.kind }),
      b.description]);
    return [["person", t("index.person"), t("index.person.title")], ...bots];
  }

  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const c of children || []) node.append(c);
    return node;
  }

  for (let n = setup.min_players; n <= setup.max_players; n++) count.append(el("option", { value: String(n), textContent: String(n), selected: n === 4 }));

  function drawSeats() {
    const n = Number(count.value);
    const old = Array.from(list.children).map((li) => [li.querySelector("select").value, li.querySelector("input").value]);
    list.replaceChildren();
    for (let i = 0; i < n; i++) {
      const kind = el("select", { name: "kind" });
      kind.dataset.seat = String(i);
      for (const [value, label, title] of kinds()) kind.append(el("option", { value, textContent: label, title }));
      kind.value = old[i] ? old[i][0] : i === 0 ? "person" : "default";
      const name = el("input", { type: "text", name: "name", maxLength: 24, placeholder: t("index.player", { n: i + 1 }), value: old[i] ? old[i][1] : "" });
      name.dataset.seat = String(i);
      list.append(el("li", {}, [kind, name]));
    }
  }
  // The server's own reveal time, shown as the default.
  const reveal = document.querySelector("[data-field=reveal-seconds]");
  if (setup.house_rules) reveal.options[0].textContent = t("index.reveal.server.s", { s: setup.house_rules.reveal_seconds });
  count.addEventListener("change", drawSeats);
  language.addEventListener("change", drawSeats);
  drawSeats();

  function playLink(tokens) {
    // Pass-and-play: every seat on this device, so this page's own address.
    return `${location.origin}/play#t=${tokens.join(",")}`;
  }

  function houseRules() {
    const rules = { refuse_named_colours: document.querySelector("[data-field=refuse-named-colours]").checked };
    const rounds = document.querySelector("[data-field=rounds-per-giver]").value;
    if (rounds) rules.rounds_per_giver = Number(rounds);
    if (reveal.value) rules.reveal_seconds = Number(reveal.value);
    return rules;
  }

  // How the table runs (not game rules): the board, when a stand-in plays for someone away, the
  // turn timer. The server's defaults are the form's.
  function tableOptions() {
    const value = (field) => document.querySelector(`[data-field=${field}]`).value;
    // (Whole seconds, as the server takes them; what it refuses it names.)
    const seconds = (field) => { const v = value(field).trim(); return v === "" ? 0 : Number(v); };
    return { board: value("board"), away_seconds: seconds("away-seconds"), turn_seconds: seconds("turn-seconds") };
  }
  if (setup.options) {
    document.querySelector("[data-field=away-seconds]").value = String(setup.options.away_seconds);
    document.querySelector("[data-field=turn-seconds]").value = String(setup.options.turn_seconds);
  }

  // The top of the server's ratings, where it shows them (huescues serve --leaderboard, which
  // /api/setup says; elsewhere it is not asked for, a 404 that would be a console error, and
  // the section stays hidden).
  (async function () {
    if (!setup.leaderboard) return;
    let leaders;
    try {
      const response = await fetch("/api/leaderboard");
      if (!response.ok) return;
      leaders = (await response.json()).leaders || [];
    } catch (e) { return; }
    if (!leaders.length) return;
    const box = document.getElementById("leader-list");
    for (const r of leaders) {
      const who = r.kind === "bot" ? t("index.leaders.bot", { name: r.entrant }) : r.entrant;
      box.append(el("li", {}, [el("span", { className: "name", textContent: who }),
        el("span", { className: "score", textContent: t("index.leaders.rating", { mu: r.mu.toFixed(1), low: r.low.toFixed(1), high: r.high.toFixed(1), games: r.games }) })]));
    }
    document.getElementById("leaders").hidden = false;
  })();

  document.getElementById("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("create-error");
    error.textContent = "";
    const seats = Array.from(list.children).map((li) => {
      const name = li.querySelector("input").value.trim();
      const seat = { kind: li.querySelector("select").value };
      if (name) seat.name = name;
      return seat;
    });
    let answer;
    try {
      const response = await fetch("/api/tables", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        // A table made here opens on a waiting room: the creator (seat 1) starts it.
        body: JSON.stringify({ seats, house_rules: houseRules(), language: language.value, ...tableOptions(), waiting_room: true }),
      });
      answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
    } catch (e) {
      error.textContent = String(e.message || e);
      return;
    }
    const links = document.getElementById("link-list");
    links.replaceChildren();
    const tokens = [];
    for (const seat of answer.seats) {
      if (!seat.token) {
        links.append(el("li", { className: "bot" }, [el("strong", { textContent: seat.name }), t("index.plays_itself")]));
        continue;
      }
      tokens.push(seat.token);
      // The server's link: its public address, or one friends' phones on this network can open.
      const url = seat.link || playLink([seat.token]);
      const copy = el("button", { type: "button", textContent: t("index.copy") });
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); copy.textContent = t("index.copied"); } catch (e) { copy.textContent = t("index.select"); }
      });
      const open = el("a", { href: url, textContent: t("index.open"), target: "_blank", rel: "noopener" });
      open.dataset.seatLink = String(seat.seat);
      links.append(el("li", {}, [el("strong", { textContent: seat.name }), el("input", { type: "text", readOnly: true, value: url }), copy, open]));
    }
    document.getElementById("pass-and-play").href = playLink(tokens);
    // The waiting room (the creator's seat, seat 1) shows these links and their QR codes: this
    // device keeps them, as the server keeps only their hashes.
    try {
      localStorage.setItem(`huescues.links.${answer.table}`, JSON.stringify({
        invite: answer.invite, spectate: answer.spectate,
        seats: answer.seats.map((s) => ({ seat: s.seat, name: s.name, link: s.link })),
      }));
    } catch (e) { /* private mode: the waiting room shows the invite from this page only */ }
    // The creator's seat opens on this device, at this page's own address: the links above are
    // kept in this address's storage, which the public URL's or the network's (another origin,
    // where a seat's link points) cannot read.
    document.getElementById("waiting-room").href = playLink([answer.seats[0].token]);
    document.getElementById("new-table").hidden = true;
    document.getElementById("links").hidden = false;
  });
})();
