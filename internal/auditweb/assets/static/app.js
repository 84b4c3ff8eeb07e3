// Live updates for acp-bridge audit serve: when the server says the log
// changed, fetch this same URL again and swap in the new <main>, keeping
// open <details> open. A record's raw JSON is fetched when its <details>
// opens. No inline script; the page works without this file (the raw
// JSON is then a link).
"use strict";
(function () {
  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (!d.open || !d.matches || !d.matches("details[data-raw]") || d.getAttribute("data-loaded")) return;
    d.setAttribute("data-loaded", "1");
    var pre = d.querySelector("pre");
    fetch(d.getAttribute("data-raw"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) { pre.textContent = text; })
      .catch(function () { d.removeAttribute("data-loaded"); });
  }, true);
})();
(function () {
  var main = document.getElementById("main");
  if (!main || !window.EventSource) return;
  var url = main.getAttribute("data-events");
  if (!url) return;
  var pending = false;
  function openKeys(root) {
    var keys = {};
    root.querySelectorAll("details[open]").forEach(function (d, i) {
      var li = d.closest("[data-seq]");
      keys[(li ? li.getAttribute("data-seq") : "") + ":" + d.className + ":" + i] = true;
    });
    return keys;
  }
  function reload() {
    if (pending) return;
    pending = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var next = doc.getElementById("main");
        if (!next) return;
        var keys = openKeys(main);
        next.querySelectorAll("details").forEach(function (d, i) {
          var li = d.closest("[data-seq]");
          if (keys[(li ? li.getAttribute("data-seq") : "") + ":" + d.className + ":" + i]) d.open = true;
        });
        main.replaceWith(next);
        main = next;
        document.body.setAttribute("data-updated", String(Date.now()));
      })
      .catch(function () {})
      .then(function () { pending = false; });
  }
  var es = new EventSource(url);
  es.addEventListener("change", reload);
})();
