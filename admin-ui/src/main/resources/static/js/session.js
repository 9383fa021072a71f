// The signed-in session as GET /api/session gives it: who is signed in, the CSRF token to send with
// changes, and the user's cluster operations. Fetched once per page load. Rights checks here only hide
// controls: the server refuses (403) what the user may not do whatever the page shows.

let current;

/** { signInRequired, username, csrf: { headerName, token }, clusterOperations }; cached. */
export function session() {
  if (!current) {
    current = fetch('/api/session', { headers: { Accept: 'application/json' } }).then((response) => {
      if (response.status === 401) {
        location.assign('/login');
        return new Promise(() => {});
      }
      if (!response.ok) throw new Error(`GET /api/session failed with HTTP ${response.status}`);
      return response.json();
    }).catch(() => ({ signInRequired: false, username: null, csrf: null, clusterOperations: null }));
  }
  return current;
}

/** Whether Kafka ACL operations (null: not reported, so offered) allow an operation, e.g. 'WRITE'. */
export function allows(operations, operation) {
  return !operations || operations.includes(operation) || operations.includes('ALL');
}
