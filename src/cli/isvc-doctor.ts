#!/usr/bin/env node
/** The isvc-doctor executable (also linked as the kubectl plugin kubectl-isvc_doctor: see invoked-as.ts). */
import { invokedAs } from './invoked-as.js';
import { main } from './main.js';

const { program, args } = invokedAs(process.argv[1], process.argv.slice(2));

main(args, undefined, { program }).then(
  (code) => {
    process.exitCode = code;
    // a completion answers at once, even while a cluster read it gave up on is still pending
    if (args[0] === '__complete') process.stdout.write('', () => process.exit(code));
  },
  () => {
    process.exitCode = 4;
  },
);
