// Fetch wrapper for the admin UI's own JSON API (/api). Errors become ApiError with the server's
// message (the REST proxy's, i.e. Kafka's, when it came from there). Changes carry the session's CSRF
// token; a 401 (the session ended) goes to the sign-in page. A read (GET) that fails because no REST
// proxy answers (the error names where the UI looks for it) is tried again with a growing pause while
// a "Waiting for the REST proxy" line shows, so a page opened before the proxy is up loads by itself.
import { session } from './session.js';

/** First and longest pause between tries while the REST proxy does not answer, in ms. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;

/** An /api call that failed: HTTP status, a message for people, the error body (null if none), and where
 * the proxy is looked for when none answered (else undefined). */
export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.status = status;
    this.body = body;
    this.proxy = body && body.proxy ? body.proxy : undefined;
  }
}

/** Reads waiting for the REST proxy now; the line under the header shows while there are any. */
let waiting = 0;

function showWaiting(error, pauseMs) {
  const line = document.getElementById('proxy-wait');
  if (!line) return;
  const where = error.proxy.startsWith('registered') ? `a REST proxy ${error.proxy}` : `the REST proxy at ${error.proxy}`;
  const reason = error.message.replace(/^The REST proxy did not answer: /, '');
  line.textContent = `Waiting for ${where}… Last try: ${reason}. Trying again in ${Math.round(pauseMs / 1000)} s.`;
  line.hidden = false;
}

function doneWaiting() {
  waiting -= 1;
  const line = document.getElementById('proxy-wait');
  if (waiting === 0 && line && !line.hidden) {
    line.hidden = true;
    line.textContent = '';
  }
}

/** Calls /api; a GET waits for the REST proxy while none answers (see above), changes are sent once. */
export async function request(method, path, body) {
  if (method !== 'GET') return requestOnce(method, path, body);
  let pauseMs = RETRY_FIRST_MS;
  let counted = false;
  try {
    for (;;) {
      try {
        return await requestOnce(method, path, body);
      } catch (e) {
        if (!(e instanceof ApiError) || !e.proxy) throw e;
        if (!counted) { waiting += 1; counted = true; }
        showWaiting(e, pauseMs);
        await new Promise((resolve) => { setTimeout(resolve, pauseMs); });
        pauseMs = Math.min(pauseMs * 2, RETRY_MAX_MS);
      }
    }
  } finally {
    if (counted) doneWaiting();
  }
}

async function requestOnce(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (method !== 'GET') {
    const { csrf } = await session();
    if (csrf) init.headers[csrf.headerName] = csrf.token;
  }
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, `The admin UI server did not answer (${e.message})`);
  }
  if (response.status === 401) {
    location.assign('/login');
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = null;
    }
  }
  if (!response.ok) {
    const message = data && data.message ? data.message : `${method} ${path} failed with HTTP ${response.status}`;
    throw new ApiError(response.status, message, data);
  }
  return data;
}

/** The cluster overview. */
export const cluster = () => request('GET', '/api/cluster');

/**
 * One page of topics whose name contains filter: sort by name, partitions, size or messages, order asc or
 * desc, internal topics only when internal is true.
 */
export const topics = (filter, page, size, sort = 'name', order = 'asc', internal = false) =>
  request('GET', `/api/topics?${new URLSearchParams({ filter, page, size, sort, order, internal })}`);

/** Deletes several topics: { deleted: [names], failed: [{ name, message }] }. */
export const deleteTopics = (names) => request('POST', '/api/topics/deletions', { names });

/** Cluster-wide throughput of the last 15 minutes: { intervalSeconds, points, missingBrokers }. */
export const throughput = () => request('GET', '/api/throughput');

/** A topic's partitions and configs. */
export const topic = (name) => request('GET', `/api/topics/${encodeURIComponent(name)}`);

/** Creates a topic: { name, partitions, replicationFactor, configs }. */
export const createTopic = (spec) => request('POST', '/api/topics', spec);

/** Deletes a topic. */
export const deleteTopic = (name) => request('DELETE', `/api/topics/${encodeURIComponent(name)}`);
