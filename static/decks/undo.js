// Undo and Redo in both deck editors (templates/decks/editor/_undo.html): what htmx attributes cannot say.
//
// The history is this tab's: the codes of the deck's states (decks/editor/undo.py), kept in sessionStorage
// per saved deck or per game's draft, so that it outlasts a reload, a confirmed paste or a visit to the
// deck page, and one tab's Ctrl+Z never undoes another tab's changes. Every change's answer says the deck's
// new state (the X-Deck-State header); an undo or a redo posts the state to go back to as one more change
// ("restore"), which the server judges, saves and versions like any other, and refuses like any other
// when the deck changed elsewhere. A new change after an undo clears what could be redone.
(function () {
  "use strict";

  var LIMIT = 100; // states kept each way: more than the 50 changes of a session the editor promises
  var STATE_HEADER = "X-Deck-State";
  var form = document.getElementById("undo-form");
  if (!form) {
    return;
  }
  var undoButton = form.querySelector('button[value="undo"]');
  var redoButton = form.querySelector('button[value="redo"]');
  var key = "gatesite.undo." + form.getAttribute("data-undo-key");
  var history = load();

  function load() {
    try {
      var stored = JSON.parse(window.sessionStorage.getItem(key) || "null");
      if (stored && Array.isArray(stored.undo) && Array.isArray(stored.redo)) {
        return stored;
      }
    } catch (e) {
      // storage refused (private mode) or unreadable: a history of this page's changes only
    }
    return { undo: [], redo: [], current: null };
  }

  function save() {
    try {
      window.sessionStorage.setItem(key, JSON.stringify(history));
    } catch (e) {
      // storage full or refused: the history still holds for this page
    }
  }

  function push(stack, code) {
    stack.push(code);
    if (stack.length > LIMIT) {
      stack.splice(0, stack.length - LIMIT);
    }
  }

  function refresh() {
    undoButton.disabled = history.undo.length === 0;
    redoButton.disabled = history.redo.length === 0;
  }

  // The page shows the deck as it is now. If it is not the state this tab last saw, the deck was changed
  // while the editor was not showing it (a confirmed paste, Start over, another device): that change can be
  // undone too.
  var shown = form.getAttribute("data-state");
  if (history.current && history.current !== shown) {
    push(history.undo, history.current);
    history.redo = [];
  }
  history.current = shown;
  save();
  refresh();
  form.hidden = false;

  // An undo or redo asks for the state on top of its stack when its turn in the change queue comes (not
  // when it was clicked: a change queued before it may have moved the stacks).
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt !== form) {
      return;
    }
    var submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
    var direction = submitter && submitter.value === "redo" ? "redo" : "undo";
    var stack = history[direction];
    if (stack.length === 0) {
      event.preventDefault(); // pressed twice for one step: nothing left to go back to
      return;
    }
    event.detail.parameters.state = stack[stack.length - 1];
    // Kept on the request's config, which htmx hands to htmx:afterRequest with the answer.
    event.detail.undoDirection = direction;
    event.detail.undoState = stack[stack.length - 1];
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    var xhr = event.detail.xhr;
    if (!config || config.undoSeen || !xhr) {
      return;
    }
    config.undoSeen = true; // htmx tells a second element when the first left the page
    var direction = config.undoDirection;
    var code = xhr.status === 200 ? xhr.getResponseHeader(STATE_HEADER) : null;
    if (!code) {
      if (direction && xhr.status === 422) {
        // A state the deck can no longer take (the refusal says why): step over it next time.
        var refused = history[direction];
        if (refused[refused.length - 1] === config.undoState) {
          refused.pop();
          save();
          refresh();
        }
      }
      return; // a search, a refused change or a conflict: the deck did not change
    }
    if (direction) {
      var stack = history[direction];
      if (stack[stack.length - 1] === config.undoState) {
        stack.pop();
      }
      push(history[direction === "undo" ? "redo" : "undo"], history.current);
    } else if (code !== history.current) {
      push(history.undo, history.current);
      history.redo = [];
    }
    history.current = code;
    save();
    refresh();
  });

  // A page shown again from the back/forward cache kept this script's history as it was when it was left:
  // another page of the same deck may have moved the stored one on since.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      history = load();
      refresh();
    }
  });

  // ---------------------------------------------------------------- keys

  function typingText(el) {
    // In a text field the browser's own undo applies (the search, the deck's name, the pasted list).
    if (!el) {
      return false;
    }
    if (el.isContentEditable || el.tagName === "TEXTAREA") {
      return true;
    }
    return el.tagName === "INPUT" && !/^(checkbox|radio|button|submit|reset|range|color|file|hidden)$/.test(el.type);
  }

  document.addEventListener("keydown", function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.isComposing) {
      return;
    }
    var letter = (event.key || "").toLowerCase();
    var redo = letter === "y" || (letter === "z" && event.shiftKey);
    if ((letter !== "z" && !redo) || typingText(event.target)) {
      return;
    }
    event.preventDefault();
    var button = redo ? redoButton : undoButton;
    if (!button.disabled) {
      button.click();
    }
  });
})();
