/**
 * Browser form of the file writer: hand a finished file to the browser as a download. The browser writes the
 * download to a temporary file and renames it when complete, so the user never sees half a file; this helper
 * only builds the whole content before handing it over (never a partly built one).
 */
import { downloadUnavailableError } from './errors';

/** Minimal DOM surface used by {@link downloadFile}, injectable for tests and workers without `document`. */
export interface DownloadHost {
  createElement(tag: 'a'): {
    href: string;
    download: string;
    rel: string;
    click(): void;
    remove(): void;
  };
  body: { append(node: unknown): void };
}

/**
 * Offer `data` as a download named `name`.
 * @param name file name proposed to the user (no folders).
 * @param data the whole file content; a string is encoded as UTF-8.
 * @param type MIME type (default `application/octet-stream`; use `application/json` or `application/x-ndjson`).
 * @param host DOM to use (default: `globalThis.document`).
 * @throws InputError (DOWNLOAD_UNAVAILABLE) when there is no document (call from a page, not a worker).
 */
export function downloadFile(
  name: string,
  data: string | Uint8Array | Blob,
  type = 'application/octet-stream',
  host: DownloadHost | undefined = (globalThis as { document?: DownloadHost }).document,
): void {
  if (!host) throw downloadUnavailableError();
  const blob = data instanceof Blob ? data : new Blob([data as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const link = host.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  host.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
