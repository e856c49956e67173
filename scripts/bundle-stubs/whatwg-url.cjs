// What the bundles get for `whatwg-url` (scripts/bundle.mjs). node-fetch 2, which
// @kubernetes/client-node uses, imports it only as a fallback for a Node without url.URL
// (`Url.URL || whatwgUrl.URL`), never true since Node 10; the package and its Unicode tables (tr46)
// would otherwise be built at every start.
module.exports = { URL: require('node:url').URL, URLSearchParams: require('node:url').URLSearchParams };
