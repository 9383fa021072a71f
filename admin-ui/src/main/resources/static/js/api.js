// Fetch wrapper for the admin UI's own JSON API (/api). Errors become ApiError with the server's
// message (the REST proxy's, i.e. Kafka's, when it came from there). Changes carry the session's CSRF
// token; a 401 (the session ended) goes to the sign-in page.
import { session } from './session.js';

/** An /api call that failed: HTTP status, a message for people, and the error body (null if none). */
export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export async function request(method, path, body) {
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

/** One page of topics whose name contains filter. */
export const topics = (filter, page, size) =>
  request('GET', `/api/topics?${new URLSearchParams({ filter, page, size })}`);

/** Cluster-wide throughput of the last 15 minutes: { intervalSeconds, points, missingBrokers }. */
export const throughput = () => request('GET', '/api/throughput');

/** A topic's partitions and configs. */
export const topic = (name) => request('GET', `/api/topics/${encodeURIComponent(name)}`);

/** Creates a topic: { name, partitions, replicationFactor, configs }. */
export const createTopic = (spec) => request('POST', '/api/topics', spec);

/** Deletes a topic. */
export const deleteTopic = (name) => request('DELETE', `/api/topics/${encodeURIComponent(name)}`);
