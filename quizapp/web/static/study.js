// quizapp keyboard layer: progressive enhancement over plain HTML forms.
// Space reveals the answer, 1-4 rate, u undoes. Keys typed into a text field are left alone.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Registration: the browser's UTC offset (minutes east), so the study day turns over at the
  // person's own 04:00. The script is deferred, so the form is already parsed here.
  document.querySelectorAll("input[data-browser-offset]").forEach(function (input) {
    input.value = String(-new Date().getTimezoneOffset());
  });

  function typingInField(event) {
    var el = event.target;
    if (!el || !el.tagName) return false;
    var tag = el.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || el.isContentEditable;
  }

  // Shown on screen: laid out, and not inside a closed <details> (Chromium keeps an offsetParent
  // for the content of a closed <details>, so offsetParent alone let 1-4 rate an unseen answer).
  function visible(el) {
    if (!el || el.getClientRects().length === 0) return false;
    for (var d = el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      if (!d.open) return false;
    }
    return true;
  }

  // The submit listener below stops a second submission; requestSubmit goes through it.
  function submitOnce(form, button) {
    if (form.requestSubmit) {
      form.requestSubmit(button);
    } else {
      button.click();
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typingInField(event)) return;
    var reveal = document.querySelector("[data-reveal]");
    if (event.key === " " || event.code === "Space") {
      if (reveal && !reveal.open) {
        event.preventDefault();
        reveal.open = true;
        var first = reveal.querySelector(".rate-3");
        if (first) first.focus({ preventScroll: true });
      }
      return;
    }
    if (/^[1-4]$/.test(event.key)) {
      var form = document.querySelector("[data-rate-form]");
      if (!form || !visible(form)) return;
      var button = form.querySelector('button[data-key="' + event.key + '"]');
      if (button) {
        event.preventDefault();
        submitOnce(form, button);
      }
      return;
    }
    if (event.key === "u" || event.key === "U") {
      var undo = document.querySelector("[data-undo-form]");
      if (undo) {
        event.preventDefault();
        submitOnce(undo, undo.querySelector("button"));
      }
    }
  });

  // Count the hints opened so the suggested rating can take them into account.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("[data-hint]") || !details.open) return;
    details.dataset.seen = "1";
    var field = document.querySelector("[data-hints-used]");
    if (field) field.value = String(document.querySelectorAll("[data-hint][data-seen]").length);
  }, true);

  // Settings: fill the UTC offset from the browser's own clock (getTimezoneOffset counts the
  // minutes UTC is ahead of local time, so UTC+1 gives -60; the field wants +60).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-browser-offset]");
    if (!button) return;
    var field = document.querySelector(button.dataset.browserOffset);
    if (field) field.value = String(-new Date().getTimezoneOffset());
  });

  // A double click must not send a second rating: the server would refuse it anyway.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("[data-rate-form], [data-undo-form], [data-answer-form]")) return;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
  });
})();
