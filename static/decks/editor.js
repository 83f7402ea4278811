// The deck editor's keyboard and htmx glue. The page works without it (plain forms);
// with it: "/" focuses the search, Enter adds the top result, +/- on a focused card,
// focus stays on the card after the deck is redrawn, conflicts and refusals are shown.
(function () {
  "use strict";

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function topAddButton() {
    return document.querySelector("#card-results [data-row] button[data-add]");
  }

  var addTopWhenLoaded = false;
  var refocus = null;

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "/" && !typing(target)) {
      var search = document.getElementById("card-q");
      if (search) {
        event.preventDefault();
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
    if (target.hasAttribute && target.hasAttribute("data-row") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      var key = event.key === "=" ? "+" : event.key === "_" ? "-" : event.key;
      var button = target.querySelector('button[data-key="' + key + '"]');
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

  document.body.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    var row = active && active.closest ? active.closest("[data-row]") : null;
    refocus = null;
    if (row) {
      refocus = { number: row.getAttribute("data-number"), section: row.getAttribute("data-section"), inResults: !!row.closest("#card-results") };
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

  document.body.addEventListener("htmx:afterSettle", function (event) {
    // Fired once per element settled (the new #card-results, each out-of-band region, ...).
    if (addTopWhenLoaded && event.target.id === "card-results") {
      addTopWhenLoaded = false;
      var button = topAddButton();
      if (button) {
        button.click();
      }
      return;
    }
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
    }
    if (wanted && document.activeElement !== wanted && !typing(document.activeElement)) {
      wanted.focus();
    }
    refocus = null;
  });
})();
