#!/usr/bin/env node
// The README's first command on a fresh clone: `npm start` (no dist/ yet) must print the playground's
// URL and serve the page. Run by .ci/run before `npm run build`, so it sees the checkout as a new user
// does. Prints how long the URL took; exits 1 with the output when it does not come within 60 s.
import { spawn } from 'node:child_process';

const started = performance.now();
const child = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
const url = await new Promise((resolve) => {
  const timer = setTimeout(() => resolve(null), 60_000);
  const onData = (chunk) => {
    output += chunk;
    const match = /playground: (http:\/\/\S+)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('exit', () => {
    clearTimeout(timer);
    resolve(null);
  });
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
let ok = false;
if (url) {
  const page = await fetch(url)
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  ok = page.includes('<html');
}
try {
  process.kill(-child.pid, 'SIGTERM');
} catch {
  /* already gone */
}
if (!ok) {
  console.error(`smoke-start: npm start gave no working page within 60 s:\n${output}`);
  process.exit(1);
}
console.log(`smoke-start: npm start printed ${url} after ${seconds} s on a checkout without dist/, and the page loads`);
