// Serves static test pages from a fresh temporary directory on 127.0.0.1, port 0. Files
// are written by the test (put/putDir); every response allows any origin, so pages on one
// port can load scripts from another with crossorigin=anonymous. Responses are revalidated
// (no-cache) rather than no-store, which would keep pages out of the back/forward cache.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ServedRequest {
  method: string;
  path: string;
}

export interface StaticServer {
  // e.g. http://127.0.0.1:43121 (no trailing slash)
  origin: string;
  dir: string;
  // Every request seen, in order, for assertions such as "the module was fetched from …".
  requests: ServedRequest[];
  put(urlPath: string, content: string | Buffer): string;
  putDir(urlPath: string, sourceDir: string): void;
  url(urlPath: string): string;
  close(): Promise<void>;
}

export interface StaticServerOptions {
  // Extra response headers per request path, e.g. to test caching or content types.
  headers?: (urlPath: string) => Record<string, string> | undefined;
}

function resolveInside(root: string, urlPath: string): string | undefined {
  const clean = decodeURIComponent(urlPath.split('?')[0]);
  const full = path.resolve(root, '.' + (clean.endsWith('/') ? clean + 'index.html' : clean));
  return full.startsWith(root + path.sep) ? full : undefined;
}

export async function startStaticServer(opts: StaticServerOptions = {}): Promise<StaticServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-pages-'));
  const requests: ServedRequest[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const urlPath = (req.url || '/').split('?')[0];
    requests.push({ method: req.method || 'GET', path: req.url || '/' });
    const headers: Record<string, string> = {
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-cache',
      ...(opts.headers?.(urlPath) || {}),
    };
    const file = resolveInside(dir, urlPath);
    let body: Buffer | undefined;
    try {
      if (file && statSync(file).isFile()) body = readFileSync(file);
    } catch {
      body = undefined;
    }
    if (!body || !file) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    headers['Content-Type'] ??= TYPES[path.extname(file)] || 'application/octet-stream';
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const target = (urlPath: string): string => {
    const file = resolveInside(dir, urlPath.startsWith('/') ? urlPath : '/' + urlPath);
    if (!file) throw new Error(`path escapes the served directory: ${urlPath}`);
    return file;
  };

  return {
    origin,
    dir,
    requests,
    put(urlPath, content) {
      const file = target(urlPath);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return origin + (urlPath.startsWith('/') ? urlPath : '/' + urlPath);
    },
    putDir(urlPath, sourceDir) {
      const dest = path.resolve(dir, '.' + (urlPath.startsWith('/') ? urlPath : '/' + urlPath));
      if (!dest.startsWith(dir)) throw new Error(`path escapes the served directory: ${urlPath}`);
      cpSync(sourceDir, dest, { recursive: true });
    },
    url(urlPath) {
      return origin + (urlPath.startsWith('/') ? urlPath : '/' + urlPath);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
