// Tempus's live page: the board (SVG from the server), zoom and pan with fingers or a mouse,
// a tap on a hex for what stands there, a seat's choices as the server lists them (this
// page never decides what is legal: it shows the server's list and sends back the steps of
// the one tapped), pushes of every change over a stream.
// The link's token is after "#": browsers never send it to a server on their own; it goes
// in an Authorization header, and no cookie is used. Every text is set as text (no HTML).
// Inside Discord (an Activity) there is no link: activity.js gets the token from our server
// once Discord confirmed who the person is, and again if it expires while the page is open.
"use strict";
(function () {
  let token = decodeURIComponent(location.hash.slice(1));
  let renew = null;        // inside Discord: gets a fresh token (activity.js)
  let renewing = null;     // that renewal under way (one for every request that needs it)
  const $ = (id) => document.getElementById(id);
  const SVGNS = "http://www.w3.org/2000/svg";
  let state = null;        // the newest state the server sent
  let mapKey = "";         // the key of the map layer shown
  let box = null;          // the map's box [x, y, w, h]
  let vb = null;           // the view box shown {x, y, w, h}
  let sel = null;          // the selected stack (a hex number) or null
  let busy = false;        // an action is on its way
  let picked = new Set();  // cards picked for a choice of cards
  let cardMode = false;    // the card plays shown instead of the action's own choices
  let ui = {};

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function say(text, bad) {
    const t = $("toast");
    t.textContent = text || "";
    t.className = bad ? "bad" : "";
  }
  function conn(text) { $("conn").textContent = text || ""; }

  // ---------------------------------------------------------------- talking to the server
  function headers(json) {
    const h = { "Authorization": "Bearer " + token };
    if (json) h["Content-Type"] = "application/json";
    return h;
  }
  // every request to the server; inside Discord a token that expired while the page was
  // open is renewed once (Discord says who the person is again) and the request repeated
  async function api(path, options) {
    const json = options && options.body !== undefined;
    const ask = () => fetch(path, Object.assign({ cache: "no-store" }, options, { headers: headers(json) }));
    const r = await ask();
    if (r.status !== 401 || !renew) return r;
    try {
      renewing = renewing || renew().finally(() => { renewing = null; });
      token = await renewing;
    } catch (e) {
      conn(e.message);
      return r;
    }
    return ask();
  }
  // "What happened?": asked again each time the box is opened (since the person's
  // previous decision, as in Discord), never kept open across changes
  async function getRecap() {
    const box = $("recap");
    clear(box);
    const r = await api("/api/recap");
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { say(data.error || String(r.status), true); return; }
    for (const line of data.lines || []) if (line) box.appendChild(el("li", {}, line));
  }
  async function getState() {
    const r = await api("/api/state");
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.error || String(r.status));
    receive(data);
  }
  async function post(path, body) {
    if (busy) return;
    busy = true;
    document.body.dataset.sent = String(Date.now());
    say(ui.sending || "…");
    renderButtons();
    try {
      const r = await api(path, { method: "POST", body: JSON.stringify(body) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) {
        say(data.error || String(r.status), true);
        if (data.stale) await getState().catch(() => {});
      } else {
        say(data.done || ui.done || "");
        sel = null;
        // when the server took it (a browser test measures how soon pages show it)
        document.body.dataset.accepted = String(Date.now());
        document.body.dataset.acceptedV = String(data.v);
      }
    } catch (e) {
      say(ui.offline || "offline", true);
    } finally {
      busy = false;
      render();
    }
  }
  function act(steps) { post("/api/act", { v: state.v, steps: steps }); }

  // The server writes to a stream at once when it opens; a stream that stays silent is
  // held back by something between (a proxy that buffers): the page then asks for the
  // state every few seconds instead
  const SILENT_MS = 10000;
  const POLL_MS = 4000;
  let backoff = 1000;
  async function stream() {
    for (;;) {
      const ctl = new AbortController();
      let heard = false;
      let held = false;
      const watchdog = setTimeout(() => { if (!heard) { held = true; ctl.abort(); } }, SILENT_MS);
      try {
        const q = "?v=" + (state ? state.v : -1) + "&map=" + encodeURIComponent(mapKey);
        const r = await api("/api/stream" + q, { signal: ctl.signal });
        if (!r.ok) {
          const data = await r.json().catch(() => ({}));
          conn(data.error || String(r.status));
          if (r.status === 401 || r.status === 403 || r.status === 404) return;
          throw new Error("stream");
        }
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (!heard) { heard = true; conn(""); backoff = 1000; }
          buf += dec.decode(value, { stream: true });
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block.split("\n").filter((l) => l.startsWith("data: "))
              .map((l) => l.slice(6)).join("\n");
            if (!data) continue;
            const msg = JSON.parse(data);
            if (msg.gone) { conn(ui.gone || ""); location.reload(); return; }
            receive(msg);
          }
        }
      } catch (e) { /* dropped: connect again */ } finally { clearTimeout(watchdog); }
      if (held) return poll();
      conn(ui.offline || "…");
      await new Promise((ok) => setTimeout(ok, backoff));
      backoff = Math.min(backoff * 2, 10000);
    }
  }
  async function poll() {
    document.body.dataset.polling = "1";
    conn("");
    for (;;) {
      await new Promise((ok) => setTimeout(ok, POLL_MS));
      try {
        const q = "?v=" + (state ? state.v : -1) + "&map=" + encodeURIComponent(mapKey);
        const r = await api("/api/state" + q);
        if (r.status === 204) continue;  // no change
        const data = await r.json().catch(() => ({}));
        if (!r.ok) {
          conn(data.error || String(r.status));
          if (r.status === 401 || r.status === 403 || r.status === 404) return;
          continue;
        }
        conn("");
        receive(data);
      } catch (e) { conn(ui.offline || "…"); }
    }
  }

  // ---------------------------------------------------------------- the board
  function parseGroup(markup) {
    const doc = new DOMParser().parseFromString(
      '<svg xmlns="' + SVGNS + '">' + markup + "</svg>", "image/svg+xml");
    const g = document.createElementNS(SVGNS, "g");
    for (const n of Array.from(doc.documentElement.childNodes)) g.appendChild(document.importNode(n, true));
    return g;
  }
  function setGroup(id, markup) {
    const old = $(id);
    const g = parseGroup(markup);
    g.id = id;
    old.replaceWith(g);
  }
  function receive(msg) {
    const s = msg.state;
    if (!s) return;
    if (state && s.v < state.v) return;  // an older state than the one shown
    if (msg.map) { setGroup("map", msg.map); }
    state = s;
    ui = s.ui || ui;
    document.body.dataset.v = String(s.v);
    document.body.dataset.received = String(Date.now());
    if (s.board) {
      if (msg.map) mapKey = s.board.key;
      setGroup("pieces", s.board.pieces);
      const b = s.board.box;
      if (!box || b.join() !== box.join()) { box = b; if (!vb) initialView(); else fit(); }
    }
    render();
  }
  function hexPoints(h) {
    const p = document.querySelector('#map .hit[data-hex="' + h + '"]');
    return p ? p.getAttribute("points") : null;
  }
  function hexCentre(h) {
    const pts = (hexPoints(h) || "").split(" ").map((p) => p.split(",").map(Number));
    if (pts.length < 6) return null;
    let x = 0, y = 0;
    for (const [a, b] of pts) { x += a; y += b; }
    return [x / pts.length, y / pts.length];
  }
  function setView() {
    $("board").setAttribute("viewBox", [vb.x, vb.y, vb.w, vb.h].join(" "));
  }
  function fit() {
    if (!box) return;
    vb = { x: box[0], y: box[1], w: box[2], h: box[3] };
    setView();
  }
  function size() {
    const r = $("board").getBoundingClientRect();
    return [r.width, r.height];
  }
  function scale(v) {
    const [w, h] = size();
    v = v || vb;
    return Math.min(w / v.w, h / v.h);
  }
  function initialView() {
    fit();
    // hexes at least 48 px wide on a phone: zoomed in on your own pieces, or the land
    const hexW = 65.8;
    const need = 48 / hexW;
    if (!size()[0] || scale() >= need) return;
    let centre = null;
    if (state && state.seat !== null && state.page) {
      const mine = [];
      for (const k in state.page.places) {
        if (state.page.places[k].owner === state.seat) mine.push(Number(k));
      }
      const cs = mine.map(hexCentre).filter(Boolean);
      if (cs.length) centre = [cs.reduce((a, c) => a + c[0], 0) / cs.length, cs.reduce((a, c) => a + c[1], 0) / cs.length];
    }
    if (!centre) centre = [box[0] + box[2] / 2, box[1] + box[3] / 2];
    zoomAt(centre[0], centre[1], need / scale());
  }
  function zoomAt(x, y, factor) {
    const w = Math.min(Math.max(vb.w / factor, 120), 2400);
    const f = vb.w / w;
    vb = { x: x - (x - vb.x) / f, y: y - (y - vb.y) / f, w: w, h: vb.h / f };
    setView();
  }
  // ---------------------------------------------------------------- fingers and mouse
  const pointers = new Map();
  let gesture = null;
  function userAt(v, cx, cy) {
    // the user coordinates shown at client point (cx, cy) with view box v ("meet": the box
    // is centred and scaled to fit)
    const r = $("board").getBoundingClientRect();
    const s = Math.min(r.width / v.w, r.height / v.h);
    const ox = (r.width - v.w * s) / 2, oy = (r.height - v.h * s) / 2;
    return [v.x + (cx - r.left - ox) / s, v.y + (cy - r.top - oy) / s];
  }
  function begin() {
    const mid = pinchMid();
    gesture = { moved: gesture ? gesture.moved : false, vb: Object.assign({}, vb), dist: pinchDist(),
      anchor: mid ? userAt(vb, mid[0], mid[1]) : null };
  }
  function onDown(e) {
    if (!vb) return;
    $("board").setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    if (pointers.size === 1) gesture = null;
    begin();
    if (pointers.size > 1) gesture.moved = true;
  }
  function pinchDist() {
    const p = Array.from(pointers.values());
    return p.length < 2 ? 0 : Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
  }
  function pinchMid() {
    const p = Array.from(pointers.values());
    if (!p.length) return null;
    const x = p.reduce((a, q) => a + q.x, 0) / p.length, y = p.reduce((a, q) => a + q.y, 0) / p.length;
    return [x, y];
  }
  function onMove(e) {
    const p = pointers.get(e.pointerId);
    if (!p || !vb || !gesture) return;
    p.x = e.clientX; p.y = e.clientY;
    if (Math.hypot(p.x - p.x0, p.y - p.y0) > 8) gesture.moved = true;
    if (!gesture.moved) return;
    const ratio = pointers.size >= 2 && gesture.dist > 0 ? pinchDist() / gesture.dist : 1;
    const w = Math.min(Math.max(gesture.vb.w / ratio, 120), 2400);
    const f = gesture.vb.w / w;
    const next = { x: 0, y: 0, w: w, h: gesture.vb.h / f };
    const mid = pinchMid();
    const u = userAt(next, mid[0], mid[1]);
    next.x = gesture.anchor[0] - u[0];
    next.y = gesture.anchor[1] - u[1];
    vb = next;
    setView();
  }
  function onUp(e) {
    const p = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    if (!p || !gesture) return;
    if (!gesture.moved && pointers.size === 0) {
      const hit = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n.classList && n.classList.contains("hit"));
      if (hit) tap(Number(hit.getAttribute("data-hex")));
    }
    if (pointers.size === 0) gesture = null;
    else begin();
  }
  function onWheel(e) {
    if (!vb) return;
    e.preventDefault();
    const [x, y] = userAt(vb, e.clientX, e.clientY);
    zoomAt(x, y, e.deltaY < 0 ? 1.2 : 1 / 1.2);
  }

  // ---------------------------------------------------------------- choosing
  function allChoices() { return (state && state.choices) || { pairs: [], spots: [], buttons: [], cards: null }; }
  function hasCardPlays() {
    const c = allChoices();
    return [...c.pairs, ...c.spots, ...c.buttons].some((o) => o.tone === "card");
  }
  function choices() {
    // the action's own choices, or (after "Play a card") the card plays alone
    const c = allChoices();
    if (cardMode && !hasCardPlays()) cardMode = false;
    const keep = (o) => (o.tone === "card") === cardMode;
    return { pairs: c.pairs.filter(keep), spots: c.spots.filter(keep), buttons: c.buttons.filter(keep), cards: c.cards };
  }
  function sources() { return new Set(choices().pairs.map((p) => p.from)); }
  function tap(h) {
    if (!state || busy) return;
    const c = choices();
    $("chooser").replaceChildren();
    if (sel !== null && sel !== h) {
      const ways = c.pairs.filter((p) => p.from === sel && p.to === h);
      if (ways.length === 1) { act(ways[0].steps); return; }
      if (ways.length > 1) { offer(ways); return; }
    }
    showInfo(h);
    const spots = c.spots.filter((s) => s.at === h);
    if (sources().has(h)) {
      sel = sel === h ? null : h;
      if (sel !== null) $("hint").textContent = (ui.selected || "").replace("{hex}", labelOf(h));
      if (spots.length) offer(spots);
    } else {
      sel = null;
      if (spots.length === 1) { act(spots[0].steps); return; }
      if (spots.length > 1) offer(spots);
    }
    renderMarks();
  }
  function offer(list) {
    const box = $("chooser");
    clear(box);
    for (const o of list) {
      const b = el("button", { type: "button", class: o.tone || "" }, o.label);
      b.addEventListener("click", () => act(o.steps));
      box.appendChild(b);
    }
    const no = el("button", { type: "button" }, ui.cancel || "✕");
    no.addEventListener("click", () => { clear(box); sel = null; renderMarks(); });
    box.appendChild(no);
  }
  function labelOf(h) {
    const p = state && state.page && state.page.places[String(h)];
    if (p) return p.label;
    const hit = document.querySelector('#map .hit[data-hex="' + h + '"]');
    return hit ? hit.getAttribute("data-label") : String(h);
  }
  function showInfo(h) {
    const p = state && state.page && state.page.places[String(h)];
    $("info").hidden = false;
    $("infotext").textContent = p ? p.text : labelOf(h);
    $("infolimits").textContent = p ? p.limits.join(" · ") : "";
    lookAt = h;
  }
  let lookAt = null;

  // ---------------------------------------------------------------- drawing the page
  function ring(g, h, cls) {
    const pts = hexPoints(h);
    if (!pts) return;
    for (const c of ["edge", cls]) {
      const p = document.createElementNS(SVGNS, "polygon");
      p.setAttribute("points", pts);
      p.setAttribute("class", c + (c === cls ? " fill" : ""));
      g.appendChild(p);
    }
  }
  function renderMarks() {
    const g = $("marks");
    clear(g);
    if (!state) return;
    const c = choices();
    if (sel !== null && !sources().has(sel)) sel = null;
    if (sel !== null) {
      ring(g, sel, "sel");
      for (const p of c.pairs) if (p.from === sel) ring(g, p.to, p.tone === "attack" ? "atk" : "dst");
    } else {
      for (const h of sources()) ring(g, h, "src");
    }
    const spotHexes = new Set(c.spots.map((s) => s.at));
    for (const h of spotHexes) if (h !== sel) ring(g, h, "spot");
    if (lookAt !== null && lookAt !== sel) ring(g, lookAt, "look");
    if (sel === null) $("hint").textContent = (c.pairs.length || c.spots.length) ? (ui.tap || "") : "";
  }
  function renderButtons() {
    const box = $("buttons");
    clear(box);
    if (!state) return;
    for (const b of choices().buttons) {
      const e = el("button", { type: "button", class: b.tone || "" }, b.label);
      e.disabled = busy;
      e.addEventListener("click", () => act(b.steps));
      box.appendChild(e);
    }
    if (hasCardPlays()) {
      const m = el("button", { type: "button", class: cardMode ? "" : "card" },
        cardMode ? (ui.cancel || "✕") : (ui.cards || "Cards"));
      m.disabled = busy;
      m.addEventListener("click", () => { cardMode = !cardMode; sel = null; clear($("chooser")); render(); });
      box.appendChild(m);
    }
    if (state.undo) {
      const u = el("button", { type: "button" }, ui.undo || "Undo");
      u.disabled = busy;
      u.addEventListener("click", () => post("/api/undo", { v: state.v }));
      box.appendChild(u);
    }
  }
  function cardButton(card, pressed) {
    const b = el("button", { type: "button", class: "card", "aria-pressed": pressed ? "true" : "false" });
    b.appendChild(el("b", {}, card.name + " · " + card.terrain));
    b.appendChild(el("small", {}, card.text));
    b.setAttribute("data-card", String(card.id));
    b.setAttribute("data-rgb", card.rgb);
    return b;
  }
  function paintCard(b) {
    // the background terrain's colour, as the picture of the hand shows it
    b.style.borderLeftColor = b.getAttribute("data-rgb");
  }
  function renderCards() {
    const c = choices().cards;
    $("cards").hidden = !c;
    if (!c) { picked = new Set(); return; }
    const hand = (state.page && state.page.hand) || [];
    picked = new Set(Array.from(picked).filter((id) => c.cards.includes(id)));
    $("cardsprompt").textContent = c.prompt;
    const list = $("cardlist");
    clear(list);
    for (const card of hand) {
      if (!c.cards.includes(card.id)) continue;
      const b = cardButton(card, picked.has(card.id));
      paintCard(b);
      b.addEventListener("click", () => {
        if (picked.has(card.id)) picked.delete(card.id); else picked.add(card.id);
        renderCards();
      });
      list.appendChild(b);
    }
    const btns = $("cardbuttons");
    clear(btns);
    const ok = el("button", { type: "button", class: "primary" }, c.confirm + " (" + picked.size + ")");
    ok.disabled = busy || picked.size < c.min || picked.size > c.max;
    ok.addEventListener("click", () => post("/api/act", { v: state.v, decision: c.decision, cards: Array.from(picked) }));
    btns.appendChild(ok);
    if (c.min === 0) {
      const none = el("button", { type: "button" }, c.none);
      none.disabled = busy;
      none.addEventListener("click", () => post("/api/act", { v: state.v, decision: c.decision, cards: [] }));
      btns.appendChild(none);
    }
  }
  function chip(p) {
    const c = el("span", { class: "chip", "data-rgb": p.rgb, "data-ink": p.ink }, p.letter);
    c.style.background = p.rgb;
    c.style.color = p.ink;
    return c;
  }
  function renderPage() {
    const s = state, pg = s.page;
    $("game").textContent = (ui.title || "Tempus").replace("{game}", s.game);
    document.title = $("game").textContent;
    $("handtitle").textContent = ui.hand || "";
    $("playerstitle").textContent = ui.players || "";
    $("logtitle").textContent = ui.log || "";
    $("recaptitle").textContent = ui.recap || "";
    $("zin").setAttribute("aria-label", ui.zoom_in || "+");
    $("zout").setAttribute("aria-label", ui.zoom_out || "-");
    $("zfit").setAttribute("aria-label", ui.fit || "fit");
    const who = $("who");
    clear(who);
    if (!pg) {
      $("status").textContent = "";
      $("toact").textContent = ui.lobby || "";
      return;
    }
    $("status").textContent = pg.status;
    if (s.seat === null) who.textContent = ui.watching || "";
    else {
      const me = pg.players[s.seat];
      who.appendChild(chip(me));
      who.appendChild(document.createTextNode((ui.you || "").replace("{colour}", me.colour)));
    }
    const toact = $("toact");
    clear(toact);
    for (const line of pg.to_act) {
      const row = el("span", {});
      for (const seat of line.seats.slice(0, 2)) row.appendChild(chip(pg.players[seat]));
      row.appendChild(document.createTextNode(" " + line.text));
      toact.appendChild(row);
      toact.appendChild(el("br"));
    }
    if (!s.choices && s.seat !== null && !pg.over) toact.appendChild(el("small", {}, ui.not_yours || ""));
    // hand
    $("handbox").hidden = pg.hand === null;
    const hand = $("hand");
    clear(hand);
    if (pg.hand !== null) {
      if (!pg.hand.length) hand.appendChild(el("p", {}, ui.no_cards || ""));
      for (const card of pg.hand) {
        const b = el("div", { class: "card", "data-rgb": card.rgb });
        b.appendChild(el("b", {}, card.name + " · " + card.terrain));
        b.appendChild(el("small", {}, card.text));
        paintCard(b);
        hand.appendChild(b);
      }
    }
    // players and eras
    const t = $("players");
    clear(t);
    const head = el("tr");
    head.appendChild(el("th", {}, ""));
    for (const c of pg.columns) head.appendChild(el("th", { scope: "col" }, c));
    t.appendChild(head);
    for (const p of pg.players) {
      const tr = el("tr", { class: p.to_act ? "toact" : "" });
      const name = el("td");
      name.appendChild(chip(p));
      name.appendChild(document.createTextNode(" " + p.colour + (p.start ? " ★" : "")));
      name.appendChild(el("span", { class: "sub" }, p.name));
      tr.appendChild(name);
      for (const v of p.values) tr.appendChild(el("td", {}, v));
      t.appendChild(tr);
    }
    const eras = $("eras");
    clear(eras);
    for (const e of pg.eras) {
      const li = el("li");
      li.appendChild(el("span", { class: "n" }, e.n));
      const sw = el("span", { class: "swatch" });
      if (e.rgb) sw.style.background = e.rgb;
      li.appendChild(sw);
      li.appendChild(el("span", {}, e.name));
      for (const seat of e.seats) li.appendChild(chip(pg.players[seat]));
      eras.appendChild(li);
    }
    $("piles").textContent = pg.piles;
    $("extra").textContent = pg.extra || "";
    // log
    const log = $("log");
    clear(log);
    for (const line of s.log.slice().reverse()) log.appendChild(el("li", {}, line));
  }
  function render() {
    if (!state) return;
    renderPage();
    renderButtons();
    renderCards();
    renderMarks();
    if (lookAt !== null) showInfo(lookAt);
  }

  // ---------------------------------------------------------------- start
  function start() {
    const svg = $("board");
    $("recapbox").addEventListener("toggle", () => {
      if ($("recapbox").open) getRecap().catch((e) => say(String(e.message || e), true));
    });
    svg.addEventListener("pointerdown", onDown);
    svg.addEventListener("pointermove", onMove);
    svg.addEventListener("pointerup", onUp);
    svg.addEventListener("pointercancel", (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size) begin(); else gesture = null;
    });
    svg.addEventListener("wheel", onWheel, { passive: false });
    $("zin").addEventListener("click", () => { if (vb) zoomAt(vb.x + vb.w / 2, vb.y + vb.h / 2, 1.4); });
    $("zout").addEventListener("click", () => { if (vb) zoomAt(vb.x + vb.w / 2, vb.y + vb.h / 2, 1 / 1.4); });
    $("zfit").addEventListener("click", fit);
    conn("…");
    // Discord opens an Activity's page with these in its address (the SDK reads them);
    // there the person is known through Discord, never through a token in the address
    const query = new URLSearchParams(location.search);
    const inDiscord = ["frame_id", "instance_id", "platform"].every((k) => query.has(k));
    let first = Promise.resolve();
    if (inDiscord) {
      token = "";
      first = import("/static/activity.js")
        .then((activity) => activity.start((words) => conn(words.signing_in || "…")))
        .then((signed) => { token = signed.token; renew = signed.renew; });
    } else if (!token) {
      conn("?");
      return;
    }
    first.then(getState).then(() => { conn(""); stream(); }).catch((e) => conn(e.message));
  }
  start();
})();
