// quizapp keyboard layer: progressive enhancement over plain HTML forms.
// Space or Enter reveals the answer, 1-4 rate, u undoes, on pages whose <body> has
// data-shortcuts (the person has not turned them off in Settings). Keys typed into a text field
// are left alone; Escape leaves the field, and the keys then work.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The browser's time zone: its IANA name ("Europe/Berlin"), or where it names none the
  // current offset as "UTC+05:30" (getTimezoneOffset counts minutes UTC is ahead of local).
  function browserZone() {
    var name = "";
    try {
      name = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      name = "";
    }
    if (name) return name;
    var east = -new Date().getTimezoneOffset();
    if (!east) return "UTC";
    var abs = Math.abs(east);
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return "UTC" + (east > 0 ? "+" : "-") + pad(Math.floor(abs / 60)) + ":" + pad(abs % 60);
  }

  // Registration: so the study day turns over at the person's own 04:00 from the first day.
  // The script is deferred, so the form is already parsed here.
  document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
    input.value = browserZone();
  });
  // With the current offset, for a zone name the server does not know.
  document.querySelectorAll("input[data-browser-offset]").forEach(function (input) {
    input.value = String(-new Date().getTimezoneOffset());
  });

  // The keys work only through this script, so only this script announces them: a control's
  // data-keyshortcuts becomes aria-keyshortcuts. Without JavaScript no key is offered to a
  // screen reader that pressing would not honour (the <kbd> marks are js-only likewise).
  if (document.body.hasAttribute("data-shortcuts")) {
    document.querySelectorAll("[data-keyshortcuts]").forEach(function (control) {
      control.setAttribute("aria-keyshortcuts", control.getAttribute("data-keyshortcuts"));
    });
  }

  // A link to a closed part of a card ("/questions/<id>#red-flags", "#go-deeper-senior")
  // opens that part and brings it into view. Only the card's own parts: a study page's
  // answer (details#reveal) is shown by the person, never by a URL.
  function openLinkedPart() {
    var id = "";
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (e) {
      return;
    }
    var target = id && document.getElementById(id);
    var part = target && target.closest("details.more");
    if (!part || part.closest("details.reveal")) return;
    part.open = true;
    (target === part.querySelector(".part-body") ? part : target).scrollIntoView();
  }
  openLinkedPart();
  window.addEventListener("hashchange", openLinkedPart);

  // A card page prints every part: the closed ones are opened for printing (app.css does it
  // without script where the browser has ::details-content) and closed again after, so the
  // page looks as the person left it. A study page's answer is never opened so.
  var openedForPrint = [];
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll(".card-page details.more:not([open])").forEach(function (part) {
      if (part.closest("details.reveal")) return;
      part.open = true;
      openedForPrint.push(part);
    });
  });
  window.addEventListener("afterprint", function () {
    openedForPrint.forEach(function (part) { part.open = false; });
    openedForPrint = [];
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

  // Space belongs to the control that has the focus (Undo, Log out, a link, a summary); the
  // shortcut reveals the answer only when the focus is on the page itself.
  function onControl(event) {
    var el = event.target;
    return !!(el && el.closest &&
              el.closest("a[href], button, summary, input, select, textarea, [tabindex]"));
  }

  function onScreen(el) {
    var rect = el.getBoundingClientRect();
    return rect.top >= 0 && rect.bottom <= window.innerHeight;
  }

  // However the answer is opened (Space, Enter or a click on "Show answer", which then hides),
  // the focus must not stay on the hidden summary. With the shortcuts on it goes to Good, as in
  // Anki, so a second Space rates; where Good would be out of sight (a small screen, a long
  // question), the answer's start is scrolled to the top first: the sticky rating bar then shows
  // at the bottom, so the person sees both the answer and the button a second Space would press
  // (WCAG 2.4.7, 2.4.11). With the shortcuts off it goes to the answer itself (tabindex=-1): a
  // stray Space or Enter presses nothing, and a screen reader reads the answer from its start.
  function focusAfterReveal(reveal) {
    var good = reveal.querySelector(".rate-3");
    var answer = reveal.querySelector(".answer");
    var target = document.body.hasAttribute("data-shortcuts") ? good : answer;
    if (!target || document.activeElement === target) return;
    var seen = target === answer ? answer.firstElementChild || answer : good;
    if (answer && !onScreen(seen)) answer.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: onScreen(seen) });
  }

  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.matches && details.matches("[data-reveal]") && details.open) focusAfterReveal(details);
  }, true);

  document.addEventListener("keydown", function (event) {
    // A held Space or Enter repeats: a repeat must not press the rating button its first press
    // put the focus on (Good after Show answer, the suggested one after a puzzle's Check), which
    // would rate an answer or verdict the person has not seen. Whatever the settings.
    if (event.repeat && (event.key === "Enter" || event.key === " ") &&
        event.target && event.target.closest && event.target.closest("[data-rate-form]")) {
      event.preventDefault();
      return;
    }
    if (!document.body.hasAttribute("data-shortcuts")) return;
    // A held key repeats, and a key that is part of an IME composition is not a shortcut.
    if (event.repeat || event.isComposing) return;
    // Escape leaves a text field (a puzzle's answer box has the focus from the start, so u
    // typed a "u" there): the focus goes back to the page, where the keys below then work.
    // A field's own use of Escape comes first: an open list of suggestions is closed by it.
    if (event.key === "Escape" && typingInField(event) && !event.defaultPrevented &&
        !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typingInField(event)) return;
    var reveal = document.querySelector("[data-reveal]");
    // Space or Enter shows the answer, as in Anki; either then presses Good, which has the focus.
    if (event.key === " " || event.code === "Space" || event.key === "Enter") {
      if (reveal && !reveal.open && !onControl(event)) {
        event.preventDefault();
        reveal.open = true;
        focusAfterReveal(reveal);
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

  // A code block or table wider than its box scrolls sideways; a keyboard user can scroll it
  // only once it can take the focus (axe: scrollable-region-focusable). Only the boxes that
  // overflow now get a tab stop, checked again when the window resizes or a <details> opens.
  // A tab stop is also named, so a screen reader says what it reached (a region named after
  // the table's heading, or "Code, scrolls sideways"), as the responsive-table pattern does.
  function scrollableName(box) {
    var table = box.querySelector("table[aria-labelledby]");
    var label = table && document.getElementById(table.getAttribute("aria-labelledby"));
    var what = box.matches("pre") ? "Code" : "Table";
    if (label && label.textContent.trim()) what = label.textContent.trim() + " table";
    return what + ", scrolls sideways";
  }
  function markScrollableBoxes() {
    document.querySelectorAll("pre, .table-wrap").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth) {
        if (box.dataset.scrollStop) return;
        box.dataset.scrollStop = "1";
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", scrollableName(box));
      } else if (box.dataset.scrollStop) {
        delete box.dataset.scrollStop;
        ["tabindex", "role", "aria-label"].forEach(function (name) { box.removeAttribute(name); });
      }
    });
  }
  markScrollableBoxes();
  window.addEventListener("resize", markScrollableBoxes);
  document.addEventListener("toggle", markScrollableBoxes, true);

  // A puzzle's result: the verdict is what is new on the page. On a short screen (a phone held
  // sideways) the sticky rating bar, with the suggested rating focused, covered all of it. The
  // suggested button is focused here without scrolling, as in Anki a key then rates, and the
  // verdict is brought clear of the bar. With the shortcuts off (and without this script) the
  // verdict keeps its autofocus, as a card's answer takes the focus instead of Good: a stray
  // Space or Enter then presses nothing.
  function showVerdict() {
    var verdict = document.querySelector("[data-verdict]");
    var suggested = document.querySelector(".rate-bar .suggested");
    if (!verdict || !suggested) return;
    if (document.body.hasAttribute("data-shortcuts") && document.activeElement !== suggested) {
      suggested.focus({ preventScroll: true });
    }
    var bar = suggested.closest(".rate-bar");
    var box = verdict.getBoundingClientRect();
    if (box.top < 0 || box.bottom > bar.getBoundingClientRect().top) {
      verdict.scrollIntoView({ block: "start" });
    }
  }
  showVerdict();
  window.addEventListener("load", showVerdict);

  // Count the hints opened so the suggested rating can take them into account.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("[data-hint]") || !details.open) return;
    details.dataset.seen = "1";
    var field = document.querySelector("[data-hints-used]");
    if (!field) return;
    field.value = String(document.querySelectorAll("[data-hint][data-seen]").length);
    rememberHints(Number(field.value));
  }, true);

  // Reloading a puzzle shows the same puzzle (its seed is kept), so the hints opened on it stay
  // open and counted: a reload must not turn a hinted answer into a clean one. Kept for this tab
  // only, one puzzle at a time (the next puzzle replaces it), named by its skill, its dealing
  // (a fresh puzzle after a rating or an Undo can read exactly like the last) and its text.
  var HINTS_KEY = "quizapp.hints-opened";
  function shownPuzzle() {
    var form = document.querySelector("[data-answer-form]");
    var article = form && form.closest("[data-item-key]");
    if (!article) return null;
    var text = [article.dataset.itemKey, article.dataset.dealing || ""];
    for (var part = article.firstElementChild; part && part !== form; part = part.nextElementSibling) {
      text.push(part.textContent);
    }
    return text.join("\n");
  }
  function rememberHints(count) {
    var puzzle = shownPuzzle();
    if (!puzzle) return;
    try {
      sessionStorage.setItem(HINTS_KEY, JSON.stringify({ puzzle: puzzle, count: count }));
    } catch (error) { /* storage off or full: a reload then forgets, as without this */ }
  }
  function openRememberedHints() {
    var puzzle = shownPuzzle();
    var saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(HINTS_KEY) || "null"); } catch (error) { return; }
    if (!puzzle || !saved || saved.puzzle !== puzzle) return;
    var hints = document.querySelectorAll("[data-hint]");
    for (var i = 0; i < Math.min(saved.count, hints.length); i++) hints[i].open = true;  // counted by "toggle"
  }
  openRememberedHints();

  // Settings: pick the browser's time zone in the list (added to it if the list lacks the
  // name, e.g. an alias such as "Asia/Calcutta"; the server checks it like any other choice).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-browser-zone]");
    if (!button) return;
    var select = document.querySelector(button.dataset.browserZone);
    if (!select) return;
    var zone = browserZone();
    var known = Array.prototype.some.call(select.options, function (o) { return o.value === zone; });
    if (!known) select.add(new Option(zone, zone), 0);
    select.value = zone;
    // Said where a screen reader hears it (role=status): the change is not saved yet.
    var status = document.querySelector("[data-zone-status]");
    if (status) status.textContent = "Set to " + select.options[select.selectedIndex].text +
      ". Save settings to keep it.";
  });

  // A puzzle's options: ticking one writes the answer box ("B", "A, C", "yes"), and a box that
  // reads as options ticks them, so what is ticked and what is typed never disagree when sent
  // (without this script the server compares them and asks which was meant).
  function pickInputs(fieldset) {
    return Array.prototype.slice.call(fieldset.querySelectorAll('input[name="pick"]'));
  }
  function pickedText(fieldset) {
    var values = pickInputs(fieldset).filter(function (i) { return i.checked; })
      .map(function (i) { return i.value; });
    return fieldset.dataset.picks === "choices" ? values.join(", ") : (values[0] || "");
  }
  document.addEventListener("change", function (event) {
    var input = event.target;
    var fieldset = input.closest && input.closest("[data-picks]");
    if (!fieldset || input.name !== "pick") return;
    if (input.type === "checkbox" && input.checked) {  // "None of them" excludes every option
      pickInputs(fieldset).forEach(function (other) {
        if (other !== input && (other.value === "none") !== (input.value === "none")) other.checked = false;
      });
    }
    var box = input.form && input.form.querySelector("#answer");
    if (box) box.value = pickedText(fieldset);
  });
  // A puzzle with options: the answer box takes the focus (type a letter, Enter) except on a
  // touch screen, where a focused box brings up the keyboard over the options to be tapped.
  // Puzzles without options keep the box's autofocus attribute, so no script is needed there.
  var focusUnlessTouch = document.querySelector("[data-focus-unless-touch]");
  if (focusUnlessTouch && document.activeElement === document.body &&
      !(window.matchMedia && window.matchMedia("(pointer: coarse)").matches)) {
    focusUnlessTouch.focus();
  }
  document.addEventListener("input", function (event) {
    var box = event.target;
    var fieldset = box.id === "answer" && box.form && box.form.querySelector("[data-picks]");
    if (!fieldset) return;
    var words = box.value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
    var inputs = pickInputs(fieldset);
    var values = inputs.map(function (i) { return i.value.toLowerCase(); });
    var readable = words.length > 0 && words.every(function (w) { return values.indexOf(w) >= 0; }) &&
      (fieldset.dataset.picks === "choices" || words.length === 1);
    inputs.forEach(function (i) { i.checked = readable && words.indexOf(i.value.toLowerCase()) >= 0; });
  });

  // The question list's filters fold under their summary on a small phone (app.css shows the
  // summary there only), so the list starts on the first screen; wider, they are always open.
  var filtersBox = document.querySelector("[data-filters-box]");
  if (filtersBox && window.matchMedia) {
    var narrow = window.matchMedia("(max-width: 420px)");
    var fitFilters = function () {
      filtersBox.open = !narrow.matches || filtersBox.hasAttribute("data-keep-open");
    };
    fitFilters();
    if (narrow.addEventListener) narrow.addEventListener("change", fitFilters);
  }

  // A page shown again from the back-forward cache keeps the controls as they were left: a
  // filter form then showed the filters of the list navigated to, above this one's list.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-reset-on-show]").forEach(function (form) { form.reset(); });
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
