/**
 * The page's files: index.html and styles.css from src/playground/page/, its scripts compiled to
 * dist/src/playground/page/. Served with a Content-Security-Policy that keeps the page on loopback:
 * scripts, styles, images and connections from this origin only.
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { packageRoot } from '../package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};
export const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

export async function serveStatic(pathname: string, res: ServerResponse): Promise<boolean> {
  const name = pathname === '/' ? 'index.html' : pathname.replace(/^\/page\//, '');
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*\.(html|css|js|svg|png)$/.test(name)) return false;
  const root = packageRoot();
  const candidates = name.endsWith('.js')
    ? [path.join(root, 'dist', 'src', 'playground', 'page', name)]
    : [path.join(root, 'src', 'playground', 'page', name)];
  for (const file of candidates) {
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
      });
      res.end(body);
      return true;
    } catch {
      // try the next place
    }
  }
  return false;
}
