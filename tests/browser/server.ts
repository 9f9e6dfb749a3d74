/**
 * A small static file server on 127.0.0.1 (random port) for the built test pages. It logs every request path
 * so that tests can assert what the page did (or did not) fetch from it.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

/** A running static server. `requests` lists every request path in arrival order (with the query string). */
export interface StaticServer {
  /** Origin without trailing slash, e.g. `http://127.0.0.1:43121`. */
  readonly url: string;
  readonly requests: readonly string[];
  /**
   * Serves the file at absolute path `file` under URL path `urlPath` (e.g. `/models/gemma.gguf`), streamed,
   * with its `content-length` (HEAD answered too): how the tests serve a real model from loopback.
   */
  mount(urlPath: string, file: string): void;
  close(): Promise<void>;
}

/** Serves the files under `root` (404 for anything else, including paths escaping `root`). */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const requests: string[] = [];
  const mounts = new Map<string, string>();
  const server = createServer((req, res) => {
    const raw = req.url ?? '/';
    requests.push(raw);
    const path = decodeURIComponent(new URL(raw, 'http://x').pathname);
    const mounted = mounts.get(path);
    if (mounted !== undefined) {
      stat(mounted).then(
        (st) => {
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': String(st.size),
            'cache-control': 'no-store',
          });
          if (req.method === 'HEAD') res.end();
          else createReadStream(mounted).pipe(res);
        },
        () => res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`),
      );
      return;
    }
    const file = resolve(base, '.' + (path.endsWith('/') ? path + 'index.html' : path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': MIME[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(body);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mount: (urlPath, file) => void mounts.set(urlPath, file),
    close: () =>
      new Promise<void>((ok, fail) => {
        server.closeAllConnections();
        server.close((e) => (e ? fail(e) : ok()));
      }),
  };
}
