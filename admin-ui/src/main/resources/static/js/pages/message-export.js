// Export of the records a Messages page shows: the admin UI server turns exactly those rows into JSON
// lines or CSV (POST /api/topics/<name>/messages/export), and the browser saves the answer as a file.
import { ApiError } from '../api.js';
import { session } from '../session.js';

/** Downloads `messages` of `topic` as format 'jsonl' or 'csv'; answers the file's name. */
export async function exportMessages(topic, messages, format) {
  const { csrf } = await session();
  const headers = { 'Content-Type': 'application/json', Accept: 'application/x-ndjson, text/csv, application/json' };
  if (csrf) headers[csrf.headerName] = csrf.token;
  const response = await fetch(`/api/topics/${encodeURIComponent(topic)}/messages/export?format=${format}`,
    { method: 'POST', headers, body: JSON.stringify({ messages }) });
  if (!response.ok) {
    let message = `The export failed with HTTP ${response.status}`;
    try {
      message = (await response.json()).message || message;
    } catch (e) {
      // not JSON: the status says it
    }
    throw new ApiError(response.status, message);
  }
  const disposition = response.headers.get('Content-Disposition') || '';
  const named = /filename="([^"]+)"/.exec(disposition);
  const name = named ? named[1] : `${topic}-messages.${format}`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; it may go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
