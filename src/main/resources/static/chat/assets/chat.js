/*
 * The chat page (docs/chat-ui.md, docs/chat-ui.md). Plain script, no build step: the history comes from
 * GET /chat-ui/api/chats/{id}, live events from /ws/chat-ui (the events of /ws/chat). Every message is put into the
 * page as text, or as Markdown turned into HTML whose raw HTML is shown as text and which DOMPurify then cleans:
 * nothing a message holds can run.
 */
(function () {
  'use strict';

  const params = new URLSearchParams(window.location.search);
  const chatId = params.get('chat_id');
  const token = params.get('token');

  const el = {
    body: document.body,
    title: document.getElementById('title'),
    status: document.getElementById('status'),
    log: document.getElementById('log'),
    notice: document.getElementById('notice'),
    announcer: document.getElementById('announcer'),
    composer: document.getElementById('composer'),
    input: document.getElementById('input'),
    send: document.getElementById('send'),
    review: document.getElementById('review'),
    reviewDetails: document.getElementById('review-details'),
    reviewScore: document.getElementById('review-score'),
    reviewComment: document.getElementById('review-comment'),
    reviewCriteria: document.getElementById('review-criteria'),
    reviewFindings: document.getElementById('review-findings')
  };

  /** message id -> { role, content, node, streaming } */
  const messages = new Map();
  /** client_message_id -> { content, node }: sent (or to be sent) and not yet acknowledged by message_received */
  const outbox = new Map();
  /**
   * The one message of the outbox sent on this socket and not yet acknowledged. Messages go one at a time: the
   * server's refusals (RATE_LIMITED, INVALID_MESSAGE) do not say which frame they refuse, so with one frame in
   * flight they can only mean that one. It costs nothing: the server answers a chat's messages one at a time.
   */
  let inFlight = null;
  let rateTimer = null;
  let announceTimer = null;
  /** How much of a finished reply is announced; a longer one is read in the log. */
  const ANNOUNCED_CHARS = 300;
  /** How long the live region stays empty before the same announcement is made again. */
  const ANNOUNCE_AGAIN_MS = 150;
  /** The server's largest frame (realtime.max-frame, 64 KB by default). */
  const MAX_FRAME_BYTES = 65536;

  let lastSeq = 0;
  let socket = null;
  let connected = false;
  let attempts = 0;
  let retryTimer = null;
  let terminal = false;
  let chatClosed = false;
  let lastRefusal = null;
  let renderQueued = new Set();

  // ---- Markdown, rendered safely ----------------------------------------------------------------------------

  function escapeHtml(text) {
    return String(text)
      .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  }

  const markdown = new window.marked.Marked({
    gfm: true,
    breaks: true,
    renderer: {
      // raw HTML in a message is shown as the text it is
      html(token) { return escapeHtml(token.text); },
      // images would be requests to other sites: shown as a link instead
      image(token) {
        const label = escapeHtml(token.text || token.href || 'image');
        return '<a href="' + escapeHtml(token.href || '') + '">' + label + '</a>';
      }
    }
  });

  const purifyConfig = {
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    FORBID_TAGS: ['style', 'img', 'svg', 'math', 'form', 'input', 'button', 'textarea', 'select', 'iframe',
      'object', 'embed', 'video', 'audio', 'source', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'id', 'class', 'srcset']
  };

  window.DOMPurify.addHook('afterSanitizeAttributes', function (node) {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });

  function renderMarkdown(target, content) {
    target.innerHTML = window.DOMPurify.sanitize(markdown.parse(content), purifyConfig);
    target.querySelectorAll('pre, table').forEach(scrollableByKeyboard);
  }

  /** A box that may scroll sideways (code, a wide table) takes the focus, so that the arrow keys can scroll it. */
  function scrollableByKeyboard(node) {
    node.tabIndex = 0;
  }

  // ---- State shown to the reader ----------------------------------------------------------------------------

  const STATE_TEXT = {
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Reconnecting…',
    closed: 'This chat is closed',
    'not-found': 'Chat not found',
    unauthorized: 'Link not valid',
    forbidden: 'Not allowed here',
    'rate-limited': 'Slow down'
  };

  function setState(state, text) {
    el.status.dataset.state = state;
    el.status.textContent = text || STATE_TEXT[state];
    el.body.dataset.state = state;
    updateComposer();
  }

  function showNotice(text) {
    if (!text) {
      el.notice.hidden = true;
      el.notice.textContent = '';
      return;
    }
    el.notice.textContent = text;
    el.notice.hidden = false;
  }

  /**
   * What a screen reader should say once, politely: a reply that ended, a message not sent. The log itself is not
   * a live region: a streaming reply is painted again at every frame, which would be read out token by token.
   */
  function announce(text) {
    clearTimeout(announceTimer);
    if (el.announcer.textContent !== text) {
      el.announcer.textContent = text;
      return;
    }
    // the same words again are no change to the region: empty it first, or a screen reader would stay silent
    el.announcer.textContent = '';
    announceTimer = window.setTimeout(function () { el.announcer.textContent = text; }, ANNOUNCE_AGAIN_MS);
  }

  /** The start of a reply as a screen reader hears it: the rest is in the log, one article per message. */
  function replyAnnouncement(entry) {
    const text = entry.node.querySelector('.body').textContent.replace(/\s+/g, ' ').trim();
    return 'Reply: ' + (text.length > ANNOUNCED_CHARS ? text.slice(0, ANNOUNCED_CHARS) + '…' : text);
  }

  function updateComposer() {
    const usable = !terminal && !chatClosed && el.status.dataset.state !== 'connecting';
    el.input.disabled = !usable;
    el.send.disabled = !usable;
  }

  /** A state the page does not leave by itself: the chat is gone, or the link does not open it. */
  function stop(state, heading, text) {
    terminal = true;
    clearTimeout(retryTimer);
    if (socket) {
      socket.onclose = null;
      socket.close();
      socket = null;
    }
    setState(state);
    showNotice(null);
    el.log.replaceChildren();
    const box = document.createElement('div');
    box.className = 'gone';
    const h = document.createElement('h2');
    h.textContent = heading;
    const p = document.createElement('p');
    p.textContent = text;
    box.append(h, p);
    el.log.append(box);
  }

  // ---- Messages in the log ----------------------------------------------------------------------------------

  /** The log scrolls by itself, except in a short viewport (high zoom), where the whole page does. */
  function scroller() {
    return window.getComputedStyle(el.log).overflowY === 'visible' ? document.scrollingElement : el.log;
  }

  function nearBottom() {
    const box = scroller();
    return box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  }

  function scrollDown(force) {
    if (force || nearBottom()) {
      const box = scroller();
      box.scrollTop = box.scrollHeight;
    }
  }

  /** A message's node, at the end of the log, or before {@code before} (earlier history). */
  function bubble(role, state, before) {
    const empty = el.log.querySelector('.empty');
    if (empty) {
      empty.remove();
    }
    const node = document.createElement('article');
    node.className = 'message';
    node.dataset.role = role;
    node.dataset.state = state;
    node.setAttribute('aria-label', role === 'user' ? 'You' : 'Assistant');
    const body = document.createElement('div');
    body.className = 'body';
    node.append(body);
    if (before) {
      el.log.insertBefore(node, before);
      return node;
    }
    const stick = nearBottom();
    el.log.append(node);
    scrollDown(stick);
    return node;
  }

  function paint(entry) {
    const body = entry.node.querySelector('.body');
    if (entry.role === 'user') {
      body.textContent = entry.content;
    } else {
      renderMarkdown(body, entry.content);
    }
    entry.node.dataset.state = entry.streaming ? 'streaming' : 'done';
    entry.node.setAttribute('aria-busy', entry.streaming ? 'true' : 'false');
  }

  /** Re-renders a streaming message at most once a frame, however many tokens arrive. */
  function paintSoon(entry) {
    if (renderQueued.has(entry)) {
      return;
    }
    renderQueued.add(entry);
    window.requestAnimationFrame(function () {
      renderQueued.delete(entry);
      const stick = nearBottom();
      paint(entry);
      scrollDown(stick);
    });
  }

  /** The message with this id, made (at the end of the log) when it is new. */
  function entryFor(id, role) {
    let entry = messages.get(id);
    if (!entry) {
      const node = bubble(role, 'done');
      node.dataset.messageId = id;
      entry = { role: role, content: '', node: node, streaming: false };
      messages.set(id, entry);
    }
    return entry;
  }

  /**
   * The assistant message being streamed, marked so at once: its text is painted at the next frame, but nothing
   * may see it as finished meanwhile.
   */
  function streaming(id) {
    const entry = entryFor(id, 'assistant');
    entry.streaming = true;
    entry.node.dataset.state = 'streaming';
    entry.node.setAttribute('aria-busy', 'true');
    return entry;
  }

  function stored(id, role, content) {
    const entry = entryFor(id, role);
    entry.content = content;
    entry.streaming = false;
    paint(entry);
    return entry;
  }

  // ---- Sending: exactly once across reconnects (client_message_id) ------------------------------------------

  function newClientId() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return 'page-' + Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  }

  function frame(id, text) {
    return JSON.stringify({ content: text, client_message_id: id });
  }

  function send(text) {
    const id = newClientId();
    const node = bubble('user', 'pending');
    node.querySelector('.body').textContent = text;
    node.dataset.clientMessageId = id;
    scrollDown(true);
    if (new TextEncoder().encode(frame(id, text)).length > MAX_FRAME_BYTES) {
      markFailed(node, 'Not sent: the message is too long (at most 64 KB).');
      return;
    }
    outbox.set(id, { content: text, node: node });
    transmitNext();
  }

  /** Sends the oldest message not yet acknowledged, unless one is in flight; after a reconnect it goes again. */
  function transmitNext() {
    if (inFlight || rateTimer || !socket || !connected || socket.readyState !== WebSocket.OPEN) {
      return;
    }
    const next = outbox.keys().next();
    if (!next.done) {
      inFlight = next.value;
      socket.send(frame(next.value, outbox.get(next.value).content));
    }
  }

  function markFailed(node, reason) {
    node.dataset.state = 'failed';
    const meta = document.createElement('div');
    meta.className = 'meta';
    meta.textContent = reason;
    node.append(meta);
    announce(reason);
  }

  function acknowledged(event) {
    const id = event.client_message_id;
    const waiting = id ? outbox.get(id) : null;
    if (id && id === inFlight) {
      inFlight = null;
      window.setTimeout(transmitNext, 0);
    }
    if (waiting && !messages.has(event.message_id)) {
      outbox.delete(id);
      waiting.node.dataset.messageId = event.message_id;
      messages.set(event.message_id, { role: 'user', content: event.content, node: waiting.node, streaming: false });
      paint(messages.get(event.message_id));
      return;
    }
    if (waiting) {
      outbox.delete(id);
      waiting.node.remove();
    }
    stored(event.message_id, 'user', event.content);
  }

  function failOutbox(reason) {
    outbox.forEach(function (waiting) { markFailed(waiting.node, reason); });
    outbox.clear();
    inFlight = null;
  }

  // ---- Events of /ws/chat-ui ----------------------------------------------------------------------------------

  function handle(event) {
    if (typeof event.seq === 'number' && event.seq > lastSeq) {
      lastSeq = event.seq;
    }
    switch (event.event_type) {
      case 'connection_established':
        connected = true;
        attempts = 0;
        setState(chatClosed ? 'closed' : 'connected');
        showNotice(null);
        inFlight = null;
        transmitNext();
        break;
      case 'message_received':
        acknowledged(event);
        break;
      case 'message_stream_started': {
        const entry = streaming(event.message_id);
        paintSoon(entry);
        break;
      }
      case 'message_stream_token': {
        const entry = streaming(event.message_id);
        entry.content += event.token;
        paintSoon(entry);
        break;
      }
      case 'message_stream_ended': {
        const known = messages.get(event.message_id);
        const fresh = !known || known.streaming;
        const entry = stored(event.message_id, 'assistant', event.content);
        if (fresh) {
          announce(replyAnnouncement(entry));
        }
        scrollDown(false);
        // the review, or a teacher's answer to a regrade request (which comes as a message), may have changed it
        if (reviewPending || regradeOpen) {
          refreshReview();
        }
        break;
      }
      case 'error':
        failed(event);
        break;
      default:
        break;
    }
  }

  function dropStream(messageId) {
    const entry = messageId ? messages.get(messageId) : null;
    if (entry && entry.streaming) {
      messages.delete(messageId);
      entry.node.remove();
    }
  }

  function failed(event) {
    const code = event.error_code;
    const details = event.details || {};
    switch (code) {
      case 'RATE_LIMITED': {
        // the frame in flight was dropped: it goes again once, after the wait
        const wait = Math.max(200, Number(details.retry_after_ms) || 1000);
        inFlight = null;
        setState('rate-limited', 'Slow down: sending again in ' + Math.ceil(wait / 1000) + ' s');
        clearTimeout(rateTimer);
        rateTimer = window.setTimeout(function () {
          rateTimer = null;
          if (connected && !terminal) {
            setState(chatClosed ? 'closed' : 'connected');
            transmitNext();
          }
        }, wait);
        break;
      }
      case 'CHAT_CLOSED':
        chatClosed = true;
        setState('closed');
        failOutbox('Not sent: the chat is closed.');
        break;
      case 'AI_ERROR':
        dropStream(details.message_id);
        showNotice('The assistant could not answer just now. Your message is kept; send another to try again.');
        break;
      case 'REPLY_INTERRUPTED':
        // the server answering stopped: its partial reply goes, the answer streams again under a new message_id
        dropStream(details.message_id);
        break;
      case 'INTERNAL_ERROR':
        dropStream(details.message_id);
        showNotice(event.error_message || 'Something went wrong on the server.');
        break;
      case 'BUDGET_EXHAUSTED': {
        // an AI budget is spent: the frame in flight was not kept; the next ones would be refused alike
        const until = details.resets_at ? new Date(details.resets_at).toLocaleString() : 'later';
        const text = 'Not sent: the AI allowance is used up until ' + until + '. Your message was not kept.';
        const refused = inFlight ? outbox.get(inFlight) : null;
        if (refused) {
          outbox.delete(inFlight);
          inFlight = null;
          markFailed(refused.node, text);
          transmitNext();
        } else {
          showNotice(text);
        }
        break;
      }
      case 'INVALID_MESSAGE': {
        // the frame in flight was refused for good: it is not sent again
        const refused = inFlight ? outbox.get(inFlight) : null;
        if (refused) {
          outbox.delete(inFlight);
          inFlight = null;
          markFailed(refused.node, 'Not sent: ' + (event.error_message || 'the server refused it') + '.');
          transmitNext();
        } else {
          showNotice(event.error_message);
        }
        break;
      }
      default:
        // refusals (AUTH_ERROR, CHAT_NOT_FOUND, ORIGIN_NOT_ALLOWED, CONNECTION_LIMIT_EXCEEDED) come before the close
        lastRefusal = event;
        break;
    }
  }

  // ---- Connecting, and coming back ----------------------------------------------------------------------------

  function socketUrl() {
    const scheme = window.location.protocol === 'https:' ? 'wss://' : 'ws://';
    let url = scheme + window.location.host + '/ws/chat-ui?chat_id=' + encodeURIComponent(chatId)
      + '&resume_from=' + lastSeq;
    if (token) {
      url += '&token=' + encodeURIComponent(token);
    }
    return url;
  }

  function connect() {
    if (terminal) {
      return;
    }
    lastRefusal = null;
    connected = false;
    const ws = new WebSocket(socketUrl());
    socket = ws;
    ws.onmessage = function (message) {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      handle(event);
    };
    ws.onclose = function (close) {
      if (socket !== ws) {
        return;
      }
      socket = null;
      connected = false;
      inFlight = null;
      closed(close.code);
    };
  }

  function closed(code) {
    const refusal = lastRefusal && lastRefusal.error_message ? lastRefusal.error_message : '';
    switch (code) {
      case 4404:
        stop('not-found', 'Chat not found', 'This chat does not exist or was deleted.');
        return;
      case 4401:
        stop('unauthorized', /expired/i.test(refusal) ? 'This link has expired' : 'This link does not open the chat',
          refusal + ' ' + fixOf(lastRefusal));
        return;
      case 4403:
        stop('forbidden', 'This chat cannot be opened here', refusal);
        return;
      case 1013: {
        // SERVICE_UNAVAILABLE: come back after retry_after_ms, give or take half of it, then back off as usual
        const after = lastRefusal && lastRefusal.details ? Number(lastRefusal.details.retry_after_ms) : 0;
        retry(connect, attempts === 0 && after > 0 ? Math.round(after * (0.5 + Math.random())) : undefined);
        return;
      }
      default:
        retry(connect);
    }
  }

  function fixOf(event) {
    return event && event.details && event.details.fix ? event.details.fix : '';
  }

  /** Backoff: 0.5 s, 1 s, 2 s... up to 15 s, with jitter, so that a restarted server is not hit all at once. */
  function retry(action, waitMs) {
    if (terminal) {
      return;
    }
    attempts += 1;
    const backoff = Math.min(15000, 500 * Math.pow(2, attempts - 1));
    const delay = waitMs || Math.round(backoff * (0.5 + Math.random() / 2));
    if (!waitMs) {
      setState('reconnecting', 'Reconnecting in ' + Math.max(1, Math.round(delay / 1000)) + ' s…');
    }
    clearTimeout(retryTimer);
    retryTimer = window.setTimeout(action, delay);
  }

  window.addEventListener('online', function () {
    if (!socket && !terminal && retryTimer) {
      clearTimeout(retryTimer);
      attempts = 0;
      (historyLoaded ? connect : load)();
    }
  });

  let historyLoaded = false;

  async function load() {
    if (terminal) {
      return;
    }
    if (!chatId) {
      stop('not-found', 'Chat not found', 'This link does not name a chat: it needs ?chat_id=<id>.');
      return;
    }
    setState(attempts > 0 ? 'reconnecting' : 'connecting');
    let response;
    try {
      response = await fetch('/chat-ui/api/chats/' + encodeURIComponent(chatId)
        + (token ? '?token=' + encodeURIComponent(token) : ''), {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit'
      });
    } catch (e) {
      retry(load);
      return;
    }
    if (response.status === 404) {
      stop('not-found', 'Chat not found', 'This chat does not exist or was deleted.');
      return;
    }
    if (response.status === 401) {
      const problem = await response.json().catch(function () { return {}; });
      stop('unauthorized',
        problem.code === 'EMBED_TOKEN_EXPIRED' ? 'This link has expired' : 'This link does not open the chat',
        (problem.detail || '') + ' ' + (problem.fix || ''));
      return;
    }
    if (response.status === 429) {
      const seconds = Math.max(1, Number(response.headers.get('Retry-After')) || 5);
      setState('rate-limited', 'Too many requests: trying again in ' + seconds + ' s');
      retry(load, seconds * 1000);
      return;
    }
    if (!response.ok) {
      retry(load);
      return;
    }
    const page = await response.json();
    show(page);
    historyLoaded = true;
    connect();
  }

  function show(page) {
    el.title.textContent = page.chat.title || 'Chat';
    document.title = page.chat.title || 'Chat';
    chatClosed = page.chat.status === 'closed';
    page.messages.forEach(function (message) {
      stored(message.id, message.sender_role === 'user' ? 'user' : 'assistant', message.content);
    });
    offerEarlier(page);
    if (page.messages.length === 0) {
      const empty = document.createElement('p');
      empty.className = 'empty';
      empty.textContent = 'No messages yet. Ask away.';
      el.log.append(empty);
    }
    lastSeq = Math.max(lastSeq, page.last_seq || 0);
    showReview(page);
    setState(chatClosed ? 'closed' : 'connecting');
    scrollDown(true);
  }

  // ---- The review a review chat is about: its criteria and findings, beside the messages ----------------------

  let reviewPending = false;

  function part(tag, className, text) {
    const node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = text;
    }
    return node;
  }

  /** Whether a regrade request waits for the teacher's answer: the review is read again when a reply ends. */
  let regradeOpen = false;
  /** Whether the review was shown yet: on a small screen it starts folded to its summary line. */
  let reviewShown = false;
  /** criterion id ('' for the whole grade) -> the text of a regrade form being written, kept across re-renders */
  const regradeDrafts = new Map();

  function gradedText(criterion) {
    const points = criterion.points + ' / ' + criterion.max_points;
    return criterion.graded_by === 'teacher'
      ? points + ', your teacher\'s (the review: ' + criterion.ai_points + ')'
      : points;
  }

  /** The requests about one criterion ('' for the whole grade), each with its state and the teacher's answer. */
  function regradeList(requests) {
    const list = part('ul', 'regrades');
    requests.forEach(function (request) {
      const item = part('li', 'regrade');
      item.id = 'regrade-' + request.id;
      item.tabIndex = -1;
      item.dataset.state = request.state;
      item.append(part('p', 'regrade-head', request.state === 'open'
        ? 'Your regrade request, waiting for your teacher:'
        : 'Your regrade request, answered:'));
      item.append(part('p', 'regrade-message', request.message));
      if (request.answer) {
        const answer = part('div', 'regrade-answer');
        answer.append(part('p', 'regrade-answer-head', 'Your teacher\'s answer:'));
        const body = part('div', 'regrade-answer-body');
        renderMarkdown(body, request.answer);
        answer.append(body);
        item.append(answer);
      }
      list.append(item);
    });
    return list;
  }

  /**
   * A button that opens a small form under the criterion: what the student thinks was missed. Its text survives the
   * review being shown again (a reply ending re-renders it), and so does the focus in it.
   */
  function regradeForm(key, title) {
    const wrap = part('div', 'regrade-ask');
    const formId = 'regrade-form-' + (key || 'grade');
    const toggle = part('button', 'regrade-toggle', 'Ask for a regrade');
    toggle.type = 'button';
    toggle.id = formId + '-toggle';
    toggle.setAttribute('aria-label', 'Ask for a regrade of ' + title);
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-controls', formId);
    const form = part('form', 'regrade-form');
    form.id = formId;
    form.hidden = true;
    form.noValidate = true;
    form.setAttribute('aria-label', 'Regrade request about ' + title);
    const label = part('label', null, 'What do you think the review missed?');
    label.htmlFor = formId + '-text';
    const text = document.createElement('textarea');
    text.id = formId + '-text';
    text.rows = 3;
    text.maxLength = 2000;
    const error = part('p', 'regrade-error');
    error.id = formId + '-error';
    error.setAttribute('role', 'alert');
    text.setAttribute('aria-describedby', error.id);
    const actions = part('p', 'regrade-actions');
    const send = part('button', null, 'Send to your teacher');
    send.type = 'submit';
    const cancel = part('button', 'secondary', 'Cancel');
    cancel.type = 'button';
    actions.append(send, cancel);
    form.append(label, text, error, actions);
    wrap.append(toggle, form);

    function open(focus) {
      form.hidden = false;
      toggle.setAttribute('aria-expanded', 'true');
      if (focus) {
        text.focus();
      }
    }
    function close() {
      form.hidden = true;
      toggle.setAttribute('aria-expanded', 'false');
      regradeDrafts.delete(key);
      text.value = '';
      error.textContent = '';
      toggle.focus();
    }
    toggle.addEventListener('click', function () {
      if (form.hidden) {
        regradeDrafts.set(key, text.value);
        open(true);
      } else {
        close();
      }
    });
    cancel.addEventListener('click', close);
    text.addEventListener('input', function () { regradeDrafts.set(key, text.value); });
    form.addEventListener('submit', async function (event) {
      event.preventDefault();
      const message = text.value.trim();
      if (!message) {
        error.textContent = 'Write what you think was missed first.';
        text.focus();
        return;
      }
      send.disabled = true;
      error.textContent = '';
      try {
        const response = await fetch('/chat-ui/api/chats/' + encodeURIComponent(chatId) + '/regrade-requests'
          + (token ? '?token=' + encodeURIComponent(token) : ''), {
          method: 'POST',
          headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
          body: JSON.stringify({ criterion_id: key || null, message: message }),
          cache: 'no-store',
          credentials: 'omit'
        });
        if (!response.ok) {
          const problem = await response.json().catch(function () { return {}; });
          error.textContent = (problem.detail || 'The request was not sent.') + ' ' + (problem.fix || '');
          send.disabled = false;
          text.focus();
          return;
        }
        const request = await response.json();
        regradeDrafts.delete(key);
        announce('Your regrade request about ' + title + ' was sent to your teacher.');
        await refreshReview();
        const shown = document.getElementById('regrade-' + request.id);
        if (shown) {
          shown.focus();
        }
      } catch (e) {
        error.textContent = 'The request was not sent: the connection failed. Try again.';
        send.disabled = false;
      }
    });
    if (regradeDrafts.has(key)) {
      text.value = regradeDrafts.get(key);
      open(false);
    }
    return wrap;
  }

  /** Shows the review of the page's answer ({review, review_pending}); everything goes in as text or clean HTML. */
  function showReview(state) {
    reviewPending = Boolean(state.review_pending);
    const review = state.review;
    if (!review) {
      el.review.hidden = true;
      return;
    }
    const focused = document.activeElement && el.review.contains(document.activeElement)
      ? { id: document.activeElement.id, start: document.activeElement.selectionStart,
        end: document.activeElement.selectionEnd }
      : null;
    const requests = review.regrade_requests || [];
    regradeOpen = requests.some(function (request) { return request.state === 'open'; });
    el.reviewScore.textContent = 'Grade ' + review.grade + ', ' + review.points + ' of ' + review.max_points
      + ' points' + (review.grade !== review.ai_grade ? ' (your teacher\'s; the review gave ' + review.ai_grade + ')' : '');
    el.reviewComment.replaceChildren();
    if (review.comment) {
      el.reviewComment.append(part('p', 'teacher-comment', 'Your teacher: ' + review.comment));
    }
    el.reviewCriteria.replaceChildren();
    function about(key) {
      return requests.filter(function (request) { return (request.criterion_id || '') === key; });
    }
    review.criteria.forEach(function (criterion) {
      const item = part('li', 'criterion');
      item.dataset.gradedBy = criterion.graded_by;
      const head = part('p', 'criterion-head');
      head.append(part('span', 'criterion-title', criterion.title),
        part('span', 'criterion-points', gradedText(criterion)));
      const explanation = part('div', 'criterion-explanation');
      renderMarkdown(explanation, criterion.explanation);
      item.append(head, explanation);
      if (criterion.comment) {
        item.append(part('p', 'teacher-comment', 'Your teacher: ' + criterion.comment));
      }
      const asked = about(criterion.criterion_id);
      if (asked.length > 0) {
        item.append(regradeList(asked));
      }
      const waiting = asked.some(function (request) { return request.state === 'open'; });
      if (review.may_ask_for_regrade && !waiting) {
        item.append(regradeForm(criterion.criterion_id, '“' + criterion.title + '”'));
      }
      el.reviewCriteria.append(item);
    });
    const whole = about('');
    if (whole.length > 0) {
      const item = part('li', 'criterion');
      item.append(part('p', 'criterion-head', 'The whole grade'), regradeList(whole));
      el.reviewCriteria.append(item);
    }
    el.reviewFindings.replaceChildren();
    review.findings.forEach(function (finding) {
      const item = part('li', 'finding');
      item.dataset.severity = finding.severity;
      const head = part('div', 'finding-head');
      head.append(part('span', 'severity', finding.severity));
      if (finding.file) {
        const where = finding.file + (finding.line ? ':' + finding.line
          + (finding.end_line && finding.end_line !== finding.line ? '-' + finding.end_line : '') : '');
        head.append(' ', part('code', 'where', where));
      }
      // a finding's message is written as the messages are (`code`, **emphasis**): rendered as they are
      const message = part('div', 'finding-message');
      renderMarkdown(message, finding.message);
      head.append(message);
      item.append(head);
      if (finding.quote) {
        const quote = part('pre', 'quote');
        scrollableByKeyboard(quote);
        quote.append(part('code', null, finding.quote));
        item.append(quote);
      }
      el.reviewFindings.append(item);
    });
    if (review.findings.length === 0) {
      el.reviewFindings.append(part('li', 'finding none', 'The review found nothing to point to.'));
    }
    el.review.hidden = false;
    if (!reviewShown) {
      reviewShown = true;
      // on a phone the panel would push the messages down: it starts as its summary line, a tap opens it
      if (window.matchMedia('(max-width: 480px)').matches && el.review.offsetHeight > window.innerHeight / 3) {
        el.reviewDetails.open = false;
      }
    }
    if (focused && focused.id) {
      const again = document.getElementById(focused.id);
      if (again) {
        again.focus();
        if (typeof focused.start === 'number' && again.setSelectionRange) {
          again.setSelectionRange(focused.start, focused.end);
        }
      }
    }
  }

  async function refreshReview() {
    try {
      const response = await fetch('/chat-ui/api/chats/' + encodeURIComponent(chatId) + '/review'
        + (token ? '?token=' + encodeURIComponent(token) : ''), {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit'
      });
      if (response.ok) {
        showReview(await response.json());
      }
    } catch (e) {
      // the next reply that ends asks again
    }
  }

  // ---- Earlier history: a long chat comes in pages, the latest first ------------------------------------------

  let earlierButton = null;

  function offerEarlier(page) {
    if (!page.has_more) {
      if (earlierButton) {
        earlierButton.remove();
        earlierButton = null;
      }
      return;
    }
    if (!earlierButton) {
      earlierButton = document.createElement('button');
      earlierButton.type = 'button';
      earlierButton.className = 'earlier';
      earlierButton.textContent = 'Show earlier messages';
      earlierButton.addEventListener('click', loadEarlier);
      el.log.prepend(earlierButton);
    }
    earlierButton.dataset.before = String(page.offset);
    earlierButton.disabled = false;
  }

  async function loadEarlier() {
    const button = earlierButton;
    button.disabled = true;
    let page;
    try {
      const response = await fetch('/chat-ui/api/chats/' + encodeURIComponent(chatId)
        + '?before=' + encodeURIComponent(button.dataset.before)
        + (token ? '&token=' + encodeURIComponent(token) : ''), {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit'
      });
      if (!response.ok) {
        throw new Error('HTTP ' + response.status);
      }
      page = await response.json();
    } catch (e) {
      button.disabled = false;
      showNotice('The earlier messages could not be loaded just now; try again.');
      return;
    }
    // earlier messages go above the ones shown, and what the reader looks at stays where it is
    const first = button.nextSibling;
    const fromBottom = el.log.scrollHeight - el.log.scrollTop;
    page.messages.forEach(function (message) {
      if (messages.has(message.id)) {
        return;
      }
      const role = message.sender_role === 'user' ? 'user' : 'assistant';
      const node = bubble(role, 'done', first);
      node.dataset.messageId = message.id;
      const entry = { role: role, content: message.content, node: node, streaming: false };
      messages.set(message.id, entry);
      paint(entry);
    });
    el.log.scrollTop = el.log.scrollHeight - fromBottom;
    offerEarlier(page);
  }

  // ---- The composer -------------------------------------------------------------------------------------------

  el.composer.addEventListener('submit', function (event) {
    event.preventDefault();
    const text = el.input.value;
    if (el.input.disabled) {
      return;
    }
    if (!text.trim()) {
      announce('Nothing sent: the message is empty.');
      return;
    }
    el.input.value = '';
    send(text);
    el.input.focus();
  });

  el.input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      el.composer.requestSubmit();
    }
  });

  load();
}());
