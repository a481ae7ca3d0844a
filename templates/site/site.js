// Rules site behaviour: search box, language switch that keeps the section.
(function () {
  "use strict";
  // The language switcher keeps the reader on the same section (headings share ids across languages).
  document.querySelectorAll("a.lang[hreflang]").forEach(function (link) {
    link.addEventListener("click", function () {
      if (window.location.hash) { link.href = link.href.split("#")[0] + window.location.hash; }
    });
  });
  // On a narrow screen the menu starts closed.
  var menu = document.querySelector(".sidebar details.menu");
  if (menu && window.matchMedia("(max-width: 59.99em)").matches) { menu.open = false; }
  var box = document.getElementById("search");
  if (!box) { return; }
  if (window.location.protocol === "file:" || typeof PagefindUI === "undefined") {
    var note = document.createElement("p");
    note.className = "search-offline";
    note.textContent = document.documentElement.lang === "ru"
      ? "Поиск работает, когда сайт открыт через веб-сервер (rulesmith serve)."
      : "Search works when the site is served over HTTP (rulesmith serve).";
    box.appendChild(note);
    return;
  }
  new PagefindUI({
    element: "#search",
    bundlePath: box.getAttribute("data-bundle"),
    showImages: false,
    resetStyles: false,
    translations: { placeholder: box.getAttribute("data-placeholder") }
  });
})();
