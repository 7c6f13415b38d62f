"use strict";
// The replay viewer: protocol v1 replay lines in, a table drawn card by card.
//
// framesOf() turns the replay's lines into frames (the table after each line
// a spectator would notice). It is bookkeeping only: a deal gives every hand,
// a play takes a card from one, a trick event names its winner, a hand_end
// gives the statuses. The replay says everything the rules decided, so no
// rule lives here: even who leads a trick is read from the replay (the
// first card played to it), not worked out. Pages embed each replay
// deflated and base64-encoded (unpack() undoes it), so a report can carry
// thousands of games.
const ArenaViewer = (() => {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const suitText = (suit) => SUITS[suit] || suit;
  const cardText = (card) => (card[0] === "T" ? "10" : card[0]) + suitText(card[1]);
  const clone = (value) => JSON.parse(JSON.stringify(value));
  const count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`; // "1 trick", "2 tricks"
  // A hand is shown sorted as a player holds it: by suit, the colours alternating
  // (spades, hearts, clubs, diamonds), then by rank, high first.
  const SUIT_ORDER = "SHCD";
  const RANK_ORDER = "AKQJT98765432";
  const byHand = (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) ||
    RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);
  const ordinal = (place) => `${place}${{ 1: "st", 2: "nd", 3: "rd" }[place] || "th"}`; // 7 seats

  // For each line, the seat of the first card played after it in the same hand (null
  // when none is): whoever plays first to a trick leads it, so this names the seat to
  // lead while no trick is on the table (a dog due to lead that knocks does not lead).
  function nextLeads(records) {
    const next = new Array(records.length).fill(null);
    let seat = null;
    for (let index = records.length - 1; index > 0; index -= 1) {
      next[index] = seat;
      const record = records[index];
      if (["deal", "hand_end", "game_end"].includes(record.type)) seat = null;
      else if (record.type === "event" && record.event === "play") seat = record.seat;
    }
    return next;
  }

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
      leader: null, // the seat leading the trick on the table, or the next one
      trump: null,
      turn_up: null,
      seats: names.map((name) => ({
        name, status: "active", cards: [], tricks: 0, blind: false, faulted: null,
      })),
      dealt: [], // the seats dealt cards this hand, in seat order
      trick: [],
      knocked: [], // the seats that knocked in the trick on the table
      history: [], // this hand's tricks off the table: { cards, winner, knocked }
      thought: null, // { who, info, log } of the move this frame shows, when it has any
      trickDone: false, // the trick shown is complete: the next play starts another
      wonBy: null, // who won the complete trick on the table (winner, the seat outlined,
      // is cleared by the next line: a cut for trumps may come before the hand's end)
      winner: null,
      caption: `Game ${header.game}, seed ${header.seed}`,
      placements: null,
    };
    const leads = nextLeads(records);
    // The viewer opens on the first deal: what came before it (the game, the cut for
    // the dealer) is told in that frame's caption rather than over an empty table.
    const before = [state.caption];
    const shown = [];
    const push = (index) => {
      state.leader = state.trick.length ? state.trick[0][0] : leads[index];
      if (state.hand === 0) before.push(state.caption); // nothing dealt yet
      else shown.push(clone(state));
    };
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
    for (let index = 1; index < records.length; index += 1) {
      const record = records[index];
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
        push(index);
        continue;
      }
      if (record.type === "deal") {
        const opening = state.hand === 0 ? `${before.join(". ")}. ` : "";
        Object.assign(state, { hand: record.hand, dealer: record.dealer, trump: null });
        Object.assign(state, { turn_up: record.turn_up || null, winner: null });
        Object.assign(state, { trick: [], trickDone: false, knocked: [], history: [] });
        const blind = record.blind || [];
        record.hands.forEach((cards, seat) => {
          Object.assign(state.seats[seat], {
            cards: [...cards].sort(byHand), status: record.statuses[seat], tricks: 0,
            blind: blind.includes(seat),
          });
        });
        state.dealt = record.hands.map((cards, seat) => (cards.length ? seat : null))
          .filter((seat) => seat !== null);
        moves.clear();
        const size = record.hand_size ?? Math.max(...record.hands.map((cards) => cards.length));
        const turnUp = record.turn_up ? `, ${cardText(record.turn_up)} turned up` : "";
        state.caption = `${opening}Hand ${record.hand}: ${who(record.dealer)} deals ` +
          `${count(size, "card")} each${turnUp}`;
      } else if (record.type === "event") {
        state.thought = thoughtOf(moves.get(record.seat));
        state.caption = applyEvent(record, state, who) + how(record);
        if (record.event !== "trick") state.winner = null;
      } else if (record.type === "hand_end") {
        record.statuses.forEach((status, seat) => { state.seats[seat].status = status; });
        offTable(state);
        state.winner = null;
        const tricks = record.tricks
          .map((n, seat) => (n ? `${who(seat)} ${count(n, "trick")}` : ""))
          .filter((text) => text).join(", ");
        state.caption = `Hand ${record.hand} over: ${tricks || "no trick taken"}`;
      } else if (record.type === "game_end") {
        offTable(state);
        Object.assign(state, { placements: record.placements, winner: null, dealer: null });
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
      push(index);
    }
    if (!shown.length) { // no deal at all: one frame tells what there was
      state.caption = before.join(". ");
      shown.push(clone(state));
    }
    return shown;
  }

  // The trick on the table, when complete, joins the hand's earlier tricks; the table
  // is then clear for the next one.
  function offTable(state) {
    if (state.trickDone) {
      state.history.push({ cards: state.trick, winner: state.wonBy, knocked: state.knocked });
    }
    Object.assign(state, { trick: [], trickDone: false, wonBy: null, knocked: [] });
  }

  function declarationText(what) {
    return what === "rainbow" ? "a rainbow" : "no picture";
  }

  function applyEvent(record, state, who) {
    switch (record.event) {
      case "play": {
        if (state.trickDone) offTable(state);
        const cards = state.seats[record.seat].cards;
        const at = cards.indexOf(record.card);
        if (at >= 0) cards.splice(at, 1);
        state.trick.push([record.seat, record.card]);
        return `${who(record.seat)} plays ${cardText(record.card)}`;
      }
      case "trick":
        state.seats[record.winner].tricks += 1;
        state.trick = record.cards.map((pair) => [...pair]);
        Object.assign(state, { winner: record.winner, wonBy: record.winner, trickDone: true });
        return `${who(record.winner)} wins the trick`;
      case "trump":
        state.trump = record.suit;
        return record.seat === null || record.seat === undefined
          ? `Trumps: ${suitText(record.suit)}`
          : `${who(record.seat)} names trumps: ${suitText(record.suit)}`;
      case "knock": // a knock is a turn in the next trick, as a play is
        if (state.trickDone) offTable(state);
        state.knocked.push(record.seat);
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

    function element(tag, className, text) {
      const made = document.createElement(tag);
      if (className) made.className = className;
      if (text !== undefined) made.textContent = text;
      return made;
    }

    // The hand's tricks off the table, a row each and a column a seat: the card each
    // seat played (or its knock), the leader's marked, the winner's outlined.
    function drawHistory(f) {
      const box = $("tricks");
      box.hidden = !f.history.length;
      if (!f.history.length) { box.replaceChildren(); return; }
      const head = element("tr");
      head.append(element("th", "", "trick"), ...f.dealt.map((seat) =>
        element("th", "", f.seats[seat].name)));
      const rows = f.history.map((trick, index) => {
        const row = element("tr");
        const played = new Map(trick.cards.map(([seat, card]) => [seat, card]));
        const leader = trick.cards.length ? trick.cards[0][0] : null;
        row.append(element("td", "", String(index + 1)), ...f.dealt.map((seat) => {
          const cell = element("td");
          cell.dataset.seat = seat;
          if (played.has(seat)) {
            const card = cardSpan(played.get(seat));
            card.classList.add("small");
            if (seat === leader) {
              cell.classList.add("led");
              card.title = `${f.seats[seat].name} led`;
              const mark = element("span", "lead-mark", "\u25B8");
              mark.setAttribute("aria-hidden", "true");
              cell.append(mark);
            }
            if (seat === trick.winner) {
              cell.classList.add("won");
              card.title = `${f.seats[seat].name} ${seat === leader ? "led and " : ""}won it`;
            }
            cell.append(card);
          } else if (trick.knocked.includes(seat)) {
            cell.append(element("span", "knock", "knock"));
          }
          return cell;
        }));
        return row;
      });
      const table = element("table");
      const thead = element("thead");
      thead.append(head);
      const tbody = element("tbody");
      tbody.append(...rows);
      table.append(thead, tbody);
      const label = element("div", "label",
        `Tricks played in hand ${f.hand} (\u25B8 led it, outlined: won it)`);
      box.replaceChildren(label, table);
    }

    // The last frame: the places, best first, seats that share one together.
    function drawPlacements(f) {
      const box = $("placements");
      box.hidden = !f.placements;
      if (!f.placements) { box.replaceChildren(); return; }
      const places = [...new Set(f.placements)].sort((a, b) => a - b);
      const list = element("ol");
      list.append(...places.map((place) => {
        const item = element("li");
        item.dataset.place = place;
        const seats = f.placements.map((at, seat) => (at === place ? seat : null))
          .filter((seat) => seat !== null);
        item.append(element("span", "place", ordinal(place)),
          ` ${seats.map((seat) => f.seats[seat].name).join(", ")}`);
        return item;
      }));
      box.replaceChildren(element("span", "label", "Placements"), list);
    }

    function draw() {
      const f = frames[at];
      $("step").textContent = `${at + 1} / ${frames.length}`;
      $("caption").textContent = f.caption;
      $("viewer-hand").textContent = f.hand ? `hand ${f.hand}` : "";
      const turnUp = f.turn_up ? ` (turned up: ${cardText(f.turn_up)})` : "";
      $("trump").textContent = (f.trump ? `trumps ${suitText(f.trump)}` : "trumps: -") + turnUp;
      $("seats").replaceChildren(...f.seats.map((seat, index) => {
        const box = document.createElement("div");
        box.className = `seat ${seat.status}` + (f.winner === index ? " winner" : "") +
          (seat.faulted ? " faulted" : "");
        box.dataset.seat = index;
        const title = element("div", "name");
        const blind = seat.blind && seat.cards.length ? ", blind card" : "";
        const fault = seat.faulted ? `, ${seat.faulted}` : "";
        const place = f.placements ? ` - place ${f.placements[index]}` : "";
        title.textContent =
          `${seat.name} (${seat.status}, ${count(seat.tricks, "trick")}${blind}${fault})${place}`;
        const marks = element("div", "marks");
        if (f.dealer === index) {
          marks.append(Object.assign(element("span", "mark dealer", "dealer"),
            { title: `${seat.name} dealt hand ${f.hand}` }));
        }
        if (f.leader === index) {
          marks.append(Object.assign(element("span", "mark leader", "leads"),
            { title: `${seat.name} leads this trick` }));
        }
        const top = element("div", "top");
        top.append(title, marks);
        const hand = element("div", "cards");
        hand.append(...seat.cards.map(cardSpan));
        box.append(top, hand);
        return box;
      }));
      $("trick").replaceChildren(...f.trick.map(([seat, card]) => {
        const item = document.createElement("span");
        item.className = "played";
        item.dataset.seat = seat;
        item.append(`${f.seats[seat].name}: `, cardSpan(card));
        return item;
      }));
      $("trick").hidden = Boolean(f.placements); // the game is over: no trick to show
      drawHistory(f);
      drawPlacements(f);
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
      $("jump").replaceChildren(...hands.map((h) => {
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
      for (const id of ["step", "viewer-hand", "trump"]) $(id).textContent = "";
      for (const id of ["seats", "trick", "tricks", "placements"]) $(id).replaceChildren();
      $("tricks").hidden = true;
      $("placements").hidden = true;
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
