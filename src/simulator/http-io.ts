/** Reading request bodies and writing JSON, text and Status answers on node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from './api-error.js';

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'RequestEntityTooLarge', 'the request body is too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonBody(text: string): unknown {
  if (!text.trim()) throw badRequest('the request body is empty');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`the body of the request could not be decoded as JSON: ${(error as Error).message}`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.code, error.toStatus());
}

/** The media type of a request body, lowercased, without parameters. */
export function contentTypeOf(req: IncomingMessage): string {
  return ((req.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase();
}
