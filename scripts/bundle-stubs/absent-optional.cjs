// What the bundles get for optional packages that a dependency loads only when installed and that
// isvc-doctor does not install: ws's `bufferutil` (a native mask). It is asked for when its module
// loads, in a try/catch; the stub fails as the missing package does, without looking for it in
// every node_modules folder up from the bundle at each start.
const error = new Error('optional package not installed with isvc-doctor');
error.code = 'MODULE_NOT_FOUND';
throw error;
