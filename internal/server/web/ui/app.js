// gds web UI: documents (upload, list, detail, delete), search and chat
// over the API of `gds serve`. Plain JavaScript, no build step, no
// third-party code; every request goes to this page's own origin.
//
// Server data reaches the page only through textContent and attributes
// (never innerHTML). When the server runs with --token, the token typed
// under "Access token" is kept in sessionStorage (this tab only, gone when
// it closes) and sent as "Authorization: Bearer" on every /api/ request.
'use strict';

(() => {
  // ------------------------------------------------------------ language

  const TABLES = window.GDS_I18N;

  // pickLang is the first of the browser's languages that the UI has
  // (?lang=ja|en overrides it, for links and screenshots).
  function pickLang() {
    const forced = new URLSearchParams(location.search).get('lang');
    if (forced && TABLES[forced]) return forced;
    const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
    for (const p of prefs) {
      const base = String(p).toLowerCase().split('-')[0];
      if (TABLES[base]) return base;
    }
    return 'en';
  }

  const lang = pickLang();

  function t(key, ...args) {
    const s = (TABLES[lang] && TABLES[lang][key]) || TABLES.en[key] || key;
    return s.replace(/\{(\d+)\}/g, (m, i) => (args[i] === undefined ? m : String(args[i])));
  }

  function translatePage() {
    document.documentElement.lang = lang;
    for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
    for (const node of document.querySelectorAll('[data-i18n-aria-label]')) node.setAttribute('aria-label', t(node.dataset.i18nAriaLabel));
    for (const node of document.querySelectorAll('[data-i18n-placeholder]')) node.setAttribute('placeholder', t(node.dataset.i18nPlaceholder));
    document.title = t('app.title');
  }

  // ------------------------------------------------------------ helpers

  const $ = (sel) => document.querySelector(sel);

  // el builds an element: attrs are attributes (on* keys are listeners),
  // children are nodes or strings (as text).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function fmtSize(n) {
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
    return `${(n / 1024 / 1024).toFixed(1)} MB`;
  }

  function fmtDate(s) {
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(lang);
  }

  const fmtScore = (x) => Number(x).toFixed(3);

  // sourceLabel is where a document comes from, for people: the server's
  // label ("Local folder ~/Docs", "Google Drive", "Uploaded"), else the
  // kind's name.
  const sourceLabel = (d) => d.source_label || t(`source.${String(d.source || '').split(':')[0]}`);

  function docHref(id, chunkId) {
    let h = `#/documents/${encodeURIComponent(id)}`;
    if (chunkId) h += `/chunk/${encodeURIComponent(chunkId)}`;
    return h;
  }

  function setStatus(msg, kind) {
    const s = $('#status');
    s.textContent = msg || '';
    s.className = `status${kind ? ` ${kind}` : ''}`;
  }

  // ------------------------------------------------------------ API

  const TOKEN_KEY = 'gds.token';
  const token = () => sessionStorage.getItem(TOKEN_KEY) || '';

  class APIError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  function headers(extra) {
    const h = new Headers(extra || {});
    h.set('Accept-Language', lang);
    if (token()) h.set('Authorization', `Bearer ${token()}`);
    return h;
  }

  // send is fetch on this origin only (mode same-origin), with the
  // language and the token; a response that is not 2xx becomes an
  // APIError with the problem's detail.
  async function send(path, opts) {
    let res;
    try {
      res = await fetch(path, { ...opts, headers: headers(opts && opts.headers), mode: 'same-origin', credentials: 'same-origin' });
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      throw new APIError(0, t('err.network', e.message));
    }
    if (!res.ok) throw await problem(res);
    return res;
  }

  async function problem(res) {
    let detail = '';
    try {
      const body = await res.json();
      detail = body.detail || body.title || '';
    } catch (_) { /* not JSON */ }
    if (res.status === 401) {
      $('#token-panel').open = true;
      return new APIError(401, `${t('token.needed')} ${detail}`.trim());
    }
    return new APIError(res.status, detail || t('err.http', res.status));
  }

  async function getJSON(path) {
    const res = await send(path, { headers: { Accept: 'application/json' } });
    return res.json();
  }

  async function postJSON(path, body) {
    const res = await send(path, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
    return res.json();
  }

  function showError(err, where) {
    if (err && err.name === 'AbortError') return;
    const msg = err instanceof APIError ? err.message : String(err && err.message ? err.message : err);
    if (where) {
      where.textContent = msg;
      where.classList.add('error');
    } else {
      setStatus(msg, 'error');
    }
  }

  // ------------------------------------------------------------ token

  function initToken() {
    const input = $('#token-input');
    const state = () => { $('#token-state').textContent = token() ? t('token.set') : ''; };
    state();
    $('#token-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const v = input.value.trim();
      if (v) sessionStorage.setItem(TOKEN_KEY, v);
      input.value = '';
      state();
      setStatus(t('token.saved'));
      route();
    });
    $('#token-clear').addEventListener('click', () => {
      sessionStorage.removeItem(TOKEN_KEY);
      input.value = '';
      state();
      setStatus(t('token.forgotten'));
    });
  }

  // ------------------------------------------------------------ routing

  // Routes: #/documents, #/documents/ID, #/documents/ID/chunk/CHUNK,
  // #/search, #/chat.
  function parseRoute() {
    let parts;
    try {
      parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    } catch (_) {
      return { view: 'documents' }; // a malformed link
    }
    if (parts[0] === 'documents' && parts[1]) return { view: 'document', id: parts[1], chunk: parts[2] === 'chunk' ? parts[3] : '' };
    if (parts[0] === 'search' || parts[0] === 'chat') return { view: parts[0] };
    return { view: 'documents' };
  }

  function route() {
    const r = parseRoute();
    for (const s of document.querySelectorAll('main > section[data-view]')) s.hidden = s.dataset.view !== r.view;
    const tab = r.view === 'document' ? 'documents' : r.view;
    for (const a of document.querySelectorAll('[data-nav]')) {
      if (a.dataset.nav === tab) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    if (r.view === 'documents') loadDocuments();
    if (r.view === 'document') loadDocument(r.id, r.chunk);
    if (r.view === 'chat') loadFolders();
  }

  // ------------------------------------------------------------ upload

  let pendingFile = null;

  function selectFile(f) {
    pendingFile = f || null;
    $('#upload-file-name').textContent = f ? t('upload.selected', f.name, fmtSize(f.size)) : '';
  }

  function initUpload() {
    const zone = $('#drop-zone');
    const input = $('#upload-file');
    input.addEventListener('change', () => selectFile(input.files[0]));
    for (const ev of ['dragenter', 'dragover']) {
      zone.addEventListener(ev, (e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        zone.classList.add('over');
      });
    }
    for (const ev of ['dragleave', 'dragend']) zone.addEventListener(ev, () => zone.classList.remove('over'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('over');
      const files = e.dataTransfer.files;
      if (!files || !files.length) return;
      selectFile(files[0]);
      if (files.length > 1) setStatus(t('upload.one_file'));
    });
    $('#upload-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const out = $('#upload-result');
      out.classList.remove('error');
      if (!pendingFile) {
        out.textContent = t('upload.none');
        out.classList.add('error');
        return;
      }
      const form = new FormData();
      form.append('file', pendingFile, pendingFile.name);
      const title = $('#upload-title').value.trim();
      const tags = $('#upload-tags').value.trim();
      if (title) form.append('title', title);
      if (tags) form.append('tags', tags);
      const button = $('#upload-submit');
      button.disabled = true;
      out.textContent = t('upload.busy', pendingFile.name);
      try {
        const res = await send('/api/v1/documents/upload', { method: 'POST', body: form, headers: { Accept: 'application/json' } });
        const doc = await res.json();
        out.textContent = t('upload.done', doc.title, doc.chunk_count);
        $('#upload-form').reset();
        selectFile(null);
        docState.page = 1;
        loadDocuments();
      } catch (err) {
        showError(err, out);
      } finally {
        button.disabled = false;
      }
    });
  }

  // ------------------------------------------------------------ documents

  const docState = { page: 1, perPage: 20, tag: '', total: 0 };
  let docsSeq = 0;

  function tagButtons(tags) {
    return (tags || []).map((tag) => el('button', {
      type: 'button', class: 'tag', 'aria-label': t('docs.tag_filter_label', tag),
      onclick: () => { $('#doc-tag').value = tag; docState.tag = tag; docState.page = 1; location.hash = '#/documents'; loadDocuments(); },
    }, tag));
  }

  async function loadDocuments() {
    const seq = ++docsSeq;
    const table = $('#doc-table');
    table.setAttribute('aria-busy', 'true');
    const q = new URLSearchParams({ page: docState.page, per_page: docState.perPage });
    if (docState.tag) q.set('tag', docState.tag);
    let list;
    try {
      list = await getJSON(`/api/v1/documents?${q}`);
    } catch (err) {
      if (seq === docsSeq) table.setAttribute('aria-busy', 'false');
      showError(err);
      return;
    }
    if (seq !== docsSeq) return; // a newer load is under way
    const pages = Math.max(1, Math.ceil(list.total / list.per_page));
    if (!list.items.length && list.page > pages) { // the last page emptied (a delete)
      docState.page = pages;
      loadDocuments();
      return;
    }
    docState.total = list.total;
    const rows = list.items.map((d) => el('tr', { 'data-id': d.id },
      el('th', { scope: 'row' }, el('a', { href: docHref(d.id) }, d.title || d.filename)),
      el('td', { class: 'file' }, d.filename),
      el('td', {}, tagButtons(d.tags)),
      el('td', { class: 'num' }, d.chunk_count),
      el('td', { class: 'source' }, sourceLabel(d)),
      el('td', {}, fmtDate(d.created_at)),
      el('td', {}, el('a', { href: docHref(d.id), class: 'button small secondary', 'aria-label': t('docs.view_label', d.title || d.filename) }, t('docs.view'))),
    ));
    $('#doc-rows').replaceChildren(...rows);
    const empty = $('#doc-empty');
    empty.hidden = list.items.length > 0;
    empty.textContent = docState.tag ? t('docs.empty_tag', docState.tag) : t('docs.empty');
    $('#doc-page').textContent = t('docs.page', list.page, pages, list.total);
    $('#doc-prev').disabled = list.page <= 1;
    $('#doc-next').disabled = list.page >= pages;
    table.setAttribute('aria-busy', 'false');
  }

  function initDocuments() {
    $('#doc-filter').addEventListener('submit', (e) => {
      e.preventDefault();
      docState.tag = $('#doc-tag').value.trim();
      docState.page = 1;
      loadDocuments();
    });
    $('#doc-tag-clear').addEventListener('click', () => {
      $('#doc-tag').value = '';
      docState.tag = '';
      docState.page = 1;
      loadDocuments();
    });
    $('#doc-per-page').addEventListener('change', (e) => {
      docState.perPage = Number(e.target.value);
      docState.page = 1;
      loadDocuments();
    });
    $('#doc-prev').addEventListener('click', () => { if (docState.page > 1) { docState.page--; loadDocuments(); } });
    $('#doc-next').addEventListener('click', () => { docState.page++; loadDocuments(); });
  }

  // ------------------------------------------------------------ one document

  let docSeq = 0;

  async function loadDocument(id, chunkId) {
    const seq = ++docSeq;
    const section = document.querySelector('section[data-view="document"]');
    section.setAttribute('aria-busy', 'true');
    $('#doc-title').textContent = t('doc.loading');
    $('#doc-meta').replaceChildren();
    $('#doc-delete').replaceChildren();
    $('#doc-chunks').replaceChildren();
    let d;
    try {
      d = await getJSON(`/api/v1/documents/${encodeURIComponent(id)}`);
    } catch (err) {
      if (seq === docSeq) {
        $('#doc-title').textContent = '';
        section.setAttribute('aria-busy', 'false');
        showError(err);
      }
      return;
    }
    if (seq !== docSeq) return;
    $('#doc-title').textContent = d.title || d.filename;
    const rows = [
      ['doc.filename', d.filename], ['doc.source', sourceLabel(d)], ['doc.type', d.mime_type],
      ['doc.size', fmtSize(d.file_size)], ['doc.chunk_count', d.chunk_count],
      ['doc.added', fmtDate(d.created_at)], ['doc.updated', fmtDate(d.updated_at)], ['doc.path', d.file_path],
    ];
    const meta = [];
    for (const [k, v] of rows) meta.push(el('dt', {}, t(k)), el('dd', {}, v));
    meta.push(el('dt', {}, t('doc.tags')), el('dd', {}, d.tags.length ? tagButtons(d.tags) : t('doc.no_tags')));
    $('#doc-meta').replaceChildren(...meta);
    $('#doc-delete').replaceChildren(d.source === 'upload' ? deleteButton(d) : el('p', { class: 'muted' }, t('doc.read_only', sourceLabel(d))));
    let target = null;
    const items = d.chunks.map((c) => {
      const li = el('li', { id: `chunk-${c.id}`, 'data-chunk-id': c.id, tabindex: '-1', class: c.id === chunkId ? 'chunk target' : 'chunk' },
        el('div', { class: 'chunk-head' }, t('doc.chunk', c.chunk_index + 1), c.page_number ? ` · ${t('doc.page', c.page_number)}` : ''),
        el('p', { class: 'chunk-text' }, c.content));
      if (c.id === chunkId) target = li;
      return li;
    });
    $('#doc-chunks').replaceChildren(...items);
    section.setAttribute('aria-busy', 'false');
    if (target) {
      target.scrollIntoView({ block: 'center' });
      target.focus({ preventScroll: true });
    }
  }

  // deleteButton asks once more in place (no dialog) before deleting.
  function deleteButton(d) {
    const box = el('div', { class: 'row' });
    const ask = () => {
      box.replaceChildren(
        el('p', { class: 'warn' }, t('doc.delete_confirm', d.title || d.filename)),
        el('button', { type: 'button', class: 'danger', id: 'doc-delete-yes', onclick: () => remove() }, t('doc.delete_yes')),
        el('button', { type: 'button', class: 'secondary', onclick: () => idle() }, t('doc.cancel')));
      $('#doc-delete-yes').focus();
    };
    const idle = () => box.replaceChildren(el('button', { type: 'button', class: 'danger', id: 'doc-delete-ask', onclick: ask }, t('doc.delete')));
    const remove = async () => {
      try {
        await send(`/api/v1/documents/${encodeURIComponent(d.id)}`, { method: 'DELETE' });
        setStatus(t('doc.deleted', d.title || d.filename));
        location.hash = '#/documents';
      } catch (err) {
        showError(err);
      }
    };
    idle();
    return box;
  }

  // ------------------------------------------------------------ search

  function initSearch() {
    $('#search-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const query = $('#search-query').value.trim();
      if (!query) return;
      const summary = $('#search-summary');
      summary.classList.remove('error');
      summary.textContent = t('search.busy');
      const button = $('#search-submit');
      const results = $('#search-results');
      button.disabled = true;
      results.setAttribute('aria-busy', 'true');
      try {
        const res = await postJSON('/api/v1/search', {
          query, top_k: Number($('#search-top-k').value), score_threshold: Number($('#search-threshold').value),
        });
        summary.textContent = res.total ? t('search.count', res.total, res.query) : t('search.none', res.query);
        $('#search-notices').replaceChildren(...searchNotices(res));
        $('#search-results').replaceChildren(...res.results.map((r) => el('li', { class: 'result-item' },
          el('div', { class: 'result-head' },
            el('a', { href: docHref(r.document_id, r.chunk_id) }, r.metadata.title || r.metadata.filename),
            el('span', { class: 'muted' }, ` ${r.metadata.filename}`,
              r.metadata.page_number ? ` · ${t('doc.page', r.metadata.page_number)}` : '',
              ` · ${t('search.score', fmtScore(r.score))}`),
            ' ', tagButtons(r.metadata.tags)),
          r.missing && r.missing.length ? el('p', { class: 'missing muted' }, t('search.missing', r.missing.join(', '))) : null,
          el('p', { class: 'chunk-text' }, r.content))));
      } catch (err) {
        $('#search-results').replaceChildren();
        $('#search-notices').replaceChildren();
        showError(err, summary);
      } finally {
        button.disabled = false;
        results.setAttribute('aria-busy', 'false');
      }
    });
  }

  // searchNotices says what the search said of the query's words: the
  // words no document contains, a correction with the way back (a button
  // that searches the words as typed), a weak match.
  function searchNotices(res) {
    const out = [];
    const plain = (res.unmatched || []).filter((u) => !u.suggestion).map((u) => `“${u.word}”`);
    if (plain.length) out.push(el('p', { class: 'notice' }, t('search.unmatched', plain.join(', '))));
    if (res.corrected) {
      const [shown] = res.corrected.message.split('\n');
      out.push(el('p', { class: 'notice corrected' }, shown, ' ',
        el('button', {
          type: 'button', class: 'link instead',
          onclick: () => { $('#search-query').value = res.corrected.instead; $('#search-form').requestSubmit(); },
        }, t('search.instead', res.corrected.instead))));
    }
    if (res.partial) out.push(el('p', { class: 'notice partial' }, res.partial.message));
    return out;
  }

  // ------------------------------------------------------------ chat

  // chatModes are the ways to answer. Each names its stream endpoint and
  // builds its request; the stream's frames are
  //   data: {"content": "...", "done": false, "sources": null}
  //   data: {"content": "", "done": true, "sources": [...], "error"?: {...}}
  // A mode whose frames carry more (steps of an agent, say) handles them in
  // onFrame. A mode switch appears as soon as there is more than one.
  const chatModes = {
    answer: {
      label: 'chat.mode.answer',
      endpoint: '/api/v1/chat/stream',
      request: (question, history, opts) => {
        const body = { question, chat_history: history, top_k: opts.topK, score_threshold: opts.threshold };
        if (opts.folder) body.folder = opts.folder;
        return body;
      },
      onFrame: null,
    },
    // The agent investigates a folder (gds ask --mode agentic): frames are
    // its events, {type: tool_call|tool_result|chunk|evidence|done, ...};
    // steps are listed as they happen, evidence becomes the sources.
    agentic: {
      label: 'chat.mode.agentic',
      endpoint: '/api/v1/chat/stream',
      request: (question, history, opts) => {
        const body = { question, mode: 'agentic' };
        if (opts.folder) body.folder = opts.folder;
        return body;
      },
      onFrame: (frame, turn, st) => {
        let steps = turn.querySelector('.agent-steps');
        if (!steps) {
          steps = el('ol', { class: 'agent-steps muted', 'aria-label': t('chat.steps') });
          turn.querySelector('.turn-a .who').after(steps);
        }
        switch (frame.type) {
          case 'tool_call':
            steps.append(el('li', { class: 'step', 'data-tool': frame.tool }, stepLabel(frame)));
            break;
          case 'tool_result': {
            // The result completes its call's line: "Searching … — 3 passages found".
            const open = [...steps.querySelectorAll('li.step:not([data-done])')].reverse().find((li) => li.dataset.tool === frame.tool);
            const line = open || steps.appendChild(el('li', { class: 'step', 'data-tool': frame.tool }, stepLabel(frame)));
            line.dataset.done = 'true';
            if (frame.error) line.classList.add('error');
            if (frame.summary) line.append(el('span', { class: 'step-result' }, ` — ${frame.summary}`));
            break;
          }
          case 'evidence': {
            const e = frame.evidence || {};
            st.sources.push({ ref: frame.ref, document_id: e.file_id, chunk_id: e.chunk_id, filename: e.name, title: e.name,
              page_number: e.page || null, chunk_content: e.text, score: null });
            break;
          }
          case 'done':
            st.sources.sort((a, b) => (a.ref || 0) - (b.ref || 0)); // citation order
            st.done = true;
            st.extractive = Boolean(frame.extractive);
            if (frame.message) steps.append(el('li', { class: 'step' }, frame.message));
            if (frame.answer && !st.text()) st.setText(frame.answer);
            break;
          default:
            // `event: error`: a problem after the stream started.
            if (frame.status || frame.title) st.fail(new APIError(frame.status, frame.detail || frame.title));
        }
      },
    },
  };

  const chat = { history: [], controller: null, mode: 'answer' };
  const MAX_HISTORY = 50; // the API's limit on chat_history

  function initChatModes() {
    const names = Object.keys(chatModes);
    const box = $('#chat-modes');
    if (names.length < 2) return;
    box.hidden = false;
    const select = el('select', {
      id: 'chat-mode',
      onchange: (e) => { chat.mode = e.target.value; },
    }, names.map((n) => el('option', { value: n }, t(chatModes[n].label))));
    box.replaceChildren(el('label', { class: 'field inline' }, el('span', {}, t('chat.mode')), select));
  }

  // stepLabel says what an agent's tool call does, in the page's language
  // (chat.tool.NAME, with the document it reads or the words it searches).
  function stepLabel(frame) {
    let what = frame.target || '';
    if (!what && frame.args && typeof frame.args === 'object') what = frame.args.query || frame.args.search_text || '';
    const key = `chat.tool.${frame.tool}`;
    if (TABLES.en[key]) return t(key, what).replace(/\s*[“「][”」]/, '').trim();
    return t('chat.tool.other', frame.tool);
  }

  // loadFolders fills the folder picker from GET /api/v1/folders: one
  // option per folder path (the sources holding it, and its documents),
  // keeping the choice when it is still there.
  let foldersSeq = 0;
  async function loadFolders() {
    const seq = ++foldersSeq;
    const select = $('#chat-folder');
    let list;
    try {
      list = await getJSON('/api/v1/folders');
    } catch (err) {
      return; // no list (a token not yet given): "All folders" still works
    }
    if (seq !== foldersSeq) return;
    const byPath = new Map();
    for (const f of list.items) {
      const o = byPath.get(f.path) || { path: f.path, count: 0, labels: [] };
      o.count += f.document_count;
      if (!o.labels.includes(f.source_label)) o.labels.push(f.source_label);
      byPath.set(f.path, o);
    }
    const chosen = select.value;
    const opts = [el('option', { value: '' }, t('chat.folder_all'))];
    for (const o of byPath.values()) {
      opts.push(el('option', { value: o.path, title: o.labels.join(', ') }, t('chat.folder_option', o.path, o.count, o.labels.join(', '))));
    }
    select.replaceChildren(...opts);
    select.value = byPath.has(chosen) ? chosen : '';
    select.dataset.loaded = String(byPath.size);
  }

  // readStream calls onFrame with each `data:` frame of a server-sent
  // event stream, parsed as JSON, as it arrives.
  async function readStream(res, onFrame) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    const flush = (block) => {
      const data = block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      if (data) onFrame(JSON.parse(data));
    };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let i;
      while ((i = buf.search(/\r?\n\r?\n/)) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i).replace(/^\r?\n\r?\n/, '');
        flush(block);
      }
    }
    buf += decoder.decode();
    if (buf.trim()) flush(buf);
  }

  // renderAnswer writes the answer with each [n] that names a source as a
  // link to that source's chunk.
  function renderAnswer(node, text, sources) {
    const byRef = new Map((sources || []).map((s) => [String(s.ref), s]));
    const parts = [];
    let last = 0;
    for (const m of text.matchAll(/\[(\d+)\]/g)) {
      const s = byRef.get(m[1]);
      if (!s) continue;
      parts.push(text.slice(last, m.index));
      parts.push(el('a', { href: docHref(s.document_id, s.chunk_id), class: 'ref', 'aria-label': t('chat.ref_label', m[1], s.title || s.filename) }, m[0]));
      last = m.index + m[0].length;
    }
    parts.push(text.slice(last));
    node.replaceChildren(...parts);
  }

  function renderSources(sources) {
    if (!sources || !sources.length) return el('p', { class: 'muted' }, t('chat.no_sources'));
    sources = [...sources].sort((a, b) => (a.ref || 0) - (b.ref || 0));
    return el('div', { class: 'sources' },
      el('h3', {}, t('chat.sources')),
      el('ol', {}, sources.map((s) => el('li', { value: s.ref || undefined, 'data-document-id': s.document_id },
        el('a', { href: docHref(s.document_id, s.chunk_id), class: 'source-link' }, s.title || s.filename),
        el('span', { class: 'muted' },
          s.title && s.title !== s.filename ? ` ${s.filename}` : '',
          s.page_number ? ` · ${t('doc.page', s.page_number)}` : '',
          s.score === null || s.score === undefined ? '' : ` · ${t('search.score', fmtScore(s.score))}`),
        el('details', {}, el('summary', {}, t('chat.quote')), el('blockquote', {}, s.chunk_content))))));
  }

  function setChatBusy(busy) {
    $('#chat-send').disabled = busy;
    $('#chat-stop').hidden = !busy;
    $('#chat-question').readOnly = busy;
  }

  async function ask(question) {
    const mode = chatModes[chat.mode];
    $('#chat-empty').hidden = true;
    const answerText = el('div', { class: 'answer-text' }, el('span', { class: 'muted' }, t('chat.thinking')));
    const answerBox = el('div', { class: 'turn-a', 'aria-busy': 'true' }, el('div', { class: 'who' }, t('chat.gds')), answerText);
    const turn = el('article', { class: 'turn', 'data-done': 'false' },
      el('div', { class: 'turn-q' }, el('div', { class: 'who' }, t('chat.you')), el('p', {}, question)),
      answerBox);
    $('#chat-log').append(turn);
    turn.scrollIntoView({ block: 'end' });

    const folderInput = $('#chat-folder');
    const opts = {
      topK: Number($('#chat-top-k').value), threshold: Number($('#chat-threshold').value),
      folder: folderInput ? folderInput.value.trim() : '',
    };
    const body = mode.request(question, chat.history.slice(-MAX_HISTORY), opts);
    chat.controller = new AbortController();
    setChatBusy(true);
    let text = '';
    let sources = null;
    let extractive = false;
    let failed = null;
    try {
      const res = await send(mode.endpoint, {
        method: 'POST', body: JSON.stringify(body), signal: chat.controller.signal,
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      });
      let frames = 0;
      // st lets a mode's onFrame collect sources, end the answer or fail it.
      const st = {
        sources: [], done: false, extractive: false,
        text: () => text,
        setText: (s) => { text = s; answerText.textContent = text; },
        fail: (err) => { failed = err; },
      };
      await readStream(res, (frame) => {
        turn.dataset.frames = String(++frames);
        if (mode.onFrame) {
          mode.onFrame(frame, turn, st);
          if (st.done) {
            sources = st.sources;
            extractive = st.extractive;
          }
        }
        if (frame.content) {
          text += frame.content;
          answerText.textContent = text;
        }
        if (frame.done) {
          sources = frame.sources || [];
          extractive = Boolean(frame.extractive);
          if (frame.error) failed = new APIError(frame.error.status, frame.error.detail || frame.error.title);
        }
      });
    } catch (err) {
      if (err.name === 'AbortError') text += ` ${t('chat.stopped')}`;
      else failed = err;
    } finally {
      chat.controller = null;
      setChatBusy(false);
    }
    renderAnswer(answerText, text, sources);
    if (extractive) answerText.before(el('p', { class: 'extract-note' }, t('chat.extract_note')));
    if (failed) answerBox.append(el('p', { class: 'error', role: 'alert' }, failed.message));
    if (sources) answerBox.append(renderSources(sources));
    answerBox.setAttribute('aria-busy', 'false');
    turn.dataset.done = 'true';
    if (text && !failed) {
      chat.history.push({ role: 'user', content: question }, { role: 'assistant', content: text.slice(0, 20000) });
    }
  }

  function initChat() {
    initChatModes();
    const form = $('#chat-form');
    const q = $('#chat-question');
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const question = q.value.trim();
      if (!question || chat.controller) return;
      q.value = '';
      await ask(question);
      q.focus();
    });
    q.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
    $('#chat-stop').addEventListener('click', () => { if (chat.controller) chat.controller.abort(); });
    $('#chat-clear').addEventListener('click', () => {
      if (chat.controller) chat.controller.abort();
      chat.history = [];
      $('#chat-log').replaceChildren($('#chat-empty'));
      $('#chat-empty').hidden = false;
      setStatus(t('chat.cleared'));
    });
  }

  // ------------------------------------------------------------ start

  translatePage();
  initToken();
  initUpload();
  initDocuments();
  initSearch();
  initChat();
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.ready = 'true';
})();
