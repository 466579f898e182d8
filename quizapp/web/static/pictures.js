// Pictures of memory (explorer): hovering or focusing a grid cell lights the storage cell it
// reads, and a storage cell lights every grid cell that reads it. The arrow keys, Home and End
// move the focus between a picture's cells (one tab stop per picture). Without this script
// each cell's <title> says the same thing.
(function () {
  "use strict";
  // A page drawing several groups of pictures links this script with each: listen once.
  if (window.quizappPictures) return;
  window.quizappPictures = true;

  function cellOf(target) {
    return target && target.closest ? target.closest("svg.pic [data-pos]") : null;
  }

  function light(cell, on) {
    var svg = cell.closest("svg.pic");
    var pos = cell.getAttribute("data-pos");
    svg.querySelectorAll('[data-pos="' + pos + '"]').forEach(function (el) {
      el.classList.toggle("hot", on);
    });
  }

  function follow(on) {
    return function (event) {
      var cell = cellOf(event.target);
      if (cell) light(cell, on);
    };
  }

  document.addEventListener("mouseover", follow(true));
  document.addEventListener("mouseout", follow(false));
  document.addEventListener("focusin", follow(true));
  document.addEventListener("focusout", follow(false));

  var MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  document.addEventListener("keydown", function (event) {
    var cell = cellOf(event.target);
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    var cells = Array.prototype.slice.call(cell.closest("svg.pic").querySelectorAll("[data-pos]"));
    var at = cells.indexOf(cell);
    var next = null;
    if (event.key in MOVES) next = cells[at + MOVES[event.key]];
    else if (event.key === "Home") next = cells[0];
    else if (event.key === "End") next = cells[cells.length - 1];
    if (!next) return;
    event.preventDefault();
    cell.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });
})();
