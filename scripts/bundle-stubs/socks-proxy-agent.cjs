// What the bundles get for `socks-proxy-agent` (scripts/bundle.mjs): the same class, loaded when a
// kubeconfig's proxy-url is socks5:// and @kubernetes/client-node constructs one, instead of at every
// start (the package and its dependencies, ip-address, socks and debug, build their regular
// expressions and settings when loaded).
let loaded;

class SocksProxyAgent {
  constructor(...args) {
    loaded ??= require('../../node_modules/socks-proxy-agent/dist/index.js'); // by path: the alias covers the name
    // biome-ignore lint/correctness/noConstructorReturn: `new SocksProxyAgent()` must give the real class's instance
    return new loaded.SocksProxyAgent(...args);
  }
}

module.exports = { SocksProxyAgent };
