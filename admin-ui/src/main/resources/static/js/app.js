// Hash router: #/ overview, #/topics, #/topics/<name>, #/groups, #/share-groups, #/transactions, #/brokers,
// #/reassignments, #/acls, #/users, #/quotas. Each page module exports render(view, params)
// and builds its content into the view element; a failing page shows its error, never a blank page.
import { errorBox, h } from './dom.js';
import * as overview from './pages/overview.js';
import * as topics from './pages/topics.js';
import * as groups from './pages/groups.js';
import * as groupDetail from './pages/group-detail.js';
import * as shareGroups from './pages/share-groups.js';
import * as shareGroupDetail from './pages/share-group-detail.js';
import * as topicDetail from './pages/topic-detail.js';
import * as messages from './pages/messages.js';
import * as transactions from './pages/transactions.js';
import * as brokers from './pages/brokers.js';
import * as brokerDetail from './pages/broker-detail.js';
import * as reassignments from './pages/reassignments.js';
import * as acls from './pages/acls.js';
import * as users from './pages/users.js';
import * as quotas from './pages/quotas.js';
import { access } from './pages/security-api.js';
import { session } from './session.js';

const routes = [
  { pattern: /^\/?$/, page: overview, nav: 'overview' },
  { pattern: /^\/topics\/?$/, page: topics, nav: 'topics' },
  { pattern: /^\/topics\/(.+)\/messages$/, page: messages, nav: 'topics' },
  { pattern: /^\/topics\/(.+)$/, page: topicDetail, nav: 'topics' },
  { pattern: /^\/groups\/?$/, page: groups, nav: 'groups' },
  { pattern: /^\/groups\/(.+)$/, page: groupDetail, nav: 'groups' },
  { pattern: /^\/share-groups\/?$/, page: shareGroups, nav: 'share-groups' },
  { pattern: /^\/share-groups\/(.+)$/, page: shareGroupDetail, nav: 'share-groups' },
  { pattern: /^\/transactions\/?$/, page: transactions, nav: 'transactions' },
  { pattern: /^\/brokers\/?$/, page: brokers, nav: 'brokers' },
  { pattern: /^\/brokers\/(\d+)$/, page: brokerDetail, nav: 'brokers' },
  { pattern: /^\/reassignments\/?$/, page: reassignments, nav: 'reassignments' },
  { pattern: /^\/acls\/?$/, page: acls, nav: 'acls' },
  { pattern: /^\/users\/?$/, page: users, nav: 'users' },
  { pattern: /^\/quotas\/?$/, page: quotas, nav: 'quotas' },
];

let current = 0;

async function route() {
  const path = decodeURIComponent(location.hash.replace(/^#/, '')) || '/';
  const view = document.getElementById('view');
  const match = routes.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  for (const link of document.querySelectorAll('[data-nav]')) {
    if (match && link.dataset.nav === match.r.nav) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const token = ++current;
  view.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
  view.setAttribute('aria-busy', 'true');
  try {
    if (!match) {
      view.replaceChildren(h('h1', {}, 'Not found'), errorBox(new Error(`No page at ${path}`)));
      return;
    }
    const content = await match.r.page.render(match.m.slice(1));
    if (token === current) view.replaceChildren(content);
  } catch (e) {
    if (token === current) view.replaceChildren(h('h1', {}, 'Something went wrong'), errorBox(e));
  } finally {
    if (token === current) view.removeAttribute('aria-busy');
  }
}

/** The header's "signed in as" and sign-out button (a form POST to /logout with the CSRF token). */
async function showUser() {
  const { signInRequired, username, csrf } = await session();
  if (!signInRequired || !username) return;
  const hidden = csrf ? h('input', { type: 'hidden', name: '_csrf', value: csrf.token }) : null;
  document.querySelector('header.top').append(h('div', { class: 'user' },
    h('span', { id: 'signed-in-user' }, 'Signed in as ', h('strong', {}, username)),
    h('form', { method: 'post', action: 'logout', id: 'sign-out-form' }, hidden,
      h('button', { type: 'submit', id: 'sign-out', class: 'secondary' }, 'Sign out'))));
}

showUser();

/**
 * The Menu button of narrow screens: it opens and closes the navigation (aria-expanded says which);
 * following a link or Escape closes it again. On wide screens the button is hidden and the links show.
 */
function navigationMenu() {
  const header = document.querySelector('header.top');
  const toggle = document.getElementById('nav-toggle');
  const setOpen = (open) => {
    header.classList.toggle('nav-open', open);
    toggle.setAttribute('aria-expanded', String(open));
  };
  toggle.addEventListener('click', () => {
    setOpen(toggle.getAttribute('aria-expanded') !== 'true');
  });
  header.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      toggle.focus();
    }
  });
  // Closed on every followed link, also the current page's, which changes no hash.
  document.getElementById('main-nav').addEventListener('click', (e) => {
    if (e.target.closest('a')) setOpen(false);
  });
  window.addEventListener('hashchange', () => setOpen(false));
}

navigationMenu();

// "Skip to content" moves focus to the page's main area. Its href (#view, for a browser without
// scripts) would change the hash, which the router reads as a page named "view": Not found.
document.querySelector('a.skip').addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('view').focus();
});

/** Shows the security pages' links (hidden at first) to a user the proxy lets read them. */
async function showSecurityLinks() {
  try {
    const allowed = await access();
    for (const link of document.querySelectorAll('[data-access]')) {
      if (allowed[link.dataset.access]?.allowed) link.closest('li').hidden = false;
    }
  } catch (e) {
    // The links stay hidden; the pages themselves say why when opened.
  } finally {
    // The navigation's links are final now (tests wait for this before counting them).
    document.getElementById('main-nav').dataset.access = 'checked';
  }
}

showSecurityLinks();

window.addEventListener('hashchange', () => {
  document.getElementById('status').textContent = '';
  route().then(() => document.getElementById('view').focus({ preventScroll: true }));
});
route();
