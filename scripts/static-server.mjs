#!/usr/bin/env node
// A tiny static file server for the collision checker page (www/).
//
// Why not `python3 -m http.server`: it cannot add response headers. The page carries its
// Content-Security-Policy in a <meta> tag as well, but a meta CSP cannot express
// frame-ancestors, and it does not reach the Web Worker (a worker takes its policy from the
// headers of its own script response). This server sends the same strict policy as a header on
// every response, so the page, its module worker and the wasm fetch are all covered.
//
// Usage: node scripts/static-server.mjs [ROOT] [--port N] [--host H]
//   ROOT defaults to www/ next to this script's parent; --port 0 (the default) asks the OS for a
//   free port. The URL is printed on stdout as "Serving ROOT at http://127.0.0.1:PORT/".

import { createServer } from 'node:http';
import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { resolve, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cache-Control': 'no-cache',
};

function send(res, status, text) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

export function startServer({ root, host = '127.0.0.1', port = 0, log = () => {} }) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        return send(res, 405, 'method not allowed\n');
      }
      let pathname;
      try {
        pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      } catch {
        return send(res, 400, 'bad request\n');
      }
      if (pathname.includes('\0')) return send(res, 400, 'bad request\n');
      let file = resolve(join(base, pathname));
      if (file !== base && !file.startsWith(base + sep)) return send(res, 403, 'forbidden\n');
      let info = await stat(file).catch(() => null);
      if (info && info.isDirectory()) {
        if (!pathname.endsWith('/')) {
          res.writeHead(301, { ...SECURITY_HEADERS, Location: pathname + '/' });
          return res.end();
        }
        file = join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info || !info.isFile()) {
        log(`404 ${req.url}`);
        return send(res, 404, 'not found\n');
      }
      const type = TYPES[extname(file).toLowerCase()] || 'application/octet-stream';
      res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': info.size });
      log(`200 ${req.url}`);
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
    } catch (err) {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
      log(`500 ${req.url} ${err}`);
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: bound } = server.address();
      ok({ server, url: `http://${host}:${bound}/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let root = resolve(fileURLToPath(new URL('../www', import.meta.url)));
  let port = Number(process.env.PORT || 0);
  let host = '127.0.0.1';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port') port = Number(args[++i]);
    else if (args[i] === '--host') host = args[++i];
    else if (args[i] === '--quiet') continue;
    else root = resolve(args[i]);
  }
  const quiet = args.includes('--quiet');
  const { url } = await startServer({
    root, host, port,
    log: quiet ? () => {} : (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`Serving ${root} at ${url}\n`);
  process.stdout.write('Press Ctrl-C to stop.\n');
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
}
