// The page that creates a table: seats, kinds and names go to POST /api/tables; the answer's
// tokens become links. The bots and the seat counts come from GET /api/setup (the library's
// catalogue of players, and R2's bounds). Text from people is only ever set with textContent.
"use strict";
(async function () {
  const count = document.getElementById("seat-count");
  const list = document.getElementById("seat-list");
  let KINDS = [["person", "Person", "a person at this device, or one you send the link to"]];
  let setup;
  try {
    const response = await fetch("/api/setup");
    setup = await response.json();
    if (!response.ok) throw new Error(setup.error || response.statusText);
  } catch (e) {
    document.getElementById("create-error").textContent = `The bots could not be loaded: ${e.message || e}`;
    return;
  }
  KINDS = KINDS.concat(setup.bots.map((b) => [b.kind, `Bot (${b.kind})`, b.description]));

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
      for (const [value, label, title] of KINDS) kind.append(el("option", { value, textContent: label, title }));
      kind.value = old[i] ? old[i][0] : i === 0 ? "person" : "default";
      const name = el("input", { type: "text", name: "name", maxLength: 24, placeholder: `Player ${i + 1}`, value: old[i] ? old[i][1] : "" });
      name.dataset.seat = String(i);
      list.append(el("li", {}, [kind, name]));
    }
  }
  // The server's own reveal time, shown as the default.
  const reveal = document.querySelector("[data-field=reveal-seconds]");
  if (setup.house_rules) reveal.options[0].textContent = `${setup.house_rules.reveal_seconds} s (the server's)`;
  count.addEventListener("change", drawSeats);
  drawSeats();

  function playLink(tokens) {
    return `${location.origin}/play#t=${tokens.join(",")}`;
  }

  function houseRules() {
    const rules = { refuse_named_colours: document.querySelector("[data-field=refuse-named-colours]").checked };
    const rounds = document.querySelector("[data-field=rounds-per-giver]").value;
    if (rounds) rules.rounds_per_giver = Number(rounds);
    if (reveal.value) rules.reveal_seconds = Number(reveal.value);
    return rules;
  }

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
        body: JSON.stringify({ seats, house_rules: houseRules() }),
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
        links.append(el("li", { className: "bot" }, [el("strong", { textContent: seat.name }), " plays itself"]));
        continue;
      }
      tokens.push(seat.token);
      const url = playLink([seat.token]);
      const copy = el("button", { type: "button", textContent: "Copy" });
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch (e) { copy.textContent = "Select the link"; }
      });
      const open = el("a", { href: url, textContent: "open", target: "_blank", rel: "noopener" });
      open.dataset.seatLink = String(seat.seat);
      links.append(el("li", {}, [el("strong", { textContent: seat.name }), el("input", { type: "text", readOnly: true, value: url }), copy, open]));
    }
    document.getElementById("pass-and-play").href = playLink(tokens);
    document.getElementById("new-table").hidden = true;
    document.getElementById("links").hidden = false;
  });
})();
