// site.js: the light or dark theme, chosen by the visitor and kept in this browser.
"use strict";
(function () {
  const root = document.documentElement;
  const saved = localStorage.getItem("gambit-theme");
  if (saved === "light" || saved === "dark") root.dataset.theme = saved;
  document.addEventListener("DOMContentLoaded", function () {
    const b = document.querySelector("button[data-action=switch-theme]");
    if (!b) return;
    b.addEventListener("click", function () {
      const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
      root.dataset.theme = dark ? "light" : "dark";
      localStorage.setItem("gambit-theme", root.dataset.theme);
    });
  });
})();
