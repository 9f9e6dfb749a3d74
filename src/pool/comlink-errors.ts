/**
 * Comlink sends a thrown Error as its name, message and stack only; {@link sendErrorFields} makes a worker send
 * the error's typed fields too (its stable `code` above all, and e.g. a RoleOutputError's role and answers): the
 * page's Comlink copies them onto the Error it rethrows, so the page can branch on `code`.
 */
import * as Comlink from 'comlink';

/** Own data fields of an error that cross to the page (primitives and arrays of them), besides name and message. */
function errorFields(e: Error): Record<string, unknown> {
  const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  return Object.fromEntries(
    Object.entries(e).filter(([, v]) => plain(v) || (Array.isArray(v) && v.every(plain))),
  );
}

/** Installs Comlink's `throw` handler that sends an error's data fields (call once, in the worker). */
export function sendErrorFields(): void {
  const throwHandler = Comlink.transferHandlers.get('throw') as Comlink.TransferHandler<unknown, unknown>;
  Comlink.transferHandlers.set('throw', {
    canHandle: (v): v is unknown => throwHandler.canHandle(v),
    serialize: (thrown) => {
      const value = (thrown as { value: unknown }).value;
      if (!(value instanceof Error)) return throwHandler.serialize(thrown);
      const fields = { ...errorFields(value), name: value.name, message: value.message, stack: value.stack };
      return [{ isError: true, value: fields }, []];
    },
    deserialize: (v) => throwHandler.deserialize(v),
  });
}
