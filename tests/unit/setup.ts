/**
 * Setup of every unit-test file: tfjs's cpu backend prints, on its first use in Node, a banner asking to install
 * the tfjs-node backend (`backend_util.warn`, a console.warn). The tests use the wasm / cpu backends on purpose,
 * so the banner — 18 of them in one `npm test` — only hides real failures: that one message is dropped here, every
 * other warning still goes through.
 */
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]): void => {
  if (typeof args[0] === 'string' && args[0].includes('install our node backend')) return;
  warn(...args);
};
