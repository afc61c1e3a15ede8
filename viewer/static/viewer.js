// StrataGate viewer: the only script. Pages work without it; it adds the
// "/" shortcut to the query box and confirms an undo before it is sent.
"use strict";
document.addEventListener("keydown", function (e) {
  if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
  var t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  var q = document.querySelector("input[name=q]");
  if (!q) return;
  e.preventDefault();
  q.focus();
  q.select();
});
document.addEventListener("submit", function (e) {
  var b = e.target.querySelector("button.danger");
  if (b && !window.confirm("Undo this import? Its cards become undone.")) e.preventDefault();
});
