// Service worker: keeps a copy of the page's own files so that it loads, and checks files,
// without a network (reload included) after one visit. Only this site's files are cached;
// nothing else is fetched. Network first: online, every load gets the current files (and
// refreshes the copy); offline, the copy serves. The page's files are listed here; the
// package's, which change with it, in pkg/files.json (written by scripts/www-pkg.sh when it
// copies the package in). VERSION names the cache: change it when FILES changes, and the next
// visit replaces the old cache.

const VERSION = 'sha1dc-checker-v5';
const FILES = [
  './',
  'index.html',
  'style.css',
  'boot.js',
  'app.js',
  'format.js',
  'expected.js',
  'export.js',
  'remaining.js',
  'pool.js',
  'render.js',
  'groups.js',
  'folders.js',
  'worker.js',
  'chunks.js',
  'hashing.js',
  'reader.js',
  // Repositories, packs and bundles (git.js).
  'git.js',
  'git-worker.js',
  'git.css',
];

/** A request for one of the site's files that skips the HTTP cache: the copy is current. */
const fresh = (path) => new Request(new URL(path, self.registration.scope), { cache: 'no-cache' });

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    await cache.addAll(FILES.map(fresh));
    // Without the package's list there is no complete copy: the install fails, the page still works online.
    const listed = await (await fetch(fresh('pkg/files.json'))).json();
    await cache.addAll(listed.map((f) => fresh(`pkg/${f}`)));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('sha1dc-checker-') && key !== VERSION) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
      return response;
    } catch (err) {
      const copy = await cache.match(request, { ignoreVary: true });
      if (copy) return copy;
      throw err;
    }
  })());
});
