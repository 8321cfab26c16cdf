// Filters the tests: every word must match; the words passed, failed, flaky, healed, generated
// and cached match a test's status, any other word its text (name, steps, code, errors).
(function () {
  'use strict';
  var STATUSES = ['passed', 'failed', 'flaky', 'healed', 'generated', 'cached'];
  var input = document.getElementById('filter');
  var none = document.getElementById('no-match');
  var tests = Array.prototype.slice.call(document.querySelectorAll('.test'));
  var texts = tests.map(function (test) { return test.textContent.toLowerCase(); });
  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    tests.forEach(function (test, i) {
      var statuses = (test.getAttribute('data-status') || '').split(' ');
      var match = words.every(function (word) {
        return STATUSES.indexOf(word) >= 0 ? statuses.indexOf(word) >= 0 : texts[i].indexOf(word) >= 0;
      });
      test.hidden = !match;
      if (match) { shown += 1; }
    });
    none.hidden = shown > 0 || tests.length === 0;
  }
  input.addEventListener('input', apply);
  apply();
})();
