import v8 from 'node:v8'; if (process.env.GROW) v8.setFlagsFromString('--heap-growing-percent=' + process.env.GROW); if (process.env.SEMI) v8.setFlagsFromString('--max-semi-space-size=' + process.env.SEMI);
const { main } = await import(process.cwd() + '/cli/simulate.ts');
const f = (n) => (n / 2 ** 20).toFixed(0);
const t = setInterval(() => { const m = process.memoryUsage(); process.stderr.write(`rss ${f(m.rss)} heapTot ${f(m.heapTotal)} used ${f(m.heapUsed)} ext ${f(m.external)} ab ${f(m.arrayBuffers)}\n`); }, 4000);
const io = { stdout: () => {}, stderr: (s) => process.stderr.write(s), isTTY: false };
const code = await main(['--task', 'esconv', '--episodes', process.argv[2], '--out', '/tmp/cli10-h.jsonl', '--overwrite'], io);
clearInterval(t); for (const s of v8.getHeapSpaceStatistics()) process.stderr.write(s.space_name + ' ' + (s.space_size/2**20).toFixed(1) + ' used ' + (s.space_used_size/2**20).toFixed(1) + '\n');
console.log('code', code, 'maxRSS', (process.resourceUsage().maxRSS / 1024).toFixed(0));
