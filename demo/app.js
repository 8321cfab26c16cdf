// The prettyplay demo app: a small TodoMVC with hash routing (#/, #/active, #/completed).
'use strict';

(function () {
  const STORAGE_KEY = 'prettyplay-demo-todos';

  const form = document.getElementById('new-todo-form');
  const input = document.getElementById('new-todo');
  const list = document.querySelector('.todo-list');
  const count = document.querySelector('.todo-count');
  const clearButton = document.querySelector('.clear-completed');
  const filterLinks = document.querySelectorAll('.filters a');

  let todos = load();
  let nextId = todos.reduce((max, t) => Math.max(max, t.id), 0) + 1;

  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || '[]');
      return Array.isArray(saved) ? saved : [];
    } catch (_) {
      return [];
    }
  }

  function save() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(todos));
    } catch (_) {
      // Storage may be unavailable (e.g. a file:// page); the list then lives until reload.
    }
  }

  function currentFilter() {
    const route = location.hash.replace(/^#\/?/, '');
    return route === 'active' || route === 'completed' ? route : 'all';
  }

  function visible(todo, filter) {
    if (filter === 'active') return !todo.completed;
    if (filter === 'completed') return todo.completed;
    return true;
  }

  function render() {
    const filter = currentFilter();
    list.replaceChildren(...todos.filter((t) => visible(t, filter)).map(renderItem));

    const left = todos.filter((t) => !t.completed).length;
    count.textContent = left === 1 ? '1 item left' : left + ' items left';
    clearButton.disabled = !todos.some((t) => t.completed);

    for (const link of filterLinks) {
      const selected = link.dataset.filter === filter;
      link.classList.toggle('selected', selected);
      if (selected) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.title = 'prettyplay demo · todos' + (filter === 'all' ? '' : ' (' + filter + ')');
  }

  function renderItem(todo) {
    const item = document.createElement('li');
    item.dataset.id = String(todo.id);
    if (todo.completed) item.classList.add('completed');

    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    checkbox.className = 'toggle';
    checkbox.id = 'todo-' + todo.id;
    checkbox.checked = todo.completed;
    checkbox.addEventListener('change', () => {
      todo.completed = checkbox.checked;
      save();
      render();
    });

    // The title names the checkbox (aria-labelledby) without being a <label>, so that a
    // double-click edits the todo instead of toggling it twice.
    const title = document.createElement('span');
    title.className = 'title';
    title.id = 'todo-title-' + todo.id;
    title.dataset.testid = 'todo-title';
    title.textContent = todo.title;
    title.addEventListener('dblclick', () => startEditing(item, title, todo));
    checkbox.setAttribute('aria-labelledby', title.id);

    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'destroy';
    remove.textContent = 'Delete';
    remove.addEventListener('click', () => {
      todos = todos.filter((t) => t !== todo);
      save();
      render();
    });

    item.append(checkbox, title, remove);
    return item;
  }

  function startEditing(item, title, todo) {
    const editor = document.createElement('input');
    editor.type = 'text';
    editor.className = 'edit';
    editor.value = todo.title;
    editor.setAttribute('aria-label', 'Edit todo');
    let done = false;
    const finish = (commit) => {
      if (done) return;
      done = true;
      const title = editor.value.trim();
      if (commit) {
        if (title) todo.title = title;
        else todos = todos.filter((t) => t !== todo);
        save();
      }
      render();
    };
    editor.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finish(true);
      else if (event.key === 'Escape') finish(false);
    });
    editor.addEventListener('blur', () => finish(true));
    item.classList.add('editing');
    title.replaceWith(editor);
    editor.focus();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const title = input.value.trim();
    if (!title) return;
    todos.push({ id: nextId++, title, completed: false });
    input.value = '';
    save();
    render();
  });

  clearButton.addEventListener('click', () => {
    todos = todos.filter((t) => !t.completed);
    save();
    render();
  });

  window.addEventListener('hashchange', render);
  render();
})();
