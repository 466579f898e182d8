// A timed attempt's clock: counts the time left down to the deadline the server fixed (the
// page states the deadline itself, so this only adds the live count).
(function () {
  "use strict";
  const clock = document.querySelector("[data-deadline]");
  if (!clock) { return; }
  const deadline = Number(clock.getAttribute("data-deadline"));
  const shown = clock.querySelector("[data-time-left]");
  function tick() {
    const left = Math.max(0, Math.floor((deadline - Date.now()) / 1000));
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    shown.textContent = left > 0 ? minutes + ":" + seconds : "time is up";
    if (left > 0) { window.setTimeout(tick, 1000); }
  }
  tick();
}());
