/** Saving text as a file on the person's machine (a download made in the page; nothing is uploaded). */

/** Offers `text` as a download named `fileName` (`type`: its MIME type). */
export function downloadText(fileName: string, text: string, type = 'application/x-ndjson'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A byte count for people: `812 B`, `3.4 kB`, `1.2 MB`. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}
