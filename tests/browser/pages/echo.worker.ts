/** Test-only module worker: answers each message with `{ echoed, inWorker }`. */
self.onmessage = (e: MessageEvent) => {
  self.postMessage({
    echoed: e.data,
    inWorker: typeof (self as { document?: unknown }).document === 'undefined',
  });
};
