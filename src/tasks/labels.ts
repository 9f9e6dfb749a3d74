/**
 * Label normalisation shared by the task definitions and the dataset loaders.
 * Dataset labels come with inconsistent case, spacing, hyphens and underscores (see `shared/data/README.md`).
 */

/** Canonical key of a raw label: trimmed, lower case, runs of spaces / `-` / `_` collapsed to one space. */
export function normalizeLabel(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/** Build a lookup from normalised raw labels to merged labels. */
export function labelMap(entries: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(entries).map(([raw, merged]) => [normalizeLabel(raw), merged]));
}
