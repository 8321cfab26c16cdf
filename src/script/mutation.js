// Mutations of the live page for the mutation proof (see src/script/mutation.rs). It runs in the
// browser page as a Playwright `evaluateExpression` / `evalOnSelectorAll` function: `elements` is
// what the mutation's selector matched (the whole document for a text mutation without one),
// `json` the mutation. Every change is recorded as an undo function under a symbol on the
// window, and `restore` (the same function with `{ "kind": "restore" }`) undoes them in reverse
// order, so the page's own nodes come back where they were: frameworks keep references to them.
(elements, json) => {
  const spec = JSON.parse(json);
  const key = Symbol.for('prettyplay.proof');
  if (!window[key]) Object.defineProperty(window, key, { value: [], configurable: true });
  const undo = window[key];
  if (spec.kind === 'restore') {
    let undone = 0;
    while (undo.length) {
      undo.pop()();
      undone++;
    }
    return undone;
  }
  const roots = elements && elements.length ? Array.from(elements) : [document];
  let changed = 0;

  const setStyle = (el, value) => (value === null ? el.removeAttribute('style') : el.setAttribute('style', value));
  const setAttr = (el, name, value) => (value === null ? el.removeAttribute(name) : el.setAttribute(name, value));
  const isFormControl = (el) => ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP', 'FIELDSET'].includes(el.tagName);

  // Text nodes and editable strings under the roots, open shadow roots included, in document order.
  const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  function textNodes(root) {
    const out = [];
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        out.push(node);
        return;
      }
      if (node.nodeType === Node.ELEMENT_NODE && SKIPPED.has(node.tagName)) return;
      if (node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.childNodes) walk(child);
    };
    walk(root);
    return out;
  }
  function elementsUnder(root) {
    const out = [];
    const walk = (node) => {
      if (node.nodeType === Node.ELEMENT_NODE) out.push(node);
      if (node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.children || []) walk(child);
    };
    walk(root.nodeType === Node.DOCUMENT_NODE ? root.documentElement : root);
    return out;
  }

  const WORD = /[\p{L}\p{N}_]/u;
  // The places in `text` (whitespace runs collapsed to one space) where the needle occurs; a
  // whole-word needle must not touch a letter or digit on either side.
  function occurrences(chars, needle, whole) {
    const found = [];
    const n = needle.length;
    for (let i = 0; i + n <= chars.length; i++) {
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = chars[i + j].c === needle[j];
      if (!ok) continue;
      if (whole && ((i > 0 && WORD.test(chars[i - 1].c)) || (i + n < chars.length && WORD.test(chars[i + n].c)))) continue;
      found.push(i);
      i += n - 1;
    }
    return found;
  }
  // The edits an occurrence at `start` gets, as [position in chars, inserted text, replaced?].
  function edits(start) {
    const n = spec.needle.length;
    if (spec.edit === 'prefix') return [[start, spec.with, false]];
    if (spec.edit === 'suffix') return [[start + n - 1, spec.with, 'after']];
    return [[start + spec.at, spec.with, true]];
  }
  // Collapses whitespace into single spaces, remembering where each kept character came from.
  function collapse(pieces) {
    const chars = [];
    let space = true;
    for (const [owner, text] of pieces) {
      for (let offset = 0; offset < text.length; offset++) {
        const c = text[offset];
        if (/\s/.test(c)) {
          if (!space) chars.push({ c: ' ', owner, offset });
          space = true;
        } else {
          chars.push({ c, owner, offset });
          space = false;
        }
      }
    }
    return chars;
  }
  function mutateStrings(pieces, write) {
    const chars = collapse(pieces);
    const perOwner = new Map();
    for (const start of occurrences(chars, spec.needle, spec.whole)) {
      for (const [at, text, mode] of edits(start)) {
        const ch = chars[at];
        if (!perOwner.has(ch.owner)) perOwner.set(ch.owner, []);
        perOwner.get(ch.owner).push([mode === 'after' ? ch.offset + 1 : ch.offset, text, mode === true]);
      }
      changed++;
    }
    for (const [owner, list] of perOwner) {
      const before = pieces.find((p) => p[0] === owner)[1];
      let after = before;
      list.sort((a, b) => b[0] - a[0]);
      for (const [offset, text, replace] of list) after = after.slice(0, offset) + text + after.slice(offset + (replace ? 1 : 0));
      write(owner, after, before);
    }
  }

  switch (spec.kind) {
    case 'hide':
      for (const el of roots) {
        const style = el.getAttribute('style');
        el.style.setProperty('display', 'none', 'important');
        undo.push(() => setStyle(el, style));
        changed++;
      }
      break;
    case 'remove':
      for (const el of roots) {
        if (!el.isConnected || !el.parentNode) continue;
        const parent = el.parentNode;
        const next = el.nextSibling;
        parent.removeChild(el);
        undo.push(() => parent.insertBefore(el, next));
        changed++;
      }
      break;
    case 'add-one': {
      const last = roots[roots.length - 1];
      if (!last.parentNode || last === document) break;
      const clone = last.cloneNode(true);
      last.parentNode.insertBefore(clone, last.nextSibling);
      undo.push(() => clone.remove());
      changed++;
      break;
    }
    case 'remove-one': {
      const last = roots[roots.length - 1];
      if (!last.parentNode || last === document) break;
      const parent = last.parentNode;
      const next = last.nextSibling;
      parent.removeChild(last);
      undo.push(() => parent.insertBefore(last, next));
      changed++;
      break;
    }
    case 'flip-checked':
      for (const el of roots) {
        if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
          // Checking a radio unchecks the rest of its group, so the whole group is restored.
          const group = el.type === 'radio' && el.name
            ? Array.from((el.form || el.getRootNode()).querySelectorAll('input[type=radio]')).filter((r) => r.name === el.name)
            : [el];
          const states = group.map((r) => [r, r.checked, r.indeterminate]);
          el.indeterminate = false;
          el.checked = !el.checked;
          undo.push(() => states.forEach(([r, checked, indeterminate]) => { r.checked = checked; r.indeterminate = indeterminate; }));
          changed++;
        } else if (el.hasAttribute('aria-checked')) {
          const was = el.getAttribute('aria-checked');
          el.setAttribute('aria-checked', was === 'true' ? 'false' : 'true');
          undo.push(() => el.setAttribute('aria-checked', was));
          changed++;
        }
      }
      break;
    case 'flip-disabled':
      for (const el of roots) {
        const disabled = el.getAttribute('disabled');
        const aria = el.getAttribute('aria-disabled');
        const wasDisabled = (isFormControl(el) && disabled !== null) || aria === 'true';
        if (wasDisabled) {
          el.removeAttribute('disabled');
          if (aria !== null) el.setAttribute('aria-disabled', 'false');
        } else if (isFormControl(el)) {
          el.setAttribute('disabled', '');
        } else {
          el.setAttribute('aria-disabled', 'true');
        }
        undo.push(() => { setAttr(el, 'disabled', disabled); setAttr(el, 'aria-disabled', aria); });
        changed++;
      }
      break;
    case 'text': {
      for (const root of roots) {
        // Text of the page (the <title> included): text nodes run together, as an element's
        // text reads.
        mutateStrings(textNodes(root).map((node) => [node, node.data]), (node, after, before) => {
          node.data = after;
          undo.push(() => { node.data = before; });
        });
        // Strings an element carries besides its text: what getByPlaceholder, getByAltText,
        // getByTitle, getByLabel (aria-label) and toHaveValue read.
        for (const el of elementsUnder(root)) {
          for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
            const value = el.getAttribute(name);
            if (value === null) continue;
            mutateStrings([[name, value]], (_, after) => {
              el.setAttribute(name, after);
              undo.push(() => el.setAttribute(name, value));
            });
          }
          if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && typeof el.value === 'string') {
            const value = el.value;
            mutateStrings([['value', value]], (_, after) => {
              el.value = after;
              undo.push(() => { el.value = value; });
            });
          }
        }
      }
      break;
    }
    case 'title': {
      const title = document.title;
      document.title = spec.with;
      undo.push(() => { document.title = title; });
      changed++;
      break;
    }
    case 'url': {
      const href = location.href;
      const state = history.state;
      history.replaceState(state, '', spec.with);
      undo.push(() => history.replaceState(state, '', href));
      changed++;
      break;
    }
    default:
      throw new Error(`unknown mutation ${spec.kind}`);
  }
  return changed;
}
