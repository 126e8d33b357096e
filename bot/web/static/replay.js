// The replay viewer: one step at a time, ◀ ▶ buttons, ← → (and Home/End) keys, a
// progress bar, the step in the address (#3). Without this script every step shows.
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  if (!viewer) { return; }
  document.documentElement.classList.remove("no-js");
  document.documentElement.classList.add("js");
  var steps = viewer.querySelectorAll("section.step");
  var total = steps.length;
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var counter = document.getElementById("counter");
  var progress = document.getElementById("progress");
  var text = viewer.getAttribute("data-step-text") || "{n} / {total}";
  var current = 0;

  function show(index) {
    index = Math.max(0, Math.min(total - 1, index));
    steps[current].classList.remove("current");
    steps[index].classList.add("current");
    current = index;
    counter.textContent = text.replace("{n}", String(index + 1)).replace("{total}", String(total));
    progress.value = index + 1;
    prev.disabled = index === 0;
    next.disabled = index === total - 1;
    if (history.replaceState) { history.replaceState(null, "", "#" + (index + 1)); }
  }

  prev.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total - 1 }[event.key];
    if (to === undefined) { return; }
    event.preventDefault();
    show(to);
  });
  function fromAddress() {  // #3: step 3; a step typed into the address bar goes there too
    var n = parseInt((location.hash || "#1").slice(1), 10);
    show(isNaN(n) ? current : n - 1);
  }
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
})();
