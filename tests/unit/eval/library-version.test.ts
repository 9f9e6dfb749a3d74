import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../../../src/eval';
import { libraryModule, LIBRARY_FILE } from '../../../scripts/library-version';

describe('the generated library version (src/eval/library.ts)', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };

  it('matches package.json (run `npm run library-version` when this fails)', () => {
    expect(LIBRARY).toEqual({ name: pkg.name, version: pkg.version });
    expect(readFileSync(LIBRARY_FILE, 'utf8')).toBe(libraryModule(pkg.name, pkg.version));
    expect(libraryModule("it's", '1.0.0')).toContain("name: 'it\\'s'");
  });

  it('is how src/ learns the version: no source file imports a JSON file', () => {
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(sources.length).toBeGreaterThan(50);
    const jsonImports = sources.filter((f) =>
      /(?:from|import)\s*\(?\s*['"][^'"]+\.json['"]/.test(readFileSync(join('src', f), 'utf8')),
    );
    expect(jsonImports).toEqual([]);
  });
});
