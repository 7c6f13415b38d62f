"use strict";
// A person's table: draws the seat's view (what its messages said, never
// more) and sends the person's clicks as entries. The server decides what is
// legal and says why an entry was refused; this script only draws and asks.
(() => {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const ASKED = {
    play: "Your turn: play a card",
    trump: "Your turn: name trumps",
    rainbow: "Declare a rainbow? (one card of each suit: the hand ends, nobody goes out)",
    no_picture: "Declare no picture? (nothing above a ten: the hand is dealt again)",
  };
  const SHOWN = "SHCD"; // spades, hearts, clubs, diamonds: black and red alternate
  const RANKS = "23456789TJQKA";
  const $ = (id) => document.getElementById(id);
  let version = 0;
  let sending = false;
  let ended = false;
  let askId = null; // the request the person is answering: a move names it

  const rankText = (card) => (card[0] === "T" ? "10" : card[0]);
  // Cards in wire form inside a sentence ("AH is not legal") written as the table shows them.
  const shownCards = (text) => String(text).replace(/(^|[^\w])([2-9TJQKA])([SHDC])(?![\w])/g,
    (_, before, rank, suit) => before + rankText(rank) + SUITS[suit]);
  const byHand = (a, b) =>
    SHOWN.indexOf(a[1]) - SHOWN.indexOf(b[1]) || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]);

  function cardFace(card, { small = false, tag = "span" } = {}) {
    const face = document.createElement(tag);
    const red = card[1] === "H" || card[1] === "D";
    face.className = "pcard" + (red ? " red" : "") + (small ? " small" : "");
    face.dataset.card = card;
    face.setAttribute("aria-label", `${rankText(card)} of ${SUIT_NAMES[card[1]]}`);
    const top = document.createElement("span");
    top.className = "rk";
    top.textContent = rankText(card) + SUITS[card[1]];
    const bottom = document.createElement("span");
    bottom.className = "rb";
    bottom.textContent = top.textContent;
    face.append(top, SUITS[card[1]], bottom);
    return face;
  }

  function cardBack(small = false) {
    const back = document.createElement("span");
    back.className = "pcard back" + (small ? " small" : "");
    back.setAttribute("aria-label", "a card face down");
    return back;
  }

  function name(view, seat) {
    return seat === view.seat ? "You" : view.names[seat];
  }

  function drawSeats(view, asking) {
    $("seatlist").replaceChildren(...view.names.map((_, seat) => {
      const box = document.createElement("div");
      const status = view.statuses[seat] || "active";
      box.className = `who ${status}` + (seat === view.seat ? " me" : "") +
        (asking && seat === view.seat ? " turn" : "");
      box.dataset.seat = seat;
      const title = document.createElement("div");
      title.className = "nm";
      const marks = [];
      if (seat === view.dealer) marks.push("dealer");
      if (seat === view.leader && !view.trick.length) marks.push("leads");
      title.textContent = name(view, seat) + (marks.length ? ` (${marks.join(", ")})` : "");
      const line = document.createElement("div");
      line.className = "st";
      const notes = [status];
      if (view.blind.includes(seat)) notes.push("blind");
      const tricks = view.tricks[seat] || 0;
      if (status !== "out") notes.push(`${tricks} trick${tricks === 1 ? "" : "s"}`);
      if (view.placements) notes.push(`place ${view.placements[seat]}`);
      if (view.faults[String(seat)]) notes.push(`faulted: ${view.faults[String(seat)].detail}`);
      line.textContent = notes.join(", ");
      box.append(title, line);
      const up = view.dog_cards[String(seat)];
      if (up) box.append(cardFace(up, { small: true }));
      return box;
    }));
  }

  function drawTrick(view) {
    const turns = view.trick.length ? view.trick : (view.last_trick ? view.last_trick.moves : []);
    const slots = turns.map(([seat, move]) => {
      const slot = document.createElement("div");
      slot.className = "slot";
      slot.dataset.seat = seat;
      slot.append(move === "knock" ? document.createTextNode("knocks") : cardFace(move));
      slot.append(document.createTextNode(name(view, seat)));
      return slot;
    });
    if (!view.trick.length && view.last_trick) {
      const note = document.createElement("div");
      note.textContent = `Last trick to ${name(view, view.last_trick.winner)}`;
      slots.push(note);
    }
    $("felt").replaceChildren(...slots);
  }

  function send(path, value) {
    sending = true;
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(value),
    }).then((response) => response.json()).then((answer) => {
      if (answer.problem) $("problem").textContent = shownCards(answer.problem);
    }).catch((error) => {
      $("problem").textContent = `The arena did not answer: ${error}`;
    }).finally(() => { sending = false; });
  }

  function choose(move) {
    if (sending || askId === null) return;
    $("problem").textContent = "";
    send("move", { entry: move, id: askId });
    askId = null; // one move a turn: the next click waits for the next turn
  }

  function drawHand(view, asking) {
    const playing = asking && asking.action === "play";
    const legal = new Set(asking ? asking.choices : []);
    const cards = [...view.cards].sort(byHand).map((card) => {
      const face = cardFace(card, { tag: "button" });
      face.type = "button";
      if (playing && legal.has(card)) {
        face.classList.add("legal");
        face.addEventListener("click", () => choose(card));
      } else {
        face.disabled = true;
      }
      return face;
    });
    const mine = view.statuses[view.seat];
    if (!view.cards.length && view.blind.includes(view.seat)) cards.push(cardBack());
    $("hand").replaceChildren(...cards);
    $("hand").classList.toggle("waiting", !playing);
    if (!cards.length && mine === "out") $("hand").textContent = "You are out of the game.";
  }

  function drawActions(asking) {
    $("prompt").textContent = asking ? (ASKED[asking.action] || asking.action) : "";
    const buttons = asking ? asking.choices.filter((move) => move.length !== 2) : [];
    $("actions").replaceChildren(...buttons.map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.move = move;
      button.textContent = SUITS[move] ? `${SUITS[move]} ${SUIT_NAMES[move]}` :
        (move === "blind" ? "play your card blind" : move);
      button.addEventListener("click", () => choose(move));
      return button;
    }));
    if (asking && asking.problem) $("problem").textContent = shownCards(asking.problem);
  }

  function drawResult(view, replay) {
    const order = view.names.map((_, seat) => seat)
      .sort((a, b) => view.placements[a] - view.placements[b]);
    $("result").hidden = false;
    $("result").textContent = "Game over. " +
      order.map((seat) => `${view.placements[seat]}. ${name(view, seat)}`).join(", ");
    $("replaytitle").hidden = false;
    $("prompt").textContent = "";
    $("actions").replaceChildren();
    $("leave").hidden = true;
    ArenaViewer.mount().show(replay);
  }

  function draw(state) {
    const view = state.view;
    if (!view || !view.names) return;
    const turn = view.turn_up ? ` (turned up ${rankText(view.turn_up)}${SUITS[view.turn_up[1]]})` : "";
    $("handinfo").textContent = view.hand ?
      `Hand ${view.hand} of 7: ${view.hand_size} cards each` : "Waiting for the deal";
    $("trumpinfo").textContent = view.trump ?
      `Trumps: ${SUITS[view.trump]} ${SUIT_NAMES[view.trump]}${turn}` :
      (view.hand ? `Trumps not named yet${turn}` : "");
    $("turnup").replaceChildren(...(view.turn_up ? [cardFace(view.turn_up, { small: true })] : []));
    askId = state.asking ? state.asking.id : null;
    drawSeats(view, state.asking);
    drawTrick(view);
    drawHand(view, state.asking);
    drawActions(state.asking);
    if (!state.asking) {
      $("problem").textContent = state.left || view.stopped ?
        "You left the table: the arena plays your seat out, the game goes on to the end." : "";
    }
    const story = $("story");
    story.textContent = view.log.map(shownCards).join("\n");
    story.scrollTop = story.scrollHeight;
    document.body.dataset.turn = state.asking ? "yes" : "no";
    document.body.dataset.ask = state.asking ? String(state.asking.id) : "";
    if (state.finished && !ended) {
      ended = true;
      drawResult(view, state.replay);
      document.body.dataset.finished = "yes";
    }
  }

  async function poll() {
    while (!ended) {
      try {
        const response = await fetch(`state?since=${version}`, { cache: "no-store" });
        const state = await response.json();
        version = state.version;
        draw(state);
      } catch (error) {
        $("problem").textContent = `Lost the arena (${error}); trying again...`;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  $("leave").addEventListener("click", () => {
    if (window.confirm("Leave the table? The arena plays your seat out.")) send("leave", {});
  });
  poll();
})();
