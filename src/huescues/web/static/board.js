// Draws a Hues and Cues board: each square a button with data-cell="F12" in the board's own
// sRGB colour, with row letters and column numbers; the labels stay in view while the board
// scrolls on a small screen. Shared by the pages that show a board (no other dependencies).
"use strict";

window.HuesBoard = {
  // board: the server's one wire format (huescues.web board_json), as the game's welcome and
  // the study's sessions send it: {id, rows, cols, row_letters: ["A", ...],
  // colours: [["#rrggbb", ...], ...] row by row}; onPick(name, button).
  draw(container, board, onPick) {
    container.replaceChildren();
    const grid = document.createElement("div");
    grid.className = "hc-board";
    grid.style.setProperty("--cols", String(board.cols));
    grid.setAttribute("role", "grid");
    const corner = document.createElement("span");
    corner.className = "hc-corner";
    grid.append(corner);
    for (let c = 1; c <= board.cols; c++) {
      const label = document.createElement("span");
      // A phone shows 1, 5, 10...: thirty numbers do not fit its width.
      label.className = c === 1 || c % 5 === 0 ? "hc-col" : "hc-col hc-col-minor";
      label.textContent = String(c);
      grid.append(label);
    }
    for (let r = 0; r < board.rows; r++) {
      const letter = board.row_letters[r];
      const label = document.createElement("span");
      label.className = "hc-row";
      label.textContent = letter;
      grid.append(label);
      for (let c = 0; c < board.cols; c++) {
        const name = letter + String(c + 1);
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "hc-cell";
        cell.dataset.cell = name;
        cell.style.backgroundColor = board.colours[r][c];
        cell.setAttribute("aria-label", name);
        cell.title = name;
        if (onPick) cell.addEventListener("click", () => onPick(name, cell));
        grid.append(cell);
      }
    }
    container.append(grid);
    return grid;
  },
};
