// The demo's tasks app: a list kept by the server (see index.html for its API). Each change is
// one request for one task, so a test's cleanup through the API never races a whole-list save.
'use strict';

(function () {
  const list = document.querySelector('.task-list');
  const status = document.querySelector('.status');
  const form = document.getElementById('new-task-form');
  const input = document.getElementById('new-task');
  let tasks = [];

  async function send(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(method + ' ' + path + ' answered ' + response.status);
    return response.status === 204 ? null : response.json();
  }

  function render() {
    list.replaceChildren(...tasks.map(renderItem));
    const open = tasks.filter((t) => !t.completed).length;
    status.textContent = open === 1 ? '1 open task' : open + ' open tasks';
  }

  function renderItem(task) {
    const item = document.createElement('li');
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    checkbox.id = 'task-' + task.id;
    checkbox.checked = task.completed;
    const label = document.createElement('label');
    label.htmlFor = checkbox.id;
    label.textContent = task.title;
    checkbox.addEventListener('change', async () => {
      try {
        Object.assign(task, await send('PATCH', '/api/todos/' + task.id, { completed: checkbox.checked }));
      } catch (error) {
        status.textContent = String(error.message);
        return;
      }
      render();
    });
    item.append(checkbox, label);
    return item;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const title = input.value.trim();
    if (!title) return;
    try {
      tasks.push(await send('POST', '/api/todos', { title }));
    } catch (error) {
      status.textContent = String(error.message);
      return;
    }
    input.value = '';
    render();
  });

  send('GET', '/api/todos')
    .then((all) => {
      tasks = all;
      render();
    })
    .catch((error) => {
      status.textContent = 'The tasks could not be loaded: ' + error.message;
    });
})();
