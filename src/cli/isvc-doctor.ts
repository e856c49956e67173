#!/usr/bin/env node
/**
 * The isvc-doctor executable (also linked as the kubectl plugin kubectl-isvc_doctor: see
 * invoked-as.ts), as tsc and the fast build compile it. `npm run build` writes bundled-bin.ts's
 * bundle over it.
 */
import { main } from './main.js';
import { runBin } from './run-bin.js';

runBin(async () => main);
