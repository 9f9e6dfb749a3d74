/** The library's name and version, generated from package.json by `npm run library-version` (do not edit). */
export const LIBRARY = { name: 'proactive-dialogue-lab', version: '0.1.0' } as const;
