// The pages' texts in the reader's language: a small catalogue per language
// (/static/i18n/LANG.json, shipped with the package). The language is the one the reader chose
// with the switch (kept in localStorage), else the first of the browser's languages
// (navigator.languages) the pages speak, else the server's default (GET /api/languages: the
// tables' `huescues serve --language`, the study's `--study-language`). Elements marked
// data-i18n="key" get the text; data-i18n-placeholder, -title and -aria-label set attributes.
// Texts from the server (rule refusals' details, people's names and clues) stay as they come;
// a rule refusal is shown with the catalogue's own words and the rule number first.
"use strict";
window.HuesI18n = (function () {
  const KEY = "huescues.lang";
  let lang = "en";
  let texts = {};
  let english = {};
  let languages = ["en", "es"];

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function choose(serverDefault) {
    const asked = new URLSearchParams(location.search).get("lang");
    if (asked && languages.includes(asked)) return asked;
    const mine = stored();
    if (mine && languages.includes(mine)) return mine;
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const primary = String(tag).toLowerCase().split("-")[0];
      if (languages.includes(primary)) return primary;
    }
    return languages.includes(serverDefault) ? serverDefault : "en";
  }
  async function fetchJson(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return response.json();
  }

  // t("key", {name: "Ann"}): the text of `key` with {name} filled in (the English text when the
  // catalogue lacks it, the key itself when both do).
  function t(key, vars) {
    let text = key in texts ? texts[key] : key in english ? english[key] : key;
    if (Array.isArray(text)) return text;
    for (const [k, v] of Object.entries(vars || {})) text = text.split(`{${k}}`).join(String(v));
    return text;
  }

  function apply(root) {
    for (const node of (root || document).querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const attr of ["placeholder", "title", "aria-label"]) {
      const data = `i18n${attr.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join("")}`;
      for (const node of (root || document).querySelectorAll(`[data-i18n-${attr}]`)) node.setAttribute(attr, t(node.dataset[data]));
    }
    document.documentElement.lang = lang;
  }

  // The switch: one button per language, the current one pressed; a press keeps the choice
  // and reloads the page (a game page rejoins its seats, the study resumes).
  function drawSwitch() {
    for (const box of document.querySelectorAll("[data-lang-switch]")) {
      box.replaceChildren();
      box.setAttribute("aria-label", t("lang.switch"));
      for (const code of languages) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "lang-button";
        b.dataset.lang = code;
        b.textContent = t(`lang.name.${code}`);
        // (Named so when a phone's header shows only its code: game.css.)
        b.setAttribute("aria-label", b.textContent);
        b.setAttribute("aria-pressed", String(code === lang));
        b.addEventListener("click", () => {
          try { localStorage.setItem(KEY, code); } catch (e) { /* private mode: this page only */ }
          const url = new URL(location.href);
          url.searchParams.delete("lang");
          if (url.href !== location.href) location.replace(url.href); else location.reload();
        });
        box.append(b);
      }
    }
  }

  // A refusal from the server: its message as it comes in English; in another language the
  // catalogue's words for the rule, its number, then the server's detail.
  function refusal(msg) {
    if (lang === "en" || !msg.rule) return msg.message;
    const rule = String(msg.rule).split(",")[0].trim();
    const why = texts[`rule.${rule}`];
    return `${t("refused", { rule: msg.rule })}${why ? ` ${why}` : ""} (${msg.message})`;
  }

  const ready = (async function () {
    const study = location.pathname.startsWith("/study");
    let serverDefault = "en";
    try {
      const info = await fetchJson("/api/languages");
      languages = info.languages || languages;
      serverDefault = (study ? info.study : info.tables) || "en";
    } catch (e) { /* an older server: English and Spanish, English first */ }
    lang = choose(serverDefault);
    // Both texts at once (one round trip, not two, on a slow phone).
    const own = lang === "en" ? null : fetchJson(`/static/i18n/${lang}.json`).catch(() => null);
    english = await fetchJson("/static/i18n/en.json").catch(() => ({}));
    texts = own ? await own : english;
    if (!texts) { lang = "en"; texts = english; }
    if (document.readyState === "loading") await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve));
    apply();
    drawSwitch();
    return lang;
  })();

  return { ready, t, apply, refusal, get lang() { return lang; } };
})();
