/** Saving text as a file on the person's machine (a download made in the page; nothing is uploaded). */
import { downloadFile } from '../../../src/entries/storage';

/**
 * Offers `text` as a download named `fileName` (`type`: its MIME type), through the library's one download writer
 * (src/io/download.ts: the whole file is built before the browser is handed it).
 */
export function downloadText(fileName: string, text: string, type = 'application/x-ndjson'): void {
  downloadFile(fileName, text, type);
}

/** A byte count for people: `812 B`, `3.4 kB`, `1.2 MB`. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}
