// Filters the tests: every word must match; the words passed, failed, flaky, healed, generated
// and cached match a test's status, p:NAME a test whose browser project's name contains NAME (as
// in Playwright's report), any other word its text (name, project, steps, code, errors).
(function () {
  'use strict';
  var STATUSES = ['passed', 'failed', 'flaky', 'healed', 'generated', 'cached'];
  var input = document.getElementById('filter');
  var none = document.getElementById('no-match');
  var tests = Array.prototype.slice.call(document.querySelectorAll('.test'));
  var texts = tests.map(function (test) { return test.textContent.toLowerCase(); });
  function matches(test, text, word) {
    if (STATUSES.indexOf(word) >= 0) {
      return (test.getAttribute('data-status') || '').split(' ').indexOf(word) >= 0;
    }
    if (word.indexOf('p:') === 0 && word.length > 2) {
      return (test.getAttribute('data-project') || '').toLowerCase().indexOf(word.slice(2)) >= 0;
    }
    return text.indexOf(word) >= 0;
  }
  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    tests.forEach(function (test, i) {
      var match = words.every(function (word) { return matches(test, texts[i], word); });
      test.hidden = !match;
      if (match) { shown += 1; }
    });
    none.hidden = shown > 0 || tests.length === 0;
  }
  input.addEventListener('input', apply);
  apply();
})();
