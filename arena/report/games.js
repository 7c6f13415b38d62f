"use strict";
// The report's list of games: sortable by any column, filtered by text, bot
// and faults, shown a page at a time (a tournament may have 100,000 games),
// each game opening in the replay viewer below it. The address keeps the
// open game (#game=ID), so a link to one game can be shared and Back works.
(() => {
  const PAGE = 50;
  const data = JSON.parse(document.getElementById("game-list").textContent);
  const bots = data.bots;
  const $ = (id) => document.getElementById(id);
  const viewer = ArenaViewer.mount({ scoped: true });

  const rows = data.games.map((game) => {
    const names = game.seats.map((bot) => bots[bot]);
    const winners = names.filter((_, seat) => game.places[seat] === 1);
    const faults = game.faults
      .map((kind, seat) => (kind ? `${names[seat]}: ${kind}` : ""))
      .filter((text) => text);
    return {
      ...game,
      names,
      winner: winners.join(", "),
      faultText: faults.join(", "),
      search: [game.id, ...names].join("\n").toLowerCase(),
    };
  });
  const columns = {
    n: (row) => row.n,
    id: (row) => row.id,
    deal: (row) => row.deal,
    seats: (row) => row.names.join(", "),
    winner: (row) => row.winner,
    faults: (row) => row.faults.filter((kind) => kind).length,
    decisions: (row) => row.decisions,
    ms: (row) => row.ms,
  };
  let sortKey = "n";
  let ascending = true;
  let page = 0;
  let shown = rows;

  const bot = $("game-bot");
  bots.forEach((name, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = name;
    bot.append(option);
  });

  function cell(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  function line(row) {
    const tr = document.createElement("tr");
    tr.dataset.game = row.id;
    const open = document.createElement("button");
    const inPage = ArenaViewer.has(row.id);
    const damaged = ArenaViewer.problem(row.id);
    open.className = inPage ? "open" : "open absent";
    open.dataset.game = row.id;
    open.textContent = row.id;
    open.title = inPage ? "watch this game"
      : damaged !== null ? `its replay file could not be read (${damaged})`
        : "its replay is not in this page";
    const idCell = document.createElement("td");
    idCell.className = "bot";
    idCell.append(open);
    const seats = row.names.map((name, seat) => `${name} (${row.places[seat]})`).join(", ");
    tr.append(
      cell(String(row.n)), idCell, cell(String(row.deal)), cell(seats, "seats"),
      cell(row.winner, "bot"), cell(row.faultText || "-", "faults"),
      cell(row.decisions === null ? "-" : String(row.decisions)),
      cell(row.ms === null ? "-" : String(row.ms)),
    );
    return tr;
  }

  function render() {
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.max(0, Math.min(page, pages - 1));
    $("game-rows").replaceChildren(...shown.slice(page * PAGE, (page + 1) * PAGE).map(line));
    $("game-count").textContent =
      `${shown.length} of ${rows.length} game${rows.length === 1 ? "" : "s"}`; // "1 of 1 game"
    $("game-page").textContent = `page ${page + 1} of ${pages}`;
    $("game-prev").disabled = page === 0;
    $("game-next").disabled = page >= pages - 1;
    document.querySelectorAll("table.games th[data-key]").forEach((th) => {
      const sorted = th.dataset.key === sortKey;
      th.setAttribute("aria-sort", sorted ? (ascending ? "ascending" : "descending") : "none");
    });
  }

  function refresh() {
    const terms = $("game-filter").value.toLowerCase().split(/\s+/).filter((t) => t);
    const wanted = bot.value === "" ? null : Number(bot.value);
    const faulty = $("game-faults").checked;
    const key = columns[sortKey];
    shown = rows.filter((row) =>
      terms.every((term) => row.search.includes(term)) &&
      (wanted === null || row.seats.includes(wanted)) &&
      (!faulty || row.faultText !== ""));
    shown.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return (ascending ? order : -order) || a.n - b.n; // ties keep the schedule's order
    });
    render();
  }

  document.querySelectorAll("table.games th[data-key]").forEach((th) => {
    const sort = () => {
      ascending = th.dataset.key === sortKey ? !ascending : true;
      sortKey = th.dataset.key;
      page = 0;
      refresh();
    };
    th.tabIndex = 0; // sortable from the keyboard too: Tab to a heading, Enter
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
    });
  });
  for (const id of ["game-filter", "game-bot", "game-faults"]) {
    $(id).addEventListener("input", () => { page = 0; refresh(); });
  }
  $("game-prev").addEventListener("click", () => { page -= 1; render(); });
  $("game-next").addEventListener("click", () => { page += 1; render(); });
  $("game-rows").addEventListener("click", (e) => {
    const button = e.target.closest("button.open");
    if (!button) return;
    const hash = `#game=${encodeURIComponent(button.dataset.game)}`;
    if (window.location.hash === hash) follow(); // the open game: back to its start
    else window.location.hash = hash;
  });

  const known = new Set(rows.map((row) => row.id));

  // Show the game the address names (#game=ID), or none.
  async function follow() {
    const match = /^#game=(.*)$/.exec(window.location.hash);
    if (!match) {
      $("viewer-title").textContent = "";
      viewer.hide();
      return;
    }
    let id = match[1];
    let why = ""; // a link cut short (bad %-escapes) is named as such
    try {
      id = decodeURIComponent(id);
    } catch (error) {
      why = ` (the address is not valid: ${error.message})`;
    }
    $("viewer-title").textContent = `Game ${id}`;
    if (known.has(id)) await ArenaViewer.open(viewer, id);
    else viewer.fail(`This tournament has no finished game ${id}${why}.`);
    viewer.focus();
    $("viewer-title").scrollIntoView();
  }
  window.addEventListener("hashchange", follow);
  // A link elsewhere in the report to a game (a bot's first faults) sets the address as
  // a game's button does; to the game already open the address does not change, so the
  // link shows it again from its start, as the button does.
  document.addEventListener("click", (e) => {
    const link = e.target.closest("a[data-game]");
    if (!link || link.getAttribute("href") !== window.location.hash) return;
    e.preventDefault();
    follow();
  });
  refresh();
  follow();
})();
