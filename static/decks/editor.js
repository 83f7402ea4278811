// The deck editor's keyboard shortcuts and phone panes: what htmx attributes cannot say.
// The page works without this file (plain forms). htmx does the rest (templates/decks/editor/editor.html):
// changes pressed while one is on its way are queued (hx-sync on #change-form), the search and shown
// printings go along (hx-include), 409/422 answers are shown (the htmx-config meta), the focus
// comes back to the card redrawn under the same id, and the draw odds come redrawn in the change's
// own answer (out of band, decks/_odds.html).
(function () {
  "use strict";

  // ---------------------------------------------------------------- phone panes
  var PANE_KEY = "gatesite.editor.pane";
  var phone = window.matchMedia("(max-width: 52rem)");

  function editorRoot() {
    // The editor (#editor, of any game): the one whose panes take turns.
    return document.querySelector(".editor[data-default-pane]");
  }

  function markTabs() {
    // The tabs are redrawn with every change (their counts): mark the shown pane's again.
    var root = editorRoot();
    if (!root) {
      return;
    }
    var shown = root.getAttribute("data-show");
    root.querySelectorAll("[data-pane-tab]").forEach(function (tab) {
      if (tab.getAttribute("data-pane-tab") === shown) {
        tab.setAttribute("aria-current", "true");
      } else {
        tab.removeAttribute("aria-current");
      }
    });
  }

  function showPane(name, scroll) {
    var root = editorRoot();
    if (!root || !root.querySelector('[data-pane="' + name + '"]')) {
      return;
    }
    root.setAttribute("data-show", name);
    markTabs();
    try {
      window.sessionStorage.setItem(PANE_KEY, name);
    } catch (e) {
      // storage refused (private mode): the pane is simply not remembered
    }
    var tabs = document.getElementById("editor-tabs");
    var grid = root.querySelector(".editor-grid");
    if (scroll && phone.matches && tabs && grid) {
      // Scrolled down the old pane: the new one is shown from its top, just under the sticky tabs.
      var top = grid.getBoundingClientRect().top + window.scrollY - tabs.offsetHeight;
      if (window.scrollY > top) {
        window.scrollTo(0, top);
      }
    }
  }

  function reveal(element) {
    // A shortcut that focuses an element in a hidden pane shows that pane first.
    var pane = element && element.closest ? element.closest("[data-pane]") : null;
    var root = editorRoot();
    if (pane && root && phone.matches && root.getAttribute("data-show") !== pane.getAttribute("data-pane")) {
      showPane(pane.getAttribute("data-pane"), false);
    }
  }

  (function initPanes() {
    var root = editorRoot();
    if (!root) {
      return;
    }
    var remembered = null;
    try {
      remembered = window.sessionStorage.getItem(PANE_KEY);
    } catch (e) {
      remembered = null;
    }
    showPane(remembered || root.getAttribute("data-default-pane") || "deck", false);
    document.addEventListener("click", function (event) {
      var tab = event.target.closest ? event.target.closest("[data-pane-tab]") : null;
      if (tab) {
        event.preventDefault();
        showPane(tab.getAttribute("data-pane-tab"), true);
      }
    });
  })();

  // ---------------------------------------------------------------- keys

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function topAddButton() {
    return document.querySelector("#card-results [data-row] button[data-add]");
  }

  var addTopWhenLoaded = false;

  // Searches asked for and not answered yet: sent, or waiting behind a change in the editor's one queue (hx-sync),
  // where htmx has not marked the form .htmx-request yet. htmx:confirm comes before a request is queued.
  var searchesPending = 0;
  document.body.addEventListener("htmx:confirm", function (event) {
    if (event.detail.elt.id === "card-filters") {
      searchesPending += 1;
    }
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt.id === "card-filters") {
      searchesPending = Math.max(0, searchesPending - 1);
    }
  });

  // ---------------------------------------------------------------- Enter adds only what can be added

  // Enter in the search (a phone keyboard's Go key too) adds the top result only when its hint says one more
  // copy can be added (data-addable, decks/editor/editor.html#why); otherwise it adds nothing and says why in
  // the hint's own words, under the search field (#search-notice, a live region). The "+ Add" button itself
  // still adds any card: the editor lets a player build an illegal deck on purpose, and shows its violations.
  function searchNotice(text) {
    var notice = document.getElementById("search-notice");
    if (notice) {
      notice.textContent = text;
    }
  }

  function reasonsOf(element) {
    var reasons = [];
    if (element) {
      element.querySelectorAll(".blockers li").forEach(function (item) {
        reasons.push(item.textContent.trim());
      });
    }
    return reasons.join("; ");
  }

  function addTopResult() {
    var notice = document.getElementById("search-notice");
    var button = topAddButton();
    if (!button) {
      // No result to add: the results say why (decks/editor/editor.html#empty-results).
      var empty = document.querySelector("#card-results .empty-results");
      if (notice && empty) {
        var why = reasonsOf(empty) || empty.textContent.trim();
        searchNotice(notice.getAttribute("data-nothing-to-add").replace("{reasons}", why));
      }
      return;
    }
    var row = button.closest("[data-row]");
    var hint = row ? row.querySelector(".hint[data-addable]") : null;
    if (hint && hint.getAttribute("data-addable") === "false") {
      if (notice) {
        var name = row.getAttribute("data-card-name") || "";
        searchNotice(
          notice.getAttribute("data-cannot-add").replace("{card}", name).replace("{reasons}", reasonsOf(hint))
        );
      }
      return;
    }
    searchNotice("");
    button.click();
  }

  (function clearSearchNotice() {
    // What Enter said is about the results it saw: gone once the search changes.
    var search = document.getElementById("card-q");
    if (search) {
      search.addEventListener("input", function () {
        searchNotice("");
      });
    }
  })();

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.isComposing || event.keyCode === 229) {
      return; // an input method's keys (Enter confirms a kana/kanji conversion): not shortcuts
    }
    if (event.key === "/" && !typing(target)) {
      var search = document.getElementById("card-q");
      if (search) {
        event.preventDefault();
        reveal(search);
        search.focus();
        search.select();
      }
      return;
    }
    if (event.key === "Enter" && target.id === "card-q") {
      event.preventDefault();
      var results = document.getElementById("card-results");
      var current = results && results.getAttribute("data-q") === target.value;
      var pending = searchesPending > 0;
      if (current && !pending) {
        addTopResult();
      } else {
        // The results are not for what is typed yet: search now, add when they arrive.
        addTopWhenLoaded = true;
        window.htmx.trigger("#card-filters", "search");
      }
      return;
    }
    // On a focused card, or on one of its buttons: its + or - button.
    var row = target.closest && !typing(target) ? target.closest("[data-row]") : null;
    if (row && !event.ctrlKey && !event.metaKey && !event.altKey && /^[0-9]$/.test(event.key)) {
      // A number key sets the card's count in one change (0 takes every copy out).
      // A button of its own per key: a change waiting in htmx's queue reads its button's value
      // when its turn comes, so a shared button would be overwritten by the next key.
      var form = document.getElementById("change-form");
      var section = row.getAttribute("data-section") || row.getAttribute("data-add-to") || "main";
      if (form && row.getAttribute("data-number")) {
        event.preventDefault();
        var counter = document.createElement("button");
        counter.type = "submit";
        counter.name = "op";
        counter.hidden = true;
        counter.value = "set_count " + section + " " + row.getAttribute("data-number") + " " + event.key;
        form.appendChild(counter);
        counter.click();
        form.removeChild(counter);
      }
      return;
    }
    if (row && !event.ctrlKey && !event.metaKey && !event.altKey) {
      var key = event.key === "=" ? "+" : event.key === "_" ? "-" : event.key;
      var button = row.querySelector('button[data-key="' + key + '"]');
      if (button && (key === "+" || key === "-")) {
        event.preventDefault();
        button.click();
      }
    }
  });

  // ---------------------------------------------------------------- the pressed button

  // Every card button posts #change-form (form="change-form"), and changes pressed in quick
  // succession wait in htmx's queue: the button that counts is the one of the submit event that
  // queued this request, not the last one clicked. (This replaces hx-vals="js:{op: …}", which needs
  // eval and so breaks under the Content-Security-Policy.)
  document.body.addEventListener("htmx:configRequest", function (event) {
    var submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
    if (event.detail.elt.id === "change-form" && submitter && submitter.name === "op") {
      event.detail.parameters.op = submitter.value;
    }
    if (event.detail.elt.id === "change-form") {
      // The hints this page shows, each by its digest: the answer redraws only those that change
      // (decks/editor/browser.py hints_changed), not every hint of the results shown.
      var shown = [];
      document.querySelectorAll("#card-results .hint[data-digest]").forEach(function (hint) {
        shown.push(hint.id.slice(4) + ":" + hint.getAttribute("data-digest"));
      });
      event.detail.parameters.hinted = shown.join(" ");
    }
  });

  // ---------------------------------------------------------------- forms a change's answer redraws

  // htmx sends no queued request whose element has left the page, and then starts none of those queued after it
  // (they would wait for the end of the player's next request, or be lost with the page). The rename form, the
  // rules pickers and the attribute proposal sit in regions a change's answer redraws (data-via-change-form,
  // templates/decks/editor/editor.html): each posts through the change form, which stays, with its own fields as
  // values; the change form's own (the deck's version) are read when the turn comes, as for a card button.
  document.body.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    var changeForm = document.getElementById("change-form");
    if (!changeForm || !form.hasAttribute || !form.hasAttribute("data-via-change-form")) {
      return;
    }
    event.preventDefault();
    var own = {};
    new FormData(form).forEach(function (value, name) {
      if (!changeForm.querySelector('[name="' + name + '"]')) {
        own[name] = value;
      }
    });
    window.htmx.ajax("POST", form.getAttribute("hx-post"), { source: changeForm, values: own });
  });

  // ---------------------------------------------------------------- the rules date

  // Chromium's date field changes with every digit typed into its year (0002, 0020, 0202, 2021), so
  // its form is not posted on `change` (templates/decks/editor/editor.html): the date applies once it
  // is complete (a four-digit year, then a pause in the typing) or when the field is left, never
  // half-typed. Left with a half-typed date, the field shows the date in force again.
  var DATE_PAUSE_MS = 1000;
  var dateTimer = null;

  function dateField(el) {
    return el && el.matches && el.matches("input[data-rules-date]") ? el : null;
  }

  function dateComplete(field) {
    if (field.validity && field.validity.badInput) {
      return false; // some of its parts are still empty
    }
    if (!field.value) {
      return true; // emptied: the current rules
    }
    var earliest = parseInt(field.getAttribute("data-earliest-year") || "1000", 10);
    return parseInt(field.value.slice(0, field.value.indexOf("-", 1)), 10) >= earliest;
  }

  function applyDate(field) {
    window.clearTimeout(dateTimer);
    dateTimer = null;
    // The value posted last (or the page's, the date in force): the same date is not posted twice.
    var sent = field.hasAttribute("data-sent") ? field.getAttribute("data-sent") : field.defaultValue;
    if (field.value !== sent && field.form) {
      field.form.requestSubmit();
    }
  }

  document.addEventListener("change", function (event) {
    var field = dateField(event.target);
    if (!field) {
      return;
    }
    window.clearTimeout(dateTimer);
    dateTimer = null;
    // Typed or picked alike (Chromium does not always say the field has the focus while its parts are
    // typed): the date applies after a pause, unless the next digit changes it first.
    if (dateComplete(field)) {
      dateTimer = window.setTimeout(function () {
        applyDate(field);
      }, DATE_PAUSE_MS);
    }
  });

  document.addEventListener("focusout", function (event) {
    var field = dateField(event.target);
    if (!field || !field.isConnected) {
      return;
    }
    if (field.validity && field.validity.badInput) {
      window.clearTimeout(dateTimer);
      dateTimer = null;
      field.value = field.hasAttribute("data-sent") ? field.getAttribute("data-sent") : field.defaultValue;
      return;
    }
    applyDate(field); // left: a date too early is posted too, and refused with the reason
  });

  document.addEventListener("submit", function (event) {
    // Enter in the field submits its form as well: the date is then sent, whatever started it.
    var field = event.target.querySelector ? event.target.querySelector("input[data-rules-date]") : null;
    if (field) {
      window.clearTimeout(dateTimer);
      dateTimer = null;
      field.setAttribute("data-sent", field.value);
    }
  });

  // ---------------------------------------------------------------- shown again

  // A page the back/forward cache brings back is the deck as it was when it was left: load it again,
  // so the editor shows the deck as it now is (the page itself is never cached: decks/editor/freshness.py).
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && editorRoot()) {
      window.location.reload();
    }
  });

  // ---------------------------------------------------------------- after a swap

  // htmx puts the focus back on an element redrawn under the same id (each card and button has
  // one). A card whose last copy left the list has none: its neighbour gets the focus instead.
  // (Other swaps, such as the draw odds', may come in between: only a focused card sets this.)
  var neighbour = null;

  // htmx keeps the target it found when the request was sent, and silently drops an answer whose target
  // another answer has replaced meanwhile (a search's #card-results redrawn by a rules change's answer):
  // the answer goes to the element now under that id. (Before the swap's own event, which htmx sends to
  // the target: a detached one's never reaches the body.)
  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    var target = event.detail.target;
    if (target && !target.isConnected && target.id && document.getElementById(target.id)) {
      event.detail.target = document.getElementById(target.id);
    }
  });

  document.body.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    var row = active && active.closest ? active.closest("[data-row]") : null;
    if (row) {
      var near = row.nextElementSibling || row.previousElementSibling;
      neighbour = near && near.hasAttribute("data-row") ? near.id : null;
    }
  });

  document.body.addEventListener("htmx:afterSettle", function (event) {
    markTabs();
    var lost = !document.activeElement || document.activeElement === document.body;
    if (lost && neighbour && document.getElementById(neighbour)) {
      document.getElementById(neighbour).focus();
    }
    neighbour = null;
    // Only results for what is typed: another answer may redraw the results in between (a rules change's,
    // drawn for the search as it was when that change was sent), and its top card is not the one asked for.
    var search = document.getElementById("card-q");
    var current = !search || event.target.getAttribute("data-q") === search.value;
    if (addTopWhenLoaded && event.target.id === "card-results" && current) {
      addTopWhenLoaded = false;
      addTopResult();
    }
  });
})();
