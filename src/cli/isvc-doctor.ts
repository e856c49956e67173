#!/usr/bin/env node
/** The isvc-doctor executable. */
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 4;
  },
);
