/**
 * The page's script, plain browser JavaScript shipped as a string (no build step). It renders
 * each block the way an editor would from its manifest alone: every field once, shown or
 * hidden by the manifest's operation conditions, so values survive switching operations.
 * Kept free of backticks and template placeholders so it can live in this template literal.
 */
export const pageScript = String.raw`'use strict';
(function () {
  var state = { blocks: [], entry: null, operation: null };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  // The icons are this package's own SVG markup, never user input.
  function tile(manifest, large) {
    var span = el('span', { class: large ? 'tile large' : 'tile', 'aria-hidden': 'true' });
    span.innerHTML = manifest.icon;
    span.style.background = manifest.color;
    return span;
  }

  function shownFor(field, operation) {
    return field.id !== 'operation' && (!field.condition || field.condition.value.indexOf(operation) >= 0);
  }

  function defaultText(field) {
    if (field.default === undefined) return '';
    if (typeof field.default === 'string') return field.default;
    return JSON.stringify(field.default, null, 2);
  }

  function control(field, prefill, choices) {
    var id = 'f-' + field.id;
    var value = prefill !== undefined ? prefill : defaultText(field);
    var input;
    if (field.type === 'dropdown') {
      input = el('select', { id: id });
      if (field.default === undefined) input.appendChild(el('option', { value: '', text: field.id === 'operation' ? '' : '— not set —' }));
      (field.options || []).forEach(function (o) { input.appendChild(el('option', { value: o.id, text: o.label })); });
      input.value = value;
      return input;
    }
    if (field.type === 'switch') {
      input = el('input', { id: id, type: 'checkbox', role: 'switch' });
      var stateLabel = el('span', { class: 'state' });
      var sync = function () { stateLabel.textContent = input.indeterminate ? 'not set' : input.checked ? 'on' : 'off'; };
      // A switch without a default is left out of the call until it is touched.
      if (field.default === undefined) input.indeterminate = true;
      else input.checked = field.default === true;
      input.addEventListener('change', sync);
      sync();
      return el('label', { class: 'switch' }, [input, stateLabel]);
    }
    if (field.type === 'code' || field.type === 'long-input') {
      input = el('textarea', { id: id, rows: field.type === 'code' ? 4 : 3, spellcheck: 'false', placeholder: field.placeholder });
      input.value = value;
      if (field.type === 'long-input') return input;
      input.setAttribute('data-language', field.language || 'text');
      return el('div', { class: 'code' }, [el('span', { class: 'lang', text: field.language || 'text' }), input]);
    }
    input = el('input', {
      id: id,
      type: field.password ? 'password' : field.type === 'number' ? 'number' : 'text',
      step: field.type === 'number' ? 'any' : undefined,
      autocomplete: field.password ? 'off' : undefined,
      spellcheck: 'false',
      placeholder: field.placeholder,
      list: choices && choices.length ? id + '-choices' : undefined,
    });
    input.value = value;
    // A picker of what the sandbox holds; any other value can still be typed.
    if (!choices || !choices.length) return input;
    var list = el('datalist', { id: id + '-choices' }, choices.map(function (c) { return el('option', { value: c }); }));
    return el('div', { class: 'picker' }, [input, list]);
  }

  function fieldRow(field, prefill, choices) {
    var row = el('div', { class: 'field', 'data-field-id': field.id, 'data-type': field.type }, [
      el('label', { class: 'title', for: 'f-' + field.id }, [document.createTextNode(field.title), el('span', { class: 'req', title: 'required', text: '*' })]),
      field.description ? el('p', { class: 'help', text: field.description }) : null,
      control(field, prefill, choices),
    ]);
    return row;
  }

  function inputOf(row) {
    return row.querySelector('input, select, textarea');
  }

  function readValue(field, row) {
    var input = inputOf(row);
    if (field.type === 'switch') return input.indeterminate ? undefined : input.checked;
    if (input.value === '') return undefined;
    if (field.type === 'number') return Number(input.value);
    return input.value;
  }

  function selectBlock(type, operation) {
    var entry = state.blocks.filter(function (b) { return b.manifest.type === type; })[0] || state.blocks[0];
    state.entry = entry;
    var m = entry.manifest;
    document.querySelectorAll('.block-item').forEach(function (item) {
      item.setAttribute('aria-current', String(item.getAttribute('data-block') === m.type));
    });
    var main = document.getElementById('block');
    main.textContent = '';
    main.setAttribute('data-block', m.type);
    main.style.setProperty('--block-color', m.color);

    var head = el('header', { class: 'block-head' }, [
      tile(m, true),
      el('div', {}, [el('h2', { text: m.name }), el('p', { text: m.description })]),
      m.docsUrl ? el('a', { href: m.docsUrl, target: '_blank', rel: 'noreferrer', text: 'API reference' }) : null,
    ]);
    var form = el('form', { id: 'fields', autocomplete: 'off' });
    form.addEventListener('submit', function (event) { event.preventDefault(); run(); });
    m.fields.forEach(function (field) { form.appendChild(fieldRow(field, entry.values[field.id], (entry.choices || {})[field.id])); });
    if (entry.endpoint) {
      form.appendChild(el('div', { class: 'endpoint', 'data-service': entry.endpoint.service }, [
        el('label', { for: 'endpoint', text: 'Endpoint (' + entry.endpoint.service + ')' }),
        el('p', { class: 'help', text: 'Base URL of the service; empty calls the real one.' }),
        (function () { var i = el('input', { id: 'endpoint', type: 'url', spellcheck: 'false' }); i.value = entry.endpoint.url; return i; })(),
      ]));
    }
    var button = el('button', { class: 'run', type: 'submit', id: 'run', text: 'Run' });
    form.appendChild(el('div', { class: 'actions' }, [button]));

    var outputs = el('section', { class: 'card', id: 'outputs-card' }, [el('h3', { text: 'Outputs' }), el('table', { class: 'outputs', id: 'outputs' })]);
    var result = el('section', { class: 'card', id: 'result', 'data-state': 'idle' }, [
      el('h3', { text: 'Result' }),
      el('p', { class: 'placeholder', text: 'Run the operation to see its result.' }),
    ]);
    main.appendChild(head);
    main.appendChild(el('div', { class: 'panes' }, [el('section', { class: 'card' }, [el('h3', { text: 'Fields' }), form]), el('div', { class: 'side' }, [outputs, result])]));

    var select = document.getElementById('f-operation');
    select.addEventListener('change', function () { selectOperation(select.value); });
    selectOperation(operation && m.tools.byOperation[operation] ? operation : select.value);
  }

  function selectOperation(operation) {
    var m = state.entry.manifest;
    state.operation = operation;
    document.getElementById('f-operation').value = operation;
    m.fields.forEach(function (field) {
      var row = document.querySelector('.field[data-field-id="' + field.id + '"]');
      var required = field.requiredFor.indexOf(operation) >= 0;
      if (field.id !== 'operation') row.hidden = !shownFor(field, operation);
      row.setAttribute('data-required', String(required));
      row.querySelector('.req').hidden = !required;
      inputOf(row).setAttribute('aria-required', String(required));
    });
    renderOutputs(undefined);
    resetResult();
    history.replaceState(null, '', '#' + m.type + '/' + operation);
  }

  // Two columns (name and type; description and, after a run, the value) so long values wrap instead of overflowing.
  function renderOutputs(output) {
    var table = document.getElementById('outputs');
    var outputs = state.entry.manifest.outputs[state.operation] || {};
    table.textContent = '';
    table.appendChild(el('tr', {}, [el('th', { text: 'Output' }), el('th', { text: output ? 'Description and value' : 'Description' })]));
    Object.keys(outputs).forEach(function (name) {
      var o = outputs[name];
      var about = el('td', {}, [el('span', { text: o.description || '' })]);
      if (output) {
        var text = output[name] === undefined ? '—' : JSON.stringify(output[name]);
        about.appendChild(el('code', { class: 'value', text: text.length > 160 ? text.slice(0, 157) + '…' : text }));
      }
      table.appendChild(el('tr', { 'data-output': name }, [
        el('td', {}, [el('code', { text: name }), el('span', { class: 'type', text: o.type + (o.optional ? ', optional' : '') })]),
        about,
      ]));
    });
  }

  function resetResult() {
    var card = document.getElementById('result');
    card.setAttribute('data-state', 'idle');
    card.textContent = '';
    card.appendChild(el('h3', { text: 'Result' }));
    card.appendChild(el('p', { class: 'placeholder', text: 'Run the operation to see its result.' }));
  }

  function showResult(kind, summary, meta, body) {
    var card = document.getElementById('result');
    card.setAttribute('data-state', kind);
    card.textContent = '';
    card.appendChild(el('h3', { text: 'Result' }));
    card.appendChild(el('div', {}, [el('span', { class: 'badge ' + kind, id: 'result-badge', text: summary }), meta ? el('span', { class: 'meta', text: meta }) : null]));
    card.appendChild(el('pre', { class: 'result-body', id: 'result-body', text: typeof body === 'string' ? body : JSON.stringify(body, null, 2) }));
  }

  function rowOf(fieldId) {
    return document.querySelector('.field[data-field-id="' + fieldId + '"]');
  }

  // A problem is shown on the field itself, under its input, until the field is edited.
  function markField(row, message) {
    var input = inputOf(row);
    row.setAttribute('data-invalid', 'true');
    input.setAttribute('aria-invalid', 'true');
    var note = row.querySelector('.field-error');
    if (!note) {
      note = el('p', { class: 'field-error', role: 'alert', id: 'err-' + row.getAttribute('data-field-id') });
      row.appendChild(note);
      input.setAttribute('aria-describedby', note.id);
      var clear = function () { clearField(row); };
      input.addEventListener('input', clear, { once: true });
      input.addEventListener('change', clear, { once: true });
    }
    note.textContent = message;
  }

  function clearField(row) {
    row.removeAttribute('data-invalid');
    var input = inputOf(row);
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    var note = row.querySelector('.field-error');
    if (note) note.remove();
  }

  // What can be told before sending: a required field left empty, JSON that does not parse, a number that is not one.
  function checkFields(m) {
    var issues = [];
    m.fields.forEach(function (field) {
      var row = rowOf(field.id);
      clearField(row);
      if (field.id === 'operation' || !shownFor(field, state.operation)) return;
      var input = inputOf(row);
      var text = field.type === 'switch' ? null : input.value;
      var message = null;
      if (field.requiredFor.indexOf(state.operation) >= 0 && (field.type === 'switch' ? input.indeterminate : text.trim() === '')) {
        message = field.title + ' is required';
      } else if (text && m.inputs[field.id] && m.inputs[field.id].type === 'json') {
        try { JSON.parse(text); } catch (error) { message = field.title + ' is not valid JSON'; }
      } else if (text && field.type === 'number' && !isFinite(Number(text))) {
        message = field.title + ' takes a number';
      }
      if (message) { markField(row, message); issues.push({ path: field.param || field.id, message: message }); }
    });
    return issues;
  }

  // Issues of a failed call on the fields they name (by param), as the pre-send check does.
  function markIssues(m, issues) {
    (issues || []).forEach(function (issue) {
      var param = String(issue.path || '').split('.')[0];
      var field = m.fields.filter(function (f) { return (f.param || f.id) === param && shownFor(f, state.operation); })[0];
      if (field) markField(rowOf(field.id), field.title + ': ' + issue.message);
    });
  }

  function showIssues(kind, summary, meta, message, issues) {
    showResult(kind, summary, meta, '');
    var card = document.getElementById('result');
    var body = document.getElementById('result-body');
    if (body) body.remove();
    if (message) card.appendChild(el('p', { class: 'result-message', text: message }));
    card.appendChild(el('ul', { class: 'issues', id: 'result-issues' }, issues.map(function (issue) {
      return el('li', {}, [issue.path ? el('code', { text: issue.path }) : null, document.createTextNode(' ' + issue.message)]);
    })));
  }

  function run() {
    var m = state.entry.manifest;
    var problems = checkFields(m);
    if (problems.length) {
      showIssues('error', 'not run', '', 'Fix the marked fields first:', problems);
      var first = document.querySelector('.field[data-invalid="true"]');
      if (first) inputOf(first).focus();
      return;
    }
    var values = { operation: state.operation };
    m.fields.forEach(function (field) {
      if (!shownFor(field, state.operation)) return;
      var value = readValue(field, rowOf(field.id));
      if (value !== undefined) values[field.id] = value;
    });
    var body = { type: m.type, values: values };
    var endpoint = document.getElementById('endpoint');
    if (endpoint) { body.endpoints = {}; body.endpoints[state.entry.endpoint.service] = endpoint.value.trim(); }
    var button = document.getElementById('run');
    button.disabled = true;
    button.textContent = 'Running…';
    document.getElementById('result').setAttribute('data-state', 'running');
    fetch('/api/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (res) { return res.json(); })
      .then(function (answer) {
        if (answer.error) return showResult('error', 'not run', '', answer.error);
        var r = answer.result;
        var meta = [answer.tool, r.meta.status ? 'HTTP ' + r.meta.status : '', r.meta.attempts + (r.meta.attempts === 1 ? ' attempt' : ' attempts'), r.meta.durationMs + ' ms']
          .filter(Boolean).join(' · ');
        if (r.success) { showResult('success', 'success', meta, r.output); renderOutputs(r.output); }
        else if (r.error.issues && r.error.issues.length) {
          markIssues(m, r.error.issues);
          showIssues('error', r.error.code, meta, r.error.code === 'invalid_params' ? 'The call was refused before sending:' : 'The service answered:', r.error.issues);
        } else showResult('error', r.error.code, meta, r.error);
      })
      .catch(function (error) { showResult('error', 'not run', '', String(error)); })
      .then(function () { button.disabled = false; button.textContent = 'Run'; });
  }

  function start(data) {
    state.blocks = data.blocks;
    document.getElementById('connection').textContent = data.connection;
    var nav = document.getElementById('blocks');
    data.blocks.forEach(function (entry) {
      var m = entry.manifest;
      var count = Object.keys(m.tools.byOperation).length;
      var item = el('button', { class: 'block-item', type: 'button', 'data-block': m.type, 'aria-current': 'false' }, [
        tile(m, false),
        el('span', { class: 'name', text: m.name }),
        el('span', { class: 'count', text: count + (count === 1 ? ' operation' : ' operations') }),
      ]);
      item.addEventListener('click', function () { selectBlock(m.type); });
      nav.appendChild(item);
    });
    var hash = location.hash.slice(1).split('/');
    selectBlock(hash[0], hash[1]);
    document.body.setAttribute('data-ready', 'true');
  }

  fetch('/api/blocks')
    .then(function (res) { return res.json(); })
    .then(start)
    .catch(function (error) { document.getElementById('block').textContent = 'Could not load the blocks: ' + error; });
})();
`;
