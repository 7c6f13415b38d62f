"use strict";
// The replay viewer: protocol v1 replay lines in, a table drawn card by card.
//
// framesOf() turns the replay's lines into frames (the table after each line
// a spectator would notice). It is bookkeeping only: a deal gives every hand,
// a play takes a card from one, a trick event names its winner, a hand_end
// gives the statuses. The replay says everything the rules decided, so no
// rule lives here. Pages embed each replay deflated and base64-encoded
// (unpack() undoes it), so a report can carry thousands of games.
const ArenaViewer = (() => {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const suitText = (suit) => SUITS[suit] || suit;
  const cardText = (card) => (card[0] === "T" ? "10" : card[0]) + suitText(card[1]);
  const clone = (value) => JSON.parse(JSON.stringify(value));

  function framesOf(records) {
    const header = records[0];
    const names = [];
    header.players.forEach((player, index) => {
      names[player.seat ?? index] = String(player.name);
    });
    const who = (seat) => names[seat];
    const state = {
      hand: 0,
      dealer: null,
      trump: null,
      turn_up: null,
      seats: names.map((name) => ({
        name, status: "active", cards: [], tricks: 0, blind: false, faulted: null,
      })),
      trick: [],
      thought: null, // { who, info, log } of the move this frame shows, when it has any
      trickDone: false, // the trick shown is complete: the next play starts another
      winner: null,
      caption: `Game ${header.game}, seed ${header.seed}`,
      placements: null,
    };
    const shown = [clone(state)];
    // Each seat's move line not yet followed by its event. Declarations are all
    // answered before any is revealed, so several can wait at once.
    const moves = new Map();
    const timing = (move) => {
      if (!move) return "";
      if (move.fallback) return " (the arena's move: this seat has faulted)";
      return typeof move.ms === "number" ? ` in ${move.ms} ms` : "";
    };
    const how = (record) => {
      const move = moves.get(record.seat);
      moves.delete(record.seat);
      return timing(move);
    };
    // What the bot sent with the move (info) and wrote while deciding it (log).
    const thoughtOf = (move) => (move && (move.info !== undefined || (move.log && move.log.length))
      ? { who: who(move.seat), info: move.info, log: move.log || [] }
      : null);
    for (const record of records.slice(1)) {
      state.thought = null;
      if (record.type === "move") {
        if (record.fallback && state.seats[record.seat].faulted === null) {
          state.seats[record.seat].faulted = "faulted";
        }
        const declaring = record.action === "rainbow" || record.action === "no_picture";
        if (!(declaring && record.move === "pass")) {
          moves.set(record.seat, record);
          continue;
        }
        // No event follows a pass (nobody else sees it): it is a frame of its own.
        state.thought = thoughtOf(record);
        const what = declarationText(record.action);
        state.caption = `${who(record.seat)} does not declare ${what}${timing(record)}`;
        shown.push(clone(state));
        continue;
      }
      if (record.type === "deal") {
        Object.assign(state, { hand: record.hand, dealer: record.dealer, trump: null });
        Object.assign(state, { turn_up: record.turn_up || null, winner: null });
        Object.assign(state, { trick: [], trickDone: false });
        const blind = record.blind || [];
        record.hands.forEach((cards, seat) => {
          Object.assign(state.seats[seat], {
            cards: [...cards], status: record.statuses[seat], tricks: 0,
            blind: blind.includes(seat),
          });
        });
        moves.clear();
        const size = record.hand_size ?? Math.max(...record.hands.map((cards) => cards.length));
        const turnUp = record.turn_up ? `, ${cardText(record.turn_up)} turned up` : "";
        state.caption = `Hand ${record.hand}: ${who(record.dealer)} deals ${size} each${turnUp}`;
      } else if (record.type === "event") {
        state.thought = thoughtOf(moves.get(record.seat));
        state.caption = applyEvent(record, state, who) + how(record);
        if (record.event !== "trick") state.winner = null;
      } else if (record.type === "hand_end") {
        record.statuses.forEach((status, seat) => { state.seats[seat].status = status; });
        Object.assign(state, { trick: [], trickDone: false, winner: null });
        const tricks = record.tricks.map((n, seat) => (n ? `${who(seat)} ${n}` : ""))
          .filter((text) => text).join(", ");
        state.caption = `Hand ${record.hand} over: tricks ${tricks || "none"}`;
      } else if (record.type === "game_end") {
        Object.assign(state, { placements: record.placements, trick: [], winner: null });
        const faults = Object.entries(record.faults || {});
        for (const [seat, fault] of faults) state.seats[Number(seat)].faulted = fault.kind;
        // The kind says what, the detail why (the line it sent, the exit status).
        const why = faults.map(([seat, fault]) => `${who(Number(seat))} faulted (${fault.kind}` +
          (fault.detail ? `: ${fault.detail})` : ")"));
        state.caption = `Game over: ${who(record.winner)} wins` +
          (why.length ? `; ${why.join(", ")}` : "");
      } else {
        continue; // a line type this viewer does not know: nothing to draw
      }
      shown.push(clone(state));
    }
    return shown;
  }

  function declarationText(what) {
    return what === "rainbow" ? "a rainbow" : "no picture";
  }

  function applyEvent(record, state, who) {
    switch (record.event) {
      case "play": {
        if (state.trickDone) Object.assign(state, { trick: [], trickDone: false });
        const cards = state.seats[record.seat].cards;
        const at = cards.indexOf(record.card);
        if (at >= 0) cards.splice(at, 1);
        state.trick.push([record.seat, record.card]);
        return `${who(record.seat)} plays ${cardText(record.card)}`;
      }
      case "trick":
        state.seats[record.winner].tricks += 1;
        state.trick = record.cards.map((pair) => [...pair]);
        Object.assign(state, { winner: record.winner, trickDone: true });
        return `${who(record.winner)} wins the trick`;
      case "trump":
        state.trump = record.suit;
        return record.seat === null || record.seat === undefined
          ? `Trumps: ${suitText(record.suit)}`
          : `${who(record.seat)} names trumps: ${suitText(record.suit)}`;
      case "knock": // a knock is a turn in the next trick, as a play is
        if (state.trickDone) Object.assign(state, { trick: [], trickDone: false });
        return `${who(record.seat)} knocks`;
      case "declare": {
        const what = declarationText(record.what);
        return `${who(record.seat)} declares ${what}: ${record.cards.map(cardText).join(" ")}`;
      }
      case "cut": {
        const draws = record.draws.map(([seat, card]) => `${who(seat)} ${cardText(card)}`);
        return `Cut for ${record.purpose}: ${draws.join(", ")}; ${who(record.winner)} wins it`;
      }
      default:
        return Object.entries(record).filter(([key]) => key !== "type")
          .map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(", ");
    }
  }

  async function unpack(packed) {
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    const text = await new Response(stream).text();
    return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  }

  // The viewer drawn into the page's #viewer element; one game at a time.
  // Its keys: right/left arrow, Home, End, space. On a page of its own they
  // work anywhere (scoped false); in the report only while the viewer has
  // the focus (opening a game gives it), so they never steal the page's own
  // scrolling keys or a text box's.
  //
  // ``within``: a viewer of its own inside that element, whose parts carry
  // data-id where the page's one viewer has ids (a match's report shows two
  // side by side: NEW's and BASE's game of the same deal and seat).
  function mount({ scoped = false, within = null } = {}) {
    const $ = within
      ? (id) => (within.dataset.id === id ? within : within.querySelector(`[data-id="${id}"]`))
      : (id) => document.getElementById(id);
    const root = $("viewer");
    root.tabIndex = -1;
    let frames = [];
    let at = 0;
    let timer = null;

    function cardSpan(card) {
      const span = document.createElement("span");
      const red = card[1] === "D" || card[1] === "H";
      span.className = "card" + (red ? " red" : "");
      span.dataset.card = card;
      span.textContent = cardText(card);
      return span;
    }

    function draw() {
      const f = frames[at];
      $("step").textContent = `${at + 1} / ${frames.length}`;
      $("caption").textContent = f.caption;
      $("hand").textContent = f.hand ? `hand ${f.hand}` : "";
      const turnUp = f.turn_up ? ` (turned up: ${cardText(f.turn_up)})` : "";
      $("trump").textContent = (f.trump ? `trumps ${suitText(f.trump)}` : "trumps: -") + turnUp;
      $("seats").replaceChildren(...f.seats.map((seat, index) => {
        const box = document.createElement("div");
        box.className = `seat ${seat.status}` + (f.winner === index ? " winner" : "") +
          (seat.faulted ? " faulted" : "");
        box.dataset.seat = index;
        const title = document.createElement("div");
        title.className = "name";
        const blind = seat.blind && seat.cards.length ? ", blind card" : "";
        const fault = seat.faulted ? `, ${seat.faulted}` : "";
        const place = f.placements ? ` - place ${f.placements[index]}` : "";
        title.textContent =
          `${seat.name} (${seat.status}, ${seat.tricks} trick${seat.tricks === 1 ? "" : "s"}` +
          `${blind}${fault})${place}`;
        const hand = document.createElement("div");
        hand.className = "cards";
        hand.append(...seat.cards.map(cardSpan));
        box.append(title, hand);
        return box;
      }));
      $("trick").replaceChildren(...f.trick.map(([seat, card]) => {
        const item = document.createElement("span");
        item.className = "played";
        item.dataset.seat = seat;
        item.append(`${f.seats[seat].name}: `, cardSpan(card));
        return item;
      }));
      $("jump").value = String(f.hand);
      drawThought(f.thought);
    }

    // Text only (textContent): a bot's info or log line may hold any text, markup too.
    function drawThought(thought) {
      const box = $("thought");
      if (!box) return;
      box.replaceChildren();
      box.hidden = !thought;
      if (!thought) return;
      if (thought.info !== undefined) {
        const title = document.createElement("div");
        title.className = "thought-title";
        title.textContent = `${thought.who} was thinking:`;
        const info = document.createElement("pre");
        info.className = "info";
        const value = thought.info;
        info.textContent = value && typeof value === "object" && !Array.isArray(value)
          ? Object.entries(value).map(([key, part]) => `${key}: ${JSON.stringify(part)}`)
            .join("\n")
          : JSON.stringify(value);
        box.append(title, info);
      }
      if (thought.log.length) {
        const title = document.createElement("div");
        title.className = "thought-title";
        title.textContent = `${thought.who} wrote to stderr while deciding:`;
        const log = document.createElement("pre");
        log.className = "log";
        log.textContent = thought.log.join("\n");
        box.append(title, log);
      }
    }

    function go(to) {
      if (!frames.length) return;
      at = Math.max(0, Math.min(frames.length - 1, to));
      draw();
    }

    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
      $("play").textContent = "play";
    }

    function play() {
      if (!frames.length) return;
      if (timer) { stop(); return; }
      $("play").textContent = "pause";
      timer = setInterval(() => { if (at >= frames.length - 1) stop(); else go(at + 1); }, 400);
    }

    function show(records) {
      stop();
      frames = framesOf(records);
      at = 0;
      const hands = [...new Set(frames.map((f) => f.hand).filter((h) => h))];
      const start = document.createElement("option");
      start.value = "0";
      start.textContent = "start";
      $("jump").replaceChildren(start, ...hands.map((h) => {
        const option = document.createElement("option");
        option.value = String(h);
        option.textContent = `hand ${h}`;
        return option;
      }));
      root.hidden = false;
      draw();
    }

    function fail(message) {
      stop();
      frames = [];
      root.hidden = false;
      for (const id of ["step", "hand", "trump"]) $(id).textContent = "";
      $("seats").replaceChildren();
      $("trick").replaceChildren();
      $("caption").textContent = message;
    }

    function hide() {
      stop();
      frames = [];
      root.hidden = true;
    }

    $("jump").addEventListener("change", (e) =>
      go(frames.findIndex((f) => String(f.hand) === e.target.value)));
    for (const [id, act] of [["prev", () => go(at - 1)], ["next", () => go(at + 1)],
      ["play", play]]) {
      // A click keeps the keys with the viewer rather than with the button,
      // so space still means play/pause after pressing "next".
      $(id).addEventListener("mousedown", (e) => { e.preventDefault(); root.focus(); });
      $(id).addEventListener("click", act);
    }
    const keys = {
      ArrowRight: () => go(at + 1),
      ArrowLeft: () => go(at - 1),
      Home: () => go(0),
      End: () => go(frames.length - 1),
      " ": play,
    };
    document.addEventListener("keydown", (e) => {
      const act = keys[e.key];
      if (!act || !frames.length || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (scoped && !root.contains(document.activeElement)) return;
      const control = e.target.closest && e.target.closest("input, select, textarea, button, th");
      if (control && (e.key === " " || control.tagName !== "BUTTON")) return; // its own key
      e.preventDefault();
      act();
    });
    return { show, fail, hide, focus: () => root.focus(), ticket: 0 };
  }

  const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  let packed = null;
  const has = (id) => {
    packed = packed || JSON.parse(document.getElementById("replays").textContent);
    return own(packed, id);
  };
  // Why a game's replay file could not be read, as the report found it (or null).
  let damaged = null;
  const problem = (id) => {
    const element = document.getElementById("damaged");
    damaged = damaged || (element ? JSON.parse(element.textContent) : {});
    return own(damaged, id) ? String(damaged[id]) : null;
  };

  // Open one game: unpack its replay, show it, or say why it cannot be shown.
  // Unpacking takes a moment: only the game asked for last is shown (in each viewer).
  async function open(viewer, id) {
    const ticket = ++viewer.ticket;
    const why = problem(id);
    if (why !== null) {
      viewer.fail(`The replay of game ${id} cannot be shown: its file in the results ` +
        `folder could not be read (${why}).`);
      return;
    }
    if (!has(id)) {
      viewer.fail(`The replay of game ${id} is not in this page: arena replay FOLDER ` +
        `--game ${id} --html writes a page of its own.`);
      return;
    }
    try {
      const records = await unpack(packed[id]);
      if (ticket === viewer.ticket) viewer.show(records);
    } catch (error) {
      if (ticket === viewer.ticket) {
        viewer.fail(`The replay of game ${id} cannot be read: ${error}`);
      }
    }
  }

  return { cardText, framesOf, unpack, mount, open, has, problem };
})();
