// Shows every script error and console.error in the page itself, so that a
// reader (and the headless browser test) sees a broken report.
(function () {
  function show(text) {
    var box = document.getElementById('errors');
    if (!box) return;
    box.hidden = false;
    box.textContent += text + '\n';
  }
  window.addEventListener('error', function (e) {
    show('error: ' + e.message + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
  });
  var original = console.error;
  console.error = function () {
    show('console.error: ' + Array.prototype.join.call(arguments, ' '));
    original.apply(console, arguments);
  };
})();
