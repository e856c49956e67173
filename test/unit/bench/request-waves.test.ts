/** The bench's reading of the simulator's request log: dependent waves and the peak rate. */
import { peakPerSecond, requestWaves } from '../../../bench/request-waves.js';
import type { LoggedRequest } from '../../../bench/request-log-reader.js';

const req = (at: number, doneAt: number): LoggedRequest => ({
  method: 'GET',
  path: '/x',
  query: {},
  verb: 'get',
  resource: 'pods',
  status: 200,
  at,
  doneAt,
});

it('counts requests sent together as one wave, and each request sent after an answer as the next', () => {
  // wave 1: three reads in parallel; wave 2: two reads after the first answer; wave 3: one after a wave-2 answer
  const log = [req(0, 100), req(1, 101), req(2, 102), req(100, 200), req(101, 201), req(200, 300)];
  expect(requestWaves(log)).toBe(3);
});

it('counts a sequential script as one wave per request, and independent late starters by what finished before them', () => {
  expect(requestWaves([req(0, 100), req(150, 250), req(300, 400)])).toBe(3);
  // starts after wave 1's answer even though nothing else depends on it: a wave-2 request
  expect(requestWaves([req(0, 100), req(50, 150), req(120, 220)])).toBe(2);
  expect(requestWaves([])).toBe(0);
});

it('finds the busiest second of a log', () => {
  const at = [0, 100, 200, 999, 1000, 2500, 2600];
  expect(peakPerSecond(at.map((t) => req(t, t + 5)))).toBe(4);
  expect(peakPerSecond([])).toBe(0);
});
