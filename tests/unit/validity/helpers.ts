/** Small slices of the shared datasets for the validity tests (read at run time, never copied into src/). */
import { readData } from '../data/paths';
import type { ValidityFiles } from '../../../src/validity/datasets';

/** The first `n` non-blank lines of a JSONL dataset file. */
export function jsonlHead(relative: string, n: number): string {
  return `${readData(relative)
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, n)
    .join('\n')}\n`;
}

/** The header and the rows of the first `n` dialogues of a P4G sentence CSV (rows of one dialogue are adjacent). */
export function csvFirstDialogues(relative: string, n: number): string {
  const lines = readData(relative).split('\n');
  const ids: string[] = [];
  let end = lines.length;
  for (let i = 1; i < lines.length; i++) {
    const id = (lines[i] as string).split(',', 1)[0] as string;
    if (/^\d{8}-\d{6}_\d+_live$/.test(id) && !ids.includes(id)) {
      if (ids.length === n) {
        end = i;
        break;
      }
      ids.push(id);
    }
  }
  return `${lines.slice(0, end).join('\n')}\n`;
}

/** Small files of every task: 12 ESConv dialogues, 12 CB negotiations, 8 annotated P4G dialogues. */
export function smallFiles(): ValidityFiles {
  return {
    esconv: [{ name: 'esconv-valid.jsonl', text: jsonlHead('esconv/esconv-valid.jsonl', 12) }],
    cb: [{ name: 'craigslistbargain-valid.jsonl', text: jsonlHead('cb/craigslistbargain-valid.jsonl', 12) }],
    p4g: {
      annotated: { name: 'p4g-annotated.csv', text: csvFirstDialogues('p4g/p4g-annotated.csv', 8) },
      participants: { name: 'p4g-participants.csv', text: readData('p4g/p4g-participants.csv') },
    },
  };
}
