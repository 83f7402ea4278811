// The deck editor's keyboard and htmx glue. The page works without it (plain forms);
// with it: "/" focuses the search, Enter adds the top result, +/- on a focused card,
// focus stays on the card (and the button) after the deck is redrawn, conflicts and refusals are shown,
// and changes made while one is on its way (a quick "+ + +") are made in turn, none dropped;
// on phones one pane (Deck, Cards, Rules) shows at a time; after each change "gs:deck-changed" is fired on
// <body> for panels that follow the deck (the draw odds, templates/decks/_odds.html).
(function () {
  "use strict";

  // ---------------------------------------------------------------- phone panes
  var PANE_KEY = "gatesite.editor.pane";
  var phone = window.matchMedia("(max-width: 52rem)");

  function editorRoot() {
    return document.getElementById("editor");
  }

  function markTabs() {
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

  // ---------------------------------------------------------------- changes and keys

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function topAddButton() {
    return document.querySelector("#card-results [data-row] button[data-add]");
  }

  var addTopWhenLoaded = false;
  var refocus = null;
  // htmx drops a request from a form whose previous one is on its way, and a form swapped in is
  // plain HTML until htmx settles it (a press then would post the whole page): a change button
  // pressed meanwhile is queued here (by its op, which names the change whole) and pressed again,
  // in the redrawn page, once the answer is in and settled.
  var changing = false;
  var settling = false;
  var queued = [];
  // A change was saved and drawn: panels that follow the deck are told once the page is settled.
  var deckChanged = false;

  function aside(event) {
    // Requests of panels beside the editor (the draw odds): no part of its changes and focus keeping.
    var config = event.detail.requestConfig;
    var elt = (config && config.elt) || event.detail.elt;
    return !!(elt && elt.closest && elt.closest("[data-aside]"));
  }

  function isChange(event) {
    return event.detail.requestConfig && event.detail.requestConfig.verb === "post";
  }

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest ? event.target.closest('#editor button[name="op"]') : null;
      if (button && (changing || settling)) {
        event.preventDefault();
        event.stopPropagation();
        queued.push(button.value);
      }
    },
    true
  );

  function pressQueued() {
    while (queued.length && !changing && !settling) {
      var value = queued.shift();
      var button = document.querySelector('#editor button[name="op"][value="' + CSS.escape(value) + '"]');
      if (button) {
        button.click();
      }
    }
  }

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
      var pending = document.getElementById("card-filters").classList.contains("htmx-request");
      if (current && !pending && topAddButton()) {
        topAddButton().click();
      } else {
        // The results are not for what is typed yet: search now, add when they arrive.
        addTopWhenLoaded = true;
        window.htmx.trigger("#card-filters", "search");
      }
      return;
    }
    // On a focused card, or on one of its buttons.
    var row = target.closest && !typing(target) ? target.closest("[data-row]") : null;
    if (row && !event.ctrlKey && !event.metaKey && !event.altKey) {
      var key = event.key === "=" ? "+" : event.key === "_" ? "-" : event.key;
      var button = row.querySelector('button[data-key="' + key + '"]');
      if (button && (key === "+" || key === "-")) {
        event.preventDefault();
        button.click();
      }
    }
  });

  document.body.addEventListener("htmx:configRequest", function (event) {
    // A saved deck's changes carry the version the page shows now (it moves on with every save).
    var version = document.getElementById("deck-version");
    if (version && event.detail.verb === "post") {
      event.detail.parameters.base_version = version.value;
    }
  });

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (aside(event)) {
      return;
    }
    if (isChange(event)) {
      changing = true;
    }
    var active = document.activeElement;
    var row = active && active.closest ? active.closest("[data-row]") : null;
    refocus = null;
    if (row) {
      refocus = { number: row.getAttribute("data-number"), section: row.getAttribute("data-section"), inResults: !!row.closest("#card-results") };
      if (active.tagName === "BUTTON" && active.name === "op") {
        refocus.op = active.value;
      }
      // Where the focus goes if this card leaves the list (its last copy removed or moved).
      var near = row.nextElementSibling || row.previousElementSibling;
      refocus.near = near && near.getAttribute("data-number");
    } else if (active && active.id) {
      refocus = { id: active.id };
    }
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    // 409 (the deck changed elsewhere) and 422 (a refused change) come with a message to show.
    var status = event.detail.xhr.status;
    if (status === 409 || status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!isChange(event)) {
      return;
    }
    changing = false;
    if (event.detail.xhr.status >= 400 || !event.detail.xhr.status) {
      queued = []; // refused, stale or failed: the changes pressed meanwhile were based on it
    } else {
      deckChanged = true;
    }
  });

  function restoreFocus() {
    // Done as soon as the answer is swapped in (every region at once), so no key pressed meanwhile is lost.
    if (!refocus) {
      return;
    }
    var wanted = null;
    if (refocus.id) {
      wanted = document.getElementById(refocus.id);
    } else if (refocus.number) {
      var scope = document.getElementById(refocus.inResults ? "card-results" : "deck-list");
      var selector = '[data-row][data-number="' + refocus.number + '"]';
      if (refocus.section) {
        selector += '[data-section="' + refocus.section + '"]';
      }
      wanted = (scope && scope.querySelector(selector)) || document.querySelector(selector);
      if (!wanted && refocus.near && scope) {
        wanted = scope.querySelector('[data-row][data-number="' + refocus.near + '"]');
      }
    }
    if (wanted && refocus.op) {
      // The same button in the redrawn card, so that Enter or Space can press it again.
      wanted = wanted.querySelector('button[name="op"][value="' + CSS.escape(refocus.op) + '"]') || wanted;
    }
    if (wanted && document.activeElement !== wanted && !typing(document.activeElement)) {
      wanted.focus();
    }
    refocus = null;
  }

  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (aside(event)) {
      return;
    }
    settling = true;
    restoreFocus();
  });

  // The odds panel says which deck it was computed for (data-deck-key); so does the deck list. An
  // event fired while the panel was being swapped is lost, so after every settle a panel that is
  // behind the deck asks again (a few times at most for one deck, so that nothing can loop).
  var oddsAsked = { key: null, times: 0 };
  function oddsFollow() {
    var odds = document.getElementById("draw-odds");
    var list = document.getElementById("deck-list");
    if (!odds || !list || !odds.dataset.deckKey || changing || settling || queued.length) {
      return;
    }
    var key = list.dataset.deckKey;
    if (!key || odds.dataset.deckKey === key || odds.classList.contains("htmx-request")) {
      return;
    }
    if (oddsAsked.key !== key) {
      oddsAsked = { key: key, times: 0 };
    }
    if (oddsAsked.times < 3) {
      oddsAsked.times += 1;
      window.htmx.trigger(document.body, "gs:deck-changed");
    }
  }

  document.body.addEventListener("htmx:afterSettle", function (event) {
    // Fired once per element settled (the new #card-results, each out-of-band region, ...),
    // after htmx has processed every swapped-in element.
    if (aside(event)) {
      oddsFollow();
      return;
    }
    settling = false;
    markTabs();
    if (addTopWhenLoaded && event.target.id === "card-results") {
      addTopWhenLoaded = false;
      var button = topAddButton();
      if (button) {
        button.click();
        return;
      }
    }
    pressQueued();
    if (deckChanged && !changing && !settling && !queued.length) {
      // Once per burst of changes: "+ + +" asks the odds again once, after the last.
      deckChanged = false;
      window.htmx.trigger(document.body, "gs:deck-changed");
    }
    oddsFollow();
  });
})();
