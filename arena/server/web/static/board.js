// The leaderboard again every few seconds, without reloading the page: the element
// #board names how often (data-refresh-ms) and holds the table the server renders.
(() => {
  const board = document.getElementById("board");
  if (!board) return;
  const every = Number(board.dataset.refreshMs) || 2000;
  setInterval(async () => {
    try {
      const answer = await fetch("/?partial=1", {credentials: "same-origin"});
      if (answer.ok) board.innerHTML = await answer.text();
    } catch (error) { /* the next try will do */ }
  }, every);
})();
